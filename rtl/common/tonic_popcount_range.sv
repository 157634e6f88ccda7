// SPDX-License-Identifier: Apache-2.0
// tonic_popcount_range: number of set bits in a range of a ring (adder tree).
//
// bits_i is a ring of W bits. The range is the len_i bits starting at
// start_i going round: indices (start_i + k) mod W for k = 0..len_i-1, with
// len_i in 0..W (0: empty range, count 0; W: the whole ring, any start_i).
// len_i > W is outside the contract (the result is then unspecified).
// count_o is the number of set bits of bits_i in that range (0..W). Use:
// acked or marked segments inside a window [wnd_start, wnd_start + wnd_size).
//
// Structure:
//  1. Range mask without rotating the ring: E = start_i + len_i (IdxW+1 bits).
//     ge[i] = (i >= start_i), lt[i] = (i < E mod W) are thermometer codes.
//     If E < W the range does not wrap: mask = ge & lt; else it wraps:
//     mask = ge | lt (E == W gives lt = 0, so mask = ge; len_i == W gives
//     E mod W == start_i, so mask = all ones).
//  2. Leaf counts: popcount of each LeafW-bit group of bits_i & mask.
//  3. A binary adder tree of the leaf counts, widening by one bit per level.
// With Pipeline = 1 the leaf counts are registered (LeafCount * (LeafCntW)
// flip-flops, no reset: pure datapath), which splits the mask + leaf logic
// from the adder tree; count_o then follows the inputs by one cycle.
// With Pipeline = 0 the unit is combinational and clk_i is unused.
`default_nettype none

module tonic_popcount_range #(
  /// Ring size in bits; a power of two, 4..1024.
  parameter int unsigned W = 256,
  /// 0: combinational. 1: register the leaf counts (latency 1 cycle).
  parameter int unsigned Pipeline = 0,
  /// Index width (do not override).
  localparam int unsigned IdxW = $clog2(W),
  /// Count / length width, holds 0..W (do not override).
  localparam int unsigned CntW = IdxW + 1
) (
  input  wire logic            clk_i,    // used only when Pipeline == 1
  input  wire logic [W-1:0]    bits_i,   // ring contents
  input  wire logic [IdxW-1:0] start_i,  // first index of the range
  input  wire logic [CntW-1:0] len_i,    // range length, 0..W
  output logic [CntW-1:0]      count_o   // set bits in the range, 0..W
);
  if (W < 4 || W > 1024 || (W & (W - 1)) != 0) begin : g_check
    $fatal(1, "tonic_popcount_range: W must be a power of two in 4..1024");
  end
  if (Pipeline > 1) begin : g_check_pipeline
    $fatal(1, "tonic_popcount_range: Pipeline must be 0 or 1");
  end

  // Tree shape (do not override).
  localparam int unsigned LeafW = (W < 16) ? W : 16;     // bits per leaf
  localparam int unsigned LeafCntW = $clog2(LeafW) + 1;  // leaf count width
  localparam int unsigned Leaves = W / LeafW;
  localparam int unsigned Levels = $clog2(Leaves);       // adder levels

  // 1. Range mask.
  logic [CntW-1:0] range_end;  // start_i + len_i, 0..2W-1
  logic            wraps;      // the range passes index W-1
  logic [W-1:0]    ge_start, lt_end, mask;
  assign range_end = CntW'(start_i) + len_i;
  assign wraps     = range_end[IdxW];
  assign ge_start  = {W{1'b1}} << start_i;
  assign lt_end    = ~({W{1'b1}} << range_end[IdxW-1:0]);
  assign mask      = wraps ? (ge_start | lt_end) : (ge_start & lt_end);

  // 2. Leaf counts.
  logic [W-1:0]                   masked;
  logic [Leaves-1:0][LeafCntW-1:0] leaf_d, leaf_q;
  assign masked = bits_i & mask;
  for (genvar j = 0; j < Leaves; j++) begin : g_leaf
    assign leaf_d[j] = LeafCntW'($countones(masked[LeafW*j +: LeafW]));
  end

  if (Pipeline != 0) begin : g_pipe
    always_ff @(posedge clk_i) begin
      leaf_q <= leaf_d;
    end
  end else begin : g_comb
    assign leaf_q = leaf_d;
    logic unused_clk;
    assign unused_clk = clk_i;
  end

  // 3. Adder tree: level k has Leaves >> k sums of LeafCntW + k bits.
  for (genvar k = 0; k <= Levels; k++) begin : g_lvl
    localparam int unsigned N = Leaves >> k;
    localparam int unsigned SW = LeafCntW + k;
    logic [N-1:0][SW-1:0] sum;
    if (k == 0) begin : g_base
      assign sum = leaf_q;
    end else begin : g_add
      for (genvar j = 0; j < N; j++) begin : g_node
        assign sum[j] = SW'(g_lvl[k-1].sum[2*j]) + SW'(g_lvl[k-1].sum[2*j+1]);
      end
    end
  end

  assign count_o = CntW'(g_lvl[Levels].sum[0]);
endmodule

`default_nettype wire
