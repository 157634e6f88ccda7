// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_cr_engine: all flows saturated by a
// DD-like producer, random back-pressure 5 % of cycles; cr_gate_1024 with
// the wire gate, a permit with every address. The reference checker runs
// too (it is cheap next to the model).
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/bench.hpp"
#include "cr_tb.hpp"

using namespace tonic;

namespace {

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  CrTb<Model> tb;
  Rng rng(seed);
  std::vector<uint32_t> flows(CrParams<Model>::kFlows);
  std::iota(flows.begin(), flows.end(), 0u);
  SaturatingProducer<Model> prod(tb, flows);
  for (uint64_t i = 0; i < cycles; ++i) {
    typename CrTb<Model>::Cycle c;
    c.ready = !rng.chance(0.05);
    prod.next(c, rng);
    tb.step(c);
  }
  return tb.ref().errors() == 0 ? cycles : 0;
}

/// The same with the wire gate, fed as the DD engine feeds it: every
/// address comes with its permit (W starts at 0 for every flow).
template <class Model>
uint64_t run_gated(uint64_t cycles, uint64_t seed) {
  CrTb<Model> tb;
  Rng rng(seed);
  std::vector<uint32_t> flows(CrParams<Model>::kFlows);
  std::iota(flows.begin(), flows.end(), 0u);
  for (uint32_t f : flows) {
    typename CrTb<Model>::Cycle c;
    c.gate = true;
    c.gate_set = true;
    c.gate_flow = f;
    tb.step(c);
  }
  SaturatingProducer<Model> prod(tb, flows);
  for (uint64_t i = 0; i < cycles; ++i) {
    typename CrTb<Model>::Cycle c;
    c.ready = !rng.chance(0.05);
    if (prod.next(c, rng)) {
      c.gate = true;
      c.gate_flow = c.seg.flow;
      c.gate_cnt = 1;
    }
    tb.step(c);
  }
  return tb.ref().errors() == 0 && tb.holds() == 0 ? cycles : 0;
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("cr", argc, argv);
  bench.add("cr_1024", run<Vcr_1024>);
  bench.add("cr_4096", run<Vcr_4096>);
  bench.add("cr_gate_1024", run_gated<Vcr_gate_1024>);
  return bench.run();
}
