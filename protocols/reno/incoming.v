// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (TCP Reno): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// Rules (protocols/reno/README.md has the full table):
//  - new ack (wnd_start moved): leaving fast recovery -> cwnd = ssthresh;
//    else slow start (cwnd < ssthresh): cwnd += min(inc, SsAckCap);
//    else congestion avoidance: +1 per cwnd counted (ca_cnt); inc = 1 per
//    ack (RFC 5681) or the newly acked segments (RFC 3465), ByteCounting.
//    dup_acks = 0, timer restarted (if data is in flight).
//  - RTO (RFC 6298): a new ack with an echo is an RTT sample (with
//    RttKarn = 1 only an echo of a first transmission: Karn's rule); it updates SRTT and
//    RTTVAR, and sets RTO = SRTT + max(1, 4 RTTVAR) (at most RtoMax) of the
//    estimate before it: the RTO lags the estimator by one sample, which
//    keeps the estimator's adders and the RTO's in parallel (a second
//    adder chain in series cost 8 levels). Without a sample the RTO is
//    kept, so a backed-off RTO stays until one arrives.
//    Until a flow's first sample (a receiver that echoes nothing), a new
//    ack sets the RTO back to RtoInit instead, as without an estimator.
//  - duplicate ack: dup_acks++; on the 3rd: ssthresh = max(flight/2, 2),
//    mark [wnd_start, wnd_start + 1), cwnd = ssthresh + 3; beyond: cwnd += 1.
// Every value output is 0 when its enable is 0; wnd_o is in 1..W.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(76)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"

  // Counts are widened to tonic_proto_pkg::cnt_t (10 bits).
  user_t                  u, u_n;
  logic                   new_ack;
  tonic_proto_pkg::cnt_t  wnd, newly, ssthresh, half, wnd_n;
  tonic_proto_pkg::grow_t grow;
  logic                   sample, unsampled;
  tonic_proto_pkg::rtt_est_t est_n;
  assign u        = user_t'(user_i);
  assign new_ack  = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign wnd      = 10'(wnd_i);
  assign newly    = 10'(newly_acked_i);
  assign ssthresh = 10'(u.ssthresh);
  assign half     = tonic_proto_pkg::half_flight(10'(flight_i));
  assign grow     = tonic_proto_pkg::grow_wnd(wnd, newly, ssthresh, u.ca_cnt, 10'(SsAckCap),
                                              ByteCounting != 0);
  // An RTT sample: a new ack with an echo; under Karn's rule (RttKarn,
  // user_configs.vh) only an echo of a first transmission.
  assign sample   = new_ack && info_i.rtt_valid && !(RttKarn != 0 && info_i.echo_rtx);
  assign unsampled = new_ack && u.srtt8 == '0;  // no sample yet: RtoInit
  assign est_n    = tonic_proto_pkg::rtt_sample('{srtt8: u.srtt8, rttvar4: u.rttvar4}, info_i.rtt);

  always_comb begin
    u_n   = u;
    wnd_n = '0;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = '0;
    if (new_ack) begin
      user_we_o       = 1'b1;
      wnd_we_o        = 1'b1;
      rto_we_o        = sample || unsampled;
      timer_restart_o = flight_i != '0;
      u_n.dup_acks    = 2'd0;
      if (sample) {u_n.srtt8, u_n.rttvar4} = est_n;
      if (u.dup_acks == 2'd3) begin
        wnd_n      = ssthresh;                 // leave fast recovery
        u_n.ca_cnt = 9'd0;
      end else begin
        {wnd_n, u_n.ca_cnt} = grow;            // slow start / congestion avoidance
      end
    end else if (dup_i) begin
      if (u.dup_acks == 2'd3) begin
        wnd_we_o = 1'b1;                       // inflate per further dup ack
        wnd_n    = wnd + 10'd1;
      end else if (u.dup_acks == 2'd2) begin
        user_we_o    = 1'b1;                   // 3rd dup ack: fast retransmit
        wnd_we_o     = 1'b1;
        mark_we_o    = 1'b1;
        u_n.dup_acks = 2'd3;
        u_n.ssthresh = 9'(half);
        u_n.ca_cnt   = 9'd0;
        wnd_n        = half + 10'd3;
      end else begin
        user_we_o    = 1'b1;
        u_n.dup_acks = u.dup_acks + 2'd1;
      end
    end
  end

  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(wnd_n, wnd_start_i, wnd_start_i + 32'd1,
                            (sample && u.srtt8 != '0) ? tonic_proto_pkg::rto_of('{srtt8: u.srtt8, rttvar4: u.rttvar4}, 32'(RtoMax))
                                                       : 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i.flow, info_i.seg_bytes, info_i.echo_ts, info_i.ecn_segs,
                       info_i.acked_bytes, info_i.rtx_cnt, now_i, next_new_i, posted_i, acked_i, pending_i, rto_i,
                       type_i, cum_ack_i, sack_valid_i, sack_idx_i, ecn_i, grant_i};
endmodule
`default_nettype wire
