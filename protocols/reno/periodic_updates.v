// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (TCP Reno): runs on each periodic visit of a flow.
//
// Combinational; ports per docs/protocol-api.md. Only a retransmission
// timeout does anything: ssthresh = max(flight/2, 2), cwnd = 1,
// mark [wnd_start, wnd_start + 1), rto = min(2 * rto, RtoMax), timer
// restarted, fast recovery left (dup_acks = 0, ca_cnt = 0). Without
// timeout_i every enable (and every value output) is 0.
`default_nettype none
module tonic_proto_periodic #(
  /// Window ring size (segments); a power of two, 8..256.
  parameter int unsigned W = 128,
  /// User-state width; must equal $bits(user_t) of user_configs.vh (20).
  parameter int unsigned UserW = 20,
  /// Count width, holds 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1
) (
  input  wire logic [31:0]        now_i,        // current cycle (unused)
  input  wire tonic_dd_pkg::seq_t wnd_start_i,  // window start
  input  wire logic [CntW-1:0]    wnd_i,        // cwnd (unused)
  input  wire tonic_dd_pkg::seq_t next_new_i,   // next never-sent segment (unused)
  input  wire tonic_dd_pkg::seq_t posted_i,     // one past the last posted segment (unused)
  input  wire logic [CntW-1:0]    flight_i,     // next_new - wnd_start
  input  wire logic [W-1:0]       acked_i,      // SACKed ring (unused)
  input  wire logic [W-1:0]       pending_i,    // pending retransmissions (unused)
  input  wire logic [31:0]        rto_i,        // current RTO (cycles)
  input  wire logic [UserW-1:0]   user_i,       // user state
  input  wire logic               timeout_i,    // the retransmission timer expired
  output logic                    wnd_we_o,
  output logic [CntW-1:0]         wnd_o,
  output logic                    mark_we_o,
  output tonic_dd_pkg::seq_t      mark_lo_o,
  output tonic_dd_pkg::seq_t      mark_hi_o,
  output logic                    rto_we_o,
  output logic [31:0]             rto_o,
  output logic                    timer_restart_o,
  output logic                    user_we_o,
  output logic [UserW-1:0]        user_o
);
  `define TONIC_PROTO_MODULE
  `include "user_configs.vh"
  `undef TONIC_PROTO_MODULE

  if (W < 8 || W > 256 || (W & (W - 1)) != 0) begin : g_check_w
    $fatal(1, "tonic_proto_periodic (reno): W must be a power of two in 8..256");
  end
  if ($bits(user_t) != UserW) begin : g_check_user
    $fatal(1, "tonic_proto_periodic (reno): UserW must equal $bits(user_t)");
  end

  user_t       u, u_n;
  logic [8:0]  half;      // max(FlightSize / 2, 2)
  logic [32:0] rto_dbl;   // 2 * rto, 33 bits
  assign u       = user_t'(user_i);
  assign half    = ((9'(flight_i) >> 1) < 9'd2) ? 9'd2 : 9'(flight_i) >> 1;
  assign rto_dbl = {rto_i, 1'b0};

  always_comb begin
    u_n          = u;
    u_n.dup_acks = 2'd0;
    u_n.ssthresh = half;
    u_n.ca_cnt   = 9'd0;
  end

  assign wnd_we_o        = timeout_i;
  assign mark_we_o       = timeout_i;
  assign rto_we_o        = timeout_i;
  assign timer_restart_o = timeout_i;
  assign user_we_o       = timeout_i;
  assign wnd_o           = timeout_i ? CntW'(1) : '0;
  assign mark_lo_o       = timeout_i ? wnd_start_i : '0;
  assign mark_hi_o       = timeout_i ? wnd_start_i + 32'd1 : '0;
  assign rto_o           = !timeout_i ? '0
                         : (rto_dbl > 33'(RtoMax)) ? 32'(RtoMax) : rto_dbl[31:0];
  assign user_o          = timeout_i ? UserW'(u_n) : '0;

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{now_i, wnd_i, next_new_i, posted_i, acked_i, pending_i, CreditScheme,
                       UserInit, 32'(InitWnd), 32'(RtoInit), 32'(RtoMin), 32'(SsAckCap),
                       UserIncomingWins};
endmodule
`default_nettype wire
