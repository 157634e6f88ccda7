// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_state_ram: random traffic (each writer
// busy 70 % of cycles, a clear in 10 %, half the addresses from a hot set of
// 8), model only, no reference. Case names are the manifest config names;
// each returns simulated cycles.
#include <cstdint>

#include "common/bench.hpp"
#include "state_ram_tb.hpp"

using namespace tonic;

namespace {

/// xorshift64*: cheap stimulus so the figure is dominated by the model.
struct Fast {
  uint64_t s;
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545f4914f6cdd1dull;
  }
};

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  using Tb = StateRamTb<Model>;
  ClockHarness<Model> h;
  Model& d = h.dut();
  Fast f{seed * 0x9e3779b97f4a7c15ull + 1};
  uint32_t hot[8];
  for (auto& a : hot) a = static_cast<uint32_t>(f.next() % Tb::Depth);
  auto addr = [&](uint64_t x) -> uint64_t { return (x & 1) ? hot[(x >> 1) & 7] : (x >> 8) % Tb::Depth; };
  typename Tb::Word w{};
  for (uint64_t c = 0; c < cycles; ++c) {
    uint64_t we = 0;
    for (unsigned p = 0; p < Tb::W; ++p) {
      const uint64_t x = f.next();
      const uint64_t a = addr(x);
      we |= static_cast<uint64_t>((x >> 4) % 10 < 7) << p;
      for (auto& word : w) word = f.next();
      state_ram_detail::set_field(d.waddr_i, p * Tb::AddrW, Tb::AddrW, &a);
      state_ram_detail::set_field(d.wdata_i, p * Tb::Width, Tb::Width, w.data());
    }
    d.we_i = static_cast<std::remove_reference_t<decltype(d.we_i)>>(we);
    const uint64_t x = f.next();
    d.clr_i = (x >> 4) % 10 == 0;
    d.clr_addr_i = static_cast<std::remove_reference_t<decltype(d.clr_addr_i)>>(addr(x));
    for (unsigned r = 0; r < Tb::R; ++r) {
      const uint64_t a = addr(f.next());
      state_ram_detail::set_field(d.raddr_i, r * Tb::AddrW, Tb::AddrW, &a);
    }
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
  return bench.run();
}
