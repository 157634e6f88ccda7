// SPDX-License-Identifier: Apache-2.0
// Testbench for tonic_cr_engine: drives adds, enqueues (a DD-like producer
// that keeps at most RingN addresses of a flow outstanding, counting the
// DUT's transmit notifies) and a back-pressuring sink; every cycle is
// checked against CrRef.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "Vcr_1024.h"
#include "Vcr_4096.h"
#include "Vcr_gate_1024.h"
#include "Vcr_gate_init_small.h"
#include "Vcr_gate_small.h"
#include "Vcr_small.h"
#include "tonic/harness.hpp"
#include "common/ref/cr_ref.hpp"
#include "tonic/rng.hpp"

namespace tonic {

template <class Model> struct CrParams;
// kGate: the model has the wire gate; kGateInit: W at a ring init
// (WireGate = 2), -1 without.
struct CrNoInit { static constexpr int64_t kGateInit = -1; };
template <> struct CrParams<Vcr_1024> : CrNoInit { static constexpr uint32_t kFlows = 1024, kRing = 16; static constexpr bool kGate = false; };
template <> struct CrParams<Vcr_4096> : CrNoInit { static constexpr uint32_t kFlows = 4096, kRing = 16; static constexpr bool kGate = false; };
template <> struct CrParams<Vcr_small> : CrNoInit { static constexpr uint32_t kFlows = 16, kRing = 4; static constexpr bool kGate = false; };
template <> struct CrParams<Vcr_gate_1024> : CrNoInit { static constexpr uint32_t kFlows = 1024, kRing = 16; static constexpr bool kGate = true; };
template <> struct CrParams<Vcr_gate_small> : CrNoInit { static constexpr uint32_t kFlows = 16, kRing = 4; static constexpr bool kGate = true; };
template <> struct CrParams<Vcr_gate_init_small> {
  static constexpr uint32_t kFlows = 16, kRing = 4;
  static constexpr bool kGate = true;
  static constexpr int64_t kGateInit = 3;
};

/// Entries the DUT holds per flow beyond the ring: the output queue and the
/// read in flight (see tonic_cr_engine, OqDepth).
constexpr uint32_t kCrOutputSlots = 4;

template <class Model>
class CrTb {
 public:
  using P = CrParams<Model>;

  CrTb() : ref_(P::kFlows, P::kRing + kCrOutputSlots, P::kGate, P::kGateInit), outstanding_(P::kFlows, 0), next_idx_(P::kFlows, 0) {
    idle_inputs();
    h_.reset();
  }

  Harness<Model>& h() { return h_; }
  CrRef& ref() { return ref_; }
  uint64_t cycle() const { return h_.cycle(); }
  uint32_t outstanding(uint32_t f) const { return outstanding_[f]; }

  /// One cycle. `add` (an init command) or else `enq` is driven on the
  /// enqueue port; the sink is ready iff `ready`; `gate` drives the wire
  /// gate port (gated models). Returns whether an address left this cycle.
  struct Cycle {
    bool add = false;
    uint32_t add_flow = 0;
    bool enq = false;
    CrSeg seg;
    bool ready = true;
    bool gate = false, gate_set = false, gate_void = false;
    uint32_t gate_flow = 0, gate_cnt = 0;
  };

  bool step(const Cycle& in) {
    auto& d = h_.dut();
    // An add is an init command on the enqueue port (it takes the place of
    // an enqueue in that cycle).
    d.enq_valid_i = in.enq || in.add;
    d.enq_init_i = in.add;
    d.enq_flow_i = in.add ? in.add_flow : in.seg.flow;
    d.enq_idx_i = in.seg.idx;
    d.enq_rtx_i = in.seg.rtx;
    d.enq_len_i = in.seg.len;
    d.seg_ready_i = in.ready;
    d.gate_valid_i = in.gate;
    d.gate_set_i = in.gate_set;
    d.gate_void_i = in.gate_void;
    d.gate_flow_i = in.gate_flow;
    d.gate_cnt_i = in.gate_cnt;
    h_.eval();
    holds_ += d.gate_hold_o;
    if (d.void_valid_o) voids_.push_back({d.void_flow_o, d.void_cnt_o});
    const uint64_t c = h_.cycle();
    if (d.txn_valid_o) {
      ref_.notify(c, d.txn_flow_o);
      if (outstanding_[d.txn_flow_o] > 0) --outstanding_[d.txn_flow_o];
    }
    ref_.expect_notify(c, d.txn_valid_o);
    bool out = false;
    if (d.seg_valid_o && in.ready) {
      ref_.out(c, CrSeg{d.seg_flow_o, d.seg_idx_o, static_cast<bool>(d.seg_rtx_o), d.seg_len_o});
      out = true;
    }
    if (in.gate) ref_.gate(in.gate_flow, in.gate_set, in.gate_cnt);
    if (in.add) {
      ref_.add(in.add_flow);
      outstanding_[in.add_flow] = 0;
    }
    if (in.enq && !in.add) {
      const bool ref_ok = ref_.enqueue(in.seg);
      last_drop_ = d.enq_drop_o;
      drops_ += d.enq_drop_o;
      if (ref_ok) ++outstanding_[in.seg.flow];
      if (ref_ok == static_cast<bool>(d.enq_drop_o)) ++mismatched_drops_;
    } else if (d.enq_drop_o) {
      ++mismatched_drops_;
    }
    h_.tick();
    return out;
  }

