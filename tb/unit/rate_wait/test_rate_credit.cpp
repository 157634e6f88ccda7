// SPDX-License-Identifier: Apache-2.0
// tonic_rate_credit on its own (rate_credit_16): grants never run ahead of
// the integral of the rate, flows that keep asking are never starved, and
// the op queue takes a flood of updates of one flow without a drop.
// rate_credit_tb.hpp has the bounds. The cell in the whole sender:
// tb/unit/credit_rtl.
#include <catch2/catch.hpp>

#include <cstdio>

#include "tonic/rng.hpp"
#include "rate_credit_tb.hpp"

using namespace tonic;

TEST_CASE("rate_credit: random rates, updates and requests: never ahead of the rate", "[rate][rate_credit]") {
  const uint64_t seed = test_seed(11, "rate_credit ahead");
  Harness<Vrate_credit_16> h;
  Rng rng(seed);
  const RateCreditRun r = run_rate_credit(h, 400'000, rng, 0.5);
  INFO(r.first_error);
  CHECK(r.errors == 0);
  std::printf("rate_credit (spend 0.5): %llu grants, %llu permits, %llu updates; credit in hand at most %llu %% of D\n",
              static_cast<unsigned long long>(r.grants), static_cast<unsigned long long>(r.permits),
              static_cast<unsigned long long>(r.updates), static_cast<unsigned long long>(r.held_max_pct));
  CHECK(r.grants > 1000);
}

TEST_CASE("rate_credit: a slow wire: permits plus unsent segments never exceed D", "[rate][rate_credit]") {
  // The wire takes a segment in 1 cycle of 20: segments wait, and the cell
  // must count them against the bucket (with the cap at D alone, a flow
  // would hold up to 44 segments beyond it).
  const uint64_t seed = test_seed(13, "rate_credit slow wire");
  Harness<Vrate_credit_16> h;
  Rng rng(seed);
  const RateCreditRun r = run_rate_credit(h, 400'000, rng, 0.5, 65536, 1.0, 0.95);
  INFO(r.first_error);
  CHECK(r.errors == 0);
  std::printf("rate_credit (slow wire): %llu grants, %llu permits; credit in hand at most %llu %% of D\n",
              static_cast<unsigned long long>(r.grants), static_cast<unsigned long long>(r.permits),
              static_cast<unsigned long long>(r.held_max_pct));
  CHECK(r.held_max_pct >= 90);  // the bound is reached, not only respected
}

TEST_CASE("rate_credit: the check catches credit in hand beyond D (self-test)", "[rate][rate_credit]") {
  // The checker takes D as 32 KB while the cell has 64 KB: flows whose
  // segments wait for the wire now look as if they held too much.
  Harness<Vrate_credit_16> h;
  Rng rng(13);
  const RateCreditRun r = run_rate_credit(h, 400'000, rng, 0.5, 32768, 1.0, 0.95);
  CHECK(r.errors > 0);
  CHECK(r.first_error.find("beyond D") != std::string::npos);
}

TEST_CASE("rate_credit: flows that spend every permit are never starved", "[rate][rate_credit]") {
  const uint64_t seed = test_seed(12, "rate_credit starve");
  Harness<Vrate_credit_16> h;
  Rng rng(seed);
  const RateCreditRun r = run_rate_credit(h, 400'000, rng, 1.0);
  INFO(r.first_error);
  CHECK(r.errors == 0);
  CHECK(r.checks == 16);
  std::printf("rate_credit (spend 1.0): %llu grants, %llu permits\n", static_cast<unsigned long long>(r.grants),
              static_cast<unsigned long long>(r.permits));
}

TEST_CASE("rate_credit: the check catches grants 3 % beyond the rate (self-test)", "[rate][rate_credit]") {
  // The checker counts every permit as 1.03 segments: the cell, which
  // grants exactly the rate, now looks 3 % ahead of it, and the check must
  // say so.
  Harness<Vrate_credit_16> h;
  Rng rng(11);
  const RateCreditRun r = run_rate_credit(h, 400'000, rng, 1.0, 65536, 1.03);
  CHECK(r.errors > 0);
  CHECK(r.first_error.find("beyond its rate") != std::string::npos);
}

TEST_CASE("rate_credit: a flood of updates of one flow: none lost, the last one applies", "[rate][rate_credit]") {
  // One update of flow 5 every cycle for 300 cycles (random rates), the
  // last at 8 B/cycle; then the flow asks for permits whenever it holds
  // none. Over the next 200,000 cycles its grants follow the last rate
  // (an update dropped or applied out of order would leave another rate).
  Harness<Vrate_credit_16> h;
  auto& d = h.dut();
  Rng rng(5);
  d.init_valid_i = 0;
  d.upd_valid_i = 0;
  d.req_valid_i = 0;
  d.sent_valid_i = 0;
  d.hold_valid_i = 0;
  h.reset();
  for (int i = 0; i < 64; ++i) h.tick();
  constexpr uint32_t kLen = 1000;
  d.init_valid_i = 1;
  d.init_flow_i = 5;
  d.init_len_i = kLen;
  h.tick();
  d.init_valid_i = 0;
  for (int i = 0; i < 8; ++i) h.tick();
  constexpr uint32_t kLast = 8u << 20;  // 8 B/cycle
  for (int i = 0; i < 300; ++i) {
    d.upd_valid_i = 1;
    d.upd_flow_i = 5;
    d.upd_rate_i = i == 299 ? kLast : rc_log_rate(rng);
    h.tick();
  }
  d.upd_valid_i = 0;
  uint64_t permits = 0, held = 0, from = 0;
  for (uint64_t c = 0; c < 200'000; ++c) {
    d.req_valid_i = held == 0;
    d.req_flow_i = 5;
    h.eval();
    if (d.grant_valid_o) {
      REQUIRE(d.grant_flow_o == 5);
      held = d.grant_set_o ? d.grant_cnt_o : held + d.grant_cnt_o;  // a cut revokes
      if (c >= 1000) permits += d.grant_cnt_o;
    }
    // Spends one per cycle (never the bottleneck at 8 B/cycle); the segment
    // leaves at once.
    d.sent_valid_i = held > 0;
    d.sent_flow_i = 5;
    if (held > 0) --held;
    if (c == 1000) from = permits;
    h.tick();
  }
  d.sent_valid_i = 0;
  // 199,000 cycles at 8 B/cycle = 1592 segments of 1000 B.
  const double got = double(permits - from) * kLen / 199'000.0;
  std::printf("rate_credit flood: last rate 8 B/cycle, granted %.4f B/cycle afterwards\n", got);
  CHECK(got == Approx(8.0).epsilon(0.01));
}
