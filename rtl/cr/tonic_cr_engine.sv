// SPDX-License-Identifier: Apache-2.0
// tonic_cr_engine: credit engine, window-credit scheme.
//
// Holds up to RingN segment addresses per flow, produced by the DD engine
// ahead of transmission, and releases one address per cycle to the DMA
// pipeline, round robin between flows that have one (docs/spec/blocks.md,
// "Flow scheduling", step 2). With window credit the DD engine already enforces the window, so a
// flow is ready to transmit iff its ring is not empty. The rate and token
// schemes take a permit where the DD engine picks a segment (one permit
// per segment, docs/design/credit-schemes.md); with WireGate on, this
// engine checks credit again where an address leaves (the wire gate), so
// that a revocation (a rate cut) reaches addresses already queued.
//
// Semantics:
//   - enq_valid_i && enq_init_i: flow enq_flow_i is (re)initialised with
//     an empty ring (the DD engine sends this when a flow is added; the
//     flow must be idle, with no address outstanding). Initialisation
//     goes through the enqueue port so the tail pointers keep one writer.
//   - enq_valid_i && !enq_init_i: append {enq_idx_i, enq_rtx_i, enq_len_i}
//     to flow enq_flow_i's ring. No ready: the DD engine never has more
//     than RingN addresses of a flow outstanding. An enqueue to a full ring
//     is dropped and flagged (enq_drop_o pulses); nothing else changes.
//   - seg_*: one address per cycle, per flow in enqueue order, between
//     flows round robin (a flow with more queued goes to the back after
//     each address). When no other flow is waiting, the last flow served
//     is served again at once, so one flow alone gets every cycle.
//   - txn_valid_o/txn_flow_o: one cycle after an address leaves (seg_valid_o
//     && seg_ready_i), the DD engine is told (transmit notify; it decrements
//     the flow's outstanding count, and a protocol's transmit event sees
//     txn_idx_o, txn_rtx_o and txn_len_o). No ready.
//   - Latency: an address enqueued in cycle t to an empty ring of an idle
//     engine leaves in cycle t + 4 at the earliest (ready-set insert 2, ring
//     read 1, output register 1).
//   - Wire gate (WireGate = 1 or 2): per flow, wire permits W = wg - ws (17-bit
//     counters mod 2^17; W >= 0 always): wg has one writer, the gate
//     port (gate_set_i = 0: wg += gate_cnt_i; gate_set_i = 1: wg = ws +
//     gate_cnt_i, a revocation), ws one, the release (+1 per address read
//     from a ring). A flow's address is read only while W > 0; a flow
//     picked with W <= 0 is held: it leaves the ready set (gate_hold_o
//     pulses, one cycle later: the rate cell is asked for credit; token
//     credit comes from the receiver) and a later gate write with
//     gate_cnt_i != 0 puts it back if its ring is not empty. A set with
//     gate_void_i (a rate cut, a token set) hands the W it voided back
//     on void_* (less a release of the same flow in its cycle), exactly:
//     the DD engine subtracts it from the flow's permits, which leaves
//     them at minus the addresses still in the ring. The DD engine sends every permit it grants here
//     too (and its revocations), so W = its permits + this flow's queued
//     addresses until a revocation, and the gate never holds a flow then.
//     A revocation in cycle t applies to every read from cycle t + 1: at
//     most the output queue's entries and the read in flight (OqDepth + 1)
//     leave after it. W never exceeds 65535 + RingN (the DD engine's cap).
//     Bad input (a grant that would take W past 2^17 - 1) is not checked
//     here: the DD engine's grant stage cuts permits at 65535.
//     With WireGate = 2 a ring init (ADD) also sets W = GateInit: wg is
//     then two LUTRAM banks, one per writer (the gate port, the init),
//     read as their XOR (each writer stores its value XOR the other
//     bank), so both may write in one cycle (never the same flow: a flow is
//     initialised only while absent, and only present flows get grants).
//
// Structure: `head`/`tail` per flow (one writer each: transmit / enqueue;
// count = tail - head, mod 2 RingN) in plain arrays (LUTRAM); the rings in
// one 1W1R block RAM addressed {flow, slot}; the ready set is a
// tonic_flow_fifo with 2 insert ports (enqueue into an empty ring, transmit
// of a flow with more queued). The transmit stage fires only when the
// output queue has room for the block-RAM read it starts, so back-pressure
// never loses an address.
`default_nettype none

module tonic_cr_engine #(
  /// Number of flows; ids 0..FlowCount-1. A power of two >= 4.
  parameter int unsigned FlowCount = 1024,
  /// Ring entries per flow (N); a power of two in 2..256.
  parameter int unsigned RingN = 16,
  /// Width of a segment's length field.
  parameter int unsigned LenW = 16,
  /// Check wire permits where an address leaves: 0 no; 1 yes, W set only
  /// through the gate port (rate: the rate cell's INIT revocation sets it);
  /// 2 yes, and a ring init also sets W to GateInit (token: TokensInit).
  parameter int unsigned WireGate = 0,
  /// W of a flow at its ring init (WireGate = 2).
  parameter int unsigned GateInit = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_i,        // synchronous, active high
  // Enqueue from the DD engine (no ready).
  input  wire logic            enq_valid_i,
  input  wire logic            enq_init_i,   // initialise the flow's ring instead
  input  wire logic [IdW-1:0]  enq_flow_i,
  input  wire logic [31:0]     enq_idx_i,    // segment index
  input  wire logic            enq_rtx_i,    // retransmission
  input  wire logic [LenW-1:0] enq_len_i,    // bytes
  // Segment addresses to the DMA pipeline.
  output logic                 seg_valid_o,
  input  wire logic            seg_ready_i,
  output logic      [IdW-1:0]  seg_flow_o,
  output logic      [31:0]     seg_idx_o,
  output logic                 seg_rtx_o,
  output logic      [LenW-1:0] seg_len_o,
  // Transmit notify to the DD engine (no ready).
  output logic                 txn_valid_o,
  output logic      [IdW-1:0]  txn_flow_o,
  output logic      [31:0]     txn_idx_o,    // the address that left: index,
  output logic                 txn_rtx_o,    // retransmission,
  output logic      [LenW-1:0] txn_len_o,    // length
  // Wire gate (WireGate = 1; ignored otherwise): add or set permits.
  input  wire logic            gate_valid_i,
  input  wire logic            gate_set_i,   // W = gate_cnt_i instead of W += gate_cnt_i ...
  input  wire logic            gate_void_i,  // ... and hand the voided W back (void_*)
  input  wire logic [IdW-1:0]  gate_flow_i,
  input  wire logic [15:0]     gate_cnt_i,
  // A flow was held at the gate (registered one-cycle pulse: the rate
  // cell is asked for credit, and it is counted).
  output logic                 gate_hold_o,
  output logic      [IdW-1:0]  gate_hold_flow_o,
  // The wire permits a set with gate_void_i voided (registered; the DD
  // engine subtracts them from the flow's permits).
  output logic                 void_valid_o,
  output logic      [IdW-1:0]  void_flow_o,
  output logic      [16:0]     void_cnt_o,   // W before the set (< 2^17)
  // Bad input: an enqueue to a full ring was dropped (one-cycle pulse).
  output logic                 enq_drop_o,
  // Flows in the ready set (statistics; tonic_flow_fifo count_o rules).
  output logic      [IdW:0]    ready_flows_o
);
  if (FlowCount < 4 || (FlowCount & (FlowCount - 1)) != 0) begin : g_check_flows
    $fatal(1, "tonic_cr_engine: FlowCount must be a power of two >= 4");
  end
  if (RingN < 2 || RingN > 256 || (RingN & (RingN - 1)) != 0) begin : g_check_ring
    $fatal(1, "tonic_cr_engine: RingN must be a power of two in 2..256");
  end

  // Derived sizes (do not override).
  localparam int unsigned SlotW  = $clog2(RingN);      // slot within a ring
  localparam int unsigned PtrW   = SlotW + 1;          // head/tail, mod 2 RingN
  localparam int unsigned EntryW = 32 + 1 + LenW;      // {idx, rtx, len}
  localparam int unsigned OqDepth = 4;                 // output queue entries
  localparam int unsigned OqW     = $clog2(OqDepth + 1);  // holds 0..OqDepth

  typedef logic [IdW-1:0]  flow_t;
  typedef logic [PtrW-1:0] ptr_t;

  // Per-flow ring pointers (no reset: a flow's add makes tail = head).
  ptr_t head_q [FlowCount];
  ptr_t tail_q [FlowCount];

  // ---------------------------------------------------------------------
  // Transmit stage: pick the flow, start the ring read.
  logic  rs_valid, rs_pop;   // ready set head / pop it
  flow_t rs_id;
  logic  cur_valid_q;        // the flow served last (sticky candidate)
  flow_t cur_q;

  logic        oq_room;      // the output queue can take one more read
  logic        pick;         // a flow is chosen this cycle
  flow_t       f;            // the chosen flow
  ptr_t        f_head, f_tail, f_cnt;
  logic        fire;         // an address of f is read this cycle
  logic        enq_same;     // this cycle's enqueue is for f
  logic        f_more;       // f still has addresses after this one
  logic        enq_ok;       // enqueue accepted (ring not full)

  assign f        = rs_valid ? rs_id : cur_q;
  assign pick     = oq_room && (rs_valid || cur_valid_q);
  assign rs_pop   = oq_room && rs_valid;
  assign f_head   = head_q[f];
  assign f_tail   = tail_q[f];
  assign f_cnt    = f_tail - f_head;
  logic        f_ok;         // f may release: the wire gate allows it
  assign fire     = pick && (f_cnt != '0) && !(enq_valid_i && enq_init_i && enq_flow_i == f) && f_ok;
  assign enq_same = enq_ok && enq_flow_i == f;
  // After this read: f_cnt - 1 + (enqueue to f this cycle).
  assign f_more   = (f_cnt != ptr_t'(1)) || enq_same;

  // ---------------------------------------------------------------------
  // Enqueue.
  ptr_t e_head, e_tail, e_cnt;
  logic enq_insert;          // ring was empty: flow joins the ready set
  assign e_head     = head_q[enq_flow_i];
  assign e_tail     = tail_q[enq_flow_i];
  assign e_cnt      = e_tail - e_head;
  // A read of the same flow this cycle frees a slot only at the edge, so
  // the full test uses the count before it (the DD engine never fills a
  // ring, so this costs nothing in practice).
  assign enq_ok     = enq_valid_i && !enq_init_i && (e_cnt != ptr_t'(RingN));
  assign enq_insert = enq_ok && (e_cnt == '0);
  assign enq_drop_o = enq_valid_i && !enq_init_i && !enq_ok;

  always_ff @(posedge clk_i) begin
    if (enq_valid_i && enq_init_i) begin
      tail_q[enq_flow_i] <= e_head;
    end else if (enq_ok) begin
      tail_q[enq_flow_i] <= e_tail + ptr_t'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (fire) begin
      head_q[f] <= f_head + ptr_t'(1);
    end
  end

  // ---------------------------------------------------------------------
  // Ready set: enqueue into an empty ring (port 0), transmit of a flow
  // with more queued (port 1). Members that turn out empty when popped
  // (served meanwhile as the sticky flow) cost one idle cycle.
  logic           rs_nxt_valid_unused;
  logic [IdW-1:0] rs_nxt_id_unused;
  logic           gate_insert;   // a gate add puts a held flow back
  localparam int unsigned RsPorts = (WireGate != 0) ? 4 : 2;
  logic [RsPorts-1:0]          rs_ins_valid;
  logic [RsPorts-1:0][IdW-1:0] rs_ins_id;
  if (WireGate != 0) begin : g_rs4
    assign rs_ins_valid = {1'b0, gate_insert, fire && f_more, enq_insert};
    assign rs_ins_id    = {gate_flow_i, gate_flow_i, f, enq_flow_i};
  end else begin : g_rs2
    assign rs_ins_valid = {fire && f_more, enq_insert};
    assign rs_ins_id    = {f, enq_flow_i};
  end
  tonic_flow_fifo #(
    .FlowCount (FlowCount),
    .WritePorts(RsPorts)
  ) u_ready (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .ins_valid_i(rs_ins_valid),
    .ins_id_i   (rs_ins_id),
    .out_valid_o(rs_valid),
    .out_ready_i(rs_pop),
    .out_id_o   (rs_id),
    .nxt_valid_o(rs_nxt_valid_unused),
    .nxt_id_o   (rs_nxt_id_unused),
    .count_o    (ready_flows_o)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cur_valid_q <= 1'b0;
    end else if (pick) begin
      cur_valid_q <= fire && f_more;
    end
  end

  always_ff @(posedge clk_i) begin
    if (pick) begin
      cur_q <= f;
    end
  end

  // ---------------------------------------------------------------------
  // Wire gate: W = wg - ws per flow (LUTRAM, no reset: W is set when a flow
  // is added, by the rate cell's INIT revocation through the gate port, or
  // by the ring init with WireGate = 2).
  if (WireGate != 0) begin : g_gate
    // W is never negative (a release needs W > 0, a set counts from the
    // ws after the release of its cycle) and stays below 2^16 + RingN, so
    // 17 bits hold it and W > 0 is wg != ws: an equality, not a subtract
    // (the subtract's carry chain cost 4.5 levels at 4096 flows).
    localparam int unsigned GW = 17;
    logic [GW-1:0] wg_q [FlowCount];   // the gate port's bank
    logic [GW-1:0] ws_q [FlowCount];
    logic [GW-1:0] ws_g, wb_f, wb_g;   // the init bank at f, at the gate flow
    ptr_t          g_cnt;
    assign f_ok = (wg_q[f] ^ wb_f) != ws_q[f];
    assign ws_g = ws_q[gate_flow_i];
    assign g_cnt = tail_q[gate_flow_i] - head_q[gate_flow_i];
    always_ff @(posedge clk_i) begin
      if (fire) begin
        ws_q[f] <= ws_q[f] + GW'(1);
      end
    end
    if (WireGate == 2) begin : g_init_bank
      // W = GateInit at a ring init: the init bank stores the value XOR
      // the gate bank (no release of the flow in its init cycle).
      logic [GW-1:0] wb_q [FlowCount];
      assign wb_f = wb_q[f];
      assign wb_g = wb_q[gate_flow_i];
      always_ff @(posedge clk_i) begin
        if (enq_valid_i && enq_init_i) begin
          wb_q[enq_flow_i] <= (ws_q[enq_flow_i] + GW'(GateInit)) ^ wg_q[enq_flow_i];
        end
      end
`ifdef TONIC_ASSERT
      always_ff @(posedge clk_i) begin
        if (!rst_i && enq_valid_i && enq_init_i && gate_valid_i) begin
          assert (enq_flow_i != gate_flow_i)
            else $error("cr_assert: gate write to flow %0d in its init cycle", enq_flow_i);
        end
      end
