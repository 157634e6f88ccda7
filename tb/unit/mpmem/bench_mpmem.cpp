// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_mpmem: random traffic (70% of ports
// busy, half the addresses from a hot set of 8: MemBenchStim), model only,
// no reference. Case names are the manifest config names; each returns
// simulated cycles.
#include <cstdint>

#include "common/bench.hpp"
#include "mpmem_tb.hpp"

using namespace tonic;

namespace {

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  using Tb = MpmemTb<Model>;
  Harness<Model> h;
  h.reset();
  Model& d = h.dut();
  MemBenchStim<Tb::Depth, Tb::Width> stim(seed);
  for (uint64_t c = 0; c < cycles; ++c) {
    const uint64_t wr_en = stim.writes(Tb::P, d.wr_addr_i, d.wr_data_i);
    const uint64_t rd_en = stim.reads(Tb::Q, d.rd_addr_i);
    packed::set_int(d.wr_en_i, wr_en);
    packed::set_int(d.rd_en_i, rd_en);
    h.eval();
    h.tick();
  }
  return h.cycle();
}

template <class Model>
void add(BenchMain& bench) {
  bench.add(MpmemCfg<Model>::name, [](uint64_t cycles, uint64_t seed) { return run<Model>(cycles, seed); });
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("mpmem", argc, argv);
  add<Vmpmem_2w2r_1024x64>(bench);
  add<Vmpmem_4w4r_1024x64>(bench);
  add<Vmpmem_4w4r_4096x72>(bench);
  add<Vmpmem_3w3r_1536x40>(bench);
  add<Vmpmem_2w2r_1024x64_lvt>(bench);
  add<Vmpmem_4w4r_1024x64_lvt>(bench);
  add<Vmpmem_4w4r_4096x72_lvt>(bench);
  add<Vmpmem_3w3r_1536x40_lvt>(bench);
  return bench.run();
}
