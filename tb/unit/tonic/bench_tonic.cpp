// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_top: all flows saturated (1024, or
// FlowCount), per-segment acks over a 20-cycle link, with the testbench's
// network model and segment checks; the per-event window reference is off
// (it is a test, not part of simulating the model). The builds are the
// registry's builds of the detailed run (tonic/twin_models.hpp), with the
// behavioural per-flow memories (SimRam = 1), then their structural forms
// (*_structural, SimRam = 0, the generated tonic/structural_models.hpp).
#include <cstdint>

#include "common/bench.hpp"
#include "tonic/structural_models.hpp"
#include "tonic_models.hpp"

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
  for (const registry::TwinBuild& b : registry::kTwinBuilds) {
    registry::with_twin_model<void>(b.config, [&](auto tag) {
      bench.add(b.config, run<typename decltype(tag)::Model>);
    });
  }
  for_each_structural([&](auto tag, const char* config) { bench.add(config, run<typename decltype(tag)::Model>); });
  return bench.run();
}
