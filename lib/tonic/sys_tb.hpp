// SPDX-License-Identifier: Apache-2.0
// SysTb: a small system testbench for tonic_top with any protocol and any
// credit scheme. It drives the control stream from a queue, the rx stream
// from a queue of events (one per cycle), keeps the DMA sink ready (or
// ready with a probability) and records every segment address that leaves.
// What answers the segments (a receiver model, an ideal acker) is the test's
// business: on_seg sees each address, send_rx() queues the answers.
//
// sys_trace() / sys_ns() / sys_status() (tonic/port_fields.hpp) parse the
// trace and status ports, and stat() reads stats_o, for checkers in on_cycle.
//
// Checks done here on every address (SegmentScoreboard, segment_scoreboard.hpp):
// the flow was added (a removed flow's queued addresses still leave and are
// checked like the rest), a new segment is exactly the next never-sent
// index of its flow, a retransmission was sent before; and cr_enq_drop_o
// stays 0.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tonic/harness.hpp"
#include "tonic/port_fields.hpp"
#include "tonic/top_drive.hpp"
#include "tonic/seq.hpp"
#include "tonic/rng.hpp"
#include "tonic/segment_scoreboard.hpp"

namespace tonic {

// The port types of common/top_drive.hpp under this testbench's names.
using SysCtrl = CtrlOp;
using SysRx = RxType;
using SysRxCmd = RxCmd;
using SysSeg = SegOut;

template <class Model>
class SysTb {
 public:
  explicit SysTb(uint32_t flows, uint64_t seed = 1)
      : rng_(seed), sb_(flows, sys_tb_options()) {
    reset_and_wait_init(h_, flows + 64, "SysTb");
  }

  Model& dut() { return h_.dut(); }
  uint64_t cycle() const { return h_.cycle(); }
  Rng& rng() { return rng_; }

  void add(uint32_t f, uint32_t start, uint32_t seg) { ctrl_.push_back({SysCtrl::kAdd, f, start, seg}); }
  void post(uint32_t f, uint32_t end, uint32_t last_len) { ctrl_.push_back({SysCtrl::kPost, f, end, last_len}); }
  void remove(uint32_t f) { ctrl_.push_back({SysCtrl::kRemove, f, 0, 0}); }
  bool ctrl_idle() const { return ctrl_.empty(); }
  /// Queue an rx event (driven in order, one per cycle, from the next cycle).
  void send_rx(const SysRxCmd& r) { rx_.push_back(r); }
  size_t rx_backlog() const { return rx_.size(); }
  void set_ready_prob(double p) { ready_p_ = p; }

  /// Called for every address that leaves (after the checks).
  std::function<void(const SysSeg&)> on_seg;
  /// Called once per cycle before the edge, outputs settled.
  std::function<void(Model&)> on_cycle;
  /// Called in a cycle whose rx port would be idle: returning true drives
  /// the beat it filled in (bad-input injection without moving the rest).
  std::function<bool(SysRxCmd&)> on_idle_rx;
  /// The same for the ctrl port (the command is driven until accepted).
  std::function<bool(CtrlCmd&)> on_idle_ctrl;

  void step() {
    auto& d = h_.dut();
    const uint64_t c = h_.cycle();
    CtrlCmd extra;
    if (ctrl_.empty() && on_idle_ctrl && on_idle_ctrl(extra)) ctrl_.push_front(extra);
    drive_ctrl(d, ctrl_);
    d.rx_valid_i = 0;
    SysRxCmd bad;
    const bool injected = rx_.empty() && on_idle_rx && on_idle_rx(bad);
    if (injected) drive_rx_beat(d, bad, bad.ecn, bad.grant);
    if (!rx_.empty()) drive_rx_beat(d, rx_.front(), rx_.front().ecn, rx_.front().grant);
    d.seg_ready_i = ready_p_ >= 1.0 || rng_.chance(ready_p_);
    h_.eval();
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      const Ctrl& k = ctrl_.front();
      // Ids >= FlowCount, undefined ops, an ADD of a present flow and a
      // REMOVE of an absent one are bad input the engine (and sb_) ignores.
      if (k.op == SysCtrl::kAdd) sb_.add(c, k.flow, k.seq, k.len);
      else if (k.op == SysCtrl::kRemove) sb_.remove(k.flow);
      ctrl_.pop_front();
    }
    if (d.rx_valid_i && !injected) rx_.pop_front();
    if (d.seg_valid_o && d.seg_ready_i) {
      SysSeg s{c, d.seg_flow_o, d.seg_idx_o, static_cast<bool>(d.seg_rtx_o), d.seg_len_o, d.seg_ts_o};
      sb_.segment(s.cycle, s.flow, s.idx, s.rtx, s.len);
      if (on_seg) on_seg(s);
    }
    if (d.cr_enq_drop_o) sb_.fail(c, "CR ring overflow");
    if (on_cycle) on_cycle(d);
    h_.tick();
  }

  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles && sb_.errors() == 0; ++i) step();
  }

  uint32_t credit_stat(CreditStat s) { return h_.dut().credit_stats_o[static_cast<int>(s)]; }
  uint32_t stat(DdStat s) { return dd_stat(h_.dut(), s); }
  uint64_t outs() const { return sb_.outs(); }
  uint64_t errors() const { return sb_.errors(); }
  const std::string& first_error() const { return sb_.first_error(); }
  /// The segment checks and per-flow counts.
  const SegmentScoreboard& scoreboard() const { return sb_; }

 private:
  using Ctrl = CtrlCmd;

  /// SysTb's rules: the flow added (or draining after its REMOVE, any number
  /// of addresses), the index order; no posted, window or length rules.
  static ScoreboardOptions sys_tb_options() {
    ScoreboardOptions o;
    o.after_remove = ScoreboardOptions::AfterRemove::kDrain;
    return o;
  }

  Harness<Model> h_;
  Rng rng_;
  std::deque<Ctrl> ctrl_;
  std::deque<SysRxCmd> rx_;
  SegmentScoreboard sb_;
  double ready_p_ = 1.0;
};

/// An ideal receiver for SysTb: every segment arrives `delay` cycles after
/// it leaves and is acked cumulatively (segments of a flow arrive in order;
/// a retransmission of a received segment is acked again).
class IdealAcker {
 public:
  explicit IdealAcker(uint32_t flows, uint64_t delay) : delay_(delay), rcv_(flows, 0), open_(flows, false) {}
  void open(uint32_t f, uint32_t start) {
    rcv_[f] = start;
    open_[f] = true;
  }
  void on_seg(const SysSeg& s) { inflight_.push_back({s.cycle + delay_, s.flow, s.idx}); }
  /// Acks due at cycle `now`, queued on the testbench.
  template <class Tb>
  void deliver(uint64_t now, Tb& tb) {
    while (!inflight_.empty() && inflight_.front().at <= now) {
      const Arr a = inflight_.front();
      inflight_.pop_front();
      if (!open_[a.flow]) continue;
      if (a.idx == rcv_[a.flow]) rcv_[a.flow] = a.idx + 1;
      SysRxCmd r;
      r.flow = a.flow;
      r.type = SysRx::kAck;
      r.cum_ack = rcv_[a.flow];
      tb.send_rx(r);
    }
  }
  uint32_t received(uint32_t f) const { return rcv_[f]; }

 private:
  struct Arr {
    uint64_t at;
    uint32_t flow, idx;
  };
  uint64_t delay_;
  std::vector<uint32_t> rcv_;
  std::vector<bool> open_;
  std::deque<Arr> inflight_;
};

}  // namespace tonic
