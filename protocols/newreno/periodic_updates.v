// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (TCP NewReno): runs on each periodic visit of a flow.
//
// Combinational; ports per docs/protocol-api.md. Only a retransmission
// timeout does anything: as Reno (ssthresh = max(flight/2, 2), cwnd = 1,
// mark [wnd_start, wnd_start + 1), rto = min(2 * rto, RtoMax), timer
// restarted) plus RFC 6582: recover = next_new - 1, leave recovery, and no
// fast retransmit until an ack passes recover (rto_guard). Without
// timeout_i every enable (and every value output) is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(87)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"

  `include "tonic_proto_recovery.svh"

  user_t u_n;
  always_comb begin
    u_n           = user_t'(user_i);
    `TONIC_REC_TIMEOUT(tonic_proto_pkg::half_flight(10'(flight_i)))
    `TONIC_USER_PAD_ROTATE(u_n, u_n)
  end

  assign {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = {5{timeout_i}};
  `TONIC_PROTO_NO_CREDIT;
  // Go back N: everything in flight is marked (the engine resends the
  // marked segments as the window of 1 reopens in slow start).
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i,
                            tonic_proto_pkg::rto_backoff(rto_i, 32'(RtoMax)), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_i, posted_i, acked_i, pending_i, 32'(SsAckCap), 32'(RttKarn), 32'(ByteCounting)};
endmodule
`default_nettype wire
