// SPDX-License-Identifier: Apache-2.0
// The live-lock experiment (docs/design/livelock.md): one flow of
// 4 MB messages (4096 x 1 KB segments) through a whole Tonic sender
// (tonic_top, 16x128 model) at line rate, a channel with a fixed one-way
// delay and independent seeded loss on data packets, and the receiver of
// the protocol's role (livelock_runs.hpp takes it from the registry):
//   - go-back-N (receiver roce): RoceReceiver, NACK(expected) on a gap;
//   - go-back-0 (receiver roce, host_restart "message"): Gb0Receiver, which
//     discards the message's progress on a gap and NACKs; the host driver
//     (this rig) restarts the message: REMOVE the flow, ADD it again at the
//     message's first segment, POST the data again;
//   - IRN (receiver irn): IrnReceiver (selective retransmission).
// Goodput = bytes of messages completed at the receiver / (cycles * 125 B)
// (100 Gb/s at the 100 MHz clock).
//
// The loop owns the model directly rather than through SysTb: a REMOVE
// lets addresses already queued in the CR engine leave afterwards
// (docs/sender-core.md), also after the next ADD's handshake, which SysTb's
// scoreboard rejects. The checks here (SegmentScoreboard with the leftovers
// rule) allow them: a new segment is always the next never-sent index of
// the incarnation sending (the removed one's queued addresses may leave
// after the new ADD's handshake: the ADD waits in the engine's register
// until they have), a retransmission is below it, no other flow sends; the
// CR ring never overflows, no control op is bad.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "tonic/harness.hpp"
#include "tonic/gb0_receiver.hpp"
#include "tonic/irn_receiver.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/rx_common.hpp"
#include "tonic/segment_scoreboard.hpp"
#include "tonic/seq.hpp"
#include "tonic/top_drive.hpp"

namespace tonic::livelock {

constexpr double kLineBytesPerCycle = 125.0;  // 100 Gb/s at 100 MHz

struct Config {
  uint32_t msg_segments = 4096;  // 4 MB messages
  uint32_t seg_bytes = 1024;     // 1 KB segments
  uint32_t messages = 16;        // go-back-N / IRN stop once this many are complete (64 MB)
  uint64_t one_way = 150;        // cycles each way: RTT = 300 cycles (3 us) + the sender's latency
  double loss = 1.0 / 256;       // per data packet (new or retransmitted), independent
  uint64_t seed = 0x1455f27ff7c10e3cull;
  uint64_t max_cycles = 0;  // budget per run (0: 20 cycles per segment to complete, 2.4 x line rate)
  uint64_t nack_gap = 1000;         // RoCE / go-back-0 receivers: one NACK per gap until progress
  uint32_t flow = 5;
};

/// Counters of tonic_top's stats_o (tonic/stats_layout.hpp, generated from the package).
using Stat = DdStat;

struct Result {
  std::string protocol;
  uint64_t cycles = 0;           // from the ADD to the end of the measurement
  uint64_t messages = 0;         // messages completed at the receiver
  uint64_t segments_sent = 0;    // addresses that left the sender (incl. drained after REMOVE)
  uint64_t retransmissions = 0;  // of which seg_rtx_o = 1
  uint64_t dropped = 0;          // data packets the channel dropped
  uint64_t in_order = 0;         // arrivals accepted in order by the receiver
  uint64_t restarts = 0;         // go-back-0: message restarts by the driver
  uint64_t discarded = 0;        // go-back-0: in-order segments thrown away by restarts
  uint64_t timeouts = 0;         // engine retransmission timeouts (stats_o)
  uint64_t rx_bad_ack = 0, rx_unknown_flow = 0;
  uint64_t errors = 0;
  std::string first_error;
  double loss = 0;
  uint64_t seed = 0;
  uint32_t msg_segments = 0, seg_bytes = 0;

