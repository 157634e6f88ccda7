// SPDX-License-Identifier: Apache-2.0
// tonic_proto_ports.svh: the fixed parameter and port lists of the two
// protocol modules (docs/protocol-api.md has the port tables), and the
// driver of their value outputs, as macros. A protocol file reads
//
//   `include "tonic_proto_ports.svh"
//   module tonic_proto_incoming #(`TONIC_PROTO_PARAMS(20)) (`TONIC_PROTO_INCOMING_PORTS);
//     `include "tonic_proto_config.svh"
//     ... enables and values ...
//     `TONIC_PROTO_DRIVE_VALUES(wnd_n, mark_lo, mark_hi, rto, u_n);
//   endmodule
//
// and periodic_updates.v the same with tonic_proto_periodic and
// TONIC_PROTO_PERIODIC_PORTS. The DD engine instantiates both modules by
// name with named ports. Found through the include dir rtl/dd (include_dirs
// of the tonic_top and tonic_proto file sets, rtl/manifest/tonic.json).
`ifndef TONIC_PROTO_PORTS_SVH
`define TONIC_PROTO_PORTS_SVH

// TONIC_PROTO_PARAMS(user_w): W, the window ring size (a power of two,
// 8..256); UserW, the user-state width, by default user_w, which must equal
// $bits(user_t) of the protocol's user_configs.vh (tonic_proto_config.svh
// checks both); TxW, the width of the transmit state (tx_t of a protocol
// with a transmit.v, 1 otherwise, tx_i then reads 0); CntW, the width of a
// count 0..W (not to be overridden).
`define TONIC_PROTO_PARAMS(user_w) \
  parameter  int unsigned W     = 128, \
  parameter  int unsigned UserW = user_w, \
  parameter  int unsigned TxW   = 1, \
  localparam int unsigned CntW  = $clog2(W) + 1

// Inputs of both modules: the flow's state.
`define TONIC_PROTO_STATE_INPUTS \
  input  wire logic [31:0]            now_i, \
  input  wire tonic_dd_pkg::seq_t     wnd_start_i, \
  input  wire logic [CntW-1:0]        wnd_i, \
  input  wire tonic_dd_pkg::seq_t     next_new_i, \
  input  wire tonic_dd_pkg::seq_t     posted_i, \
  input  wire logic [CntW-1:0]        flight_i, \
  input  wire logic [W-1:0]           acked_i, \
  input  wire logic [W-1:0]           pending_i, \
  input  wire logic [31:0]            rto_i, \
  input  wire logic [UserW-1:0]       user_i, \
  input  wire logic [TxW-1:0]         tx_i,

// Outputs of both modules: each write with its enable.
`define TONIC_PROTO_WRITE_OUTPUTS \
  output logic                        wnd_we_o, \
  output logic [CntW-1:0]             wnd_o, \
  output logic                        mark_we_o, \
  output tonic_dd_pkg::seq_t          mark_lo_o, \
  output tonic_dd_pkg::seq_t          mark_hi_o, \
  output logic                        rto_we_o, \
  output logic [31:0]                 rto_o, \
  output logic                        timer_restart_o, \
  output logic                        user_we_o, \
  output logic [UserW-1:0]            user_o, \
  output logic                        rate_we_o, \
  output logic [31:0]                 rate_o, \
  output logic                        tokens_we_o, \
  output logic [15:0]                 tokens_o, \
  output logic                        tokens_set_o

// tonic_proto_incoming: the state, the event and the stage-1 results.
`define TONIC_PROTO_INCOMING_PORTS \
  `TONIC_PROTO_STATE_INPUTS \
  input  wire tonic_dd_pkg::rx_type_e type_i, \
  input  wire tonic_dd_pkg::seq_t     cum_ack_i, \
  input  wire logic                   sack_valid_i, \
  input  wire tonic_dd_pkg::seq_t     sack_idx_i, \
  input  wire logic                   ecn_i, \
  input  wire logic [15:0]            grant_i, \
  input  wire tonic_dd_pkg::seq_t     old_start_i, \
  input  wire logic [CntW-1:0]        newly_acked_i, \
  input  wire logic                   dup_i, \
  input  wire tonic_dd_pkg::ev_info_t info_i, \
  `TONIC_PROTO_WRITE_OUTPUTS

