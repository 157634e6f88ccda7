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

// Gated models start every flow at W = 0 and get a permit with every
// address, as the DD engine feeds them (no flow is ever held).
template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  CrTb<Model> tb;
  Rng rng(seed);
  std::vector<uint32_t> flows(CrParams<Model>::kFlows);
  std::iota(flows.begin(), flows.end(), 0u);
  if constexpr (CrParams<Model>::kGate) {
    for (uint32_t f : flows) tb.step(gate_cmd<Model>(f, true, 0));
  }
  SaturatingProducer<Model> prod(tb, flows);
  for (uint64_t i = 0; i < cycles; ++i) {
    typename CrTb<Model>::Cycle c;
    c.ready = !rng.chance(0.05);
    prod.next(c, rng);
    if constexpr (CrParams<Model>::kGate) permit_with_address<Model>(c);
    tb.step(c);
  }
  return tb.ref().errors() == 0 && tb.holds() == 0 ? cycles : 0;
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("cr", argc, argv);
  bench.add("cr_1024", run<Vcr_1024>);
  bench.add("cr_4096", run<Vcr_4096>);
  bench.add("cr_gate_1024", run<Vcr_gate_1024>);
  return bench.run();
}
