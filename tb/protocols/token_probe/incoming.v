// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (token_probe, test only): an RxCnp adds its
// cum_ack[15:0] as tokens (16 bits), or with ecn set sets the flow's
// credit to them (a token revocation: tokens_set_o, TONIC_TOKEN_SET), and,
// when cum_ack[31:16] is not 0, also sets the congestion window to that
// many segments (clamped to W). The engine then holds the flow to both
// credits at once: a segment needs a token and room in the window (the
// Ultra Ethernet sender's rule). Nothing else is written.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(1)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"
  assign {mark_we_o, rto_we_o, timer_restart_o, user_we_o, rate_we_o} = '0;
  assign tokens_we_o = type_i == tonic_dd_pkg::RxCnp;
  assign wnd_we_o    = type_i == tonic_dd_pkg::RxCnp && cum_ack_i[31:16] != '0;
  `TONIC_PROTO_DRIVE_CREDIT_SET(0, cum_ack_i[15:0], ecn_i);
  `TONIC_PROTO_DRIVE_VALUES(cum_ack_i[31:16], 0, 0, 0, 0);
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i, now_i, wnd_start_i, wnd_i, next_new_i, posted_i, flight_i, acked_i,
                       pending_i, rto_i, user_i, sack_valid_i, sack_idx_i, grant_i,
                       old_start_i, newly_acked_i, dup_i, 32'(RtoMax)};
endmodule
`default_nettype wire
