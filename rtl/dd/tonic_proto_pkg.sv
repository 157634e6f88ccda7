// SPDX-License-Identifier: Apache-2.0
// tonic_proto_pkg: integer helpers for the protocol modules
// (protocols/<name>/incoming.v, periodic_updates.v; docs/protocol-api.md).
//
// Pure functions, no state. Window counts are cnt_t (10 bits): with W <= 256
// every count a protocol forms (cwnd + a few, ssthresh + SACKed, ...) stays
// below 1024. The C++ twins use the same rules under the same names
// (tb/common/ref/proto_common.hpp).
`default_nettype none

package tonic_proto_pkg;
  /// A window count (segments), wide enough for sums of two counts.
  typedef logic [9:0] cnt_t;

  /// max(FlightSize / 2, 2): ssthresh after a loss (RFC 5681, eq. 4).
  function automatic cnt_t half_flight(cnt_t flight);
    return ((flight >> 1) < 10'd2) ? 10'd2 : flight >> 1;
  endfunction

  /// min(2 * rto, rto_max): exponential back-off of the RTO (RFC 6298,
  /// 5.5), compared in 33 bits.
  function automatic logic [31:0] rto_backoff(logic [31:0] rto, logic [31:0] rto_max);
    return ({rto, 1'b0} > {1'b0, rto_max}) ? rto_max : {rto[30:0], 1'b0};
  endfunction

  /// The RFC 6298 estimator in fixed point: srtt8 = 8 x SRTT, rttvar4 =
  /// 4 x RTTVAR (cycles), 28 bits each; srtt8 = 0 means no sample yet.
  /// Samples are cut to RttMax cycles (about 0.34 s at 100 MHz), so both
  /// stay in range.
  typedef logic [27:0] rtt_t;
  localparam rtt_t RttMax = 28'(2 ** 25 - 1);
  typedef struct packed {
    rtt_t srtt8;
    rtt_t rttvar4;
  } rtt_est_t;

  /// One RTT sample r (cycles) into the estimator (RFC 6298 2.2 and 2.3,
  /// alpha = 1/8, beta = 1/4, as shifts): the first sample gives SRTT = r,
  /// RTTVAR = r / 2; later ones RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - r| (with
  /// the old SRTT), then SRTT = 7/8 SRTT + 1/8 r. In the scaled form:
  /// rttvar4 += |srtt8 / 8 - r| - rttvar4 / 4, srtt8 += r - srtt8 / 8.
  function automatic rtt_est_t rtt_sample(rtt_est_t e, logic [31:0] r);
    rtt_t     rc, s, d;
    rtt_est_t    n;
    rc = (r > 32'(RttMax)) ? RttMax : 28'(r);
    s  = e.srtt8 >> 3;
    d  = (s > rc) ? s - rc : rc - s;
    if (e.srtt8 == '0) begin
      n.srtt8   = rc << 3;
      n.rttvar4 = rc << 1;
    end else begin
      n.srtt8   = e.srtt8 - (e.srtt8 >> 3) + rc;
      n.rttvar4 = e.rttvar4 - (e.rttvar4 >> 2) + d;
    end
    return n;
  endfunction

  /// RTO = SRTT + max(G, 4 RTTVAR) with a clock granularity G of one
  /// cycle (RFC 6298 2.3), at most rto_max (the engine raises it to
  /// RtoMin).
  function automatic logic [31:0] rto_of(rtt_est_t e, logic [31:0] rto_max);
    logic [31:0] rto;
    rto = (32'(e.srtt8) >> 3) + ((e.rttvar4 == '0) ? 32'd1 : 32'(e.rttvar4));
    return (rto > rto_max) ? rto_max : rto;
  endfunction

  /// cwnd clamped to 1..w (the range of wnd_o).
  function automatic logic [31:0] clamp_wnd(logic [31:0] wnd, logic [31:0] w);
    return (wnd == '0) ? 32'd1 : (wnd > w) ? w : wnd;
  endfunction

  /// next_new - 1 as an 8-bit distance from wnd_start (0 when nothing is in
  /// flight): NewReno's recover, SACK's RecoveryPoint.
  function automatic logic [7:0] rec_offset(cnt_t flight);
    return (flight == '0) ? 8'd0 : 8'(flight - 10'd1);
  endfunction

  /// New cwnd and congestion-avoidance count after a new ack.
  typedef struct packed {
    cnt_t       wnd;
    logic [8:0] ca_cnt;
  } grow_t;

  /// Slow start / congestion avoidance on a new ack. Each new ack counts
  /// `inc` segments: 1 (RFC 5681, bytes = 0: cwnd += SMSS*SMSS/cwnd per ack
  /// in congestion avoidance, += SMSS per ack in slow start) or the newly
  /// acked segments (RFC 3465 appropriate byte counting, bytes = 1). Below
  /// ssthresh cwnd grows by min(inc, ss_cap) and ca_cnt is 0; at or above it
  /// cwnd grows by one per cwnd counted, in ca_cnt (saturating at 511).
  function automatic grow_t grow_wnd(cnt_t wnd, cnt_t newly, cnt_t ssthresh, logic [8:0] ca_cnt,
                                     cnt_t ss_cap, logic bytes);
    cnt_t  inc, ca_sum;
    grow_t g;
    inc    = bytes ? newly : 10'd1;
    ca_sum = 10'(ca_cnt) + inc;
    if (wnd < ssthresh) begin
      g.wnd    = wnd + ((inc < ss_cap) ? inc : ss_cap);
      g.ca_cnt = 9'd0;
    end else if (ca_sum >= wnd) begin
      g.wnd    = wnd + 10'd1;
      g.ca_cnt = (ca_sum - wnd > 10'd511) ? 9'd511 : 9'(ca_sum - wnd);
    end else begin
      g.wnd    = wnd;
      g.ca_cnt = 9'(ca_sum);
    end
    return g;
  endfunction
endpackage

`default_nettype wire
