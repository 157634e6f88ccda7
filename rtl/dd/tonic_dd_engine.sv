// SPDX-License-Identifier: Apache-2.0
// tonic_dd_engine: data-delivery engine, a coordinator over one submodule per processor and the state bank.
//
// Decides what each flow sends next. The processors, one module each:
//   tonic_dd_control     host ops ADD / POST / REMOVE, init sweep
//   tonic_dd_incoming1   incoming stage 1: wnd_start, acked, rx checks
//   tonic_dd_incoming2   incoming stage 2: the protocol's tonic_proto_incoming
//   tonic_dd_periodic    scan set, retransmission timer, tonic_proto_periodic
//   tonic_dd_next_seg    the next segment of the active set's head
//   tonic_dd_tx_notify   transmit notify (outstanding addresses)
//   tonic_dd_credit_gate permits per segment (rate and token schemes)
//   tonic_dd_host_notes  burst-complete notes to the host
// and tonic_dd_state_bank holds the per-flow state, one named read port
// per processor and one named write port per writer. docs/dd-pipeline.md
// has the cycle-by-cycle table (who reads and writes what, and when) and
// how same-flow conflicts between processors resolve.
//
// This module wires them and keeps what belongs to no processor: the
// active set (flows with something to send and fewer than RingN addresses
// outstanding; insert ports named below), the time, the counters and the
// status word, the CR port and the probe.
//
// Per-flow state, grouped by writer:
//   control  : present, seg_size, last_len, posted        (+ everything on ADD)
//   incoming1: wnd_start, acked
//   incoming2 and periodic: wnd, mark, rto, deadline, armed, user
//              (same flow in one cycle: merged into stage 2's write)
//   next-seg : next_new, sent, rcnt (2-bit retransmit count per position), gen_cnt
//   tx-notify: tx_cnt
// Segment s occupies ring position s mod W of the bitmaps. It is pending
// retransmission iff mark != sent there: incoming and periodic mark with
// mark = ~sent, next-seg retransmits with sent = mark, window slides clear
// with mark = sent, so each bitmap has one writer group. outstanding =
// gen_cnt - tx_cnt (mod 2 RingN): generate and notify in one cycle cancel.
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

