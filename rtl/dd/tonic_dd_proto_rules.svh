// SPDX-License-Identifier: Apache-2.0
// tonic_dd_proto_rules.svh: the DD engine's rules for a protocol module's outputs (mark range, RTO floor, cwnd clamp).
//
// `include'd in the body of tonic_dd_incoming2 and tonic_dd_periodic, the
// two processors that call a protocol module; the includer declares W, IdxW,
// CntW, RtoMin, ring_t (W bits) and cnt_t (CntW bits) and imports
// tonic_dd_pkg. Ring positions to mark are the unacked ones of [lo, hi)
// clipped to [from, to) (to - from in 0..W: to = next_new, from =
// wnd_start); an RTO is at least RtoMin; cwnd is clamped to 1..W.

// The clipped range is [a, b) with a = max(lo, from), b = min(hi, to). All
// serial compares it needs are taken in parallel from the four inputs,
// and the ring thermometers of the candidate ends are decoded from their
// low bits in parallel too; the compares then only steer multiplexers:
// [a, b) on the ring is ge(a) ^ ge(b), inverted when b's position lies
// below a's (the range wraps), empty when a >= b, all ones when b - a = W.
function automatic ring_t mark_positions(logic we, seq_t lo, seq_t hi, seq_t from, seq_t to,
                                         ring_t acked);
  logic            lo_lt_from, to_lt_hi, nonempty, full, wrap;
  ring_t           ga, gb, m;
  lo_lt_from = seq_lt(lo, from);
  to_lt_hi   = seq_lt(to, hi);
  nonempty   = lo_lt_from ? (to_lt_hi ? seq_lt(from, to) : seq_lt(from, hi))
                          : (to_lt_hi ? seq_lt(lo, to)   : seq_lt(lo, hi));
  // b - a <= to - from <= W, so b - a = W needs a = from, b = to.
  full       = (to - from == seq_t'(W)) && !seq_lt(from, lo) && !seq_lt(hi, to);
  ga         = lo_lt_from ? ('1 << from[IdxW-1:0]) : ('1 << lo[IdxW-1:0]);
  gb         = to_lt_hi ? ('1 << to[IdxW-1:0]) : ('1 << hi[IdxW-1:0]);
  // b's position below a's, for the four (a, b) candidates in parallel.
  wrap       = lo_lt_from ? (to_lt_hi ? (to[IdxW-1:0] < from[IdxW-1:0]) : (hi[IdxW-1:0] < from[IdxW-1:0]))
                          : (to_lt_hi ? (to[IdxW-1:0] < lo[IdxW-1:0])   : (hi[IdxW-1:0] < lo[IdxW-1:0]));
  m          = full ? '1 : !nonempty ? '0 : ((ga ^ gb) ^ {W{wrap}});
  return we ? (m & ~acked) : '0;
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
