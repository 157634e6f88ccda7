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
  logic                   new_ack, passed;
  tonic_dd_pkg::seq_t     adv;          // wnd_start - old_start
  tonic_proto_pkg::cnt_t  wnd, flight, newly, ssthresh, half, wnd_n;
  tonic_proto_pkg::cnt_t  full_wnd, part_wnd;
  tonic_proto_pkg::grow_t grow;
  logic [7:0]             rec_left;
  logic                   sample, unsampled;
  tonic_proto_pkg::rtt_est_t est_n;
  assign u        = user_t'(user_i);
  assign new_ack  = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign adv      = wnd_start_i - old_start_i;
  // This ack covers recover: wnd_start > recover = old_start + rec_off.
  assign passed   = new_ack && (adv > 32'(u.rec_off));
  assign rec_left = u.rec_off - adv[7:0];
  assign wnd      = 10'(wnd_i);
  assign flight   = 10'(flight_i);
  assign newly    = 10'(newly_acked_i);
  assign ssthresh = 10'(u.ssthresh);
  assign half     = tonic_proto_pkg::half_flight(flight);
  // An RTT sample: a new ack with an echo; under Karn's rule (RttKarn,
  // user_configs.vh) only an echo of a first transmission.
  assign sample   = new_ack && info_i.rtt_valid && !(RttKarn != 0 && info_i.echo_rtx);
  // No sample yet: RtoInit on a new ack, but a later partial ack's.
  assign unsampled = new_ack && u.srtt8 == '0 && !(u.in_rec && !passed && u.partial);
  assign est_n    = tonic_proto_pkg::rtt_sample('{srtt8: u.srtt8, rttvar4: u.rttvar4}, info_i.rtt);
  assign grow     = tonic_proto_pkg::grow_wnd(wnd, newly, ssthresh, u.ca_cnt, 10'(SsAckCap),
                                              ByteCounting != 0);
  // Full ack: min(ssthresh, max(FlightSize, 1) + 1).
  assign full_wnd = (ssthresh < ((flight == '0) ? 10'd2 : flight + 10'd1)) ? ssthresh
                  : (flight == '0) ? 10'd2 : flight + 10'd1;
  // Partial ack: deflate by the newly acked segments, add one back.
  assign part_wnd = ((wnd > newly) ? wnd - newly : 10'd0) + 10'd1;

  always_comb begin
    u_n   = u;
`ifdef TONIC_CFG_USER_BYTES
    // The user-state cost builds: the padding rotates by one bit on every
    // call, so it is state a synthesis must keep (written back unchanged,
    // Yosys removes it as a no-op feedback).
    u_n.pad = {u.pad[0], u.pad[$bits(u.pad)-1:1]};
`endif
    wnd_n = '0;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = '0;
    if (new_ack) begin
      user_we_o    = 1'b1;
      wnd_we_o     = 1'b1;
      rto_we_o     = sample || unsampled;
      u_n.dup_acks = 2'd0;
      if (sample) {u_n.srtt8, u_n.rttvar4} = est_n;
      if (u.in_rec && passed) begin
        // Full ack: leave recovery.
        wnd_n           = full_wnd;
        u_n.in_rec      = 1'b0;
        u_n.rto_guard   = 1'b0;
        u_n.partial     = 1'b0;
        u_n.ca_cnt      = 9'd0;
        u_n.rec_off     = 8'd0;
        timer_restart_o = flight_i != '0;
      end else if (u.in_rec) begin
        // Partial ack: retransmit the next hole, stay in recovery.
        mark_we_o   = 1'b1;
        wnd_n       = part_wnd;
        u_n.rec_off = rec_left;
        u_n.partial = 1'b1;
        timer_restart_o = !u.partial && flight_i != '0;
      end else begin
        timer_restart_o     = flight_i != '0;
        u_n.rto_guard       = u.rto_guard && !passed;
        u_n.rec_off         = (u.rto_guard && !passed) ? rec_left : 8'd0;
        {wnd_n, u_n.ca_cnt} = grow;            // slow start / congestion avoidance
      end
    end else if (dup_i) begin
      if (u.in_rec) begin
        wnd_we_o = 1'b1;                       // inflate per dup ack in recovery
        wnd_n    = wnd + 10'd1;
      end else begin
        user_we_o    = 1'b1;
        u_n.dup_acks = (u.dup_acks == 2'd3) ? 2'd3 : u.dup_acks + 2'd1;
        if (u.dup_acks == 2'd2 && !u.rto_guard) begin
          // 3rd dup ack: fast retransmit, enter recovery.
          wnd_we_o     = 1'b1;
          mark_we_o    = 1'b1;
          u_n.in_rec   = 1'b1;
          u_n.partial  = 1'b0;
          u_n.ssthresh = 9'(half);
          u_n.ca_cnt   = 9'd0;
          u_n.rec_off  = tonic_proto_pkg::rec_offset(flight);
          wnd_n        = half + 10'd3;
        end
      end
    end
  end

  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(wnd_n, wnd_start_i, wnd_start_i + 32'd1,
                            (sample && u.srtt8 != '0) ? tonic_proto_pkg::rto_of('{srtt8: u.srtt8, rttvar4: u.rttvar4}, 32'(RtoMax))
                                                       : 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{info_i.flow, info_i.seg_bytes, info_i.echo_ts, info_i.ecn_segs,
                       info_i.acked_bytes, now_i, next_new_i, posted_i, acked_i, pending_i, rto_i,
                       type_i, cum_ack_i, sack_valid_i, sack_idx_i, ecn_i, grant_i};
endmodule
`default_nettype wire
