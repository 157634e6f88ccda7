// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (TCP SACK, RFC 6675): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// protocols/sack/README.md has the full table. In short:
//  - The user state tracks the three highest SACKed segments (sack_idx_i of
//    each event, aged by every new ack), so third = the 3rd-highest SACKed
//    segment, and every unacked segment below it is lost (IsLost,
//    DupThresh = 3). No search over the window.
//  - Enter recovery (not in recovery, no unrecovered RTO) on the 3rd dup ack
//    that SACKs new data or carries no SACK (the RFC 5681 fallback for a
//    receiver that sends none), or when wnd_start is lost:
//    ssthresh = max(flight/2, 2), RecoveryPoint =
//    next_new - 1, mark [wnd_start, max(wnd_start + 1, third)).
//  - In recovery: mark [previous mark end, third) when third moved above
//    it; cwnd = ssthresh + SACKed segments (popcount of acked_i), the
//    integer form of RFC 6675's pipe; leave when wnd_start passes
//    RecoveryPoint (cwnd = ssthresh).
//  - Lost retransmissions: when three SACKs lie above the last segment
//    sent before the recovery's latest retransmissions (rtx_off) and
//    wnd_start is still marked and unacked, mark [wnd_start, third) again.
//  - NextSeg rule 3 when nothing is pending or newly lost, nothing is
//    unsent and the window has room: mark the lowest unSACKed segment at
//    or above HighRxt (high_off) below the 2nd-highest SACK, one per event.
//  - Else the rescue retransmission (NextSeg rule 4), once per recovery:
//    mark next_new - 1 unless it is SACKed.
//  - Outside recovery, new acks: slow start / congestion avoidance as Reno.
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
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(129)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"

  user_t              u, u_n;
  logic               new_ack, passed, ev;
  tonic_dd_pkg::seq_t adv;       // wnd_start - old_start
  tonic_dd_pkg::seq_t dadv;      // adv if this is a new ack, else 0
  assign u       = user_t'(user_i);

  // An RTT sample: a new ack with an echo; under Karn's rule (RttKarn,
  // user_configs.vh) only an echo of a first transmission.
  logic                      sample;
  tonic_proto_pkg::rtt_est_t est_n;
  assign sample = new_ack && info_i.rtt_valid && !(RttKarn != 0 && info_i.echo_rtx);
  logic unsampled;  // no sample yet: RtoInit on a new ack
  assign unsampled = new_ack && u.srtt8 == '0;
  assign est_n  = tonic_proto_pkg::rtt_sample('{srtt8: u.srtt8, rttvar4: u.rttvar4}, info_i.rtt);
  assign new_ack = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign adv     = wnd_start_i - old_start_i;
  assign dadv    = new_ack ? adv : '0;
  // This ack covers RecoveryPoint = old_start + rec_off.
  assign passed  = new_ack && (adv > 32'(u.rec_off));

  // SACKed segments in the window (the ring holds no bit outside it).
  logic [CntW-1:0] sacked;
  tonic_popcount_range #(
    .W       (W),
    .Pipeline(0)
  ) u_sacked (
    .clk_i  (1'b0),
    .bits_i (acked_i),
    .start_i('0),
    .len_i  (CntW'(W)),
    .count_o(sacked)
  );

  // The three highest SACKs, aged into the new window (alive: still at or
  // above wnd_start; a prefix of the entries).
  logic [2:0]      stays;    // entry k valid and not passed by wnd_start
  logic [2:0]      alive;
  logic [2:0][7:0] aged;
  for (genvar k = 0; k < 3; k++) begin : g_age
    assign stays[k] = (u.sack_cnt > 2'(k)) && (dadv <= 32'(u.sack_off[k]));
    assign aged[k]  = u.sack_off[k] - dadv[7:0];
  end
  assign alive = {&stays, &stays[1:0], stays[0]};

  // This event's SACK, inserted in order unless already present.
  tonic_dd_pkg::seq_t new_off;
  logic               new_ok, ins;
  logic [7:0]         n;
  logic [2:0]         above;    // n above entry k (or entry k dead)
  logic [2:0]         same;     // n equals a live entry
  logic [1:0]         live_cnt, sack_cnt_n;
  logic [2:0][7:0]    top;      // new top three (dead entries 0)
  assign new_off  = sack_idx_i - wnd_start_i;
  assign new_ok   = sack_valid_i && (new_off < 32'(W));
  assign n        = new_off[7:0];
  for (genvar k = 0; k < 3; k++) begin : g_cmp
    assign above[k] = !alive[k] || (n > aged[k]);
    assign same[k]  = alive[k] && (n == aged[k]);
  end
  assign ins      = new_ok && (same == 3'b000) && (above != 3'b000);
  assign live_cnt = alive[2] ? 2'd3 : alive[1] ? 2'd2 : alive[0] ? 2'd1 : 2'd0;
  assign sack_cnt_n = (ins && live_cnt != 2'd3) ? live_cnt + 2'd1 : live_cnt;
  always_comb begin
    if (ins && above[0])      top = {aged[1], aged[0], n};
    else if (ins && above[1]) top = {aged[1], n, aged[0]};
    else if (ins && above[2]) top = {n, aged[1], aged[0]};
    else                      top = aged;
    for (int k = 0; k < 3; k++) begin
      if (2'(k) >= sack_cnt_n) top[k] = 8'd0;
    end
  end

  // Loss detection. A duplicate ack with SACK information counts only if it
  // SACKs new data (RFC 6675 section 2): a repeated SACK is no evidence of a
  // loss. One without SACK information always counts (RFC 5681 fallback).
  logic       sack_dup, third_ok, lost_head, third_dup, guard_n, enter;
  logic [7:0] third, high_aged, rec_left, enter_hi;
  assign third_ok  = sack_cnt_n == 2'd3;
  assign third     = top[2];
  assign lost_head = third_ok && (third != 8'd0);           // IsLost(wnd_start)
  assign sack_dup  = dup_i && !new_ack && (!sack_valid_i || (newly_acked_i != '0));
  assign third_dup = sack_dup && !u.in_rec && (u.dup_acks == 2'd2);
  assign guard_n   = u.rto_guard && !passed;
  assign ev        = new_ack || dup_i || new_ok;
  assign enter     = ev && !u.in_rec && !guard_n && (third_dup || lost_head);
  assign enter_hi  = lost_head ? third : 8'd1;
  assign high_aged = (dadv <= 32'(u.high_off)) ? u.high_off - dadv[7:0] : 8'd0;
  assign rec_left  = u.rec_off - adv[7:0];

  // In recovery (after this event's ageing):
  //  - lost_new: third moved above the marked range: mark the new losses.
  //  - relost: a retransmission was lost. rtx_off is next_new - 1 when the
  //    recovery last marked an unSACKed segment, and the engine sends
  //    marked segments before new data, so when three SACKed segments lie
  //    above rtx_off while the marked range still holds wnd_start
  //    (unacked), the retransmissions below it are lost too: mark
  //    [wnd_start, third) again (the framework skips SACKed segments).
  //  - fresh: the new range [high, third) spans two segments or more. One
  //    event moves third by one SACK rank, so the range then holds an
  //    unSACKed segment (high is the old third, SACKed, unless the recovery
  //    began on duplicate acks alone): rtx_off moves to next_new - 1.
  //  - idle: NextSeg gets past its rules 1 and 2: nothing marked is
  //    waiting (pending_i empty), nothing new is marked, no unsent data
  //    (posted = next_new), and the window has room (flight < wnd before
  //    this event).
  //  - rule3: NextSeg rule 3: the lowest unSACKed segment above HighRxt
  //    (high_off) below the highest SACK. With third at or below high_off
  //    (nothing newly lost), the SACKed segments at or above third are
  //    exactly the three kept, so that segment is c3 = high_off + d: d = 0
  //    when high_off is none of them, d = 1 when it is top[1] or it is
  //    third with third + 1 unSACKed, d = 2 when it is third and third + 1
  //    is top[1]. Rule 3 holds when c3 < top[0]: mark [high_off, c3 + 1)
  //    (the framework skips the SACKed ones), high_off = c3 + 1.
  //  - rescue: NextSeg rule 4, once per recovery: idle, no rule3, and the
  //    highest outstanding segment next_new - 1 unSACKed: mark it.
  logic       lost_new, relost, fresh, idle, at_third, at_top1, two_up, rule3, rescue, top_sacked;
  logic [7:0] rtx_aged;
  logic [1:0] d3;
  logic [8:0] c3;
  assign rtx_aged   = (dadv <= 32'(u.rtx_off)) ? u.rtx_off - dadv[7:0] : 8'd0;
  assign lost_new   = third_ok && third > high_aged;
  assign relost     = lost_new && high_aged != 8'd0 && third > rtx_aged;
  assign fresh      = 9'(third) > 9'(high_aged) + 9'd1;
  assign top_sacked = (sack_cnt_n != 2'd0) && (CntW'(top[0]) + CntW'(1) == flight_i);
  assign idle       = !lost_new && pending_i == '0 && posted_i == next_new_i
                   && flight_i != '0 && flight_i < wnd_i;
  assign at_third   = high_aged == third;
  assign at_top1    = high_aged == top[1];
  assign two_up     = 9'(third) + 9'd1 == 9'(top[1]);
  assign d3         = (at_third && two_up) ? 2'd2 : (at_third || at_top1) ? 2'd1 : 2'd0;
  assign c3         = 9'(high_aged) + 9'(d3);
  // c3 < top[0], the three compares beside the choice of d instead of after it.
  assign rule3      = idle && third_ok
                   && ((d3 == 2'd2) ? 9'(high_aged) + 9'd2 < 9'(top[0])
                     : (d3 == 2'd1) ? 9'(high_aged) + 9'd1 < 9'(top[0])
                                    : high_aged < top[0]);
  assign rescue     = idle && !rule3 && !u.rescued && !top_sacked;

  // Window arithmetic, in tonic_proto_pkg::cnt_t (10 bits).
  tonic_proto_pkg::cnt_t  wnd, newly, ssthresh, half, wnd_n;
  tonic_proto_pkg::grow_t grow;
  assign wnd      = 10'(wnd_i);
  assign newly    = 10'(newly_acked_i);
  assign ssthresh = 10'(u.ssthresh);
  assign half     = tonic_proto_pkg::half_flight(10'(flight_i));
  assign grow     = tonic_proto_pkg::grow_wnd(wnd, newly, ssthresh, u.ca_cnt, 10'(SsAckCap),
                                              ByteCounting != 0);

  // The mark range's candidate ends, summed in parallel with the compares
  // that choose among them (a sum after the choice cost levels).
  tonic_dd_pkg::seq_t lo_high, hi_high, hi_high1, hi_high2, hi_high3, hi_third, mark_lo, mark_hi;
  assign lo_high  = wnd_start_i + 32'(high_aged);
  assign hi_high1 = lo_high + 32'd1;  // rule3: c3 + 1, each d summed beside its choice
  assign hi_high2 = lo_high + 32'd2;
  assign hi_high3 = lo_high + 32'd3;
  assign hi_high  = (d3 == 2'd2) ? hi_high3 : (d3 == 2'd1) ? hi_high2 : hi_high1;
  assign hi_third = wnd_start_i + 32'(third);
  always_comb begin
    u_n             = u;
    u_n.dup_acks    = new_ack ? 2'd0
                    : (sack_dup && !u.in_rec && u.dup_acks != 2'd3) ? u.dup_acks + 2'd1
                    : u.dup_acks;
    u_n.rto_guard   = guard_n;
    u_n.rec_off     = guard_n ? rec_left : 8'd0;
    u_n.high_off    = 8'd0;
    u_n.rtx_off     = 8'd0;
    u_n.rescued     = 1'b0;
    u_n.sack_cnt    = sack_cnt_n;
    u_n.sack_off    = top;
    wnd_n           = '0;
    mark_lo         = '0;
    mark_hi         = '0;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o} = '0;
    user_we_o       = ev;
    if (ev) begin
      if (new_ack) begin
        rto_we_o        = sample || unsampled;
        timer_restart_o = flight_i != '0;
        if (sample) {u_n.srtt8, u_n.rttvar4} = est_n;
      end
      if (enter) begin
        // Enter recovery: retransmit wnd_start and everything lost.
        wnd_we_o     = 1'b1;
        mark_we_o    = 1'b1;
        mark_lo      = wnd_start_i;
        mark_hi      = lost_head ? hi_third : wnd_start_i + 32'd1;
        u_n.in_rec   = 1'b1;
        u_n.ssthresh = 9'(half);
        u_n.ca_cnt   = 9'd0;
        u_n.rec_off  = tonic_proto_pkg::rec_offset(10'(flight_i));
        u_n.high_off = enter_hi;
        u_n.rtx_off  = tonic_proto_pkg::rec_offset(10'(flight_i));
        wnd_n        = half + 10'(sacked);
      end else if (u.in_rec && !passed) begin
        // In recovery: mark what became lost since the last mark (and
        // the lost retransmissions below it), else the rescue segment.
        wnd_we_o     = 1'b1;
        u_n.rec_off  = rec_left;
        u_n.high_off = high_aged;
        u_n.rtx_off  = rtx_aged;
        u_n.rescued  = u.rescued;
        wnd_n        = ssthresh + 10'(sacked);
        if (lost_new) begin
          mark_we_o    = 1'b1;
          mark_lo      = relost ? wnd_start_i : lo_high;
          mark_hi      = hi_third;
          u_n.high_off = third;
          if (relost || fresh) u_n.rtx_off = tonic_proto_pkg::rec_offset(10'(flight_i));
        end else if (rule3) begin
          // [high_off, c3 + 1): c3 alone (the others are SACKed).
          mark_we_o    = 1'b1;
          mark_lo      = lo_high;
          mark_hi      = hi_high;
          u_n.high_off = 8'(c3 + 9'd1);
          u_n.rtx_off  = tonic_proto_pkg::rec_offset(10'(flight_i));
        end else if (rescue) begin
          mark_we_o    = 1'b1;
          mark_lo      = next_new_i - 32'd1;
          mark_hi      = next_new_i;
          u_n.rescued  = 1'b1;
        end
      end else if (u.in_rec) begin
        // RecoveryPoint acked: leave recovery.
        wnd_we_o   = 1'b1;
        u_n.in_rec = 1'b0;
        u_n.ca_cnt = 9'd0;
        wnd_n      = ssthresh;
      end else if (new_ack) begin
        wnd_we_o            = 1'b1;
        {wnd_n, u_n.ca_cnt} = grow;            // slow start / congestion avoidance
      end
    end
  end

  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(wnd_n, mark_lo, mark_hi,
                            (sample && u.srtt8 != '0) ? tonic_proto_pkg::rto_of('{srtt8: u.srtt8, rttvar4: u.rttvar4}, 32'(RtoMax))
                                                       : 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i.flow, info_i.seg_bytes, info_i.echo_ts, info_i.ecn_segs,
                       info_i.acked_bytes, info_i.rtx_cnt, now_i, rto_i, type_i,
                       cum_ack_i, ecn_i, grant_i};
endmodule
`default_nettype wire
