// SPDX-License-Identifier: Apache-2.0
// tonic_ones_from_head_naive: obviously-correct reference for formal proofs.
//
// Same ports and contract as rtl/common/tonic_ones_from_head.sv, written as a
// bit-serial walk round the ring from head_i that stops at the first zero.
// Proof-only (synth/prove/), not for use in designs. With TONIC_PROVE_MUTANT
// defined a run through W/2 steps stops there when head_i == 3, a bug the
// proof must find (synth/prove/run.sh --mutant).
`default_nettype none

module tonic_ones_from_head_naive #(
  /// Ring size in bits; a power of two.
  parameter int unsigned W = 64,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W),
  /// Count width, holds 0..W (do not override).
  localparam int unsigned CntW = IdxW + 1
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] head_i,   // window start
  output logic [CntW-1:0]      count_o   // consecutive ones from head_i, 0..W
);
`ifdef TONIC_PROVE_MUTANT
  localparam bit Mutant = 1'b1;  // synth/prove/run.sh --mutant: a planted bug
`else
  localparam bit Mutant = 1'b0;
`endif

  always_comb begin
    logic            run;
    logic [IdxW-1:0] pos;
    run     = 1'b1;
    count_o = '0;
    for (int k = 0; k < W; k++) begin
      pos = head_i + IdxW'(k);  // wraps mod W
      run = run & bits_i[pos] & !(Mutant && k == W / 2 && head_i == IdxW'(3));
      count_o = count_o + CntW'(run);
    end
  end
endmodule

`default_nettype wire
