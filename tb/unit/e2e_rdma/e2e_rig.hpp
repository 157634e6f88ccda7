// SPDX-License-Identifier: Apache-2.0
// Pieces shared by the end-to-end tests of the rate and token protocols
// (label e2e_rdma: each protocol's tests are in its folder,
// protocols/<name>/tests/e2e_rdma.cpp, part of test_e2e_rdma): delay lines,
// the conversion of a receiver model's event into an rx beat, a log of the
// rx beats that entered the sender (to match each incoming stage-2 trace
// with its event, two cycles later), an error collector (also used by
// tb/unit/loopback), the flow set-up and segment loss of the closed loops,
// and the directed driver with its collector of segment addresses.
#pragma once

#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tonic/rx_common.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/rng.hpp"
#include "tonic/rx_beat.hpp"
#include "tonic/sys_tb.hpp"

namespace tonic::e2e {

/// The flows of the 16x128 builds the tests run.
inline constexpr uint32_t kFlowCount = 16;

/// Incoming stage 2 runs two cycles after its event entered (rx input
/// register, stage 1; docs/protocol-api.md).
inline constexpr uint64_t kStage2Lag = 2;

/// A fixed delay: what is pushed in cycle c comes out in cycle c + delay.
template <class T>
class Delay {
 public:
  explicit Delay(uint64_t delay) : delay_(delay) {}
  void push(uint64_t c, const T& x) { q_.push_back({c + delay_, x}); }
  /// Calls f(x) for every item due at or before cycle c, oldest first.
  template <class F>
  void pop_due(uint64_t c, F&& f) {
    while (!q_.empty() && q_.front().first <= c) {
      const T x = q_.front().second;
      q_.pop_front();
      f(x);
    }
  }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }

 private:
  uint64_t delay_;
  std::deque<std::pair<uint64_t, T>> q_;
};



/// A segment address that left the sender, as a packet into the switch.
inline SwitchPacket to_switch_packet(const SysSeg& s) {
  SwitchPacket p;
  p.flow = s.flow;
  p.seg = s.idx;
  p.len = s.len;
  p.rtx = s.rtx;
  return p;
}

/// The closed loop of the random-loss tests: each cycle, the segments due
/// on `fwd` arrive at the receiver (`arrive(c, s)`), its events go back
/// through `ret` to the sender's rx stream, and the sender steps. Runs until
/// `done()` (tested every 256 cycles), `max` cycles, or an error (the
/// testbench's or `errors()`); returns the cycles run.
template <class Tb, class Rx, class Arrive, class Done, class Errors>
uint64_t run_closed_loop(Tb& tb, Rx& rx, Delay<SysSeg>& fwd, Delay<RxEvent>& ret, uint64_t max, Arrive&& arrive,
                         Done&& done, Errors&& errors) {
  uint64_t cycles = 0;
  for (; cycles < max && errors() == 0 && tb.errors() == 0; ++cycles) {
    const uint64_t c = tb.cycle();
    fwd.pop_due(c, [&](const SysSeg& s) { arrive(c, s); });
    rx.advance(c);
    for (const RxEvent& e : rx.take_acks()) ret.push(c, e);
    ret.pop_due(c, [&](const RxEvent& e) { tb.send_rx(to_cmd(e)); });
    tb.step();
    if ((cycles & 255) == 0 && done()) break;
  }
  return cycles;
}

/// The rx beats that entered the sender (rx_valid_i in a cycle), so that a
/// stage-2 trace in cycle t finds its event (entered in t - 2).
class RxLog {
 public:
  struct Entry {
    uint64_t cycle = 0;
    SysRxCmd cmd;
  };
  template <class Model>
  void sample(uint64_t c, const Model& d) {
    if (!d.rx_valid_i) return;
    Entry e;
    e.cycle = c;
    e.cmd.flow = d.rx_flow_i;
    e.cmd.type = static_cast<SysRx>(d.rx_type_i);
    e.cmd.cum_ack = d.rx_cum_ack_i;
    e.cmd.sack_valid = d.rx_sack_valid_i;
    e.cmd.sack_idx = d.rx_sack_idx_i;
    e.cmd.ecn = d.rx_ecn_i;
    e.cmd.grant = d.rx_grant_i;
    q_.push_back(e);
  }
  /// The event that entered in cycle c (nullptr if none); forgets older ones.
  const SysRxCmd* at(uint64_t c) {
    while (!q_.empty() && q_.front().cycle < c) q_.pop_front();
    return (!q_.empty() && q_.front().cycle == c) ? &q_.front().cmd : nullptr;
  }