`endif
    end else begin : g_no_init_bank
      assign wb_f = '0;
      assign wb_g = '0;
    end
    // A set counts from the ws after this cycle's release: both sums are
    // formed before fire is known, fire only chooses (an adder after it
    // cost 6 levels).
    logic [GW-1:0] set0, set1, add_g, wg_g, w_g0, w_g1;
    assign wg_g  = wg_q[gate_flow_i] ^ wb_g;
    assign set0  = ws_g + GW'(gate_cnt_i);
    assign set1  = set0 + GW'(1);
    assign add_g = wg_g + GW'(gate_cnt_i);
    // The permits a set voids: W before it, less the release of its cycle.
    assign w_g0  = wg_g - ws_g;
    assign w_g1  = w_g0 - GW'(1);
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        void_valid_o <= 1'b0;
      end else begin
        void_valid_o <= gate_valid_i && gate_set_i && gate_void_i;
      end
      void_flow_o <= gate_flow_i;
      void_cnt_o  <= 17'((fire && f == gate_flow_i) ? w_g1 : w_g0);
    end
    always_ff @(posedge clk_i) begin
      if (gate_valid_i) begin
        wg_q[gate_flow_i] <= wb_g ^ (!gate_set_i ? add_g : (fire && f == gate_flow_i) ? set1 : set0);
      end
    end
`ifdef TONIC_ASSERT
    // W >= 0 (its top bit never set: W < 2^16 + RingN).
    logic [GW-1:0] w_f_chk;
    assign w_f_chk = (wg_q[f] ^ wb_f) - ws_q[f];
    always_ff @(posedge clk_i) begin
      if (!rst_i && pick) begin
        assert (!w_f_chk[GW-1]) else $error("cr_assert: wire permits of flow %0d below 0", f);
      end
    end
