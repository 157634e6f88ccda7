// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (NDP sender): runs on every periodic visit of a
// present flow (token scheme: not only while the timer is armed).
//
// Combinational; ports per docs/protocol-api.md. Only a retransmission
// timeout (timeout_i) does anything: mark [wnd_start, next_new) (every
// unacked segment), add RtoTokens (1) token so that the first marked
// segment can go without a pull (the acks it earns bring pulls for the
// rest), rto = min(2 * rto, RtoMax), restart the timer, set the user bit
// backoff. Without timeout_i every enable (and every value output) is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(1)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"

  user_t u, u_n;
  assign u = user_t'(user_i);
  always_comb begin
    u_n         = u;
    u_n.backoff = 1'b1;
    `TONIC_USER_PAD_ROTATE(u_n, u)
  end

  assign wnd_we_o = 1'b0;
  assign {mark_we_o, rto_we_o, timer_restart_o, user_we_o} = {4{timeout_i}};
  assign rate_we_o   = 1'b0;
  assign tokens_we_o = timeout_i;
  `TONIC_PROTO_DRIVE_CREDIT(0, RtoTokens);
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i,
                            tonic_proto_pkg::rto_backoff(rto_i, 32'(RtoMax)), u_n);

  // Inputs this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_i, posted_i, flight_i, acked_i, pending_i, user_i};
endmodule
`default_nettype wire
