// SPDX-License-Identifier: Apache-2.0
// System testbench for tonic_top: a host driver (adds flows, posts data), a
// network (LinkModel: delay, drops, TCP receiver acks) and a DMA sink with
// random back-pressure around the Verilated sender, plus checks of every
// segment address that leaves (SegmentScoreboard, tonic/segment_scoreboard.hpp):
//   - the flow was added, and the index lies inside the posted data;
//   - a new segment (rtx = 0) is exactly the next never-sent index of its
//     flow (no gaps, no repeats); a retransmission (rtx = 1) is an index
//     that was sent before;
//   - a new segment lies inside the largest possible window: index <
//     highest cumulative ack delivered + Window;
//   - the length is the flow's segment size, or the posted last length for
//     the last posted segment;
//   - never more than RingN addresses of a flow between generation and
//     output: checked through the DUT's own transmit-notify accounting
//     (the CR engine flags an overflow on cr_enq_drop_o, which must stay 0).
// And after every event, the flow's cwnd, RTO and protocol state (ssthresh
// ...) against WindowRef (window_ref.hpp) through the trace ports.
#pragma once

#include <stdexcept>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "tonic/harness.hpp"
#include "tonic/top_drive.hpp"
#include "tonic/link_model.hpp"
#include "tonic/seq.hpp"
#include "tonic/rng.hpp"
#include "tonic/segment_scoreboard.hpp"
#include "tonic/window_ref.hpp"

namespace tonic {

/// Constants of a tonic_top build (from the model's parameters).
template <class Model> struct TonicParams;

/// What the testbench knows about one flow: the scoreboard's per-flow state
/// (added, start, seg_size, posted, last_len, snd_max, acked, sent, rtx,
/// first_out, last_out).
using FlowTrack = ScoreFlow;

template <class Model>
class TonicTb {
 public:
  using P = TonicParams<Model>;

  TonicTb(LinkConfig link_cfg, RxConfig rx_cfg, uint64_t seed)
      : link_(link_cfg, rx_cfg), rng_(seed), sb_(P::kFlows, options()), wref_(P::kFlows, P::kWindow) {
    reset_and_wait_init(h_, P::kFlows + 4, "TonicTb");
  }

  Harness<Model>& h() { return h_; }
  Model& dut() { return h_.dut(); }
  LinkModel& link() { return link_; }
  Rng& rng() { return rng_; }
  const FlowTrack& flow(uint32_t f) const { return sb_.flow(f); }
  uint64_t cycle() const { return h_.cycle(); }

  /// Queue control commands (sent in order, one per cycle when accepted).
  void add_flow(uint32_t f, uint32_t start, uint32_t seg_size, uint32_t segments) {
    ctrl_.push_back({CtrlOp::kAdd, f, start, seg_size});
    if (segments > 0) ctrl_.push_back({CtrlOp::kPost, f, start + segments, seg_size});
  }
  void post(uint32_t f, uint32_t end, uint32_t last_len) { ctrl_.push_back({CtrlOp::kPost, f, end, last_len}); }
  bool ctrl_idle() const { return ctrl_.empty(); }

  /// Extra rx events to inject (before the link's acks), for directed tests.
  void inject(const RxCmd& r) { inject_.push_back(r); }

  /// Probability that the DMA sink is ready in a cycle (bursty).
  void set_ready_prob(double p) { ready_p_ = p; }
  /// Called for every segment address that leaves.
  std::function<void(const SegOut&)> on_seg;
  /// Called once per cycle with the inputs driven and the outputs settled,
  /// just before the clock edge (e.g. to record every port, cycle by cycle).
  std::function<void(Model&)> on_cycle;