`endif
    // Put a flow back with permits and addresses queued; a flow re-inserted
    // by its own release this cycle is in the set already.
    assign gate_insert = gate_valid_i && gate_cnt_i != '0 && g_cnt != '0
                      && !(fire && f_more && f == gate_flow_i);
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        gate_hold_o <= 1'b0;
      end else begin
        gate_hold_o <= pick && (f_cnt != '0) && !f_ok
                    && !(enq_valid_i && enq_init_i && enq_flow_i == f);
      end
      gate_hold_flow_o <= f;
    end
  end else begin : g_no_gate
    assign f_ok        = 1'b1;
    assign gate_insert = 1'b0;
    assign gate_hold_o = 1'b0;
    assign gate_hold_flow_o = '0;
    assign void_valid_o = 1'b0;
    assign void_flow_o  = '0;
    assign void_cnt_o   = '0;
    logic unused_gate;
    assign unused_gate = ^{gate_valid_i, gate_set_i, gate_void_i, gate_flow_i, gate_cnt_i, gate_insert};
  end

  // ---------------------------------------------------------------------
  // Rings: one block RAM, word {flow, slot}.
  logic [EntryW-1:0] rd_entry;
  tonic_ram_1w1r #(
    .Depth(FlowCount * RingN),
    .Width(EntryW)
  ) u_ring (
    .clk_i    (clk_i),
    .wr_en_i  (enq_ok),
    .wr_addr_i({enq_flow_i, e_tail[SlotW-1:0]}),
    .wr_data_i({enq_idx_i, enq_rtx_i, enq_len_i}),
    .rd_en_i  (fire),
    .rd_addr_i({f, f_head[SlotW-1:0]}),
    .rd_data_o(rd_entry)
  );

  // ---------------------------------------------------------------------
  // Output queue: the read started in cycle t lands in cycle t + 1.
  logic                  rd_valid_q;
  flow_t                 rd_flow_q;
  logic [OqW-1:0]        oq_cnt;
  logic                  oq_push_ok;
  logic [IdW+EntryW-1:0] oq_out;

  tonic_small_fifo #(
    .Width(IdW + EntryW),
    .Depth(OqDepth)
  ) u_out (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .push_i     (rd_valid_q),
    .data_i     ({rd_flow_q, rd_entry}),
    .push_ok_o  (oq_push_ok),
    .out_valid_o(seg_valid_o),
    .out_ready_i(seg_ready_i),
    .out_data_o (oq_out),
    .count_o    (oq_cnt)
  );
  assign {seg_flow_o, seg_idx_o, seg_rtx_o, seg_len_o} = oq_out;
  // Room for a read started now: the entries plus the read in flight plus
  // this one must fit (pops ignored: registered state only).
  assign oq_room = (oq_cnt + OqW'(rd_valid_q)) < OqW'(OqDepth);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_valid_q  <= 1'b0;
      txn_valid_o <= 1'b0;
    end else begin
      rd_valid_q  <= fire;
      txn_valid_o <= seg_valid_o && seg_ready_i;
    end
  end

  always_ff @(posedge clk_i) begin
    rd_flow_q  <= f;
    txn_flow_o <= seg_flow_o;
    txn_idx_o  <= seg_idx_o;
    txn_rtx_o  <= seg_rtx_o;
    txn_len_o  <= seg_len_o;
  end

  // oq_room reserved a place for every read.
  always_ff @(posedge clk_i) begin
    if (!rst_i && rd_valid_q) begin
      assert (oq_push_ok) else $error("tonic_cr_engine: output queue overflow");
    end
  end
`ifdef TONIC_ASSERT
  // Simulation-only invariants (docs/soak.md; the soak models define
  // TONIC_ASSERT): outstanding <= N per flow (ring counts, the full ring
  // never enqueued to), a flow re-initialised only when idle.
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      if (enq_valid_i) begin
        assert (e_cnt <= ptr_t'(RingN))
          else $error("cr_assert: outstanding <= N: flow %0d ring count %0d", enq_flow_i, e_cnt);
        assert (enq_init_i || e_cnt != ptr_t'(RingN))
          else $error("cr_assert: outstanding <= N: enqueue to the full ring of flow %0d", enq_flow_i);
        assert (!enq_init_i || e_cnt == '0)
          else $error("cr_assert: init of flow %0d with %0d addresses queued", enq_flow_i, e_cnt);
      end
      if (pick) begin
        assert (f_cnt <= ptr_t'(RingN))
          else $error("cr_assert: outstanding <= N: flow %0d ring count %0d", f, f_cnt);
      end
    end
  end
`endif
endmodule

`default_nettype wire
