// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of the bitmap cells: each case drives a fresh
// random ring (and head / range) and evaluates the model, `cycles` times;
// one evaluation counts as one cycle. Case names are the manifest configs.
// Inputs are generated before the loop (a table of 4096 random rings reused
// round-robin), so the figure is the model's speed, not the generator's.
#include <cstdint>
#include <vector>

#include "Vffs_w128.h"
#include "Vffs_w256.h"
#include "Vffs_w64.h"
#include "Vones_w128.h"
#include "Vones_w256.h"
#include "Vones_w64.h"
#include "Vpopcount_pipe_w256.h"
#include "Vpopcount_w128.h"
#include "Vpopcount_w256.h"
#include "Vpopcount_w64.h"
#include "bitmap_tb.hpp"
#include "common/bench.hpp"

using namespace tonic;

namespace {

constexpr std::size_t kTable = 4096;  // random inputs, reused round-robin

template <std::size_t W>
struct Input {
  BitRing<W> ring;
  uint32_t head;  // also the popcount start
  uint32_t len;
};

template <std::size_t W>
std::vector<Input<W>> make_inputs(uint64_t seed) {
  Rng rng(seed);
  std::vector<Input<W>> v(kTable);
  for (auto& in : v) {
    in.head = static_cast<uint32_t>(rng.below(W));
    in.len = static_cast<uint32_t>(rng.range(0, W));
    in.ring = random_ring<W>(rng, in.head);
  }
  return v;
}

/// Evaluations of a {bits_i, head_i} unit: tonic_ffs_after_head (result
/// index_o) or tonic_ones_from_head (count_o), read through `out`.
template <class Model, std::size_t W, class Out>
uint64_t run_head_unit(uint64_t cycles, uint64_t seed, Out out) {
  const auto in = make_inputs<W>(seed);
  Comb<Model> c;
  uint64_t sink = 0;
  for (uint64_t n = 0; n < cycles; ++n) {
    const auto& x = in[n % kTable];
    drive(c->bits_i, x.ring);
    c->head_i = x.head;
    c.eval();
    sink += out(*c);
  }
  return sink == ~uint64_t{0} ? 0 : cycles;  // keep the result live
}

template <class Model, std::size_t W>
uint64_t run_ffs(uint64_t cycles, uint64_t seed) {
  return run_head_unit<Model, W>(cycles, seed, [](const Model& m) { return m.index_o; });
}

template <class Model, std::size_t W>
uint64_t run_ones(uint64_t cycles, uint64_t seed) {
  return run_head_unit<Model, W>(cycles, seed, [](const Model& m) { return m.count_o; });
}

/// Evaluations of tonic_popcount_range; with Pipeline = 1 one clock cycle
/// (two evals) per input.
template <class Model, std::size_t W, bool Clocked>
uint64_t run_popcount(uint64_t cycles, uint64_t seed) {
  const auto in = make_inputs<W>(seed);
  Comb<Model> c;
  uint64_t sink = 0;
  for (uint64_t n = 0; n < cycles; ++n) {
    const auto& x = in[n % kTable];
    drive(c->bits_i, x.ring);
    c->start_i = x.head;
    c->len_i = x.len;
    if constexpr (Clocked) {
      c.tick();
    } else {
      c.eval();
    }
    sink += c->count_o;
  }
  return sink == ~uint64_t{0} ? 0 : cycles;
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("bitmap", argc, argv);
  bench.add("ffs_w64", run_ffs<Vffs_w64, 64>);
  bench.add("ffs_w128", run_ffs<Vffs_w128, 128>);
  bench.add("ffs_w256", run_ffs<Vffs_w256, 256>);
  bench.add("ones_w64", run_ones<Vones_w64, 64>);
  bench.add("ones_w128", run_ones<Vones_w128, 128>);
  bench.add("ones_w256", run_ones<Vones_w256, 256>);
  bench.add("popcount_w64", run_popcount<Vpopcount_w64, 64, false>);
  bench.add("popcount_w128", run_popcount<Vpopcount_w128, 128, false>);
  bench.add("popcount_w256", run_popcount<Vpopcount_w256, 256, false>);
  bench.add("popcount_pipe_w256", run_popcount<Vpopcount_pipe_w256, 256, true>);
  return bench.run();
}
