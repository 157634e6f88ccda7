// SPDX-License-Identifier: Apache-2.0
// tonic_proto_transmit (tx_probe, test only): counts each segment that
// leaves (all, retransmitted, bytes) and keeps the last one's stamp and
// index.
`default_nettype none
`include "tonic_proto_ports.svh"
module tonic_proto_transmit #(`TONIC_PROTO_TX_PARAMS) (`TONIC_PROTO_TRANSMIT_PORTS);
  `include "tonic_proto_tx_config.svh"
  tx_t t, t_n;
  assign t = tx_t'(tx_i);
  always_comb begin
    t_n          = t;
    t_n.segs     = t.segs + 16'd1;
    t_n.rtx      = t.rtx + 16'(rtx_i);
    t_n.bytes    = t.bytes + 32'(len_i);
    t_n.last_ts  = ts_i;
    t_n.last_idx = idx_i;
  end
  assign tx_we_o = 1'b1;
  assign tx_o    = t_n;
  logic unused_ok;
  assign unused_ok = ^{now_i, flow_i, 32'(RtoMax)};
endmodule
`default_nettype wire
