// SPDX-License-Identifier: Apache-2.0
// tonic_proto_harness: the protocol interface of docs/protocol-api.md as
// code, for scripts/check-protocol. It instantiates a protocol's
// tonic_proto_incoming and tonic_proto_periodic exactly as the DD engine
// does (tonic_dd_incoming2 and tonic_dd_periodic: by name, every port
// connected by name, W, UserW and TxW passed), and the optional
// tonic_proto_transmit as tonic_dd_transmit does, so that
// `verilator --lint-only -Wall` and Yosys read_slang reject a protocol whose
// modules lack a port (PINNOTFOUND), have a port the engine does not
// connect (PINMISSING), give a port another width (WIDTH) or a module
// another name. All outputs of both modules leave through in_o / per_o, so
// nothing is optimized away and every output must be driven.
//
// Not a part of the sender: no manifest config, no model; the checker
// elaborates it with the protocol's include dir (for user_configs.vh) and
// -G W=<window> -G UserW=<the protocol's TONIC_PROTO_PARAMS(n)>.
`default_nettype none
`include "tonic_proto_ports.svh"

module tonic_proto_harness #(
  /// Window ring size, as tonic_top's Window (a power of two, 8..256).
  parameter  int unsigned W     = 128,
  /// The protocol's user-state width (its TONIC_PROTO_PARAMS(n)).
  parameter  int unsigned UserW = 1,
  /// The protocol's transmit-state width ($bits(tx_t) with a transmit.v,
  /// which the checker then compiles with TONIC_PROTO_TRANSMIT defined; 1
  /// without).
  parameter  int unsigned TxW   = 1,
  localparam int unsigned CntW  = $clog2(W) + 1,
  /// Width of one module's outputs, concatenated in port order.
  localparam int unsigned OutW  = 1 + CntW + 1 + 32 + 32 + 1 + 32 + 1 + 1 + UserW + 1 + 32 + 1 + 16 + 1
) (
  `TONIC_PROTO_STATE_INPUTS
  input  wire tonic_dd_pkg::rx_type_e type_i,
  input  wire tonic_dd_pkg::seq_t     cum_ack_i,
  input  wire logic                   sack_valid_i,
  input  wire tonic_dd_pkg::seq_t     sack_idx_i,
  input  wire logic                   ecn_i,
  input  wire logic [15:0]            grant_i,
  input  wire tonic_dd_pkg::seq_t     old_start_i,
  input  wire logic [CntW-1:0]        newly_acked_i,
  input  wire logic                   dup_i,
  input  wire tonic_dd_pkg::ev_info_t info_i,
  input  wire logic                   timeout_i,
  /// tonic_proto_incoming's outputs, {wnd_we, wnd, mark_we, mark_lo, mark_hi,
  /// rto_we, rto, timer_restart, user_we, user, rate_we, rate, tokens_we, tokens,
  /// tokens_set}.
  output logic [OutW-1:0]             in_o,
  /// tonic_proto_periodic's outputs, in the same order.
  output logic [OutW-1:0]             per_o,
  /// The transmit event's inputs (tonic_proto_transmit, when the protocol
  /// has one) ...
  input  wire logic [15:0]            tx_flow_i,
  input  wire tonic_dd_pkg::seq_t     tx_idx_i,
  input  wire logic                   tx_rtx_i,
  input  wire logic [15:0]            tx_len_i,
  input  wire tonic_dd_pkg::ts_t      tx_ts_i,
  /// ... and its outputs {tx_we, tx} (0 without one).
  output logic [TxW:0]                tx_o
);
  logic                in_wnd_we, in_mark_we, in_rto_we, in_restart, in_user_we, in_rate_we, in_tokens_we;
  logic [CntW-1:0]     in_wnd;
  tonic_dd_pkg::seq_t  in_lo, in_hi;
  logic [31:0]         in_rto, in_rate;
  logic [UserW-1:0]    in_user;
  logic [15:0]         in_tokens;
  logic                in_tokens_set;

  tonic_proto_incoming #(
    .W    (W),
    .UserW(UserW),
    .TxW  (TxW)
  ) u_in (
    .now_i          (now_i),
    .wnd_start_i    (wnd_start_i),
    .wnd_i          (wnd_i),
    .next_new_i     (next_new_i),
    .posted_i       (posted_i),
    .flight_i       (flight_i),
    .acked_i        (acked_i),
    .pending_i      (pending_i),
    .rto_i          (rto_i),
    .user_i         (user_i),
    .tx_i           (tx_i),
    .type_i         (type_i),
    .cum_ack_i      (cum_ack_i),
    .sack_valid_i   (sack_valid_i),
    .sack_idx_i     (sack_idx_i),
    .ecn_i          (ecn_i),
    .grant_i        (grant_i),
    .old_start_i    (old_start_i),
    .newly_acked_i  (newly_acked_i),
    .dup_i          (dup_i),
    .info_i         (info_i),
    .wnd_we_o       (in_wnd_we),
    .wnd_o          (in_wnd),
    .mark_we_o      (in_mark_we),
    .mark_lo_o      (in_lo),
    .mark_hi_o      (in_hi),
    .rto_we_o       (in_rto_we),
    .rto_o          (in_rto),
    .timer_restart_o(in_restart),
    .user_we_o      (in_user_we),
    .user_o         (in_user),
    .rate_we_o      (in_rate_we),
    .rate_o         (in_rate),
    .tokens_we_o    (in_tokens_we),
    .tokens_o       (in_tokens),
    .tokens_set_o   (in_tokens_set)
  );
  assign in_o = {in_wnd_we, in_wnd, in_mark_we, in_lo, in_hi, in_rto_we, in_rto, in_restart,
                 in_user_we, in_user, in_rate_we, in_rate, in_tokens_we, in_tokens, in_tokens_set};

  logic                pe_wnd_we, pe_mark_we, pe_rto_we, pe_restart, pe_user_we, pe_rate_we, pe_tokens_we;
  logic [CntW-1:0]     pe_wnd;
  tonic_dd_pkg::seq_t  pe_lo, pe_hi;
  logic [31:0]         pe_rto, pe_rate;
  logic [UserW-1:0]    pe_user;
  logic [15:0]         pe_tokens;
  logic                pe_tokens_set;

  tonic_proto_periodic #(
    .W    (W),
    .UserW(UserW),
    .TxW  (TxW)
  ) u_per (
    .now_i          (now_i),
    .wnd_start_i    (wnd_start_i),
    .wnd_i          (wnd_i),
    .next_new_i     (next_new_i),
    .posted_i       (posted_i),
    .flight_i       (flight_i),
    .acked_i        (acked_i),
    .pending_i      (pending_i),
    .rto_i          (rto_i),
    .user_i         (user_i),
    .tx_i           (tx_i),
    .timeout_i      (timeout_i),
    .wnd_we_o       (pe_wnd_we),
    .wnd_o          (pe_wnd),
    .mark_we_o      (pe_mark_we),
    .mark_lo_o      (pe_lo),
    .mark_hi_o      (pe_hi),
    .rto_we_o       (pe_rto_we),
    .rto_o          (pe_rto),
    .timer_restart_o(pe_restart),
    .user_we_o      (pe_user_we),
    .user_o         (pe_user),
    .rate_we_o      (pe_rate_we),
    .rate_o         (pe_rate),
    .tokens_we_o    (pe_tokens_we),
    .tokens_o       (pe_tokens),
    .tokens_set_o   (pe_tokens_set)
  );
  assign per_o = {pe_wnd_we, pe_wnd, pe_mark_we, pe_lo, pe_hi, pe_rto_we, pe_rto, pe_restart,
                  pe_user_we, pe_user, pe_rate_we, pe_rate, pe_tokens_we, pe_tokens, pe_tokens_set};

`ifdef TONIC_PROTO_TRANSMIT
  logic           tx_we;
  logic [TxW-1:0] tx_n;
  tonic_proto_transmit #(
    .TxW(TxW)
  ) u_tx (
    .now_i  (now_i),
    .flow_i (tx_flow_i),
    .idx_i  (tx_idx_i),
    .rtx_i  (tx_rtx_i),
    .len_i  (tx_len_i),
    .ts_i   (tx_ts_i),
    .tx_i   (tx_i),
    .tx_we_o(tx_we),
    .tx_o   (tx_n)
  );
  assign tx_o = {tx_we, tx_n};
`else
  assign tx_o = '0;
  logic unused_tx;
  assign unused_tx = ^{tx_flow_i, tx_idx_i, tx_rtx_i, tx_len_i, tx_ts_i};
`endif
endmodule

`default_nettype wire
