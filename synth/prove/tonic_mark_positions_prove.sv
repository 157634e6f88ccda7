// SPDX-License-Identifier: Apache-2.0
// The DD engine's mark rule in its two forms (rtl/dd/tonic_dd_proto_rules.svh):
// the word form the Verilated models run (gate) and the per-position form
// synthesis builds (gold). synth/prove/run.sh mark_w<W> proves them equal
// for every input. TONIC_PROVE_MUTANT plants a bug in the gold form (one
// position's hi compare off by one), which the proof must find.
`default_nettype none

// The ports of both forms and what tonic_dd_proto_rules.svh needs from its
// includer (W, IdxW, CntW, RtoMin, ring_t, cnt_t).
`define TONIC_MARK_PROVE_BODY \
  (input  wire logic we_i, input wire seq_t lo_i, input wire seq_t hi_i, input wire seq_t from_i, \
   input  wire seq_t to_i, input wire logic [W-1:0] acked_i, output logic [W-1:0] mask_o); \
  localparam int unsigned IdxW = $clog2(W); \
  localparam int unsigned CntW = IdxW + 1; \
  localparam int unsigned RtoMin = 1; \
  typedef logic [W-1:0]    ring_t; \
  typedef logic [CntW-1:0] cnt_t;

module tonic_mark_words_gate
  import tonic_dd_pkg::*;
#(
  parameter int unsigned W = 16
) `TONIC_MARK_PROVE_BODY
  `include "tonic_dd_proto_rules.svh"
  assign mask_o = mark_positions_words(we_i, lo_i, hi_i, from_i, to_i, acked_i);
endmodule

module tonic_mark_bits_gold
  import tonic_dd_pkg::*;
#(
  parameter int unsigned W = 16
) `TONIC_MARK_PROVE_BODY
  `include "tonic_dd_proto_rules.svh"
`ifdef TONIC_PROVE_MUTANT
  // Position 1 also marked when hi's low bits are exactly 1 (hi excluded).
  ring_t m;
  always_comb begin
    m = mark_positions_bits(we_i, lo_i, hi_i, from_i, to_i, acked_i);
    m[1] = m[1] | (we_i && hi_i[IdxW-1:0] == IdxW'(1) && !acked_i[1]
                   && seq_lt(from_i, hi_i) && seq_lt(hi_i, from_i + seq_t'(W))
                   && seq_lt(from_i, to_i) && lo_i == from_i);
  end
  assign mask_o = m;
`else
  assign mask_o = mark_positions_bits(we_i, lo_i, hi_i, from_i, to_i, acked_i);
`endif
endmodule

`undef TONIC_MARK_PROVE_BODY
`default_nettype wire
