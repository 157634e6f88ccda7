// SPDX-License-Identifier: Apache-2.0
// The harness of the twin tests of the protocols with a rate or token
// credit scheme (protocols/<name>/tests/, label proto_rx). The port
// drivers, Pair, the checks, the random input vectors and FlowSim (every
// event type, the credit outputs and their write-back) are those of
// tb/unit/proto/proto_tb.hpp; this adds the steps the closed loops against
// the receiver models of lib/tonic share.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>

#include "tonic/rx_common.hpp"
#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb {

/// Whether the periodic module of a twin's protocol adds tokens (on a
/// timeout): a protocol's test file specializes it (proto_rx_cases.hpp then
/// expects those writes in the random vectors, and none from the others).
template <class Twin>
inline constexpr bool kPeriodicAddsTokens = false;

// ---------------------------------------------------------------------------
// Closed-loop steps: the sender's clock is t_base + t (t counts cycles from
// 0), events on their way back are a multimap arrival cycle -> RxEvent.

/// The first event due by cycle `t` reaches the sender (stage 1, incoming).
/// Returns whether one did.
template <class Flow>
bool deliver_one(Flow& f, std::multimap<uint64_t, RxEvent>& back, uint64_t t) {
  if (back.empty() || back.begin()->first > t) return false;
  const RxEvent e = back.begin()->second;
  back.erase(back.begin());
  f.rx(e.type, e.cum_ack, e.sack_valid, e.sack_idx, e.grant);
  return true;
}

/// The flow's periodic visit: a timeout when its timer expired (returns
/// true), else, with probability 0.3, a visit without timeout, which must
/// write nothing.
template <class Flow>
bool periodic_visit(Flow& f, Rng& rng) {
  if (f.timer_expired()) {
    f.timeout();
    return true;
  }
  if (rng.chance(0.3)) REQUIRE(f.visit(false).writes_nothing());
  return false;
}

/// Nothing moves: time jumps to the RTO deadline (the timer must be armed,
/// otherwise the flow is stuck for good).
template <class Flow>
void skip_to_deadline(const Flow& f, uint32_t t_base, uint64_t& t) {
  REQUIRE(f.timer_armed);
  const int32_t left = static_cast<int32_t>(f.deadline - (t_base + static_cast<uint32_t>(t)));
  if (left > 0) t += static_cast<uint64_t>(left);
}

}  // namespace tonic::prototb
