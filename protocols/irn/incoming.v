// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (IRN): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md;
// protocols/irn/README.md has the table. Credit scheme: rate (fixed at
// RateInit) under the BDP window (fixed at InitWnd): this module never
// writes wnd, rate or tokens.
//  - NACK (type NACK with sack_valid_i: cum_ack_i is the receiver's
//    cumulative ack, sack_idx_i the PSN that arrived out of order; stage 1
//    already SACKed it): every unacked segment below it is lost. Mark the
//    gap [max(wnd_start, end of the last mark), sack_idx) once (the engine
//    skips SACKed segments) and enter recovery if not in it (recovery
//    point = next_new - 1).
//  - New ack (wnd_start moved, any type): rto = RtoLow if flight <=
//    RtoLowFlight else RtoHigh, restart the timer; the offsets age;
//    recovery ends when the cumulative ack passes the recovery point.
// Every value output is 0 when its enable is 0.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(18)) (`TONIC_PROTO_INCOMING_PORTS);
  `include "tonic_proto_config.svh"

  user_t              u, u_n;
  logic               new_ack, passed, in_rec, gap;
  logic [9:0]         adv;        // wnd_start - old_start (0..W: low bits suffice)
  logic [9:0]         dadv;       // adv if this is a new ack, else 0
  tonic_dd_pkg::seq_t off;        // sack_idx - wnd_start
  logic [8:0]         high_aged;  // high_off in the new window
  logic [8:0]         lo;         // start of the gap to mark - wnd_start
  assign u         = user_t'(user_i);
  // The engine's stage 1 only moves the window forward, by at most W
  // (<= 256): the difference of the low 10 bits is the whole advance, and
  // a new ack is one that moved it (a short carry chain, not 32 bits).
  assign adv       = wnd_start_i[9:0] - old_start_i[9:0];
  assign new_ack   = adv != '0;
  assign dadv      = new_ack ? adv : '0;
  // This ack passes the recovery point = old_start + rec_off.
  assign passed    = new_ack && (adv > 10'(u.rec_off));
  assign in_rec    = u.in_rec && !passed;
  assign high_aged = (dadv <= 10'(u.high_off)) ? u.high_off - dadv[8:0] : 9'd0;
  assign lo        = high_aged;  // kept across recoveries: a segment is marked once per NACK run
  // A NACK names a segment in flight above the gap: in [wnd_start,
  // next_new), tested on next_new - wnd_start (the flight, from inputs that
  // come straight from registers) rather than on flight_i.
  assign off       = sack_idx_i - wnd_start_i;
  assign gap       = (type_i == tonic_dd_pkg::RxNack) && sack_valid_i
                  && (off < next_new_i - wnd_start_i) && (off[8:0] > lo);

  always_comb begin
    `TONIC_USER_PAD_ROTATE(u_n, u)
    u_n.in_rec   = in_rec;
    u_n.rec_off  = in_rec ? u.rec_off - adv[7:0] : 8'd0;
    u_n.high_off = high_aged;
    if (gap) begin
      u_n.high_off = off[8:0];
      if (!in_rec) begin
        u_n.in_rec  = 1'b1;
        u_n.rec_off = tonic_proto_pkg::rec_offset(10'(flight_i));  // next_new - 1
      end
    end
  end

  assign wnd_we_o        = 1'b0;
  assign mark_we_o       = gap;
  assign rto_we_o        = new_ack;
  assign timer_restart_o = new_ack && (flight_i != '0);
  assign user_we_o       = gap || new_ack;
  assign {rate_we_o, tokens_we_o} = '0;
  `TONIC_PROTO_DRIVE_CREDIT(0, 0);
  `TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i + 32'(lo), sack_idx_i,
                            (32'(flight_i) <= 32'(RtoLowFlight)) ? 32'(RtoLow) : 32'(RtoHigh),
                            u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i, now_i, wnd_i, posted_i, acked_i, pending_i, rto_i, cum_ack_i,
                       ecn_i, grant_i, newly_acked_i, dup_i, old_start_i[31:10], 32'(RtoMax)};
endmodule
`default_nettype wire
