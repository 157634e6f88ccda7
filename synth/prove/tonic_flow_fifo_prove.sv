// SPDX-License-Identifier: Apache-2.0
// tonic_flow_fifo_prove: formal wrapper of tonic_flow_fifo (proof-only,
// synth/prove/).
//
// Instantiates the FIFO at a small size and compares it every cycle, for
// every input sequence, with a reference queue written straight from the
// contract in rtl/common/tonic_flow_fifo.sv (the same rules as
// tb/common/ref/flow_fifo_ref.hpp):
//   - the reference holds an ordered list of ids; in each cycle the pop
//     (head leaves when shown and out_ready_i) comes first, then the inserts
//     of port 0, 1, ...: an id that is not in the list is appended at the
//     tail, an id that is (including one inserted by a lower port in the
//     same cycle) is a no-op;
//   - ids appended in the previous cycle are "young": the head is shown
//     (out_valid_o) iff the list holds an id that is not young, and
//     count_o = ids that are not young (rules (c), (d));
//   - nxt_valid_o / nxt_id_o equal out_valid_o / out_id_o of the next cycle.
// Checked every cycle: out_valid_o, out_id_o (when valid), count_o, the nxt_*
// outputs, and that the reference never holds an id twice. Equality with the
// reference gives the issue's three properties: no loss (every accepted id
// is shown, in turn), no duplicate (an id is held once and popped once per
// insert that was not a no-op) and FIFO order (ids leave in insert order).
// All ports are free inputs except rst_i, which the wrapper raises in the
// first cycle only (synth/prove/run.sh starts from an all-zero state).
// With TONIC_PROVE_MUTANT defined the reference forgets rule (b) (it looks
// membership up before the pop, so a flow popped and re-inserted in one
// cycle is lost): the proof must then fail.
`default_nettype none

module tonic_flow_fifo_prove #(
  /// Flow ids and depth of the FIFO under proof.
  parameter int unsigned FlowCount = 8,
  /// Insert ports of the FIFO under proof.
  parameter int unsigned WritePorts = 2,
  /// Flow id width (do not override).
  localparam int unsigned IdWidth = $clog2(FlowCount),
  /// Width of count_o (do not override).
  localparam int unsigned CountWidth = $clog2(FlowCount + 1)
) (
  input  wire logic                               clk_i,
  input  wire logic [WritePorts-1:0]              ins_valid_i,
  input  wire logic [WritePorts-1:0][IdWidth-1:0] ins_id_i,
  input  wire logic                               out_ready_i,
  output logic                                    ok_o         // every check holds this cycle
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

  logic                  out_valid, nxt_valid;
  logic [IdWidth-1:0]    out_id, nxt_id;
  logic [CountWidth-1:0] count;

  tonic_flow_fifo #(
    .FlowCount  (FlowCount),
    .WritePorts (WritePorts)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_i       (rst),
    .ins_valid_i (ins_valid_i),
    .ins_id_i    (ins_id_i),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready_i),
    .out_id_o    (out_id),
    .nxt_valid_o (nxt_valid),
    .nxt_id_o    (nxt_id),
    .count_o     (count)
  );

  // Reference: list q[0 .. len-1] (q[0] = head), the last young ones at the tail.
  localparam int unsigned YoungWidth = $clog2(WritePorts + 1);
  logic [IdWidth-1:0]    q_q [FlowCount];
  logic [IdWidth-1:0]    q_d [FlowCount];
  logic [CountWidth-1:0] len_q, len_d;
  logic [YoungWidth-1:0] young_q, young_d;
  logic                  ref_valid;
  logic [CountWidth-1:0] ref_count;
  logic                  pop;

  assign ref_count = len_q - CountWidth'(young_q);
  assign ref_valid = ref_count != '0;
  assign pop       = ref_valid && out_ready_i;

  function automatic logic member(input logic [IdWidth-1:0] list [FlowCount],
                                  input logic [CountWidth-1:0] n,
                                  input logic [IdWidth-1:0] id);
    logic m;
    m = 1'b0;
    for (int unsigned j = 0; j < FlowCount; j++) begin
      if (CountWidth'(j) < n && list[j] == id) begin
        m = 1'b1;
      end
    end
    return m;
  endfunction

  always_comb begin
    q_d     = q_q;
    len_d   = len_q;
    young_d = '0;
    if (pop) begin
      for (int unsigned j = 0; j + 1 < FlowCount; j++) begin
        q_d[j] = q_q[j+1];
      end
      len_d = len_q - CountWidth'(1);
    end
    for (int unsigned k = 0; k < WritePorts; k++) begin
      if (ins_valid_i[k] && !member(q_d, len_d, ins_id_i[k])
          && !(Mutant && member(q_q, len_q, ins_id_i[k]))) begin
        q_d[len_d[IdWidth-1:0]] = ins_id_i[k];  // len_d < FlowCount here: ids are unique
        len_d   = len_d + CountWidth'(1);
        young_d = young_d + YoungWidth'(1);
      end
    end
  end

  logic                  chk_nxt_q;
  logic                  nxt_valid_q;
  logic [IdWidth-1:0]    nxt_id_q;

  always_ff @(posedge clk_i) begin
    if (rst) begin
      len_q   <= '0;
      young_q <= '0;
    end else begin
      len_q   <= len_d;
      young_q <= young_d;
    end
    q_q         <= q_d;
    chk_nxt_q   <= !rst;
    nxt_valid_q <= nxt_valid;
    nxt_id_q    <= nxt_id;
  end

  // The checks (combinational: each holds in every cycle of the proof).
  logic ok_out, ok_count, ok_nxt, ok_unique;
  always_comb begin
    ok_out    = rst || (out_valid == ref_valid && (!ref_valid || out_id == q_q[0]));
    ok_count  = rst || count == ref_count;
    ok_nxt    = !chk_nxt_q || (out_valid == nxt_valid_q && (!nxt_valid_q || out_id == nxt_id_q));
    ok_unique = 32'(len_q) <= FlowCount;
    for (int unsigned i = 0; i < FlowCount; i++) begin
      for (int unsigned j = i + 1; j < FlowCount; j++) begin
        if (CountWidth'(j) < len_q && q_q[i] == q_q[j]) begin
          ok_unique = 1'b0;
        end
      end
    end
    assert (ok_out);
    assert (ok_count);
    assert (ok_nxt);
    assert (ok_unique);
  end
  assign ok_o = ok_out && ok_count && ok_nxt && ok_unique;
endmodule

`default_nettype wire
