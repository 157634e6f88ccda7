// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (RoCEv2, DCQCN + go-back-N): stage 2 of the incoming
// pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md;
// protocols/rocev2_dcqcn/README.md has the full table.
//  - CNP: the DCQCN cut. Rt = Rc; Rc = max(Rc - (Rc * alpha >> 11), Rmin);
//    alpha = min(alpha - (alpha >> 8) + 4, 1024); stage counts and the byte
//    count 0; both timers restart at now (unvisited expiries are dropped).
//  - any other event: the byte counter. transmit.v counts the bytes that
//    left (tx_i.sent, mod 2^24, every segment's length, resends too);
//    sent - base reaching B is a byte event (base += B, b_cnt = min(b_cnt +
//    1, F), one increase step). A CNP sets base = sent. A new ack resets the
//    RTO and restarts the timer.
//  - NACK (cum_ack = the receiver's expected PSN, already wnd_start): go
//    back N, mark [wnd_start, next_new); RTO reset, timer restarted.
// rate_we_o iff Rc changes or on a CNP (rate_o = the new Rc, RU: a CNP
// always writes it, so a periodic call merged with the CNP cannot raise the
// rate the CNP set; docs/protocol-api.md, user_merge); the window, tokens
// and every other event type are left alone. Value outputs are 0 while
// their enable is 0.
// protocols/rocev2_gb0/incoming.v includes this file unchanged.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(128)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"
  // Through the protocol's include dir (protocols/rocev2_dcqcn or
  // protocols/rocev2_gb0, which includes this file): the path works from both.
  `include "../rocev2_dcqcn/dcqcn_rp.svh"

  user_t               u, u_n;
  logic                is_cnp, is_nack, new_ack, byte_ev;
  // CNP: the cut uses alpha before its update. Rc * alpha (27 x 11 bits)
  // fits one 27 x 18 DSP multiplier.
  dcqcn_rate_t         cut, cut_left;
  dcqcn_rate_t         cut_rc;
  dcqcn_alpha_t        cnp_alpha;
  // Byte counter: the bytes sent since base, mod 2^24 (dcqcn_rp.svh bounds it).
  tx_t                 tx;
  logic [23:0]         since;
  dcqcn_stage_t        b_cnt_ev;
  dcqcn_rates_t        byte_rates;
  assign u         = user_t'(user_i);
  assign is_cnp    = type_i == tonic_dd_pkg::RxCnp;
  assign is_nack   = type_i == tonic_dd_pkg::RxNack;
  assign new_ack   = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign cut       = 27'((38'(u.rc) * 38'(u.alpha)) >> 11);   // <= Rc / 2
  assign cut_left  = u.rc - cut;
  assign cut_rc    = (cut_left < 27'(DcqcnRmin)) ? 27'(DcqcnRmin) : cut_left;
  assign cnp_alpha = (dcqcn_alpha_decay(u.alpha) + 11'(1024 >> DcqcnGShift) > 11'd1024) ? 11'd1024
                   : dcqcn_alpha_decay(u.alpha) + 11'(1024 >> DcqcnGShift);
  assign tx         = tx_t'(tx_i);
  assign since      = tx.sent - u.base;
  assign byte_ev    = !is_cnp && since >= 24'(DcqcnB);
  assign b_cnt_ev   = dcqcn_stage_inc(u.b_cnt);
  assign byte_rates = dcqcn_increase(u.rc, u.rt, u.t_cnt, b_cnt_ev);

  always_comb begin
    u_n = u;
    {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o, rate_we_o} = '0;
    if (is_cnp) begin
      user_we_o   = 1'b1;
      rate_we_o   = 1'b1;  // even when Rc stays (at Rmin): a merged call may not raise it
      u_n.fresh   = 1'b0;
      u_n.rt      = u.rc;
      u_n.rc      = cut_rc;
      u_n.alpha   = cnp_alpha;
      u_n.t_cnt   = '0;
      u_n.b_cnt   = '0;
      u_n.base    = tx.sent;
      u_n.t_due   = now_i[15:0] + 16'(DcqcnT);
      u_n.k_due   = now_i[15:0] + 16'(DcqcnK);
    end else if (byte_ev) begin
      user_we_o = 1'b1;
      rate_we_o = byte_rates.changed;
      u_n.base  = u.base + 24'(DcqcnB);
      u_n.b_cnt = b_cnt_ev;
      u_n.rc    = byte_rates.rc;
      u_n.rt    = byte_rates.rt;
    end
    // Loss recovery: go back N on a NACK; any new ack resets the RTO.
    if (!is_cnp && (new_ack || is_nack)) begin
      mark_we_o       = is_nack;
      rto_we_o        = 1'b1;
      timer_restart_o = flight_i != '0;
    end
  end

  `TONIC_PROTO_DRIVE_VALUES(InitWnd, wnd_start_i, next_new_i, 32'(RtoInit), u_n);
  assign tokens_we_o = 1'b0;
  `TONIC_PROTO_DRIVE_CREDIT(u_n.rc, 0);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{info_i, now_i[31:16], wnd_i, posted_i, acked_i, pending_i, rto_i, cum_ack_i, sack_valid_i,
                       sack_idx_i, ecn_i, grant_i, newly_acked_i, dup_i, 32'(RtoMax), 32'(SegBytes)};
endmodule
`default_nettype wire
