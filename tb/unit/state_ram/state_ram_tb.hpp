// SPDX-License-Identifier: Apache-2.0
// Test bench for tonic_state_ram: geometry of each Verilated config, a
// driver that checks every read port in every cycle against StateRamRef
// (packed ports, words and the read check from common/mem_tb.hpp; the clock
// from common/harness.hpp, which leaves out the reset: the cell has none),
// and the random traffic generator of the stress tests.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Vstate_ram_w1r1_reg_noclr_64x16.h"
#include "Vstate_ram_w1r2_comb_noclr_256x40.h"
#include "Vstate_ram_w1r3_reg_256x40.h"
#include "Vstate_ram_w2r2_reg_100x72.h"
#include "Vstate_ram_w2r3_comb_256x40.h"
#include "Vstate_ram_w2r3_reg_256x40.h"
#include "Vstate_ram_w1r1_reg_noclr_64x16_sim.h"
#include "Vstate_ram_w1r2_comb_noclr_256x40_sim.h"
#include "Vstate_ram_w1r3_reg_256x40_sim.h"
#include "Vstate_ram_w2r2_reg_100x72_sim.h"
#include "Vstate_ram_w2r3_comb_256x40_sim.h"
#include "Vstate_ram_w2r3_reg_256x40_sim.h"
#include "tonic/harness.hpp"
#include "common/mem_tb.hpp"
#include "common/ref/state_ram_ref.hpp"
#include "tonic/rng.hpp"

namespace tonic {

/// Parameters of each config; must match rtl/manifest/state_ram.json.
/// `init_lo` / `init_hi` are bits [63:0] and [127:64] of Init. Each config
/// comes in two forms with the same parameters: the structural cell
/// (SimModel = 0) and its behavioural twin `<name>_sim` (SimModel = 1).
template <class Model>
struct StateRamCfg;

#define TONIC_STATE_RAM_CFG(MODEL, NAME, WR, RD, DEPTH, WIDTH, REG, CLR, INIT_LO, INIT_HI)    \
  template <>                                                                                \
  struct StateRamCfg<MODEL> {                                                                \
    static constexpr const char* name = NAME;                                                \
    static constexpr unsigned writers = WR, readers = RD, depth = DEPTH, width = WIDTH;      \
    static constexpr bool reg_read = REG, clear = CLR;                                       \
    static constexpr uint64_t init_lo = INIT_LO, init_hi = INIT_HI;                          \
  };
TONIC_STATE_RAM_CFG(Vstate_ram_w1r3_reg_256x40, "state_ram_w1r3_reg_256x40", 1, 3, 256, 40, true, true, 5, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w2r3_reg_256x40, "state_ram_w2r3_reg_256x40", 2, 3, 256, 40, true, true, 5, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w2r3_comb_256x40, "state_ram_w2r3_comb_256x40", 2, 3, 256, 40, false, true, 5, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w1r2_comb_noclr_256x40, "state_ram_w1r2_comb_noclr_256x40", 1, 2, 256, 40, false,
                    false, 0, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w2r2_reg_100x72, "state_ram_w2r2_reg_100x72", 2, 2, 100, 72, true, true, 1, 0x80)
TONIC_STATE_RAM_CFG(Vstate_ram_w1r1_reg_noclr_64x16, "state_ram_w1r1_reg_noclr_64x16", 1, 1, 64, 16, true, false, 0,
                    0)
TONIC_STATE_RAM_CFG(Vstate_ram_w1r3_reg_256x40_sim, "state_ram_w1r3_reg_256x40_sim", 1, 3, 256, 40, true, true, 5, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w2r3_reg_256x40_sim, "state_ram_w2r3_reg_256x40_sim", 2, 3, 256, 40, true, true, 5, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w2r3_comb_256x40_sim, "state_ram_w2r3_comb_256x40_sim", 2, 3, 256, 40, false, true, 5,
                    0)
TONIC_STATE_RAM_CFG(Vstate_ram_w1r2_comb_noclr_256x40_sim, "state_ram_w1r2_comb_noclr_256x40_sim", 1, 2, 256, 40,
                    false, false, 0, 0)
TONIC_STATE_RAM_CFG(Vstate_ram_w2r2_reg_100x72_sim, "state_ram_w2r2_reg_100x72_sim", 2, 2, 100, 72, true, true, 1,
                    0x80)
TONIC_STATE_RAM_CFG(Vstate_ram_w1r1_reg_noclr_64x16_sim, "state_ram_w1r1_reg_noclr_64x16_sim", 1, 1, 64, 16, true,
                    false, 0, 0)
#undef TONIC_STATE_RAM_CFG

// ---------------------------------------------------------------------------
/// Drives one tonic_state_ram model and compares every read port in every
/// cycle with StateRamRef (whenever the reference says the word is
/// defined). Per cycle: stage ports with write()/clear()/read(), then
/// cycle() drives them, settles the DUT, compares rdata_o, and clocks DUT
/// and reference. Write and clear enables are cleared after each cycle();
/// read addresses stay (they are levels, like the pins).
template <class Model>
class StateRamTb : public MemWords<StateRamCfg<Model>::depth, StateRamCfg<Model>::width>, public ReadCheck {
 public:
  using Cfg = StateRamCfg<Model>;
  static constexpr unsigned W = Cfg::writers;
  static constexpr unsigned R = Cfg::readers;
  static constexpr unsigned Depth = Cfg::depth;
  static constexpr unsigned Width = Cfg::width;
  static constexpr bool RegRead = Cfg::reg_read;
  static constexpr bool Clear = Cfg::clear;
  using Mem = MemWords<Depth, Width>;
  using Word = typename Mem::Word;
  static constexpr unsigned Words = Mem::Words;

