// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_top: all flows saturated (1024, or
// FlowCount), per-segment acks over a 20-cycle link, with the testbench's
// network model and segment checks; the per-event window reference is off
// (it is a test, not part of simulating the model). Every build uses the
// behavioural per-flow memories (SimRam = 1) except *_structural.
#include <cstdint>

#include "common/bench.hpp"
#include "Vtonic_newreno_1024x128_structural.h"
#include "tonic_models.hpp"

// The structural per-flow memories (SimRam = 0, what synthesis sees); the
// models of tonic_models.hpp use the behavioural form.
namespace tonic {
template <>
struct TonicParams<Vtonic_newreno_1024x128_structural> : TonicParams<Vtonic_newreno_1024x128> {};
}  // namespace tonic

using namespace tonic;

namespace {

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  LinkConfig lc;
  lc.delay = 20;
  TonicTb<Model> tb(lc, RxConfig{}, seed);
  tb.set_window_check(false);
  const uint32_t flows = TonicParams<Model>::kFlows < 1024 ? TonicParams<Model>::kFlows : 1024;
  for (uint32_t f = 0; f < flows; ++f) tb.add_flow(f, f * 11, 1000, 1u << 24);
  tb.run(cycles);
  return tb.errors() == 0 ? cycles : 0;
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("tonic", argc, argv);
  bench.add("tonic_reno_1024x128", run<Vtonic_reno_1024x128>);
  bench.add("tonic_newreno_1024x128", run<Vtonic_newreno_1024x128>);
  bench.add("tonic_sack_1024x128", run<Vtonic_sack_1024x128>);
  bench.add("tonic_newreno_2048x256", run<Vtonic_newreno_2048x256>);
  bench.add("tonic_newreno_4096x256", run<Vtonic_newreno_4096x256>);
  bench.add("tonic_newreno_1024x128_structural", run<Vtonic_newreno_1024x128_structural>);
  return bench.run();
}
