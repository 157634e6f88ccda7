// SPDX-License-Identifier: Apache-2.0
// The soak rig (docs/soak.md): one tonic_top model with the simulation-only
// assertions compiled in (the small tonic_<name>_<size> builds, TONIC_ASSERT), a host that
// adds, posts, removes and re-adds flows at random, a network with losses,
// reordering (random extra delay per packet, both ways) and ack losses, the
// protocol's receiver model (tb/common/ref), a DMA sink with long and
// single-cycle pauses, and bad input on both the control and the rx
// streams. Time alternates between storms (all of the above) and calm
// phases (no loss, no new data) in which every flow must complete.
//
// The scoreboard (violations, each counted; the first is kept):
//   - every segment address that leaves (SegmentScoreboard,
//     tonic/segment_scoreboard.hpp, fed the next-seg decisions too): the flow was added (or is
//     draining after a REMOVE: at most RingN addresses more), its index is
//     in [first, posted), a new segment is exactly the next never-sent
//     index (so no new index is ever sent twice), inside the largest window
//     (below the highest cumulative ack delivered + W), a retransmission
//     is of an index sent before; every address is the flow's oldest
//     next-seg decision (trace_ns_o) not yet out, in order, at most RingN
//     of them outstanding, with the length the flow's state gave at that
//     decision (segment size, or the posted last length for the last
//     posted segment); cr_enq_drop_o stays 0;
//   - every flow present at the end of a calm phase has all its posted data
//     cumulatively acked by the receiver (so the receiver got every index
//     of [first, posted) at least once), within 2 RtoMax + 200,000 cycles;
//   - the DUT's bad-input counters: control ops counted bad equal the bad
//     ops injected, rx counters at least the bad events injected;
//   - every SystemVerilog assertion that fires (Verilator error count).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

#include <verilated.h>

#include "tonic/rx_beat.hpp"
#include "tonic/any_receiver.hpp"
#include "tonic/harness.hpp"
#include "tonic/port_layout.hpp"
#include "tonic/rng.hpp"
#include "tonic/rx_common.hpp"
#include "tonic/segment_scoreboard.hpp"
#include "tonic/seq.hpp"
#include "tonic/top_drive.hpp"
#include "tonic/protocol_registry.hpp"

namespace tonic::soak {

using registry::ProtocolId;
using registry::Receiver;

inline const char* proto_name(ProtocolId p) { return registry::get(p).name; }

/// RtoMax of the protocol's user_configs.vh (cycles): the completion bound.
inline uint64_t rto_max(ProtocolId p) { return registry::get(p).rto_max; }

struct Options {
  uint64_t cycles = 1'000'000;
  uint64_t seed = 1;
  bool quiet = false;
  uint64_t mutate_at = UINT64_MAX;  // self-test: the index of this output (0-based) is read as one higher
};

struct Result {
  std::string proto;
  uint64_t cycles = 0;
  double wall_s = 0;
  uint64_t phases = 0;             // storm + calm pairs
  uint64_t adds = 0, removes = 0, posts = 0;
  uint64_t bursts_completed = 0;   // flows found complete at the end of a calm phase
  uint64_t segments = 0, retransmissions = 0;
  uint64_t lost = 0, trimmed = 0, reordered = 0, acks_lost = 0;
  uint64_t pauses = 0;             // long DMA pauses
  uint64_t wdog_trips = 0;         // watchdog events of the DUT (limit 3000 cycles in storms)
  uint64_t bad_ctrl = 0, bad_rx = 0;
  uint64_t max_settle = 0;         // longest calm phase until every flow completed (cycles)
  uint64_t violations = 0;         // scoreboard
  uint64_t assertions = 0;         // SystemVerilog assertion failures
  std::string first_violation;
};

/// The protocol's receiver model (lib/tonic/any_receiver.hpp). Flows are
/// keyed by (flow id, incarnation) so that the packets of a removed flow
/// never reach its next incarnation.
using AnyRx = AnyReceiver;

template <class Model, uint32_t kFlows, uint32_t kW>
class Soak {
 public:
  static constexpr uint32_t kRing = layout::top::kRingN;  // tonic_top's RingN

