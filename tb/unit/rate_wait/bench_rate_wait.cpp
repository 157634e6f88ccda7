// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_rate_wait: a random request every
// cycle, each checked against the reference.
#include "common/bench.hpp"
#include "rate_wait_tb.hpp"

using namespace tonic;

int main(int argc, char** argv) {
  BenchMain bench("rate", argc, argv);
  bench.add("rate_wait", [](uint64_t cycles, uint64_t seed) {
    Harness<Vrate_wait> h;
    Rng rng(seed);
    return run_rate_wait(h, cycles, [&] {
      return RateWaitReq{true, log_uniform(rng, 48) & ((uint64_t{1} << 48) - 1),
                         static_cast<uint32_t>(log_uniform(rng, 32))};
    }).cycles;
  });
  return bench.run();
}
