// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (TCP CUBIC, RFC 9438): runs on each periodic visit of a flow.
//
// Combinational; ports per docs/protocol-api.md. Only a retransmission
// timeout does anything: NewReno's (cwnd = 1, go back N, rto = min(2 * rto,
// RtoMax), timer restarted, recover = next_new - 1, leave recovery, no fast
// retransmit until an ack passes recover) with CUBIC's ssthresh = max(cwnd *
// beta, 2) and, per RFC 9438 section 4.8, the next congestion-avoidance
// epoch with K = 0 and W_max = W_est = ssthresh (the window that epoch
// starts at). Without timeout_i every enable (and every value output) is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(126)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"
  `include "cubic_math.svh"
  `include "tonic_proto_recovery.svh"

  logic [8:0] beta_tab [512];
  for (genvar i = 0; i < 512; i++) begin : g_beta_tab
    assign beta_tab[i] = cubic_beta(i);
  end

  user_t      u_n;
  logic [8:0] ss_new;
  assign ss_new = beta_tab[9'(wnd_i)];
  always_comb begin
    u_n           = user_t'(user_i);
    `TONIC_REC_TIMEOUT(ss_new)
    u_n.w_max     = ss_new;
    u_n.w_est     = ss_new;
    u_n.est_cnt   = 9'd0;
    u_n.pending   = 1'b1;
    u_n.t_org     = 11'd0;                                       // K = 0
  end

  assign {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = {5{timeout_i}};
  `TONIC_PROTO_NO_CREDIT;
  // Go back N: everything in flight is marked (the engine resends the
  // marked segments as the window of 1 reopens in slow start).
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i,
                            tonic_proto_pkg::rto_backoff(rto_i, 32'(RtoMax)), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, posted_i, acked_i, pending_i, 32'(SsAckCap), 32'(ByteCounting),
                       32'(RttKarn), 32'(KSigBits), 32'(OrgHold), 32'(CubicCNum), 32'(CubicCDen),
                       32'(EstNum), 32'(EstDen), 32'(TimeShift)};
endmodule
`default_nettype wire
