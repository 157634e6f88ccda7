// SPDX-License-Identifier: Apache-2.0
// Driver of tonic_rate_wait shared by its test and its benchmark: one
// request per cycle (or idle), every result compared with the reference
// Latency cycles later.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>

#include "Vrate_wait.h"
#include "tonic/harness.hpp"
#include "common/ref/rate_wait_ref.hpp"
#include "tonic/rng.hpp"

namespace tonic {

inline constexpr int kRateWaitLatency = 4;

struct RateWaitReq {
  bool valid;
  uint64_t need;  // credit units, < 2^48
  uint32_t rate;  // RU
};

struct RateWaitStats {
  uint64_t cycles = 0, checked = 0, errors = 0;
};

/// A value spread over every magnitude: 2^k scaled by a random mantissa,
/// k uniform in [0, max_bits).
inline uint64_t log_uniform(Rng& rng, unsigned max_bits) {
  const unsigned k = static_cast<unsigned>(rng.below(max_bits));
  const uint64_t base = uint64_t{1} << k;
  return base + rng.below(base);
}

/// The wait a request should get (the reference by default; the mutation
/// self-test passes a wrong one).
using RateWaitExpect = std::function<uint64_t(uint64_t need, uint32_t rate)>;

/// Runs `cycles` cycles with requests from `next`; checks valid_o timing
/// and every wait against `expect`.
inline RateWaitStats run_rate_wait(
    Harness<Vrate_wait>& h, uint64_t cycles, const std::function<RateWaitReq()>& next,
    const RateWaitExpect& expect = [](uint64_t need, uint32_t rate) {
      return ref::rate::wait_cycles(need, rate);
    }) {
  RateWaitStats st;
  std::deque<RateWaitReq> pipe(kRateWaitLatency, RateWaitReq{false, 0, 0});
  h.reset();
  for (uint64_t c = 0; c < cycles; ++c) {
    const RateWaitReq r = next();
    h->valid_i = r.valid;
    h->need_i = r.need;
    h->rate_i = r.rate;
    h.eval();
    const RateWaitReq due = pipe.front();
    pipe.pop_front();
    pipe.push_back(r);
    if (h->valid_o != due.valid) ++st.errors;
    if (due.valid) {
      ++st.checked;
      if (h->wait_o != expect(due.need, due.rate)) ++st.errors;
    }
    h.tick();
    ++st.cycles;
  }
  return st;
}

}  // namespace tonic
