// SPDX-License-Identifier: Apache-2.0
// tonic_rate_timer_prove: formal wrapper of tonic_rate_timer (proof-only,
// synth/prove/).
//
// Instantiates the timer at a small size and checks the safety half of its
// contract (rtl/common/tonic_rate_timer.sv) for one watched flow, chosen
// freely by the solver (watch_i, constant after the first cycle):
//   - never early: a release of the watched flow first presented on rel_* in
//     cycle r is for a pending arming whose effective deadline e satisfies
//     e <= r - 2 (serial 32-bit time, r = now_o of that cycle);
//   - visibility and once: the shadow sees exactly the commands of cycles
//     <= r - 2 (cancel drops the arming, arm replaces it with
//     e = max(arm_time_i, now)); a release consumes the arming, so a second
//     release of one arming, or a release after a cancel, fails the check;
//   - now_o advances by exactly one per cycle.
// Commands are free inputs in every cycle (the cell ignores them before
// init_done_o; so does the shadow), as are rel_ready_i and now_init_i (any
// start time, so the 2^32 wrap is inside the proof). rst_i is raised in the
// first cycle only (synth/prove/run.sh starts from an all-zero state).
// Not checked here: never lost / lateness (liveness; the unit tests bound
// it), and the hint drop statistics.
// With TONIC_PROVE_MUTANT defined the shadow takes commands of cycle r - 1
// into account as well (one cycle less visibility delay than the contract
// states): a release presented in the cycle after a cancel then fails, and
// the proof must find that trace.
`default_nettype none

module tonic_rate_timer_prove #(
  /// Flows of the timer under proof.
  parameter int unsigned FlowCount = 16,
  /// Slot width 2^SlotShift of the hint wheels.
  parameter int unsigned SlotShift = 2,
  /// Slots per hint wheel (SlotCount * 2^SlotShift >= 2F + 4 * 2^SlotShift + 16).
  parameter int unsigned SlotCount = 16,
  /// Hint nodes of bank A.
  parameter int unsigned NearNodes = 4,
  /// Hint nodes of bank B.
  parameter int unsigned FarNodes = 4,
  /// Flow id width (do not override).
  localparam int unsigned FlowW = $clog2(FlowCount)
) (
  input  wire logic             clk_i,
  input  wire logic [31:0]      now_init_i,
  input  wire logic             arm_valid_i,
  input  wire logic             arm_cancel_i,
  input  wire logic [FlowW-1:0] arm_flow_i,
  input  wire logic [31:0]      arm_time_i,
  input  wire logic             rel_ready_i,
  input  wire logic [FlowW-1:0] watch_i,      // the watched flow (constant)
  output logic                  ok_o          // every check holds this cycle
);
`ifdef TONIC_PROVE_MUTANT
  localparam bit Mutant = 1'b1;
`else
  localparam bit Mutant = 1'b0;
`endif

  // Reset in the first cycle only (all state starts at zero).
  logic started_q = 1'b0;
  logic rst;
  assign rst = !started_q;
  always_ff @(posedge clk_i) started_q <= 1'b1;

  logic [31:0]      now;
  logic             init_done;
  logic             rel_valid;
  logic [FlowW-1:0] rel_flow;
  logic             hint_drop;

  tonic_rate_timer #(
    .FlowCount (FlowCount),
    .SlotShift (SlotShift),
    .SlotCount (SlotCount),
    .NearNodes (NearNodes),
    .FarNodes  (FarNodes)
  ) u_dut (
    .clk_i        (clk_i),
    .rst_i        (rst),
    .now_init_i   (now_init_i),
    .now_o        (now),
    .init_done_o  (init_done),
    .arm_valid_i  (arm_valid_i),
    .arm_cancel_i (arm_cancel_i),
    .arm_flow_i   (arm_flow_i),
    .arm_time_i   (arm_time_i),
    .rel_valid_o  (rel_valid),
    .rel_ready_i  (rel_ready_i),
    .rel_flow_o   (rel_flow),
    .hint_drop_o  (hint_drop)
  );

  // The watched flow is fixed after the first cycle.
  logic [FlowW-1:0] watch_q;
  always_ff @(posedge clk_i) watch_q <= watch_i;
  always_comb begin
    assume (rst || watch_i == watch_q);
  end

  // Serial "a >= b" on 32-bit time, as in the cell's contract.
  function automatic logic t_ge(input logic [31:0] a, input logic [31:0] b);
    return $signed(a - b) >= 0;
  endfunction

  // This cycle's command for the watched flow, and last cycle's.
  logic        cmd_v, cmd_cancel;
  logic [31:0] cmd_e;
  logic        d1_v_q, d1_cancel_q;
  logic [31:0] d1_e_q;
  assign cmd_v      = arm_valid_i && init_done && arm_flow_i == watch_i;
  assign cmd_cancel = arm_cancel_i;
  assign cmd_e      = t_ge(arm_time_i, now) ? arm_time_i : now;

  // Shadow: the watched flow's arming as of the commands of cycles <= r - 2,
  // minus the releases already presented.
  logic        pend_q, pend_d;
  logic [31:0] e_q, e_d;
  logic        held_q;   // rel_* held from the last cycle (valid && !ready)
  logic        pres;     // the watched flow is first presented this cycle
  logic [31:0] now_prev_q;
  logic        chk_time_q;  // now_prev_q is a cycle after reset

  assign pres = rel_valid && rel_flow == watch_i && !held_q;

  always_comb begin
    pend_d = pend_q && !pres;
    e_d    = e_q;
    if (Mutant) begin
      if (cmd_v) begin
        pend_d = !cmd_cancel;
        e_d    = cmd_e;
      end
    end else if (d1_v_q) begin
      pend_d = !d1_cancel_q;
      e_d    = d1_e_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst) begin
      d1_v_q <= 1'b0;
      pend_q <= 1'b0;
      held_q <= 1'b0;
    end else begin
      d1_v_q <= cmd_v;
      pend_q <= pend_d;
      held_q <= rel_valid && !rel_ready_i;
    end
    d1_cancel_q <= cmd_cancel;
    d1_e_q      <= cmd_e;
    e_q         <= e_d;
    now_prev_q  <= now;
    chk_time_q  <= !rst;
  end

  // The checks (combinational: each holds in every cycle of the proof).
  logic ok_early, ok_time;
  always_comb begin
    ok_early = rst || !pres || (pend_q && t_ge(now - 32'd2, e_q));
    ok_time  = !chk_time_q || now == now_prev_q + 32'd1;
    assert (ok_early);
    assert (ok_time);
  end
  assign ok_o = ok_early && ok_time;
endmodule

`default_nettype wire
