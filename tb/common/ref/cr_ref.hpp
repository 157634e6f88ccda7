// SPDX-License-Identifier: Apache-2.0
// CrRef: reference checker for tonic_cr_engine (rtl/cr/tonic_cr_engine.sv),
// window-credit scheme.
//
// Plain C++ (no Verilator headers). Not cycle-exact (round-robin order
// depends on insert timing); it checks the contract of the module header:
//   - every address that leaves is the oldest queued address of its flow
//     (per-flow FIFO order, nothing invented, nothing reordered);
//   - an enqueue to a full ring (RingN queued, counting addresses read but
//     not yet out) is the only thing dropped, and the DUT must flag it;
//   - an add empties the flow's ring;
//   - transmit notifies name the flow of the address that left the cycle
//     before;
//   - at the end, after draining, nothing queued remains (never lost);
//   - wire gate (WireGate = 1, `gated`): per flow W = wire permits given
//     (gate(): add, or set on a revocation) minus addresses out. An
//     address may leave with W > 0; after a revocation, the flow's next
//     min(kPastGate, queued) addresses may leave without (they were past
//     the gate: the read in flight and the output queue). With WireGate
//     = 2 (`gate_init` >= 0) an add also sets W = gate_init.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

namespace tonic {

struct CrSeg {
  uint32_t flow = 0;
  uint32_t idx = 0;
  bool rtx = false;
  uint32_t len = 0;
  bool operator==(const CrSeg& o) const {
    return flow == o.flow && idx == o.idx && rtx == o.rtx && len == o.len;
  }
};

inline std::string to_string(const CrSeg& s) {
  std::ostringstream os;
  os << "{flow " << s.flow << ", idx " << s.idx << ", rtx " << s.rtx << ", len " << s.len << "}";
  return os.str();
}

class CrRef {
 public:
  /// Addresses of a flow that may be past the wire gate when it is
  /// revoked: tonic_cr_engine's output queue (OqDepth 4) and the read in
  /// flight.
  static constexpr uint32_t kPastGate = 5;

  /// `gate_init` >= 0: a ring init (add) also sets W to it (WireGate = 2).
  CrRef(uint32_t flows, uint32_t ring_n, bool gated = false, int64_t gate_init = -1)
      : q_(flows), ring_n_(ring_n), sent_(flows, 0), gated_(gated), gate_init_(gate_init), gate_(flows) {}

  /// Wire gate: W += cnt (set = false) or W = cnt (set = true) for `flow`.
  void gate(uint32_t flow, bool set, uint32_t cnt) {
    Gate& g = gate_[flow];
    if (set) {
      g.grace = static_cast<uint32_t>(std::min<size_t>(kPastGate, q_[flow].size()));
      g.w = cnt;
    } else {
      g.w += cnt;
    }
  }
  int64_t wire_permits(uint32_t flow) const { return gate_[flow].w; }

  /// An add in this cycle (before the enqueue of the same cycle).
  void add(uint32_t flow) {
    q_[flow].clear();
    if (gated_ && gate_init_ >= 0) gate_[flow].w = gate_init_;
  }

  /// An enqueue in this cycle; returns whether the reference accepts it.
  /// `in_flight` = addresses of this flow read by the DUT but not yet out
  /// is not visible here, so the full test is on queued-not-yet-out, which
  /// is what the producer must respect (outstanding <= RingN).
  bool enqueue(const CrSeg& s) {
    if (q_[s.flow].size() >= ring_n_) return false;
    q_[s.flow].push_back(s);
    ++queued_;
    return true;
  }

  /// An address left the DUT (seg_valid_o && seg_ready_i).
  void out(uint64_t cycle, const CrSeg& s) {
    ++outs_;
    if (s.flow >= q_.size()) return fail(cycle, "output for flow out of range: " + to_string(s));
    auto& q = q_[s.flow];
    if (q.empty()) return fail(cycle, "output of a flow with nothing queued: " + to_string(s));
    if (!(q.front() == s)) {
      return fail(cycle, "output " + to_string(s) + " but the flow's oldest is " + to_string(q.front()));
    }
    q.pop_front();
    if (gated_) {
      Gate& g = gate_[s.flow];
      if (g.grace > 0) {
        --g.grace;  // past the gate before the revocation
      } else if (g.w > 0) {
        --g.w;
      } else {
        return fail(cycle, "output without a wire permit: " + to_string(s));
      }
    }
    ++sent_[s.flow];
    last_out_flow_ = static_cast<int64_t>(s.flow);
    last_out_cycle_ = cycle;
  }

  /// A transmit notify seen in `cycle`.
  void notify(uint64_t cycle, uint32_t flow) {
    if (last_out_flow_ < 0 || last_out_cycle_ + 1 != cycle || static_cast<uint32_t>(last_out_flow_) != flow) {
      std::ostringstream os;
      os << "transmit notify for flow " << flow << " does not follow an output of it in the previous cycle";
      fail(cycle, os.str());
    }
  }

  /// A cycle with an output in cycle - 1 must have a notify in `cycle`.
  void expect_notify(uint64_t cycle, bool seen) {
    if (last_out_flow_ >= 0 && last_out_cycle_ + 1 == cycle && !seen) {
      fail(cycle, "missing transmit notify");
    }
  }

  size_t queued(uint32_t flow) const { return q_[flow].size(); }
  size_t total_queued() const {
    size_t n = 0;
    for (const auto& q : q_) n += q.size();
    return n;
  }
  const std::vector<uint64_t>& sent() const { return sent_; }
  uint64_t outs() const { return outs_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }

 private:
  void fail(uint64_t cycle, const std::string& what) {
    if (errors_++ == 0) first_error_ = "cycle " + std::to_string(cycle) + ": " + what;
  }

  struct Gate {
    int64_t w = 0;       // wire permits left
    uint32_t grace = 0;  // outputs allowed without one (past the gate at a revocation)
  };
  std::vector<std::deque<CrSeg>> q_;
  uint32_t ring_n_;
  std::vector<uint64_t> sent_;
  bool gated_;
  int64_t gate_init_;
  std::vector<Gate> gate_;
  uint64_t queued_ = 0, outs_ = 0, errors_ = 0;
  int64_t last_out_flow_ = -1;
  uint64_t last_out_cycle_ = 0;
  std::string first_error_;
};

}  // namespace tonic
