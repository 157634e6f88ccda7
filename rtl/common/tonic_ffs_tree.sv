// SPDX-License-Identifier: Apache-2.0
// tonic_ffs_tree: find first set bit from index 0 (combinational priority tree).
//
// found_o = |bits_i; index_o = the lowest index i with bits_i[i] set (0 when
// nothing is set). No head, no wrap: tonic_ffs_after_head reduces the ring
// problem to two of these (paper appendix C).
//
// Structure: a radix-4 tree, sized for LUT6s. A leaf looks at 4 bits and
// gives a found flag and a 2-bit index (one LUT4 each). A node at level k
// takes Radix (4, or 2 at the top when log2(W) is odd) children; its found
// flag is the OR of theirs, its index is {sel, index of child sel}, where sel
// is the priority encoding of the children's found flags (a LUT4) and the
// selection is a 4:1 mux (one LUT6 per index bit). A leaf or node with
// nothing set gives index 0 (sel = 0 and child 0's index is 0), so index_o
// is 0 when !found_o without an extra gate on the output. Each level adds about one
// LUT level to the index path, so depth is ~log4(W) + 1 LUT levels. Every
// level is written as whole-vector operations per node, which Verilator
// evaluates in a few word operations per node (no bit-serial loops).
`default_nettype none

module tonic_ffs_tree #(
  /// Number of input bits; a power of two, 4..1024.
  parameter int unsigned W = 256,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W)
) (
  input  wire logic [W-1:0]    bits_i,   // bit vector, index 0 searched first
  output logic                 found_o,  // some bit of bits_i is set
  output logic [IdxW-1:0]      index_o   // lowest set index; 0 if !found_o
);
  if (W < 4 || W > 1024 || (W & (W - 1)) != 0) begin : g_check
    $fatal(1, "tonic_ffs_tree: W must be a power of two in 4..1024");
  end

  // Tree shape (do not override): Levels levels; level k resolves
  // LvlIdxW(k) index bits, so it has W >> LvlIdxW(k) nodes.
  localparam int unsigned Levels = (IdxW + 1) / 2;

  function automatic int unsigned lvl_idx_w(int unsigned k);
    return (2 * (k + 1) < IdxW) ? 2 * (k + 1) : IdxW;
  endfunction

  // Index of the first set flag of four, 0 when none is set. Written as
  // AND/OR rather than a ?: chain: the same LUT4s in hardware, but Verilator
  // then emits branch-free code (a ?: chain becomes data-dependent branches,
  // which random bitmaps mispredict; measured 2.4x slower at W = 256).
  function automatic logic [1:0] first_of_4(logic [3:0] f);
    first_of_4[1] = !f[0] && !f[1] && (f[2] || f[3]);
    first_of_4[0] = !f[0] && (f[1] || (!f[2] && f[3]));
  endfunction

  for (genvar k = 0; k < Levels; k++) begin : g_lvl
    localparam int unsigned IW = lvl_idx_w(k);     // index bits below a node
    localparam int unsigned N = W >> IW;           // nodes at this level
    logic [N-1:0]         found;
    logic [N-1:0][IW-1:0] index;

    if (k == 0) begin : g_leaf
      // Leaves: 4 input bits each.
      for (genvar j = 0; j < N; j++) begin : g_node
        logic [3:0] b;
        assign b        = bits_i[4*j +: 4];
        assign found[j] = |b;
        assign index[j] = first_of_4(b);
      end
    end else begin : g_inner
      localparam int unsigned CW = lvl_idx_w(k - 1);  // child index width
      localparam int unsigned SW = IW - CW;           // select width, 1 or 2
      localparam int unsigned R = 1 << SW;            // radix, 2 or 4
      for (genvar j = 0; j < N; j++) begin : g_node
        logic [R-1:0]         cf;   // children's found flags
        logic [R-1:0][CW-1:0] ci;   // children's indices
        logic [SW-1:0]        sel;  // first child with a set bit
        assign cf = g_lvl[k-1].found[R*j +: R];
        assign ci = g_lvl[k-1].index[R*j +: R];
        if (R == 4) begin : g_r4
          assign sel = first_of_4(cf);
        end else begin : g_r2
          assign sel = !cf[0] && cf[1];
        end
        assign found[j] = |cf;
        assign index[j] = {sel, ci[sel]};
      end
    end
  end

  assign found_o = g_lvl[Levels-1].found[0];
  assign index_o = g_lvl[Levels-1].index[0];
endmodule

`default_nettype wire
