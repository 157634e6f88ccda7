// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of the stream cells under random traffic.
#include "Vreg_slice.h"
#include "Vskid_buffer.h"
#include "common/bench.hpp"
#include "stream_tb.hpp"

using namespace tonic;

int main(int argc, char** argv) {
  BenchMain bench("stream", argc, argv);
  bench.add("reg_slice", [](uint64_t cycles, uint64_t seed) {
    Harness<Vreg_slice> h;
    Rng rng(seed);
    return run_stream_cell(h, rng, cycles, 0.1, 0.1, 4).cycles;
  });
  bench.add("skid_buffer", [](uint64_t cycles, uint64_t seed) {
    Harness<Vskid_buffer> h;
    Rng rng(seed);
    return run_stream_cell(h, rng, cycles, 0.1, 0.1, 4).cycles;
  });
  return bench.run();
}
