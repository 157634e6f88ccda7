// SPDX-License-Identifier: Apache-2.0
// Testbench driver for tonic_rate_timer: one command per cycle, random
// back-pressure on the release stream, every release checked by TimerRef.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "Vtimer_1024.h"
#include "Vtimer_4096.h"
#include "Vtimer_small.h"
#include "tonic/harness.hpp"
#include "common/ref/timer_ref.hpp"
#include "tonic/rng.hpp"
#include "common/stream.hpp"

namespace tonic {

/// Parameters of each Verilated configuration (rtl/manifest/timer.json).
template <class Model>
struct TimerParams;
template <>
struct TimerParams<Vtimer_1024> {
  static constexpr uint32_t kFlows = 1024, kSlotShift = 2;
};
template <>
struct TimerParams<Vtimer_4096> {
  static constexpr uint32_t kFlows = 4096, kSlotShift = 4;
};
template <>
struct TimerParams<Vtimer_small> {
  static constexpr uint32_t kFlows = 1024, kSlotShift = 3;
};

/// Documented bounds (docs/cells/timer.md).
template <class Model>
struct TimerBounds {
  static constexpr uint64_t kFlows = TimerParams<Model>::kFlows;
  static constexpr uint64_t kSlotLen = uint64_t{1} << TimerParams<Model>::kSlotShift;
  /// Worst case, any load: lateness - back-pressured cycles <= this.
  static constexpr uint64_t kWorst = kFlows + 12;
  /// A hinted flow with nothing else due near it (no backlog).
  static constexpr uint64_t kHinted = kSlotLen + 12;
};

struct TimerCmd {
  bool valid = false;
  bool cancel = false;
  uint32_t flow = 0;
  uint64_t deadline = 0;  // unwrapped testbench time
};

template <class Model>
class TimerTb {
 public:
  using B = TimerBounds<Model>;

  /// Resets the DUT with now_o starting at now_init and runs the init sweep.
  explicit TimerTb(uint32_t now_init = 0, bool keep_log = true)
      : ref_(TimerParams<Model>::kFlows, B::kWorst), init_(now_init), keep_log_(keep_log) {
    dut().now_init_i = now_init;
    dut().arm_valid_i = 0;
    dut().arm_cancel_i = 0;
    dut().arm_flow_i = 0;
    dut().arm_time_i = 0;
    dut().rel_ready_i = 1;
    h_.reset();
    int n = 0;
    while (!(h_.eval(), dut().init_done_o)) {
      step();
      if (++n > 1000000) {
        fail("init_done_o never rose");
        break;
      }
    }
  }

  Model& dut() { return h_.dut(); }
  Harness<Model>& h() { return h_; }
  TimerRef& ref() { return ref_; }
  const TimerRef& ref() const { return ref_; }
  uint64_t now() const { return t_; }
  uint32_t dut_time(uint64_t t) const { return static_cast<uint32_t>(init_ + t); }

  /// One cycle: present `cmd` and `ready`, check, advance the clock.
  void step(const TimerCmd& cmd = {}, bool ready = true) {
    dut().arm_valid_i = cmd.valid;
    dut().arm_cancel_i = cmd.cancel;
    dut().arm_flow_i = cmd.flow;
    dut().arm_time_i = cmd.valid ? dut_time(cmd.deadline) : 0;
    dut().rel_ready_i = ready;
    h_.eval();
    if (static_cast<uint32_t>(dut().now_o) != dut_time(t_)) fail("now_o does not advance by 1");
    if (cmd.valid && !dut().init_done_o) fail("command before init_done_o");
    const bool valid = dut().rel_valid_o;
    const uint32_t flow = dut().rel_flow_o;
    ref_.begin_cycle(t_);
    if (held_ && !valid) fail("rel_valid_o dropped without a transfer");
    if (held_ && valid && flow != held_flow_) fail("rel_flow_o changed while held");
    if (valid && !held_) {
      ref_.release(t_, flow);
      if (keep_log_) log_.push_back({t_, flow});
    }
    if (cmd.valid) ref_.command(t_, cmd.flow, cmd.cancel, cmd.deadline);
    ref_.end_cycle(t_, valid && !ready);
    transfers_ += valid && ready;
    held_ = valid && !ready;
    held_flow_ = flow;
    drops_ += dut().hint_drop_o;
    h_.tick();
    ++t_;
  }

