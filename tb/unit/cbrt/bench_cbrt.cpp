// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_cbrt: one evaluation of a random
// radicand per cycle (a table of 4096 inputs spread over every magnitude,
// reused round-robin, so the figure is the model's speed, not the
// generator's). Case names are the manifest configs.
#include <cstdint>
#include <vector>

#include "cbrt_tb.hpp"
#include "common/bench.hpp"
#include "tonic/rng.hpp"

using namespace tonic;

namespace {

constexpr std::size_t kTable = 4096;

template <class Cfg>
uint64_t run(uint64_t cycles, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint64_t> in(kTable);
  for (auto& x : in) {
    const uint64_t base = uint64_t{1} << rng.below(Cfg::kInW);
    x = base + rng.below(base);
  }
  CombModel<typename Cfg::Model> m;
  uint64_t sink = 0;
  for (uint64_t n = 0; n < cycles; ++n) sink += m.root(in[n % kTable]);
  // The sum of roots keeps the loop from being optimised away.
  return sink == ~uint64_t{0} ? 0 : cycles;
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("cbrt", argc, argv);
  bench.add("cbrt_w32", run<CbrtW32>);
  bench.add("cbrt_w32_sig8", run<CbrtW32Sig8>);
  bench.add("cbrt_w32_sig6", run<CbrtW32Sig6>);
  bench.add("cbrt_w24", run<CbrtW24>);
  return bench.run();
}
