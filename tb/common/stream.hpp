// SPDX-License-Identifier: Apache-2.0
// Valid/ready stream helpers for testbenches.
//
// Source<T>: queued items presented with random idle cycles; once an item is
//   presented (valid) it stays presented, unchanged, until accepted — the
//   stream rule "valid never drops, payload stable while valid && !ready".
// Sink: random back-pressure (ready low with a given probability, or for
//   bursts of cycles).
// Monitor<T>: records every transfer with its cycle.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "tonic/rng.hpp"

namespace tonic {

template <class T>
class Source {
 public:
  Source(Rng& rng, double idle_prob = 0.0) : rng_(rng), idle_prob_(idle_prob) {}
  void push(const T& item) { queue_.push_back(item); }
  bool empty() const { return queue_.empty() && !presenting_; }
  size_t pending() const { return queue_.size(); }
  void set_idle_prob(double p) { idle_prob_ = p; }

  /// Call once per cycle before eval(): the item to present, or nullptr.
  const T* present() {
    if (!presenting_) {
      if (queue_.empty() || (idle_prob_ > 0.0 && rng_.chance(idle_prob_))) return nullptr;
      presenting_ = true;
    }
    return &queue_.front();
  }
  /// Call when the presented item transferred (valid && ready this cycle).
  T accept() {
    T item = queue_.front();
    queue_.pop_front();
    presenting_ = false;
    return item;
  }

 private:
  Rng& rng_;
  double idle_prob_;
  std::deque<T> queue_;
  bool presenting_ = false;
};

class Sink {
 public:
  /// stall_prob: chance that a new stall starts in a cycle; stall_max: the
  /// longest stall in cycles (uniform in [1, stall_max]).
  Sink(Rng& rng, double stall_prob = 0.0, uint32_t stall_max = 1)
      : rng_(rng), stall_prob_(stall_prob), stall_max_(stall_max) {}
  /// Call once per cycle before eval(): the ready value for this cycle.
  bool ready() {
    if (stall_left_ > 0) {
      --stall_left_;
      return false;
    }
    if (stall_prob_ > 0.0 && rng_.chance(stall_prob_)) {
      stall_left_ = static_cast<uint32_t>(rng_.range(1, stall_max_)) - 1;
      return false;
    }
    return true;
  }

 private:
  Rng& rng_;
  double stall_prob_;
  uint32_t stall_max_;
  uint32_t stall_left_ = 0;
};

template <class T>
struct Transfer {
  uint64_t cycle;
  T item;
};

template <class T>
class Monitor {
 public:
  void record(uint64_t cycle, const T& item) { log_.push_back({cycle, item}); }
  const std::vector<Transfer<T>>& log() const { return log_; }
  size_t count() const { return log_.size(); }
  void clear() { log_.clear(); }

 private:
  std::vector<Transfer<T>> log_;
};

}  // namespace tonic
