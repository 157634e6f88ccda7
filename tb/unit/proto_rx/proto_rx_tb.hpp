// SPDX-License-Identifier: Apache-2.0
// Shared by the tests of the protocols with a rate or token credit scheme
// (protocols/ndp, protocols/irn). The port drivers, Pair, the checks, the
// random input vectors and FlowSim (every event type, the credit outputs
// and their write-back) are those of tb/unit/proto/proto_tb.hpp; this adds
// the twins of these protocols and the steps the closed loops against the
// receiver models (ndp_receiver.hpp, irn_receiver.hpp) share.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>

#include "../proto/proto_tb.hpp"
#include "protocols/irn/twin.hpp"
#include "protocols/ndp/twin.hpp"
#include "tonic/rx_common.hpp"

namespace tonic::prototb {

using ref::IrnTwin;
using ref::NdpTwin;

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
