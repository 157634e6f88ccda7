// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (tx_probe, test only): copies the transmit state
// into the user state on every call; a timeout marks the window for
// retransmission.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(128)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"
  assign {wnd_we_o, rto_we_o} = '0;
  assign user_we_o       = 1'b1;
  assign mark_we_o       = timeout_i;
  assign timer_restart_o = timeout_i;
  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i, 0, user_t'{seen: tx_t'(tx_i)});
  logic unused_ok;
  assign unused_ok = ^{now_i, wnd_i, posted_i, flight_i, acked_i, pending_i, rto_i, user_i, 32'(RtoMax)};
endmodule
`default_nettype wire
