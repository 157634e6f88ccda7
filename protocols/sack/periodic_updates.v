// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (TCP SACK, RFC 6675): runs on each periodic visit.
//
// Combinational; ports per docs/protocol-api.md. Only a retransmission
// timeout does anything: ssthresh = max(flight/2, 2), cwnd = 1, mark
// [wnd_start, next_new) (every unacked segment: SACKed ones are kept),
// rto = min(2 * rto, RtoMax), timer restarted, recovery left,
// RecoveryPoint = next_new - 1 and no new recovery until an ack passes it
// (rto_guard, RFC 6675 section 5.1), high_off, rtx_off and rescued
// cleared (they live only in recovery). The SACK record is kept. Without
// timeout_i every enable (and every value output) is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_periodic #(`TONIC_PROTO_PARAMS(129)) (`TONIC_PROTO_PERIODIC_PORTS);
  `include "tonic_proto_config.svh"

  user_t u_n;
  always_comb begin
    u_n           = user_t'(user_i);
    u_n.dup_acks  = 2'd0;
    u_n.in_rec    = 1'b0;
    u_n.rto_guard = 1'b1;
    u_n.ssthresh  = 9'(tonic_proto_pkg::half_flight(10'(flight_i)));
    u_n.ca_cnt    = 9'd0;
    u_n.high_off  = 8'd0;
    u_n.rtx_off   = 8'd0;
    u_n.rescued   = 1'b0;
    u_n.rec_off   = tonic_proto_pkg::rec_offset(10'(flight_i));  // RecoveryPoint = next_new - 1
  end

  assign {wnd_we_o, mark_we_o, rto_we_o, timer_restart_o, user_we_o} = {5{timeout_i}};
  `TONIC_PROTO_NO_CREDIT;
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i,
                            tonic_proto_pkg::rto_backoff(rto_i, 32'(RtoMax)), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_i, posted_i, acked_i, pending_i, 32'(SsAckCap), 32'(RttKarn), 32'(ByteCounting)};
endmodule
`default_nettype wire
