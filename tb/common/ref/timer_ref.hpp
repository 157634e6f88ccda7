// SPDX-License-Identifier: Apache-2.0
// TimerRef: checker for tonic_rate_timer (rtl/common/tonic_rate_timer.sv).
//
// Plain C++ (no Verilator headers). Not cycle-exact: it checks every release
// against the contract of the module header and docs/cells/timer.md.
// Time is the testbench's unwrapped 64-bit cycle number t (the DUT's now_o
// is now_init + t mod 2^32).
//
// Per cycle t, in this order:
//   begin_cycle(t)            commands of cycle t - 2 become visible;
//   release(t, flow)          if a NEW release is presented in cycle t
//                             (rel_valid_o, and not the one already held);
//   command(t, ...)           the command presented in cycle t, if any;
//   end_cycle(t, backpressed) rel_valid_o && !rel_ready_i in cycle t.
// Rules checked:
//   - a release is for the flow's latest visible command, which must be an
//     arm that was not released yet, with effective deadline e = max(d, arm
//     cycle) <= t - 2 (never early);
//   - service lateness (t - e) minus the back-pressured cycles of [e, t) is
//     at most `bound` (never late beyond the bound, so never lost);
//   - every visible, unreleased arming stays within the same bound at every
//     cycle (an overdue arming is an error even before it is released);
//   - order: when a flow is released, no pending arming expired more than
//     bound + back-pressure cycles earlier (implied by the above; tracked).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tonic {

class TimerRef {
 public:
  /// Cycles from a command to the first release that reflects it.
  static constexpr uint64_t kVisibility = 2;

  TimerRef(uint32_t flows, uint64_t bound) : flows_(flows), bound_(bound), state_(flows) {}

  uint64_t bound() const { return bound_; }

  void begin_cycle(uint64_t t) {
    while (!cmds_.empty() && cmds_.front().t + kVisibility <= t) {
      apply(cmds_.front());
      cmds_.pop_front();
    }
  }

  void command(uint64_t t, uint32_t flow, bool cancel, uint64_t deadline) {
    if (flow >= flows_) return fail(t, "command for flow out of range");
    cmds_.push_back({t, flow, cancel, std::max(deadline, t)});
    ++commands_;
  }

  /// A new release presented in cycle t.
  void release(uint64_t t, uint32_t flow) {
    ++releases_;
    if (flow >= flows_) return fail(t, "release of flow out of range");
    Flow& s = state_[flow];
    if (!s.armed) {
      std::ostringstream os;
      os << "release of flow " << flow << " that is not armed (never armed, cancelled "
         << "or already released)";
      return fail(t, os.str());
    }
    if (s.e + kVisibility > t) {
      std::ostringstream os;
      os << "early release of flow " << flow << ": deadline " << s.e;
      return fail(t, os.str());
    }
    const uint64_t late = t - s.e;
    const uint64_t svc = late - bp_between(s.e, t);
    max_late_ = std::max(max_late_, late);
    max_svc_late_ = std::max(max_svc_late_, svc);
    sum_late_ += late;
    if (svc > bound_) {
      std::ostringstream os;
      os << "late release of flow " << flow << ": deadline " << s.e << ", lateness " << late
         << ", back-pressured " << (late - svc) << ", bound " << bound_;
      return fail(t, os.str());
    }
    pending_.erase({s.e, flow});
    s.armed = false;
    if (!pending_.empty() && pending_.begin()->first < s.e) {
      const uint64_t eg = pending_.begin()->first;
      const uint64_t inv = s.e - eg;
      max_inversion_ = std::max(max_inversion_, inv);
      if (inv > bound_ + bp_between(eg, t)) {
        std::ostringstream os;
        os << "order: flow " << flow << " (deadline " << s.e << ") released before flow "
           << pending_.begin()->second << " (deadline " << eg << ")";
        fail(t, os.str());
      }
    }
  }

  void end_cycle(uint64_t t, bool backpressured) {
    // bp_prefix_[x] = back-pressured cycles in [0, x).
    while (bp_prefix_.size() < t + 1) bp_prefix_.push_back(bp_prefix_.back());
    bp_prefix_.push_back(bp_prefix_.back() + (backpressured ? 1 : 0));
    if (!pending_.empty()) {
      const auto [e, flow] = *pending_.begin();
      if (e <= t) {
        const uint64_t svc = (t + 1 - e) - bp_between(e, t + 1);
        if (svc > bound_ + 1) {
          std::ostringstream os;
          os << "flow " << flow << " overdue (lost?): deadline " << e << ", bound " << bound_;
          fail(t, os.str());
        }
      }
    }
  }

  /// Armings visible and not released (expired or not).
  size_t pending() const { return pending_.size(); }
  /// Visible, unreleased armings whose deadline is <= t.
  size_t expired_pending(uint64_t t) const {
    size_t n = 0;
    for (auto& p : pending_) {
      if (p.first > t) break;
      ++n;
    }
    return n;
  }
  bool armed(uint32_t flow) const { return state_[flow].armed; }

  uint64_t commands() const { return commands_; }
  uint64_t releases() const { return releases_; }
  uint64_t max_lateness() const { return max_late_; }
  uint64_t max_service_lateness() const { return max_svc_late_; }
  double mean_lateness() const { return releases_ ? double(sum_late_) / double(releases_) : 0.0; }
  uint64_t max_inversion() const { return max_inversion_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }

 private:
  struct Cmd {
    uint64_t t;
    uint32_t flow;
    bool cancel;
    uint64_t e;
  };
  struct Flow {
    bool armed = false;
    uint64_t e = 0;
  };

  void apply(const Cmd& c) {
    Flow& s = state_[c.flow];
    if (s.armed) pending_.erase({s.e, c.flow});
    s.armed = !c.cancel;
    s.e = c.e;
    if (s.armed) pending_.insert({s.e, c.flow});
  }

  /// Back-pressured cycles in [a, b) (cycles not yet ended count as none).
  uint64_t bp_between(uint64_t a, uint64_t b) const {
    auto at = [&](uint64_t x) -> uint64_t {
      return x < bp_prefix_.size() ? bp_prefix_[x] : bp_prefix_.back();
    };
    return b > a ? at(b) - at(a) : 0;
  }

  void fail(uint64_t t, const std::string& what) {
    if (errors_++ == 0) {
      std::ostringstream os;
      os << "cycle " << t << ": " << what;
      first_error_ = os.str();
    }
  }

  uint32_t flows_;
  uint64_t bound_;
  std::vector<Flow> state_;
  std::deque<Cmd> cmds_;
  std::set<std::pair<uint64_t, uint32_t>> pending_;  // (e, flow) of visible armings
  std::vector<uint64_t> bp_prefix_{0};
  uint64_t commands_ = 0, releases_ = 0, errors_ = 0;
  uint64_t max_late_ = 0, max_svc_late_ = 0, sum_late_ = 0, max_inversion_ = 0;
  std::string first_error_;
};

}  // namespace tonic
