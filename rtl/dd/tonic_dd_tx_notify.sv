// SPDX-License-Identifier: Apache-2.0
// tonic_dd_tx_notify: the DD engine's transmit-notify processor (outstanding-address accounting).
//
// The CR engine reports each transmitted address (txn_valid_i, no ready).
// Notify counts it in the flow's transmitted counter (outstanding = gen -
// tx mod 2 RingN; a generate and a notify of one flow in one cycle cancel)
// and puts the flow back into the active set when it drops below RingN
// outstanding. Its counters are combinational LUTRAM reads of this cycle's
// flow; next-seg's generate of this cycle is added in. The init sweep
// zeroes the transmitted counters (no notify can happen during it).
`default_nettype none

/// Transmit-notify processor of the DD engine.
module tonic_dd_tx_notify #(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Addresses a flow may have generated and not yet transmitted (N).
  parameter int unsigned RingN = 16,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount),
  /// Outstanding counter width, mod 2 RingN (do not override).
  localparam int unsigned PtrW = $clog2(RingN) + 1
) (
  /// The init sweep runs.
  input  wire logic            init_i,
  /// The flow id the init sweep writes.
  input  wire logic [IdW-1:0]  init_ptr_i,
  /// Transmit notify valid ...
  input  wire logic            txn_valid_i,
  /// ... for this flow.
  input  wire logic [IdW-1:0]  txn_flow_i,
  /// Generated counter of the flow (combinational read).
  input  wire logic [PtrW-1:0] gen_i,
  /// Transmitted counter of the flow (combinational read).
  input  wire logic [PtrW-1:0] tx_i,
  /// Next-seg generates a segment this cycle ...
  input  wire logic            ns_fire_i,
  /// ... of this flow.
  input  wire logic [IdW-1:0]  ns_flow_i,
  /// Active-set insert: the flow drops below RingN outstanding.
  output logic                 ins_o,
  /// Transmitted counter write enable.
  output logic                 tx_we_o,
  /// Transmitted counter write address.
  output logic [IdW-1:0]       tx_wa_o,
  /// Transmitted counter write data.
  output logic [PtrW-1:0]      tx_wd_o
);
  typedef logic [PtrW-1:0] ptr_t;

  ptr_t t_gen;
  assign t_gen   = gen_i + ptr_t'(ns_fire_i && ns_flow_i == txn_flow_i);
  assign ins_o   = txn_valid_i && (t_gen - tx_i == ptr_t'(RingN));
  assign tx_we_o = init_i || txn_valid_i;
  assign tx_wa_o = init_i ? init_ptr_i : txn_flow_i;
  assign tx_wd_o = init_i ? '0 : tx_i + ptr_t'(1);
endmodule

`default_nettype wire
