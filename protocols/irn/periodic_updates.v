// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (IRN): runs on every periodic visit of a present
// flow (rate scheme: not only while the timer is armed).
//
// Combinational; ports per docs/protocol-api.md. Only a retransmission
// timeout (timeout_i) does anything: go back to the first unacked segment
// and resend every unSACKed one, i.e. mark [wnd_start, next_new) (the
// engine skips SACKed segments); rto = RtoLow if flight <= RtoLowFlight
// else RtoHigh (IRN's two fixed timeouts, no back-off); restart the timer;
// recovery with the recovery point next_new - 1 and everything up to
// next_new marked, so that later NACKs mark only segments sent after the
// timeout. Without timeout_i every enable (and every value output) is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(18)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"

  user_t u, u_n;
  assign u = user_t'(user_i);
  always_comb begin
    u_n          = u;
    u_n.in_rec   = 1'b1;
    u_n.rec_off  = tonic_proto_pkg::rec_offset(10'(flight_i));
    u_n.high_off = 9'(flight_i);
    `TONIC_USER_PAD_ROTATE(u_n, u)
  end

  assign wnd_we_o = 1'b0;
  assign {mark_we_o, rto_we_o, timer_restart_o, user_we_o} = {4{timeout_i}};
  assign {rate_we_o, tokens_we_o} = '0;
  `TONIC_PROTO_DRIVE_CREDIT(0, 0);
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i,
                            (32'(flight_i) <= 32'(RtoLowFlight)) ? 32'(RtoLow) : 32'(RtoHigh),
                            u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_i, posted_i, acked_i, pending_i, rto_i, user_i, 32'(RtoMax)};
endmodule
`default_nettype wire
