// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (rate_probe, test only): writes nothing.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(1)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"
  assign {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = '0;
  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(1, 0, 0, 0, 0);
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_start_i, wnd_i, next_new_i, posted_i, flight_i, acked_i,
                       pending_i, rto_i, user_i, timeout_i, 32'(RtoMax)};
endmodule
`default_nettype wire
