// SPDX-License-Identifier: Apache-2.0
// tonic_rate_credit on its own (rate_credit_16): grants never run ahead of
// the integral of the rate, flows that keep asking are never starved, and
// the op queue takes a flood of updates of one flow without a drop.
// rate_credit_tb.hpp has the bounds. The cell in the whole sender:
// tb/unit/credit_rtl.
#include <catch2/catch.hpp>

#include <cstdio>

#include "common/rng.hpp"
#include "rate_credit_tb.hpp"

using namespace tonic;

TEST_CASE("rate_credit: random rates, updates and requests: never ahead of the rate", "[rate][rate_credit]") {
  const uint64_t seed = test_seed(11, "rate_credit ahead");
  Harness<Vrate_credit_16> h;
  Rng rng(seed);
  const RateCreditRun r = run_rate_credit(h, 400'000, rng, 0.5);
  INFO(r.first_error);
  CHECK(r.errors == 0);
  std::printf("rate_credit (spend 0.5): %llu grants, %llu permits, %llu updates\n",
              static_cast<unsigned long long>(r.grants), static_cast<unsigned long long>(r.permits),
              static_cast<unsigned long long>(r.updates));
  CHECK(r.grants > 1000);
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
