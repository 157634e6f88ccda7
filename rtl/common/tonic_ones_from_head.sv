// SPDX-License-Identifier: Apache-2.0
// tonic_ones_from_head: run of consecutive ones of a ring starting at its head.
//
// bits_i is a ring of W bits whose window starts at head_i. count_o is the
// number of consecutive set bits met going round from head_i (head_i,
// head_i+1, ..., W-1, 0, ...): 0 if bits_i[head_i] is clear, W if every bit
// is set. Use: how far a receiver's window (LOC / WBASE) or a sender's
// wnd_start may advance over segments already received / acknowledged.
//
// Method: the run ends at the first zero at or after the head, so
// count_o = (z - head_i) mod W, where z is tonic_ffs_after_head of ~bits_i
// (appendix C pre-masking, head-free priority trees), and count_o = W
// when ~bits_i has no set bit. Purely combinational.
`default_nettype none

module tonic_ones_from_head #(
  /// Ring size in bits; a power of two, 8..1024.
  parameter int unsigned W = 256,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W),
  /// Count width, holds 0..W (do not override).
  localparam int unsigned CntW = IdxW + 1
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] head_i,   // window start
  output logic [CntW-1:0]      count_o   // consecutive ones from head_i, 0..W
);
  if (W < 8 || W > 1024 || (W & (W - 1)) != 0) begin : g_check
    $fatal(1, "tonic_ones_from_head: W must be a power of two in 8..1024");
  end

  logic            zero_found;  // some bit of bits_i is clear
  logic [IdxW-1:0] zero_index;  // first clear bit at/after head_i
  logic [IdxW-1:0] run;         // (zero_index - head_i) mod W

  tonic_ffs_after_head #(
    .W(W)
  ) u_first_zero (
    .bits_i (~bits_i),
    .head_i (head_i),
    .found_o(zero_found),
    .index_o(zero_index)
  );

  assign run     = zero_index - head_i;
  assign count_o = zero_found ? {1'b0, run} : CntW'(W);
endmodule

`default_nettype wire
