// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_rate_credit (16 flows): random rates,
// updates and requests, with rate_credit_tb.hpp's checks.
#include "common/bench.hpp"
#include "rate_credit_tb.hpp"

using namespace tonic;

int main(int argc, char** argv) {
  BenchMain bench("rate", argc, argv);
  bench.add("rate_credit_16", [](uint64_t cycles, uint64_t seed) {
    Harness<Vrate_credit_16> h;
    Rng rng(seed);
    const RateCreditRun r = run_rate_credit(h, cycles, rng, 0.5);
    return r.errors == 0 ? r.cycles : 0;
  });
  return bench.run();
}