/// Data-delivery engine: the coordinator of the DD processors.
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
  /// Not 0: the CR engine checks credit on the wire (its wire gate, set by
  /// tonic_top from the protocol's user_configs.vh): the credit gate keeps
  /// the voided permits (a debt) and, with the token scheme, honours a
  /// protocol's token set (a revocation).
  parameter int unsigned WireGate = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  /// Clock.
  input  wire logic            clk_i,
  /// Synchronous reset, active high.
  input  wire logic            rst_i,
  /// Control from the host driver: op valid.
  input  wire logic            ctrl_valid_i,
  /// Op accepted.
  output logic                 ctrl_ready_o,
  /// Op code.
  input  wire ctrl_op_e        ctrl_op_i,
  /// Op's flow id (ids >= FlowCount: counted, ignored).
  input  wire flow_id_t        ctrl_flow_i,
  /// ADD: first segment; POST: one past the last posted.
  input  wire seq_t            ctrl_seq_i,
  /// ADD: segment size; POST: length of the last posted.
  input  wire logic [LenW-1:0] ctrl_len_i,
  /// Incoming control packet valid (one per cycle, no ready).
  input  wire logic            rx_valid_i,
  /// Its flow id (ids >= FlowCount: counted, ignored).
  input  wire flow_id_t        rx_flow_i,
  /// Its type.
  input  wire rx_type_e        rx_type_i,
  /// Its cumulative ack.
  input  wire seq_t            rx_cum_ack_i,
  /// It carries a selective ack ...
  input  wire logic            rx_sack_valid_i,
  /// ... of this segment.
  input  wire seq_t            rx_sack_idx_i,
  /// Its ECN echo.
  input  wire logic            rx_ecn_i,
  /// Its grant (token scheme: cumulative pull number).
  input  wire logic [15:0]     rx_grant_i,
  /// Its echo of a transmission (the RTT sample; ev_info_t).
  input  wire echo_t           rx_echo_i,
  /// The time (cycles since reset, wraps): the clock of the transmit stamps
  /// and of every timer.
  output logic [31:0]          now_o,
  /// Segment address to the CR engine (no ready; at most RingN per flow).
  output logic                 enq_valid_o,
  /// Flow add: initialise the ring.
  output logic                 enq_init_o,
  /// The address's flow.
  output logic      [IdW-1:0]  enq_flow_o,
  /// The segment index.
  output seq_t                 enq_idx_o,
  /// A retransmission.
  output logic                 enq_rtx_o,
  /// The segment length.
  output logic      [LenW-1:0] enq_len_o,
  /// Transmit notify from the CR engine (no ready).
  input  wire logic            txn_valid_i,
  /// Its flow.
  input  wire logic [IdW-1:0]  txn_flow_i,
  /// Its segment index (the transmit event, tonic_dd_transmit).
  input  wire seq_t            txn_idx_i,
  /// It was a retransmission.
  input  wire logic            txn_rtx_i,
  /// Its length.
  input  wire logic [LenW-1:0] txn_len_i,
  /// Its transmit stamp (seg_ts_o).
  input  wire ts_t             txn_ts_i,
  /// Note to the host: a burst is complete (everything posted is acked).
  /// Dropped and counted when the host does not take it.
  output logic                 note_valid_o,
  /// The host takes the note.
  input  wire logic            note_ready_i,
  /// The note's flow.
  output logic      [IdW-1:0]  note_flow_o,
  /// The note's wnd_start (= posted).
  output seq_t                 note_acked_o,
  /// Counters.
  output dd_stats_t            stats_o,
  /// Bad-input events (registered; the rate_clamp and watchdog fields are
  /// tonic_top's and stay 0 here).
  output status_t              status_o,
  /// The number of flows in the active set.
  output logic      [IdW:0]    active_flows_o,
  /// Probe (traces, debug): the flow whose state the probe outputs show.
  input  wire logic [IdW-1:0]  probe_flow_i,
  /// Its cwnd (segments).
  output logic [$clog2(W):0]   probe_wnd_o,
  /// Its wnd_start.
  output seq_t                 probe_start_o,
  /// Its next_new.
  output seq_t                 probe_next_o,
  /// Trace of incoming stage 2's window-group write of this cycle.
  output dd_trace_t            trace_in_o,
  /// Trace of periodic's write (a call of the protocol).
  output dd_trace_t            trace_per_o,
  /// Trace of next-seg's decision.
  output dd_ns_trace_t         trace_ns_o,
  /// Rate credit (tonic_rate_credit; rate scheme only, idle otherwise):
  /// ADD initialises the flow's credit.
  output logic                 rc_init_valid_o,
  /// The rate cell takes the init.
  input  wire logic            rc_init_ready_i,
  /// The init's flow.
  output logic      [IdW-1:0]  rc_init_flow_o,
  /// Its segment size.
  output logic      [LenW-1:0] rc_init_len_o,
  /// A protocol's new rate (registered).
  output logic                 rc_upd_valid_o,
  /// Its flow.
  output logic      [IdW-1:0]  rc_upd_flow_o,
  /// The rate.
  output logic      [31:0]     rc_upd_rate_o,
  /// The flow asks for permits (registered).
  output logic                 rc_req_valid_o,
  /// Its flow.
  output logic      [IdW-1:0]  rc_req_flow_o,
  /// Permits granted ...
  input  wire logic            rc_grant_valid_i,
  /// ... to this flow ...
  input  wire logic [IdW-1:0]  rc_grant_flow_i,
  /// ... this many.
  input  wire logic [4:0]      rc_grant_cnt_i,
  /// ... or a revocation (INIT, a rate cut) ...
  input  wire logic            rc_grant_set_i,
  /// ... for a cut (the wire gate hands the voided permits back).
  input  wire logic            rc_grant_cut_i,
  /// The wire gate voided permits of a flow at a cut ...
  input  wire logic            void_valid_i,
  /// ... of this flow ...
  input  wire logic [IdW-1:0]  void_flow_i,
  /// ... this many (subtracted from its permits).
  input  wire logic [16:0]     void_cnt_i,
  /// Wire gate of the CR engine: a grant or revocation ...
  output logic                 gate_valid_o,
  /// ... that sets instead of adding ...
  output logic                 gate_set_o,
  /// ... and hands the voided permits back ...
  output logic                 gate_void_o,
  /// ... for this flow ...
  output logic [IdW-1:0]       gate_flow_o,
  /// ... this many permits.
  output logic [15:0]          gate_cnt_o,
  /// Credit counters (rate_* fields are the rate cell's, filled in by the top).
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
  if (UserW > UserWMax || FlowCount > 65536) begin : g_check_trace
    $fatal(1, "tonic_dd_engine: UserW <= UserWMax (tonic_dd_pkg) and FlowCount <= 65536 (the trace's flow id)");
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

  // Derived sizes (do not override).
  localparam int unsigned CntW = $clog2(W) + 1;      // 0..W
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
  localparam int unsigned ColdW = $bits(cold_t);

  // The transmit state (tonic_dd_transmit): the protocol's tx_t when its
  // folder has a transmit.v (the build defines TONIC_PROTO_TRANSMIT), one
  // bit reading 0 otherwise.
`ifdef TONIC_PROTO_TRANSMIT
  localparam int unsigned TxW = $bits(tx_t);
  localparam logic [TxW-1:0] TxInitW = TxInit;
`else
  localparam int unsigned TxW = 1;
  localparam logic [TxW-1:0] TxInitW = '0;
