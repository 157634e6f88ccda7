// SPDX-License-Identifier: Apache-2.0
// tonic_dd_engine: data-delivery engine.
//
// Decides what each flow sends next (DESIGN.md 2.1, 2.2): the active set
// (flows with something to send and fewer than RingN addresses outstanding),
// the incoming pipeline (stage 1 fixed, stage 2 = the protocol's
// tonic_proto_incoming), the periodic processor (the protocol's
// tonic_proto_periodic, retransmission timer), the next-segment processor
// (first pending retransmission after wnd_start, else the next new segment;
// both inside the window, new ones also inside the posted data) and
// transmit notify. With the rate or token credit scheme next-seg also needs
// a permit per segment (the credit gate near the end of this file;
// docs/design/credit-schemes.md): permits come from tonic_rate_credit
// (rate) or from pulls and the protocol's tokens_o (token).
//
// Per-flow state, grouped by writer (docs/design/sender-core.md):
//   control  : present, seg_size, last_len, posted        (+ everything on ADD)
//   incoming1: wnd_start, acked
//   incoming2 and periodic: wnd, mark, rto, deadline, armed, user
//              (same flow in one cycle: the periodic write is dropped and
//              retried on the next scan round; ack beats timeout)
//   next-seg : next_new, sent, gen_cnt
//   tx-notify: tx_cnt
// Segment s occupies ring position s mod W of the bitmaps. It is pending
// retransmission iff mark != sent there: incoming and periodic mark with
// mark = ~sent, next-seg retransmits with sent = mark, window slides clear
// with mark = sent, so each bitmap has one writer group. outstanding =
// gen_cnt - tx_cnt (mod 2 RingN): generate and notify in one cycle cancel.
//
// Memories. Every field lives in a tonic_state_ram (one writer, or two with
// a live-value table; one copy per read port). The wide fields (the three
// W-bit bitmaps, user state, RTO and deadline, cwnd) are block RAM with
// registered reads: each processor presents the flow it will work on one
// cycle ahead (incoming stage 1: the rx input; stage 2: stage 1's flow;
// periodic: the next scan position; next-seg: the active set's next head or
// the current flow), and the cell forwards that cycle's writes, so every
// processor sees the same state a combinational read would give. The
// narrow fields (present, posted, lengths, wnd_start, next_new, the
// outstanding counters) are LUTRAM: transmit notify reads its counters
// combinationally (its flow is an input of this cycle), every other
// processor reads a registered copy addressed one cycle ahead (control
// executes the op it holds in a register, so its flow is known a cycle
// early too). A flow add
// clears the block-RAM fields through the cells' clear ports (a cleared
// word reads as its initial value) instead of writing them, so ADD needs no
// write port of its own there.
// After reset an init sweep writes present = 0 and zero counters for every
// flow id (FlowCount cycles, ctrl_ready_o low); LUTRAM has no reset.
//
// Bad input is counted in stats_o (one counter per cause), reported on
// status_o, and otherwise ignored (docs/robustness.md): rx for a flow that
// is not present or an id >= FlowCount, a cumulative ack beyond next_new,
// a stale cumulative ack (before wnd_start: only an in-window SACK of it
// is used), a SACK outside [wnd_start, next_new), an unknown rx type; ADD
// of a present flow, POST or REMOVE of an absent one, POST moving
// backwards or more than 2^30 ahead, an undefined op, an id >= FlowCount.
// REMOVE of a flow with unacked data is executed, counted and reported.
`default_nettype none

module tonic_dd_engine
  import tonic_dd_pkg::*;
#(
  /// Number of flows; ids 0..FlowCount-1. A power of two >= 4.
  parameter int unsigned FlowCount = 1024,
  /// Window ring size in segments; a power of two, 8..256.
  parameter int unsigned W = 128,
  /// Addresses a flow may have generated and not yet transmitted (N).
  parameter int unsigned RingN = 16,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// tonic_state_ram's SimModel for every memory: 0 structural (synthesis),
  /// 1 behavioural (Verilator models only).
  parameter int unsigned SimRam = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_i,         // synchronous, active high
  // Control from the host driver.
  input  wire logic            ctrl_valid_i,
  output logic                 ctrl_ready_o,
  input  wire ctrl_op_e        ctrl_op_i,
  input  wire flow_id_t        ctrl_flow_i, // ids >= FlowCount: counted, ignored
  input  wire seq_t            ctrl_seq_i,    // ADD: first segment; POST: one past the last posted
  input  wire logic [LenW-1:0] ctrl_len_i,    // ADD: segment size; POST: length of the last posted
  // Incoming control packets, one per cycle, no ready.
  input  wire logic            rx_valid_i,
  input  wire flow_id_t        rx_flow_i,   // ids >= FlowCount: counted, ignored
  input  wire rx_type_e        rx_type_i,
  input  wire seq_t            rx_cum_ack_i,
  input  wire logic            rx_sack_valid_i,
  input  wire seq_t            rx_sack_idx_i,
  input  wire logic            rx_ecn_i,
  input  wire logic [15:0]     rx_grant_i,
  // Segment addresses to the CR engine (no ready; at most RingN per flow).
  output logic                 enq_valid_o,
  output logic                 enq_init_o,    // flow add: initialise the ring
  output logic      [IdW-1:0]  enq_flow_o,
  output seq_t                 enq_idx_o,
  output logic                 enq_rtx_o,
  output logic      [LenW-1:0] enq_len_o,
  // Transmit notify from the CR engine (no ready).
  input  wire logic            txn_valid_i,
  input  wire logic [IdW-1:0]  txn_flow_i,
  // Notifications to the host: a burst is complete (everything posted is
  // acked). Dropped and counted when the host does not take them.
  output logic                 note_valid_o,
  input  wire logic            note_ready_i,
  output logic      [IdW-1:0]  note_flow_o,
  output seq_t                 note_acked_o,  // wnd_start (= posted)
  // Counters, and the number of flows in the active set.
  output dd_stats_t            stats_o,
  // Bad-input events (registered; the rate_clamp and watchdog fields are
  // tonic_top's and stay 0 here).
  output status_t              status_o,
  output logic      [IdW:0]    active_flows_o,
  // Probe (traces, debug): the current state of flow probe_flow_i.
  input  wire logic [IdW-1:0]  probe_flow_i,
  output logic [$clog2(W):0]   probe_wnd_o,       // cwnd (segments)
  output seq_t                 probe_start_o,     // wnd_start
  output seq_t                 probe_next_o,      // next_new
  // Trace of the window-group writes of this cycle (see dd_trace_t).
  output dd_trace_t            trace_in_o,        // incoming stage 2
  output dd_trace_t            trace_per_o,       // periodic (a call of the protocol)
  output dd_ns_trace_t         trace_ns_o,        // next-seg decision
  // Rate credit (tonic_rate_credit; rate scheme only, idle otherwise).
  output logic                 rc_init_valid_o,   // ADD: initialise the flow's credit
  input  wire logic            rc_init_ready_i,
  output logic      [IdW-1:0]  rc_init_flow_o,
  output logic      [LenW-1:0] rc_init_len_o,     // its segment size
  output logic                 rc_upd_valid_o,    // a protocol's new rate (registered)
  output logic      [IdW-1:0]  rc_upd_flow_o,
  output logic      [31:0]     rc_upd_rate_o,
  output logic                 rc_req_valid_o,    // the flow asks for permits (registered)
  output logic      [IdW-1:0]  rc_req_flow_o,
  input  wire logic            rc_grant_valid_i,  // permits granted
  input  wire logic [IdW-1:0]  rc_grant_flow_i,
  input  wire logic [4:0]      rc_grant_cnt_i,
  // Credit counters (rate_* fields are the rate cell's, filled in by the top).
  output credit_stats_t        credit_stats_o
);
  `include "user_configs.vh"

  if (FlowCount < 4 || (FlowCount & (FlowCount - 1)) != 0) begin : g_check_flows
    $fatal(1, "tonic_dd_engine: FlowCount must be a power of two >= 4");
  end
  if (W < 8 || W > 256 || (W & (W - 1)) != 0) begin : g_check_w
    $fatal(1, "tonic_dd_engine: W must be a power of two in 8..256");
  end
  if (RingN < 2 || RingN > 256 || (RingN & (RingN - 1)) != 0) begin : g_check_ring
    $fatal(1, "tonic_dd_engine: RingN must be a power of two in 2..256");
  end
  if (UserW > 128 || FlowCount > 65536) begin : g_check_trace
    $fatal(1, "tonic_dd_engine: UserW <= 128 and FlowCount <= 65536 (trace port widths)");
  end
  if (!(CreditScheme inside {CreditWindow, CreditRate, CreditToken})) begin : g_check_scheme
    $fatal(1, "tonic_dd_engine: unknown credit scheme");
  end
  if (TokensInit > 65535) begin : g_check_tokens
    $fatal(1, "tonic_dd_engine: TokensInit must be <= 65535");
  end

  // Credit schemes (docs/design/credit-schemes.md): with rate or token
  // credit, next-seg generates a segment only with a permit.
  localparam bit CreditOn = CreditScheme != CreditWindow;
  localparam bit RateOn   = CreditScheme == CreditRate;
  /// Rate: a fire that leaves at most LowMark permits asks for more.
  localparam int unsigned LowMark = 12;

  // Derived sizes (do not override).
  localparam int unsigned IdxW = $clog2(W);          // ring position
  localparam int unsigned CntW = IdxW + 1;           // 0..W
  localparam int unsigned PtrW = $clog2(RingN) + 1;  // outstanding counters, mod 2 RingN

  typedef logic [IdW-1:0]   flow_t;
  typedef logic [W-1:0]     ring_t;
  typedef logic [CntW-1:0]  cnt_t;
  typedef logic [PtrW-1:0]  ptr_t;
  typedef logic [UserW-1:0] user_w_t;

  // The rarely-read part of the window group (one block-RAM word).
  typedef struct packed {
    logic [31:0] rto;
    logic        armed;
    user_w_t     user;
  } cold_t;
  function automatic cold_t cold_init();
    cold_t c;
    c.rto      = 32'(RtoInit);
    c.armed    = 1'b0;
    c.user     = user_w_t'(UserInit);
    return c;
  endfunction
  localparam cold_t ColdInit = cold_init();

  // The len bits of the ring starting at position start (len in 0..W).
  // ge/lt are thermometer codes written as shifts of all ones: a decoder in
  // hardware, a few word operations in the Verilated model (a per-bit loop
  // of compares was measured several times slower there).
  function automatic ring_t ring_mask(logic [IdxW-1:0] start, cnt_t len);
    logic [CntW-1:0] e;
    ring_t ge, lt;
    e  = {1'b0, start} + len;
    ge = '1 << start;                // bits >= start
    lt = ~('1 << e[IdxW-1:0]);       // bits < e mod W
    if (len == cnt_t'(W)) return '1;
    return e[IdxW] ? (ge | lt) : (ge & lt);
  endfunction

  // The ring positions of [a, b) given only the low bits of both ends:
  // ge(a) ^ ge(b), inverted when b's position lies below a's (the range
  // wraps); empty when they are equal unless full (b - a = W). No adder
  // between the ends and the decoders.
  function automatic ring_t ring_span(logic [IdxW-1:0] a, logic [IdxW-1:0] b, logic full);
    return ring_span_ge('1 << a, '1 << b, b < a, full);
  endfunction
  // The same from the thermometers ga = ge(a), gb = ge(b) and wrap = b < a
  // (for an end decoded ahead of time).
  function automatic ring_t ring_span_ge(ring_t ga, ring_t gb, logic wrap, logic full);
    if (full) return '1;
    return (ga ^ gb) ^ {W{wrap}};
  endfunction

  // The engine's rules for a protocol module's outputs (incoming stage 2
  // and periodic alike): ring positions to mark, i.e. the unacked ones of
  // [lo, hi) clipped to [from, to) (to - from in 0..W: to = next_new, from =
  // wnd_start); an RTO of at least RtoMin; cwnd in 1..W.
  // The clipped range is [a, b) with a = max(lo, from), b = min(hi, to). All
  // serial compares it needs are taken in parallel from the four inputs,
  // and the ring thermometers of the candidate ends are decoded from their
  // low bits in parallel too; the compares then only steer multiplexers:
  // [a, b) on the ring is ge(a) ^ ge(b), inverted when b's position lies
  // below a's (the range wraps), empty when a >= b, all ones when b - a = W.
  function automatic ring_t mark_positions(logic we, seq_t lo, seq_t hi, seq_t from, seq_t to,
                                           ring_t acked);
    logic            lo_lt_from, to_lt_hi, nonempty, full, wrap;
    ring_t           ga, gb, m;
    lo_lt_from = seq_lt(lo, from);
    to_lt_hi   = seq_lt(to, hi);
    nonempty   = lo_lt_from ? (to_lt_hi ? seq_lt(from, to) : seq_lt(from, hi))
                            : (to_lt_hi ? seq_lt(lo, to)   : seq_lt(lo, hi));
    // b - a <= to - from <= W, so b - a = W needs a = from, b = to.
    full       = (to - from == seq_t'(W)) && !seq_lt(from, lo) && !seq_lt(hi, to);
    ga         = lo_lt_from ? ('1 << from[IdxW-1:0]) : ('1 << lo[IdxW-1:0]);
    gb         = to_lt_hi ? ('1 << to[IdxW-1:0]) : ('1 << hi[IdxW-1:0]);
    // b's position below a's, for the four (a, b) candidates in parallel.
    wrap       = lo_lt_from ? (to_lt_hi ? (to[IdxW-1:0] < from[IdxW-1:0]) : (hi[IdxW-1:0] < from[IdxW-1:0]))
                            : (to_lt_hi ? (to[IdxW-1:0] < lo[IdxW-1:0])   : (hi[IdxW-1:0] < lo[IdxW-1:0]));
    m          = full ? '1 : !nonempty ? '0 : ((ga ^ gb) ^ {W{wrap}});
    return we ? (m & ~acked) : '0;
  endfunction

  // v has two or more set bits. A binary tree of (any, two) pairs written
  // with whole-vector shifts: in step d, the node at position i (a multiple
  // of 2d) merges itself with its neighbour at i + d; position 0 ends with
  // the answer. In hardware only position 0's cone is kept, a balanced tree
  // (a prefix OR, the earlier form, measured 15 levels against 12.5 for
  // this one in a stand-alone next-seg probe at W = 256); in the Verilated
  // model it is log2(W) word-wise steps.
  function automatic logic two_or_more(ring_t v);
    ring_t any, two;
    any = v;
    two = '0;
    for (int unsigned d = 1; d < W; d = d * 2) begin
      two = two | (two >> d) | (any & (any >> d));
      any = any | (any >> d);
    end
    return two[0];
  endfunction

  function automatic logic [31:0] rto_after(logic we, logic [31:0] rto, logic [31:0] old);
    if (!we) return old;
    return (rto < 32'(RtoMin)) ? 32'(RtoMin) : rto;
  endfunction

  function automatic cnt_t wnd_clamp(cnt_t w);
    return (w == '0) ? cnt_t'(1) : (w > cnt_t'(W)) ? cnt_t'(W) : w;
  endfunction

  // Incoming stage-1 register (event in stage 2) and input register.
  typedef struct packed {
    logic       valid;
    flow_t      flow;
    rx_type_e   typ;
    seq_t       cum_ack;
    logic       sack_valid;
    seq_t       sack_idx;
    logic       ecn;
    logic [15:0] grant;
  } rx_ev_t;
  rx_ev_t rx_q;
  logic   rx_range_bad_q;                 // the rx event had a flow id >= FlowCount
  flow_id_t rx_id_q;                      // the rx event's flow id as received (status only)

  // A flow id of the ctrl / rx inputs names a flow of this engine.
  function automatic logic id_ok(flow_id_t id);
    return 32'(id) < FlowCount;
  endfunction
  ring_t  rx_cum_ge_q;  // ring positions >= rx_q.cum_ack's, decoded at the input

  typedef struct packed {
    logic       valid;
    rx_ev_t     ev;
    seq_t       old_start;
    seq_t       new_start;
    cnt_t       newly;
    logic       dup;
    ring_t      slid;       // ring positions that left the window
    seq_t       nn1;        // next_new seen by stage 1 (trace only)
    cnt_t       flight1;    // nn1 - new_start
  } s1_t;
  s1_t s1_q, s1_d;

  // The control op being executed (registered at the input).
  typedef struct packed {
    logic            valid;
    logic            range_bad;  // the flow id was >= FlowCount (flow: its low bits)
    ctrl_op_e        op;
    flow_t           flow;
    seq_t            seq;
    logic [LenW-1:0] len;
  } ctrl_ev_t;
  ctrl_ev_t ctrl_q;
  flow_id_t ctrl_id_q;            // the held op's flow id as given (status only)

  // ---------------------------------------------------------------------
  // Processors and the flows they work on. *_d: the flow of the next cycle
  // (block-RAM read addresses, one cycle ahead).
  flow_t  cf, cf_d;  // control: the held op's flow
  flow_t  i1f;       // incoming stage 1
  flow_t  i2f;       // incoming stage 2
  flow_t  pf, pf_d;  // periodic
  flow_t  nf, nf_d;  // next segment
  flow_t  tf;        // transmit notify
  flow_t  rx_fid;    // rx_flow_i's low bits (an id >= FlowCount is dropped at stage 1)
  assign cf = ctrl_q.flow;
  assign rx_fid = flow_t'(rx_flow_i);
  assign tf = txn_flow_i;

  // Init sweep after reset (LUTRAM has no reset): present = 0, gen = tx = 0.
  logic  init_q;
  flow_t init_ptr_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      init_q     <= 1'b1;
      init_ptr_q <= '0;
    end else if (init_q) begin
      init_q     <= init_ptr_q != flow_t'(FlowCount - 1);
      init_ptr_q <= init_ptr_q + flow_t'(1);
    end
  end

  // Write ports (driven further down by the processors).
  logic  present_we, present_wd;
  flow_t present_wa;
  logic  posted_we, last_we, seg_we;
  logic  start_we_i1, start_we_add;
  seq_t  start_wd_i1;
  logic  next_we;
  flow_t next_wa;
  seq_t  next_wd;
  logic  gen_we, tx_we;
  flow_t gen_wa, tx_wa;
  ptr_t  gen_wd, tx_wd;
  logic  acked_we;
  ring_t acked_wd;
  logic  sent_we;
  flow_t sent_wa;
  ring_t sent_wd;
  logic  wnd_we_i2, wnd_we_p, mark_we_i2, mark_we_p, cold_we_i2, cold_we_p;
  cnt_t  wnd_wd_i2, wnd_wd_p;
  ring_t mark_wd_i2, mark_wd_p;
  cold_t cold_wd_i2, cold_wd_p;
  logic  dl_we_i2, dl_we_p;
  logic [31:0] dl_wd_i2, dl_wd_p;
  logic  c_add;      // control adds flow cf this cycle

  // Read data. LUTRAM fields: combinational, this cycle's flow. Block-RAM
  // fields: registered, addressed with *_d, the same value.
  logic            present_c, present_i1, present_i2, present_p, present_n;
  seq_t            posted_c, posted_i2, posted_p, posted_n;
  logic [LenW-1:0] seg_size_n, last_len_n;
  seq_t            start_c, start_i1, start_p, start_n, start_pr;
  seq_t            next_i1, next_i2, next_p, next_n, next_pr;
  ptr_t            gen_c, gen_n, gen_t, tx_c, tx_n, tx_t;
  ring_t           acked_i1, acked_i2, acked_p;
  ring_t           sent_i2, sent_p, sent_n;
  cnt_t            wnd_i2, wnd_p, wnd_n, wnd_pr;
  ring_t           mark_i2, mark_p, mark_n;
  cold_t           cold_i2, cold_p;
  logic [31:0]     dl_s;
  logic            scan_valid;
  flow_t           scan_id, scan_nxt_id;

  // LUTRAM fields. Notify's reads (tf) are combinational; every other
  // processor, control included, reads a registered copy addressed one
  // cycle ahead, which keeps the LUTRAM read and the live-value table off
  // its path. (Separate instances rather than mixed ports: a packed
  // read-address vector that mixes both kinds would look like a
  // combinational loop to Verilator's scheduler.)
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(1), .Readers(5), .RegRead(1)) u_present (
    .clk_i, .we_i(present_we), .waddr_i(present_wa), .wdata_i(present_wd),
    .clr_i(1'b0), .clr_addr_i('0),
    .raddr_i({cf_d, nf_d, pf_d, rx_q.flow, rx_fid}),
    .rdata_o({present_c, present_n, present_p, present_i2, present_i1}));
  // posted and wnd_start are written at cf and read at cf (by control). A
  // write address that is the read address makes Yosys 0.69 infer a
  // single-port LUTRAM, and its xcup library maps single-port RAMs deeper
  // than 256 words to a size its techmap rejects ("invalid
  // OPTION_ABITS/WIDTH combination"). The write address is therefore
  // cf only when the port writes (a 2:1 mux; same behaviour).
  flow_t posted_wa, start_wa_add;
  assign posted_wa    = posted_we ? cf : nf;
  assign start_wa_add = start_we_add ? cf : nf;
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(32), .Readers(4), .RegRead(1)) u_posted (
    .clk_i, .we_i(posted_we), .waddr_i(posted_wa), .wdata_i(ctrl_q.seq),
    .clr_i(1'b0), .clr_addr_i('0),
    .raddr_i({cf_d, nf_d, pf_d, rx_q.flow}),
    .rdata_o({posted_c, posted_n, posted_p, posted_i2}));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(LenW), .Readers(1), .RegRead(1)) u_seg_size (
    .clk_i, .we_i(seg_we), .waddr_i(cf), .wdata_i(ctrl_q.len),
    .clr_i(1'b0), .clr_addr_i('0), .raddr_i(nf_d), .rdata_o(seg_size_n));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(LenW), .Readers(1), .RegRead(1)) u_last_len (
    .clk_i, .we_i(last_we), .waddr_i(cf), .wdata_i(ctrl_q.len),
    .clr_i(1'b0), .clr_addr_i('0), .raddr_i(nf_d), .rdata_o(last_len_n));
  // wnd_start: incoming stage 1 (writer 0) and ADD (writer 1).
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(32), .Writers(2), .Readers(5), .RegRead(1)) u_start (
    .clk_i, .we_i({start_we_add, start_we_i1}), .waddr_i({start_wa_add, i1f}),
    .wdata_i({ctrl_q.seq, start_wd_i1}),
    .clr_i(1'b0), .clr_addr_i('0),
    .raddr_i({probe_flow_i, cf_d, nf_d, pf_d, rx_fid}),
    .rdata_o({start_pr, start_c, start_n, start_p, start_i1}));
  // next_new: next-seg, or ADD (next-seg waits in that cycle).
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(32), .Readers(5), .RegRead(1)) u_next (
    .clk_i, .we_i(next_we), .waddr_i(next_wa), .wdata_i(next_wd),
    .clr_i(1'b0), .clr_addr_i('0),
    .raddr_i({probe_flow_i, nf_d, pf_d, rx_q.flow, rx_fid}),
    .rdata_o({next_pr, next_n, next_p, next_i2, next_i1}));
  // Outstanding counters (mod 2 RingN).
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(PtrW), .Readers(2), .RegRead(1)) u_gen (
    .clk_i, .we_i(gen_we), .waddr_i(gen_wa), .wdata_i(gen_wd),
    .clr_i(1'b0), .clr_addr_i('0), .raddr_i({cf_d, nf_d}), .rdata_o({gen_c, gen_n}));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(PtrW), .Readers(1), .RegRead(0)) u_gen_t (
    .clk_i, .we_i(gen_we), .waddr_i(gen_wa), .wdata_i(gen_wd),
    .clr_i(1'b0), .clr_addr_i('0), .raddr_i(tf), .rdata_o(gen_t));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(PtrW), .Readers(2), .RegRead(1)) u_tx (
    .clk_i, .we_i(tx_we), .waddr_i(tx_wa), .wdata_i(tx_wd),
    .clr_i(1'b0), .clr_addr_i('0), .raddr_i({cf_d, nf_d}), .rdata_o({tx_c, tx_n}));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(PtrW), .Readers(1), .RegRead(0)) u_tx_t (
    .clk_i, .we_i(tx_we), .waddr_i(tx_wa), .wdata_i(tx_wd),
    .clr_i(1'b0), .clr_addr_i('0), .raddr_i(tf), .rdata_o(tx_t));
  // Block RAM.
  // Stage 1 writes acked at rx_q.flow, which is also stage 2's read
  // address for the next cycle: the write address is a 2:1 mux for the
  // same Yosys reason as posted_wa above (at 4096 flows it otherwise maps
  // this memory to a broken single-port LUTRAM).
  flow_t acked_wa;
  assign acked_wa = acked_we ? i1f : pf;
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(W), .Readers(3), .RegRead(1), .Clear(1)) u_acked (
    .clk_i, .we_i(acked_we), .waddr_i(acked_wa), .wdata_i(acked_wd),
    .clr_i(c_add), .clr_addr_i(cf),
    .raddr_i({pf_d, rx_q.flow, rx_fid}),
    .rdata_o({acked_p, acked_i2, acked_i1}));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(W), .Readers(3), .RegRead(1)) u_sent (
    .clk_i, .we_i(sent_we), .waddr_i(sent_wa), .wdata_i(sent_wd),
    .clr_i(1'b0), .clr_addr_i('0),
    .raddr_i({nf_d, pf_d, rx_q.flow}),
    .rdata_o({sent_n, sent_p, sent_i2}));
  // Window group: incoming stage 2 (writer 0) and periodic (writer 1).
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(CntW), .Writers(2), .Readers(4), .RegRead(1),
                    .Clear(1), .Init(CntW'(InitWnd))) u_wnd (
    .clk_i, .we_i({wnd_we_p, wnd_we_i2}), .waddr_i({pf, i2f}), .wdata_i({wnd_wd_p, wnd_wd_i2}),
    .clr_i(c_add), .clr_addr_i(cf),
    .raddr_i({probe_flow_i, nf_d, pf_d, rx_q.flow}),
    .rdata_o({wnd_pr, wnd_n, wnd_p, wnd_i2}));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(W), .Writers(2), .Readers(3), .RegRead(1),
                    .Clear(1)) u_mark (
    .clk_i, .we_i({mark_we_p, mark_we_i2}), .waddr_i({pf, i2f}), .wdata_i({mark_wd_p, mark_wd_i2}),
    .clr_i(c_add), .clr_addr_i(cf),
    .raddr_i({nf_d, pf_d, rx_q.flow}),
    .rdata_o({mark_n, mark_p, mark_i2}));
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width($bits(cold_t)), .Writers(2), .Readers(2), .RegRead(1),
                    .Clear(1), .Init(ColdInit)) u_cold (
    .clk_i, .we_i({cold_we_p, cold_we_i2}), .waddr_i({pf, i2f}), .wdata_i({cold_wd_p, cold_wd_i2}),
    .clr_i(c_add), .clr_addr_i(cf),
    .raddr_i({pf_d, rx_q.flow}),
    .rdata_o({cold_p, cold_i2}));
  // The retransmission deadline: read by the periodic processor's first
  // stage (P0 compares it with the time).
  tonic_state_ram #(.SimModel(SimRam),
                    .Depth(FlowCount), .Width(32), .Writers(2), .Readers(1), .RegRead(1),
                    .Clear(1)) u_deadline (
    .clk_i, .we_i({dl_we_p, dl_we_i2}), .waddr_i({pf, i2f}), .wdata_i({dl_wd_p, dl_wd_i2}),
    .clr_i(c_add), .clr_addr_i(cf),
    .raddr_i(scan_nxt_id),
    .rdata_o(dl_s));

  assign probe_wnd_o   = wnd_pr;
  assign probe_start_o = start_pr;
  assign probe_next_o  = next_pr;

  logic [31:0] now_q;
  dd_stats_t   stats_q, stats_d;
  assign stats_o = stats_q;

  // Active set: port 0 next-seg, 1 incoming, 2 tx-notify, 3 periodic/control;
  // with a credit scheme 4 grants (5..7 unused).
  localparam int unsigned ActPorts = CreditOn ? 8 : 4;
  logic [ActPorts-1:0]  act_ins_valid;
  flow_t [ActPorts-1:0] act_ins_id;
  logic              act_valid, act_pop, act_nxt_valid;
  flow_t             act_id, act_nxt_id;

  tonic_flow_fifo #(
    .FlowCount (FlowCount),
    .WritePorts(ActPorts)
  ) u_active (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .ins_valid_i(act_ins_valid),
    .ins_id_i   (act_ins_id),
    .out_valid_o(act_valid),
    .out_ready_i(act_pop),
    .out_id_o   (act_id),
    .nxt_valid_o(act_nxt_valid),
    .nxt_id_o   (act_nxt_id),
    .count_o    (active_flows_o)
  );

  // ---------------------------------------------------------------------
  // Control.
  logic  c_post, c_remove;          // accepted op this cycle (valid & good; c_add above)
  logic  c_bad;                     // accepted and ignored
  logic  c_fire;                    // the held op executes this cycle
  logic  c_stall;                   // transient: wait
  logic  c_busy_q;                  // an rx event of the held op's flow may be in flight
  logic  c_add_held;                // an ADD is held: next-seg waits (it lends its ports)

  logic  p_insert;     // periodic wants to insert flow pf (window opened or marks)
  logic  p_ins_q;      // ... registered: it uses insert port 3 in the next cycle
  flow_t p_ins_flow_q;
  // The op is registered at the input (ctrl_q) and executes from there, so
  // no input feeds the state reads: present, posted, wnd_start and the
  // outstanding counters of the held op's flow are registered reads
  // addressed with cf_d, the flow held in the next cycle. An ADD of a flow
  // that is being re-added waits until its ring is drained and no rx event
  // of it is in flight (c_busy_q, a registered and conservative compare).
  // Control shares insert port 3 with periodic's (registered) insert.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ctrl_q.valid <= 1'b0;
    end else if (ctrl_ready_o) begin
      ctrl_q.valid <= ctrl_valid_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (ctrl_ready_o) begin
      ctrl_q.range_bad <= !id_ok(ctrl_flow_i);
      ctrl_id_q   <= ctrl_flow_i;
      ctrl_q.op   <= ctrl_op_i;
      ctrl_q.flow <= flow_t'(ctrl_flow_i);
      ctrl_q.seq  <= ctrl_seq_i;
      ctrl_q.len  <= ctrl_len_i;
    end
    c_busy_q <= (rx_q.valid && rx_q.flow == cf_d) || (rx_valid_i && id_ok(rx_flow_i) && rx_fid == cf_d);
  end
  assign cf_d       = (ctrl_q.valid && !c_fire) ? ctrl_q.flow : flow_t'(ctrl_flow_i);
  assign c_add_held = ctrl_q.valid && ctrl_q.op == CtrlAdd && !ctrl_q.range_bad;
  assign c_stall    = c_add_held && !present_c && ((gen_c != tx_c) || c_busy_q
                                                 || (RateOn && !rc_init_ready_i));
  assign c_fire     = ctrl_q.valid && !init_q && !p_ins_q && !c_stall;
  assign ctrl_ready_o = !init_q && (!ctrl_q.valid || c_fire);
  assign c_add    = c_fire && !ctrl_q.range_bad && ctrl_q.op == CtrlAdd && !present_c;
  assign c_post   = c_fire && !ctrl_q.range_bad && ctrl_q.op == CtrlPost && present_c
                 && seq_le(posted_c, ctrl_q.seq)
                 && seq_le(ctrl_q.seq, start_c + 32'h4000_0000);
  assign c_remove = c_fire && !ctrl_q.range_bad && ctrl_q.op == CtrlRemove && present_c;
  assign c_bad    = c_fire && !c_add && !c_post && !c_remove;
  // The cause of an ignored op (and REMOVE with unacked data, executed).
  ctrl_err_e c_err;
  always_comb begin
    c_err = CtrlErrNone;
    if (c_fire) begin
      if (ctrl_q.range_bad)                                 c_err = CtrlErrRange;
      else if (!(ctrl_q.op inside {CtrlAdd, CtrlPost, CtrlRemove})) c_err = CtrlErrBadOp;
      else if (ctrl_q.op == CtrlAdd && present_c)           c_err = CtrlErrAddPresent;
      else if (ctrl_q.op != CtrlAdd && !present_c)          c_err = CtrlErrAbsent;
      else if (ctrl_q.op == CtrlPost && !c_post)            c_err = CtrlErrPostRange;
      else if (c_remove && posted_c != start_c)             c_err = CtrlErrRemoveUnacked;
    end
  end

  // ---------------------------------------------------------------------
  // Incoming stage 1 (event registered at the input).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rx_q.valid     <= 1'b0;
      rx_range_bad_q <= 1'b0;
    end else begin
      rx_q.valid     <= rx_valid_i && id_ok(rx_flow_i);
      rx_range_bad_q <= rx_valid_i && !id_ok(rx_flow_i);
    end
  end
  always_ff @(posedge clk_i) begin
    rx_id_q         <= rx_flow_i;
    rx_q.flow       <= rx_fid;
    rx_q.typ        <= rx_type_i;
    rx_q.cum_ack    <= rx_cum_ack_i;
    rx_cum_ge_q     <= '1 << rx_cum_ack_i[IdxW-1:0];
    rx_q.sack_valid <= rx_sack_valid_i;
    rx_q.sack_idx   <= rx_sack_idx_i;
    rx_q.ecn        <= rx_ecn_i;
    rx_q.grant      <= rx_grant_i;
  end

  seq_t        i1_ws, i1_nn, i1_new;
  logic        i1_present, i1_type_ok, i1_ack_ok, i1_acks, i1_adv, i1_sack_ok, i1_ok, i1_stale;
  cnt_t        i1_span_new, i1_span_new1;
  logic        i1_sack_new;
  ring_t       i1_span, i1_slid, i1_sack_bit, i1_acked;
  assign i1f        = rx_q.flow;
  assign i1_ws      = start_i1;
  assign i1_nn      = next_i1;
  assign i1_present = present_i1 && !init_q;  // LUTRAM is swept after reset
  assign i1_type_ok = rx_q.typ inside {RxAck, RxSack, RxNack, RxPull, RxCnp, RxResend};
  // Types that carry a cumulative ack.
  assign i1_acks    = rx_q.typ inside {RxAck, RxSack, RxNack};
  assign i1_ack_ok  = !i1_acks || seq_le(rx_q.cum_ack, i1_nn);
  assign i1_ok      = rx_q.valid && i1_present && i1_type_ok && i1_ack_ok;
  // A stale cumulative ack (before wnd_start: an old packet, e.g. after
  // reordering). Stage 1 then writes wnd_start unchanged and only a SACK
  // inside the window; the protocol sees the event only if it carries one.
  assign i1_stale   = i1_acks && seq_lt(rx_q.cum_ack, i1_ws);
  // The window advances iff the cumulative ack passes wnd_start. The
  // slid positions [wnd_start, cum_ack) are decoded from the low bits of
  // both ends in parallel with that compare: when it advances and the ack
  // is valid (it cannot pass next_new), cum_ack - wnd_start is in 1..W, so
  // equal low bits mean W, the whole ring. cum_ack's thermometer is decoded
  // from the input, a cycle early.
  assign i1_adv     = i1_acks && seq_lt(i1_ws, rx_q.cum_ack);
  assign i1_new     = i1_adv ? rx_q.cum_ack : i1_ws;
  assign i1_span    = ring_span_ge('1 << i1_ws[IdxW-1:0], rx_cum_ge_q,
                                   rx_q.cum_ack[IdxW-1:0] < i1_ws[IdxW-1:0],
                                   i1_ws[IdxW-1:0] == rx_q.cum_ack[IdxW-1:0]);
  assign i1_slid    = i1_adv ? i1_span : '0;
  // Both candidate window starts are compared with the SACK index in
  // parallel; the advance only selects.
  assign i1_sack_ok = rx_q.sack_valid && seq_lt(rx_q.sack_idx, i1_nn)
                   && (i1_adv ? seq_le(rx_q.cum_ack, rx_q.sack_idx) : seq_le(i1_ws, rx_q.sack_idx));
  assign i1_sack_bit = i1_sack_ok ? (ring_t'(1) << rx_q.sack_idx[IdxW-1:0]) : '0;
  assign i1_sack_new = i1_sack_ok && !acked_i1[rx_q.sack_idx[IdxW-1:0]];
  assign i1_acked   = (acked_i1 & ~i1_slid) | i1_sack_bit;

  // Newly acked: the slid positions not SACKed before (an adder tree over
  // the ring, counting the span before the advance compare gates it), plus
  // the SACK bit if it is new (it lies outside the slid ones). The compares
  // only select among the count, the count + 1 and the SACK bit.
  tonic_popcount_range #(
    .W       (W),
    .Pipeline(0)
  ) u_newly (
    .clk_i  (clk_i),
    .bits_i (i1_span & ~acked_i1),
    .start_i('0),
    .len_i  (cnt_t'(W)),
    .count_o(i1_span_new)
  );

  assign i1_span_new1 = i1_span_new + cnt_t'(1);

  always_comb begin
    s1_d           = '0;
    s1_d.valid     = i1_ok && !(i1_stale && !i1_sack_ok);
    s1_d.ev        = rx_q;
    s1_d.old_start = i1_ws;
    s1_d.new_start = i1_new;
    s1_d.newly     = i1_adv ? (i1_sack_new ? i1_span_new1 : i1_span_new) : cnt_t'(i1_sack_new);
    s1_d.dup       = (rx_q.typ inside {RxAck, RxSack}) && rx_q.cum_ack == i1_ws && i1_nn != i1_ws;
    s1_d.slid      = i1_slid;
    s1_d.nn1       = i1_nn;
    s1_d.flight1   = i1_adv ? cnt_t'(i1_nn - rx_q.cum_ack) : cnt_t'(i1_nn - i1_ws);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_q.valid <= 1'b0;
    end else begin
      s1_q.valid <= s1_d.valid;
    end
    s1_q.ev        <= s1_d.ev;
    s1_q.old_start <= s1_d.old_start;
    s1_q.new_start <= s1_d.new_start;
    s1_q.newly     <= s1_d.newly;
    s1_q.dup       <= s1_d.dup;
    s1_q.slid      <= s1_d.slid;
    s1_q.nn1       <= s1_d.nn1;
    s1_q.flight1   <= s1_d.flight1;
  end

  // ---------------------------------------------------------------------
  // Next segment (declared early: incoming and periodic see its sent flip).
  logic        ns_pick, ns_fire, ns_rtx, ns_more;
  logic        ns_new_q;
  flow_t       ns_flow_q;
  logic        cur_valid_q;
  flow_t       cur_q;
  logic [IdxW-1:0] ns_pos;
  ring_t       ns_flip;   // the sent bit next-seg flips this cycle (flow nf)
  logic        n_credit_ok;    // the flow holds a permit (always 1: window scheme)
  logic        n_credit_more;  // ... and another one after this segment
  logic        n_perm_high;    // ... and more than LowMark after it

  // sent of flow g (read as sent) including next-seg's write of this cycle.
  function automatic ring_t sent_eff(flow_t g, ring_t sent);
    return sent ^ ((ns_fire && ns_rtx && nf == g) ? ns_flip : '0);
  endfunction

  // ---------------------------------------------------------------------
  // Incoming stage 2: the protocol.
  seq_t   i2_nn;
  cnt_t   i2_newly;
  cnt_t   i2_flight;
  ring_t  i2_sent, i2_pending;
  logic   i2_wnd_we, i2_mark_we, i2_rto_we, i2_restart, i2_user_we;
  cnt_t   i2_wnd;
  seq_t   i2_mark_lo, i2_mark_hi;
  logic [31:0] i2_rto;
  user_w_t i2_user;
  logic   i2_rate_we, i2_tok_we;
  logic   i2_cred;      // stage 2 writes rate or tokens this cycle (credit schemes)
  logic [31:0] i2_rate;
  logic [15:0] i2_tok;
  assign i2f        = s1_q.ev.flow;
  assign i2_newly   = s1_q.newly;
  assign i2_nn      = next_i2;
  // FlightSize = next_new - new window start. Stage 1 subtracted the
  // next_new it saw; next_new has moved since only if next-seg sent a new
  // segment of this flow in the last cycle (a small add, not a 32-bit
  // subtract in front of the protocol).
  assign i2_flight  = s1_q.flight1 + cnt_t'(ns_new_q && ns_flow_q == i2f);
  assign i2_sent    = sent_eff(i2f, sent_i2);
  assign i2_pending = mark_i2 ^ i2_sent;

  tonic_proto_incoming #(
    .W    (W),
    .UserW(UserW)
  ) u_proto_in (
    .now_i          (now_q),
    .wnd_start_i    (s1_q.new_start),
    .wnd_i          (wnd_i2),
    .next_new_i     (i2_nn),
    .posted_i       (posted_i2),
    .flight_i       (i2_flight),
    .acked_i        (acked_i2),
    .pending_i      (i2_pending),
    .rto_i          (cold_i2.rto),
    .user_i         (cold_i2.user),
    .type_i         (s1_q.ev.typ),
    .cum_ack_i      (s1_q.ev.cum_ack),
    .sack_valid_i   (s1_q.ev.sack_valid),
    .sack_idx_i     (s1_q.ev.sack_idx),
    .ecn_i          (s1_q.ev.ecn),
    .grant_i        (s1_q.ev.grant),
    .old_start_i    (s1_q.old_start),
    .newly_acked_i  (i2_newly),
    .dup_i          (s1_q.dup),
    .wnd_we_o       (i2_wnd_we),
    .wnd_o          (i2_wnd),
    .mark_we_o      (i2_mark_we),
    .mark_lo_o      (i2_mark_lo),
    .mark_hi_o      (i2_mark_hi),
    .rto_we_o       (i2_rto_we),
    .rto_o          (i2_rto),
    .timer_restart_o(i2_restart),
    .user_we_o      (i2_user_we),
    .user_o         (i2_user),
    .rate_we_o      (i2_rate_we),
    .rate_o         (i2_rate),
    .tokens_we_o    (i2_tok_we),
    .tokens_o       (i2_tok)
  );

  ring_t  i2_mark_mask, i2_mark_new;
  logic [31:0] i2_rto_new;
  cnt_t   i2_wnd_new;
  assign i2_mark_mask = mark_positions(i2_mark_we, i2_mark_lo, i2_mark_hi, s1_q.new_start, i2_nn,
                                       acked_i2);
  // Slid positions stop being pending; marked ones become pending.
  assign i2_mark_new  = (((mark_i2 & ~s1_q.slid) | (i2_sent & s1_q.slid)) & ~i2_mark_mask)
                      | (~i2_sent & i2_mark_mask);
  assign i2_rto_new   = rto_after(i2_rto_we, i2_rto, cold_i2.rto);
  assign i2_wnd_new   = wnd_clamp(i2_wnd);

  logic i2_go;        // stage 2 writes this cycle
  logic i2_advanced;
  assign i2_go       = s1_q.valid && present_i2 && !init_q;
  assign i2_advanced = s1_q.new_start != s1_q.old_start;

  // ---------------------------------------------------------------------
  // Periodic: visit the flows that are present, one per cycle, in the
  // order of a circulating FIFO of flow ids (the scan set). Two stages:
  //   P0 (cycle t): the head is popped; its timer deadline (u_deadline)
  //      is compared with the time of cycle t + 1;
  //   P1 (cycle t + 1): the visit proper (state read fresh, protocol
  //      periodic module, writes); the flow goes back to the tail if it is
  //      still present. ADD inserts a new flow.
  // P1 trusts P0's compare only if nothing could have written the deadline
  // in cycle t (p_dl_same_q: no incoming stage 2 event, held control op or
  // periodic visit of that flow in cycle t, a registered and conservative
  // test); otherwise the visit is taken without a timeout and the flow
  // comes round again on the next pass. With P flows
  // present each is visited every max(P, 3) cycles. A removed flow leaves
  // the set at its next visit.
  logic   scan_nxt_valid_unused;
  logic [IdW:0] scan_count_unused;
  logic   p_valid_q, p_tmo_q, p_dl_same_q;
  flow_t  p_flow_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      p_valid_q <= 1'b0;
    end else begin
      p_valid_q <= scan_valid;
    end
  end
  always_ff @(posedge clk_i) begin
    p_flow_q <= scan_id;
    p_tmo_q     <= !seq_lt(now_q + 32'd1, dl_s);
    p_dl_same_q <= !(s1_q.valid && s1_q.ev.flow == scan_id)
                && !(ctrl_q.valid && cf == scan_id)
                && !(p_valid_q && pf == scan_id);
  end

  tonic_flow_fifo #(
    .FlowCount (FlowCount),
    .WritePorts(2)
  ) u_scan (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .ins_valid_i({c_add, p_valid_q && present_p && !init_q}),
    .ins_id_i   ({cf, p_flow_q}),
    .out_valid_o(scan_valid),
    .out_ready_i(1'b1),
    .out_id_o   (scan_id),
    .nxt_valid_o(scan_nxt_valid_unused),
    .nxt_id_o   (scan_nxt_id),
    .count_o    (scan_count_unused)
  );

  seq_t   p_ws, p_nn;
  cnt_t   p_flight;
  logic   p_present, p_conflict, p_timeout, p_arm, p_disarm, p_call;
  logic   p_same_flow, p_cred_clash;  // the two kinds of conflict
  ring_t  p_sent, p_pending;
  logic   p_wnd_we, p_mark_we, p_rto_we, p_restart, p_user_we;
  cnt_t   p_wnd;
  seq_t   p_mark_lo, p_mark_hi;
  logic [31:0] p_rto;
  user_w_t p_user;
  logic   p_rate_we, p_tok_we;
  logic [31:0] p_rate;
  logic [15:0] p_tok;
  assign pf        = p_flow_q;
  assign pf_d      = scan_id;
  assign p_ws      = start_p;
  assign p_nn      = next_p;
  assign p_flight  = cnt_t'(p_nn - p_ws);
  assign p_present = p_valid_q && present_p && !init_q;
  // Ack beats timeout: no periodic write to a flow incoming stage 2 or
  // control may write this cycle (control: any held op, which keeps
  // this independent of whether it executes).
  // With a credit scheme, a call whose rate/token write meets one of stage 2
  // (any flow: one credit update per cycle) is cancelled whole and runs
  // again on the next visit.
  assign p_same_flow  = (i2_go && i2f == pf) || (ctrl_q.valid && cf == pf);
  assign p_cred_clash = CreditOn && i2_cred && (p_rate_we || p_tok_we);
  assign p_conflict   = p_same_flow || p_cred_clash;
  assign p_disarm  = p_present && !p_conflict && p_flight == '0 && cold_p.armed;
  assign p_arm     = p_present && !p_conflict && p_flight != '0 && !cold_p.armed;
  // The timer expired. Meaningful in a call only (p_call holds the
  // presence, flight and conflict terms).
  assign p_timeout = p_valid_q && cold_p.armed && p_tmo_q && p_dl_same_q;
  // Window scheme: a call while the timer runs; rate and token schemes: a
  // call on every visit (their protocols keep timers of their own).
  assign p_call    = p_present && !p_conflict && (CreditOn || (p_flight != '0 && cold_p.armed));
  assign p_sent    = sent_eff(pf, sent_p);
  assign p_pending = mark_p ^ p_sent;

  tonic_proto_periodic #(
    .W    (W),
    .UserW(UserW)
  ) u_proto_per (
    .now_i          (now_q),
    .wnd_start_i    (p_ws),
    .wnd_i          (wnd_p),
    .next_new_i     (p_nn),
    .posted_i       (posted_p),
    .flight_i       (p_flight),
    .acked_i        (acked_p),
    .pending_i      (p_pending),
    .rto_i          (cold_p.rto),
    .user_i         (cold_p.user),
    .timeout_i      (p_timeout),
    .wnd_we_o       (p_wnd_we),
    .wnd_o          (p_wnd),
    .mark_we_o      (p_mark_we),
    .mark_lo_o      (p_mark_lo),
    .mark_hi_o      (p_mark_hi),
    .rto_we_o       (p_rto_we),
    .rto_o          (p_rto),
    .timer_restart_o(p_restart),
    .user_we_o      (p_user_we),
    .user_o         (p_user),
    .rate_we_o      (p_rate_we),
    .rate_o         (p_rate),
    .tokens_we_o    (p_tok_we),
    .tokens_o       (p_tok)
  );

  ring_t  p_mark_mask, p_mark_new;
  logic [31:0] p_rto_new;
  cnt_t   p_wnd_new;
  assign p_mark_mask = mark_positions(p_call && p_mark_we, p_mark_lo, p_mark_hi, p_ws, p_nn, acked_p);
  assign p_mark_new  = (mark_p & ~p_mark_mask) | (~p_sent & p_mark_mask);
  assign p_rto_new   = rto_after(p_rto_we, p_rto, cold_p.rto);
  assign p_wnd_new   = wnd_clamp(p_wnd);
  assign p_insert    = p_call && (p_mark_we || p_wnd_we);

  // ---------------------------------------------------------------------
  // Next segment: the active set's head, or the current flow when no other
  // flow is waiting (one flow alone sends every cycle). Control's ADD uses
  // the CR port, so next-seg waits in that cycle.
  seq_t   n_ws, n_nn, n_posted, n_rtx_idx, n_idx, n_avail;
  ptr_t   n_tx, n_out;
  cnt_t   n_wnd, n_flight;
  ring_t  n_pending;
  logic   n_found_unused, n_rtx_ok, n_new_ok, n_can, n_wrap, n_last_new, n_last_rtx;
  logic [31-IdxW:0] n_ws_hi1;
  flow_t  cur_d;
  assign ns_pick  = !c_add_held && (act_valid || cur_valid_q);
  assign act_pop  = !c_add_held && act_valid;
  assign nf       = act_valid ? act_id : cur_q;
  assign cur_d    = ns_pick ? nf : cur_q;
  assign nf_d     = act_nxt_valid ? act_nxt_id : cur_d;
  assign n_ws     = start_n;
  assign n_nn     = next_n;
  assign n_wnd    = wnd_n;
  assign n_posted = posted_n;
  assign n_tx     = tx_n + ptr_t'(txn_valid_i && tf == nf);
  assign n_out    = gen_n - n_tx;
  assign n_pending = mark_n ^ sent_n;
  assign n_can    = ns_pick && present_n && !init_q && n_out < ptr_t'(RingN);

  tonic_ffs_after_head #(
    .W(W)
  ) u_next_rtx (
    .bits_i (n_pending),
    .head_i (n_ws[IdxW-1:0]),
    .found_o(n_found_unused),
    .index_o(ns_pos)
  );

  // Retransmissions obey the window too (after a timeout cwnd = 1 resends
  // from wnd_start upwards as the window reopens, not the whole window): a
  // retransmission is due iff a pending bit lies in the first
  // min(flight, cwnd) positions from wnd_start (next_new - wnd_start is in
  // 0..W): the AND of two masks from wnd_start, [wnd_start, next_new)
  // decoded from the low bits of both ends and the first cwnd positions,
  // then an OR. That test runs in parallel with the find-first
  // unit, which then only supplies the position. A pending bit beyond
  // next_new is a stale one of a slid window (cleared by incoming stage 2
  // in the next cycle); the mask leaves it out.
  // The retransmitted index is wnd_start's upper bits (plus one if the
  // position wrapped below wnd_start's) with the position as low bits: no
  // 32-bit adder after the find-first unit.
  assign n_flight  = cnt_t'(n_nn - n_ws);
  assign n_rtx_ok  = |(n_pending & ring_span(n_ws[IdxW-1:0], n_nn[IdxW-1:0], n_flight == cnt_t'(W))
                                 & ring_mask(n_ws[IdxW-1:0], n_wnd));
  assign n_ws_hi1  = n_ws[31:IdxW] + 1'b1;
  assign n_wrap    = ns_pos < n_ws[IdxW-1:0];
  assign n_rtx_idx = {n_wrap ? n_ws_hi1 : n_ws[31:IdxW], ns_pos};
  // New data: n_avail = posted - next_new, in 0..2^30 (control keeps posted
  // within 2^30 of wnd_start), so its sign and its value 1 give the serial
  // compares next_new < posted and next_new + 1 < posted.
  assign n_avail    = n_posted - n_nn;
  assign n_last_new = n_avail == 32'd1;
  assign n_new_ok   = !n_avail[31] && n_avail != '0 && n_flight < n_wnd;
  assign ns_fire    = n_can && (n_rtx_ok || n_new_ok) && n_credit_ok;
  assign ns_rtx     = n_rtx_ok;
  assign n_idx      = n_rtx_ok ? n_rtx_idx : n_nn;
  assign ns_flip    = ring_t'(1) << ns_pos;
  // The segment is the last posted one (its length is last_len): a
  // retransmission is, iff all posted data has been sent (n_avail = 0) and
  // its position is that of posted - 1.
  assign n_last_rtx = n_avail == '0 && ns_pos == IdxW'(n_posted[IdxW-1:0] - 1'b1);

  // Still eligible after this segment (conservative: spare pending bits
  // may be stale; a pop that finds nothing costs one cycle). Another
  // retransmission: a second pending bit anywhere (the one sent is pending).
  logic n_more_rtx, n_more_new;
  assign n_more_rtx = n_rtx_ok && two_or_more(n_pending);
  assign n_more_new = n_rtx_ok ? n_new_ok
                    : (!n_avail[31] && n_avail[31:1] != '0 && n_flight + cnt_t'(1) < n_wnd);
  assign ns_more    = (n_out + ptr_t'(1) < ptr_t'(RingN)) && (n_more_rtx || n_more_new)
                   && n_credit_more;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cur_valid_q <= 1'b0;
    end else if (ns_pick) begin
      cur_valid_q <= ns_fire && ns_more;
    end else if (c_add || c_remove) begin
      cur_valid_q <= cur_valid_q && cur_q != cf;
    end
  end
  always_ff @(posedge clk_i) begin
    cur_q <= cur_d;
  end
  // Last cycle's new segment (incoming stage 2's FlightSize).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ns_new_q <= 1'b0;
    end else begin
      ns_new_q <= ns_fire && !ns_rtx;
    end
  end
  always_ff @(posedge clk_i) begin
    ns_flow_q <= nf;
  end

  // ---------------------------------------------------------------------
  // Transmit notify: insert the flow when it drops below RingN outstanding.
  ptr_t t_gen;
  assign t_gen = gen_t + ptr_t'(ns_fire && nf == tf);

  // ---------------------------------------------------------------------
  // Active-set inserts.
  assign act_ins_valid[0] = ns_fire && ns_more;
  assign act_ins_id[0]    = nf;
  assign act_ins_valid[1] = i2_go && (i2_advanced || i2_wnd_we || i2_mark_we);
  assign act_ins_id[1]    = i2f;
  assign act_ins_valid[2] = txn_valid_i && (t_gen - tx_t == ptr_t'(RingN));
  assign act_ins_id[2]    = tf;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      p_ins_q <= 1'b0;
    end else begin
      p_ins_q <= p_insert;
    end
  end
  always_ff @(posedge clk_i) begin
    p_ins_flow_q <= pf;
  end
  assign act_ins_valid[3] = p_ins_q || c_post;
  assign act_ins_id[3]    = p_ins_q ? p_ins_flow_q : cf;

  // ---------------------------------------------------------------------
  // Credit gate (rate and token schemes; docs/design/credit-schemes.md).
  // permits = granted - used (mod 2^16, always 0..65535): used has one
  // writer, next-seg (+1 per segment); granted one, the grant stage. ADD
  // clears both (granted reads TokensInit, used 0).
  // Grant stage (g_q, one per cycle): rate: permits from tonic_rate_credit;
  // token: incoming stage 2 (an RxPull adds P - pull when P is after pull,
  // serial 16 bits, plus the protocol's tokens_o) or periodic (tokens_o),
  // stage 2 first (a periodic call that would collide is cancelled, see
  // p_conflict). An add is cut so that permits stay <= 65535 (counted).
  // The flow goes back to the active set with every grant (a flow with
  // nothing to send is dropped again at its pop).
  typedef logic [15:0] perm_t;
  typedef struct packed {
    logic        valid;
    flow_t       flow;
    logic [16:0] add;       // tokens or permits to add (before the cut)
    logic        pull_we;   // an RxPull: pull carries its cumulative number
    logic [15:0] pull;
  } grant_t;
  grant_t g_q, g_d;
  credit_stats_t cstats_q, cstats_d;
  logic   n_park;           // next-seg found the flow without a permit
  logic   g_stale, g_excess;  // grant stage: a stale pull, an add cut at 65535 (counted, reported)

  if (CreditOn) begin : g_credit
    perm_t granted_n, used_n, granted_g, used_g, pull_g, n_perm, g_room, g_delta, g_add;
    logic  g_after, g_cut;
    logic [16:0] g_total;
    logic  used_we;
    // granted: next-seg's copy (registered, nf_d) and the grant stage's
    // (combinational, g_q.flow).
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(16), .Readers(1), .RegRead(1),
                      .Clear(1), .Init(16'(TokensInit))) u_granted_n (
      .clk_i, .we_i(g_q.valid), .waddr_i(g_q.flow), .wdata_i(granted_g + g_add),
      .clr_i(c_add), .clr_addr_i(cf), .raddr_i(nf_d), .rdata_o(granted_n));
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(16), .Readers(1), .RegRead(0),
                      .Clear(1), .Init(16'(TokensInit))) u_granted_g (
      .clk_i, .we_i(g_q.valid), .waddr_i(g_q.flow), .wdata_i(granted_g + g_add),
      .clr_i(c_add), .clr_addr_i(cf), .raddr_i(g_q.flow), .rdata_o(granted_g));
    assign used_we = ns_fire;
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(16), .Readers(1), .RegRead(1),
                      .Clear(1)) u_used_n (
      .clk_i, .we_i(used_we), .waddr_i(nf), .wdata_i(used_n + 16'd1),
      .clr_i(c_add), .clr_addr_i(cf), .raddr_i(nf_d), .rdata_o(used_n));
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(16), .Readers(1), .RegRead(0),
                      .Clear(1)) u_used_g (
      .clk_i, .we_i(used_we), .waddr_i(nf), .wdata_i(used_n + 16'd1),
      .clr_i(c_add), .clr_addr_i(cf), .raddr_i(g_q.flow), .rdata_o(used_g));
    // The last cumulative pull number (token scheme).
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(16), .Readers(1), .RegRead(0),
                      .Clear(1)) u_pull (
      .clk_i, .we_i(g_q.valid && g_q.pull_we && g_after), .waddr_i(g_q.flow), .wdata_i(g_q.pull),
      .clr_i(c_add), .clr_addr_i(cf), .raddr_i(g_q.flow), .rdata_o(pull_g));

    assign n_perm        = granted_n - used_n;
    assign n_credit_ok   = n_perm != '0;
    assign n_credit_more = n_perm != 16'd1;
    assign n_perm_high   = n_perm > perm_t'(LowMark + 1);
    assign n_park        = n_can && (n_rtx_ok || n_new_ok) && !n_credit_ok;

    // Grant stage.
    assign g_delta = g_q.pull - pull_g;
    assign g_after = g_q.pull_we && !g_delta[15] && g_delta != '0;
    assign g_total = g_q.add + (g_after ? 17'(g_delta) : 17'd0);
    assign g_room  = 16'hffff - (granted_g - used_g);
    assign g_cut   = g_total > 17'(g_room);
    assign g_stale  = g_q.valid && g_q.pull_we && !g_after;
    assign g_excess = g_q.valid && g_cut;
    assign g_add   = g_cut ? g_room : 16'(g_total);

    if (RateOn) begin : g_rate
      assign i2_cred = i2_go && i2_rate_we;
      always_comb begin
        g_d       = '0;
        g_d.valid = rc_grant_valid_i;
        g_d.flow  = rc_grant_flow_i;
        g_d.add   = 17'(rc_grant_cnt_i);
      end
      logic unused_tok;
      assign unused_tok = ^{i2_tok_we, i2_tok, p_tok_we, p_tok, s1_q.ev.grant};
    end else begin : g_token
      logic i2_pull;
      assign i2_pull = s1_q.ev.typ == RxPull;
      assign i2_cred = i2_go && (i2_tok_we || i2_pull);
      always_comb begin
        g_d = '0;
        if (i2_cred) begin
          g_d.valid   = 1'b1;
          g_d.flow    = i2f;
          g_d.add     = 17'(i2_tok);
          g_d.pull_we = i2_pull;
          g_d.pull    = s1_q.ev.grant;
        end else if (p_call && p_tok_we) begin
          g_d.valid   = 1'b1;
          g_d.flow    = pf;
          g_d.add     = 17'(p_tok);
        end
      end
      logic unused_rate;
      assign unused_rate = ^{i2_rate, p_rate, rc_grant_valid_i, rc_grant_flow_i, rc_grant_cnt_i};
    end

    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        g_q.valid <= 1'b0;
      end else begin
        g_q.valid <= g_d.valid;
      end
      g_q.flow    <= g_d.flow;
      g_q.add     <= g_d.add;
      g_q.pull_we <= g_d.pull_we;
      g_q.pull    <= g_d.pull;
    end

    always_comb begin
      cstats_d = cstats_q;
      if (g_stale)                              cstats_d.pull_stale += 1;
      if (g_excess)                             cstats_d.tok_excess += 1;
      if (p_present && p_cred_clash && !p_same_flow) cstats_d.per_cancelled += 1;
      if (n_park)                               cstats_d.parks += 1;
      if (g_q.valid)                            cstats_d.permits += 32'(g_add);
    end

    assign act_ins_valid[4] = g_q.valid;
    assign act_ins_id[4]    = g_q.flow;
    assign act_ins_valid[7:5] = '0;
    assign act_ins_id[7:5]    = '{default: '0};
  end else begin : g_no_credit
    assign n_credit_ok   = 1'b1;
    assign n_credit_more = 1'b1;
    assign n_perm_high   = 1'b1;
    assign n_park        = 1'b0;
    assign i2_cred       = 1'b0;
    assign g_d           = '0;
    assign g_q           = '0;
    assign cstats_d      = cstats_q;
    assign g_stale       = 1'b0;
    assign g_excess      = 1'b0;
    logic unused_credit;
    assign unused_credit = ^{i2_rate_we, i2_rate, i2_tok_we, i2_tok, p_rate_we, p_rate, p_tok_we,
                             p_tok, rc_grant_valid_i, rc_grant_flow_i, rc_grant_cnt_i, g_d, g_q};
  end

  // Rate scheme: ADD initialises the flow's credit (ADD waits while the rate
  // cell's queue is full: c_stall); new rates and permit requests leave
  // registered.
  logic            rc_upd_d, rc_req_d;
  flow_t           rc_upd_flow_d;
  logic [31:0]     rc_upd_rate_d;
  assign rc_init_valid_o = RateOn && c_add;
  assign rc_init_flow_o  = cf;
  assign rc_init_len_o   = ctrl_q.len;
  assign rc_upd_d        = RateOn && ((i2_go && i2_rate_we) || (p_call && p_rate_we));
  assign rc_upd_flow_d   = (i2_go && i2_rate_we) ? i2f : pf;
  assign rc_upd_rate_d   = (i2_go && i2_rate_we) ? i2_rate : p_rate;
  // A park, or a segment that leaves at most LowMark permits.
  assign rc_req_d        = RateOn && (n_park || (ns_fire && !n_perm_high));
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rc_upd_valid_o <= 1'b0;
      rc_req_valid_o <= 1'b0;
      cstats_q       <= '0;
    end else begin
      rc_upd_valid_o <= rc_upd_d;
      rc_req_valid_o <= rc_req_d;
      cstats_q       <= cstats_d;
    end
    rc_upd_flow_o <= rc_upd_flow_d;
    rc_upd_rate_o <= rc_upd_rate_d;
    rc_req_flow_o <= nf;
  end
  assign credit_stats_o = cstats_q;

  // ---------------------------------------------------------------------
  // CR port.
  assign enq_valid_o = c_add || ns_fire;
  assign enq_init_o  = c_add;
  assign enq_flow_o  = c_add_held ? cf : nf;
  assign enq_idx_o   = n_idx;
  assign enq_rtx_o   = ns_rtx;
  assign enq_len_o   = (n_rtx_ok ? n_last_rtx : n_last_new) ? last_len_n : seg_size_n;

  // ---------------------------------------------------------------------
  // Notes: burst complete. A 4-entry queue; dropped (counted) when full.
  logic       note_push, note_push_ok;
  logic [2:0] note_cnt_unused;
  assign note_push = i2_go && i2_advanced && s1_q.new_start == posted_i2;

  tonic_small_fifo #(
    .Width(IdW + 32),
    .Depth(4)
  ) u_notes (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .push_i     (note_push),
    .data_i     ({i2f, s1_q.new_start}),
    .push_ok_o  (note_push_ok),
    .out_valid_o(note_valid_o),
    .out_ready_i(note_ready_i),
    .out_data_o ({note_flow_o, note_acked_o}),
    .count_o    (note_cnt_unused)
  );

  // ---------------------------------------------------------------------
  // Trace port.
  cnt_t    tr_in_wnd, tr_per_wnd;
  user_w_t tr_in_user, tr_per_user;
  assign tr_in_wnd   = i2_wnd_we ? i2_wnd_new : wnd_i2;
  assign tr_in_user  = i2_user_we ? i2_user : cold_i2.user;
  assign tr_per_wnd  = p_wnd_we ? p_wnd_new : wnd_p;
  assign tr_per_user = p_user_we ? p_user : cold_p.user;
  always_comb begin
    trace_ns_o.valid     = ns_fire;
    trace_ns_o.rtx       = ns_rtx;
    trace_ns_o.flow      = 16'(nf);
    trace_ns_o.idx       = n_idx;
    trace_in_o           = '0;
    trace_in_o.valid     = i2_go;
    trace_in_o.flow      = 16'(i2f);
    trace_in_o.next_new  = i2_nn;
    trace_in_o.next_new1 = s1_q.nn1;
    trace_in_o.wnd       = 16'(tr_in_wnd);
    trace_in_o.rto       = i2_rto_new;
    trace_in_o.user      = 128'(tr_in_user);
    trace_per_o          = '0;
    trace_per_o.valid    = p_call;
    trace_per_o.timeout  = p_call && p_timeout;
    trace_per_o.flow     = 16'(pf);
    trace_per_o.next_new = p_nn;
    trace_per_o.wnd      = 16'(tr_per_wnd);
    trace_per_o.rto      = p_rto_new;
    trace_per_o.user     = 128'(tr_per_user);
  end

  // ---------------------------------------------------------------------
  // The rx event's fault, the first in this order (one counter each; a
  // stale ack with a SACK outside the window also counts rx_bad_sack).
  rx_err_e i1_err;
  always_comb begin
    if (rx_range_bad_q)                               i1_err = RxErrRange;
    else if (rx_q.valid && !i1_present)               i1_err = RxErrUnknown;
    else if (rx_q.valid && !i1_type_ok)               i1_err = RxErrType;
    else if (rx_q.valid && !i1_ack_ok)                i1_err = RxErrAck;
    else if (i1_ok && i1_stale)                       i1_err = RxErrStale;
    else if (i1_ok && rx_q.sack_valid && !i1_sack_ok) i1_err = RxErrSack;
    else                                              i1_err = RxErrNone;
  end

  // Counters.
  always_comb begin
    stats_d = stats_q;
    if (i1_err == RxErrRange)                    stats_d.rx_flow_range += 1;
    if (i1_err == RxErrStale)                    stats_d.rx_stale_ack += 1;
    if (c_err == CtrlErrRange)                   stats_d.ctrl_flow_range += 1;
    if (c_err == CtrlErrBadOp)                   stats_d.ctrl_bad_op += 1;
    if (c_err == CtrlErrAddPresent)              stats_d.ctrl_add_present += 1;
    if (c_err == CtrlErrAbsent)                  stats_d.ctrl_absent += 1;
    if (c_err == CtrlErrPostRange)               stats_d.ctrl_post_range += 1;
    if (c_err == CtrlErrRemoveUnacked)           stats_d.ctrl_remove_unacked += 1;
    if (i1_err == RxErrUnknown)                  stats_d.rx_unknown_flow += 1;
    if (i1_err == RxErrType)                     stats_d.rx_bad_type += 1;
    if (i1_err == RxErrAck)                      stats_d.rx_bad_ack += 1;
    if (i1_ok && rx_q.sack_valid && !i1_sack_ok) stats_d.rx_bad_sack += 1;
    if (c_bad)                                   stats_d.ctrl_bad += 1;
    if (note_push && !note_push_ok)              stats_d.note_drops += 1;
    if (p_call && p_timeout)                     stats_d.timeouts += 1;
    if (ns_fire && ns_rtx)                       stats_d.retransmits += 1;
    if (ns_fire)                                 stats_d.segments += 1;
  end

  // Status events (docs/robustness.md): the same causes as the counters,
  // with the flow, registered.
  status_t status_d;
  always_comb begin
    status_d = '0;
    status_d.rx        = i1_err;
    status_d.rx_flow   = rx_id_q;
    status_d.ctrl      = c_err;
    status_d.ctrl_flow = ctrl_id_q;
    status_d.pull_stale = g_stale;
    status_d.tok_excess = g_excess;
    status_d.cred_flow  = 16'(g_q.flow);
    status_d.note_drop  = note_push && !note_push_ok;
    status_d.note_flow  = 16'(i2f);
    status_d.valid      = status_d.rx != RxErrNone || status_d.ctrl != CtrlErrNone
                       || status_d.pull_stale || status_d.tok_excess || status_d.note_drop;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) status_o <= '0;
    else       status_o <= status_d;
  end

  // ---------------------------------------------------------------------
  // State writes, one always_ff per writer group.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      now_q   <= '0;
      stats_q <= '0;
    end else begin
      now_q   <= now_q + 32'd1;
      stats_q <= stats_d;
    end
  end

  // Control (and the init sweep).
  assign present_we = init_q || c_add || c_remove;
  assign present_wa = init_q ? init_ptr_q : cf;
  assign present_wd = !init_q && c_add;
  assign posted_we  = c_add || c_post;
  assign last_we    = c_add || c_post;
  assign seg_we     = c_add;

  // Incoming stage 1 (ADD: writer 1 of wnd_start, clear of acked).
  assign start_we_i1  = i1_ok;
  assign start_wd_i1  = i1_new;
  assign start_we_add = c_add;
  assign acked_we     = i1_ok;
  assign acked_wd     = i1_acked;

  // Incoming stage 2 (writer 0) and periodic (writer 1) of the window
  // group; never the same flow (a conflicting periodic visit writes
  // nothing). ADD clears the group.
  always_comb begin
    cold_wd_i2      = cold_i2;
    cold_wd_i2.rto  = i2_rto_new;
    if (i2_user_we) cold_wd_i2.user = i2_user;
    if (s1_q.new_start == i2_nn) begin
      cold_wd_i2.armed = 1'b0;
    end else if (i2_restart) begin
      cold_wd_i2.armed = 1'b1;
    end
    cold_wd_p = cold_p;
    if (p_arm || p_disarm) begin
      cold_wd_p.armed = p_arm;
    end
    if (p_call) begin
      cold_wd_p.rto = p_rto_new;
      if (p_user_we) cold_wd_p.user = p_user;
    end
  end
  assign cold_we_i2 = i2_go;
  assign cold_we_p  = p_arm || p_disarm || p_call;
  assign dl_we_i2   = i2_go && s1_q.new_start != i2_nn && i2_restart;
  assign dl_wd_i2   = now_q + i2_rto_new;
  assign dl_we_p    = p_arm || p_disarm || (p_call && p_restart);
  assign dl_wd_p    = now_q + (p_call ? p_rto_new : cold_p.rto);
  assign wnd_we_i2  = i2_go && i2_wnd_we;
  assign wnd_wd_i2  = i2_wnd_new;
  assign wnd_we_p   = p_call && p_wnd_we;
  assign wnd_wd_p   = p_wnd_new;
  assign mark_we_i2 = i2_go;
  assign mark_wd_i2 = i2_mark_new;
  assign mark_we_p  = p_call && p_mark_we;
  assign mark_wd_p  = p_mark_new;

  // Next segment (ADD: next-seg waits in that cycle and lends its port).
  assign next_we = c_add || (ns_fire && !ns_rtx);
  assign next_wa = c_add_held ? cf : nf;
  assign next_wd = c_add_held ? ctrl_q.seq : n_nn + 32'd1;
  assign sent_we = c_add || (ns_fire && ns_rtx);
  assign sent_wa = c_add_held ? cf : nf;
  assign sent_wd = c_add_held ? '0 : sent_n ^ ns_flip;

  // Outstanding counters: next-seg (gen) and transmit notify (tx); the init
  // sweep zeroes them (no next-seg or notify can happen during it: no flow
  // is present and the CR engine is empty).
  assign gen_we = init_q || ns_fire;
  assign gen_wa = init_q ? init_ptr_q : nf;
  assign gen_wd = init_q ? '0 : gen_n + ptr_t'(1);
  assign tx_we  = init_q || txn_valid_i;
  assign tx_wa  = init_q ? init_ptr_q : tf;
  assign tx_wd  = init_q ? '0 : tx_t + ptr_t'(1);

  // Simulation-only invariants (window bounds, outstanding <= N, credit
  // never negative): empty unless TONIC_ASSERT is defined (docs/soak.md).
  `include "tonic_dd_assert.svh"
endmodule

`default_nettype wire
