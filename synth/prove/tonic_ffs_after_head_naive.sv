// SPDX-License-Identifier: Apache-2.0
// tonic_ffs_after_head_naive: obviously-correct reference for formal proofs.
//
// Same ports and contract as rtl/common/tonic_ffs_after_head.sv, written as a
// bit-serial walk round the ring from head_i. Proof-only (synth/prove/), not
// for use in designs: it is one long priority chain of W steps.
// With TONIC_PROVE_MUTANT defined it skips bit W-1 when head_i == 1, a bug
// the proof must find (synth/prove/run.sh --mutant).
`default_nettype none

module tonic_ffs_after_head_naive #(
  /// Ring size in bits; a power of two.
  parameter int unsigned W = 64,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W)
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] head_i,   // window start (searched first)
  output logic                 found_o,  // some bit is set
  output logic [IdxW-1:0]      index_o   // first set index at/after head_i; 0 if none
);
`ifdef TONIC_PROVE_MUTANT
  localparam bit Mutant = 1'b1;  // synth/prove/run.sh --mutant: a planted bug
`else
  localparam bit Mutant = 1'b0;
`endif

  always_comb begin
    logic [IdxW-1:0] pos;
    found_o = 1'b0;
    index_o = '0;
    // Walk from the far end back to the head, so the nearest set bit wins.
    for (int k = W - 1; k >= 0; k--) begin
      pos = head_i + IdxW'(k);  // wraps mod W
      if (bits_i[pos] && !(Mutant && pos == IdxW'(W - 1) && head_i == IdxW'(1))) begin
        found_o = 1'b1;
        index_o = pos;
      end
    end
  end
endmodule

`default_nettype wire