 private:
  std::deque<Entry> q_;
};

/// The first error of a checker (and how many there were).
class Errors {
 public:
  void fail(uint64_t c, const std::string& what) {
    if (n_++ == 0) first_ = "cycle " + std::to_string(c) + ": " + what;
  }
  uint64_t count() const { return n_; }
  const std::string& first() const { return first_; }

 private:
  uint64_t n_ = 0;
  std::string first_;
};

/// The rx beat that the stage-2 trace `ti` of cycle c belongs to (entered
/// kStage2Lag cycles earlier, same flow); nullptr, with the error recorded,
/// if there is none.
inline const SysRxCmd* stage2_event(RxLog& log, uint64_t c, const SysTrace& ti, Errors& err) {
  const SysRxCmd* ev = c >= kStage2Lag ? log.at(c - kStage2Lag) : nullptr;
  if (!ev || ev->flow != ti.flow) {
    err.fail(c, "stage-2 trace without its rx beat two cycles earlier");
    return nullptr;
  }
  return ev;
}

/// Adds flows 0 .. flows-1 to the sender (first index 0, `segs` segments
/// of `seg_bytes` posted) and opens each at index 0 in `rx` (a receiver
/// model or an acker).
template <class Tb, class Rx>
void open_flows(Tb& tb, Rx& rx, uint32_t flows, uint32_t segs, uint32_t seg_bytes) {
  for (uint32_t f = 0; f < flows; ++f) {
    tb.add(f, 0, seg_bytes);
    tb.post(f, segs, seg_bytes);
    rx.open(f, 0);
  }
}

/// Whether a segment is lost on the way (probability `loss`, one draw of
/// `rng`); a loss is counted in `drops`.
inline bool lost(Rng& rng, double loss, uint64_t& drops) {
  if (!rng.chance(loss)) return false;
  ++drops;
  return true;
}

/// A segment address as the directed tests expect it.
struct Out {
  uint32_t flow = 0;
  uint32_t idx = 0;
  bool rtx = false;
  bool operator==(const Out& o) const { return flow == o.flow && idx == o.idx && rtx == o.rtx; }
};

inline std::string str(const std::vector<Out>& v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? " " : "") << v[i].flow << ":" << v[i].idx << (v[i].rtx ? "r" : "");
  os << "]";
  return os.str();
}

/// `n` consecutive new segments of `flow` from `first`.
inline std::vector<Out> news(uint32_t flow, uint32_t first, uint32_t n) {
  std::vector<Out> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back({flow, first + i, false});
  return v;
}
inline std::vector<Out> rtxs(uint32_t flow, uint32_t first, uint32_t n) {
  std::vector<Out> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back({flow, first + i, true});
  return v;
}
inline std::vector<Out> cat(std::vector<Out> a, const std::vector<Out>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// A directed driver: queue rx beats, run, and compare the segment
/// addresses that left with what is expected.
template <class Model>
struct Directed {
  SysTb<Model> tb;
  std::vector<Out> outs;
  explicit Directed(uint32_t flow_count = 16) : tb(flow_count) {
    tb.on_seg = [this](const SysSeg& s) { outs.push_back({s.flow, s.idx, s.rtx}); };
  }
  /// Runs `cycles` cycles and returns the addresses that left meanwhile.
  std::vector<Out> run(uint64_t cycles) {
    outs.clear();
    tb.run(cycles);
    return outs;
  }
  /// Queues the beats, runs `cycles` cycles and returns what left.
  std::vector<Out> send(const std::vector<SysRxCmd>& beats, uint64_t cycles) {
    for (const auto& b : beats) tb.send_rx(b);
    return run(cycles);
  }
  /// Adds flows `a` and `b` (first index 0, `segs` segments of `seg_bytes`
  /// posted each), runs `cycles` cycles and returns what left, split into
  /// flow `a`'s addresses and the rest.
  std::pair<std::vector<Out>, std::vector<Out>> start_pair(uint32_t a, uint32_t b, uint32_t segs,
                                                           uint32_t seg_bytes, uint64_t cycles) {
    for (uint32_t f : {a, b}) {
      tb.add(f, 0, seg_bytes);
      tb.post(f, segs, seg_bytes);
    }
    std::pair<std::vector<Out>, std::vector<Out>> r;
    for (const Out& x : run(cycles)) (x.flow == a ? r.first : r.second).push_back(x);
    return r;
  }
};

}  // namespace tonic::e2e
