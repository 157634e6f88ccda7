// SPDX-License-Identifier: Apache-2.0
// tonic_prio_tree: first valid entry of N, with its payload (combinational).
//
// found_o = |found_i; index_o = {j, payload_i[j]} for the lowest j with
// found_i[j] set. With the payload being the index of a set bit inside
// group j, index_o is the index of the first set bit of the whole vector:
// this is the upper part of a find-first-set tree (tonic_ffs_after_head).
// When no entry is valid, index_o is all ones (a don't-care value that
// costs no logic; callers gate it if they need another one).
//
// Structure: a radix-4 tree sized for LUT6s. A node takes 4 children (2 at
// the top when log2(N) is odd); its found flag is the OR of theirs; its
// index is {sel, index of child sel}, where sel, the first child with
// found set, is a LUT4 of the children's flags and the selection is a 4:1
// mux (one LUT6 per index bit). Each level adds about one LUT level.
`default_nettype none

module tonic_prio_tree #(
  /// Number of entries; a power of two, 1..1024.
  parameter int unsigned N = 64,
  /// Payload bits per entry, >= 1.
  parameter int unsigned PayloadW = 2,
  /// Output index width (do not override).
  localparam int unsigned IndexW = $clog2(N) + PayloadW
) (
  input  wire logic [N-1:0]               found_i,    // entry j is valid
  input  wire logic [N-1:0][PayloadW-1:0] payload_i,  // entry j's payload
  output logic                            found_o,    // some entry is valid
  output logic [IndexW-1:0]               index_o     // {j, payload_i[j]} of the first valid j
);
  if (N < 1 || N > 1024 || (N & (N - 1)) != 0 || PayloadW < 1) begin : g_check
    $fatal(1, "tonic_prio_tree: N must be a power of two in 1..1024, PayloadW >= 1");
  end

  // Tree shape (do not override): Levels levels of merging; after level k
  // (k = 1..Levels) an entry covers 2^lvl_sel_w(k) inputs.
  localparam int unsigned SelW = $clog2(N);        // index bits above the payload
  localparam int unsigned Levels = (SelW + 1) / 2;

  function automatic int lvl_sel_w(int k);
    return (2 * k < int'(SelW)) ? 2 * k : int'(SelW);
  endfunction

  // Index of the first set flag of four, f[3:0], all ones when none is set;
  // f[3] itself is not needed (with f[2:0] clear the answer is 3). Written
  // as AND/OR rather than a ?: chain: the same LUT4s in hardware, but the
  // C++ that Verilator emits is then branch-free (a ?: chain compiles to
  // data-dependent branches, which random bitmaps mispredict: measured 2.6x
  // slower for tonic_ffs_after_head at W = 256).
  function automatic logic [1:0] first_of_4(logic [2:0] f);
    first_of_4[1] = !f[0] && !f[1];
    first_of_4[0] = !f[0] && (f[1] || !f[2]);
  endfunction

  for (genvar k = 0; k <= Levels; k++) begin : g_lvl
    localparam int unsigned M = N >> lvl_sel_w(k);           // entries at level k
    localparam int unsigned IW = lvl_sel_w(k) + PayloadW;    // their index width
    logic [M-1:0]         found;
    logic [M-1:0][IW-1:0] index;

    if (k == 0) begin : g_in
      assign found = found_i;
      assign index = payload_i;
    end else begin : g_merge
      localparam int unsigned CW = lvl_sel_w(k - 1) + PayloadW;  // child index width
      localparam int unsigned SW = IW - CW;                      // select width, 1 or 2
      localparam int unsigned R = 1 << SW;                       // radix, 2 or 4
      for (genvar j = 0; j < M; j++) begin : g_node
        logic [R-1:0]         cf;   // children's found flags
        logic [R-1:0][CW-1:0] ci;   // children's indices
        logic [SW-1:0]        sel;  // first child with a valid entry
        assign cf = g_lvl[k-1].found[R*j +: R];
        assign ci = g_lvl[k-1].index[R*j +: R];
        if (R == 4) begin : g_r4
          assign sel = first_of_4(cf[2:0]);
        end else begin : g_r2
          assign sel = !cf[0];
        end
        assign found[j] = |cf;
        assign index[j] = {sel, ci[sel]};
      end
    end
  end

  assign found_o = g_lvl[Levels].found[0];
  assign index_o = g_lvl[Levels].index[0];
endmodule

`default_nettype wire
