// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_rate_wait: the reference's bounds, then the RTL against
// the reference (directed corners and seeded random requests).
#include <catch2/catch.hpp>

#include <cmath>

#include "rate_wait_tb.hpp"

using namespace tonic;
using ref::rate::wait_cycles;

namespace {
constexpr uint64_t kTMax = (uint64_t{1} << 31) - 1;
constexpr uint64_t kNeedMask = (uint64_t{1} << 48) - 1;

// The documented bounds: ceil(need / R) <= T < need / R * (1 + 1/128 +
// 2^-16) + 3, unless T saturates.
bool within_bounds(uint64_t need, uint32_t rate) {
  const uint64_t t = wait_cycles(need, rate);
  const uint64_t lo = (need + rate - 1) / rate;
  if (lo >= kTMax) return t == kTMax;
  const long double hi =
      static_cast<long double>(need) / rate * (1.0L + 1.0L / 128 + std::ldexp(1.0L, -16)) + 3;
  return t >= lo && (t == kTMax || static_cast<long double>(t) < hi);
}
}  // namespace

TEST_CASE("rate: the reference wait is never short and overshoots < 0.8 % + 3 cycles",
          "[rate][ref]") {
  // Every mantissa and exponent with needs around multiples of the rate.
  for (uint32_t e = 0; e < 25; ++e) {
    for (uint32_t m = 1; m < 256; ++m) {
      if (e > 0 && m < 128) continue;
      for (uint32_t low : {0u, 1u, (1u << e) - 1}) {
        const uint32_t rate = (m << e) | (low & ((1u << e) - 1));
        for (uint64_t k : {uint64_t{0}, uint64_t{1}, uint64_t{7}, uint64_t{1000}, uint64_t{1} << 20}) {
          for (int64_t d : {-1, 0, 1}) {
            const int64_t need = static_cast<int64_t>(k * rate) + d;
            if (need < 0) continue;
            INFO("need " << need << " rate " << rate);
            REQUIRE(within_bounds(static_cast<uint64_t>(need), rate));
          }
        }
      }
    }
  }
  TONIC_SEED(0x5a7e0001);
  Rng rng(tonic_seed_);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t need = log_uniform(rng, 48) & kNeedMask;
    const uint32_t rate = static_cast<uint32_t>(log_uniform(rng, 32));
    INFO("need " << need << " rate " << rate);
    REQUIRE(within_bounds(need, rate));
  }
}

TEST_CASE("rate: corner cases of the wait", "[rate][ref]") {
  CHECK(wait_cycles(12345, 0) == kTMax);       // no rate: never
  CHECK(wait_cycles(0, 0) == kTMax);
  CHECK(wait_cycles(0, 1000) == 1);             // nothing needed
  CHECK(wait_cycles(100, 1) == 102);            // R = 1 is exact: need + 2
  CHECK(wait_cycles(kNeedMask, 1) == kTMax);    // saturates
  // 1500 B short at 100 Gb/s (131,072,000 RU): 1500 * 2^20 / R = 12 cycles.
  const uint64_t t = wait_cycles(uint64_t{1500} << 20, 131072000u);
  CHECK(t >= 12);
  CHECK(t <= 13);
}

TEST_CASE("rate: tonic_rate_wait equals the reference, 4 cycles after the request",
          "[rate][rtl]") {
  Harness<Vrate_wait> h;
  SECTION("directed corners, back to back") {
    const RateWaitReq reqs[] = {
        {true, 0, 0},          {true, 12345, 0},        {true, 0, 1000},
        {true, 100, 1},        {true, kNeedMask, 1},    {true, kNeedMask, 0xffffffffu},
        {true, 1500ull << 20, 131072000u},              {true, 1, 255},
        {true, 1, 256},        {true, 255, 256},        {false, 7, 7},
        {true, 1ull << 47, 1u << 31},                   {true, 64ull << 20, 1311},
    };
    size_t i = 0;
    auto st = run_rate_wait(h, 40, [&] {
      return i < std::size(reqs) ? reqs[i++] : RateWaitReq{false, 0, 0};
    });
    CHECK(st.checked == std::size(reqs) - 1);
    CHECK(st.errors == 0);
  }
  SECTION("seeded random requests at every magnitude, with idle cycles") {
    TONIC_SEED(0x5a7e0002);
    Rng rng(tonic_seed_);
    auto st = run_rate_wait(h, 200000, [&] {
      return RateWaitReq{rng.chance(0.8), log_uniform(rng, 48) & kNeedMask,
                         static_cast<uint32_t>(rng.chance(0.01) ? 0 : log_uniform(rng, 32))};
    });
    CHECK(st.checked > 150000);
    CHECK(st.errors == 0);
  }
}

TEST_CASE("rate: the checker catches a wrong wait (mutation self-test)", "[rate][self]") {
  // A reference that rounds the reciprocal down instead of up must differ
  // from the RTL on some request of the random stream.
  Harness<Vrate_wait> h;
  Rng rng(3);
  auto st = run_rate_wait(
      h, 20000,
      [&] {
        return RateWaitReq{true, log_uniform(rng, 48) & kNeedMask,
                           static_cast<uint32_t>(log_uniform(rng, 32))};
      },
      [](uint64_t need, uint32_t rate) {
        const auto s = ref::rate::short_rate(rate);
        const uint64_t floor_recip = (uint64_t{1} << 24) / s.m;
        return std::min<uint64_t>(((((need >> s.e) + 1) * floor_recip) >> 24) + 1, kTMax);
      });
  CHECK(st.errors > 0);
}
