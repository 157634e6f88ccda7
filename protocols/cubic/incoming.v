// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (TCP CUBIC, RFC 9438): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// NewReno's loss recovery (RFC 6582) and RTO estimator (RFC 6298), as in
// protocols/newreno, with CUBIC's window rules (protocols/cubic/README.md):
//  - 3rd duplicate ack outside recovery and not after an unrecovered RTO:
//    ssthresh = max(cwnd * beta, 2), cwnd = ssthresh + 3 (NewReno's
//    recovery), W_max = cwnd, or cwnd (1 + beta) / 2 when cwnd < W_max
//    (fast convergence), W_est = ssthresh, and K = cbrt((W_max -
//    ssthresh) / C) from tonic_cbrt, kept until the epoch starts.
//  - the first new ack in congestion avoidance after that starts the epoch:
//    origin = now + K - SRTT (so that t - K at an ack is the RFC's t + RTT
//    - K), no growth on that ack.
//  - later new acks in congestion avoidance: W_cubic = W_max + C (t - K)^3
//    from a table of t - K; Reno-friendly region (W_cubic < W_est): cwnd =
//    max(W_est, cwnd); else target = W_cubic clamped to [cwnd, 1.5 cwnd]
//    and ca_cnt += target - cwnd, cwnd += 1 each time ca_cnt reaches cwnd
//    (cwnd += (target - cwnd) / cwnd per ack without a divider). W_est
//    grows by one per ceil(cwnd / alpha_cubic) segments acked.
//  - slow start, partial and full acks, dup acks in recovery, the RTO: as
//    NewReno.
// Every value output is 0 when its enable is 0; wnd_o is in 1..W.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(126)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"
  `include "cubic_math.svh"

  // ROMs of the constant functions, indexed by cwnd (9 bits) and by t - K.
  logic [8:0]  beta_tab [512];
  logic [8:0]  fc_tab   [512];
  logic [8:0]  thr_tab  [512];
  logic [29:0] rad_tab  [512];    // radicand of K without fast convergence
  logic [29:0] rad_fc_tab [512];  // with fast convergence
  logic [11:0] off_tab  [2048];   // t - K, 11-bit two's complement
  for (genvar i = 0; i < 512; i++) begin : g_wnd_tab
    assign beta_tab[i] = cubic_beta(i);
    assign fc_tab[i]   = cubic_fc(i);
    assign thr_tab[i]  = cubic_est_thr(i);
    assign rad_tab[i]    = cubic_rad(i, 1'b0);
    assign rad_fc_tab[i] = cubic_rad(i, 1'b1);
  end
  for (genvar i = 0; i < 2048; i++) begin : g_off_tab
    assign off_tab[i] = cubic_off(i);
  end

  // Counts are widened to tonic_proto_pkg::cnt_t (10 bits).
  user_t                  u, u_n;
  tonic_proto_pkg::cnt_t  wnd_n, ss_wnd, ss_inc;
  assign u        = user_t'(user_i);
  // new_ack, passed, rec_left, sample, unsampled, est_n, the counts,
  // full_wnd, part_wnd and third_dup; the `TONIC_REC_* statements.
  `include "tonic_proto_recovery.svh"
  `TONIC_REC_SIGNALS
  // Slow start: one segment per ack, or min(newly acked, SsAckCap).
  assign ss_inc   = (ByteCounting != 0) ? newly : 10'd1;
  assign ss_wnd   = wnd + ((ss_inc < 10'(SsAckCap)) ? ss_inc : 10'(SsAckCap));

  // --- The congestion event: K from the cube root of a table of cwnd. ---
  logic [8:0] w9;
  logic       fc;
  logic [8:0] ss_new, wmax_new;
  logic [29:0] rad;
  logic [9:0] k_root;
  assign w9       = wnd[8:0];
  assign fc       = wnd < 10'(u.w_max);            // fast convergence
  assign ss_new   = beta_tab[w9];
  assign wmax_new = fc ? fc_tab[w9] : w9;
  assign rad      = fc ? rad_fc_tab[w9] : rad_tab[w9];
  tonic_cbrt #(.InW(30), .SigBits(KSigBits)) u_cbrt (.x_i(rad), .root_o(k_root));

  // --- Congestion avoidance. Every comparison after the table is against
  // a bound formed from registers alone, in parallel with the table. ---
  logic [10:0]        now_u, srtt_u, d;
  logic signed [11:0] off, a, lim_reno, lim_lo, lim_hi, accx, accx_m;
  logic [11:0]        h, acc0_m, acch, acch_m;
  logic               reno, x_lo, x_hi, step;
  logic [11:0]        acc_sel;                     // ca_cnt + inc - (step ? cwnd : 0)
  logic [10:0]        est_sum, est_m;
  logic               est_step;
  assign now_u    = now_i[TimeShift +: 11];
  assign srtt_u   = 11'(u.srtt8 >> (3 + TimeShift));
  assign d        = now_u - u.t_org;                // t - K (the RFC's t + RTT - K)
  assign off      = off_tab[d];                      // W_cubic - W_max
  assign a        = 12'(u.w_max) - 12'(wnd);        // W_max - cwnd
  assign h        = 12'(wnd[9:1]);                   // the largest step: target <= 1.5 cwnd
  assign lim_reno = 12'(u.w_est) - 12'(u.w_max);    // W_cubic < W_est  <=> off < lim_reno
  assign lim_lo   = -a;                             // W_cubic <= cwnd  <=> off <= lim_lo
  assign lim_hi   = h - a;                          // W_cubic >= 1.5 cwnd <=> off >= lim_hi
  assign reno     = off < lim_reno;
  assign x_lo     = off <= lim_lo;
  assign x_hi     = off >= lim_hi;
  assign accx     = (12'(u.ca_cnt) + a) + off;      // ca_cnt + (W_cubic - cwnd)
  assign accx_m   = (12'(u.ca_cnt) + a - 12'(wnd)) + off;
  assign acc0_m   = 12'(u.ca_cnt) - 12'(wnd);
  assign acch     = 12'(u.ca_cnt) + h;
  assign acch_m   = 12'(u.ca_cnt) + h - 12'(wnd);
  always_comb begin
    if (x_lo) begin
      step    = !acc0_m[11];
      acc_sel = step ? acc0_m : 12'(u.ca_cnt);
    end else if (x_hi) begin
      step    = !acch_m[11];
      acc_sel = step ? acch_m : acch;
    end else begin
      step    = !accx_m[11];
      acc_sel = step ? 12'(accx_m) : 12'(accx);
    end
  end
  // W_est: one segment per ceil(cwnd / alpha) segments acked.
  assign est_sum  = 11'(u.est_cnt) + 11'(ss_inc);
  assign est_m    = est_sum - 11'(thr_tab[w9]);
  assign est_step = !est_m[10];

  always_comb begin
    u_n   = u;
    wnd_n = '0;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = '0;
    if (new_ack) begin
      `TONIC_REC_NEW_ACK
      if (u.in_rec) begin
        `TONIC_REC_IN_RECOVERY
      end else begin
        timer_restart_o = flight_i != '0;
        u_n.rto_guard   = u.rto_guard && !passed;
        u_n.rec_off     = (u.rto_guard && !passed) ? rec_left : 8'd0;
        if (wnd < ssthresh) begin
          // Slow start.
          wnd_n      = ss_wnd;
          u_n.ca_cnt = 9'd0;
        end else begin
          // Congestion avoidance: W_est counts every ack.
          u_n.est_cnt = est_step ? ((est_m > 11'd511) ? 9'd511 : est_m[8:0])
                                 : ((est_sum > 11'd511) ? 9'd511 : est_sum[8:0]);
          u_n.w_est   = (est_step && u.w_est != 9'd511) ? u.w_est + 9'd1 : u.w_est;
          if (u.pending) begin
            // The epoch starts: origin = now + K - SRTT.
            wnd_n       = wnd;
            u_n.pending = 1'b0;
            u_n.t_org   = now_u + u.t_org - srtt_u;
            u_n.ca_cnt  = 9'd0;
          end else begin
            // Keep t - K at most OrgHold: the origin follows the time.
            if (!d[10] && d > 11'(OrgHold)) u_n.t_org = now_u - 11'(OrgHold);
            if (reno) begin
              // Reno-friendly region: cwnd = W_est (never down).
              wnd_n = (10'(u.w_est) > wnd) ? 10'(u.w_est) : wnd;
            end else begin
              wnd_n      = step ? wnd + 10'd1 : wnd;
              u_n.ca_cnt = acc_sel[8:0];  // in 0..511 for every input: no saturation
            end
          end
        end
      end
    end else if (dup_i) begin
      `TONIC_REC_DUP_ACK(ss_new)
      if (third_dup) begin
        // The fast retransmit is CUBIC's congestion event.
        u_n.w_max   = wmax_new;
        u_n.w_est   = ss_new;
        u_n.est_cnt = 9'd0;
        u_n.pending = 1'b1;
        u_n.t_org   = 11'(k_root);
      end
    end
  end

  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(wnd_n, wnd_start_i, wnd_start_i + 32'd1, `TONIC_REC_RTO, u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i.flow, info_i.seg_bytes, info_i.echo_ts, info_i.ecn_segs,
                       info_i.acked_bytes, info_i.rtx_cnt, now_i, next_new_i, posted_i, acked_i, pending_i, rto_i,
                       type_i, cum_ack_i, sack_valid_i, sack_idx_i, ecn_i, grant_i,
                       acc_sel[11:9],  // always 0 (ca_cnt + inc - step * cwnd is in 0..511)
                       32'(CubicCNum), 32'(CubicCDen), 32'(EstNum), 32'(EstDen)};
endmodule
`default_nettype wire
