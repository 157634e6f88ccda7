// SPDX-License-Identifier: Apache-2.0
// tonic_ffs_after_head: first set bit of a ring at or after its head.
//
// bits_i is a ring of W bits whose window starts at head_i. index_o is the
// first index met going round from head_i (head_i, head_i+1, ..., W-1, 0, ...,
// head_i-1) whose bit is set; found_o says whether any bit is set. Use: the
// next segment marked for retransmit in a window starting at wnd_start.
//
// Method (Tonic paper, appendix C): no head arithmetic inside the trees.
// masked = bits_i with every bit below head_i cleared. If masked has a set
// bit, the answer is the first set bit of masked from index 0; otherwise it is
// the first set bit of bits_i from index 0 (the search wrapped). Both are
// head-free priority trees (tonic_ffs_tree) evaluated in parallel, followed
// by one 2:1 mux. Purely combinational.
`default_nettype none

module tonic_ffs_after_head #(
  /// Ring size in bits; a power of two, 4..1024.
  parameter int unsigned W = 256,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W)
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] head_i,   // window start (searched first)
  output logic                 found_o,  // some bit of bits_i is set
  output logic [IdxW-1:0]      index_o   // first set index at/after head_i; 0 if !found_o
);
  if (W < 4 || W > 1024 || (W & (W - 1)) != 0) begin : g_check
    $fatal(1, "tonic_ffs_after_head: W must be a power of two in 4..1024");
  end

  // Head pre-masking: keep bits head_i..W-1.
  logic [W-1:0] masked;
  assign masked = bits_i & ({W{1'b1}} << head_i);

  logic            masked_found, all_found;
  logic [IdxW-1:0] masked_index, all_index;

  tonic_ffs_tree #(
    .W(W)
  ) u_masked (
    .bits_i (masked),
    .found_o(masked_found),
    .index_o(masked_index)
  );

  tonic_ffs_tree #(
    .W(W)
  ) u_all (
    .bits_i (bits_i),
    .found_o(all_found),
    .index_o(all_index)
  );

  assign found_o = all_found;
  assign index_o = masked_found ? masked_index : all_index;
endmodule

`default_nettype wire
