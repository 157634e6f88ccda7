// SPDX-License-Identifier: Apache-2.0
// Test bench for tonic_mpmem: geometry of each Verilated config, a driver
// that checks every read against MpmemRef (packed ports, words and the read
// check from common/mem_tb.hpp), and the random traffic generator of the
// stress tests and the demo.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Vmpmem_2w2r_1024x64_lvt.h"
#include "Vmpmem_2w2r_1024x64.h"
#include "Vmpmem_3w3r_1536x40_lvt.h"
#include "Vmpmem_3w3r_1536x40.h"
#include "Vmpmem_4w4r_1024x64_lvt.h"
#include "Vmpmem_4w4r_1024x64.h"
#include "Vmpmem_4w4r_4096x72_lvt.h"
#include "Vmpmem_4w4r_4096x72.h"
#include "tonic/harness.hpp"
#include "common/mem_tb.hpp"
#include "common/ref/mpmem_ref.hpp"
#include "tonic/rng.hpp"

namespace tonic {

/// Geometry of each config; must match rtl/manifest/mpmem.json.
template <class Model>
struct MpmemCfg;

#define TONIC_MPMEM_CFG(MODEL, NAME, P, Q, DEPTH, WIDTH)                                \
  template <>                                                                           \
  struct MpmemCfg<MODEL> {                                                              \
    static constexpr const char* name = NAME;                                           \
    static constexpr unsigned write_ports = P, read_ports = Q, depth = DEPTH, width = WIDTH; \
  };
TONIC_MPMEM_CFG(Vmpmem_2w2r_1024x64, "mpmem_2w2r_1024x64", 2, 2, 1024, 64)
TONIC_MPMEM_CFG(Vmpmem_4w4r_1024x64, "mpmem_4w4r_1024x64", 4, 4, 1024, 64)
TONIC_MPMEM_CFG(Vmpmem_4w4r_4096x72, "mpmem_4w4r_4096x72", 4, 4, 4096, 72)
TONIC_MPMEM_CFG(Vmpmem_3w3r_1536x40, "mpmem_3w3r_1536x40", 3, 3, 1536, 40)
TONIC_MPMEM_CFG(Vmpmem_2w2r_1024x64_lvt, "mpmem_2w2r_1024x64_lvt", 2, 2, 1024, 64)
TONIC_MPMEM_CFG(Vmpmem_4w4r_1024x64_lvt, "mpmem_4w4r_1024x64_lvt", 4, 4, 1024, 64)
TONIC_MPMEM_CFG(Vmpmem_4w4r_4096x72_lvt, "mpmem_4w4r_4096x72_lvt", 4, 4, 4096, 72)
TONIC_MPMEM_CFG(Vmpmem_3w3r_1536x40_lvt, "mpmem_3w3r_1536x40_lvt", 3, 3, 1536, 40)
#undef TONIC_MPMEM_CFG

// ---------------------------------------------------------------------------
/// Drives one tonic_mpmem model and checks every completed read against
/// MpmemRef. Per cycle: stage ports with write()/read(), then cycle()
/// drives them, clocks DUT and reference, and compares the read results
/// (rd_valid_o always; rd_data_o whenever the word is defined).
template <class Model>
class MpmemTb : public MemWords<MpmemCfg<Model>::depth, MpmemCfg<Model>::width>, public ReadCheck {
 public:
  using Cfg = MpmemCfg<Model>;
  static constexpr unsigned P = Cfg::write_ports;
  static constexpr unsigned Q = Cfg::read_ports;
  static constexpr unsigned Depth = Cfg::depth;
  static constexpr unsigned Width = Cfg::width;
  using Mem = MemWords<Depth, Width>;
  using Word = typename Mem::Word;
  static constexpr unsigned Words = Mem::Words;

  MpmemTb() : ref_(P, Q, Depth, Width) {
    h_.reset();
    ref_.reset();
    clear_staged();
  }

  Harness<Model>& harness() { return h_; }
  MpmemRef& ref() { return ref_; }
  uint64_t cycles() const { return h_.cycle(); }

  static Word word(uint64_t lo) {
    Word w{};
    for (unsigned i = 0; i < Words; ++i) w[i] = lo * (0x9e3779b97f4a7c15ull + 2 * i) + i;
    w[0] = lo;
    return Mem::mask(w);
  }

  /// Stages write port p for the next cycle().
  void write(unsigned p, uint32_t addr, const Word& data) {
    wr_en_[p] = 1;
    wr_addr_[p] = addr;
    wr_data_[p] = data;
  }
  /// Stages read port r for the next cycle().
  void read(unsigned r, uint32_t addr) {
    rd_en_[r] = 1;
    rd_addr_[r] = addr;
  }
  /// Sets the address/data pins of idle ports (to check enables gate them).
  void idle_pins(unsigned p_or_r, bool is_write, uint32_t addr, const Word& data) {
    if (is_write) {
      wr_addr_[p_or_r] = addr;
      wr_data_[p_or_r] = data;
    } else {
      rd_addr_[p_or_r] = addr;
    }
  }

