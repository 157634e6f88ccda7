// SPDX-License-Identifier: Apache-2.0
// DropModel: decides whether the network drops a data segment on its way
// from the sender to the receiver.
//
// Plain C++ (no Verilator headers). Rules, combinable (a segment is dropped
// when any enabled rule says so; every rule is evaluated on every offer, so
// the state of one rule never depends on another):
//   - list:      explicit (flow, segment index, transmission number) entries.
//                Transmission 0 is the first time the model sees that
//                (flow, segment), 1 the first retransmission, and so on. The
//                model counts transmissions itself, for listed segments only.
//   - every k-th: the k-th, 2k-th, ... offered segment, counted globally or
//                per flow (both can be on, each with its own k).
//   - Bernoulli: each offered segment with probability p, from a tonic::Rng
//                with its own seed. While p > 0 the Rng is drawn once per
//                offer (also for out-of-scope offers), so the fate of the
//                i-th offer depends only on the seed and i: repeatable per
//                seed.
// Every-k-th and Bernoulli rules have a scope: all transmissions, or
// original transmissions only (rtx == false; retransmissions then always pass
// that rule, which rules out livelock in long runs). Offers out of a rule's
// scope do not advance its counter.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "tonic/rng.hpp"

namespace tonic {

/// Which offers a counting or random rule looks at.
enum class DropScope : uint8_t {
  kAll,        // originals and retransmissions
  kOriginals,  // only segments offered with rtx == false
};

class DropModel {
 public:
  DropModel() = default;

  /// Drops transmission `tx` (0 = first) of segment `seg` of `flow`.
  void drop_at(uint32_t flow, uint32_t seg, uint32_t tx = 0) {
    list_[{flow, seg}].txs.insert(tx);
  }

  /// Drops every k-th offered segment counted over all flows (k = 0: off).
  void every_kth(uint64_t k, DropScope scope = DropScope::kAll) {
    global_ = {k, scope, 0};
  }

  /// Drops every k-th offered segment of each flow, counted per flow
  /// (k = 0: off).
  void every_kth_per_flow(uint64_t k, DropScope scope = DropScope::kAll) {
    per_flow_k_ = k;
    per_flow_scope_ = scope;
    per_flow_count_.clear();
  }

  /// Drops each offered segment with probability p (0 <= p <= 1; 0: off).
  void bernoulli(double p, uint64_t seed, DropScope scope = DropScope::kAll) {
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("DropModel::bernoulli: p not in [0, 1]");
    p_ = p;
    p_scope_ = scope;
    rng_ = Rng(seed);
    // Threshold on 53 random bits: drop iff draw < p * 2^53 (exact for p = 0
    // and p = 1, and independent of the standard library's distributions).
    threshold_ = static_cast<uint64_t>(std::ldexp(p, 53));
  }

  /// One data segment offered to the network; true if it is dropped.
  bool offer(uint32_t flow, uint32_t seg, bool rtx) {
    ++offered_;
    bool drop = false;

    if (auto it = list_.find({flow, seg}); it != list_.end()) {
      const uint32_t tx = it->second.seen++;
      if (it->second.txs.count(tx) != 0) {
        drop = true;
        ++hits_list_;
      }
    }
    if (global_.k != 0 && in_scope(global_.scope, rtx)) {
      if (++global_.count % global_.k == 0) {
        drop = true;
        ++hits_kth_;
      }
    }
    if (per_flow_k_ != 0 && in_scope(per_flow_scope_, rtx)) {
      if (++per_flow_count_[flow] % per_flow_k_ == 0) {
        drop = true;
        ++hits_kth_flow_;
      }
    }
    if (p_ > 0.0) {
      const uint64_t draw = rng_.bits64() >> 11;  // 53 bits
      if (in_scope(p_scope_, rtx) && draw < threshold_) {
        drop = true;
        ++hits_bernoulli_;
      }
    }
    if (drop) ++dropped_;
    return drop;
  }

  /// Transmissions of a listed (flow, seg) seen so far (0 if not listed).
  uint32_t transmissions_seen(uint32_t flow, uint32_t seg) const {
    auto it = list_.find({flow, seg});
    return it == list_.end() ? 0 : it->second.seen;
  }

  uint64_t offered() const { return offered_; }
  /// Segments dropped (by one rule or more; each counted once).
  uint64_t dropped() const { return dropped_; }
  /// Per-rule hits (a segment two rules agree on counts in both).
  uint64_t hits_list() const { return hits_list_; }
  uint64_t hits_every_kth() const { return hits_kth_; }
  uint64_t hits_every_kth_per_flow() const { return hits_kth_flow_; }
  uint64_t hits_bernoulli() const { return hits_bernoulli_; }

 private:
  struct Listed {
    std::set<uint32_t> txs;  // transmission numbers to drop
    uint32_t seen = 0;       // transmissions offered so far
  };
  struct Kth {
    uint64_t k = 0;
    DropScope scope = DropScope::kAll;
    uint64_t count = 0;
  };

  static bool in_scope(DropScope s, bool rtx) { return s == DropScope::kAll || !rtx; }

  std::map<std::pair<uint32_t, uint32_t>, Listed> list_;
  Kth global_;
  uint64_t per_flow_k_ = 0;
  DropScope per_flow_scope_ = DropScope::kAll;
  std::unordered_map<uint32_t, uint64_t> per_flow_count_;
  double p_ = 0.0;
  DropScope p_scope_ = DropScope::kAll;
  uint64_t threshold_ = 0;
  Rng rng_{0};
  uint64_t offered_ = 0, dropped_ = 0;
  uint64_t hits_list_ = 0, hits_kth_ = 0, hits_kth_flow_ = 0, hits_bernoulli_ = 0;
};

}  // namespace tonic
