// SPDX-License-Identifier: Apache-2.0
// FlowFifoRef: cycle-accurate reference model of tonic_flow_fifo.
//
// Plain C++ (no Verilator headers). One call of step() is one clock cycle;
// before it, out_valid()/out_id()/count() are what the DUT shows in that
// cycle. The rules (rtl/common/tonic_flow_fifo.sv header):
//   1. pop first: if out_valid() && out_ready, the head leaves and is no
//      longer a member;
//   2. then the inserts, port 0 first: an id that is not a member is appended
//      and becomes a member; an insert of a member is a no-op (so the same id
//      on several ports is one insert, and an id popped in this cycle is
//      re-inserted);
//   3. the head is visible iff it was inserted kLatency (2) or more cycles
//      ago; count() = ids inserted kLatency or more cycles ago.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace tonic {

class FlowFifoRef {
 public:
  /// Cycles from an insert to the earliest cycle the id can be popped.
  static constexpr uint64_t kLatency = 2;

  struct Insert {
    bool valid = false;
    uint32_t id = 0;
  };

  FlowFifoRef(uint32_t flow_count, uint32_t ports)
      : flow_count_(flow_count), ports_(ports), present_(flow_count, 0),
        ring_(flow_count) {}

  uint32_t flow_count() const { return flow_count_; }
  uint32_t ports() const { return ports_; }
  uint64_t cycle() const { return now_; }

  /// Back to the state after reset.
  void reset() {
    std::fill(present_.begin(), present_.end(), 0);
    head_ = size_ = 0;
    last_batch_ = 0;
    accepted_.clear();
    now_ = 0;
  }

  /// out_valid_o in the current cycle.
  bool out_valid() const { return size_ > 0 && ring_[head_].cycle + kLatency <= now_; }
  /// out_id_o in the current cycle (meaningful when out_valid()).
  uint32_t out_id() const { return size_ > 0 ? ring_[head_].id : 0; }
  /// count_o in the current cycle: members that are visible to the pop side.
  uint32_t count() const { return size_ - last_batch_; }
  /// All members, including those inserted in the last cycle.
  uint32_t size() const { return size_; }
  bool present(uint32_t id) const { return present_.at(id) != 0; }
  /// Ids appended by the last step(), in order.
  const std::vector<uint32_t>& last_accepted() const { return accepted_; }
  /// Entry i from the head (0 = head), for invariant checks.
  uint32_t at(uint32_t i) const { return ring_[(head_ + i) % flow_count_].id; }

  /// One clock cycle with these inserts (ports() entries, port 0 first) and
  /// this out_ready. Returns the popped id, if any.
  std::optional<uint32_t> step(const std::vector<Insert>& ins, bool out_ready) {
    if (ins.size() != ports_) throw std::invalid_argument("FlowFifoRef: wrong insert count");
    std::optional<uint32_t> popped;
    if (out_valid() && out_ready) {
      const uint32_t id = ring_[head_].id;
      present_[id] = 0;
      head_ = (head_ + 1) % flow_count_;
      --size_;
      popped = id;
    }
    accepted_.clear();
    for (const Insert& in : ins) {
      if (!in.valid) continue;
      if (in.id >= flow_count_) throw std::out_of_range("FlowFifoRef: id out of range");
      if (present_[in.id]) continue;
      present_[in.id] = 1;
      ring_[(head_ + size_) % flow_count_] = {in.id, now_};
      ++size_;
      accepted_.push_back(in.id);
    }
    last_batch_ = static_cast<uint32_t>(accepted_.size());
    ++now_;
    return popped;
  }

 private:
  struct Entry {
    uint32_t id = 0;
    uint64_t cycle = 0;  // insert cycle
  };
  uint32_t flow_count_, ports_;
  std::vector<uint8_t> present_;
  std::vector<Entry> ring_;  // FIFO order from head_, size_ entries
  uint32_t head_ = 0, size_ = 0;
  uint32_t last_batch_ = 0;  // ids inserted in the last step (not yet counted)
  std::vector<uint32_t> accepted_;
  uint64_t now_ = 0;
};

}  // namespace tonic
