// SPDX-License-Identifier: Apache-2.0
// tonic_proto_config.svh: included first in the body of tonic_proto_incoming
// and tonic_proto_periodic (docs/protocol-api.md). It
//  - includes the protocol's user_configs.vh (found through the protocol's
//    include dir) with TONIC_PROTO_MODULE defined, so that UserW stays the
//    module parameter of TONIC_PROTO_PARAMS;
//  - stops the elaboration unless W is a power of two in 8..256, UserW
//    equals $bits(user_t) and TxW equals $bits(tx_t) (1 for a protocol
//    without transmit.v: the build defines TONIC_PROTO_TRANSMIT exactly
//    when the protocol folder has one);
//  - marks the configuration the engine alone reads as used (lint).
// No include guard on purpose: every protocol module includes it once.
`define TONIC_PROTO_MODULE
`include "user_configs.vh"
`undef TONIC_PROTO_MODULE

if (W < 8 || W > 256 || (W & (W - 1)) != 0) begin : g_check_w
  $fatal(1, "tonic_proto: W must be a power of two in 8..256");
end
if ($bits(user_t) != UserW) begin : g_check_user
  $fatal(1, "tonic_proto: UserW must equal $bits(user_t) of user_configs.vh");
end
`ifdef TONIC_PROTO_TRANSMIT
if ($bits(tx_t) != TxW) begin : g_check_tx
  $fatal(1, "tonic_proto: TxW must equal $bits(tx_t) of user_configs.vh");
end
`else
if (TxW != 1) begin : g_check_tx
  $fatal(1, "tonic_proto: TxW must be 1 without a transmit.v (TONIC_PROTO_TRANSMIT)");
end
`endif
if (UserW > tonic_dd_pkg::UserWMax) begin : g_check_user_max
  $fatal(1, "tonic_proto: the user state is wider than the engine takes (tonic_dd_pkg::UserWMax)");
end

// Read by the DD and CR engines (credit scheme, initial state and window,
// RTO bounds, initial rate, burst and tokens); a protocol module may use them too.
logic unused_proto_config;
assign unused_proto_config = ^{CreditScheme, UserInit, 32'(InitWnd), 32'(RtoInit), 32'(RtoMin),
                               32'(RateInit), 32'(BurstBytes),
                               32'(TokensInit)};
`ifdef TONIC_PROTO_TRANSMIT
logic unused_proto_tx_init;
assign unused_proto_tx_init = ^TxInit;
`endif