  /// One clock cycle with the staged ports; then checks the reads of this
  /// cycle (now on the outputs) against the reference. Clears the stage.
  void cycle() {
    Model& d = h_.dut();
    const uint64_t wr_en = Mem::drive_writes(d.wr_addr_i, d.wr_data_i, ref_, wr_en_, wr_addr_, wr_data_);
    uint64_t rd_en = 0;
    for (unsigned r = 0; r < Q; ++r) {
      rd_en |= static_cast<uint64_t>(rd_en_[r]) << r;
      Mem::put_addr(d.rd_addr_i, r, rd_addr_[r]);
      ref_.set_read(r, rd_en_[r], rd_addr_[r]);
    }
    packed::set_int(d.wr_en_i, wr_en);
    packed::set_int(d.rd_en_i, rd_en);
    h_.eval();
    ref_.clock();
    h_.tick();
    check();
    clear_staged();
  }

  /// Idle cycles (all enables low).
  void idle(unsigned n = 1) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }

  /// Read results of the last cycle() as the DUT shows them now.
  bool valid(unsigned r) { return (static_cast<uint64_t>(h_.dut().rd_valid_o) >> r) & 1; }
  Word data(unsigned r) { return Mem::get_word(h_.dut().rd_data_o, r); }

  /// Synchronous reset of DUT and reference (contents are kept).
  void reset() {
    clear_staged();
    h_.reset(2);
    ref_.reset();
  }

  /// Writes every address once (port p takes addresses p, p+P, ...), so
  /// every later read is defined. Word of address a: word(a ^ salt).
  void fill(uint64_t salt) {
    for (uint32_t base = 0; base < Depth; base += P) {
      for (unsigned p = 0; p < P && base + p < Depth; ++p) write(p, base + p, word((base + p) ^ salt));
      cycle();
    }
  }

 private:
  void clear_staged() {
    wr_en_.fill(0);
    rd_en_.fill(0);
  }

  void check() {
    for (unsigned r = 0; r < Q; ++r) {
      const bool v = valid(r);
      if (v != ref_.rd_valid(r)) {
        fail(fmt::format("cycle {}: rd_valid_o[{}] = {}, expected {}", h_.cycle(), r, v, ref_.rd_valid(r)));
        continue;
      }
      if (!ref_.rd_defined(r)) continue;
      check_word(data(r), ref_.rd_data(r),
                 [&] { return fmt::format("cycle {}: read port {} addr {}", h_.cycle(), r, ref_.rd_addr(r)); });
    }
  }

  Harness<Model> h_;
  MpmemRef ref_;
  std::array<uint8_t, P> wr_en_{};
  std::array<uint32_t, P> wr_addr_{};
  std::array<Word, P> wr_data_{};
  std::array<uint8_t, Q> rd_en_{};
  std::array<uint32_t, Q> rd_addr_{};
};

// ---------------------------------------------------------------------------
/// Random traffic knobs; run_random() redraws them every `phase` cycles
/// when `vary` is set.
struct MpmemTraffic {
  double wr_p = 0.7;        // probability a write port is enabled
  double rd_p = 0.7;        // probability a read port is enabled
  double hot_p = 0.8;       // probability an address comes from the hot set
  unsigned hot_size = 4;    // addresses in the hot set
  bool vary = true;         // redraw the knobs per phase
  unsigned phase = 1000;    // cycles per phase
};

/// Runs `cycles` random cycles (after fill()), checking every read.
template <class Model>
void run_random(MpmemTb<Model>& tb, Rng& rng, uint64_t cycles, MpmemTraffic t) {
  using Tb = MpmemTb<Model>;
  std::vector<uint32_t> hot;
  auto redraw_hot = [&] {
    hot.clear();
    for (unsigned i = 0; i < t.hot_size; ++i) {
      const uint64_t pick = rng.below(8);
      // Bias towards the ends of the address range.
      hot.push_back(pick == 0 ? 0u : pick == 1 ? Tb::Depth - 1 : static_cast<uint32_t>(rng.below(Tb::Depth)));
    }
  };
  redraw_hot();
  static constexpr double kProb[] = {0.0, 0.1, 0.5, 0.9, 1.0};
  static constexpr unsigned kHot[] = {1, 2, 3, 4, 8, 32};
  for (uint64_t c = 0; c < cycles; ++c) {
    if (t.vary && c % t.phase == 0) {
      t.wr_p = kProb[1 + rng.below(4)];
      t.rd_p = kProb[1 + rng.below(4)];
      t.hot_p = kProb[rng.below(5)];
      t.hot_size = kHot[rng.below(6)];
      redraw_hot();
    }
    auto addr = [&] {
      return rng.chance(t.hot_p) ? hot[rng.below(hot.size())] : static_cast<uint32_t>(rng.below(Tb::Depth));
    };
    for (unsigned p = 0; p < Tb::P; ++p) {
      const uint32_t a = addr();
      const auto w = Tb::random_word(rng);
      if (rng.chance(t.wr_p)) tb.write(p, a, w);
      else tb.idle_pins(p, true, a, w);
    }
    for (unsigned r = 0; r < Tb::Q; ++r) {
      const uint32_t a = addr();
      if (rng.chance(t.rd_p)) tb.read(r, a);
      else tb.idle_pins(r, false, a, {});
    }
    tb.cycle();
  }
}

}  // namespace tonic