  void arm(uint32_t flow, uint64_t deadline, bool ready = true) {
    step({true, false, flow, deadline}, ready);
  }
  void cancel(uint32_t flow, bool ready = true) { step({true, true, flow, 0}, ready); }
  void idle(uint64_t cycles, bool ready = true) {
    for (uint64_t i = 0; i < cycles; ++i) step({}, ready);
  }

  /// Releases seen so far: (cycle first presented, flow).
  const std::vector<std::pair<uint64_t, uint32_t>>& log() const { return log_; }
  void clear_log() { log_.clear(); }
  /// Cycle of the first release of `flow` at or after `from`, or UINT64_MAX.
  uint64_t released_at(uint32_t flow, uint64_t from = 0) const {
    for (auto& [t, f] : log_)
      if (f == flow && t >= from) return t;
    return UINT64_MAX;
  }
  size_t count_released(uint32_t flow) const {
    size_t n = 0;
    for (auto& p : log_) n += p.second == flow;
    return n;
  }

  uint64_t transfers() const { return transfers_; }
  uint64_t drops() const { return drops_; }
  uint64_t errors() const { return errors_ + ref_.errors(); }
  std::string first_error() const { return errors_ ? first_error_ : ref_.first_error(); }

 private:
  void fail(const std::string& what) {
    if (errors_++ == 0) first_error_ = "cycle " + std::to_string(t_) + ": " + what;
  }

  Harness<Model> h_;
  TimerRef ref_;
  uint32_t init_;
  bool keep_log_;
  uint64_t t_ = 0;
  bool held_ = false;
  uint32_t held_flow_ = 0;
  uint64_t transfers_ = 0, drops_ = 0, errors_ = 0;
  std::string first_error_;
  std::vector<std::pair<uint64_t, uint32_t>> log_;
};

/// Random command stream: arms with deadlines from the past to far beyond
/// the hint wheels' horizon, re-arms (earlier and later) of a hot set, and
/// cancels.
class TimerTraffic {
 public:
  TimerTraffic(Rng& rng, uint32_t flows, uint32_t slot_len, double cmd_prob = 0.8)
      : rng_(rng), flows_(flows), slot_len_(slot_len), cmd_prob_(cmd_prob) {}

  void set_cmd_prob(double p) { cmd_prob_ = p; }
  /// Share of arms that go to one of four common deadlines (bursts of flows
  /// expiring in the same cycle).
  void set_burst_share(double p) { burst_share_ = p; }

  TimerCmd next(uint64_t t) {
    TimerCmd c;
    if (!rng_.chance(cmd_prob_)) return c;
    c.valid = true;
    // A quarter of the commands hit 16 hot flows: many re-arms of queued flows.
    c.flow = rng_.chance(0.25) ? static_cast<uint32_t>(rng_.below(16)) * (flows_ / 16)
                               : static_cast<uint32_t>(rng_.below(flows_));
    if (rng_.chance(0.08)) {
      c.cancel = true;
      return c;
    }
    const uint64_t f = flows_;
    if (burst_share_ > 0.0 && rng_.chance(burst_share_)) {
      auto& b = burst_[rng_.below(4)];
      if (b <= t) b = t + rng_.range(1, 3 * f);
      c.deadline = b;
      return c;
    }
    const uint64_t w = rng_.below(100);
    if (w < 8) {
      c.deadline = t - std::min<uint64_t>(t, rng_.range(0, 300));  // past
    } else if (w < 20) {
      c.deadline = t + rng_.range(0, 4 * slot_len_);  // now-ish
    } else if (w < 60) {
      c.deadline = t + rng_.range(0, 2 * f + 64);  // near / around the far threshold
    } else if (w < 80) {
      c.deadline = t + rng_.range(2 * f, 6 * f);  // far: hinted by the sweep
    } else if (w < 95) {
      c.deadline = t + rng_.range(6 * f, 20 * f);  // far, beyond the wheel horizon
    } else {
      c.deadline = t + rng_.range(uint64_t{1} << 20, (uint64_t{1} << 31) - 1);  // very far
    }
    return c;
  }

 private:
  Rng& rng_;
  uint32_t flows_;
  uint32_t slot_len_;
  double cmd_prob_;
  double burst_share_ = 0.0;
  uint64_t burst_[4] = {0, 0, 0, 0};
};

}  // namespace tonic