// tonic_proto_periodic: the state and the timer.
`define TONIC_PROTO_PERIODIC_PORTS \
  `TONIC_PROTO_STATE_INPUTS \
  input  wire logic                   timeout_i, \
  `TONIC_PROTO_WRITE_OUTPUTS

// tonic_proto_transmit (the optional transmit.v): TxW, the width of the
// protocol's tx_t; the segment that left and the flow's transmit state;
// the new transmit state and its enable. Its parameter list is
// TONIC_PROTO_TX_PARAMS.
`define TONIC_PROTO_TX_PARAMS \
  parameter  int unsigned TxW = 1

`define TONIC_PROTO_TRANSMIT_PORTS \
  input  wire logic [31:0]            now_i, \
  input  wire tonic_dd_pkg::flow_id_t flow_i, \
  input  wire tonic_dd_pkg::seq_t     idx_i, \
  input  wire logic                   rtx_i, \
  input  wire logic [15:0]            len_i, \
  input  wire tonic_dd_pkg::ts_t      ts_i, \
  input  wire logic [TxW-1:0]         tx_i, \
  output logic                        tx_we_o, \
  output logic [TxW-1:0]              tx_o

// TONIC_PROTO_DRIVE_VALUES(wnd_v, lo_v, hi_v, rto_v, user_v): the value
// outputs from the module's values, each 0 while its enable is 0 (the form
// the unit tests check): wnd_o = wnd_v clamped to 1..W, mark_lo_o / mark_hi_o
// = lo_v / hi_v, rto_o = rto_v, user_o = user_v. The enables (wnd_we_o,
// mark_we_o, rto_we_o, timer_restart_o, user_we_o) are the module's own.
`define TONIC_PROTO_DRIVE_VALUES(wnd_v, lo_v, hi_v, rto_v, user_v) \
  assign wnd_o     = wnd_we_o  ? CntW'(tonic_proto_pkg::clamp_wnd(32'(wnd_v), W)) : '0; \
  assign mark_lo_o = mark_we_o ? (lo_v) : '0; \
  assign mark_hi_o = mark_we_o ? (hi_v) : '0; \
  assign rto_o     = rto_we_o  ? (rto_v) : '0; \
  assign user_o    = user_we_o ? UserW'(user_v) : '0

// TONIC_PROTO_DRIVE_CREDIT(rate_v, tokens_v): the credit outputs of the
// rate and token schemes (docs/design/credit-schemes.md), each 0 while its
// enable is 0: rate_o = rate_v, the flow's new rate in RU (bytes per 2^20
// cycles), applied by the CR engine without losing or double-counting
// credit; tokens_o = tokens_v, tokens added to the flow (token scheme,
// e.g. one per segment marked on a timeout); tokens_set_o = 0. The enables
// (rate_we_o, tokens_we_o) are the module's own.
`define TONIC_PROTO_DRIVE_CREDIT(rate_v, tokens_v) \
  `TONIC_PROTO_DRIVE_CREDIT_SET(rate_v, tokens_v, 1'b0)

// TONIC_PROTO_DRIVE_CREDIT_SET(rate_v, tokens_v, set_v): the same, and
// tokens_set_o = tokens_we_o && set_v: the write sets the flow's credit to
// tokens_v instead of adding, counting the segments already queued (a
// token revocation; honoured by a protocol whose user_configs.vh defines
// TONIC_TOKEN_SET, an add otherwise: docs/design/credit-schemes.md).
`define TONIC_PROTO_DRIVE_CREDIT_SET(rate_v, tokens_v, set_v) \
  assign rate_o       = rate_we_o   ? 32'(rate_v) : '0; \
  assign tokens_o     = tokens_we_o ? 16'(tokens_v) : '0; \
  assign tokens_set_o = tokens_we_o && (set_v)

// TONIC_USER_PAD_ROTATE(dst, src): a statement for the user-state cost
// builds (a protocol.json build with define TONIC_CFG_USER_BYTES pads
// user_t with a field `pad` to that many bytes): dst.pad = src.pad rotated
// right by one bit, so that synthesis must keep the padding as state (a
// padding written back unchanged is removed as a no-op feedback). Nothing
// in every other build. For an always_comb block that writes the user
// state.
`ifdef TONIC_CFG_USER_BYTES
`define TONIC_USER_PAD_ROTATE(dst, src) dst.pad = {src.pad[0], src.pad[$bits(src.pad)-1:1]};
`else
`define TONIC_USER_PAD_ROTATE(dst, src)
`endif

// TONIC_PROTO_NO_CREDIT: a protocol that never writes rate or tokens (the
// window scheme) drives every credit output to 0.
`define TONIC_PROTO_NO_CREDIT \
  assign {rate_we_o, tokens_we_o} = '0; \
  `TONIC_PROTO_DRIVE_CREDIT(0, 0)

`endif  // TONIC_PROTO_PORTS_SVH
