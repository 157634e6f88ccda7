// SPDX-License-Identifier: Apache-2.0
// tonic_popcount_range_gate: proof wrapper of rtl/common/tonic_popcount_range.sv.
//
// Restricts the RTL (Pipeline = 0) to its contract, len_i <= W, by clamping
// len_i, and drops the unused clk_i, so its ports match
// tonic_popcount_range_naive (which clamps the same way). Proof-only.
`default_nettype none

module tonic_popcount_range_gate #(
  /// Ring size in bits; a power of two.
  parameter int unsigned W = 64,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W),
  /// Count / length width (do not override).
  localparam int unsigned CntW = IdxW + 1
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] start_i,  // first index of the range
  input  wire logic [CntW-1:0] len_i,    // range length; > W is read as W
  output logic [CntW-1:0]      count_o   // set bits in the range
);
  logic [CntW-1:0] len;
  assign len = (len_i > CntW'(W)) ? CntW'(W) : len_i;

  tonic_popcount_range #(
    .W       (W),
    .Pipeline(0)
  ) u_dut (
    .clk_i  (1'b0),
    .bits_i (bits_i),
    .start_i(start_i),
    .len_i  (len),
    .count_o(count_o)
  );
endmodule

`default_nettype wire
