// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_state_ram: random traffic (each writer
// busy 70 % of cycles, a clear in 10 %, half the addresses from a hot set of
// 8: MemBenchStim), model only, no reference. Case names are the manifest
// config names; each returns simulated cycles.
#include <cstdint>

#include "common/bench.hpp"
#include "state_ram_tb.hpp"

using namespace tonic;

namespace {

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  using Tb = StateRamTb<Model>;
  Harness<Model> h;
  Model& d = h.dut();
  MemBenchStim<Tb::Depth, Tb::Width> stim(seed);
  for (uint64_t c = 0; c < cycles; ++c) {
    packed::set_int(d.we_i, stim.writes(Tb::W, d.waddr_i, d.wdata_i));
    const uint64_t x = stim.next();
    d.clr_i = (x >> 4) % 10 == 0;
    packed::set_int(d.clr_addr_i, stim.addr(x));
    stim.reads(Tb::R, d.raddr_i);  // no read enables: every port reads
    h.eval();
    h.tick();
  }
  return h.cycle();
}

template <class Model>
void add(BenchMain& bench) {
  bench.add(StateRamCfg<Model>::name, [](uint64_t cycles, uint64_t seed) { return run<Model>(cycles, seed); });
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("state_ram", argc, argv);
  add<Vstate_ram_w1r3_reg_256x40>(bench);
  add<Vstate_ram_w2r3_reg_256x40>(bench);
  add<Vstate_ram_w2r3_comb_256x40>(bench);
  add<Vstate_ram_w1r2_comb_noclr_256x40>(bench);
  add<Vstate_ram_w2r2_reg_100x72>(bench);
  add<Vstate_ram_w1r1_reg_noclr_64x16>(bench);
  add<Vstate_ram_w1r3_reg_256x40_sim>(bench);
  add<Vstate_ram_w2r3_reg_256x40_sim>(bench);
  add<Vstate_ram_w2r3_comb_256x40_sim>(bench);
  add<Vstate_ram_w1r2_comb_noclr_256x40_sim>(bench);
  add<Vstate_ram_w2r2_reg_100x72_sim>(bench);
  add<Vstate_ram_w1r1_reg_noclr_64x16_sim>(bench);
  return bench.run();
}
