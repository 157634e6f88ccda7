// SPDX-License-Identifier: Apache-2.0
// tonic_proto_tx_config.svh: included first in the body of
// tonic_proto_transmit (a protocol's optional transmit.v,
// docs/protocol-api.md). It includes the protocol's user_configs.vh with
// TONIC_PROTO_MODULE defined, stops the elaboration unless TxW equals
// $bits(tx_t), and marks the configuration the engine alone reads as used.
// No include guard on purpose.
`define TONIC_PROTO_MODULE
`include "user_configs.vh"
`undef TONIC_PROTO_MODULE

if ($bits(tx_t) != TxW) begin : g_check_tx
  $fatal(1, "tonic_proto_transmit: TxW must equal $bits(tx_t) of user_configs.vh");
end
if (TxW > tonic_dd_pkg::UserWMax) begin : g_check_tx_max
  $fatal(1, "tonic_proto_transmit: the transmit state is wider than the engine takes (tonic_dd_pkg::UserWMax)");
end

logic unused_proto_tx_config;
assign unused_proto_tx_config = ^{CreditScheme, UserInit, TxInit, 32'(InitWnd), 32'(RtoInit), 32'(RtoMin),
                                  32'(RateInit), 32'(BurstBytes), 32'(TokensInit)};
