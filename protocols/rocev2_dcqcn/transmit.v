// SPDX-License-Identifier: Apache-2.0
// tonic_proto_transmit (RoCEv2, DCQCN): the byte counter's input. DCQCN's
// reaction point counts the bytes it transmits; this module adds each
// segment's length as it leaves (retransmissions too) to the flow's
// transmit state, sent (mod 2^24). Incoming reads it (tx_i) and turns every
// B bytes into a byte event (incoming.v). protocols/rocev2_gb0/transmit.v
// includes this file unchanged.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_transmit #(`TONIC_PROTO_TX_PARAMS) (`TONIC_PROTO_TRANSMIT_PORTS);
  `include "tonic_proto_tx_config.svh"
  tx_t t, t_n;
  assign t       = tx_t'(tx_i);
  assign t_n     = '{sent: t.sent + 24'(len_i)};
  assign tx_we_o = 1'b1;
  assign tx_o    = t_n;
  logic unused_ok;
  assign unused_ok = ^{now_i, flow_i, idx_i, rtx_i, ts_i, 32'(RtoMax), 32'(SegBytes), 32'(DcqcnC), 32'(DcqcnRmin),
                       32'(DcqcnRai), 32'(DcqcnRhai), 32'(DcqcnK), 32'(DcqcnT), 32'(DcqcnB), 32'(DcqcnF),
                       32'(DcqcnGShift)};
endmodule
`default_nettype wire
