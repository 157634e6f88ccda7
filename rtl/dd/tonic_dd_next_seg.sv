// SPDX-License-Identifier: Apache-2.0
// tonic_dd_next_seg: the DD engine's next-segment processor (which segment a flow sends next).
//
// Works on the active set's head, or on the current flow when no other
// flow is waiting (one flow alone sends every cycle). It generates the
// first pending retransmission after wnd_start, else the next new segment:
// both inside the window, new ones also inside the posted data, at most
// RingN addresses outstanding, and with a credit scheme only with a permit
// (credit_ok_i). A flow that stays eligible goes back to the active set
// (more_o). Control's ADD uses the CR port and next-seg's write ports
// (next_new, sent), so next-seg waits in that cycle. Segment s occupies
// ring position s mod W: a retransmission flips sent there (sent = mark).
`default_nettype none

/// Next-segment processor of the DD engine.
module tonic_dd_next_seg
  import tonic_dd_pkg::*;
#(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Window ring size in segments (a power of two, 8..256).
  parameter int unsigned W = 128,
  /// Addresses a flow may have generated and not yet transmitted (N).
  parameter int unsigned RingN = 16,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount),
  /// Count width, 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1,
  /// Outstanding counter width, mod 2 RingN (do not override).
  localparam int unsigned PtrW = $clog2(RingN) + 1
) (
  /// Clock.
  input  wire logic             clk_i,
  /// Synchronous reset, active high.
  input  wire logic             rst_i,
  /// The init sweep runs (and writes the generated counters).
  input  wire logic             init_i,
  /// The flow id the init sweep writes.
  input  wire logic [IdW-1:0]   init_ptr_i,
  /// Control holds an in-range ADD: next-seg waits and lends its ports.
  input  wire logic             ctrl_add_held_i,
  /// Control adds ...
  input  wire logic             ctrl_add_i,
  /// ... or removes ...
  input  wire logic             ctrl_remove_i,
  /// ... this flow.
  input  wire logic [IdW-1:0]   ctrl_flow_i,
  /// The held op's sequence number (ADD: the first segment).
  input  wire seq_t             ctrl_seq_i,
  /// The active set has a head ...
  input  wire logic             act_valid_i,
  /// ... this flow.
  input  wire logic [IdW-1:0]   act_id_i,
  /// The active set's head of the next cycle is valid ...
  input  wire logic             act_nxt_valid_i,
  /// ... this flow.
  input  wire logic [IdW-1:0]   act_nxt_id_i,
  /// Transmit notify of this cycle ...
  input  wire logic             txn_valid_i,
  /// ... for this flow.
  input  wire logic [IdW-1:0]   txn_flow_i,
  /// The flow holds a permit (always 1 with the window scheme).
  input  wire logic             credit_ok_i,
  /// ... and another one after this segment.
  input  wire logic             credit_more_i,
  /// present of the flow (state bank).
  input  wire logic             present_i,
  /// posted of the flow.
  input  wire seq_t             posted_i,
  /// Segment size of the flow.
  input  wire logic [LenW-1:0]  seg_size_i,
  /// Length of the last posted segment.
  input  wire logic [LenW-1:0]  last_len_i,
  /// wnd_start of the flow.
  input  wire seq_t             start_i,
  /// next_new of the flow.
  input  wire seq_t             next_i,
  /// Generated counter of the flow.
  input  wire logic [PtrW-1:0]  gen_i,
  /// Transmitted counter of the flow.
  input  wire logic [PtrW-1:0]  tx_i,
  /// sent bitmap of the flow.
  input  wire logic [W-1:0]     sent_i,
  /// cwnd of the flow.
  input  wire logic [CntW-1:0]  wnd_i,
  /// mark bitmap of the flow.
  input  wire logic [W-1:0]     mark_i,
  /// Retransmit counts of the flow (bit W+p and bit p: position p's count).
  input  wire logic [2*W-1:0]   rcnt_i,
  /// The flow next-seg looks at this cycle.
  output logic [IdW-1:0]        flow_o,
  /// The flow it looks at in the next cycle (state bank read address).
  output logic [IdW-1:0]        flow_d_o,
  /// Pop the active set's head.
  output logic                  act_pop_o,
  /// A segment is generated this cycle ...
  output logic                  fire_o,
  /// ... a retransmission ...
  output logic                  rtx_o,
  /// ... at this ring position (its sent bit flips).
  output logic [W-1:0]          flip_o,
  /// ... with this index ...
  output seq_t                  idx_o,
  /// ... and this length.
  output logic [LenW-1:0]       len_o,
  /// The flow stays eligible after this segment (active-set insert with fire_o).
  output logic                  more_o,
  /// The flow could send but for a permit test (credit gate: park).
  output logic                  want_o,
  /// A new segment was generated in the last cycle ...
  output logic                  new_q_o,
  /// ... of this flow.
  output logic [IdW-1:0]        flow_q_o,
  /// next_new write enable (new segment or control's ADD).
  output logic                  next_we_o,
  /// next_new write address.
  output logic [IdW-1:0]        next_wa_o,
  /// next_new write data.
  output seq_t                  next_wd_o,
  /// sent write enable (retransmission or control's ADD).
  output logic                  sent_we_o,
  /// sent write address.
  output logic [IdW-1:0]        sent_wa_o,
  /// sent write data.
  output logic [W-1:0]          sent_wd_o,
  /// Retransmit counts write enable (every segment, or control's ADD).
  output logic                  rcnt_we_o,
  /// Retransmit counts write address.
  output logic [IdW-1:0]        rcnt_wa_o,
  /// Retransmit counts write data.
  output logic [2*W-1:0]        rcnt_wd_o,
  /// Generated counter write enable (segment or init sweep).
  output logic                  gen_we_o,
  /// Generated counter write address.
  output logic [IdW-1:0]        gen_wa_o,
  /// Generated counter write data.
  output logic [PtrW-1:0]       gen_wd_o
);
  localparam int unsigned IdxW = $clog2(W);
  typedef logic [IdW-1:0]  flow_t;
  typedef logic [W-1:0]    ring_t;
  typedef logic [CntW-1:0] cnt_t;
  typedef logic [PtrW-1:0] ptr_t;

  // The len bits of the ring starting at position start (len in 0..W).
  // ge/lt are thermometer codes written as shifts of all ones: a decoder in
  // hardware, a few word operations in the Verilated model (a per-bit loop
  // of compares was measured several times slower there).
  function automatic ring_t ring_mask(logic [IdxW-1:0] start, cnt_t len);
    logic [CntW-1:0] e;
    ring_t ge, lt;
    e  = {1'b0, start} + len;
    ge = '1 << start;                // bits >= start
    lt = ~('1 << e[IdxW-1:0]);       // bits < e mod W
    if (len == cnt_t'(W)) return '1;
    return e[IdxW] ? (ge | lt) : (ge & lt);
  endfunction

  // The ring positions of [a, b) given only the low bits of both ends:
  // ge(a) ^ ge(b), inverted when b's position lies below a's (the range
  // wraps); empty when they are equal unless full (b - a = W). No adder
  // between the ends and the decoders.
  function automatic ring_t ring_span(logic [IdxW-1:0] a, logic [IdxW-1:0] b, logic full);
    ring_t ga, gb;
    ga = '1 << a;
    gb = '1 << b;
    if (full) return '1;
    return (ga ^ gb) ^ {W{b < a}};
  endfunction

  // v has two or more set bits. A binary tree of (any, two) pairs written
  // with whole-vector shifts: in step d, the node at position i (a multiple
  // of 2d) merges itself with its neighbour at i + d; position 0 ends with
  // the answer. In hardware only position 0's cone is kept, a balanced tree
  // (a prefix OR, the earlier form, measured 15 levels against 12.5 for
  // this one in a stand-alone next-seg probe at W = 256); in the Verilated
  // model it is log2(W) word-wise steps.
  function automatic logic two_or_more(ring_t v);
    ring_t any, two;
    any = v;
    two = '0;
    for (int unsigned d = 1; d < W; d = d * 2) begin
      two = two | (two >> d) | (any & (any >> d));
      any = any | (any >> d);
    end
    return two[0];
  endfunction

  logic        ns_pick, ns_fire, ns_rtx, ns_more;
  logic        cur_valid_q, cur_valid_d, ns_new_q, ns_new_d;
  flow_t       cur_q, cur_d, ns_flow_q, ns_flow_d;
  logic [IdxW-1:0] ns_pos;
  ring_t       ns_flip;
  flow_t       nf, nf_d;

  seq_t   n_ws, n_nn, n_posted, n_rtx_idx, n_idx, n_avail;
  ptr_t   n_tx, n_out;
  cnt_t   n_wnd, n_flight;
  ring_t  n_pending;
  logic   n_found_unused, n_rtx_ok, n_new_ok, n_can, n_wrap, n_last_new, n_last_rtx;
  logic [31-IdxW:0] n_ws_hi1;
  assign ns_pick  = !ctrl_add_held_i && (act_valid_i || cur_valid_q);
  assign act_pop_o = !ctrl_add_held_i && act_valid_i;
  assign nf       = act_valid_i ? act_id_i : cur_q;
  assign cur_d    = ns_pick ? nf : cur_q;
  assign nf_d     = act_nxt_valid_i ? act_nxt_id_i : cur_d;
  assign n_ws     = start_i;
  assign n_nn     = next_i;
  assign n_wnd    = wnd_i;
  assign n_posted = posted_i;
  assign n_tx     = tx_i + ptr_t'(txn_valid_i && txn_flow_i == nf);
  assign n_out    = gen_i - n_tx;
  assign n_pending = mark_i ^ sent_i;
  assign n_can    = ns_pick && present_i && !init_i && n_out < ptr_t'(RingN);

  tonic_ffs_after_head #(
    .W(W)
  ) u_next_rtx (
    .bits_i (n_pending),
    .head_i (n_ws[IdxW-1:0]),
    .found_o(n_found_unused),
    .index_o(ns_pos)
  );

  // Retransmissions obey the window too (after a timeout cwnd = 1 resends
  // from wnd_start upwards as the window reopens, not the whole window): a
  // retransmission is due iff a pending bit lies in the first
  // min(flight, cwnd) positions from wnd_start (next_new - wnd_start is in
  // 0..W): the AND of two masks from wnd_start, [wnd_start, next_new)
  // decoded from the low bits of both ends and the first cwnd positions,
  // then an OR. That test runs in parallel with the find-first
  // unit, which then only supplies the position. A pending bit beyond
  // next_new is a stale one of a slid window (cleared by incoming stage 2
  // in the next cycle); the mask leaves it out.
  // The retransmitted index is wnd_start's upper bits (plus one if the
  // position wrapped below wnd_start's) with the position as low bits: no
  // 32-bit adder after the find-first unit.
  assign n_flight  = cnt_t'(n_nn - n_ws);
  assign n_rtx_ok  = |(n_pending & ring_span(n_ws[IdxW-1:0], n_nn[IdxW-1:0], n_flight == cnt_t'(W))
                                 & ring_mask(n_ws[IdxW-1:0], n_wnd));
  assign n_ws_hi1  = n_ws[31:IdxW] + 1'b1;
  assign n_wrap    = ns_pos < n_ws[IdxW-1:0];
  assign n_rtx_idx = {n_wrap ? n_ws_hi1 : n_ws[31:IdxW], ns_pos};
  // New data: n_avail = posted - next_new, in 0..2^30 (control keeps posted
  // within 2^30 of wnd_start), so its sign and its value 1 give the serial
  // compares next_new < posted and next_new + 1 < posted.
  assign n_avail    = n_posted - n_nn;
  assign n_last_new = n_avail == 32'd1;
  assign n_new_ok   = !n_avail[31] && n_avail != '0 && n_flight < n_wnd;
  assign ns_fire    = n_can && (n_rtx_ok || n_new_ok) && credit_ok_i;
  assign ns_rtx     = n_rtx_ok;
  assign n_idx      = n_rtx_ok ? n_rtx_idx : n_nn;
  assign ns_flip    = ring_t'(1) << ns_pos;
  // The segment is the last posted one (its length is last_len): a
  // retransmission is, iff all posted data has been sent (n_avail = 0) and
  // its position is that of posted - 1.
  assign n_last_rtx = n_avail == '0 && ns_pos == IdxW'(n_posted[IdxW-1:0] - 1'b1);

  // Still eligible after this segment (conservative: spare pending bits
  // may be stale; a pop that finds nothing costs one cycle). Another
  // retransmission: a second pending bit anywhere (the one sent is pending).
  logic n_more_rtx, n_more_new;
  assign n_more_rtx = n_rtx_ok && two_or_more(n_pending);
  assign n_more_new = n_rtx_ok ? n_new_ok
                    : (!n_avail[31] && n_avail[31:1] != '0 && n_flight + cnt_t'(1) < n_wnd);
  assign ns_more    = (n_out + ptr_t'(1) < ptr_t'(RingN)) && (n_more_rtx || n_more_new)
                   && credit_more_i;

  // The current flow; it stops being current when control adds or
  // removes it while next-seg waits.
  always_comb begin
    cur_valid_d = cur_valid_q;
    if (ns_pick) begin
      cur_valid_d = ns_fire && ns_more;
    end else if (ctrl_add_i || ctrl_remove_i) begin
      cur_valid_d = cur_valid_q && cur_q != ctrl_flow_i;
    end
    // Last cycle's new segment (incoming stage 2's FlightSize).
    ns_new_d  = ns_fire && !ns_rtx;
    ns_flow_d = nf;
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cur_valid_q <= 1'b0;
      ns_new_q    <= 1'b0;
    end else begin
      cur_valid_q <= cur_valid_d;
      ns_new_q    <= ns_new_d;
    end
    cur_q     <= cur_d;
    ns_flow_q <= ns_flow_d;
  end

  assign flow_o   = nf;
  assign flow_d_o = nf_d;
  assign fire_o   = ns_fire;
  assign rtx_o    = ns_rtx;
  assign flip_o   = ns_flip;
  assign idx_o    = n_idx;
  assign len_o    = (n_rtx_ok ? n_last_rtx : n_last_new) ? last_len_i : seg_size_i;
  assign more_o   = ns_more;
  assign want_o   = n_can && (n_rtx_ok || n_new_ok);
  assign new_q_o  = ns_new_q;
  assign flow_q_o = ns_flow_q;

  // Writes (ADD: next-seg waits in that cycle and lends its ports; the init
  // sweep zeroes the generated counters: no segment can be generated then).
  // next_new, sent and the retransmit counts share one write address.
  flow_t ns_wa;
  assign ns_wa     = ctrl_add_held_i ? ctrl_flow_i : nf;
  assign next_we_o = ctrl_add_i || (ns_fire && !ns_rtx);
  assign next_wa_o = ns_wa;
  assign next_wd_o = ctrl_add_held_i ? ctrl_seq_i : n_nn + 32'd1;
  assign sent_we_o = ctrl_add_i || (ns_fire && ns_rtx);
  assign sent_wa_o = ns_wa;
  assign sent_wd_o = ctrl_add_held_i ? '0 : sent_i ^ ns_flip;
  // Retransmit counts: a new segment starts its position at 0, a
  // retransmission adds 1 there, saturating at 3; ADD zeroes them all.
  ring_t rc_lo, rc_hi, rc_new_pos, rc_inc;
  assign rc_lo      = rcnt_i[W-1:0];
  assign rc_hi      = rcnt_i[2*W-1:W];
  assign rc_new_pos = ring_t'(1) << n_nn[IdxW-1:0];
  assign rc_inc     = ns_flip & ~(rc_lo & rc_hi);
  assign rcnt_we_o  = ctrl_add_i || ns_fire;
  assign rcnt_wa_o  = ns_wa;
  assign rcnt_wd_o  = ctrl_add_held_i ? '0
                    : ns_rtx ? {rc_hi ^ (rc_inc & rc_lo), rc_lo ^ rc_inc}
                    : {rc_hi & ~rc_new_pos, rc_lo & ~rc_new_pos};
  assign gen_we_o  = init_i || ns_fire;
  assign gen_wa_o  = init_i ? init_ptr_i : nf;
  assign gen_wd_o  = init_i ? '0 : gen_i + ptr_t'(1);
endmodule

`default_nettype wire
