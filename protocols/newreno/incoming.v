// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (TCP NewReno): stage 2 of the incoming pipeline.
//
// Combinational, one event per cycle; ports per docs/protocol-api.md.
// Reno (protocols/reno) plus RFC 6582 recovery; protocols/newreno/README.md
// has the full table:
//  - 3rd duplicate ack outside recovery and not after an RTO that is not
//    yet recovered (rto_guard): ssthresh = max(flight/2, 2), recover =
//    next_new - 1, mark [wnd_start, wnd_start + 1), cwnd = ssthresh + 3.
//  - duplicate ack in recovery: cwnd += 1.
//  - partial ack (new, wnd_start <= recover): mark [wnd_start, wnd_start + 1),
//    cwnd = max(cwnd - newly acked, 0) + 1, stay in recovery; the first
//    partial ack of a recovery resets the RTO and restarts the timer.
//  - full ack (wnd_start > recover): cwnd = min(ssthresh, max(flight, 1) + 1),
//    leave recovery.
//  - other new acks: slow start / congestion avoidance as Reno.
// Every value output is 0 when its enable is 0; wnd_o is in 1..W.
`default_nettype none
module tonic_proto_incoming #(
  /// Window ring size (segments); a power of two, 8..256.
  parameter int unsigned W = 128,
  /// User-state width; must equal $bits(user_t) of user_configs.vh (31).
  parameter int unsigned UserW = 31,
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
    $fatal(1, "tonic_proto_incoming (newreno): W must be a power of two in 8..256");
  end
  if ($bits(user_t) != UserW) begin : g_check_user
    $fatal(1, "tonic_proto_incoming (newreno): UserW must equal $bits(user_t)");
  end

  // Counts are widened to 10 bits (sums stay below 1024).
  localparam logic [9:0] WMax = 10'(W);
  localparam logic [9:0] SsCap = 10'(SsAckCap);

  user_t              u, u_n;
  logic               new_ack, passed;
  tonic_dd_pkg::seq_t adv;          // wnd_start - old_start
  logic [9:0]         wnd, flight, newly, ssthresh, ca_sum, half, ss_inc, wnd_n;
  logic [9:0]         full_wnd, part_wnd;
  logic [8:0]         flight_half;
  logic [7:0]         rec_left, rec_set;
  assign u           = user_t'(user_i);
  assign new_ack     = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign adv         = wnd_start_i - old_start_i;
  // This ack covers recover: wnd_start > recover = old_start + rec_off.
  assign passed      = new_ack && (adv > 32'(u.rec_off));
  assign rec_left    = u.rec_off - adv[7:0];
  assign wnd         = 10'(wnd_i);
  assign flight      = 10'(flight_i);
  assign newly       = 10'(newly_acked_i);
  assign ssthresh    = 10'(u.ssthresh);
  assign ca_sum      = 10'(u.ca_cnt) + newly;
  assign flight_half = 9'(flight >> 1);
  // max(FlightSize / 2, 2)
  assign half        = (flight_half < 9'd2) ? 10'd2 : 10'(flight_half);
  assign ss_inc      = (newly < SsCap) ? newly : SsCap;
  // recover = next_new - 1, as a distance from wnd_start.
  assign rec_set     = (flight == '0) ? 8'd0 : 8'(flight - 10'd1);
  // Full ack: min(ssthresh, max(FlightSize, 1) + 1).
  assign full_wnd    = (ssthresh < ((flight == '0) ? 10'd2 : flight + 10'd1)) ? ssthresh
                     : (flight == '0) ? 10'd2 : flight + 10'd1;
  // Partial ack: deflate by the newly acked segments, add one back.
  assign part_wnd    = ((wnd > newly) ? wnd - newly : 10'd0) + 10'd1;

  always_comb begin
    u_n             = u;
    wnd_n           = '0;
    wnd_we_o        = 1'b0;
    mark_we_o       = 1'b0;
    rto_we_o        = 1'b0;
    timer_restart_o = 1'b0;
    user_we_o       = 1'b0;
    if (new_ack) begin
      user_we_o    = 1'b1;
      wnd_we_o     = 1'b1;
      u_n.dup_acks = 2'd0;
      if (u.in_rec && passed) begin
        // Full ack: leave recovery.
        wnd_n           = full_wnd;
        u_n.in_rec      = 1'b0;
        u_n.rto_guard   = 1'b0;
        u_n.partial     = 1'b0;
        u_n.ca_cnt      = 9'd0;
        u_n.rec_off     = 8'd0;
        rto_we_o        = 1'b1;
        timer_restart_o = flight_i != '0;
      end else if (u.in_rec) begin
        // Partial ack: retransmit the next hole, stay in recovery.
        mark_we_o   = 1'b1;
        wnd_n       = part_wnd;
        u_n.rec_off = rec_left;
        u_n.partial = 1'b1;
        if (!u.partial) begin
          rto_we_o        = 1'b1;
          timer_restart_o = flight_i != '0;
        end
      end else begin
        rto_we_o        = 1'b1;
        timer_restart_o = flight_i != '0;
        u_n.rto_guard   = u.rto_guard && !passed;
        u_n.rec_off     = (u.rto_guard && !passed) ? rec_left : 8'd0;
        u_n.ca_cnt      = 9'd0;
        if (wnd < ssthresh) begin
          wnd_n = wnd + ss_inc;                // slow start
        end else if (ca_sum >= wnd) begin
          wnd_n      = wnd + 10'd1;            // congestion avoidance: +1
          u_n.ca_cnt = (ca_sum - wnd > 10'd511) ? 9'd511 : 9'(ca_sum - wnd);
        end else begin
          wnd_n      = wnd;
          u_n.ca_cnt = 9'(ca_sum);
        end
      end
    end else if (dup_i) begin
      if (u.in_rec) begin
        wnd_we_o = 1'b1;                       // inflate per dup ack in recovery
        wnd_n    = wnd + 10'd1;
      end else begin
        user_we_o    = 1'b1;
        u_n.dup_acks = (u.dup_acks == 2'd3) ? 2'd3 : u.dup_acks + 2'd1;
        if (u.dup_acks == 2'd2 && !u.rto_guard) begin
          // 3rd dup ack: fast retransmit, enter recovery.
          wnd_we_o     = 1'b1;
          mark_we_o    = 1'b1;
          u_n.in_rec   = 1'b1;
          u_n.partial  = 1'b0;
          u_n.ssthresh = 9'(half);
          u_n.ca_cnt   = 9'd0;
          u_n.rec_off  = rec_set;
          wnd_n        = half + 10'd3;
        end
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
