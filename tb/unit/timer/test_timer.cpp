// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_rate_timer: directed cases for each rule of the module
// header, then seeded random commands with random back-pressure, every
// release checked by TimerRef (armed, not early, once, within the bound,
// nothing lost).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "timer_tb.hpp"

using namespace tonic;

#define ALL_CONFIGS Vtimer_1024, Vtimer_4096, Vtimer_small

namespace {

template <class Tb>
void require_clean(const Tb& tb) {
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
}

/// Runs `cycles` idle cycles with ready high, then checks that no arming
/// expired more than the worst-case bound ago is still pending (lost).
template <class Tb>
void drain(Tb& tb, uint64_t cycles) {
  tb.idle(cycles);
  const uint64_t horizon = tb.ref().bound() + 2;
  REQUIRE(tb.now() > horizon);
  REQUIRE(tb.ref().expired_pending(tb.now() - horizon) == 0);
}

/// Checks that `flow`, armed for `deadline`, was released once in
/// [deadline + 2, deadline + bound].
template <class Tb>
void require_release_once(const Tb& tb, uint32_t flow, uint64_t deadline, uint64_t bound) {
  // A dropped hint (pool exhausted, e.g. timer_small) leaves the flow to the
  // sweep: then only the worst-case bound holds.
  if (tb.drops() != 0) bound = std::max<uint64_t>(bound, tb.ref().bound());
  INFO("flow " << flow << " deadline " << deadline);
  REQUIRE(tb.count_released(flow) == 1);
  const uint64_t r = tb.released_at(flow);
  CHECK(r >= deadline + TimerRef::kVisibility);
  CHECK(r <= deadline + bound);
}

}  // namespace

