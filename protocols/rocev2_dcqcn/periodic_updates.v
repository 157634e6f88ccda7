// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (RoCEv2, DCQCN + go-back-N): runs on every visit of
// a present flow (rate scheme: every max(P, 3) cycles).
//
// Combinational; ports per docs/protocol-api.md;
// protocols/rocev2_dcqcn/README.md has the full table.
//  - First call of a flow (fresh): start both timers at now (t_due = now + T,
//    k_due = now + K); no expiry.
//  - Alpha timer due (now >= k_due, 16-bit serial): alpha -= alpha >> 8,
//    k_due += K. Rate timer due: t_cnt = min(t_cnt + 1, F), one increase
//    step, t_due += T. At most one expiry of each timer per call: exact
//    (docs/design/dcqcn.md's visit()) while consecutive calls are at most
//    min(K, T) cycles apart. Due times are absolute, so a call the engine
//    drops (an incoming event of the flow in the same cycle) is re-done on
//    the next visit without losing an expiry.
//  - Retransmission timeout: go back N, mark [wnd_start, next_new);
//    rto = min(2 * rto, RtoMax); timer restarted.
// rate_we_o iff Rc changes. Value outputs are 0 while their enable is 0.
// protocols/rocev2_gb0/periodic_updates.v includes this file unchanged.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(128)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"
  // Through the protocol's include dir (protocols/rocev2_dcqcn or
  // protocols/rocev2_gb0, which includes this file): the path works from both.
  `include "../rocev2_dcqcn/dcqcn_rp.svh"

  user_t        u, u_n;
  logic [15:0]  now16;
  logic         k_exp, t_exp;
  dcqcn_stage_t t_cnt_ev;
  dcqcn_rates_t timer_rates;
  assign u           = user_t'(user_i);
  assign now16       = now_i[15:0];
  assign k_exp       = !u.fresh && dcqcn_due(now16, u.k_due);
  assign t_exp       = !u.fresh && dcqcn_due(now16, u.t_due);
  assign t_cnt_ev    = dcqcn_stage_inc(u.t_cnt);
  assign timer_rates = dcqcn_increase(u.rc, u.rt, t_cnt_ev, u.b_cnt);

  always_comb begin
    u_n = u;
    if (u.fresh) begin
      u_n.fresh = 1'b0;
      u_n.t_due = now16 + 16'(DcqcnT);
      u_n.k_due = now16 + 16'(DcqcnK);
    end
    if (k_exp) begin
      u_n.alpha = dcqcn_alpha_decay(u.alpha);
      u_n.k_due = u.k_due + 16'(DcqcnK);
    end
    if (t_exp) begin
      u_n.t_cnt = t_cnt_ev;
      u_n.rc    = timer_rates.rc;
      u_n.rt    = timer_rates.rt;
      u_n.t_due = u.t_due + 16'(DcqcnT);
    end
  end

  assign user_we_o = u.fresh || k_exp || t_exp;
  assign rate_we_o = t_exp && timer_rates.changed;
  assign tokens_we_o = 1'b0;
  assign wnd_we_o  = 1'b0;
  assign {mark_we_o, rto_we_o, timer_restart_o} = {3{timeout_i}};
  `TONIC_PROTO_DRIVE_VALUES(InitWnd, wnd_start_i, next_new_i,
                            tonic_proto_pkg::rto_backoff(rto_i, 32'(RtoMax)), u_n);
  `TONIC_PROTO_DRIVE_CREDIT(u_n.rc, 0);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i[31:16], wnd_i, posted_i, flight_i, acked_i, pending_i,
                       32'(SegBytes)};
endmodule
`default_nettype wire
