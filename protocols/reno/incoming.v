// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (TCP Reno): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// Rules (protocols/reno/README.md has the full table):
//  - new ack (wnd_start moved): leaving fast recovery -> cwnd = ssthresh;
//    else slow start (cwnd < ssthresh): cwnd += min(newly acked, SsAckCap);
//    else congestion avoidance: +1 per cwnd segments acked (ca_cnt).
//    dup_acks = 0, rto = RtoInit, timer restarted (if data is in flight).
//  - duplicate ack: dup_acks++; on the 3rd: ssthresh = max(flight/2, 2),
//    mark [wnd_start, wnd_start + 1), cwnd = ssthresh + 3; beyond: cwnd += 1.
// Every value output is 0 when its enable is 0; wnd_o is in 1..W.
`default_nettype none
module tonic_proto_incoming #(
  /// Window ring size (segments); a power of two, 8..256.
  parameter int unsigned W = 128,
  /// User-state width; must equal $bits(user_t) of user_configs.vh (20).
  parameter int unsigned UserW = 20,
  /// Count width, holds 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1
) (
  input  wire logic [31:0]            now_i,          // current cycle (unused)
  input  wire tonic_dd_pkg::seq_t     wnd_start_i,    // window start after this event
  input  wire logic [CntW-1:0]        wnd_i,          // cwnd (segments), 1..W
  input  wire tonic_dd_pkg::seq_t     next_new_i,     // next never-sent segment (unused)
  input  wire tonic_dd_pkg::seq_t     posted_i,       // one past the last posted segment (unused)
  input  wire logic [CntW-1:0]        flight_i,       // next_new - wnd_start
  input  wire logic [W-1:0]           acked_i,        // SACKed ring (unused)
  input  wire logic [W-1:0]           pending_i,      // pending retransmissions (unused)
  input  wire logic [31:0]            rto_i,          // current RTO (unused)
  input  wire logic [UserW-1:0]       user_i,         // user state
  input  wire tonic_dd_pkg::rx_type_e type_i,         // event type (unused: see README)
  input  wire tonic_dd_pkg::seq_t     cum_ack_i,      // cumulative ack (unused: wnd_start_i)
  input  wire logic                   sack_valid_i,   // (unused)
  input  wire tonic_dd_pkg::seq_t     sack_idx_i,     // (unused)
  input  wire logic                   ecn_i,          // (unused)
  input  wire logic [15:0]            grant_i,        // (unused)
  input  wire tonic_dd_pkg::seq_t     old_start_i,    // window start before this event
  input  wire logic [CntW-1:0]        newly_acked_i,  // segments acked by this event
  input  wire logic                   dup_i,          // duplicate ack
  output logic                        wnd_we_o,
  output logic [CntW-1:0]             wnd_o,
  output logic                        mark_we_o,
  output tonic_dd_pkg::seq_t          mark_lo_o,
  output tonic_dd_pkg::seq_t          mark_hi_o,
  output logic                        rto_we_o,
  output logic [31:0]                 rto_o,
  output logic                        timer_restart_o,
  output logic                        user_we_o,
  output logic [UserW-1:0]            user_o
);
  `define TONIC_PROTO_MODULE
  `include "user_configs.vh"
  `undef TONIC_PROTO_MODULE

  if (W < 8 || W > 256 || (W & (W - 1)) != 0) begin : g_check_w
    $fatal(1, "tonic_proto_incoming (reno): W must be a power of two in 8..256");
  end
  if ($bits(user_t) != UserW) begin : g_check_user
    $fatal(1, "tonic_proto_incoming (reno): UserW must equal $bits(user_t)");
  end

  // Counts are widened to 10 bits (sums stay below 1024).
  localparam logic [9:0] WMax = 10'(W);
  localparam logic [9:0] SsCap = 10'(SsAckCap);

  user_t      u, u_n;
  logic       new_ack;
  logic [9:0] wnd, newly, ssthresh, ca_sum, half, ss_inc, wnd_n;
  logic [8:0] flight_half;
  assign u        = user_t'(user_i);
  assign new_ack  = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign wnd      = 10'(wnd_i);
  assign flight_half = 9'(10'(flight_i) >> 1);
  assign newly    = 10'(newly_acked_i);
  assign ssthresh = 10'(u.ssthresh);
  assign ca_sum   = 10'(u.ca_cnt) + newly;
  // max(FlightSize / 2, 2)
  assign half     = (flight_half < 9'd2) ? 10'd2 : 10'(flight_half);
  assign ss_inc   = (newly < SsCap) ? newly : SsCap;

  always_comb begin
    u_n             = u;
    wnd_n           = '0;
    wnd_we_o        = 1'b0;
    mark_we_o       = 1'b0;
    rto_we_o        = 1'b0;
    timer_restart_o = 1'b0;
    user_we_o       = 1'b0;
    if (new_ack) begin
      user_we_o       = 1'b1;
      wnd_we_o        = 1'b1;
      rto_we_o        = 1'b1;
      timer_restart_o = flight_i != '0;
      u_n.dup_acks    = 2'd0;
      u_n.ca_cnt      = 9'd0;
      if (u.dup_acks == 2'd3) begin
        wnd_n = ssthresh;                      // leave fast recovery
      end else if (wnd < ssthresh) begin
        wnd_n = wnd + ss_inc;                  // slow start
      end else if (ca_sum >= wnd) begin
        wnd_n      = wnd + 10'd1;              // congestion avoidance: +1
        u_n.ca_cnt = (ca_sum - wnd > 10'd511) ? 9'd511 : 9'(ca_sum - wnd);
      end else begin
        wnd_n      = wnd;
        u_n.ca_cnt = 9'(ca_sum);
      end
    end else if (dup_i) begin
      if (u.dup_acks == 2'd3) begin
        wnd_we_o = 1'b1;                       // inflate per further dup ack
        wnd_n    = wnd + 10'd1;
      end else if (u.dup_acks == 2'd2) begin
        user_we_o    = 1'b1;                   // 3rd dup ack: fast retransmit
        wnd_we_o     = 1'b1;
        mark_we_o    = 1'b1;
        u_n.dup_acks = 2'd3;
        u_n.ssthresh = 9'(half);
        u_n.ca_cnt   = 9'd0;
        wnd_n        = half + 10'd3;
      end else begin
        user_we_o    = 1'b1;
        u_n.dup_acks = u.dup_acks + 2'd1;
      end
    end
  end

  // Value outputs: 0 unless enabled; cwnd clamped to 1..W.
  logic [CntW-1:0] wnd_c;
  assign wnd_c     = (wnd_n == '0) ? CntW'(1) : (wnd_n > WMax) ? CntW'(W) : CntW'(wnd_n);
  assign wnd_o     = wnd_we_o ? wnd_c : '0;
  assign mark_lo_o = mark_we_o ? wnd_start_i : '0;
  assign mark_hi_o = mark_we_o ? wnd_start_i + 32'd1 : '0;
  assign rto_o     = rto_we_o ? 32'(RtoInit) : '0;
  assign user_o    = user_we_o ? UserW'(u_n) : '0;

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{now_i, next_new_i, posted_i, acked_i, pending_i, rto_i, type_i,
                       cum_ack_i, sack_valid_i, sack_idx_i, ecn_i, grant_i, CreditScheme,
                       UserInit, 32'(InitWnd), 32'(RtoMin), 32'(RtoMax), UserIncomingWins};
endmodule
`default_nettype wire
