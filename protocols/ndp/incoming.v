// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (NDP sender): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md;
// protocols/ndp/README.md has the table. Credit scheme: tokens.
//  - NACK (the switch trimmed segment sack_idx_i; sack_valid_i is 0 because
//    it was not received): mark [sack_idx, sack_idx + 1) for retransmission
//    and restart the timer (the header came back: nothing is lost). The
//    retransmission waits for a token like any segment; the engine sends
//    pending retransmissions before new data.
//  - New ack (any event that moves wnd_start): restart the timer; after a
//    timeout (user bit backoff) also reset the RTO to RtoInit.
//  - PULL: nothing here; the fixed function turns the cumulative pull
//    number into tokens. No congestion window, no rate.
// Every value output is 0 when its enable is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(1)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"

  user_t u, u_n;
  logic  new_ack, nack;
  assign u       = user_t'(user_i);
  assign new_ack = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign nack    = type_i == tonic_dd_pkg::RxNack;

  always_comb begin
    u_n         = u;
    u_n.backoff = 1'b0;
    `TONIC_USER_PAD_ROTATE(u_n, u)
  end

  assign wnd_we_o        = 1'b0;
  assign mark_we_o       = nack;
  assign rto_we_o        = new_ack && u.backoff;
  assign user_we_o       = new_ack && u.backoff;
  assign timer_restart_o = (new_ack || nack) && (flight_i != '0);
  assign {rate_we_o, tokens_we_o} = '0;
  `TONIC_PROTO_DRIVE_CREDIT(0, 0);
  `TONIC_PROTO_DRIVE_VALUES(1, sack_idx_i, sack_idx_i + 32'd1, 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i, now_i, wnd_i, next_new_i, posted_i, acked_i, pending_i, rto_i, cum_ack_i,
                       sack_valid_i, ecn_i, grant_i, newly_acked_i, dup_i, 32'(RtoMax),
                       32'(RtoTokens)};
endmodule
`default_nettype wire
