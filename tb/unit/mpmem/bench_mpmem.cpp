// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_mpmem: random traffic (70% of ports
// busy, half the addresses from a hot set of 8), model only, no reference.
// Case names are the manifest config names; each returns simulated cycles.
#include <cstdint>

#include "common/bench.hpp"
#include "mpmem_tb.hpp"

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
  using Tb = MpmemTb<Model>;
  Harness<Model> h;
  h.reset();
  Model& d = h.dut();
  Fast f{seed * 0x9e3779b97f4a7c15ull + 1};
  uint32_t hot[8];
  for (auto& a : hot) a = static_cast<uint32_t>(f.next() % Tb::Depth);
  typename Tb::Word w{};
  for (uint64_t c = 0; c < cycles; ++c) {
    uint64_t wr_en = 0, rd_en = 0;
    for (unsigned p = 0; p < Tb::P; ++p) {
      const uint64_t x = f.next();
      const uint64_t a = (x & 1) ? hot[(x >> 1) & 7] : (x >> 8) % Tb::Depth;
      wr_en |= static_cast<uint64_t>((x >> 4) % 10 < 7) << p;
      for (auto& word : w) word = f.next();
      mpmem_detail::set_field(d.wr_addr_i, p * Tb::AddrW, Tb::AddrW, &a);
      mpmem_detail::set_field(d.wr_data_i, p * Tb::Width, Tb::Width, w.data());
    }
    for (unsigned r = 0; r < Tb::Q; ++r) {
      const uint64_t x = f.next();
      const uint64_t a = (x & 1) ? hot[(x >> 1) & 7] : (x >> 8) % Tb::Depth;
      rd_en |= static_cast<uint64_t>((x >> 4) % 10 < 7) << r;
      mpmem_detail::set_field(d.rd_addr_i, r * Tb::AddrW, Tb::AddrW, &a);
    }
    d.wr_en_i = static_cast<std::remove_reference_t<decltype(d.wr_en_i)>>(wr_en);
    d.rd_en_i = static_cast<std::remove_reference_t<decltype(d.rd_en_i)>>(rd_en);
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
