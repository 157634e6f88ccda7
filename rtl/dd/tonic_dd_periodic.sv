// SPDX-License-Identifier: Apache-2.0
// tonic_dd_periodic: the DD engine's periodic processor (scan set, retransmission timer, the protocol's tonic_proto_periodic).
//
// Visits the flows that are present, one per cycle, in the order of a
// circulating FIFO of flow ids (the scan set). Two stages:
//   P0 (cycle t): the head is popped; its timer deadline (state bank,
//      addressed with the next head a cycle earlier) is compared with the
//      time of cycle t + 1;
//   P1 (cycle t + 1): the visit proper (state read fresh, protocol
//      periodic module, writes); the flow goes back to the tail if it is
//      still present. ADD inserts a new flow.
// P1 trusts P0's compare only if nothing could have written the deadline
// in cycle t (no incoming stage 2 event, held control op or periodic visit
// of that flow in cycle t, a registered and conservative test); otherwise
// the visit is taken without a timeout and the flow comes round again on
// the next pass. With P flows present each is visited every max(P, 3)
// cycles. A removed flow leaves the set at its next visit.
//
// Same-flow events merge: a visit of the flow incoming stage 2 writes this
// cycle is still a call (with timeout_i = 0: the ack beats a timeout, which
// the next pass finds if it is still due); its writes do not go out here
// but to stage 2 (mrg_o, mrg_mark_o, mrg_user_o), which writes both as one
// (tonic_dd_incoming2 has the rules, the protocol's user_merge the user
// state). A visit of a flow control holds an op for writes nothing and
// comes round again. With a credit scheme, a call whose rate / token write
// meets one of stage 2 for another flow (one credit update per cycle) is
// cancelled whole and runs again on the next visit (cancelled_o, counted).
`default_nettype none

/// Periodic processor of the DD engine.
module tonic_dd_periodic
  import tonic_dd_pkg::*;
#(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Window ring size in segments (a power of two, 8..256).
  parameter int unsigned W = 128,
  /// The protocol's user-state width.
  parameter int unsigned UserW = 1,
  /// Transmit-state width (tonic_dd_transmit; 1 without a transmit.v).
  parameter int unsigned TxW = 1,
  /// The protocol's RTO floor (cycles).
  parameter int unsigned RtoMin = 1,
  /// 1: a credit scheme (rate or token): a call on every visit, credit clashes cancel.
  parameter bit CreditOn = 1'b0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount),
  /// Count width, 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1,
  /// Cold word width {rto, armed, user} (do not override).
  localparam int unsigned ColdW = 32 + 1 + UserW
) (
  /// Clock.
  input  wire logic             clk_i,
  /// Synchronous reset, active high.
  input  wire logic             rst_i,
  /// The time (cycles).
  input  wire logic [31:0]      now_i,
  /// The init sweep runs.
  input  wire logic             init_i,
  /// Incoming stage 2 holds an event (registered by stage 1) ...
  input  wire logic             s1_valid_i,
  /// ... of this flow.
  input  wire logic [IdW-1:0]   s1_flow_i,
  /// Control holds an op ...
  input  wire logic             ctrl_held_i,
  /// ... of this flow.
  input  wire logic [IdW-1:0]   ctrl_flow_i,
  /// Control adds flow ctrl_flow_i this cycle (joins the scan set).
  input  wire logic             ctrl_add_i,
  /// Incoming stage 2 writes this cycle ...
  input  wire logic             in2_go_i,
  /// ... this flow.
  input  wire logic [IdW-1:0]   in2_flow_i,
  /// Incoming stage 2 writes rate or tokens this cycle (credit schemes).
  input  wire logic             in2_cred_i,
  /// present of the visited flow (state bank).
  input  wire logic             present_i,
  /// posted of the visited flow.
  input  wire seq_t             posted_i,
  /// wnd_start of the visited flow.
  input  wire seq_t             start_i,
  /// next_new of the visited flow.
  input  wire seq_t             next_i,
  /// acked bitmap of the visited flow.
  input  wire logic [W-1:0]     acked_i,
  /// sent bitmap of the visited flow.
  input  wire logic [W-1:0]     sent_i,
  /// cwnd of the visited flow.
  input  wire logic [CntW-1:0]  wnd_i,
  /// mark bitmap of the visited flow.
  input  wire logic [W-1:0]     mark_i,
  /// Cold word of the visited flow.
  input  wire logic [ColdW-1:0] cold_i,
  /// The flow's transmit state (read-only; tonic_dd_transmit).
  input  wire logic [TxW-1:0]   tx_i,
  /// Deadline of the scan head (P0).
  input  wire logic [31:0]      deadline_i,
  /// Next-seg generates a segment this cycle ...
  input  wire logic             ns_fire_i,
  /// ... a retransmission ...
  input  wire logic             ns_rtx_i,
  /// ... of this flow ...
  input  wire logic [IdW-1:0]   ns_flow_i,
  /// ... flipping this sent bit.
  input  wire logic [W-1:0]     ns_flip_i,
  /// The flow visited (P1) this cycle (also the window-group write address).
  output logic [IdW-1:0]        flow_o,
  /// The flow visited in the next cycle (state bank read address).
  output logic [IdW-1:0]        flow_d_o,
  /// The scan set's next head (deadline read address).
  output logic [IdW-1:0]        scan_next_o,
  /// The protocol module is called this cycle.
  output logic                  call_o,
  /// The call has timeout_i set (with call_o: a timeout, counted).
  output logic                  timeout_o,
  /// A call was cancelled by a credit clash with stage 2 (counted).
  output logic                  cancelled_o,
  /// Registered active-set insert (window opened or marks) ...
  output logic                  ins_q_o,
  /// ... of this flow.
  output logic [IdW-1:0]        ins_flow_q_o,
  /// cwnd write enable.
  output logic                  wnd_we_o,
  /// cwnd write data.
  output logic [CntW-1:0]       wnd_wd_o,
  /// mark write enable.
  output logic                  mark_we_o,
  /// mark write data.
  output logic [W-1:0]          mark_wd_o,
  /// Cold word write enable.
  output logic                  cold_we_o,
  /// Cold word write data.
  output logic [ColdW-1:0]      cold_wd_o,
  /// Deadline write enable.
  output logic                  deadline_we_o,
  /// Deadline write data.
  output logic [31:0]           deadline_wd_o,
  /// The protocol's rate write enable (valid with call_o).
  output logic                  rate_we_o,
  /// The protocol's rate.
  output logic [31:0]           rate_o,
  /// The protocol's token write enable (valid with call_o).
  output logic                  tokens_we_o,
  /// The protocol's tokens.
  output logic [15:0]           tokens_o,
  /// ... and sets the credit to them instead of adding (TONIC_TOKEN_SET).
  output logic                  tokens_set_o,
  /// The call merged into stage 2's write (same flow, same cycle) ...
  output per_merge_t            mrg_o,
  /// ... the ring positions it marks (unacked, in its [wnd_start, next_new)) ...
  output logic [W-1:0]          mrg_mark_o,
  /// ... and its user state (with mrg_o.user_we).
  output logic [UserW-1:0]      mrg_user_o,
  /// Trace of this cycle's call.
  output dd_trace_t             trace_o
);
  localparam int unsigned IdxW = $clog2(W);
  typedef logic [IdW-1:0]   flow_t;
  typedef logic [W-1:0]     ring_t;
  typedef logic [CntW-1:0]  cnt_t;
  typedef logic [UserW-1:0] user_w_t;
  typedef struct packed {
    logic [31:0] rto;
    logic        armed;
    user_w_t     user;
  } cold_t;

  `include "tonic_dd_proto_rules.svh"

  // Scan set: insert port 0 takes the visited flow back, port 1 an ADD.
  localparam int unsigned ScanInsRevisit = 0, ScanInsAdd = 1, ScanIns = 2;
  logic  [ScanIns-1:0] scan_ins_valid;
  flow_t [ScanIns-1:0] scan_ins_id;
  logic   scan_valid;
  flow_t  scan_id, scan_nxt_id;
  logic   scan_nxt_valid_unused;
  logic [IdW:0] scan_count_unused;

  logic   p_valid_q, p_valid_d, p_tmo_q, p_tmo_d, p_dl_same_q, p_dl_same_d;
  flow_t  p_flow_q, p_flow_d;
  logic   p_ins_q, p_ins_d;
  flow_t  p_ins_flow_q, p_ins_flow_d;
  flow_t  pf;
  cold_t  cold_p, cold_wd;
  assign pf     = p_flow_q;
  assign cold_p = cold_t'(cold_i);

  always_comb begin
    p_valid_d    = scan_valid;
    p_flow_d     = scan_id;
    p_tmo_d      = !seq_lt(now_i + 32'd1, deadline_i);
    p_dl_same_d  = !(s1_valid_i && s1_flow_i == scan_id)
                && !(ctrl_held_i && ctrl_flow_i == scan_id)
                && !(p_valid_q && pf == scan_id);
    p_ins_flow_d = pf;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      p_valid_q <= 1'b0;
      p_ins_q   <= 1'b0;
    end else begin
      p_valid_q <= p_valid_d;
      p_ins_q   <= p_ins_d;
    end
    p_flow_q     <= p_flow_d;
    p_tmo_q      <= p_tmo_d;
    p_dl_same_q  <= p_dl_same_d;
    p_ins_flow_q <= p_ins_flow_d;
  end

  assign scan_ins_valid[ScanInsRevisit] = p_valid_q && present_i && !init_i;
  assign scan_ins_id[ScanInsRevisit]    = p_flow_q;
  assign scan_ins_valid[ScanInsAdd]     = ctrl_add_i;
  assign scan_ins_id[ScanInsAdd]        = ctrl_flow_i;

  tonic_flow_fifo #(
    .FlowCount (FlowCount),
    .WritePorts(ScanIns)
  ) u_scan (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .ins_valid_i(scan_ins_valid),
    .ins_id_i   (scan_ins_id),
    .out_valid_o(scan_valid),
    .out_ready_i(1'b1),
    .out_id_o   (scan_id),
    .nxt_valid_o(scan_nxt_valid_unused),
    .nxt_id_o   (scan_nxt_id),
    .count_o    (scan_count_unused)
  );

  seq_t   p_ws, p_nn;
  cnt_t   p_flight;
  logic   p_present, p_conflict, p_timeout, p_arm, p_disarm, p_call, p_insert;
  logic   p_same_in2, p_same_ctrl, p_cred_clash;  // merged; the two kinds of conflict
  ring_t  p_sent, p_pending;
  logic   p_wnd_we, p_mark_we, p_rto_we, p_restart, p_user_we;
  cnt_t   p_wnd;
  seq_t   p_mark_lo, p_mark_hi;
  logic [31:0] p_rto;
  user_w_t p_user;
  logic   p_rate_we, p_tok_we, p_tok_set;
  logic [31:0] p_rate;
  logic [15:0] p_tok;
  assign p_ws      = start_i;
  assign p_nn      = next_i;
  assign p_flight  = cnt_t'(p_nn - p_ws);
  assign p_present = p_valid_q && present_i && !init_i;
  assign p_same_in2   = in2_go_i && in2_flow_i == pf;
  assign p_same_ctrl  = ctrl_held_i && ctrl_flow_i == pf;
  assign p_cred_clash = CreditOn && in2_cred_i && !p_same_in2 && (p_rate_we || p_tok_we);
  assign p_conflict   = p_same_ctrl || p_cred_clash;
  // Stage 2 arms and disarms the timer of its own flow.
  assign p_disarm  = p_present && !p_conflict && !p_same_in2 && p_flight == '0 && cold_p.armed;
  assign p_arm     = p_present && !p_conflict && !p_same_in2 && p_flight != '0 && !cold_p.armed;
  // The timer expired (and no ack of this cycle restarts it). Meaningful in
  // a call only (p_call holds the presence, flight and conflict terms).
  assign p_timeout = p_valid_q && cold_p.armed && p_tmo_q && p_dl_same_q && !p_same_in2;
  // Window scheme: a call while the timer runs; rate and token schemes: a
  // call on every visit (their protocols keep timers of their own).
  assign p_call    = p_present && !p_conflict && (CreditOn || (p_flight != '0 && cold_p.armed));
  // sent including next-seg's write of this cycle.
  assign p_sent    = sent_i ^ ((ns_fire_i && ns_rtx_i && ns_flow_i == pf) ? ns_flip_i : '0);
  assign p_pending = mark_i ^ p_sent;

  tonic_proto_periodic #(
    .W    (W),
    .UserW(UserW),
    .TxW  (TxW)
  ) u_proto_per (
    .now_i          (now_i),
    .wnd_start_i    (p_ws),
    .wnd_i          (wnd_i),
    .next_new_i     (p_nn),
    .posted_i       (posted_i),
    .flight_i       (p_flight),
    .acked_i        (acked_i),
    .pending_i      (p_pending),
    .rto_i          (cold_p.rto),
    .user_i         (cold_p.user),
    .tx_i           (tx_i),
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
    .tokens_o       (p_tok),
    .tokens_set_o   (p_tok_set)
  );

  ring_t  p_mark_mask, p_mark_new;
  logic [31:0] p_rto_new;
  cnt_t   p_wnd_new;
  assign p_mark_mask = mark_positions(p_call && p_mark_we, p_mark_lo, p_mark_hi, p_ws, p_nn, acked_i);
  assign p_mark_new  = (mark_i & ~p_mark_mask) | (~p_sent & p_mark_mask);
  assign p_rto_new   = rto_after(p_rto_we, p_rto, cold_p.rto);
  assign p_wnd_new   = wnd_clamp(p_wnd);
  assign p_insert    = p_call && (p_mark_we || p_wnd_we);
  assign p_ins_d     = p_insert;

  // Window-group writes: a call of stage 2's flow writes through stage 2.
  logic p_own;
  assign p_own = p_call && !p_same_in2;
  always_comb begin
    cold_wd = cold_p;
    if (p_arm || p_disarm) begin
      cold_wd.armed = p_arm;
    end
    if (p_own) begin
      cold_wd.rto = p_rto_new;
      if (p_user_we) cold_wd.user = p_user;
    end
  end
  assign cold_we_o     = p_arm || p_disarm || p_own;
  assign cold_wd_o     = cold_wd;
  assign deadline_we_o = p_arm || p_disarm || (p_own && p_restart);
  assign deadline_wd_o = now_i + (p_own ? p_rto_new : cold_p.rto);
  assign wnd_we_o      = p_own && p_wnd_we;
  assign wnd_wd_o      = p_wnd_new;
  assign mark_we_o     = p_own && p_mark_we;
  assign mark_wd_o     = p_mark_new;

  // The merged call, for stage 2.
  always_comb begin
    mrg_o           = '0;
    mrg_o.valid     = p_call && p_same_in2;
    mrg_o.mark_we   = p_mark_we;
    mrg_o.wnd_we    = p_wnd_we;
    mrg_o.wnd       = 16'(p_wnd_new);
    mrg_o.rto_we    = p_rto_we;
    mrg_o.rto       = p_rto_new;
    mrg_o.restart   = p_restart;
    mrg_o.user_we   = p_user_we;
    mrg_o.rate_we   = p_rate_we;
    mrg_o.rate      = p_rate;
    mrg_o.tokens_we = p_tok_we;
    mrg_o.tokens    = p_tok;
    mrg_o.tokens_set = p_tok_set;
  end
  assign mrg_mark_o = p_mark_mask;
  assign mrg_user_o = p_user;

  assign flow_o       = pf;
  assign flow_d_o     = scan_id;
  assign scan_next_o  = scan_nxt_id;
  assign call_o       = p_call;
  assign timeout_o    = p_timeout;
  assign cancelled_o  = p_present && p_cred_clash && !p_same_ctrl;
  assign ins_q_o      = p_ins_q;
  assign ins_flow_q_o = p_ins_flow_q;
  assign rate_we_o    = p_rate_we;
  assign rate_o       = p_rate;
  assign tokens_we_o  = p_tok_we;
  assign tokens_o     = p_tok;
  assign tokens_set_o = p_tok_set;

  // Trace.
  // The trace shows the user state's low bits (dd_trace_t.user).
  localparam int unsigned TrUserW = trace_user_bits(UserW);
  cnt_t               tr_wnd;
  logic [TrUserW-1:0] tr_user;
  assign tr_wnd  = p_wnd_we ? p_wnd_new : wnd_i;
  assign tr_user = TrUserW'(p_user_we ? p_user : cold_p.user);
  always_comb begin
    trace_o          = '0;
    trace_o.valid    = p_call;
    trace_o.merged   = p_call && p_same_in2;
    trace_o.timeout  = p_call && p_timeout;
    trace_o.flow     = 16'(pf);
    trace_o.next_new = p_nn;
    trace_o.wnd      = 16'(tr_wnd);
    trace_o.rto      = p_rto_new;
    trace_o.user     = 128'(tr_user);
  end
endmodule

`default_nettype wire
