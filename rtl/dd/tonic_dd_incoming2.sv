// SPDX-License-Identifier: Apache-2.0
// tonic_dd_incoming2: stage 2 of the DD engine's incoming pipeline, the protocol's tonic_proto_incoming and the engine's rules on its outputs.
//
// Stage 2 takes the event stage 1 registered (s1_*_i) and the flow's state
// (registered reads of the state bank addressed with stage 1's flow a cycle
// earlier), calls the protocol's tonic_proto_incoming and writes the window
// group (cwnd, mark, cold word {rto, armed, user}, deadline) of its flow.
// The sent bitmap it sees includes next-seg's flip of this cycle; FlightSize
// counts a new segment next-seg sent in the last cycle. Slid positions stop
// being pending; marked ones become pending (mark = ~sent). Stage 2 always
// writes its flow's window group when it runs: periodic, the other writer,
// never writes that flow in that cycle (tonic_dd_periodic) but hands a call
// of it over (mrg_*_i), and stage 2 writes both as one (same-flow merge,
// docs/protocol-api.md): marks are the union (the periodic call's minus the
// positions this event acked); cwnd, RTO and rate are stage 2's where it
// writes them, else the call's; the timer restarts if either restarts it;
// tokens add (saturating at 65535), and the write is a set if either
// sets (TONIC_TOKEN_SET: both events' tokens follow the revocation); the user state is the protocol's
// user_merge of the two when both write it (the engine evaluates it:
// user_merged_i), else the one written.
`default_nettype none

/// Incoming stage 2 of the DD engine (the protocol call).
module tonic_dd_incoming2
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
  /// The protocol's credit scheme.
  parameter credit_e CreditScheme = CreditWindow,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount),
  /// Count width, 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1,
  /// Cold word width {rto, armed, user} (do not override).
  localparam int unsigned ColdW = 32 + 1 + UserW
) (
  /// The time (cycles).
  input  wire logic [31:0]      now_i,
  /// The init sweep runs.
  input  wire logic             init_i,
  /// Stage 1's event valid.
  input  wire logic             s1_valid_i,
  /// Event: flow.
  input  wire logic [IdW-1:0]   s1_flow_i,
  /// Event: type.
  input  wire rx_type_e         s1_type_i,
  /// Event: cumulative ack.
  input  wire seq_t             s1_cum_ack_i,
  /// Event: SACK valid.
  input  wire logic             s1_sack_valid_i,
  /// Event: SACK index.
  input  wire seq_t             s1_sack_idx_i,
  /// Event: ECN.
  input  wire logic             s1_ecn_i,
  /// Event: grant.
  input  wire logic [15:0]      s1_grant_i,
  /// wnd_start before stage 1's write.
  input  wire seq_t             s1_old_start_i,
  /// wnd_start after stage 1's write.
  input  wire seq_t             s1_new_start_i,
  /// Segments newly acked.
  input  wire logic [CntW-1:0]  s1_newly_i,
  /// Duplicate ack.
  input  wire logic             s1_dup_i,
  /// Ring positions that left the window.
  input  wire logic [W-1:0]     s1_slid_i,
  /// next_new seen by stage 1 (trace).
  input  wire seq_t             s1_next_new_i,
  /// next_new seen by stage 1 minus the new wnd_start.
  input  wire logic [CntW-1:0]  s1_flight_i,
  /// The protocol's event information.
  input  wire ev_info_t         s1_info_i,
  /// present of the flow (state bank).
  input  wire logic             present_i,
  /// posted of the flow.
  input  wire seq_t             posted_i,
  /// next_new of the flow.
  input  wire seq_t             next_i,
  /// acked bitmap of the flow.
  input  wire logic [W-1:0]     acked_i,
  /// sent bitmap of the flow.
  input  wire logic [W-1:0]     sent_i,
  /// cwnd of the flow.
  input  wire logic [CntW-1:0]  wnd_i,
  /// mark bitmap of the flow.
  input  wire logic [W-1:0]     mark_i,
  /// Cold word of the flow.
  input  wire logic [ColdW-1:0] cold_i,
  /// The flow's transmit state (read-only; tonic_dd_transmit).
  input  wire logic [TxW-1:0]   tx_i,
  /// Next-seg generates a segment this cycle ...
  input  wire logic             ns_fire_i,
  /// ... a retransmission ...
  input  wire logic             ns_rtx_i,
  /// ... of this flow ...
  input  wire logic [IdW-1:0]   ns_flow_i,
  /// ... flipping this sent bit.
  input  wire logic [W-1:0]     ns_flip_i,
  /// A periodic call of this cycle's flow to merge (tonic_dd_periodic) ...
  input  wire per_merge_t       mrg_i,
  /// ... the positions it marks ...
  input  wire logic [W-1:0]     mrg_mark_i,
  /// ... its user state ...
  input  wire logic [UserW-1:0] mrg_user_i,
  /// ... and the protocol's user_merge of the old, this module's and the
  /// call's user state (used when both write it).
  input  wire logic [UserW-1:0] user_merged_i,
  /// The protocol's user-state write enable and value (for user_merge).
  output logic                  user_we_o,
  output logic [UserW-1:0]      user_o,
  /// Next-seg sent a new segment in the last cycle ...
  input  wire logic             ns_new_q_i,
  /// ... of this flow.
  input  wire logic [IdW-1:0]   ns_flow_q_i,
  /// Stage 2 runs (and writes) this cycle.
  output logic                  go_o,
  /// Its flow (also the window-group write address).
  output logic [IdW-1:0]        flow_o,
  /// The event advanced wnd_start.
  output logic                  advanced_o,
  /// Active-set insert: the window moved or the protocol wrote cwnd / marks.
  output logic                  ins_o,
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
  /// Deadline write enable (timer restarted).
  output logic                  deadline_we_o,
  /// Deadline write data.
  output logic [31:0]           deadline_wd_o,
  /// Credit schemes: stage 2 writes rate or tokens this cycle (any flow) ...
  output logic                  cred_o,
  /// ... of its own (without a merged call's: the periodic processor's
  /// clash test for other flows, which must not see its own call).
  output logic                  cred_own_o,
  /// The protocol wrote a new rate ...
  output logic                  rate_we_o,
  /// ... this one.
  output logic [31:0]           rate_o,
  /// Tokens the protocol adds (token scheme; with cred_o).
  output logic [15:0]           tokens_o,
  /// ... and sets the flow's credit to them (a revocation, TONIC_TOKEN_SET).
  output logic                  tokens_set_o,
  /// The event is an RxPull (its grant is a cumulative pull number).
  output logic                  pull_o,
  /// Trace of this cycle's write.
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

  flow_t  i2f;
  seq_t   i2_nn;
  cnt_t   i2_flight;
  ring_t  i2_sent, i2_pending;
  cold_t  cold_i2, cold_wd;
  logic   i2_wnd_we, i2_mark_we, i2_rto_we, i2_restart, i2_user_we;
  cnt_t   i2_wnd;
  seq_t   i2_mark_lo, i2_mark_hi;
  logic [31:0] i2_rto;
  user_w_t i2_user;
  logic   i2_rate_we, i2_tok_we, i2_tok_set;
  logic [31:0] i2_rate;
  logic [15:0] i2_tok;
  assign i2f     = s1_flow_i;
  assign i2_nn   = next_i;
  assign cold_i2 = cold_t'(cold_i);
  // FlightSize = next_new - new window start. Stage 1 subtracted the
  // next_new it saw; next_new has moved since only if next-seg sent a new
  // segment of this flow in the last cycle (a small add, not a 32-bit
  // subtract in front of the protocol).
  assign i2_flight  = s1_flight_i + cnt_t'(ns_new_q_i && ns_flow_q_i == i2f);
  // sent including next-seg's write of this cycle (for the mark write).
  // The protocol's pending_i is the state at the start of the cycle: a
  // retransmission next-seg makes in this same cycle still shows as
  // pending. Taking next-seg's decision into it put next-seg's whole
  // depth in front of the protocol (18 fixed levels before a protocol that
  // reads pending_i, 28 around it, in the 1024 x 128 top).
  assign i2_sent    = sent_i ^ ((ns_fire_i && ns_rtx_i && ns_flow_i == i2f) ? ns_flip_i : '0);
  assign i2_pending = mark_i ^ sent_i;

  tonic_proto_incoming #(
    .W    (W),
    .UserW(UserW),
    .TxW  (TxW)
  ) u_proto_in (
    .now_i          (now_i),
    .wnd_start_i    (s1_new_start_i),
    .wnd_i          (wnd_i),
    .next_new_i     (i2_nn),
    .posted_i       (posted_i),
    .flight_i       (i2_flight),
    .acked_i        (acked_i),
    .pending_i      (i2_pending),
    .rto_i          (cold_i2.rto),
    .user_i         (cold_i2.user),
    .tx_i           (tx_i),
    .type_i         (s1_type_i),
    .cum_ack_i      (s1_cum_ack_i),
    .sack_valid_i   (s1_sack_valid_i),
    .sack_idx_i     (s1_sack_idx_i),
    .ecn_i          (s1_ecn_i),
    .grant_i        (s1_grant_i),
    .old_start_i    (s1_old_start_i),
    .newly_acked_i  (s1_newly_i),
    .dup_i          (s1_dup_i),
    .info_i         (s1_info_i),
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
    .tokens_o       (i2_tok),
    .tokens_set_o   (i2_tok_set)
  );

  // The merged call's writes count only with mrg_i.valid.
  logic   m_on, m_wnd_we, m_rto_we, m_restart, m_user_we, m_rate_we, m_tok_we;
  assign m_on      = mrg_i.valid;
  assign m_wnd_we  = m_on && mrg_i.wnd_we;
  assign m_rto_we  = m_on && mrg_i.rto_we;
  assign m_restart = m_on && mrg_i.restart;
  assign m_user_we = m_on && mrg_i.user_we;
  assign m_rate_we = m_on && mrg_i.rate_we;
  assign m_tok_we  = m_on && mrg_i.tokens_we;

  ring_t  i2_mark_mask, i2_mark_new;
  logic [31:0] i2_rto_new;
  cnt_t   i2_wnd_new;
  logic   wnd_we_any, restart_any, user_we_any;
  assign i2_mark_mask = mark_positions(i2_mark_we, i2_mark_lo, i2_mark_hi, s1_new_start_i, i2_nn,
                                       acked_i)
                      | (m_on ? (mrg_mark_i & ~s1_slid_i) : '0);
  // Slid positions stop being pending; marked ones become pending.
  assign i2_mark_new  = (((mark_i & ~s1_slid_i) | (i2_sent & s1_slid_i)) & ~i2_mark_mask)
                      | (~i2_sent & i2_mark_mask);
  assign i2_rto_new   = i2_rto_we ? rto_after(1'b1, i2_rto, cold_i2.rto)
                      : m_rto_we ? mrg_i.rto : cold_i2.rto;
  assign i2_wnd_new   = i2_wnd_we ? wnd_clamp(i2_wnd) : cnt_t'(mrg_i.wnd);
  assign wnd_we_any   = i2_wnd_we || m_wnd_we;
  assign restart_any  = i2_restart || m_restart;
  assign user_we_any  = i2_user_we || m_user_we;
  assign user_we_o    = i2_user_we;
  assign user_o       = i2_user;

  logic i2_go;
  assign i2_go      = s1_valid_i && present_i && !init_i;
  assign go_o       = i2_go;
  assign flow_o     = i2f;
  assign advanced_o = s1_new_start_i != s1_old_start_i;
  // A merged call that marks inserts the flow as stage 2's own marks do:
  // on the enable, not on a non-empty mask (that OR over the W positions
  // after mark_positions' compares was the longest fixed-function path);
  // an insert with nothing to send is only conservative.
  assign ins_o      = i2_go && (advanced_o || wnd_we_any || i2_mark_we || (m_on && mrg_i.mark_we));

  // Window-group writes. The timer is disarmed when nothing is in flight,
  // armed when the protocol restarts it.
  always_comb begin
    cold_wd     = cold_i2;
    cold_wd.rto = i2_rto_new;
    if (i2_user_we && m_user_we) cold_wd.user = user_merged_i;
    else if (i2_user_we)         cold_wd.user = i2_user;
    else if (m_user_we)          cold_wd.user = mrg_user_i;
    if (s1_new_start_i == i2_nn) begin
      cold_wd.armed = 1'b0;
    end else if (restart_any) begin
      cold_wd.armed = 1'b1;
    end
  end
  assign cold_we_o     = i2_go;
  assign cold_wd_o     = cold_wd;
  assign deadline_we_o = i2_go && s1_new_start_i != i2_nn && restart_any;
  assign deadline_wd_o = now_i + i2_rto_new;
  assign wnd_we_o      = i2_go && wnd_we_any;
  assign wnd_wd_o      = i2_wnd_new;
  assign mark_we_o     = i2_go;
  assign mark_wd_o     = i2_mark_new;

  // Credit outputs (rate: a new rate; token: tokens or a pull).
  assign pull_o      = s1_type_i == RxPull;
  // Merged: stage 2's rate where it writes one; tokens add.
  logic [16:0] tok_sum;
  assign tok_sum     = 17'(i2_tok) + (m_tok_we ? 17'(mrg_i.tokens) : 17'd0);
  assign rate_we_o   = i2_go && (i2_rate_we || m_rate_we);
  assign rate_o      = i2_rate_we ? i2_rate : mrg_i.rate;
  assign tokens_o    = tok_sum[16] ? 16'hffff : tok_sum[15:0];
  assign tokens_set_o = (i2_tok_we && i2_tok_set) || (m_tok_we && mrg_i.tokens_set);
  if (CreditScheme == CreditRate) begin : g_cred_rate
    assign cred_o     = i2_go && (i2_rate_we || m_rate_we);
    assign cred_own_o = i2_go && i2_rate_we;
    logic unused_tok_we;
    assign unused_tok_we = i2_tok_we;
  end else if (CreditScheme == CreditToken) begin : g_cred_token
    assign cred_o     = i2_go && (i2_tok_we || m_tok_we || pull_o);
    assign cred_own_o = i2_go && (i2_tok_we || pull_o);
  end else begin : g_cred_window
    assign cred_o     = 1'b0;
    assign cred_own_o = 1'b0;
    logic unused_tok_we;
    assign unused_tok_we = i2_tok_we;
  end

  // Trace.
  // The trace shows the user state's low bits (dd_trace_t.user).
  localparam int unsigned TrUserW = trace_user_bits(UserW);
  cnt_t               tr_wnd;
  logic [TrUserW-1:0] tr_user;
  assign tr_wnd  = wnd_we_any ? i2_wnd_new : wnd_i;
  assign tr_user = TrUserW'(user_we_any ? cold_wd.user : cold_i2.user);
  always_comb begin
    trace_o           = '0;
    trace_o.valid     = i2_go;
    trace_o.merged    = i2_go && m_on;
    trace_o.flow      = 16'(i2f);
    trace_o.next_new  = i2_nn;
    trace_o.next_new1 = s1_next_new_i;
    trace_o.wnd       = 16'(tr_wnd);
    trace_o.rto       = i2_rto_new;
    trace_o.rtx_cnt   = s1_info_i.rtx_cnt;
    trace_o.user      = 128'(tr_user);
  end
endmodule

`default_nettype wire