  /// Next segment of flow f (indices count up per flow; lengths vary).
  CrSeg make_seg(uint32_t f, Rng& rng) {
    CrSeg s;
    s.flow = f;
    s.idx = next_idx_[f]++;
    s.rtx = rng.chance(0.1);
    s.len = static_cast<uint32_t>(rng.range(64, 9000));
    return s;
  }

  /// A random cycle of the stress tests: with probability `p_add` an add of
  /// a flow below `add_flows` if it is idle (the contract: adds are for idle
  /// flows, which the DD engine's add/remove handling guarantees), else
  /// with probability `p_enq` an enqueue to a flow below `hot` with room.
  Cycle random_cycle(Rng& rng, bool ready, double p_add, uint32_t add_flows, double p_enq, uint32_t hot) {
    Cycle c;
    c.ready = ready;
    if (rng.chance(p_add)) {
      const uint32_t f = static_cast<uint32_t>(rng.below(add_flows));
      if (outstanding_[f] == 0) {
        c.add = true;
        c.add_flow = f;
      }
    }
    if (!c.add && rng.chance(p_enq)) {
      const uint32_t f = static_cast<uint32_t>(rng.below(hot));
      if (outstanding_[f] < P::kRing) {
        c.enq = true;
        c.seg = make_seg(f, rng);
      }
    }
    return c;
  }

  /// Idle cycles with the sink ready until the DUT holds nothing.
  void drain(uint64_t max_cycles = 100000) {
    for (uint64_t i = 0; i < max_cycles && ref_.total_queued() > 0; ++i) step(Cycle{});
    for (int i = 0; i < 4; ++i) step(Cycle{});
  }

  uint64_t drops() const { return drops_; }
  uint64_t holds() const { return holds_; }
  /// Wire permits handed back by sets with gate_void ({flow, count}).
  const std::vector<std::pair<uint32_t, uint32_t>>& voids() const { return voids_; }
  bool last_drop() const { return last_drop_; }
  uint64_t mismatched_drops() const { return mismatched_drops_; }

 private:
  void idle_inputs() {
    auto& d = h_.dut();
    d.enq_valid_i = 0;
    d.enq_init_i = 0;
    d.seg_ready_i = 1;
    d.gate_valid_i = 0;
  }

  Harness<Model> h_;
  CrRef ref_;
  std::vector<uint32_t> outstanding_;
  std::vector<uint32_t> next_idx_;
  uint64_t drops_ = 0, mismatched_drops_ = 0, holds_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> voids_;
  bool last_drop_ = false;
};

/// A gate command alone in a cycle (gated models): W += cnt, or W = cnt
/// with `set`.
template <class Model>
typename CrTb<Model>::Cycle gate_cmd(uint32_t flow, bool set, uint32_t cnt) {
  typename CrTb<Model>::Cycle c;
  c.gate = true;
  c.gate_set = set;
  c.gate_flow = flow;
  c.gate_cnt = cnt;
  return c;
}

/// The DD engine's feed of a gated model: the address enqueued in cycle
/// `c` comes with its permit (the grant precedes the generation).
template <class Model>
void permit_with_address(typename CrTb<Model>::Cycle& c) {
  if (!c.enq) return;
  c.gate = true;
  c.gate_set = false;
  c.gate_flow = c.seg.flow;
  c.gate_cnt = 1;
}

/// DD-like producer: every cycle, enqueue one address for the next flow
/// (round robin over `active`) whose outstanding count is below RingN.
template <class Model>
class SaturatingProducer {
 public:
  SaturatingProducer(CrTb<Model>& tb, std::vector<uint32_t> active) : tb_(tb), active_(std::move(active)) {}

  bool next(typename CrTb<Model>::Cycle& cyc, Rng& rng) {
    for (size_t tries = 0; tries < active_.size(); ++tries) {
      const uint32_t f = active_[pos_];
      pos_ = (pos_ + 1) % active_.size();
      if (tb_.outstanding(f) < CrParams<Model>::kRing) {
        cyc.enq = true;
        cyc.seg = tb_.make_seg(f, rng);
        return true;
      }
    }
    return false;
  }

 private:
  CrTb<Model>& tb_;
  std::vector<uint32_t> active_;
  size_t pos_ = 0;
};

}  // namespace tonic