  Soak(ProtocolId p, const Options& o) : p_(p), o_(o), rng_(o.seed), rx_(p, kW), sb_(kFlows, options()), fl_(kFlows) {
    // Assertion failures are counted (Verilator's error count), not fatal.
    Verilated::threadContextp()->errorLimit(1 << 30);
    Verilated::threadContextp()->fatalOnError(false);
    reset_and_wait_init(h_, kFlows + 64, "Soak");
    res_.proto = proto_name(p);
    bad0_ = read_stats();
  }

  Result run() {
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t c0 = h_.cycle();
    const uint64_t end = c0 + o_.cycles;
    while (h_.cycle() < end) {
      storm(std::min<uint64_t>(end - h_.cycle(), rng_.range(20'000, 200'000)));
      if (h_.cycle() >= end) break;
      calm(end);
      ++res_.phases;
    }
    calm(UINT64_MAX);  // a last calm phase: every flow must complete
    ++res_.phases;
    draining_ = true;  // no more bad input: let the counters settle
    for (int i = 0; i < 64 || !rx_q_.empty(); ++i) step();
    finish_checks();
    res_.cycles = h_.cycle() - c0;
    res_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res_.assertions = static_cast<uint64_t>(Verilated::threadContextp()->errorCount());
    return res_;
  }

