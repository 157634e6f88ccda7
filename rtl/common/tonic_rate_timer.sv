// SPDX-License-Identifier: Apache-2.0
// tonic_rate_timer: per-flow "eligible at cycle t" timers for rate credit.
//
// The CR engine's rate scheme (docs/spec/credit-schemes.md, "Rate"): a flow that lacks L bytes of
// credit is armed to become eligible at now + L/R; when that time comes it
// is released on rel_* and goes to the ready-to-transmit set.
//
// Time. An internal 32-bit counter now_o advances by one every cycle; it is
// loaded from now_init_i while rst_i is high. All time arithmetic is serial
// (wrap-safe): a is before b iff the signed 32-bit difference a - b < 0, so a
// deadline may be up to 2^31 - 1 cycles ahead.
//
// Commands (arm_*; no ready: one command per cycle, every cycle, once
// init_done_o is high; commands before that are ignored):
//   - arm (arm_cancel_i = 0): flow arm_flow_i becomes eligible at
//     arm_time_i (absolute). It replaces any earlier arming of the flow that
//     has not been released yet. The effective deadline is
//     e = max(arm_time_i, now) (serial): a time in the past means "now".
//   - cancel (arm_cancel_i = 1): the flow's pending arming (if any) is
//     dropped; arm_time_i is ignored.
//   Visibility: a release presented on rel_* in cycle r reflects exactly the
//   commands presented in cycles <= r - 2 (a command in cycle r - 1 or later
//   is a new arming even if the flow is already being presented).
//
// Releases (rel_*, valid/ready stream, one per cycle at most; valid does not
// depend on ready; the flow is stable while valid && !ready):
//   - released only if its current arming is not cancelled, not released
//     yet, and e <= r - 2 < r (never early), at most once per arming;
//   - never lost: every arming that is neither replaced nor cancelled is
//     released;
//   - lateness r - e <= FlowCount + 12 + B, where B counts the cycles of
//     [e, r) in which rel_valid_o && !rel_ready_i (back-pressure; flows wait,
//     none is dropped). Typical lateness (hint path, nothing else due near
//     the flow) is at most 2^SlotShift + 12. Releases follow expiry order up
//     to the worst-case bound, and at slot granularity when there is no
//     backlog.
//     docs/cells/timer.md gives the argument.
//
// Structure (docs/cells/timer.md):
//   - Per-flow state in RAMs: {at, far, e} written only by the command path,
//     a toggle bit ct written only by the commit stage; the flow is armed
//     iff at != ct. Each reader has its own 1W1R copy.
//   - Sweep (ground truth): reads one flow per cycle (period FlowCount) and
//     offers every armed, expired flow to the commit stage, with priority.
//   - Two hint wheels (tonic_rate_timer_bank): bank A gets a hint for every
//     arming due within 2*FlowCount cycles, bank B gets one from the sweep
//     for far armings when they come within FlowCount + 4 cycles. A cursor
//     drains slot s (2^SlotShift cycles wide) once it is past, offering the
//     hinted flows to the commit stage. Hints are never trusted.
//   - Commit stage (3 cycles): re-reads the flow's state with forwarding
//     from commands and earlier commits, and releases it iff armed and
//     expired; the release loads the output register and flips ct.
`default_nettype none

module tonic_rate_timer #(
  /// Number of flows (flow ids 0..FlowCount-1); a power of two, 16..65536.
  parameter int unsigned FlowCount = 1024,
  /// Slot width of the hint wheels is 2^SlotShift cycles; 2..16.
  parameter int unsigned SlotShift = 2,
  /// Slots per hint wheel; a power of two with
  /// SlotCount * 2^SlotShift >= 2 * FlowCount + 4 * 2^SlotShift + 16.
  parameter int unsigned SlotCount = 1024,
  /// Nodes of hint bank A (direct arms); a power of two >= 4.
  parameter int unsigned NearNodes = 1024,
  /// Nodes of hint bank B (far arms, from the sweep); a power of two >= 4.
  parameter int unsigned FarNodes = 1024,
  /// Flow id width, derived; do not override.
  localparam int unsigned FlowW = $clog2(FlowCount),
  /// Slot index width, derived; do not override.
  localparam int unsigned SlotW = $clog2(SlotCount)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,        // synchronous, active high
  // Time.
  input  wire logic [31:0]      now_init_i,   // now_o while rst_i (tie to 0)
  output logic      [31:0]      now_o,        // current cycle, +1 per cycle
  output logic                  init_done_o,  // state cleared; commands taken
  // Commands: no ready (one per cycle, accepted every cycle after init).
  input  wire logic             arm_valid_i,
  input  wire logic             arm_cancel_i, // 1: cancel, 0: arm
  input  wire logic [FlowW-1:0] arm_flow_i,
  input  wire logic [31:0]      arm_time_i,   // absolute deadline (arm only)
  // Releases (valid/ready stream to the scheduler).
  output logic                  rel_valid_o,
  input  wire logic             rel_ready_i,
  output logic      [FlowW-1:0] rel_flow_o,
  // Statistics: a hint was dropped this cycle (flow left to the sweep).
  output logic                  hint_drop_o
);
  if (FlowCount < 16 || FlowCount > 65536 || (FlowCount & (FlowCount - 1)) != 0)
  begin : g_check_flows
    $fatal(1, "tonic_rate_timer: FlowCount must be a power of two in 16..65536");
  end
  if (SlotShift < 2 || SlotShift > 16) begin : g_check_shift
    $fatal(1, "tonic_rate_timer: SlotShift must be in 2..16");
  end
  if (SlotCount < 4 || (SlotCount & (SlotCount - 1)) != 0) begin : g_check_slots
    $fatal(1, "tonic_rate_timer: SlotCount must be a power of two >= 4");
  end
  if (64'(SlotCount) << SlotShift < 64'(2 * FlowCount) + (64'(4) << SlotShift) + 64'(16))
  begin : g_check_horizon
    $fatal(1, "tonic_rate_timer: SlotCount * 2^SlotShift < 2*FlowCount + 4*2^SlotShift + 16");
  end
  if (NearNodes < 4 || (NearNodes & (NearNodes - 1)) != 0) begin : g_check_near
    $fatal(1, "tonic_rate_timer: NearNodes must be a power of two >= 4");
  end
  if (FarNodes < 4 || (FarNodes & (FarNodes - 1)) != 0) begin : g_check_far
    $fatal(1, "tonic_rate_timer: FarNodes must be a power of two >= 4");
  end

  // Derived constants.
  /// Slot number width (time >> SlotShift); do not override.
  localparam int unsigned SnW = 32 - SlotShift;
  /// An arming is far iff e - now >= 2^FarShift = 2 * FlowCount.
  localparam int unsigned FarShift = FlowW + 1;
  /// Sweep hint lead: a far flow is hinted when e - now in [Lead, Lead+FlowCount).
  localparam logic [31:0] Lead = 32'd4;
  /// A slot is drained once now >= its end + Slack (appends have landed).
  localparam logic [31:0] Slack = 32'd6;
  localparam logic [31:0] SlotLen = 32'd1 << SlotShift;

  // Serial "a >= b" on 32-bit time.
  function automatic logic t_ge(input logic [31:0] a, input logic [31:0] b);
    return $signed(a - b) >= 0;
  endfunction

  // ---------------------------------------------------------------------
  // Time and initialisation.
  // ---------------------------------------------------------------------
  logic [31:0]      now_q, now_d;
  logic [31:0]      nowlead_q, nowlead_d;   // now + Lead
  logic [FlowW:0]   init_q, init_d;         // init sweep counter
  logic             init_done;
  logic             scan_on_q, scan_on_d;   // sweep data is valid

  assign now_o       = now_q;
  assign init_done   = init_q[FlowW];
  assign init_done_o = init_done;

  always_comb begin
    now_d     = now_q + 32'd1;
    nowlead_d = nowlead_q + 32'd1;
    init_d    = init_done ? init_q : init_q + (FlowW + 1)'(1);
    scan_on_d = init_done;
  end

  // ---------------------------------------------------------------------
  // Declarations shared by the stages.
  // ---------------------------------------------------------------------
  // Command path: C1 registers.
  logic             c1_valid_q, c1_valid_d;
  logic             c1_cancel_q, c1_cancel_d;
  logic [FlowW-1:0] c1_flow_q, c1_flow_d;
  logic [31:0]      c1_e_q, c1_e_d;
  logic             c1_far_q, c1_far_d;
  logic             c1_eqcw_q, c1_eqcw_d;   // commit to this flow last cycle
  logic             c1_cwat_q, c1_cwat_d;   // ... and the ct it wrote
  logic             c1_at;                  // at written by C1
  logic             ct_arm_rd;
  // Hint A registers (lookup stage of bank A).
  logic             ha_valid_q, ha_valid_d;
  logic [FlowW-1:0] ha_flow_q, ha_flow_d;
  logic [SlotW-1:0] ha_slot_q, ha_slot_d;
  logic             ha_range_drop;
  // Sweep.
  logic [FlowW-1:0] sv_flow_q, sv_flow_d;   // flow whose state is on the read port
  logic [FlowW-1:0] sv_rd_addr;
  logic [33:0]      row_s_rd;               // {at, far, e}
  logic             ct_s_rd;
  logic             sv_cand, sv_stall;
  logic             sk_in_ready;
  logic             sk_valid;
  logic [FlowW-1:0] sk_flow;
  logic             hb_valid_q, hb_valid_d;
  logic [FlowW-1:0] hb_flow_q, hb_flow_d;
  logic [SlotW-1:0] hb_slot_q, hb_slot_d;
  logic             hb_range_drop;
  // Cursor.
  typedef enum logic {
    CurWait = 1'b0,
    CurBusy = 1'b1
  } cur_state_e;
  cur_state_e       cur_state_q, cur_state_d;
  logic [SnW-1:0]   cur_slot_q, cur_slot_d;  // next slot to drain (absolute)
  logic [31:0]      end_a_q, end_a_d;        // its end + Slack - 1
  logic [31:0]      end_b_q, end_b_d;        // the following slot's
  logic             due_q, due_d;
  logic             done_a_q, done_a_d, done_b_q, done_b_d;
  logic             drain_start;
  logic             bank_a_done, bank_b_done;
  logic             ca_valid, ca_ready, cb_valid, cb_ready;
  logic [FlowW-1:0] ca_flow, cb_flow;
  logic             drop_a, drop_b;
  // Commit stages.
  logic             a0_valid;
  logic [FlowW-1:0] a0_flow;
  logic             a1_valid_q, a1_valid_d;
  logic [FlowW-1:0] a1_flow_q, a1_flow_d;
  logic             a1_eqprev_q, a1_eqprev_d;  // C1 wrote this flow in A0's cycle
  logic             a1_pat_q, a1_pat_d;        // ... its at
  logic [31:0]      a1_pe_q, a1_pe_d;          // ... its e
  logic             a1_eqnow_q, a1_eqnow_d;    // C1 writes this flow in A1's cycle
  logic             a1_eqcw_q, a1_eqcw_d;      // commit to this flow in A0's cycle
  logic             a1_cwat_q, a1_cwat_d;      // ... the ct it wrote
  logic [32:0]      row_c_rd;                  // {at, e}
  logic             ct_c_rd;
  logic             a1_at, a1_ok;
  logic             a2_valid_q, a2_valid_d;
  logic [FlowW-1:0] a2_flow_q, a2_flow_d;
  logic             a2_ok_q, a2_ok_d;
  logic             a2_at_q, a2_at_d;
  logic             a2_live, a2_commit, a2_hold;
  // Output register.
  logic             out_valid_q, out_valid_d;
  logic [FlowW-1:0] out_flow_q, out_flow_d;

  // ---------------------------------------------------------------------
  // Command path. C0 (the command's cycle): effective deadline, near/far,
  // read ct. C1: at = ~ct (arm) or ct (cancel); write {at, far, e}.
  // ---------------------------------------------------------------------
  always_comb begin
    logic past;
    past        = !t_ge(arm_time_i, now_q);
    c1_valid_d  = arm_valid_i && init_done;
    c1_cancel_d = arm_cancel_i;
    c1_flow_d   = arm_flow_i;
    c1_e_d      = past ? now_q : arm_time_i;
    c1_far_d    = !past && (((arm_time_i - now_q) >> FarShift) != '0);
    c1_eqcw_d   = a2_commit && (a2_flow_q == arm_flow_i);
    c1_cwat_d   = a2_at_q;
  end

  always_comb begin
    logic ct;
    ct    = c1_eqcw_q ? c1_cwat_q : ct_arm_rd;
    c1_at = c1_cancel_q ? ct : !ct;
  end

  // Hint for bank A (near arms), in slot e >> SlotShift if it lies within
  // SlotCount slots of the cursor (else left to the sweep).
  always_comb begin
    logic in_range;
    in_range      = ((c1_e_q[31:SlotShift] - cur_slot_q) >> SlotW) == '0;
    ha_flow_d     = c1_flow_q;
    ha_slot_d     = c1_e_q[SlotShift +: SlotW];
    ha_valid_d    = 1'b0;
    ha_range_drop = 1'b0;
    if (c1_valid_q && !c1_cancel_q && !c1_far_q) begin
      if (in_range) begin
        ha_valid_d = 1'b1;
      end else begin
        ha_range_drop = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------
  // Sweep: one flow per cycle; holds (re-reads) its flow while its release
  // candidate cannot enter the skid buffer.
  // ---------------------------------------------------------------------
  always_comb begin
    logic        armed, expired, far, in_window, in_range;
    logic [31:0] e;
    armed     = row_s_rd[33] ^ ct_s_rd;
    far       = row_s_rd[32];
    e         = row_s_rd[31:0];
    expired   = t_ge(now_q, e);
    in_window = ((e - nowlead_q) >> FlowW) == '0;
    in_range  = ((e[31:SlotShift] - cur_slot_q) >> SlotW) == '0;
    sv_cand   = scan_on_q && armed && expired;
    sv_stall  = sv_cand && !sk_in_ready;
    sv_rd_addr = sv_stall ? sv_flow_q : sv_flow_q + FlowW'(1);
    sv_flow_d = sv_rd_addr;
    hb_flow_d = sv_flow_q;
    hb_slot_d = e[SlotShift +: SlotW];
    hb_valid_d    = 1'b0;
    hb_range_drop = 1'b0;
    if (scan_on_q && armed && far && in_window) begin
      if (in_range) begin
        hb_valid_d = 1'b1;
      end else begin
        hb_range_drop = 1'b1;
      end
    end
  end

  tonic_skid_buffer #(.Width(FlowW)) u_sweep_skid (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .in_valid_i (sv_cand),
    .in_ready_o (sk_in_ready),
    .in_data_i  (sv_flow_q),
    .out_valid_o(sk_valid),
    .out_ready_i(!a2_hold),
    .out_data_o (sk_flow)
  );

  // ---------------------------------------------------------------------
  // Cursor: drains slot cur_slot_q of both banks once it is past.
  // ---------------------------------------------------------------------
  always_comb begin
    logic both;
    cur_state_d = cur_state_q;
    cur_slot_d  = cur_slot_q;
    end_a_d     = end_a_q;
    end_b_d     = end_b_q;
    done_a_d    = done_a_q;
    done_b_d    = done_b_q;
    drain_start = 1'b0;
    due_d       = t_ge(now_q, end_a_q);
    both        = (done_a_q || bank_a_done) && (done_b_q || bank_b_done);
    unique case (cur_state_q)
      CurWait: begin
        if (due_q) begin
          drain_start = 1'b1;
          cur_state_d = CurBusy;
          done_a_d    = 1'b0;
          done_b_d    = 1'b0;
        end
      end
      CurBusy: begin
        done_a_d = done_a_q || bank_a_done;
        done_b_d = done_b_q || bank_b_done;
        if (both) begin
          cur_state_d = CurWait;
          cur_slot_d  = cur_slot_q + SnW'(1);
          end_a_d     = end_b_q;
          end_b_d     = end_b_q + SlotLen;
          due_d       = t_ge(now_q, end_b_q);
        end
      end
      default: cur_state_d = CurWait;
    endcase
  end

  // ---------------------------------------------------------------------
  // Commit stage. A0: pick a candidate (sweep first, then bank A, bank B)
  // or, while A2 holds, re-read A1's flow; read its state. A1: forward and
  // decide armed && expired. A2: release unless a command for the flow
  // lands in this cycle; hold while the output register is full.
  // ---------------------------------------------------------------------
  assign a2_live   = a2_valid_q && a2_ok_q && !(c1_valid_q && c1_flow_q == a2_flow_q);
  assign a2_commit = a2_live && (!out_valid_q || rel_ready_i);
  assign a2_hold   = a2_live && out_valid_q && !rel_ready_i;
  assign ca_ready  = !a2_hold && !sk_valid;
  assign cb_ready  = !a2_hold && !sk_valid && !ca_valid;

  always_comb begin
    if (a2_hold) begin
      a0_valid = a1_valid_q;
      a0_flow  = a1_flow_q;
    end else if (sk_valid) begin
      a0_valid = 1'b1;
      a0_flow  = sk_flow;
    end else if (ca_valid) begin
      a0_valid = 1'b1;
      a0_flow  = ca_flow;
    end else begin
      a0_valid = cb_valid;
      a0_flow  = cb_flow;
    end
    a1_valid_d  = a0_valid;
    a1_flow_d   = a0_flow;
    a1_eqprev_d = c1_valid_q && (c1_flow_q == a0_flow);
    a1_pat_d    = c1_at;
    a1_pe_d     = c1_e_q;
    a1_eqnow_d  = arm_valid_i && init_done && (arm_flow_i == a0_flow);
    a1_eqcw_d   = a2_commit && (a2_flow_q == a0_flow);
    a1_cwat_d   = a2_at_q;
  end

  always_comb begin
    logic ct, exp_ram, exp_prev, exp_now, expired;
    ct       = a1_eqcw_q ? a1_cwat_q : ct_c_rd;
    exp_ram  = t_ge(now_q, row_c_rd[31:0]);
    exp_prev = t_ge(now_q, a1_pe_q);
    exp_now  = t_ge(now_q, c1_e_q);
    if (a1_eqnow_q) begin
      a1_at   = c1_at;
      expired = exp_now;
    end else if (a1_eqprev_q) begin
      a1_at   = a1_pat_q;
      expired = exp_prev;
    end else begin
      a1_at   = row_c_rd[32];
      expired = exp_ram;
    end
    a1_ok = (a1_at ^ ct) && expired && !(a2_commit && a2_flow_q == a1_flow_q);
    if (a2_hold) begin
      a2_valid_d = a2_valid_q;
      a2_flow_d  = a2_flow_q;
      a2_ok_d    = a2_ok_q;
      a2_at_d    = a2_at_q;
    end else begin
      a2_valid_d = a1_valid_q;
      a2_flow_d  = a1_flow_q;
      a2_ok_d    = a1_ok;
      a2_at_d    = a1_at;
    end
  end

  always_comb begin
    out_valid_d = out_valid_q && !rel_ready_i;
    out_flow_d  = out_flow_q;
    if (a2_commit) begin
      out_valid_d = 1'b1;
      out_flow_d  = a2_flow_q;
    end
  end

  assign rel_valid_o = out_valid_q;
  assign rel_flow_o  = out_flow_q;
  assign hint_drop_o = drop_a || drop_b || ha_range_drop || hb_range_drop;

  // ---------------------------------------------------------------------
  // Registers.
  // ---------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      now_q       <= now_init_i;
      nowlead_q   <= now_init_i + Lead;
      init_q      <= '0;
      scan_on_q   <= 1'b0;
      c1_valid_q  <= 1'b0;
      ha_valid_q  <= 1'b0;
      hb_valid_q  <= 1'b0;
      sv_flow_q   <= '0;
      cur_state_q <= CurWait;
      cur_slot_q  <= now_init_i[31:SlotShift];
      end_a_q     <= {now_init_i[31:SlotShift], SlotShift'(0)} + SlotLen + Slack - 32'd1;
      end_b_q     <= {now_init_i[31:SlotShift], SlotShift'(0)} + (SlotLen << 1) + Slack - 32'd1;
      due_q       <= 1'b0;
      done_a_q    <= 1'b0;
      done_b_q    <= 1'b0;
      a1_valid_q  <= 1'b0;
      a2_valid_q  <= 1'b0;
      out_valid_q <= 1'b0;
    end else begin
      now_q       <= now_d;
      nowlead_q   <= nowlead_d;
      init_q      <= init_d;
      scan_on_q   <= scan_on_d;
      c1_valid_q  <= c1_valid_d;
      ha_valid_q  <= ha_valid_d;
      hb_valid_q  <= hb_valid_d;
      sv_flow_q   <= sv_flow_d;
      cur_state_q <= cur_state_d;
      cur_slot_q  <= cur_slot_d;
      end_a_q     <= end_a_d;
      end_b_q     <= end_b_d;
      due_q       <= due_d;
      done_a_q    <= done_a_d;
      done_b_q    <= done_b_d;
      a1_valid_q  <= a1_valid_d;
      a2_valid_q  <= a2_valid_d;
      out_valid_q <= out_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    c1_cancel_q <= c1_cancel_d;
    c1_flow_q   <= c1_flow_d;
    c1_e_q      <= c1_e_d;
    c1_far_q    <= c1_far_d;
    c1_eqcw_q   <= c1_eqcw_d;
    c1_cwat_q   <= c1_cwat_d;
    ha_flow_q   <= ha_flow_d;
    ha_slot_q   <= ha_slot_d;
    hb_flow_q   <= hb_flow_d;
    hb_slot_q   <= hb_slot_d;
    a1_flow_q   <= a1_flow_d;
    a1_eqprev_q <= a1_eqprev_d;
    a1_pat_q    <= a1_pat_d;
    a1_pe_q     <= a1_pe_d;
    a1_eqnow_q  <= a1_eqnow_d;
    a1_eqcw_q   <= a1_eqcw_d;
    a1_cwat_q   <= a1_cwat_d;
    a2_flow_q   <= a2_flow_d;
    a2_ok_q     <= a2_ok_d;
    a2_at_q     <= a2_at_d;
    out_flow_q  <= out_flow_d;
  end

  // ---------------------------------------------------------------------
  // Per-flow state memories (each reader has its own copy).
  // ---------------------------------------------------------------------
  logic             row_we;
  logic [FlowW-1:0] row_waddr;
  logic [31:0]      row_e;
  logic             row_at, row_far;
  logic             ct_we;
  logic [FlowW-1:0] ct_waddr;
  logic             ct_wdata;

  always_comb begin
    if (!init_done) begin
      row_we    = 1'b1;
      row_waddr = init_q[FlowW-1:0];
      row_at    = 1'b0;
      row_far   = 1'b0;
      row_e     = '0;
      ct_we     = 1'b1;
      ct_waddr  = init_q[FlowW-1:0];
      ct_wdata  = 1'b0;
    end else begin
      row_we    = c1_valid_q;
      row_waddr = c1_flow_q;
      row_at    = c1_at;
      row_far   = c1_far_q;
      row_e     = c1_e_q;
      ct_we     = a2_commit;
      ct_waddr  = a2_flow_q;
      ct_wdata  = a2_at_q;
    end
  end

  // {at, e} for the commit stage.
  tonic_ram_1w1r #(.Depth(FlowCount), .Width(33)) u_row_commit (
    .clk_i    (clk_i),
    .wr_en_i  (row_we),
    .wr_addr_i(row_waddr),
    .wr_data_i({row_at, row_e}),
    .rd_en_i  (1'b1),
    .rd_addr_i(a0_flow),
    .rd_data_o(row_c_rd)
  );
  // {at, far, e} for the sweep.
  tonic_ram_1w1r #(.Depth(FlowCount), .Width(34)) u_row_sweep (
    .clk_i    (clk_i),
    .wr_en_i  (row_we),
    .wr_addr_i(row_waddr),
    .wr_data_i({row_at, row_far, row_e}),
    .rd_en_i  (1'b1),
    .rd_addr_i(sv_rd_addr),
    .rd_data_o(row_s_rd)
  );
  // ct, copy read by the command path.
  tonic_ram_1w1r #(.Depth(FlowCount), .Width(1)) u_ct_arm (
    .clk_i    (clk_i),
    .wr_en_i  (ct_we),
    .wr_addr_i(ct_waddr),
    .wr_data_i(ct_wdata),
    .rd_en_i  (1'b1),
    .rd_addr_i(arm_flow_i),
    .rd_data_o(ct_arm_rd)
  );
  // ct, copy read by the commit stage.
  tonic_ram_1w1r #(.Depth(FlowCount), .Width(1)) u_ct_commit (
    .clk_i    (clk_i),
    .wr_en_i  (ct_we),
    .wr_addr_i(ct_waddr),
    .wr_data_i(ct_wdata),
    .rd_en_i  (1'b1),
    .rd_addr_i(a0_flow),
    .rd_data_o(ct_c_rd)
  );
  // ct, copy read by the sweep.
  tonic_ram_1w1r #(.Depth(FlowCount), .Width(1)) u_ct_sweep (
    .clk_i    (clk_i),
    .wr_en_i  (ct_we),
    .wr_addr_i(ct_waddr),
    .wr_data_i(ct_wdata),
    .rd_en_i  (1'b1),
    .rd_addr_i(sv_rd_addr),
    .rd_data_o(ct_s_rd)
  );

  // ---------------------------------------------------------------------
  // Hint wheels.
  // ---------------------------------------------------------------------
  tonic_rate_timer_bank #(
    .FlowCount(FlowCount),
    .SlotCount(SlotCount),
    .Nodes    (NearNodes)
  ) u_bank_near (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .hint_valid_i (ha_valid_q),
    .hint_flow_i  (ha_flow_q),
    .hint_slot_i  (ha_slot_q),
    .hint_drop_o  (drop_a),
    .drain_start_i(drain_start),
    .drain_slot_i (cur_slot_q[SlotW-1:0]),
    .drain_done_o (bank_a_done),
    .cand_valid_o (ca_valid),
    .cand_ready_i (ca_ready),
    .cand_flow_o  (ca_flow)
  );

  tonic_rate_timer_bank #(
    .FlowCount(FlowCount),
    .SlotCount(SlotCount),
    .Nodes    (FarNodes)
  ) u_bank_far (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .hint_valid_i (hb_valid_q),
    .hint_flow_i  (hb_flow_q),
    .hint_slot_i  (hb_slot_q),
    .hint_drop_o  (drop_b),
    .drain_start_i(drain_start),
    .drain_slot_i (cur_slot_q[SlotW-1:0]),
    .drain_done_o (bank_b_done),
    .cand_valid_o (cb_valid),
    .cand_ready_i (cb_ready),
    .cand_flow_o  (cb_flow)
  );
endmodule

`default_nettype wire
