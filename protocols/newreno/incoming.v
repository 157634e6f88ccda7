// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (TCP NewReno): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// Reno (protocols/reno) plus RFC 6582 recovery; protocols/newreno/README.md
// has the full table:
//  - 3rd duplicate ack outside recovery and not after an RTO that is not
//    yet recovered (rto_guard): ssthresh = max(flight/2, 2), recover =
//    next_new - 1, mark [wnd_start, wnd_start + 1), cwnd = ssthresh + 3.
//  - duplicate ack in recovery: cwnd += 1.
//  - partial ack (new, wnd_start <= recover): mark [wnd_start, wnd_start + 1),
//    cwnd = max(cwnd - newly acked, 0) + 1, stay in recovery; the first
//    partial ack of a recovery restarts the timer.
//  - full ack (wnd_start > recover): cwnd = min(ssthresh, max(flight, 1) + 1),
//    leave recovery.
//  - other new acks: slow start / congestion avoidance as Reno.
//  - RTO (RFC 6298): a new ack with an echo is an RTT sample (with
//    RttKarn = 1 only an echo of a first transmission: Karn's rule); it updates SRTT and
//    RTTVAR, and sets RTO = SRTT + max(1, 4 RTTVAR) (at most RtoMax) of the
//    estimate before it: the RTO lags the estimator by one sample, which
//    keeps the estimator's adders and the RTO's in parallel (a second
//    adder chain in series cost 8 levels). Without a sample the RTO is
//    kept, so a backed-off RTO stays until one arrives.
//    Until a flow's first sample (a receiver that echoes nothing), a new
//    ack sets the RTO back to RtoInit instead, as without an estimator.
// Every value output is 0 when its enable is 0; wnd_o is in 1..W.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(87)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"

  // Counts are widened to tonic_proto_pkg::cnt_t (10 bits).
  user_t                  u, u_n;
  tonic_proto_pkg::cnt_t  half, wnd_n;
  tonic_proto_pkg::grow_t grow;
  assign u        = user_t'(user_i);
  // new_ack, passed, rec_left, sample, unsampled, est_n, the counts,
  // full_wnd, part_wnd and third_dup; the `TONIC_REC_* statements.
  `include "tonic_proto_recovery.svh"
  `TONIC_REC_SIGNALS
  assign half     = tonic_proto_pkg::half_flight(flight);
  assign grow     = tonic_proto_pkg::grow_wnd(wnd, newly, ssthresh, u.ca_cnt, 10'(SsAckCap),
                                              ByteCounting != 0);

  always_comb begin
    u_n   = u;
    `TONIC_USER_PAD_ROTATE(u_n, u)
    wnd_n = '0;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = '0;
    if (new_ack) begin
      `TONIC_REC_NEW_ACK
      if (u.in_rec) begin
        `TONIC_REC_IN_RECOVERY
      end else begin
        timer_restart_o     = flight_i != '0;
        u_n.rto_guard       = u.rto_guard && !passed;
        u_n.rec_off         = (u.rto_guard && !passed) ? rec_left : 8'd0;
        {wnd_n, u_n.ca_cnt} = grow;            // slow start / congestion avoidance
      end
    end else if (dup_i) begin
      `TONIC_REC_DUP_ACK(half)
    end
  end

  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(wnd_n, wnd_start_i, wnd_start_i + 32'd1, `TONIC_REC_RTO, u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i.flow, info_i.seg_bytes, info_i.echo_ts, info_i.ecn_segs,
                       info_i.acked_bytes, info_i.rtx_cnt, now_i, next_new_i, posted_i, acked_i, pending_i, rto_i,
                       type_i, cum_ack_i, sack_valid_i, sack_idx_i, ecn_i, grant_i};
endmodule
`default_nettype wire
