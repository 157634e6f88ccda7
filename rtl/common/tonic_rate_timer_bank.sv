// SPDX-License-Identifier: Apache-2.0
// tonic_rate_timer_bank: one timing-wheel bank of tonic_rate_timer (hints).
//
// A wheel of SlotCount slots; each slot is a FIFO list of nodes threaded
// through a next-pointer RAM. A node holds only a flow id: it is a *hint*
// "look at flow f when this slot is due". Hints are never trusted: the
// parent validates every flow it gets from here against its per-flow state,
// and it finds every expired flow on its own (sweep) even if a hint is lost.
// So this bank may drop a hint (no free node), and stale hints (the flow was
// re-armed or cancelled since) are simply skipped by the parent. That is how
// re-arming a flow to an EARLIER slot works without unlinking: the parent
// appends a fresh node to the earlier slot; the old node becomes garbage,
// is returned to the free list when its slot is drained, and can never
// cause an early release.
//
// Append (one hint per cycle, no back-pressure): two stages. Lookup (the
// cycle hint_valid_i is high): read the slot's tail and its non-empty flag.
// Exec (next cycle): take a node (fresh nodes from a counter first, then the
// free list), write its flow, link it after the old tail (or make it the
// head), set the non-empty flag. A hint that finds no node is dropped
// (hint_drop_o).
//
// Drain: the parent pulses drain_start_i with the slot index; the bank walks
// that slot's list one node per cycle into cand_* (a skid buffer, so the
// walk depends only on registered ready), returns each node to the free
// list, clears the slot's flag after its last node and pulses drain_done_o.
// The parent guarantees that no hint is appended to a slot while it is being
// drained (it only drains slots whose time is past, and hints target the
// present or the future).
`default_nettype none

module tonic_rate_timer_bank #(
  /// Number of flows (flow ids are $clog2(FlowCount) bits).
  parameter int unsigned FlowCount = 1024,
  /// Number of wheel slots (power of two >= 4).
  parameter int unsigned SlotCount = 512,
  /// Number of list nodes (power of two >= 4): hints held at once.
  parameter int unsigned Nodes = 1024,
  /// Flow id width, derived; do not override.
  localparam int unsigned FlowW = (FlowCount > 1) ? $clog2(FlowCount) : 1,
  /// Slot index width, derived; do not override.
  localparam int unsigned SlotW = $clog2(SlotCount),
  /// Node id width, derived; do not override.
  localparam int unsigned NodeW = $clog2(Nodes)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,          // synchronous, active high
  // Hint append: no ready, one per cycle.
  input  wire logic             hint_valid_i,
  input  wire logic [FlowW-1:0] hint_flow_i,
  input  wire logic [SlotW-1:0] hint_slot_i,
  output logic                  hint_drop_o,    // a hint found no free node
  // Drain control from the parent's cursor.
  input  wire logic             drain_start_i,  // pulse; bank must be idle
  input  wire logic [SlotW-1:0] drain_slot_i,   // stable until drain_done_o
  output logic                  drain_done_o,   // pulse: slot fully walked
  // Hinted flows of the slot being drained (valid/ready stream).
  output logic                  cand_valid_o,
  input  wire logic             cand_ready_i,
  output logic [FlowW-1:0]      cand_flow_o
);
  if (FlowCount < 2) begin : g_check_flows
    $fatal(1, "tonic_rate_timer_bank: FlowCount must be >= 2");
  end
  if (SlotCount < 4 || (SlotCount & (SlotCount - 1)) != 0) begin : g_check_slots
    $fatal(1, "tonic_rate_timer_bank: SlotCount must be a power of two >= 4");
  end
  if (Nodes < 4 || (Nodes & (Nodes - 1)) != 0) begin : g_check_nodes
    $fatal(1, "tonic_rate_timer_bank: Nodes must be a power of two >= 4");
  end

  // ---------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------
  typedef enum logic [1:0] {
    DrIdle  = 2'd0,
    DrLook  = 2'd1,
    DrChase = 2'd2
  } drain_state_e;

  // Per-slot non-empty flags (flip-flops: set by append, cleared by drain).
  logic [SlotCount-1:0] ne_q, ne_d;
  // Lookup -> exec registers.
  logic             lk_valid_q, lk_valid_d;
  logic [FlowW-1:0] lk_flow_q, lk_flow_d;
  logic [SlotW-1:0] lk_slot_q, lk_slot_d;
  logic             lk_ne_q, lk_ne_d;         // slot non-empty (forwarded)
  logic             lk_tfwd_q, lk_tfwd_d;     // tail = node appended last cycle
  logic [NodeW-1:0] lk_tnode_q, lk_tnode_d;
  // Node allocation: fresh-node counter, then the free-list FIFO.
  logic [NodeW:0]   fresh_q, fresh_d;
  logic [NodeW:0]   free_cnt_q, free_cnt_d;
  logic [NodeW-1:0] free_wr_q, free_wr_d;
  logic [NodeW-1:0] free_rd_q, free_rd_d;
  // Drain walk.
  drain_state_e     dr_state_q, dr_state_d;
  logic             dr_ne_q, dr_ne_d;
  logic [NodeW-1:0] dr_cur_q, dr_cur_d;
  logic [NodeW-1:0] dr_last_q, dr_last_d;

  // RAM ports.
  logic [NodeW-1:0] tail_app_rd, tail_dr_rd, head_rd;
  logic [NodeW-1:0] next_rd, free_head_rd;
  logic [FlowW-1:0] nflow_rd;
  logic             walk_rd_en;
  logic [NodeW-1:0] walk_rd_addr;
  logic             free_pop, free_push;

  // Skid buffer between the walk and cand_*.
  logic sk_in_valid, sk_in_ready;

  // ---------------------------------------------------------------------
  // Append: exec stage.
  // ---------------------------------------------------------------------
  logic             have_fresh, have_free, ex_app;
  logic [NodeW-1:0] ex_node, ex_tail;

  assign have_fresh = fresh_q != (NodeW + 1)'(Nodes);
  // Two or more entries: the head was written at least two cycles ago, so
  // the free-list read (issued every cycle) already returns it.
  assign have_free  = free_cnt_q >= (NodeW + 1)'(2);
  assign ex_app     = lk_valid_q && (have_fresh || have_free);
  assign ex_node    = have_fresh ? fresh_q[NodeW-1:0] : free_head_rd;
  assign ex_tail    = lk_tfwd_q ? lk_tnode_q : tail_app_rd;
  assign free_pop   = ex_app && !have_fresh;
  assign hint_drop_o = lk_valid_q && !ex_app;

  // ---------------------------------------------------------------------
  // Append: lookup stage (forwarding from the exec stage of this cycle).
  // ---------------------------------------------------------------------
  always_comb begin
    lk_valid_d = hint_valid_i;
    lk_flow_d  = hint_flow_i;
    lk_slot_d  = hint_slot_i;
    lk_tfwd_d  = ex_app && (lk_slot_q == hint_slot_i);
    lk_ne_d    = ne_q[hint_slot_i] || lk_tfwd_d;
    lk_tnode_d = ex_node;
  end

  // ---------------------------------------------------------------------
  // Drain walk.
  // ---------------------------------------------------------------------
  always_comb begin
    dr_state_d   = dr_state_q;
    dr_ne_d      = dr_ne_q;
    dr_cur_d     = dr_cur_q;
    dr_last_d    = dr_last_q;
    drain_done_o = 1'b0;
    walk_rd_en   = 1'b0;
    walk_rd_addr = next_rd;
    sk_in_valid  = 1'b0;
    free_push    = 1'b0;
    unique case (dr_state_q)
      DrIdle: begin
        if (drain_start_i) begin
          dr_state_d = DrLook;
          dr_ne_d    = ne_q[drain_slot_i];
        end
      end
      DrLook: begin
        if (!dr_ne_q) begin
          drain_done_o = 1'b1;
          dr_state_d   = DrIdle;
        end else begin
          dr_cur_d     = head_rd;
          dr_last_d    = tail_dr_rd;
          walk_rd_en   = 1'b1;
          walk_rd_addr = head_rd;
          dr_state_d   = DrChase;
        end
      end
      DrChase: begin
        sk_in_valid = 1'b1;
        if (sk_in_ready) begin
          free_push = 1'b1;
          if (dr_cur_q == dr_last_q) begin
            drain_done_o = 1'b1;
            dr_state_d   = DrIdle;
          end else begin
            dr_cur_d   = next_rd;
            walk_rd_en = 1'b1;
          end
        end
      end
      default: dr_state_d = DrIdle;
    endcase
  end

  // Non-empty flags, node counters, free-list pointers.
  always_comb begin
    ne_d = ne_q;
    if (ex_app) begin
      ne_d[lk_slot_q] = 1'b1;
    end
    if (drain_done_o && dr_state_q == DrChase) begin
      ne_d[drain_slot_i] = 1'b0;
    end
    fresh_d    = fresh_q + (NodeW + 1)'(ex_app && have_fresh);
    free_wr_d  = free_wr_q + NodeW'(free_push);
    free_rd_d  = free_rd_q + NodeW'(free_pop);
    free_cnt_d = free_cnt_q + (NodeW + 1)'(free_push) - (NodeW + 1)'(free_pop);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ne_q       <= '0;
      lk_valid_q <= 1'b0;
      fresh_q    <= '0;
      free_cnt_q <= '0;
      free_wr_q  <= '0;
      free_rd_q  <= '0;
      dr_state_q <= DrIdle;
      dr_ne_q    <= 1'b0;
    end else begin
      ne_q       <= ne_d;
      lk_valid_q <= lk_valid_d;
      fresh_q    <= fresh_d;
      free_cnt_q <= free_cnt_d;
      free_wr_q  <= free_wr_d;
      free_rd_q  <= free_rd_d;
      dr_state_q <= dr_state_d;
      dr_ne_q    <= dr_ne_d;
    end
  end

  always_ff @(posedge clk_i) begin
    lk_flow_q  <= lk_flow_d;
    lk_slot_q  <= lk_slot_d;
    lk_ne_q    <= lk_ne_d;
    lk_tfwd_q  <= lk_tfwd_d;
    lk_tnode_q <= lk_tnode_d;
    dr_cur_q   <= dr_cur_d;
    dr_last_q  <= dr_last_d;
  end

  // ---------------------------------------------------------------------
  // Memories (registered reads, no reset).
  // ---------------------------------------------------------------------
  // Slot tail, copy read by the append lookup.
  tonic_ram_1w1r #(.Depth(SlotCount), .Width(NodeW)) u_tail_app (
    .clk_i    (clk_i),
    .wr_en_i  (ex_app),
    .wr_addr_i(lk_slot_q),
    .wr_data_i(ex_node),
    .rd_en_i  (1'b1),
    .rd_addr_i(hint_slot_i),
    .rd_data_o(tail_app_rd)
  );
  // Slot tail, copy read by the drain walk.
  tonic_ram_1w1r #(.Depth(SlotCount), .Width(NodeW)) u_tail_dr (
    .clk_i    (clk_i),
    .wr_en_i  (ex_app),
    .wr_addr_i(lk_slot_q),
    .wr_data_i(ex_node),
    .rd_en_i  (dr_state_q == DrIdle),
    .rd_addr_i(drain_slot_i),
    .rd_data_o(tail_dr_rd)
  );
  // Slot head: written when a node goes into an empty slot.
  tonic_ram_1w1r #(.Depth(SlotCount), .Width(NodeW)) u_head (
    .clk_i    (clk_i),
    .wr_en_i  (ex_app && !lk_ne_q),
    .wr_addr_i(lk_slot_q),
    .wr_data_i(ex_node),
    .rd_en_i  (dr_state_q == DrIdle),
    .rd_addr_i(drain_slot_i),
    .rd_data_o(head_rd)
  );
  // Next pointers.
  tonic_ram_1w1r #(.Depth(Nodes), .Width(NodeW)) u_next (
    .clk_i    (clk_i),
    .wr_en_i  (ex_app && lk_ne_q),
    .wr_addr_i(ex_tail),
    .wr_data_i(ex_node),
    .rd_en_i  (walk_rd_en),
    .rd_addr_i(walk_rd_addr),
    .rd_data_o(next_rd)
  );
  // Flow id of each node.
  tonic_ram_1w1r #(.Depth(Nodes), .Width(FlowW)) u_nflow (
    .clk_i    (clk_i),
    .wr_en_i  (ex_app),
    .wr_addr_i(ex_node),
    .wr_data_i(lk_flow_q),
    .rd_en_i  (walk_rd_en),
    .rd_addr_i(walk_rd_addr),
    .rd_data_o(nflow_rd)
  );
  // Free list (FIFO of node ids); its head is read every cycle.
  tonic_ram_1w1r #(.Depth(Nodes), .Width(NodeW)) u_free (
    .clk_i    (clk_i),
    .wr_en_i  (free_push),
    .wr_addr_i(free_wr_q),
    .wr_data_i(dr_cur_q),
    .rd_en_i  (1'b1),
    .rd_addr_i(free_rd_d),
    .rd_data_o(free_head_rd)
  );

  tonic_skid_buffer #(.Width(FlowW)) u_cand_skid (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .in_valid_i (sk_in_valid),
    .in_ready_o (sk_in_ready),
    .in_data_i  (nflow_rd),
    .out_valid_o(cand_valid_o),
    .out_ready_i(cand_ready_i),
    .out_data_o (cand_flow_o)
  );

`ifndef SYNTHESIS
  // The parent must never append to the slot being drained.
  always_ff @(posedge clk_i) begin
    if (!rst_i && ex_app && dr_state_q != DrIdle && lk_slot_q == drain_slot_i) begin
      $error("tonic_rate_timer_bank: append to slot %0d while it drains", lk_slot_q);
    end
  end
`endif
endmodule

`default_nettype wire