TEMPLATE_TEST_CASE("timer: one arm is released once, after its deadline, within the hint bound",
                   "[timer][smoke]", ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  TimerTb<TestType> tb;
  const uint32_t last = B::kFlows - 1;
  for (uint64_t delay : {0u, 1u, 5u, 37u, 100u, 1000u}) {
    tb.clear_log();
    const uint64_t t0 = tb.now();
    tb.arm(0, t0 + delay);
    tb.arm(last, t0 + 1 + delay);
    tb.arm(7, t0 + 2 + delay + B::kSlotLen);
    tb.idle(delay + 2 * B::kSlotLen + 64);
    require_release_once(tb, 0, t0 + delay, B::kHinted);
    require_release_once(tb, last, t0 + 1 + delay, B::kHinted);
    require_release_once(tb, 7, t0 + 2 + delay + B::kSlotLen, B::kHinted);
  }
  tb.idle(3 * B::kFlows);  // a full sweep: nothing else comes out
  REQUIRE(tb.log().size() == 3);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: an arm in the past is released promptly", "[timer][smoke]",
                   ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  TimerTb<TestType> tb;
  tb.idle(1000);
  const uint64_t t0 = tb.now();
  tb.arm(3, t0 - 1);
  tb.arm(4, t0 - 500);
  tb.arm(5, t0 - 1000);
  tb.idle(2 * B::kSlotLen + 64);
  require_release_once(tb, 3, t0, B::kHinted);
  require_release_once(tb, 4, t0 + 1, B::kHinted);
  require_release_once(tb, 5, t0 + 2, B::kHinted);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: re-arm later and re-arm earlier are both respected", "[timer][smoke]",
                   ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  const uint64_t f = B::kFlows;
  TimerTb<TestType> tb;
  const uint64_t t0 = tb.now();
  // Later: queued for t0 + 200, moved to t0 + 900.
  tb.arm(10, t0 + 200);
  tb.idle(50);
  tb.arm(10, t0 + 900);
  // Earlier: queued (hint wheel) for t0 + 1.5 F, moved to t0 + 300.
  tb.arm(11, t0 + f + f / 2);
  tb.idle(20);
  tb.arm(11, t0 + 300);
  // Earlier from far (sweep) to near.
  tb.arm(12, t0 + 9 * f);
  tb.idle(20);
  tb.arm(12, t0 + 400);
  // Earlier after the far flow was hinted by the sweep (window FlowCount ahead).
  tb.arm(13, t0 + 3 * f);
  // A chain of 40 re-arms, each one slot earlier than the last.
  for (uint64_t i = 0; i < 40; ++i) tb.arm(14, t0 + 1200 - i * B::kSlotLen);
  tb.idle(2 * f + 200);
  const uint64_t d13 = tb.now() + 300;
  tb.arm(13, d13);
  tb.idle(12 * f);
  require_release_once(tb, 10, t0 + 900, B::kHinted);
  require_release_once(tb, 11, t0 + 300, B::kHinted);
  require_release_once(tb, 12, t0 + 400, B::kHinted);
  require_release_once(tb, 13, d13, B::kHinted);
  require_release_once(tb, 14, t0 + 1200 - 39 * B::kSlotLen, B::kHinted);
  REQUIRE(tb.log().size() == 5);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: cancel drops the arming", "[timer][smoke]", ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  const uint64_t f = B::kFlows;
  TimerTb<TestType> tb;
  const uint64_t t0 = tb.now();
  tb.arm(20, t0 + 100);
  tb.arm(21, t0 + 5 * f);
  tb.arm(22, t0 + 300);
  tb.idle(10);
  tb.cancel(20);
  tb.cancel(21);
  tb.cancel(23);  // never armed: no effect
  tb.idle(3 * f);
  tb.cancel(22);  // already released: no effect
  tb.arm(20, tb.now() + 50);  // re-armed after a cancel
  tb.idle(6 * f);
  REQUIRE(tb.count_released(20) == 1);
  REQUIRE(tb.count_released(21) == 0);
  require_release_once(tb, 22, t0 + 300, B::kHinted);
  REQUIRE(tb.log().size() == 2);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: deadlines far beyond the wheel horizon", "[timer][smoke]",
                   ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  const uint64_t f = B::kFlows;
  TimerTb<TestType> tb;
  const uint64_t t0 = tb.now();
  tb.arm(30, t0 + 20 * f + 3);        // many wheel revolutions ahead
  tb.arm(31, t0 + 2 * f);             // at the far threshold
  tb.arm(32, t0 + 2 * f - 1);         // just below it
  tb.arm(33, t0 + (uint64_t{1} << 31) - 1);  // the farthest legal deadline
  tb.arm(34, t0 + (uint64_t{1} << 30));
  tb.idle(20 * f + 200);
  require_release_once(tb, 30, t0 + 20 * f + 3, B::kHinted);
  require_release_once(tb, 31, t0 + 2 * f, B::kHinted);
  require_release_once(tb, 32, t0 + 2 * f - 1, B::kHinted);
  REQUIRE(tb.count_released(33) == 0);  // not mistaken for a past deadline
  REQUIRE(tb.count_released(34) == 0);
  tb.cancel(33);
  tb.cancel(34);
  tb.idle(2 * f);
  REQUIRE(tb.log().size() == 3);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: time wraps across 2^32", "[timer][smoke]", ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  const uint64_t f = B::kFlows;
  // now_o starts so that the init sweep ends about 256 cycles before the wrap.
  TimerTb<TestType> tb(0xFFFFFF00u - static_cast<uint32_t>(f));
  const uint64_t t0 = tb.now();
  REQUIRE(static_cast<uint32_t>(tb.dut().now_o) == tb.dut_time(t0));
  REQUIRE(static_cast<uint32_t>(tb.dut().now_o) > 0xFFFFFE00u);
  tb.arm(40, t0 + 100);      // before the wrap
  tb.arm(41, t0 + 300);      // after it
  tb.arm(42, t0 + 5 * f);    // far, across it
  tb.arm(43, t0 - 10);       // past, just before the wrap
  tb.idle(6 * f);
  require_release_once(tb, 40, t0 + 100, B::kHinted);
  require_release_once(tb, 41, t0 + 300, B::kHinted);
  require_release_once(tb, 42, t0 + 5 * f, B::kHinted);
  require_release_once(tb, 43, t0 + 3, B::kHinted);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: releases follow deadline order at slot granularity", "[timer][smoke]",
                   ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  TimerTb<TestType> tb;
  Rng rng(7);
  const uint64_t t0 = tb.now();
  // 200 flows, deadlines 3 slots + 16 cycles apart, armed in random order.
  std::vector<uint64_t> deadline(B::kFlows, 0);
  std::vector<uint32_t> flows;
  for (uint32_t i = 0; i < 200; ++i) flows.push_back(i * (B::kFlows / 200));
  std::shuffle(flows.begin(), flows.end(), rng.engine());
  for (uint32_t i = 0; i < flows.size(); ++i)
    deadline[flows[i]] = t0 + 600 + i * (3 * B::kSlotLen + 16) + rng.below(B::kSlotLen);
  std::shuffle(flows.begin(), flows.end(), rng.engine());
  for (uint32_t fl : flows) tb.arm(fl, deadline[fl]);
  tb.idle(600 + 200 * (3 * B::kSlotLen + 16) + 4 * B::kFlows);
  REQUIRE(tb.log().size() == 200);
  // With hints dropped (timer_small: 16 nodes) the sweep's order applies.
  for (size_t i = 1; i < tb.log().size() && tb.drops() == 0; ++i) {
    INFO("release " << i);
    CHECK(deadline[tb.log()[i - 1].second] < deadline[tb.log()[i].second]);
  }
  for (uint32_t fl : flows) require_release_once(tb, fl, deadline[fl], B::kHinted);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("timer: many flows expiring in the same cycle are all released in time",
                   "[timer][stress]", ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  const uint64_t f = B::kFlows;
  for (bool far : {false, true}) {
    INFO((far ? "far" : "near") << " deadlines");
    TimerTb<TestType> tb;
    const uint64_t t0 = tb.now();
    const uint64_t d = far ? t0 + 3 * f + 100 : t0 + f + 100;
    for (uint32_t i = 0; i < f; ++i) tb.arm(i, d);
    tb.idle(d - tb.now());
    tb.idle(f + 200);
    REQUIRE(tb.log().size() == f);
    uint64_t last = 0;
    for (auto& [t, fl] : tb.log()) last = std::max(last, t);
    std::printf("[timer] %u flows due at once (%s): last released %llu cycles late "
                "(bound %llu)\n",
                static_cast<unsigned>(f), far ? "far" : "near",
                static_cast<unsigned long long>(last - d),
                static_cast<unsigned long long>(B::kWorst));
    CHECK(last - d <= B::kWorst);
    require_clean(tb);
  }
}

TEMPLATE_TEST_CASE("timer: back-pressure holds the release and loses nothing",
                   "[timer][backpressure]", ALL_CONFIGS) {
  using B = TimerBounds<TestType>;
  TimerTb<TestType> tb;
  const uint64_t t0 = tb.now();
  for (uint32_t i = 0; i < 100; ++i) tb.arm(i * 5, t0 - i, false);
  tb.idle(3000, false);
  // Exactly one flow is presented and held; re-arm it and another queued one.
  REQUIRE(tb.log().size() == 1);
  const uint32_t held = tb.log()[0].second;
  tb.arm(held, tb.now() + 400, false);
  tb.arm(held == 5 ? 10 : 5, tb.now() + 500, false);
  tb.cancel(held == 15 ? 20 : 15, false);
  tb.idle(10, false);
  tb.idle(2 * B::kFlows + 600);
  REQUIRE(tb.count_released(held) == 2);  // the held arming, then the new one
  REQUIRE(tb.log().size() == 100 + 1 - 1);
  require_clean(tb);
}

namespace {

/// `commands` random commands, then a drain; returns the reference's stats.
template <class Model>
void random_run(uint64_t seed, uint64_t commands, double cmd_prob, double stall_prob,
                uint32_t stall_max, uint32_t now_init, double burst_share = 0.0) {
  using B = TimerBounds<Model>;
  TimerTb<Model> tb(now_init, false);
  Rng rng(seed);
  TimerTraffic traffic(rng, B::kFlows, B::kSlotLen, cmd_prob);
  traffic.set_burst_share(burst_share);
  Sink sink(rng, stall_prob, stall_max);
  while (tb.ref().commands() < commands) {
    TimerCmd c = traffic.next(tb.now());
    // Now and then, stop commanding for a while (lets bursts drain).
    if (rng.chance(0.0005)) {
      for (uint64_t i = rng.below(2 * B::kFlows); i > 0; --i) tb.step({}, sink.ready());
    }
    tb.step(c, sink.ready());
    if (tb.errors()) break;
  }
  INFO(tb.first_error());
  drain(tb, 2 * B::kFlows + 64 * uint64_t{stall_max});
  std::printf("[timer] F=%u seed=%llu commands=%llu releases=%llu cycles=%llu "
              "late max=%llu (service %llu, bound %llu) mean=%.1f inversion max=%llu "
              "hint drops=%llu\n",
              static_cast<unsigned>(B::kFlows), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(tb.ref().commands()),
              static_cast<unsigned long long>(tb.ref().releases()),
              static_cast<unsigned long long>(tb.now()),
              static_cast<unsigned long long>(tb.ref().max_lateness()),
              static_cast<unsigned long long>(tb.ref().max_service_lateness()),
              static_cast<unsigned long long>(B::kWorst), tb.ref().mean_lateness(),
              static_cast<unsigned long long>(tb.ref().max_inversion()),
              static_cast<unsigned long long>(tb.drops()));
  REQUIRE(tb.errors() == 0);
  REQUIRE(tb.ref().releases() > commands / 4);
}

}  // namespace

TEMPLATE_TEST_CASE("timer: random arms, re-arms and cancels match the reference",
                   "[timer][stress]", ALL_CONFIGS) {
  TONIC_SEED(0x7131e001);
  random_run<TestType>(tonic_seed_, 300000, 0.8, 0.01, 4, 0);
}

TEMPLATE_TEST_CASE("timer: random commands under heavy back-pressure, time wrapping",
                   "[timer][backpressure]", ALL_CONFIGS) {
  TONIC_SEED(0x7131e002);
  Rng pick(tonic_seed_);
  const uint32_t init = 0xFFFFFFFFu - static_cast<uint32_t>(pick.below(200000));
  random_run<TestType>(tonic_seed_, 300000, 0.6, 0.2, 40, init);
}

TEMPLATE_TEST_CASE("timer: random bursts of flows expiring together, full command rate",
                   "[timer][stress]", ALL_CONFIGS) {
  TONIC_SEED(0x7131e003);
  random_run<TestType>(tonic_seed_, 300000, 1.0, 0.0, 1, 0x80000000u, 0.5);
}
