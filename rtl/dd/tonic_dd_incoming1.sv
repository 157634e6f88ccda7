// SPDX-License-Identifier: Apache-2.0
// tonic_dd_incoming1: stage 1 of the DD engine's incoming pipeline (window start, acked bitmap, rx checks).
//
// The rx event is registered at the input (cycle t); in cycle t + 1 stage 1
// reads present, wnd_start, next_new and acked of its flow (registered
// reads the state bank addressed with the rx input in cycle t), checks the
// event, advances wnd_start to a valid cumulative ack, updates acked (slid
// positions cleared, a valid SACK bit set), counts the newly acked
// segments and hands the event to stage 2 (s1_*_o, registered). A stale
// cumulative ack (before wnd_start) leaves wnd_start unchanged; the event
// reaches stage 2 only if it carries a SACK inside the window. Faults are
// decided once, in err_o (first cause in the order of the priority chain).
// Stage 1 also forms the protocol's ev_info_t (s1_info_o): the RTT sample
// from the ack's echo, the flow's segment size and the newly acked bytes.
`default_nettype none

/// Incoming stage 1 of the DD engine.
module tonic_dd_incoming1
  import tonic_dd_pkg::*;
#(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Window ring size in segments (a power of two, 8..256).
  parameter int unsigned W = 128,
  /// Width of segment lengths (bytes, at most 16).
  parameter int unsigned LenW = 16,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount),
  /// Count width, 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1
) (
  /// Clock.
  input  wire logic             clk_i,
  /// Synchronous reset, active high.
  input  wire logic             rst_i,
  /// The init sweep runs (LUTRAM words undefined).
  input  wire logic             init_i,
  /// The time (cycles; stage 2 runs at now_i + 1).
  input  wire logic [31:0]      now_i,
  /// rx event valid.
  input  wire logic             rx_valid_i,
  /// rx flow id (ids >= FlowCount: counted, ignored).
  input  wire flow_id_t         rx_flow_i,
  /// rx type.
  input  wire rx_type_e         rx_type_i,
  /// rx cumulative ack.
  input  wire seq_t             rx_cum_ack_i,
  /// rx carries a selective ack.
  input  wire logic             rx_sack_valid_i,
  /// rx selective ack index.
  input  wire seq_t             rx_sack_idx_i,
  /// rx ECN echo.
  input  wire logic             rx_ecn_i,
  /// rx grant (pull number).
  input  wire logic [15:0]      rx_grant_i,
  /// rx echo of a transmission (RTT sample, Karn's flag).
  input  wire echo_t            rx_echo_i,
  /// The rx input's flow (low bits): the state bank read address.
  output logic [IdW-1:0]        rx_flow_o,
  /// Stage 1 holds an in-range event (control's in-flight check) ...
  output logic                  valid_o,
  /// ... of this flow (stage 2's read address).
  output logic [IdW-1:0]        flow_o,
  /// present of stage 1's flow (state bank).
  input  wire logic             present_i,
  /// wnd_start of stage 1's flow.
  input  wire seq_t             start_i,
  /// next_new of stage 1's flow.
  input  wire seq_t             next_i,
  /// acked bitmap of stage 1's flow.
  input  wire logic [W-1:0]     acked_i,
  /// Retransmit counts of stage 1's flow (bit W+p and bit p: position p's).
  input  wire logic [2*W-1:0]   rcnt_i,
  /// Segment size of stage 1's flow.
  input  wire logic [LenW-1:0]  seg_size_i,
  /// wnd_start and acked write enable (a good event).
  output logic                  we_o,
  /// New wnd_start.
  output seq_t                  start_wd_o,
  /// New acked bitmap.
  output logic [W-1:0]          acked_wd_o,
  /// The event's fault, if any (counters and status).
  output rx_err_e               err_o,
  /// A good event's SACK lies outside the window (counted; also with a stale ack).
  output logic                  bad_sack_o,
  /// The event's flow id as received (status only).
  output flow_id_t              id_o,
  /// Stage 2 event valid (registered).
  output logic                  s1_valid_o,
  /// Stage 2 event: flow.
  output logic [IdW-1:0]        s1_flow_o,
  /// Stage 2 event: type.
  output rx_type_e              s1_type_o,
  /// Stage 2 event: cumulative ack.
  output seq_t                  s1_cum_ack_o,
  /// Stage 2 event: SACK valid.
  output logic                  s1_sack_valid_o,
  /// Stage 2 event: SACK index.
  output seq_t                  s1_sack_idx_o,
  /// Stage 2 event: ECN.
  output logic                  s1_ecn_o,
  /// Stage 2 event: grant.
  output logic [15:0]           s1_grant_o,
  /// wnd_start before stage 1's write.
  output seq_t                  s1_old_start_o,
  /// wnd_start after stage 1's write.
  output seq_t                  s1_new_start_o,
  /// Segments newly acked by the event.
  output logic [CntW-1:0]       s1_newly_o,
  /// A duplicate ack (ACK/SACK at wnd_start with data in flight).
  output logic                  s1_dup_o,
  /// Ring positions that left the window.
  output logic [W-1:0]          s1_slid_o,
  /// next_new seen by stage 1 (trace only).
  output seq_t                  s1_next_new_o,
  /// next_new seen by stage 1 minus the new wnd_start.
  output logic [CntW-1:0]       s1_flight_o,
  /// The protocol's event information (tonic_dd_pkg::ev_info_t).
  output ev_info_t              s1_info_o
);
  localparam int unsigned IdxW = $clog2(W);
  if (LenW > 16) begin : g_bad_lenw
    $fatal(1, "tonic_dd_incoming1: LenW must be at most 16 (ev_info_t.seg_bytes)");
  end
  typedef logic [IdW-1:0]  flow_t;
  typedef logic [W-1:0]    ring_t;
  typedef logic [CntW-1:0] cnt_t;

  // The ring positions of [a, b) from the thermometers ga = ge(a), gb =
  // ge(b) and wrap = b < a; all ones when full (b - a = W).
  function automatic ring_t ring_span_ge(ring_t ga, ring_t gb, logic wrap, logic full);
    if (full) return '1;
    return (ga ^ gb) ^ {W{wrap}};
  endfunction

  // A flow id of the rx input names a flow of this engine.
  function automatic logic id_ok(flow_id_t id);
    return 32'(id) < FlowCount;
  endfunction

  // The event register (input) and the stage-1 register (event in stage 2).
  typedef struct packed {
    logic        valid;
    flow_t       flow;
    rx_type_e    typ;
    seq_t        cum_ack;
    logic        sack_valid;
    seq_t        sack_idx;
    logic        ecn;
    logic [15:0] grant;
    echo_t       echo;
  } rx_ev_t;
  rx_ev_t   rx_q, rx_d;
  logic     range_bad_q, range_bad_d;  // the rx event had a flow id >= FlowCount
  flow_id_t id_q;                      // the rx event's flow id as received (status only)
  ring_t    cum_ge_q, cum_ge_d;        // ring positions >= rx_q.cum_ack's, decoded at the input

  typedef struct packed {
    logic       valid;
    rx_ev_t     ev;
    seq_t       old_start;
    seq_t       new_start;
    cnt_t       newly;
    logic       dup;
    ring_t      slid;
    seq_t       nn1;
    cnt_t       flight1;
    ev_info_t   info;
  } s1_t;
  s1_t s1_q, s1_d;

  flow_t rx_fid;
  assign rx_fid = flow_t'(rx_flow_i);

  always_comb begin
    rx_d.valid      = rx_valid_i && id_ok(rx_flow_i);
    range_bad_d     = rx_valid_i && !id_ok(rx_flow_i);
    rx_d.flow       = rx_fid;
    rx_d.typ        = rx_type_i;
    rx_d.cum_ack    = rx_cum_ack_i;
    cum_ge_d        = '1 << rx_cum_ack_i[IdxW-1:0];
    rx_d.sack_valid = rx_sack_valid_i;
    rx_d.sack_idx   = rx_sack_idx_i;
    rx_d.ecn        = rx_ecn_i;
    rx_d.grant      = rx_grant_i;
    rx_d.echo       = rx_echo_i;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rx_q.valid  <= 1'b0;
      range_bad_q <= 1'b0;
    end else begin
      rx_q.valid  <= rx_d.valid;
      range_bad_q <= range_bad_d;
    end
    id_q            <= rx_flow_i;
    rx_q.flow       <= rx_d.flow;
    rx_q.typ        <= rx_d.typ;
    rx_q.cum_ack    <= rx_d.cum_ack;
    cum_ge_q        <= cum_ge_d;
    rx_q.sack_valid <= rx_d.sack_valid;
    rx_q.sack_idx   <= rx_d.sack_idx;
    rx_q.ecn        <= rx_d.ecn;
    rx_q.grant      <= rx_d.grant;
    rx_q.echo       <= rx_d.echo;
  end

  seq_t   i1_ws, i1_nn, i1_new;
  logic   i1_present, i1_type_ok, i1_ack_ok, i1_acks, i1_adv, i1_sack_ok, i1_ok, i1_stale;
  cnt_t   i1_span_new, i1_span_new1;
  logic   i1_sack_new;
  ring_t  i1_span, i1_slid, i1_sack_bit, i1_acked;
  assign i1_ws      = start_i;
  assign i1_nn      = next_i;
  assign i1_present = present_i && !init_i;  // LUTRAM is swept after reset
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
  assign i1_span    = ring_span_ge('1 << i1_ws[IdxW-1:0], cum_ge_q,
                                   rx_q.cum_ack[IdxW-1:0] < i1_ws[IdxW-1:0],
                                   i1_ws[IdxW-1:0] == rx_q.cum_ack[IdxW-1:0]);
  assign i1_slid    = i1_adv ? i1_span : '0;
  // Both candidate window starts are compared with the SACK index in
  // parallel; the advance only selects.
  assign i1_sack_ok = rx_q.sack_valid && seq_lt(rx_q.sack_idx, i1_nn)
                   && (i1_adv ? seq_le(rx_q.cum_ack, rx_q.sack_idx) : seq_le(i1_ws, rx_q.sack_idx));
  assign i1_sack_bit = i1_sack_ok ? (ring_t'(1) << rx_q.sack_idx[IdxW-1:0]) : '0;
  assign i1_sack_new = i1_sack_ok && !acked_i[rx_q.sack_idx[IdxW-1:0]];
  assign i1_acked   = (acked_i & ~i1_slid) | i1_sack_bit;

  // Newly acked: the slid positions not SACKed before (an adder tree over
  // the ring, counting the span before the advance compare gates it), plus
  // the SACK bit if it is new (it lies outside the slid ones). The compares
  // only select among the count, the count + 1 and the SACK bit.
  tonic_popcount_range #(
    .W       (W),
    .Pipeline(0)
  ) u_newly (
    .clk_i  (clk_i),
    .bits_i (i1_span & ~acked_i),
    .start_i('0),
    .len_i  (cnt_t'(W)),
    .count_o(i1_span_new)
  );

  assign i1_span_new1 = i1_span_new + cnt_t'(1);

  // The protocol's event information: the RTT sample is stage 2's cycle
  // (now_i + 1) minus the echoed stamp; the byte count takes every newly
  // acked segment at the flow's segment size.
  cnt_t i1_newly;
  assign i1_newly = i1_adv ? (i1_sack_new ? i1_span_new1 : i1_span_new) : cnt_t'(i1_sack_new);
  // The segment the event names: a SACKed one (sack_valid: sack_idx), else
  // a NACK's cum_ack (the segment the receiver asks for), else the last one
  // the cumulative ack covers (cum_ack - 1). Its retransmit count is read
  // from its ring position while that still holds it (next_new - W <= s <
  // next_new); otherwise, and for events that name none, it is 0.
  seq_t            i1_named, i1_named_d;
  logic [IdxW-1:0] i1_named_pos;
  logic [1:0]      i1_rtx_cnt;
  ring_t           i1_rc_lo, i1_rc_hi;
  assign i1_rc_lo     = rcnt_i[W-1:0];
  assign i1_rc_hi     = rcnt_i[2*W-1:W];
  assign i1_named     = rx_q.sack_valid ? rx_q.sack_idx
                      : (rx_q.typ == RxNack) ? rx_q.cum_ack : rx_q.cum_ack - 32'd1;
  assign i1_named_d   = i1_nn - i1_named;
  assign i1_named_pos = i1_named[IdxW-1:0];
  assign i1_rtx_cnt   = (i1_acks && i1_named_d != '0 && i1_named_d <= 32'(W))
                      ? {i1_rc_hi[i1_named_pos], i1_rc_lo[i1_named_pos]} : 2'd0;
  ev_info_t i1_info;
  always_comb begin
    i1_info             = '0;
    i1_info.flow        = 16'(rx_q.flow);
    i1_info.seg_bytes   = 16'(seg_size_i);
    i1_info.rtt_valid   = rx_q.echo.valid;
    i1_info.echo_rtx    = rx_q.echo.rtx;
    i1_info.echo_ts     = rx_q.echo.ts;
    i1_info.rtt         = now_i + 32'd1 - rx_q.echo.ts;
    i1_info.ecn_segs    = rx_q.ecn ? 16'(i1_newly) : 16'd0;
    i1_info.acked_bytes = 32'(i1_newly) * 32'(seg_size_i);
    i1_info.rtx_cnt     = i1_rtx_cnt;
  end

  always_comb begin
    s1_d           = '0;
    s1_d.valid     = i1_ok && !(i1_stale && !i1_sack_ok);
    s1_d.ev        = rx_q;
    s1_d.old_start = i1_ws;
    s1_d.new_start = i1_new;
    s1_d.newly     = i1_newly;
    s1_d.dup       = (rx_q.typ inside {RxAck, RxSack}) && rx_q.cum_ack == i1_ws && i1_nn != i1_ws;
    s1_d.slid      = i1_slid;
    s1_d.nn1       = i1_nn;
    s1_d.flight1   = i1_adv ? cnt_t'(i1_nn - rx_q.cum_ack) : cnt_t'(i1_nn - i1_ws);
    s1_d.info      = i1_info;
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
    s1_q.info      <= s1_d.info;
  end

  // The rx event's fault, the first in this order (one counter each; a
  // stale ack with a SACK outside the window also counts rx_bad_sack).
  always_comb begin
    if (range_bad_q)                                  err_o = RxErrRange;
    else if (rx_q.valid && !i1_present)               err_o = RxErrUnknown;
    else if (rx_q.valid && !i1_type_ok)               err_o = RxErrType;
    else if (rx_q.valid && !i1_ack_ok)                err_o = RxErrAck;
    else if (i1_ok && i1_stale)                       err_o = RxErrStale;
    else if (i1_ok && rx_q.sack_valid && !i1_sack_ok) err_o = RxErrSack;
    else                                              err_o = RxErrNone;
  end
  assign bad_sack_o = i1_ok && rx_q.sack_valid && !i1_sack_ok;

  assign rx_flow_o  = rx_fid;
  assign valid_o    = rx_q.valid;
  assign flow_o     = rx_q.flow;
  assign id_o       = id_q;
  assign we_o       = i1_ok;
  assign start_wd_o = i1_new;
  assign acked_wd_o = i1_acked;

  assign s1_valid_o      = s1_q.valid;
  assign s1_flow_o       = s1_q.ev.flow;
  assign s1_type_o       = s1_q.ev.typ;
  assign s1_cum_ack_o    = s1_q.ev.cum_ack;
  assign s1_sack_valid_o = s1_q.ev.sack_valid;
  assign s1_sack_idx_o   = s1_q.ev.sack_idx;
  assign s1_ecn_o        = s1_q.ev.ecn;
  assign s1_grant_o      = s1_q.ev.grant;
  assign s1_old_start_o  = s1_q.old_start;
  assign s1_new_start_o  = s1_q.new_start;
  assign s1_newly_o      = s1_q.newly;
  assign s1_dup_o        = s1_q.dup;
  assign s1_slid_o       = s1_q.slid;
  assign s1_next_new_o   = s1_q.nn1;
  assign s1_flight_o     = s1_q.flight1;
  assign s1_info_o       = s1_q.info;

  // s1_q.ev.valid is rx_q.valid at the time (stage 2 uses s1_q.valid);
  // the echo reaches stage 2 inside s1_q.info.
  logic unused_ev;
  assign unused_ev = s1_q.ev.valid ^ (^s1_q.ev.echo);
endmodule

`default_nettype wire
