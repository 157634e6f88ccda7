// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (tx_probe, test only): copies the transmit state
// into the user state on every event; a NACK marks [sack_idx, sack_idx + 1)
// for retransmission; an event that moves wnd_start restarts the timer.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(128)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"
  logic nack, new_ack;
  assign nack    = type_i == tonic_dd_pkg::RxNack;
  assign new_ack = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign {wnd_we_o, rto_we_o} = '0;
  assign user_we_o       = 1'b1;
  assign mark_we_o       = nack;
  assign timer_restart_o = (new_ack || nack) && flight_i != '0;
  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(1, sack_idx_i, sack_idx_i + 32'd1, 0, user_t'{seen: tx_t'(tx_i)});
  logic unused_ok;
  assign unused_ok = ^{info_i, now_i, wnd_i, next_new_i, posted_i, acked_i, pending_i, rto_i, user_i,
                       cum_ack_i, sack_valid_i, ecn_i, grant_i, newly_acked_i, dup_i, 32'(RtoMax)};
endmodule
`default_nettype wire
