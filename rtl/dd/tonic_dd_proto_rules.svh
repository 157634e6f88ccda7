// SPDX-License-Identifier: Apache-2.0
// tonic_dd_proto_rules.svh: the DD engine's rules for a protocol module's outputs (mark range, RTO floor, cwnd clamp).
//
// `include'd in the body of tonic_dd_incoming2 and tonic_dd_periodic, the
// two processors that call a protocol module; the includer declares W, IdxW,
// CntW, RtoMin, ring_t (W bits) and cnt_t (CntW bits) and imports
// tonic_dd_pkg. Ring positions to mark are the unacked ones of [lo, hi)
// clipped to [from, to) (to - from in 0..W: to = next_new, from =
// wnd_start); an RTO is at least RtoMin; cwnd is clamped to 1..W.

// Each ring position i holds the segment whose serial number has low bits
// i, at offset (i - from) mod W from the window start. Position i is marked
// when its offset is below to - from, at least lo's offset and below hi's.
// The ends' offsets need only their low bits once two 32-bit compares in
// parallel have placed each end before the window, beyond it (at least
// from + W) or inside it; for a constant i, "offset(i) >= offset(lo)" is
// then a compare of i with lo's low bits, flipped when exactly one of the
// two wraps below from's low bits. So the late ends (a protocol's outputs)
// pass one 32-bit compare and a few levels per position, with no serial
// compare feeding a multiplexer over the W positions (the longest
// fixed-function path before, docs/timing-model.md). An end 2^31 or more
// from the window is read as the serial compares read it: lo before the
// window wins over beyond it, hi beyond it over before it.
// Where the range's ends lie against the window [from, from + W) (both
// forms below): each end before it, beyond it or inside; the span to - from;
// from's low bits and whether each end's low bits wrap below them.
typedef struct packed {
  logic            lo_before, lo_beyond, hi_before, hi_beyond, lo_wrap, hi_wrap;
  logic [IdxW:0]   span;
  logic [IdxW-1:0] f_lo;
} mark_ends_t;
function automatic mark_ends_t mark_ends(seq_t lo, seq_t hi, seq_t from, seq_t to);
  mark_ends_t e;
  seq_t       from_w;
  from_w      = from + seq_t'(W);
  e.lo_before = seq_lt(lo, from);
  e.lo_beyond = !seq_lt(lo, from_w);
  e.hi_before = !seq_lt(from, hi);
  e.hi_beyond = !seq_lt(hi, from_w);
  e.span      = (IdxW + 1)'(to - from);
  e.f_lo      = from[IdxW-1:0];
  e.lo_wrap   = lo[IdxW-1:0] < e.f_lo;
  e.hi_wrap   = hi[IdxW-1:0] < e.f_lo;
  return e;
endfunction

function automatic ring_t mark_positions_bits(logic we, seq_t lo, seq_t hi, seq_t from, seq_t to,
                                              ring_t acked);
  mark_ends_t      e;
  ring_t           m;
  e = mark_ends(lo, hi, from, to);
  for (int unsigned i = 0; i < W; i++) begin
    logic            i_wrap, ge_lo, lt_hi;
    logic [IdxW-1:0] off;
    i_wrap = IdxW'(i) < e.f_lo;
    off    = IdxW'(i) - e.f_lo;
    ge_lo  = e.lo_before || (!e.lo_beyond && ((i_wrap == e.lo_wrap) ? (IdxW'(i) >= lo[IdxW-1:0]) : i_wrap));
    lt_hi  = e.hi_beyond || (!e.hi_before && ((i_wrap == e.hi_wrap) ? (IdxW'(i) < hi[IdxW-1:0]) : !i_wrap));
    m[i]   = ({1'b0, off} < e.span) && ge_lo && lt_hi;
  end
  return we ? (m & ~acked) : '0;
endfunction

// The same rule written with whole-ring words for the Verilated models: the
// per-position form above is the shallower netlist (8 levels against 9 in
// a stand-alone probe), but a loop over the W positions ran the 1024 x 128
// model at about 60 % of its speed. The thermometers '1 << x give for
// every position i at once "i >= x"; "i below from's low bits" is the
// complement of from's. synth/prove/run.sh mark_w<W> proves the two forms
// equal for all inputs (Yosys sat), and mark_positions picks one.
function automatic ring_t mark_positions_words(logic we, seq_t lo, seq_t hi, seq_t from, seq_t to,
                                               ring_t acked);
  mark_ends_t      e;
  logic [IdxW-1:0] t_lo;
  ring_t           ge_f, below_f, sel_lo, sel_hi, in_win, ge_lo, lt_hi, ones;
  // Whole-ring selects rather than replications of one bit: Verilator
  // builds a replication bit by bit.
  ones      = '1;
  e         = mark_ends(lo, hi, from, to);
  t_lo      = e.f_lo + e.span[IdxW-1:0];
  ge_f      = '1 << e.f_lo;
  below_f   = ~ge_f;
  in_win    = (e.span >= (IdxW + 1)'(W)) ? ones : ((ge_f ^ ('1 << t_lo)) ^ ((t_lo < e.f_lo) ? ones : '0));
  sel_lo    = e.lo_wrap ? ge_f : below_f;
  sel_hi    = e.hi_wrap ? ge_f : below_f;
  ge_lo     = e.lo_before ? ones : e.lo_beyond ? '0 : ((sel_lo & below_f) | (~sel_lo & ('1 << lo[IdxW-1:0])));
  lt_hi     = e.hi_beyond ? ones : e.hi_before ? '0 : ((sel_hi & ge_f) | (~sel_hi & ~('1 << hi[IdxW-1:0])));
  return we ? (in_win & ge_lo & lt_hi & ~acked) : '0;
endfunction

// The engine's mark rule: the word form in Verilator, the per-position form
// everywhere else (synthesis, read_slang).
function automatic ring_t mark_positions(logic we, seq_t lo, seq_t hi, seq_t from, seq_t to,
                                         ring_t acked);
`ifdef VERILATOR
  return mark_positions_words(we, lo, hi, from, to, acked);
`else
  return mark_positions_bits(we, lo, hi, from, to, acked);
`endif
endfunction

// The RTO after a write: at least RtoMin; the old one without a write.
function automatic logic [31:0] rto_after(logic we, logic [31:0] rto, logic [31:0] old);
  if (!we) return old;
  return (rto < 32'(RtoMin)) ? 32'(RtoMin) : rto;
endfunction

// cwnd in 1..W.
function automatic cnt_t wnd_clamp(cnt_t w);
  return (w == '0) ? cnt_t'(1) : (w > cnt_t'(W)) ? cnt_t'(W) : w;
endfunction