  /// The Init parameter of the config.
  static Word init() {
    Word w{};
    w[0] = Cfg::init_lo;
    if constexpr (Words > 1) w[1] = Cfg::init_hi;
    return Mem::mask(w);
  }
  /// A reference model with the config's parameters.
  static StateRamRef make_ref() { return make_ref(RegRead, init()); }
  /// A reference model with another read timing or Init (to show that the
  /// comparison catches a difference).
  static StateRamRef make_ref(bool reg_read, const Word& init_word) {
    return StateRamRef(W, R, Depth, Width, reg_read, Clear, init_word.data());
  }

  StateRamTb() : StateRamTb(make_ref()) {}
  explicit StateRamTb(StateRamRef ref) : ref_(std::move(ref)) {
    for (unsigned r = 0; r < R; ++r) ref_.set_read(r, 0);
  }

  Harness<Model>& harness() { return h_; }
  StateRamRef& ref() { return ref_; }
  uint64_t cycles() const { return h_.cycle(); }

  /// A distinct word per `lo` (bits above 64 derived from it).
  static Word word(uint64_t lo) {
    Word w{};
    for (unsigned i = 1; i < Words; ++i) w[i] = lo * (0x9e3779b97f4a7c15ull + 2 * i) + i;
    w[0] = lo * 0x10001 + 0x100;  // never equal to a small Init
    return Mem::mask(w);
  }

  /// Stages writer w for the next cycle().
  void write(unsigned w, uint32_t addr, const Word& data) {
    we_[w] = 1;
    waddr_[w] = addr;
    wdata_[w] = data;
  }
  /// Address and data pins of a writer that stays idle (the enable gates them).
  void idle_write(unsigned w, uint32_t addr, const Word& data) {
    we_[w] = 0;
    waddr_[w] = addr;
    wdata_[w] = data;
  }
  /// Stages the clear port for the next cycle().
  void clear(uint32_t addr) {
    clr_ = 1;
    clr_addr_ = addr;
  }
  void idle_clear(uint32_t addr) {
    clr_ = 0;
    clr_addr_ = addr;
  }
  /// Sets read port r's address (kept for later cycles).
  void read(unsigned r, uint32_t addr) { raddr_[r] = addr; }
  void read_all(uint32_t addr) {
    for (unsigned r = 0; r < R; ++r) read(r, addr);
  }

  /// One clock cycle with the staged ports: drive, settle, compare every
  /// read port with the reference, then the clock edge.
  void cycle() {
    Model& d = h_.dut();
    packed::set_int(d.we_i, Mem::drive_writes(d.waddr_i, d.wdata_i, ref_, we_, waddr_, wdata_));
    d.clr_i = clr_;
    packed::set_int(d.clr_addr_i, clr_addr_);
    ref_.set_clear(clr_, clr_addr_);
    for (unsigned r = 0; r < R; ++r) {
      Mem::put_addr(d.raddr_i, r, raddr_[r]);
      ref_.set_read(r, raddr_[r]);
    }
    h_.eval();
    for (unsigned r = 0; r < R; ++r) during_[r] = out(r);
    check();
    ref_.clock();
    h_.tick();
    we_.fill(0);
    clr_ = 0;
  }
  void idle(unsigned n = 1) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }

  /// rdata_o[r] as sampled during the last cycle(), before its clock edge.
  /// RegRead = 0: S[address of that cycle] before that cycle's writes.
  /// RegRead = 1: S[address of the cycle before] after that cycle's writes.
  Word during(unsigned r) const { return during_[r]; }
  /// rdata_o[r] now, after the edge of the last cycle() with its inputs
  /// still applied. In both modes: S[address of the last cycle] after the
  /// writes and clear of the last cycle (RegRead = 1: the registered read;
  /// RegRead = 0: the combinational read of the held address).
  Word out(unsigned r) { return Mem::get_word(h_.dut().rdata_o, r); }

  /// Writes addresses [lo, hi) (round robin over the writers); the word of
  /// address a is word(a ^ salt).
  void fill(uint32_t lo, uint32_t hi, uint64_t salt) {
    for (uint32_t a = lo; a < hi;) {
      for (unsigned w = 0; w < W && a < hi; ++w, ++a) write(w, a, word(a ^ salt));
      cycle();
    }
  }

 private:
  void check() {
    for (unsigned r = 0; r < R; ++r) {
      if (!ref_.rd_defined(r)) continue;
      check_word(during_[r], ref_.rd_data(r), [&] {
        return fmt::format("cycle {}: read port {} (word of address {})", h_.cycle(), r, ref_.rd_addr(r));
      });
    }
  }

  Harness<Model> h_;
  StateRamRef ref_;
  std::array<uint8_t, W> we_{};
  std::array<uint32_t, W> waddr_{};
  std::array<Word, W> wdata_{};
  uint8_t clr_ = 0;
  uint32_t clr_addr_ = 0;
  std::array<uint32_t, R> raddr_{};
  std::array<Word, R> during_{};
};

// ---------------------------------------------------------------------------
/// Random traffic: every `phase` cycles the knobs are redrawn: a window of
/// 1..16 addresses (sometimes at 0 or Depth-1) that most accesses fall in,
/// so writes, clears and reads collide often; the probability of each
/// writer and of the clear port being enabled. Idle ports carry random
/// addresses and data (the enables must gate them). Clear is driven on
/// configs without Clear too: the port must be ignored there.
struct StateRamTraffic {
  unsigned phase = 500;
};

template <class Model>
void run_random(StateRamTb<Model>& tb, Rng& rng, uint64_t cycles, StateRamTraffic t = {}) {
  using Tb = StateRamTb<Model>;
  static constexpr double kProb[] = {0.0, 0.1, 0.3, 0.5, 0.8, 1.0};
  static constexpr unsigned kWindow[] = {1, 2, 3, 4, 8, 16};
  uint32_t base = 0, size = 4;
  double wr_p[Tb::W] = {}, clr_p = 0, in_window_p = 0.9;
  for (uint64_t c = 0; c < cycles; ++c) {
    if (c % t.phase == 0) {
      size = std::min<uint32_t>(kWindow[rng.below(6)], Tb::Depth);
      const uint64_t pick = rng.below(4);
      base = pick == 0 ? 0u : pick == 1 ? Tb::Depth - size : static_cast<uint32_t>(rng.below(Tb::Depth - size + 1));
      for (auto& p : wr_p) p = kProb[1 + rng.below(5)];
      clr_p = kProb[rng.below(5)];
      in_window_p = rng.chance(0.5) ? 1.0 : 0.9;
    }
    auto addr = [&] {
      return rng.chance(in_window_p) ? base + static_cast<uint32_t>(rng.below(size))
                                     : static_cast<uint32_t>(rng.below(Tb::Depth));
    };
    for (unsigned w = 0; w < Tb::W; ++w) {
      const uint32_t a = addr();
      const auto d = Tb::random_word(rng);
      if (rng.chance(wr_p[w])) tb.write(w, a, d);
      else tb.idle_write(w, a, d);
    }
    const uint32_t ca = addr();
    if (rng.chance(clr_p)) tb.clear(ca);
    else tb.idle_clear(ca);
    for (unsigned r = 0; r < Tb::R; ++r) tb.read(r, addr());
    tb.cycle();
  }
}

}  // namespace tonic