`endif
  logic [TxW-1:0] tx_in2, tx_per;

  // ---------------------------------------------------------------------
  // Signals between the processors, prefixed by the one that drives them.
  logic [31:0] now_q, now_d;

  // Control.
  logic            c_init, c_held, c_add_held, c_add, c_post, c_remove, c_bad;
  flow_t           c_init_ptr, cf, cf_d;
  flow_id_t        c_id;
  seq_t            c_seq;
  logic [LenW-1:0] c_len;
  ctrl_err_e       c_err;
  logic            c_present_we, c_present_wd, c_posted_we, c_seg_we;
  flow_t           c_present_wa;
  // Incoming stage 1.
  flow_t           i1_rx_flow, i1f;
  logic            i1_valid, i1_we, i1_bad_sack;
  seq_t            i1_start_wd;
  ring_t           i1_acked_wd;
  rx_err_e         i1_err;
  flow_id_t        i1_id;
  logic            s1_valid, s1_sack_valid, s1_ecn, s1_dup;
  flow_t           s1_flow;
  rx_type_e        s1_type;
  seq_t            s1_cum_ack, s1_sack_idx, s1_old_start, s1_new_start, s1_nn1;
  logic [15:0]     s1_grant;
  cnt_t            s1_newly, s1_flight;
  ev_info_t        s1_info;
  ring_t           s1_slid;
  // Incoming stage 2.
  logic            i2_go, i2_advanced, i2_ins, i2_cred, i2_rate_we, i2_pull;
  flow_t           i2f;
  logic            i2_wnd_we, i2_mark_we, i2_cold_we, i2_dl_we;
  cnt_t            i2_wnd_wd;
  ring_t           i2_mark_wd;
  logic [ColdW-1:0] i2_cold_wd;
  logic [31:0]     i2_dl_wd, i2_rate;
  logic [15:0]     i2_tok;
  logic            i2_tok_set, p_tok_set;
  // Periodic.
  flow_t           pf, pf_d, p_scan_nxt, p_ins_flow_q;
  logic            p_call, p_timeout, p_cancelled, p_ins_q, p_rate_we, p_tok_we;
  per_merge_t      p_mrg;
  logic            i2_cred_own;
  logic [W-1:0]    p_mrg_mark;
  logic [UserW-1:0] p_mrg_user, i2_user, user_merged;
  logic            i2_user_we_unused;
  logic            p_wnd_we, p_mark_we, p_cold_we, p_dl_we;
  cnt_t            p_wnd_wd;
  ring_t           p_mark_wd;
  logic [ColdW-1:0] p_cold_wd;
  logic [31:0]     p_dl_wd, p_rate;
  logic [15:0]     p_tok;
  // Next-seg.
  flow_t           nf, nf_d, ns_flow_q;
  logic            ns_fire, ns_rtx, ns_more, ns_want, ns_new_q, act_pop;
  ring_t           ns_flip;
  seq_t            ns_idx;
  logic [LenW-1:0] ns_len;
  logic            ns_next_we, ns_sent_we, ns_gen_we;
  flow_t           ns_next_wa, ns_sent_wa, ns_gen_wa;
  seq_t            ns_next_wd;
  ring_t           ns_sent_wd;
  logic            ns_rcnt_we;
  flow_t           ns_rcnt_wa;
  logic [2*W-1:0]  ns_rcnt_wd;
  ptr_t            ns_gen_wd;
  // Transmit notify.
  logic            t_ins, t_tx_we;
  flow_t           t_tx_wa;
  ptr_t            t_tx_wd;
  // Credit gate.
  logic            g_credit_ok, g_credit_more, g_ins, g_stale, g_excess;
  flow_t           g_flow;
  // Host notes.
  logic            note_drop;

  // State bank read data, named <field>_<reader>.
  logic            present_c, present_i1, present_i2, present_p, present_n;
  seq_t            posted_c, posted_i2, posted_p, posted_n;
  logic [LenW-1:0] seg_size_n, last_len_n, seg_size_i1;
  seq_t            start_c, start_i1, start_p, start_n;
  seq_t            next_i1, next_i2, next_p, next_n;
  ptr_t            gen_c, gen_n, gen_t, tx_c, tx_n, tx_cnt_txn;
  ring_t           acked_i1, acked_i2, acked_p;
  logic [2*W-1:0]  rcnt_i1, rcnt_n;
  ring_t           sent_i2, sent_p, sent_n;
  cnt_t            wnd_i2, wnd_p, wnd_n;
  ring_t           mark_i2, mark_p, mark_n;
  logic [ColdW-1:0] cold_i2, cold_p;
  logic [31:0]     dl_s;

  // ---------------------------------------------------------------------
  // Write addresses with a structural twist. posted and wnd_start are
  // written at cf and read at cf (by control); stage 1 writes acked at its
  // flow, which is also stage 2's read address for the next cycle. A write
  // address that is the read address makes Yosys 0.69 infer a single-port
  // LUTRAM, and its xcup library maps single-port RAMs deeper than 256
  // words to a size its techmap rejects ("invalid OPTION_ABITS/WIDTH
  // combination"). The write address is therefore the writer's flow only
  // when the port writes (a 2:1 mux; same behaviour).
  flow_t posted_wa, start_wa_add, acked_wa;
  assign posted_wa    = c_posted_we ? cf : nf;
  assign start_wa_add = c_add ? cf : nf;
  assign acked_wa     = i1_we ? i1f : pf;

  tonic_dd_state_bank #(
    .FlowCount(FlowCount),
    .W        (W),
    .LenW     (LenW),
    .PtrW     (PtrW),
    .ColdW    (ColdW),
    .InitWnd  (InitWnd),
    .ColdInit (ColdInit),
    .SimRam   (SimRam)
  ) u_state_bank (
    .clk_i             (clk_i),
    .ctrl_ra_i         (cf_d),
    .in1_ra_i          (i1_rx_flow),
    .in2_ra_i          (i1f),
    .per_ra_i          (pf_d),
    .scan_ra_i         (p_scan_nxt),
    .ns_ra_i           (nf_d),
    .txn_ra_i          (txn_flow_i),
    .probe_ra_i        (probe_flow_i),
    .present_ctrl_o    (present_c),
    .posted_ctrl_o     (posted_c),
    .start_ctrl_o      (start_c),
    .gen_ctrl_o        (gen_c),
    .tx_ctrl_o         (tx_c),
    .present_in1_o     (present_i1),
    .start_in1_o       (start_i1),
    .next_in1_o        (next_i1),
    .acked_in1_o       (acked_i1),
    .rcnt_in1_o        (rcnt_i1),
    .present_in2_o     (present_i2),
    .posted_in2_o      (posted_i2),
    .next_in2_o        (next_i2),
    .acked_in2_o       (acked_i2),
    .sent_in2_o        (sent_i2),
    .wnd_in2_o         (wnd_i2),
    .mark_in2_o        (mark_i2),
    .cold_in2_o        (cold_i2),
    .present_per_o     (present_p),
    .posted_per_o      (posted_p),
    .start_per_o       (start_p),
    .next_per_o        (next_p),
    .acked_per_o       (acked_p),
    .sent_per_o        (sent_p),
    .wnd_per_o         (wnd_p),
    .mark_per_o        (mark_p),
    .cold_per_o        (cold_p),
    .deadline_scan_o   (dl_s),
    .present_ns_o      (present_n),
    .posted_ns_o       (posted_n),
    .seg_size_ns_o     (seg_size_n),
    .seg_size_in1_o    (seg_size_i1),
    .last_len_ns_o     (last_len_n),
    .start_ns_o        (start_n),
    .next_ns_o         (next_n),
    .gen_ns_o          (gen_n),
    .tx_ns_o           (tx_n),
    .sent_ns_o         (sent_n),
    .rcnt_ns_o         (rcnt_n),
    .wnd_ns_o          (wnd_n),
    .mark_ns_o         (mark_n),
    .gen_txn_o         (gen_t),
    .tx_txn_o          (tx_cnt_txn),
    .wnd_probe_o       (probe_wnd_o),
    .start_probe_o     (probe_start_o),
    .next_probe_o      (probe_next_o),
    .present_ctrl_we_i (c_present_we),
    .present_ctrl_wa_i (c_present_wa),
    .present_ctrl_wd_i (c_present_wd),
    .posted_ctrl_we_i  (c_posted_we),
    .posted_ctrl_wa_i  (posted_wa),
    .posted_ctrl_wd_i  (c_seq),
    .seg_size_ctrl_we_i(c_seg_we),
    .last_len_ctrl_we_i(c_posted_we),
    .len_ctrl_wa_i     (cf),
    .len_ctrl_wd_i     (c_len),
    .start_in1_we_i    (i1_we),
    .start_in1_wa_i    (i1f),
    .start_in1_wd_i    (i1_start_wd),
    .start_ctrl_we_i   (c_add),
    .start_ctrl_wa_i   (start_wa_add),
    .start_ctrl_wd_i   (c_seq),
    .next_ns_we_i      (ns_next_we),
    .next_ns_wa_i      (ns_next_wa),
    .next_ns_wd_i      (ns_next_wd),
    .gen_ns_we_i       (ns_gen_we),
    .gen_ns_wa_i       (ns_gen_wa),
    .gen_ns_wd_i       (ns_gen_wd),
    .tx_txn_we_i       (t_tx_we),
    .tx_txn_wa_i       (t_tx_wa),
    .tx_txn_wd_i       (t_tx_wd),
    .acked_in1_we_i    (i1_we),
    .acked_in1_wa_i    (acked_wa),
    .acked_in1_wd_i    (i1_acked_wd),
    .sent_ns_we_i      (ns_sent_we),
    .sent_ns_wa_i      (ns_sent_wa),
    .sent_ns_wd_i      (ns_sent_wd),
    .rcnt_ns_we_i      (ns_rcnt_we),
    .rcnt_ns_wa_i      (ns_rcnt_wa),
    .rcnt_ns_wd_i      (ns_rcnt_wd),
    .win_in2_wa_i      (i2f),
    .wnd_in2_we_i      (i2_wnd_we),
    .wnd_in2_wd_i      (i2_wnd_wd),
    .mark_in2_we_i     (i2_mark_we),
    .mark_in2_wd_i     (i2_mark_wd),
    .cold_in2_we_i     (i2_cold_we),
    .cold_in2_wd_i     (i2_cold_wd),
    .deadline_in2_we_i (i2_dl_we),
    .deadline_in2_wd_i (i2_dl_wd),
    .win_per_wa_i      (pf),
    .wnd_per_we_i      (p_wnd_we),
    .wnd_per_wd_i      (p_wnd_wd),
    .mark_per_we_i     (p_mark_we),
    .mark_per_wd_i     (p_mark_wd),
    .cold_per_we_i     (p_cold_we),
    .cold_per_wd_i     (p_cold_wd),
    .deadline_per_we_i (p_dl_we),
    .deadline_per_wd_i (p_dl_wd),
    .clr_i             (c_add),
    .clr_addr_i        (cf)
  );

  // ---------------------------------------------------------------------
  // Processors.
  tonic_dd_control #(
    .FlowCount(FlowCount),
    .LenW     (LenW),
    .PtrW     (PtrW),
    .RateOn   (RateOn)
  ) u_control (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .ctrl_valid_i   (ctrl_valid_i),
    .ctrl_ready_o   (ctrl_ready_o),
    .ctrl_op_i      (ctrl_op_i),
    .ctrl_flow_i    (ctrl_flow_i),
    .ctrl_seq_i     (ctrl_seq_i),
    .ctrl_len_i     (ctrl_len_i),
    .rx_valid_i     (rx_valid_i),
    .rx_flow_i      (rx_flow_i),
    .in1_valid_i    (i1_valid),
    .in1_flow_i     (i1f),
    .per_ins_i      (p_ins_q),
    .rc_init_ready_i(rc_init_ready_i),
    .present_i      (present_c),
    .posted_i       (posted_c),
    .start_i        (start_c),
    .gen_i          (gen_c),
    .tx_i           (tx_c),
    .init_o         (c_init),
    .init_ptr_o     (c_init_ptr),
    .held_o         (c_held),
    .flow_o         (cf),
    .flow_d_o       (cf_d),
    .id_o           (c_id),
    .seq_o          (c_seq),
    .len_o          (c_len),
    .add_held_o     (c_add_held),
    .add_o          (c_add),
    .post_o         (c_post),
    .remove_o       (c_remove),
    .bad_o          (c_bad),
    .err_o          (c_err),
    .present_we_o   (c_present_we),
    .present_wa_o   (c_present_wa),
    .present_wd_o   (c_present_wd),
    .posted_we_o    (c_posted_we),
    .seg_size_we_o  (c_seg_we)
  );

  tonic_dd_incoming1 #(
    .FlowCount(FlowCount),
    .W        (W),
    .LenW     (LenW)
  ) u_incoming1 (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .init_i         (c_init),
    .now_i          (now_q),
    .rx_valid_i     (rx_valid_i),
    .rx_flow_i      (rx_flow_i),
    .rx_type_i      (rx_type_i),
    .rx_cum_ack_i   (rx_cum_ack_i),
    .rx_sack_valid_i(rx_sack_valid_i),
    .rx_sack_idx_i  (rx_sack_idx_i),
    .rx_ecn_i       (rx_ecn_i),
    .rx_grant_i     (rx_grant_i),
    .rx_echo_i      (rx_echo_i),
    .rx_flow_o      (i1_rx_flow),
    .valid_o        (i1_valid),
    .flow_o         (i1f),
    .present_i      (present_i1),
    .start_i        (start_i1),
    .next_i         (next_i1),
    .acked_i        (acked_i1),
    .rcnt_i         (rcnt_i1),
    .seg_size_i     (seg_size_i1),
    .we_o           (i1_we),
    .start_wd_o     (i1_start_wd),
    .acked_wd_o     (i1_acked_wd),
    .err_o          (i1_err),
    .bad_sack_o     (i1_bad_sack),
    .id_o           (i1_id),
    .s1_valid_o     (s1_valid),
    .s1_flow_o      (s1_flow),
    .s1_type_o      (s1_type),
    .s1_cum_ack_o   (s1_cum_ack),
    .s1_sack_valid_o(s1_sack_valid),
    .s1_sack_idx_o  (s1_sack_idx),
    .s1_ecn_o       (s1_ecn),
    .s1_grant_o     (s1_grant),
    .s1_old_start_o (s1_old_start),
    .s1_new_start_o (s1_new_start),
    .s1_newly_o     (s1_newly),
    .s1_dup_o       (s1_dup),
    .s1_slid_o      (s1_slid),
    .s1_next_new_o  (s1_nn1),
    .s1_flight_o    (s1_flight),
    .s1_info_o      (s1_info)
  );

  tonic_dd_transmit #(
    .FlowCount(FlowCount),
    .TxW      (TxW),
    .TxInit   (TxInitW),
    .LenW     (LenW),
    .SimRam   (SimRam)
  ) u_transmit (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .now_i      (now_q),
    .clr_i      (c_add),
    .clr_addr_i (cf),
    .txn_valid_i(txn_valid_i),
    .txn_flow_i (txn_flow_i),
    .txn_idx_i  (txn_idx_i),
    .txn_rtx_i  (txn_rtx_i),
    .txn_len_i  (txn_len_i),
    .txn_ts_i   (txn_ts_i),
    .in2_ra_i   (i1f),
    .per_ra_i   (pf_d),
    .tx_in2_o   (tx_in2),
    .tx_per_o   (tx_per)
  );

  tonic_dd_incoming2 #(
    .FlowCount   (FlowCount),
    .W           (W),
    .UserW       (UserW),
    .TxW         (TxW),
    .RtoMin      (RtoMin),
    .CreditScheme(CreditScheme)
  ) u_incoming2 (
    .now_i          (now_q),
    .init_i         (c_init),
    .s1_valid_i     (s1_valid),
    .s1_flow_i      (s1_flow),
    .s1_type_i      (s1_type),
    .s1_cum_ack_i   (s1_cum_ack),
    .s1_sack_valid_i(s1_sack_valid),
    .s1_sack_idx_i  (s1_sack_idx),
    .s1_ecn_i       (s1_ecn),
    .s1_grant_i     (s1_grant),
    .s1_old_start_i (s1_old_start),
    .s1_new_start_i (s1_new_start),
    .s1_newly_i     (s1_newly),
    .s1_dup_i       (s1_dup),
    .s1_slid_i      (s1_slid),
    .s1_next_new_i  (s1_nn1),
    .s1_flight_i    (s1_flight),
    .s1_info_i      (s1_info),
    .present_i      (present_i2),
    .posted_i       (posted_i2),
    .next_i         (next_i2),
    .acked_i        (acked_i2),
    .sent_i         (sent_i2),
    .wnd_i          (wnd_i2),
    .mark_i         (mark_i2),
    .cold_i         (cold_i2),
    .tx_i           (tx_in2),
    .mrg_i          (p_mrg),
    .mrg_mark_i     (p_mrg_mark),
    .mrg_user_i     (p_mrg_user),
    .user_merged_i  (user_merged),
    .user_we_o      (i2_user_we_unused),
    .user_o         (i2_user),
    .ns_fire_i      (ns_fire),
    .ns_rtx_i       (ns_rtx),
    .ns_flow_i      (nf),
    .ns_flip_i      (ns_flip),
    .ns_new_q_i     (ns_new_q),
    .ns_flow_q_i    (ns_flow_q),
    .go_o           (i2_go),
    .flow_o         (i2f),
    .advanced_o     (i2_advanced),
    .ins_o          (i2_ins),
    .wnd_we_o       (i2_wnd_we),
    .wnd_wd_o       (i2_wnd_wd),
    .mark_we_o      (i2_mark_we),
    .mark_wd_o      (i2_mark_wd),
    .cold_we_o      (i2_cold_we),
    .cold_wd_o      (i2_cold_wd),
    .deadline_we_o  (i2_dl_we),
    .deadline_wd_o  (i2_dl_wd),
    .cred_o         (i2_cred),
    .cred_own_o     (i2_cred_own),
    .rate_we_o      (i2_rate_we),
    .rate_o         (i2_rate),
    .tokens_o       (i2_tok),
    .tokens_set_o   (i2_tok_set),
    .pull_o         (i2_pull),
    .trace_o        (trace_in_o)
  );

  tonic_dd_periodic #(
    .FlowCount(FlowCount),
    .W        (W),
    .UserW    (UserW),
    .TxW      (TxW),
    .RtoMin   (RtoMin),
    .CreditOn (CreditOn)
  ) u_periodic (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .now_i        (now_q),
    .init_i       (c_init),
    .s1_valid_i   (s1_valid),
    .s1_flow_i    (s1_flow),
    .ctrl_held_i  (c_held),
    .ctrl_flow_i  (cf),
    .ctrl_add_i   (c_add),
    .in2_go_i     (i2_go),
    .in2_flow_i   (i2f),
    .in2_cred_i   (i2_cred_own),
    .present_i    (present_p),
    .posted_i     (posted_p),
    .start_i      (start_p),
    .next_i       (next_p),
    .acked_i      (acked_p),
    .sent_i       (sent_p),
    .wnd_i        (wnd_p),
    .mark_i       (mark_p),
    .cold_i       (cold_p),
    .tx_i         (tx_per),
    .deadline_i   (dl_s),
    .ns_fire_i    (ns_fire),
    .ns_rtx_i     (ns_rtx),
    .ns_flow_i    (nf),
    .ns_flip_i    (ns_flip),
    .flow_o       (pf),
    .flow_d_o     (pf_d),
    .scan_next_o  (p_scan_nxt),
    .call_o       (p_call),
    .timeout_o    (p_timeout),
    .cancelled_o  (p_cancelled),
    .ins_q_o      (p_ins_q),
    .ins_flow_q_o (p_ins_flow_q),
    .wnd_we_o     (p_wnd_we),
    .wnd_wd_o     (p_wnd_wd),
    .mark_we_o    (p_mark_we),
    .mark_wd_o    (p_mark_wd),
    .cold_we_o    (p_cold_we),
    .cold_wd_o    (p_cold_wd),
    .deadline_we_o(p_dl_we),
    .deadline_wd_o(p_dl_wd),
    .rate_we_o    (p_rate_we),
    .rate_o       (p_rate),
    .tokens_we_o  (p_tok_we),
    .tokens_o     (p_tok),
    .tokens_set_o (p_tok_set),
    .mrg_o        (p_mrg),
    .mrg_mark_o   (p_mrg_mark),
    .mrg_user_o   (p_mrg_user),
    .trace_o      (trace_per_o)
  );

  // Same-flow merge of the user state: the protocol's user_merge
  // (user_configs.vh) of the old state, stage 2's and the periodic call's.
  assign user_merged = UserW'(user_merge(s1_type, user_t'(cold_i2[UserW-1:0]), user_t'(i2_user),
                                         user_t'(p_mrg_user)));

  // Active set: one named insert port per source; with a credit scheme
  // the grant stage too (the ports above it unused).
  localparam int unsigned ActInsNs = 0, ActInsIn2 = 1, ActInsTxn = 2, ActInsPerCtrl = 3,
                          ActInsGrant = 4;
  localparam int unsigned ActPorts = CreditOn ? 8 : 4;
  logic  [ActPorts-1:0] act_ins_valid;
  flow_t [ActPorts-1:0] act_ins_id;
  logic                 act_valid, act_nxt_valid;
  flow_t                act_id, act_nxt_id;

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

  tonic_dd_next_seg #(
    .FlowCount(FlowCount),
    .W        (W),
    .RingN    (RingN),
    .LenW     (LenW)
  ) u_next_seg (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .init_i         (c_init),
    .init_ptr_i     (c_init_ptr),
    .ctrl_add_held_i(c_add_held),
    .ctrl_add_i     (c_add),
    .ctrl_remove_i  (c_remove),
    .ctrl_flow_i    (cf),
    .ctrl_seq_i     (c_seq),
    .act_valid_i    (act_valid),
    .act_id_i       (act_id),
    .act_nxt_valid_i(act_nxt_valid),
    .act_nxt_id_i   (act_nxt_id),
    .txn_valid_i    (txn_valid_i),
    .txn_flow_i     (txn_flow_i),
    .credit_ok_i    (g_credit_ok),
    .credit_more_i  (g_credit_more),
    .present_i      (present_n),
    .posted_i       (posted_n),
    .seg_size_i     (seg_size_n),
    .last_len_i     (last_len_n),
    .start_i        (start_n),
    .next_i         (next_n),
    .gen_i          (gen_n),
    .tx_i           (tx_n),
    .sent_i         (sent_n),
    .rcnt_i         (rcnt_n),
    .wnd_i          (wnd_n),
    .mark_i         (mark_n),
    .flow_o         (nf),
    .flow_d_o       (nf_d),
    .act_pop_o      (act_pop),
    .fire_o         (ns_fire),
    .rtx_o          (ns_rtx),
    .flip_o         (ns_flip),
    .idx_o          (ns_idx),
    .len_o          (ns_len),
    .more_o         (ns_more),
    .want_o         (ns_want),
    .new_q_o        (ns_new_q),
    .flow_q_o       (ns_flow_q),
    .next_we_o      (ns_next_we),
    .next_wa_o      (ns_next_wa),
    .next_wd_o      (ns_next_wd),
    .sent_we_o      (ns_sent_we),
    .sent_wa_o      (ns_sent_wa),
    .sent_wd_o      (ns_sent_wd),
    .rcnt_we_o      (ns_rcnt_we),
    .rcnt_wa_o      (ns_rcnt_wa),
    .rcnt_wd_o      (ns_rcnt_wd),
    .gen_we_o       (ns_gen_we),
    .gen_wa_o       (ns_gen_wa),
    .gen_wd_o       (ns_gen_wd)
  );

  tonic_dd_tx_notify #(
    .FlowCount(FlowCount),
    .RingN    (RingN)
  ) u_tx_notify (
    .init_i     (c_init),
    .init_ptr_i (c_init_ptr),
    .txn_valid_i(txn_valid_i),
    .txn_flow_i (txn_flow_i),
    .gen_i      (gen_t),
    .tx_i       (tx_cnt_txn),
    .ns_fire_i  (ns_fire),
    .ns_flow_i  (nf),
    .ins_o      (t_ins),
    .tx_we_o    (t_tx_we),
    .tx_wa_o    (t_tx_wa),
    .tx_wd_o    (t_tx_wd)
  );

  tonic_dd_credit_gate #(
    .FlowCount   (FlowCount),
    .LenW        (LenW),
    .CreditScheme(CreditScheme),
    .TokensInit  (TokensInit),
    .WireGate    (WireGate),
    .SimRam      (SimRam)
  ) u_credit_gate (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .ctrl_add_i     (c_add),
    .ctrl_flow_i    (cf),
    .ctrl_len_i     (c_len),
    .ns_flow_i      (nf),
    .ns_flow_d_i    (nf_d),
    .ns_fire_i      (ns_fire),
    .ns_want_i      (ns_want),
    .in2_cred_i     (i2_cred),
    .in2_flow_i     (i2f),
    .in2_rate_we_i  (i2_rate_we),
    .in2_rate_i     (i2_rate),
    .in2_tokens_i   (i2_tok),
    .in2_tokens_set_i(i2_tok_set),
    .in2_pull_i     (i2_pull),
    .in2_grant_i    (s1_grant),
    .per_call_i     (p_call && !p_mrg.valid),
    .per_flow_i     (pf),
    .per_rate_we_i  (p_rate_we),
    .per_rate_i     (p_rate),
    .per_tokens_we_i(p_tok_we),
    .per_tokens_i   (p_tok),
    .per_tokens_set_i(p_tok_set),
    .per_cancelled_i(p_cancelled),
    .credit_ok_o    (g_credit_ok),
    .credit_more_o  (g_credit_more),
    .ins_o          (g_ins),
    .ins_flow_o     (g_flow),
    .pull_stale_o   (g_stale),
    .tok_excess_o   (g_excess),
    .rc_init_valid_o(rc_init_valid_o),
    .rc_init_flow_o (rc_init_flow_o),
    .rc_init_len_o  (rc_init_len_o),
    .rc_upd_valid_o (rc_upd_valid_o),
    .rc_upd_flow_o  (rc_upd_flow_o),
    .rc_upd_rate_o  (rc_upd_rate_o),
    .rc_req_valid_o (rc_req_valid_o),
    .rc_req_flow_o  (rc_req_flow_o),
    .rc_grant_valid_i(rc_grant_valid_i),
    .rc_grant_flow_i(rc_grant_flow_i),
    .rc_grant_cnt_i (rc_grant_cnt_i),
    .rc_grant_set_i (rc_grant_set_i),
    .rc_grant_cut_i (rc_grant_cut_i),
    .void_valid_i   (void_valid_i),
    .void_flow_i    (void_flow_i),
    .void_cnt_i     (void_cnt_i),
    .gate_valid_o   (gate_valid_o),
    .gate_set_o     (gate_set_o),
    .gate_void_o    (gate_void_o),
    .gate_flow_o    (gate_flow_o),
    .gate_cnt_o     (gate_cnt_o),
    .credit_stats_o (credit_stats_o)
  );

  tonic_dd_host_notes #(
    .FlowCount(FlowCount)
  ) u_host_notes (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .in2_go_i      (i2_go),
    .in2_advanced_i(i2_advanced),
    .in2_flow_i    (i2f),
    .in2_start_i   (s1_new_start),
    .in2_posted_i  (posted_i2),
    .note_valid_o  (note_valid_o),
    .note_ready_i  (note_ready_i),
    .note_flow_o   (note_flow_o),
    .note_acked_o  (note_acked_o),
    .drop_o        (note_drop)
  );

  // ---------------------------------------------------------------------
  // Active-set inserts: next-seg (still eligible), incoming stage 2 (window
  // moved or written), transmit notify (below RingN outstanding), periodic's
  // registered insert or else control's POST, and the grant stage.
  assign act_ins_valid[ActInsNs]      = ns_fire && ns_more;
  assign act_ins_id[ActInsNs]         = nf;
  assign act_ins_valid[ActInsIn2]     = i2_ins;
  assign act_ins_id[ActInsIn2]        = i2f;
  assign act_ins_valid[ActInsTxn]     = t_ins;
  assign act_ins_id[ActInsTxn]        = txn_flow_i;
  assign act_ins_valid[ActInsPerCtrl] = p_ins_q || c_post;
  assign act_ins_id[ActInsPerCtrl]    = p_ins_q ? p_ins_flow_q : cf;
  if (CreditOn) begin : g_act_grant
    assign act_ins_valid[ActInsGrant]          = g_ins;
    assign act_ins_id[ActInsGrant]             = g_flow;
    assign act_ins_valid[ActPorts-1:ActInsGrant+1] = '0;
    assign act_ins_id[ActPorts-1:ActInsGrant+1]    = '{default: '0};
  end else begin : g_act_no_grant
    logic unused_grant;
    assign unused_grant = ^{g_ins, g_flow};
  end

  // ---------------------------------------------------------------------
  // CR port: control's ADD (ring init) or next-seg's segment.
  assign enq_valid_o = c_add || ns_fire;
  assign enq_init_o  = c_add;
  assign enq_flow_o  = c_add_held ? cf : nf;
  assign enq_idx_o   = ns_idx;
  assign enq_rtx_o   = ns_rtx;
  assign enq_len_o   = ns_len;

  always_comb begin
    trace_ns_o.valid = ns_fire;
    trace_ns_o.rtx   = ns_rtx;
    trace_ns_o.flow  = 16'(nf);
    trace_ns_o.idx   = ns_idx;
  end

  // ---------------------------------------------------------------------
  // Time and counters.
  dd_stats_t stats_q, stats_d;
  assign stats_o = stats_q;
  assign now_d   = now_q + 32'd1;
  assign now_o   = now_q;
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
    if (i1_bad_sack)                             stats_d.rx_bad_sack += 1;
    if (c_bad)                                   stats_d.ctrl_bad += 1;
    if (note_drop)                               stats_d.note_drops += 1;
    if (p_call && p_timeout)                     stats_d.timeouts += 1;
    if (ns_fire && ns_rtx)                       stats_d.retransmits += 1;
    if (ns_fire)                                 stats_d.segments += 1;
  end

  // Status events (docs/robustness.md): the same causes as the counters,
  // with the flow, registered.
  status_t status_d;
  always_comb begin
    status_d = '0;
    status_d.rx         = i1_err;
    status_d.rx_flow    = i1_id;
    status_d.ctrl       = c_err;
    status_d.ctrl_flow  = c_id;
    status_d.pull_stale = g_stale;
    status_d.tok_excess = g_excess;
    status_d.cred_flow  = 16'(g_flow);
    status_d.note_drop  = note_drop;
    status_d.note_flow  = 16'(i2f);
    status_d.valid      = status_d.rx != RxErrNone || status_d.ctrl != CtrlErrNone
                       || status_d.pull_stale || status_d.tok_excess || status_d.note_drop;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      now_q    <= '0;
      stats_q  <= '0;
      status_o <= '0;
    end else begin
      now_q    <= now_d;
      stats_q  <= stats_d;
      status_o <= status_d;
    end
  end

  // Simulation-only invariants (window bounds, outstanding <= N, credit
  // never negative): empty unless TONIC_ASSERT is defined (docs/soak.md).
  `include "tonic_dd_assert.svh"
endmodule

`default_nettype wire