  double goodput() const {
    return cycles == 0 ? 0.0
                       : double(messages) * msg_segments * seg_bytes / (double(cycles) * kLineBytesPerCycle);
  }
  double wire() const {
    return cycles == 0 ? 0.0 : double(segments_sent) * seg_bytes / (double(cycles) * kLineBytesPerCycle);
  }
  double observed_loss() const { return segments_sent == 0 ? 0.0 : double(dropped) / double(segments_sent); }
};

enum class Kind { kGoBackN, kGoBack0, kIrn };

/// One experiment: protocol `kind` on model `Model` (a tonic_top of that
/// protocol). Runs until cfg.messages are complete (go-back-N, IRN) or for
/// exactly `run_cycles` (go-back-0; 0: the budget), never beyond the
/// budget (cfg.max_cycles). LIVELOCK_TRACE set in the environment prints
/// every cycle's control, segment and rx beat to stderr.
template <class Model>
Result run_experiment(Kind kind, const std::string& name, const Config& cfg, uint64_t run_cycles = 0) {
  Harness<Model> h;
  auto& d = h.dut();
  Result res;
  res.protocol = name;
  res.loss = cfg.loss;
  res.seed = cfg.seed;
  res.msg_segments = cfg.msg_segments;
  res.seg_bytes = cfg.seg_bytes;
  // The segment checks: flows 0..cfg.flow (only cfg.flow is ever added).
  ScoreboardOptions so;
  so.after_remove = ScoreboardOptions::AfterRemove::kLeftovers;
  SegmentScoreboard sb(cfg.flow + 1, so);
  auto fail = [&](const std::string& what) { sb.fail(h.cycle(), what); };
  auto result = [&] {
    res.errors = sb.errors();
    res.first_error = sb.first_error();
    return res;
  };

  // Reset and the init sweep (ctrl_ready_o rises when the flow state is clear).
  try {
    reset_and_wait_init(h, 4096, "livelock");
  } catch (const std::runtime_error& e) {
    fail(e.what());
    return result();
  }

  RoceRxConfig rcfg;
  rcfg.nack_gap = cfg.nack_gap;
  rcfg.cnp.enabled = false;
  RoceReceiver roce(rcfg);
  IrnRxConfig icfg;
  icfg.cnp.enabled = false;
  IrnReceiver irn(icfg);
  Gb0RxConfig gcfg;
  gcfg.msg_segments = cfg.msg_segments;
  gcfg.nack_gap = cfg.nack_gap;
  Gb0Receiver gb0(gcfg);

  const uint32_t f = cfg.flow;
  const uint32_t first = 0;
  const uint32_t end = first + (cfg.messages + 64) * cfg.msg_segments;  // more than will ever complete
  roce.open(f, first);
  irn.open(f, first);
  gb0.open(f, first);

  struct Ctrl { uint8_t op; uint32_t seq, len; };
  std::deque<Ctrl> ctrl{{0, first, cfg.seg_bytes}, {1, end, cfg.seg_bytes}};
  struct Data { uint64_t at; uint32_t idx; };
  std::deque<Data> data;
  struct Ack { uint64_t at; RxEvent e; };
  std::deque<Ack> acks;
  SeededBernoulli loss(cfg.seed);

  bool present = false, restart_pending = false;
  uint64_t start = 0;
  bool started = false;
  const uint64_t cap = cfg.max_cycles != 0 ? cfg.max_cycles
                                           : 20 * uint64_t{cfg.messages} * cfg.msg_segments + 100'000;
  const uint64_t budget = kind == Kind::kGoBack0 && run_cycles != 0 ? run_cycles : cap;

  auto delivered = [&]() -> uint64_t {
    switch (kind) {
      case Kind::kGoBackN: return seq_dist(first, roce.expected(f)) / cfg.msg_segments;
      case Kind::kIrn: return seq_dist(first, irn.rcv_nxt(f)) / cfg.msg_segments;
      case Kind::kGoBack0: return gb0.counters(f).messages;
    }
    return 0;
  };
  auto take = [&](uint64_t c) {
    std::vector<RxEvent> ev = kind == Kind::kGoBackN ? roce.take_acks()
                              : kind == Kind::kIrn   ? irn.take_acks()
                                                     : gb0.take_acks();
    for (const RxEvent& e : ev) acks.push_back({c + cfg.one_way, e});
  };

  const bool trace = std::getenv("LIVELOCK_TRACE") != nullptr;
  bool done = false;
  while (!done && sb.errors() == 0) {
    const uint64_t c = h.cycle();
    if (started && c - start >= budget) break;
    // 1. Data due now reaches the receiver; its answers enter the channel.
    while (!data.empty() && data.front().at <= c) {
      const uint32_t p = data.front().idx;
      data.pop_front();
      switch (kind) {
        case Kind::kGoBackN: roce.segment(c, f, p); break;
        case Kind::kIrn: irn.segment(c, f, p); break;
        case Kind::kGoBack0: gb0.segment(c, f, p); break;
      }
      if (kind != Kind::kGoBack0 && delivered() >= cfg.messages) {
        res.cycles = c - start;
        done = true;
      }
    }
    take(c);
    if (done) break;
    // 2. One rx beat per cycle. The go-back-0 driver restarts the message
    //    on a NACK (one restart at a time).
    d.rx_valid_i = !acks.empty() && acks.front().at <= c;
    if (d.rx_valid_i) {
      const RxEvent e = acks.front().e;
      acks.pop_front();
      drive_rx_beat(d, e, e.ecn, e.grant);
      if (kind == Kind::kGoBack0 && e.type == ref::kRxNack && present && !restart_pending) {
        const uint32_t m = seq_dist(first, e.cum_ack) / cfg.msg_segments;
        const uint32_t msg_start = first + m * cfg.msg_segments;
        ctrl.push_back({2, 0, 0});
        ctrl.push_back({0, msg_start, cfg.seg_bytes});
        ctrl.push_back({1, end, cfg.seg_bytes});
        restart_pending = true;
        ++res.restarts;
      }
    }
    // 3. Control.
    d.ctrl_valid_i = !ctrl.empty();
    if (!ctrl.empty()) {
      d.ctrl_op_i = ctrl.front().op;
      d.ctrl_flow_i = f;
      d.ctrl_seq_i = ctrl.front().seq;
      d.ctrl_len_i = ctrl.front().len;
    }
    h.eval();
    if (trace) std::fprintf(stderr, "c=%llu ctrl_v=%d rdy=%d op=%d seq=%u seg_v=%d idx=%u rtx=%d rx_v=%d type=%d cum=%u\n",
                            (unsigned long long)c, d.ctrl_valid_i, d.ctrl_ready_o, d.ctrl_op_i, d.ctrl_seq_i,
                            d.seg_valid_o, d.seg_idx_o, d.seg_rtx_o, d.rx_valid_i, d.rx_type_i, d.rx_cum_ack_i);
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      const Ctrl k = ctrl.front();
      ctrl.pop_front();
      if (k.op == 0) {
        present = true;
        // The ADD executes once the removed incarnation's queued addresses
        // have left; until its first new segment shows, those continue.
        sb.add(c, f, k.seq, k.len);
        if (!started) {
          started = true;
          start = c;
        }
      } else if (k.op == 2) {
        present = false;
        sb.remove(f);
      } else if (k.op == 1 && restart_pending) {
        restart_pending = false;
      }
    }
    // 4. A segment leaves: checks, then the channel (loss, delay).
    if (d.seg_valid_o && d.seg_ready_i) {
      const uint32_t idx = d.seg_idx_o;
      sb.segment(c, d.seg_flow_o, idx, d.seg_rtx_o, d.seg_len_o);
      if (loss.draw(cfg.loss)) {
        ++res.dropped;
      } else {
        data.push_back({c + cfg.one_way, idx});
      }
    }
    if (d.cr_enq_drop_o) fail("CR ring overflow");
    h.tick();
  }
  if (!done) res.cycles = h.cycle() - start;
  res.segments_sent = sb.outs();
  res.retransmissions = sb.flow(f).total_rtx;
  res.messages = delivered();
  switch (kind) {
    case Kind::kGoBackN: res.in_order = roce.stats(f).in_order; break;
    case Kind::kIrn: res.in_order = irn.stats(f).in_order; break;
    case Kind::kGoBack0:
      res.in_order = gb0.stats(f).in_order;
      res.discarded = gb0.counters(f).discarded;
      break;
  }
  auto stat = [&](Stat s) { return uint64_t{dd_stat(d, s)}; };
  res.timeouts = stat(Stat::kTimeouts);
  res.rx_bad_ack = stat(Stat::kRxBadAck);
  res.rx_unknown_flow = stat(Stat::kRxUnknownFlow);
  if (stat(Stat::kCtrlBad) != 0) fail("the engine counted a bad control op");
  return result();
}

}  // namespace tonic::livelock