 private:
  // What the host knows about one flow id; the engine's side of the flow
  // (present, first, posted, snd_max, acked ...) is sb_.flow(f).
  struct Flow {
    bool host_on = false;   // the host's view (ops queued): added and not removed
    uint32_t key = 0;       // receiver key of the current incarnation
    uint32_t host_start = 0, host_seg = 0, host_posted = 0, host_last = 0;  // the host's view
    uint32_t inc = 0;                         // incarnations so far
  };
  /// The soak's rules: every one, the decisions followed (trace_ns_o), at
  /// most RingN decided and not out, RingN addresses after a REMOVE.
  static ScoreboardOptions options() {
    ScoreboardOptions o;
    o.after_remove = ScoreboardOptions::AfterRemove::kDrain;
    o.drain_limit = kRing;
    o.window = kW;
    o.check_posted = true;
    o.check_len = true;
    o.generation_order = true;
    o.ring_n = kRing;
    return o;
  }
  struct Pkt {
    uint64_t at, seq;
    uint32_t key, idx;
    bool trimmed, ce;
    uint32_t ts;  // transmit stamp, echoed by the receiver
    bool rtx;
    bool operator>(const Pkt& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Ev {
    uint64_t at, seq;
    RxEvent e;
    bool operator>(const Ev& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Stats {
    uint32_t ctrl_bad, bad_sack, bad_ack, bad_type, unknown, segs, rtx, flow_range, wdog;
  };

  // ----- phases -----
  void storm(uint64_t n) {
    storm_ = true;
    loss_ = rng_.chance(0.2) ? 0.0 : 0.001 * static_cast<double>(rng_.range(1, 50));
    ack_loss_ = rng_.chance(0.5) ? 0.0 : 0.001 * static_cast<double>(rng_.range(1, 20));
    reorder_ = rng_.chance(0.3) ? 0.0 : 0.01 * static_cast<double>(rng_.range(1, 30));
    delay_ = rng_.range(10, 400);
    ready_p_ = rng_.chance(0.3) ? 1.0 : 0.5 + 0.5 * rng_.chance(0.5);
    for (uint64_t i = 0; i < n; ++i) {
      host();
      step();
    }
  }

  // No new ops, no loss: run until every present flow has all its posted
  // data acked (checked every 256 cycles), or the bound (a violation), or
  // `end` (no verdict; the run's last calm phase has no end).
  void calm(uint64_t end) {
    storm_ = false;
    loss_ = ack_loss_ = reorder_ = 0.0;
    const uint64_t bound = 2 * rto_max(p_) + 200'000;
    const uint64_t t0 = h_.cycle();
    bool done = false;
    uint64_t el = 0;
    for (;;) {
      step();
      el = h_.cycle() - t0;
      if ((el & 255) == 0 && all_complete()) {
        done = true;
        break;
      }
      if (el >= bound || h_.cycle() >= end) break;
    }
    if (done) {
      res_.max_settle = std::max(res_.max_settle, el);
      for (uint32_t f = 0; f < kFlows; ++f) res_.bursts_completed += sb_.flow(f).added;
    } else if (el >= bound) {
      for (uint32_t f = 0; f < kFlows; ++f) {
        const ScoreFlow& t = sb_.flow(f);
        if (t.added && t.acked != t.posted) {
          std::ostringstream m;
          m << "cycle " << h_.cycle() << ": flow " << f << " did not complete within " << el
            << " cycles of calm: acked " << t.acked << " posted " << t.posted << " sent " << t.snd_max;
          violation(m.str());
        }
      }
      if (held_.has_value() || !ctrl_q_.empty()) violation("control ops still pending after a calm phase");
    }
  }

  bool all_complete() const {
    if (held_.has_value() || !ctrl_q_.empty()) return false;
    for (uint32_t f = 0; f < kFlows; ++f) {
      const ScoreFlow& t = sb_.flow(f);
      if (t.added && t.acked != t.posted) return false;
    }
    return true;
  }

  // ----- host -----
  void host() {
    if (ctrl_q_.size() > 4) return;
    const uint32_t f = static_cast<uint32_t>(rng_.below(kFlows));
    Flow& t = fl_[f];
    const ScoreFlow& e = sb_.flow(f);
    const uint64_t r = rng_.below(100'000);
    if (r < 40) {  // ADD a flow the host does not have
      if (t.host_on) return;
      uint32_t start = static_cast<uint32_t>(rng_.bits64());
      if (rng_.chance(0.3)) start = 0xFFFF'FFFFu - static_cast<uint32_t>(rng_.below(200));  // across 2^32
      if (e.tracked && seq_dist_abs(start, e.snd_max) < (1u << 20)) start = e.snd_max + 0x4000'0000u;
      const uint32_t seg = static_cast<uint32_t>(rng_.range(64, 4096));
      t.host_on = true;
      t.host_start = t.host_posted = start;
      t.host_seg = t.host_last = seg;
      ctrl_q_.push_back({CtrlOp::kAdd, f, start, seg});
      ++res_.adds;
    } else if (r < 2000) {  // POST more (after a short last segment only once it is acked)
      if (!t.host_on) return;
      if (t.host_last < t.host_seg && !(e.added && e.posted == t.host_posted && e.acked == e.posted)) return;
      const uint32_t n = static_cast<uint32_t>(rng_.range(1, 48));
      const uint32_t seg = t.host_seg;
      const uint32_t last = rng_.chance(0.3) ? static_cast<uint32_t>(rng_.range(1, seg)) : seg;
      t.host_posted += n;
      t.host_last = last;
      ctrl_q_.push_back({CtrlOp::kPost, f, t.host_posted, last});
      ++res_.posts;
    } else if (r < 2030) {  // REMOVE (mid-flight or idle)
      if (!t.host_on) return;
      t.host_on = false;
      ctrl_q_.push_back({CtrlOp::kRemove, f, 0, 0});
      ++res_.removes;
    } else if (r < 2070) {  // bad control input
      const uint64_t k = rng_.below(6);
      if (k == 0 && t.host_on) {
        ctrl_q_.push_back({CtrlOp::kAdd, f, static_cast<uint32_t>(rng_.bits64()), 100});  // ADD of a present flow
      } else if (k == 1 && !t.host_on) {
        ctrl_q_.push_back({CtrlOp::kPost, f, static_cast<uint32_t>(rng_.bits64()), 100});  // POST of an absent one
      } else if (k == 2 && !t.host_on) {
        ctrl_q_.push_back({CtrlOp::kRemove, f, 0, 0});  // REMOVE of an absent one
      } else if (k == 3 && t.host_on && t.host_posted != t.host_start) {
        // POST backwards, or more than 2^30 ahead.
        const uint32_t s = rng_.chance(0.5) ? t.host_posted - 1 : t.host_posted + 0x4000'0000u + 0x1000'0000u;
        ctrl_q_.push_back({CtrlOp::kPost, f, s, 100});
      } else if (k == 4) {
        ctrl_q_.push_back({static_cast<CtrlOp>(3), f, 0, 0});  // undefined op code
      } else if (k == 5) {
        const CtrlOp op = static_cast<CtrlOp>(rng_.below(3));
        ctrl_q_.push_back({op, kFlows + static_cast<uint32_t>(rng_.below(0x10000 - kFlows)), 0, 100});  // id range
      } else {
        return;
      }
      ++res_.bad_ctrl;
    }
  }

  // ----- one cycle -----
  void step() {
    auto& d = h_.dut();
    const uint64_t c = h_.cycle();
    drive_ctrl(d, ctrl_q_);

    // Network: arrivals at the receiver, then its events (and bad input).
    while (!fwd_.empty() && fwd_.top().at <= c) {
      const Pkt p = fwd_.top();
      fwd_.pop();
      rx_.segment(c, p.key, p.idx, p.ce, p.trimmed, p.ts, p.rtx);
    }
    rx_.advance(c, evs_);
    for (const RxEvent& e : evs_) {
      if (storm_ && ack_loss_ > 0 && rng_.chance(ack_loss_)) {
        ++res_.acks_lost;
        continue;
      }
      uint64_t at = c + delay_;
      if (storm_ && reorder_ > 0 && rng_.chance(reorder_)) {
        at += rng_.range(1, 3 * delay_);
        ++res_.reordered;
      }
      ret_.push({at, seq_++, e});
    }
    while (!ret_.empty() && ret_.top().at <= c) {
      const RxEvent e = ret_.top().e;
      ret_.pop();
      const uint32_t f = e.flow % kFlows;
      if (!sb_.flow(f).added || fl_[f].key != e.flow) continue;  // an earlier incarnation
      RxCmd r = to_cmd(e);
      r.flow = f;
      rx_q_.push_back({r, true});
    }
    if (!draining_ && rng_.chance(storm_ ? 0.002 : 0.0005)) inject_bad_rx();
    d.rx_valid_i = 0;
    if (!rx_q_.empty()) drive_rx_beat(d, rx_q_.front().first, rx_q_.front().first.ecn, rx_q_.front().first.grant);

    // DMA sink: long pauses, single-cycle ones, bursty readiness.
    if (pause_ > 0) {
      --pause_;
      d.seg_ready_i = 0;
    } else {
      if (rng_.chance(storm_ ? 2e-4 : 2e-5)) {
        pause_ = rng_.range(100, storm_ ? 5000 : 500);
        ++res_.pauses;
      }
      d.seg_ready_i = ready_p_ >= 1.0 ? !rng_.chance(0.02) : rng_.chance(ready_p_);
    }
    d.note_ready_i = rng_.chance(0.9);
    d.wdog_limit_i = storm_ ? 3000 : 0;  // the watchdog trips on the longest pauses
    d.probe_flow_i = static_cast<uint32_t>(c % kFlows);
    h_.eval();

    // Next-seg decisions, with the state before this cycle's control op.
    const uint64_t ns = d.trace_ns_o;
    if ((ns >> 49) & 1) {
      const uint32_t f = static_cast<uint32_t>((ns >> 32) & 0xFFFF);
      const uint32_t idx = static_cast<uint32_t>(ns);
      sb_.generated(c, f, idx, (ns >> 48) & 1);
      sync();
    }
    // Control: the held op executes in the first cycle after its handshake
    // in which ctrl_ready_o is high; then this cycle's handshake.
    if (held_.has_value() && d.ctrl_ready_o) {
      exec(c, *held_);
      held_.reset();
    }
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      held_ = ctrl_q_.front();
      ctrl_q_.pop_front();
    }
    if (d.rx_valid_i) {
      const RxCmd& r = rx_q_.front().first;
      if (rx_q_.front().second && (r.type == RxType::kAck || r.type == RxType::kSack || r.type == RxType::kNack)) {
        sb_.ack(r.flow, r.cum_ack);
      }
      rx_q_.pop_front();
    }
    if (d.seg_valid_o && d.seg_ready_i) on_seg(c, d.seg_flow_o, d.seg_idx_o, d.seg_rtx_o, d.seg_len_o, d.seg_ts_o);
    if (d.cr_enq_drop_o) violation("CR ring overflow (more than RingN outstanding)");
    h_.tick();
  }

  void exec(uint64_t c, const CtrlCmd& k) {
    if (k.flow >= kFlows || static_cast<int>(k.op) > 2) return;  // bad input: ignored
    Flow& t = fl_[k.flow];
    const ScoreFlow& e = sb_.flow(k.flow);
    switch (k.op) {
      case CtrlOp::kAdd:
        if (e.added) break;  // bad input: ignored by the DUT too
        sb_.add(c, k.flow, k.seq, k.len);  // (a violation if decisions are still queued)
        sync();
        ++t.inc;
        t.key = k.flow + kFlows * t.inc;
        rx_.open(t.key, k.seq);
        break;
      case CtrlOp::kPost:
        if (seq_lt(e.acked + 0x4000'0000u, k.seq)) break;  // more than 2^30 ahead: refused
        sb_.post(k.flow, k.seq, k.len);
        break;
      case CtrlOp::kRemove:
        sb_.remove(k.flow);
        break;
    }
  }

  void on_seg(uint64_t c, uint32_t f, uint32_t idx, bool rtx, uint32_t len, uint32_t ts) {
    if (res_.segments == o_.mutate_at) ++idx;  // self-test of the checks
    ++res_.segments;
    res_.retransmissions += rtx;
    const SegmentScoreboard::Verdict v = sb_.segment(c, f, idx, rtx, len);
    sync();
    if (v != SegmentScoreboard::Verdict::kCurrent) return;  // a violation, or draining: the receiver is gone
    const Flow& t = fl_[f];
    // The network.
    if (storm_ && loss_ > 0 && rng_.chance(loss_)) {
      if (registry::get(p_).receiver == Receiver::kNdp && rng_.chance(0.5)) {  // trimmed, not dropped
        ++res_.trimmed;
        fwd_.push({c + delay_, seq_++, t.key, idx, true, false, ts, rtx});
      } else {
        ++res_.lost;
      }
      return;
    }
    uint64_t at = c + delay_;
    if (storm_ && reorder_ > 0 && rng_.chance(reorder_)) {
      at += rng_.range(1, 3 * delay_);
      ++res_.reordered;
    }
    const bool ce = storm_ && rng_.chance(0.01);
    fwd_.push({at, seq_++, t.key, idx, false, ce, ts, rtx});
  }

  /// Counts the scoreboard's new violations (its first one as the message).
  void sync() {
    for (; sb_seen_ < sb_.errors(); ++sb_seen_) violation(sb_seen_ == 0 ? sb_.first_error() : std::string());
  }

  void inject_bad_rx() {
    const uint32_t f = static_cast<uint32_t>(rng_.below(kFlows));
    const ScoreFlow& t = sb_.flow(f);
    const bool host_on = fl_[f].host_on;
    RxCmd r;
    r.flow = f;
    switch (rng_.below(6)) {
      case 0:  // unknown flow
        if (t.added || host_on) return;
        r.type = RxType::kAck;
        r.cum_ack = static_cast<uint32_t>(rng_.bits64());
        break;
      case 5:  // flow id beyond FlowCount (16-bit ids)
        r.flow = kFlows + static_cast<uint32_t>(rng_.below(0x10000 - kFlows));
        r.type = static_cast<RxType>(rng_.below(6));
        r.cum_ack = static_cast<uint32_t>(rng_.bits64());
        break;
      case 1:  // unknown type
        if (!t.added || !host_on) return;
        r.type = static_cast<RxType>(rng_.range(6, 7));
        r.cum_ack = t.acked;
        break;
      case 2:  // cumulative ack beyond next_new
        if (!t.added) return;
        r.type = RxType::kAck;
        r.cum_ack = t.snd_max + kRing + 8 + static_cast<uint32_t>(rng_.below(1000));
        break;
      case 3:  // stale ack (below wnd_start): legal, changes nothing
        if (!t.added || t.acked == t.start) return;
        r.type = RxType::kAck;
        r.cum_ack = t.acked - 1 - static_cast<uint32_t>(rng_.below(std::min<uint32_t>(kW, t.acked - t.start)));
        break;
      default:  // SACK outside [wnd_start, next_new)
        if (!t.added || !host_on) return;
        r.type = RxType::kSack;
        r.cum_ack = t.start;  // stale: only the SACK part matters
        r.sack_valid = true;
        r.sack_idx = rng_.chance(0.5) ? t.snd_max + kRing + 8 + static_cast<uint32_t>(rng_.below(100))
                                      : t.start - 1 - static_cast<uint32_t>(rng_.below(100));
        break;
    }
    ++res_.bad_rx;
    ++bad_rx_kind_[r.flow >= kFlows ? 5 : static_cast<int>(r.type) >= 6 ? 1 : (r.sack_valid ? 4 : (t.added ? 2 : 0))];
    rx_q_.push_front({r, false});
  }

  Stats read_stats() {
    auto& d = h_.dut();
    Stats s;
    s.segs = dd_stat(d, DdStat::kSegments);
    s.rtx = dd_stat(d, DdStat::kRetransmits);
    s.ctrl_bad = dd_stat(d, DdStat::kCtrlBad);
    s.bad_sack = dd_stat(d, DdStat::kRxBadSack);
    s.bad_ack = dd_stat(d, DdStat::kRxBadAck);
    s.bad_type = dd_stat(d, DdStat::kRxBadType);
    s.unknown = dd_stat(d, DdStat::kRxUnknownFlow);
    s.flow_range = dd_stat(d, DdStat::kRxFlowRange);
    s.wdog = dd_stat(d, DdStat::kWdogTrips);
    return s;
  }

  void finish_checks() {
    const Stats s = read_stats();
    std::ostringstream m;
    if (s.ctrl_bad - bad0_.ctrl_bad != res_.bad_ctrl) {
      m << "bad control ops counted " << (s.ctrl_bad - bad0_.ctrl_bad) << ", injected " << res_.bad_ctrl;
      violation(m.str());
    }
    // 32-bit counters: compare the low bits of what was injected.
    if (static_cast<uint32_t>(s.bad_type - bad0_.bad_type) < static_cast<uint32_t>(bad_rx_kind_[1])) {
      violation("unknown-type events counted below those injected");
    }
    if (static_cast<uint32_t>(s.bad_sack - bad0_.bad_sack) < static_cast<uint32_t>(bad_rx_kind_[4])) {
      violation("bad SACKs counted below those injected");
    }
    if (static_cast<uint32_t>(s.flow_range - bad0_.flow_range) != static_cast<uint32_t>(bad_rx_kind_[5])) {
      violation("rx flow ids beyond FlowCount: counted " + std::to_string(s.flow_range - bad0_.flow_range) +
                ", injected " + std::to_string(bad_rx_kind_[5]));
    }
    res_.wdog_trips = s.wdog - bad0_.wdog;
  }

  void violation(const std::string& what) {
    if (res_.violations++ == 0) {
      res_.first_violation = what;
      if (!o_.quiet) std::fprintf(stderr, "soak %s: VIOLATION: %s\n", proto_name(p_), what.c_str());
    }
  }

  static uint32_t seq_dist_abs(uint32_t a, uint32_t b) {
    const uint32_t d = a - b;
    return (d & 0x8000'0000u) ? 0u - d : d;
  }

  ProtocolId p_;
  Options o_;
  Harness<Model> h_;
  Rng rng_;
  AnyRx rx_;
  SegmentScoreboard sb_;
  uint64_t sb_seen_ = 0;  // scoreboard violations counted in res_
  std::vector<Flow> fl_;
  std::deque<CtrlCmd> ctrl_q_;
  std::optional<CtrlCmd> held_;
  std::deque<std::pair<RxCmd, bool>> rx_q_;  // beat, from the receiver (else injected)
  std::priority_queue<Pkt, std::vector<Pkt>, std::greater<Pkt>> fwd_;
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> ret_;
  std::vector<RxEvent> evs_;
  uint64_t seq_ = 0;
  bool storm_ = false, draining_ = false;
  double loss_ = 0, ack_loss_ = 0, reorder_ = 0, ready_p_ = 1.0;
  uint64_t delay_ = 100, pause_ = 0;
  uint64_t bad_rx_kind_[6] = {0, 0, 0, 0, 0, 0};
  Stats bad0_{};
  Result res_;
};

}  // namespace tonic::soak
