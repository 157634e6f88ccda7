// SPDX-License-Identifier: Apache-2.0
// tonic_flow_fifo: FIFO of unique flow ids, K insert ports, one pop per cycle.
//
// The flow scheduler's set (docs/spec/blocks.md, "Flow scheduling"): the active set and the
// ready-to-transmit set are FIFOs of flow ids, so popping the head gives
// round robin between flows. A flow id is never held twice: a membership bit
// per id turns the insert of an id that is already in the FIFO into a no-op.
// The depth is FlowCount, so with unique ids it cannot overflow and an insert
// is never dropped; the insert ports have no ready. Every id in
// [0, FlowCount) is usable (there is no reserved "none" id; validity is
// carried by separate valid bits).
//
// Semantics (the reference model tb/common/ref/flow_fifo_ref.hpp is the
// executable form of this list). Events of one clock cycle t happen in this
// logical order:
//   1. Pop: if out_valid_o && out_ready_i, the head id leaves the FIFO and is
//      no longer a member.
//   2. Inserts, port 0 first, then port 1, ... port WritePorts-1. A valid
//      insert of an id that is not a member appends it at the tail and makes
//      it a member; an insert of a member is a no-op. Hence:
//      (a) several ports inserting in one cycle enqueue in port order (port 0
//          nearest the head); the same id on several ports in one cycle is
//          one insert, at the position of the lowest such port;
//      (b) an id popped in cycle t and inserted in the same cycle t is
//          re-inserted at the tail (it is not a member once popped).
//   (c) Latency: an id inserted in cycle t becomes visible (out_valid_o with
//      out_id_o == id, if nothing is ahead of it) in cycle t + 2 at the
//      earliest. Membership takes effect at once: a duplicate insert in
//      cycle t + 1 is already a no-op. The head is shown iff it was inserted
//      two or more cycles ago; ids behind it never hold it back, so the pop
//      side sustains one id per cycle.
//   (d) count_o is the number of ids in the FIFO that the pop side can
//      see: an id inserted in cycle t counts from cycle t + 2 (when it could
//      first be popped), an id popped in cycle t no longer counts in cycle
//      t + 1. Ids inserted in the last cycle are members but not yet counted.
//      out_valid_o == (count_o != 0).
//
// Structure (docs/cells/flow_fifo.md):
// - Stage 1 (insert cycle, from the ports): for each port, look up the
//   membership bit (a FlowCount:1 mux), forward the ids accepted in the
//   previous cycle (still in stage 2) and the id popped this cycle, and drop
//   duplicates of lower ports. Result: one accept bit per port, registered.
// - Stage 2: rank the accepted ids (port order) and write them to
//   consecutive tail positions. Storage is WritePorts banks of
//   FlowCount/WritePorts words interleaved by position (position p lives in
//   bank p % WritePorts), so the up-to-WritePorts writes of a cycle hit
//   distinct banks: each bank is a simple 1W1R RAM (tonic_ram_1w1r). The
//   membership bits of the accepted ids are set.
// - Output: a 3-entry prefetch shift register whose entry 0 drives
//   out_id_o. It is filled from the banks (registered read, one per cycle)
//   or, when every stored id is already in the prefetch path, straight from
//   stage 2 (bypass), which makes the latency 2 cycles.
`default_nettype none

module tonic_flow_fifo #(
  /// Number of flow ids and depth of the FIFO; ids are 0..FlowCount-1.
  /// A power of two, >= 2 * WritePorts.
  parameter int unsigned FlowCount  = 1024,
  /// Number of insert ports (K); a power of two in 2..64.
  parameter int unsigned WritePorts = 4,
  /// Flow id width (do not override).
  localparam int unsigned IdWidth    = $clog2(FlowCount),
  /// Width of count_o, holds 0..FlowCount (do not override).
  localparam int unsigned CountWidth = $clog2(FlowCount + 1)
) (
  input  wire logic                               clk_i,
  input  wire logic                               rst_i,       // synchronous, active high
  // Insert ports, one id per port per cycle. No ready: every valid insert is
  // taken in the cycle it is presented (ids are unique, so none is dropped).
  // They feed the membership lookup (a FlowCount:1 mux) directly: drive them
  // from registers or shallow logic.
  input  wire logic [WritePorts-1:0]              ins_valid_i,
  input  wire logic [WritePorts-1:0][IdWidth-1:0] ins_id_i,
  // Pop stream: the head of the FIFO; it leaves on out_valid_o && out_ready_i.
  output logic                                    out_valid_o,
  input  wire logic                               out_ready_i,
  output logic      [IdWidth-1:0]                 out_id_o,
  // The pop stream of the NEXT cycle: out_valid_o and out_id_o as they will
  // be after this clock edge (for callers that address a block RAM with the
  // head one cycle ahead). Combinational from out_ready_i and the inserts
  // accepted last cycle.
  output logic                                    nxt_valid_o,
  output logic      [IdWidth-1:0]                 nxt_id_o,
  // Number of ids visible to the pop side (see (d) above).
  output logic      [CountWidth-1:0]              count_o
);
  if (FlowCount < 2 * WritePorts || (FlowCount & (FlowCount - 1)) != 0) begin : g_check_flows
    $fatal(1, "tonic_flow_fifo: FlowCount must be a power of two >= 2 * WritePorts");
  end
  if (WritePorts < 2 || WritePorts > 64 || (WritePorts & (WritePorts - 1)) != 0) begin : g_check_ports
    $fatal(1, "tonic_flow_fifo: WritePorts must be a power of two in 2..64");
  end

  // Derived sizes (do not override).
  localparam int unsigned BankBits  = $clog2(WritePorts);       // position bits selecting a bank
  localparam int unsigned BankDepth = FlowCount / WritePorts;   // words per bank
  localparam int unsigned AddrWidth = IdWidth - BankBits;       // bank address width
  localparam int unsigned RankWidth = $clog2(WritePorts + 1);   // holds 0..WritePorts
  localparam int unsigned Slots     = 3;                        // prefetch entries
  localparam int unsigned SlotWidth = 2;                        // holds 0..Slots
  // Width of the small prefetch/bypass arithmetic: holds 0..max(Slots + 1, WritePorts).
  localparam int unsigned SmallWidth = (RankWidth > 3) ? RankWidth : 3;

  typedef logic [IdWidth-1:0] id_t;

  // Membership bits (reset), kept as Rows rows of RowW bits: id = {row, column}.
  // 32-bit rows: one C++ word each in the Verilated model (with 64-bit rows
  // the model builds wide temporaries; measured 7x slower at FlowCount 4096).
  localparam int unsigned ColBits = (IdWidth > 5) ? 5 : IdWidth - 1;  // id bits selecting the column
  localparam int unsigned RowW    = 1 << ColBits;            // bits per row
  localparam int unsigned Rows    = FlowCount / RowW;        // rows
  logic [RowW-1:0] present_q [Rows];

  // Control state (reset).
  logic [WritePorts-1:0] s1_acc_q, s1_acc_d;      // stage 2: port's id is accepted
  logic [IdWidth-1:0]    tail_q, tail_d;          // next position to write
  logic [IdWidth-1:0]    head_q, head_d;          // next position to read from the banks
  logic                  inflight_q, inflight_d;  // a bank read is under way
  logic [SlotWidth-1:0]  slot_cnt_q, slot_cnt_d;  // valid prefetch entries
  logic [CountWidth-1:0] count_q, count_d;        // ids visible to the pop side
  // Datapath state (no reset).
  id_t  [WritePorts-1:0] s1_id_q;                 // stage 2: the ports' ids
  logic [BankBits-1:0]   rd_bank_q;               // bank of the read under way
  id_t  [Slots-1:0]      slot_q, slot_d;          // prefetch entries, 0 = head

  logic pop;
  assign out_valid_o = slot_cnt_q != '0;
  assign out_id_o    = slot_q[0];
  assign count_o     = count_q;
  assign nxt_valid_o = !rst_i && slot_cnt_d != '0;
  assign nxt_id_o    = slot_d[0];
  assign pop         = out_valid_o && out_ready_i;

  // ---------------------------------------------------------------------
  // Stage 1: is each port's id new?
  // A member in present_q, or accepted last cycle (present_q is set for it
  // only at the end of this cycle), is not new unless it is popped in this
  // cycle (rule (b)). A lower port with the same id takes the insert.
  for (genvar k = 0; k < WritePorts; k++) begin : g_port
    logic                  hit, fwd, popped, dup;
    logic [WritePorts-1:0] fwd_match, dup_match;
    assign hit = present_q[ins_id_i[k][IdWidth-1:ColBits]][ins_id_i[k][ColBits-1:0]];
    for (genvar j = 0; j < WritePorts; j++) begin : g_cmp
      assign fwd_match[j] = s1_acc_q[j] && (s1_id_q[j] == ins_id_i[k]);
      if (j < k) begin : g_lower
        assign dup_match[j] = ins_valid_i[j] && (ins_id_i[j] == ins_id_i[k]);
      end else begin : g_upper
        assign dup_match[j] = 1'b0;
      end
    end
    assign fwd    = |fwd_match;
    assign dup    = |dup_match;
    assign popped = pop && (out_id_o == ins_id_i[k]);
    assign s1_acc_d[k] = ins_valid_i[k] && !dup && !((hit || fwd) && !popped);
  end

  // ---------------------------------------------------------------------
  // Stage 2: rank the accepted ids in port order.
  logic [RankWidth-1:0]  acc_cnt;  // accepted ids this cycle
  id_t  [WritePorts-1:0] ranked;   // ranked[r] = the r-th accepted id (r < acc_cnt)
  always_comb begin
    acc_cnt = '0;
    ranked  = s1_id_q;  // entries r >= acc_cnt are don't-care
    for (int unsigned k = 0; k < WritePorts; k++) begin
      if (s1_acc_q[k]) begin
        ranked[acc_cnt[BankBits-1:0]] = s1_id_q[k];
        acc_cnt = acc_cnt + RankWidth'(1);
      end
    end
  end

  // Membership: clear the popped id, set the accepted ones (never the same
  // id). Indexed single-bit writes into an array of RowW-bit rows: in the
  // C++ that Verilator emits these are K + 1 word updates per cycle, and
  // synthesis builds a row decoder per port (each bit's next value is a
  // function of its row/column matches: about 2-3 LUT6 per bit).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      present_q <= '{default: '0};
    end else begin
      if (pop) begin
        present_q[out_id_o[IdWidth-1:ColBits]][out_id_o[ColBits-1:0]] <= 1'b0;
      end
      for (int unsigned k = 0; k < WritePorts; k++) begin
        if (s1_acc_q[k]) begin
          present_q[s1_id_q[k][IdWidth-1:ColBits]][s1_id_q[k][ColBits-1:0]] <= 1'b1;
        end
      end
    end
  end

  // Banks: ranked[r] goes to position tail_q + r, i.e. bank
  // (tail_q + r) % WritePorts; bank b takes rank (b - tail_q) % WritePorts.
  logic                  rd_en;
  id_t  [WritePorts-1:0] bank_rd_data;
  logic [BankBits-1:0]   tail_lo;
  logic [AddrWidth-1:0]  tail_hi;
  assign tail_lo = tail_q[BankBits-1:0];
  assign tail_hi = tail_q[IdWidth-1:BankBits];

  for (genvar b = 0; b < WritePorts; b++) begin : g_bank
    logic [BankBits-1:0]  rank;
    logic                 wr_en;
    logic [AddrWidth-1:0] wr_addr;
    assign rank    = BankBits'(b) - tail_lo;
    assign wr_en   = RankWidth'(rank) < acc_cnt;
    // Positions tail_q .. tail_q + WritePorts - 1 lie in row tail_hi for
    // banks >= tail_lo and in the next row for banks below it.
    if (b + 1 < WritePorts) begin : g_wrap
      assign wr_addr = tail_hi + AddrWidth'(BankBits'(b) < tail_lo);
    end else begin : g_top
      assign wr_addr = tail_hi;  // the top bank is never below tail_lo
    end

    tonic_ram_1w1r #(
      .Depth(BankDepth),
      .Width(IdWidth)
    ) u_ram (
      .clk_i    (clk_i),
      .wr_en_i  (wr_en),
      .wr_addr_i(wr_addr),
      .wr_data_i(ranked[rank]),
      .rd_en_i  (rd_en),
      .rd_addr_i(head_q[IdWidth-1:BankBits]),
      .rd_data_o(bank_rd_data[b])
    );
  end

  // ---------------------------------------------------------------------
  // Prefetch. The banks hold positions head_q .. tail_q - 1 (older ones are
  // in the prefetch entries or in flight). A read is issued while the
  // entries plus the read under way leave room; when the banks hold nothing
  // unread, accepted ids go straight to the entries (and are written to the
  // banks anyway; head_q skips them). This keeps entries + in flight >= 2
  // whenever the banks hold unread ids, so entry 0 is never empty while an
  // older id waits (the latency in (c) holds exactly).
  logic                  ram_empty;
  logic [SmallWidth-1:0] used;
  id_t                   rd_item;
  assign ram_empty = head_q == tail_q;
  assign used      = SmallWidth'(slot_cnt_q) + SmallWidth'(inflight_q);
  assign rd_en     = !ram_empty && (used < SmallWidth'(Slots));
  assign rd_item   = bank_rd_data[rd_bank_q];

  // The update is built twice, for no pop (g_pop[0]) and for a pop
  // (g_pop[1]), and pop only steers the final multiplexers: out_ready_i is
  // usually the caller's late decision, and this keeps it off the rank and
  // bypass arithmetic. Entry i after this cycle: kept entries (shifted down
  // on a pop), then the id read last cycle, then the bypassed ids in rank
  // order.
  id_t  [1:0][Slots-1:0]    slot_p;
  logic [1:0][SlotWidth-1:0] slot_cnt_p;
  logic [1:0][IdWidth-1:0]   head_p;
  for (genvar p = 0; p < 2; p++) begin : g_pop
    logic [SmallWidth-1:0] room, bypass, base;
    assign room   = SmallWidth'(Slots) - used + SmallWidth'(p);
    assign bypass = !ram_empty ? '0
                  : (SmallWidth'(acc_cnt) < room) ? SmallWidth'(acc_cnt) : room;
    assign base   = SmallWidth'(slot_cnt_q) - SmallWidth'(p);  // entries kept
    for (genvar i = 0; i < Slots; i++) begin : g_slot
      id_t                 shifted;
      logic [BankBits-1:0] rank;  // rank of the bypassed id this entry would take
      if (p == 1 && i + 1 < Slots) begin : g_shift
        assign shifted = slot_q[i+1];
      end else begin : g_keep
        assign shifted = slot_q[i];  // no pop; or the last entry (never kept through a pop)
      end
      assign rank         = BankBits'(SmallWidth'(i) - base - SmallWidth'(inflight_q));
      assign slot_p[p][i] = (SmallWidth'(i) < base) ? shifted
                          : (inflight_q && SmallWidth'(i) == base) ? rd_item
                          : ranked[rank];
    end
    assign slot_cnt_p[p] = SlotWidth'(base + SmallWidth'(inflight_q) + bypass);
    assign head_p[p]     = head_q + IdWidth'(rd_en) + IdWidth'(bypass);
  end

  assign slot_d     = slot_p[pop];
  assign slot_cnt_d = slot_cnt_p[pop];
  assign inflight_d = rd_en;
  assign head_d     = head_p[pop];
  assign tail_d     = tail_q + IdWidth'(acc_cnt);
  assign count_d    = count_q + CountWidth'(acc_cnt) - CountWidth'(pop);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_acc_q   <= '0;
      tail_q     <= '0;
      head_q     <= '0;
      inflight_q <= 1'b0;
      slot_cnt_q <= '0;
      count_q    <= '0;
    end else begin
      s1_acc_q   <= s1_acc_d;
      tail_q     <= tail_d;
      head_q     <= head_d;
      inflight_q <= inflight_d;
      slot_cnt_q <= slot_cnt_d;
      count_q    <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    s1_id_q   <= ins_id_i;
    rd_bank_q <= head_q[BankBits-1:0];
    slot_q    <= slot_d;
  end
`ifdef TONIC_ASSERT
  // Simulation-only invariants (docs/soak.md; the soak models define
  // TONIC_ASSERT). A shadow of the set's members, kept from the accepted
  // inserts and the pops alone: no id is ever accepted while it is a
  // member (no flow twice in a scheduler), every popped id is a member,
  // the membership bits agree with the shadow, and count_o never exceeds
  // the members.
  if (1) begin : g_assert
    logic [FlowCount-1:0] sh_q;
    int unsigned          sh_n_q;
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        sh_q   <= '0;
        sh_n_q <= 0;
      end else begin
        automatic logic [FlowCount-1:0] sh = sh_q;
        automatic int unsigned          n  = sh_n_q;
        if (pop) begin
          assert (sh[out_id_o])
            else $error("flow_fifo_assert: no flow twice: popped id %0d is not a member", out_id_o);
          sh[out_id_o] = 1'b0;
          n = n - 1;
        end
        for (int unsigned k = 0; k < WritePorts; k++) begin
          if (s1_acc_q[k]) begin
            assert (!sh[s1_id_q[k]])
              else $error("flow_fifo_assert: no flow twice: id %0d accepted while a member", s1_id_q[k]);
            sh[s1_id_q[k]] = 1'b1;
            n = n + 1;
          end
        end
        assert (32'(count_q) <= sh_n_q)
          else $error("flow_fifo_assert: count %0d above the %0d members", count_q, sh_n_q);
        if (out_valid_o) begin
          assert (present_q[out_id_o[IdWidth-1:ColBits]][out_id_o[ColBits-1:0]] && sh_q[out_id_o])
            else $error("flow_fifo_assert: no flow twice: head %0d is not a member", out_id_o);
        end
        for (int unsigned i = 1; i < Slots; i++) begin
          if (32'(slot_cnt_q) > i) begin
            assert (slot_q[i] != slot_q[0] && (i < 2 || slot_q[i] != slot_q[1]))
              else $error("flow_fifo_assert: no flow twice: prefetch holds id %0d twice", slot_q[i]);
          end
        end
        sh_q   <= sh;
        sh_n_q <= n;
      end
    end
  end : g_assert
`endif
endmodule

`default_nettype wire
