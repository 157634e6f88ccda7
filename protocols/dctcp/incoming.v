// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (DCTCP, RFC 8257): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// NewReno's loss recovery and RTO (protocols/newreno: RFC 6582, RFC 6298)
// plus the DCTCP sender of RFC 8257; protocols/dctcp/README.md has the
// full table. What DCTCP adds, on every new ack:
//  - alpha: the ack's newly acked segments count into the observation
//    period (obs_left goes down), as marked ones too when the ack carries an
//    ECN echo (info_i.ecn_segs != 0). The ack that completes the period's
//    2^obs_k segments ends it: F = marked / 2^obs_k (a shift),
//    alpha = alpha - ceil(alpha / 16) + F / 16 (in 1/1024), and the next
//    period is 2^k segments long, 2^k the largest power of two <= cwnd.
//  - an ack with an ECN echo outside fast recovery and outside a reduction
//    already under way (cwr, rto_guard; ended by an ack past rec_off):
//    cwnd = max(cwnd - cwnd * alpha / 2048, 2), ssthresh = that cwnd, cwr
//    until everything sent so far is acked (rec_off = next_new - 1 as for
//    recover). No retransmission. The cut uses alpha as it was before this
//    ack (one period of lag at most), which keeps the alpha update and the
//    multiply in parallel.
//  - while cwr is set, the window does not grow (Linux's CWR state).
// Every value output is 0 when its enable is 0; wnd_o is in 1..W.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(121)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"

  // Counts are widened to tonic_proto_pkg::cnt_t (10 bits).
  user_t                  u, u_n;
  logic                   guarded;
  tonic_proto_pkg::cnt_t  half, wnd_n, cut_wnd;
  tonic_proto_pkg::grow_t grow;
  // DCTCP: the observation period, alpha and the ECE cut.
  logic                   ce, obs_end, cut;
  logic [9:0]             obs_sum;     // the period's marked segments, this ack's share included
  logic [10:0]            gain_f;      // g x F in 1/1024: obs_sum x 2^(10 - AlphaShift) / 2^obs_k
  logic [10:0]            alpha_dec;   // ceil(alpha / 2^AlphaShift)
  logic [10:0]            alpha_n;
  logic [20:0]            cut_prod;    // cwnd x alpha (1/1024 units)
  tonic_proto_pkg::cnt_t  cut_raw;
  logic [3:0]             k_n;         // floor(log2(cwnd)): the next period is 2^k_n segments

  /// floor(log2(v)) of a count (0 for v = 0 and v = 1): a priority encoder
  /// over the count's 10 bits.
  function automatic logic [3:0] floor_log2(tonic_proto_pkg::cnt_t v);
    logic [3:0] r;
    r = 4'd0;
    for (int i = 1; i < 10; i++) if (v[i]) r = 4'(i);
    return r;
  endfunction

  assign u        = user_t'(user_i);
  // new_ack, passed (RecoveryPoint; it also ends a window of reduction,
  // cwr), rec_left, sample, unsampled, est_n, the counts, full_wnd,
  // part_wnd and third_dup; the `TONIC_REC_* statements.
  `include "tonic_proto_recovery.svh"
  `TONIC_REC_SIGNALS
  assign guarded  = (u.rto_guard || u.cwr) && !passed;
  assign half     = tonic_proto_pkg::half_flight(flight);
  assign grow     = tonic_proto_pkg::grow_wnd(wnd, newly, ssthresh, u.ca_cnt, 10'(SsAckCap),
                                              ByteCounting != 0);

  // Observation period. An ack's segments are all marked or all not (the
  // receiver acks at once when the CE state changes, RFC 8257 3.2), so the
  // closing ack's share of the period is obs_left segments, marked with it.
  assign ce        = info_i.ecn_segs != '0;
  assign obs_end   = newly >= 10'(u.obs_left);
  assign obs_sum   = 10'(u.obs_marked) + (ce ? 10'(u.obs_left) : 10'd0);
  assign gain_f    = 11'((16'(obs_sum) << (10 - AlphaShift)) >> u.obs_k);
  assign alpha_dec = 11'((12'(u.alpha) + 12'((1 << AlphaShift) - 1)) >> AlphaShift);
  assign alpha_n   = u.alpha - alpha_dec + gain_f;
  assign k_n       = floor_log2(wnd);
  // ECE cut: cwnd (1 - alpha / 2) = cwnd - cwnd x alpha / 2048, at least CutFloor.
  assign cut_prod  = 21'(wnd) * 21'(u.alpha);
  assign cut_raw   = wnd - cut_prod[20:11];
  assign cut_wnd   = (cut_raw < 10'(CutFloor)) ? 10'(CutFloor) : cut_raw;
  assign cut       = new_ack && ce && !u.in_rec && !guarded;

  always_comb begin
    u_n   = u;
    wnd_n = '0;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = '0;
    if (new_ack) begin
      `TONIC_REC_NEW_ACK
      // alpha's observation period, on every new ack.
      if (obs_end) begin
        u_n.alpha      = alpha_n;
        u_n.obs_k      = k_n;
        u_n.obs_left   = 9'(10'd1 << k_n);
        u_n.obs_marked = 9'd0;
      end else begin
        u_n.obs_left   = u.obs_left - 9'(newly);
        u_n.obs_marked = u.obs_marked + (ce ? 9'(newly) : 9'd0);
      end
      if (u.in_rec) begin
        `TONIC_REC_IN_RECOVERY
      end else begin
        timer_restart_o = flight_i != '0;
        u_n.rto_guard   = u.rto_guard && !passed;
        u_n.cwr         = u.cwr && !passed;
        u_n.rec_off     = guarded ? rec_left : 8'd0;
        if (cut) begin
          // ECN echo: cut once per window, no retransmission.
          wnd_n        = cut_wnd;
          u_n.ssthresh = 9'(cut_wnd);
          u_n.ca_cnt   = 9'd0;
          u_n.cwr      = 1'b1;
          u_n.rec_off  = tonic_proto_pkg::rec_offset(flight);
        end else if (u.cwr && !passed) begin
          wnd_we_o     = 1'b0;                 // reduced this window: no growth
        end else begin
          {wnd_n, u_n.ca_cnt} = grow;          // slow start / congestion avoidance
        end
      end
    end else if (dup_i) begin
      `TONIC_REC_DUP_ACK(half)
      if (third_dup) u_n.cwr = 1'b0;           // the fast retransmit ends a cwr
    end
  end

  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(wnd_n, wnd_start_i, wnd_start_i + 32'd1, `TONIC_REC_RTO, u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i.flow, info_i.seg_bytes, info_i.echo_ts, info_i.acked_bytes, info_i.rtx_cnt,
                       now_i, next_new_i, posted_i, acked_i, pending_i, rto_i, type_i, cum_ack_i,
                       sack_valid_i, sack_idx_i, ecn_i, grant_i, cut_prod[10:0]};
endmodule
`default_nettype wire