  /// One cycle.
  void step() {
    auto& d = h_.dut();
    const uint64_t c = h_.cycle();
    // Control.
    drive_ctrl(d, ctrl_);
    // Incoming: injected events first, else the network's acks.
    d.rx_valid_i = 0;
    for (const AckEvent& a : link_.pop_acks(c)) pending_acks_.push_back(a);
    if (!inject_.empty()) {
      drive_rx(inject_.front());
      inject_.pop_front();
    } else if (!pending_acks_.empty()) {
      const AckEvent& a = pending_acks_.front();
      RxCmd r;
      r.flow = a.flow;
      r.type = a.sack_valid ? RxType::kSack : RxType::kAck;
      r.cum_ack = a.cum_ack;
      r.sack_valid = a.sack_valid;
      r.sack_idx = a.sack_idx;
      r.echo_valid = a.echo.valid;
      r.echo_rtx = a.echo.rtx;
      r.echo_ts = a.echo.ts;
      drive_rx(r);
      pending_acks_.pop_front();
    }
    // DMA sink.
    if (rng_.chance(0.1)) ready_ = rng_.chance(ready_p_);
    if (ready_p_ >= 1.0) ready_ = true;
    d.seg_ready_i = ready_;
    d.note_ready_i = 1;
    h_.eval();

    // The traces of this cycle see the state before this cycle's control
    // op (it lands at the clock edge), so they are checked first.
    check_trace(c);
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      apply_ctrl(ctrl_.front());
      ctrl_.pop_front();
    }
    if (d.rx_valid_i) {
      WindowEvent ev;
      ev.cycle = c;
      ev.flow = d.rx_flow_i;
      ev.type = d.rx_type_i;
      ev.cum_ack = d.rx_cum_ack_i;
      ev.sack_valid = d.rx_sack_valid_i;
      ev.sack_idx = d.rx_sack_idx_i;
      ev.ecn = d.rx_ecn_i;
      ev.echo_valid = d.rx_echo_valid_i;
      ev.echo_rtx = d.rx_echo_rtx_i;
      ev.echo_ts = d.rx_echo_ts_i;
      ev.now = d.now_o;
      ev.must_accept = ev.flow < P::kFlows && sb_.flow(ev.flow).added && ev.type <= 2 &&
                       !seq_lt(sb_.flow(ev.flow).snd_max, ev.cum_ack);
      if (window_check_) wref_.rx(ev);
      sb_.ack(d.rx_flow_i, d.rx_cum_ack_i);
    }
    if (d.seg_valid_o && d.seg_ready_i) {
      SegOut s{c, d.seg_flow_o, d.seg_idx_o, static_cast<bool>(d.seg_rtx_o), d.seg_len_o, d.seg_ts_o};
      if (outs_ == mutate_at_) mutate(s);
      sb_.segment(s.cycle, s.flow, s.idx, s.rtx, s.len);
      ++outs_;
      link_.push_data(c, s.flow, s.idx, s.len, s.rtx, s.ts);
      if (on_seg) on_seg(s);
    }
    if (d.note_valid_o) ++notes_;
    if (d.cr_enq_drop_o) fail(c, "CR ring overflow (more than RingN outstanding)");
    if (on_cycle) on_cycle(d);
    h_.tick();
  }

  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles && errors() == 0; ++i) step();
  }

  /// Runs until every added flow has all posted data acked, or `max` cycles.
  bool run_until_acked(uint64_t max) {
    for (uint64_t i = 0; i < max && errors() == 0; ++i) {
      step();
      if (i % 64 == 0 && all_acked()) return true;
    }
    return all_acked();
  }

  bool all_acked() const {
    if (!ctrl_.empty()) return false;
    for (uint32_t f = 0; f < P::kFlows; ++f) {
      const FlowTrack& t = sb_.flow(f);
      if (t.added && t.acked != t.posted) return false;
    }
    return true;
  }

  /// The per-event window reference is on by default; benchmarks of the
  /// model may turn it off (about a fifth of the testbench's time).
  void set_window_check(bool on) { window_check_ = on; }

  /// Self-test of the window reference: add 1 to the cwnd of the `at`-th
  /// incoming trace.
  void set_trace_mutation(uint64_t at) { trace_mutate_at_ = at; }
  /// Self-test of the next-segment check: the `at`-th decision's index is
  /// read as one higher than the DUT's.
  void set_ns_mutation(uint64_t at) { ns_mutate_at_ = at; }

  /// Self-test of the checks: alter the `at`-th segment address seen
  /// (0: index + 1, 1: retransmit flag set on a new segment, 2: length).
  void set_mutation(int kind, uint64_t at) {
    mutation_ = kind;
    mutate_at_ = at;
  }

  uint64_t outs() const { return outs_; }
  uint64_t notes() const { return notes_; }
  uint64_t errors() const { return sb_.errors() + wref_.errors(); }
  const std::string& first_error() const { return sb_.errors() ? sb_.first_error() : wref_.first_error(); }
  /// Events whose window state was compared with the reference.
  uint64_t events_checked() const { return wref_.checked(); }
  uint64_t decisions_checked() const { return wref_.ns_checked(); }
  /// Checked events whose info.rtx_cnt was not 0, and the largest one.
  uint64_t rtx_named() const { return wref_.rtx_named(); }
  uint32_t rtx_named_max() const { return wref_.rtx_named_max(); }

 private:
  void drive_rx(const RxCmd& r) { drive_rx_beat(h_.dut(), r, r.ecn, r.grant); }

  /// TonicTb's rules: the flow added (no address after its REMOVE), the
  /// index inside [first, posted), the index order, the largest window,
  /// the lengths.
  static ScoreboardOptions options() {
    ScoreboardOptions o;
    o.after_remove = ScoreboardOptions::AfterRemove::kReject;
    o.window = P::kWindow;
    o.check_posted = true;
    o.check_len = true;
    return o;
  }

  void apply_ctrl(const CtrlCmd& k) {
    switch (k.op) {
      case CtrlOp::kAdd:
        if (sb_.flow(k.flow).added) break;  // bad input: the DUT ignores it too
        sb_.add(h_.cycle(), k.flow, k.seq, k.len);
        link_.receiver().open(k.flow, k.seq);
        wref_.add(k.flow, k.seq, k.len);
        break;
      case CtrlOp::kPost:
        if (sb_.post(k.flow, k.seq, k.len)) wref_.post(k.flow, k.seq);
        break;
      case CtrlOp::kRemove:
        sb_.remove(k.flow);
        wref_.remove(k.flow);
        break;
    }
  }

  // Bits [lo, lo + n) of a Verilated wide signal (n <= 32).
  template <class Wide>
  static WindowTrace parse_trace(const Wide& w) {
    return sys_trace(w);
  }

  void check_trace(uint64_t c) {
    if (!window_check_) return;
    auto& d = h_.dut();
    WindowTrace ti = parse_trace(d.trace_in_o);
    if (ti.valid && traces_++ == trace_mutate_at_) ti.wnd += 1;  // self-test
    NsTrace ns = sys_ns(d.trace_ns_o);
    if (ns.valid && ns_count_++ == ns_mutate_at_) ns.idx += 1;  // self-test
    const WindowTrace tp = parse_trace(d.trace_per_o);
    wref_.next_seg(c, ns, ti);
    wref_.incoming(c, ti, tp);
    if (tp.valid) wref_.periodic(c, tp);
  }

  void mutate(SegOut& s) const {
    switch (mutation_) {
      case 0: s.idx += 1; break;
      case 1: s.rtx = !s.rtx; break;
      default: s.len += 1; break;
    }
  }

  void fail(uint64_t cycle, const std::string& what) { sb_.fail(cycle, what); }

  Harness<Model> h_;
  LinkModel link_;
  Rng rng_;
  SegmentScoreboard sb_;
  std::deque<CtrlCmd> ctrl_;
  std::deque<RxCmd> inject_;
  std::deque<AckEvent> pending_acks_;
  WindowRef<typename P::Twin> wref_;
  double ready_p_ = 1.0;
  bool ready_ = true;
  uint64_t outs_ = 0, notes_ = 0;
  int mutation_ = -1;
  uint64_t mutate_at_ = UINT64_MAX;
  uint64_t traces_ = 0, trace_mutate_at_ = UINT64_MAX;
  uint64_t ns_count_ = 0, ns_mutate_at_ = UINT64_MAX;
  bool window_check_ = true;
};

}  // namespace tonic
