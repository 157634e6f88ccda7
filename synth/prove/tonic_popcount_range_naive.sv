// SPDX-License-Identifier: Apache-2.0
// tonic_popcount_range_naive: obviously-correct reference for formal proofs.
//
// Same contract as rtl/common/tonic_popcount_range.sv with Pipeline = 0
// (no clk_i): counts bits_i[(start_i + k) mod W] for k < len_i, one by one.
// len_i > W (outside the contract) is read as W, as in
// tonic_popcount_range_gate. Proof-only (synth/prove/), not for use in designs.
// With TONIC_PROVE_MUTANT defined it skips bit 5 when start_i == W-1, a bug
// the proof must find (synth/prove/run.sh --mutant).
`default_nettype none

module tonic_popcount_range_naive #(
  /// Ring size in bits; a power of two.
  parameter int unsigned W = 64,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W),
  /// Count / length width, holds 0..W (do not override).
  localparam int unsigned CntW = IdxW + 1
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] start_i,  // first index of the range
  input  wire logic [CntW-1:0] len_i,    // range length; > W is read as W
  output logic [CntW-1:0]      count_o   // set bits in the range
);
`ifdef TONIC_PROVE_MUTANT
  localparam bit Mutant = 1'b1;  // synth/prove/run.sh --mutant: a planted bug
`else
  localparam bit Mutant = 1'b0;
`endif

  always_comb begin
    logic [IdxW-1:0] pos;
    count_o = '0;
    for (int k = 0; k < W; k++) begin
      pos = start_i + IdxW'(k);  // wraps mod W
      if (CntW'(k) < len_i && !(Mutant && pos == IdxW'(5) && start_i == IdxW'(W - 1)))
        count_o = count_o + CntW'(bits_i[pos]);
    end
  end
endmodule

`default_nettype wire
