// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_state_ram (block RAM and LUTRAM reads, one and two
// writers, with and without the clear port). Directed tests state the
// expected word explicitly; every cycle of every test is also compared
// with StateRamRef by StateRamTb (every read port whose word is defined).
//
// Reading the expectations: tb.out(r) after a cycle() is, in both modes,
// the word of the address presented in that cycle AFTER that cycle's
// writes and clear (RegRead = 1: the registered read; RegRead = 0: the
// combinational read with the address held). tb.during(r) is rdata_o
// before the edge: RegRead = 0, the word BEFORE the cycle's writes;
// RegRead = 1, the result of the address presented one cycle earlier.
#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

#include "state_ram_tb.hpp"

using namespace tonic;

// Every test runs on the structural cell (SimModel = 0, what synthesis
// sees) and on its behavioural twin (_sim, SimModel = 1, what the tonic_top
// models simulate).
#define STATE_RAM_MODELS                                                                                         \
  Vstate_ram_w1r3_reg_256x40, Vstate_ram_w2r3_reg_256x40, Vstate_ram_w2r3_comb_256x40,                           \
      Vstate_ram_w1r2_comb_noclr_256x40, Vstate_ram_w2r2_reg_100x72, Vstate_ram_w1r1_reg_noclr_64x16,            \
      Vstate_ram_w1r3_reg_256x40_sim, Vstate_ram_w2r3_reg_256x40_sim, Vstate_ram_w2r3_comb_256x40_sim,           \
      Vstate_ram_w1r2_comb_noclr_256x40_sim, Vstate_ram_w2r2_reg_100x72_sim, Vstate_ram_w1r1_reg_noclr_64x16_sim

// The cells with two writers (the same-cycle write tests) and those with a
// clear port (the clear tests): a test is registered only for the models it
// applies to.
#define STATE_RAM_MULTI_WRITER_MODELS                                                                              \
  Vstate_ram_w2r3_reg_256x40, Vstate_ram_w2r3_comb_256x40, Vstate_ram_w2r2_reg_100x72,                            \
      Vstate_ram_w2r3_reg_256x40_sim, Vstate_ram_w2r3_comb_256x40_sim, Vstate_ram_w2r2_reg_100x72_sim
#define STATE_RAM_CLEAR_MODELS                                                                                     \
  Vstate_ram_w1r3_reg_256x40, Vstate_ram_w2r3_reg_256x40, Vstate_ram_w2r3_comb_256x40, Vstate_ram_w2r2_reg_100x72, \
      Vstate_ram_w1r3_reg_256x40_sim, Vstate_ram_w2r3_reg_256x40_sim, Vstate_ram_w2r3_comb_256x40_sim,             \
      Vstate_ram_w2r2_reg_100x72_sim

// The reference agrees with the DUT on every cycle so far.
#define REQUIRE_CLEAN(tb)        \
  do {                           \
    INFO((tb).first_error());    \
    REQUIRE((tb).errors() == 0); \
  } while (0)

// ---------------------------------------------------------------------------
// The reference model alone, against the rules of the cell's header,
// worked out by hand (so a wrong reference cannot hide a wrong DUT).
TEST_CASE("state_ram: the reference model follows the header's rules", "[state_ram][ref]") {
  const uint64_t init = 5;
  uint64_t v1 = 0x111, v2 = 0x222, v3 = 0x333;
  SECTION("RegRead = 1: the address is presented one cycle ahead, a same-cycle write is forwarded") {
    StateRamRef m(2, 2, 16, 40, true, true, &init);
    m.set_read(0, 3);
    REQUIRE_FALSE(m.rd_defined(0));
    m.set_write(0, true, 3, &v1);
    m.clock();  // cycle 0: write 3 = v1, address 3 presented
    REQUIRE(m.rd_defined(0));
    REQUIRE(m.rd_data(0)[0] == v1);  // after the write of cycle 0
    REQUIRE(m.rd_data(0)[0] != 0);   // a wrong "read-first" expectation (undefined/old) fails
    m.set_write(0, true, 3, &v2);
    m.set_write(1, true, 3, &v3);  // both writers: writer 1 wins
    m.clock();
    REQUIRE(m.rd_data(0)[0] == v3);
    REQUIRE(m.rd_data(0)[0] != v2);  // "writer 0 wins" would be wrong
    m.set_write(1, true, 3, &v1);
    m.set_clear(true, 3);  // clear beats the write
    m.clock();
    REQUIRE(m.rd_data(0)[0] == init);
    REQUIRE(m.rd_data(0)[0] != v1);
    REQUIRE_FALSE(m.rd_defined(1));  // port 1 at address 0, never written
  }
  SECTION("RegRead = 0: the read shows the state before the cycle's writes") {
    StateRamRef m(1, 1, 16, 40, false, true, &init);
    m.set_read(0, 7);
    REQUIRE_FALSE(m.rd_defined(0));
    m.set_write(0, true, 7, &v1);
    REQUIRE_FALSE(m.rd_defined(0));  // still before the edge
    m.clock();
    REQUIRE(m.rd_data(0)[0] == v1);
    m.set_write(0, true, 7, &v2);
    REQUIRE(m.rd_data(0)[0] == v1);  // before the write of this cycle
    REQUIRE(m.rd_data(0)[0] != v2);  // forwarding would be wrong here
    m.clock();
    REQUIRE(m.rd_data(0)[0] == v2);
    m.set_clear(true, 7);
    REQUIRE(m.rd_data(0)[0] == v2);
    m.clock();
    REQUIRE(m.rd_data(0)[0] == init);
  }
  SECTION("Clear = 0: the clear port is ignored") {
    StateRamRef m(1, 1, 16, 40, false, false, &init);
    m.set_read(0, 2);
    m.set_clear(true, 2);
    m.clock();
    REQUIRE_FALSE(m.rd_defined(0));
    m.set_write(0, true, 2, &v1);
    m.clock();
    m.set_clear(true, 2);
    m.clock();
    REQUIRE(m.rd_data(0)[0] == v1);
  }
}

// ---------------------------------------------------------------------------
TEMPLATE_TEST_CASE("state_ram: a write is seen by a read presented in the same cycle (RegRead=1) "
                   "or in a later cycle (RegRead=0)",
                   "[state_ram][smoke]", STATE_RAM_MODELS) {
  using Tb = StateRamTb<TestType>;
  Tb tb;
  for (unsigned w = 0; w < Tb::W; ++w) {
    for (unsigned r = 0; r < Tb::R; ++r) {
      const uint32_t a = (37 * (w * Tb::R + r) + 5) % Tb::Depth;
      const auto v1 = Tb::word(0x1000 + 16 * w + r), v2 = Tb::word(0x2000 + 16 * w + r);
      CAPTURE(w, r, a);
      // Cycle 1: write v1, address a presented.
      tb.write(w, a, v1);
      tb.read(r, a);
      tb.cycle();
      REQUIRE(tb.out(r) == v1);  // RegRead=1: forwarded same-cycle write
      // Cycle 2: write v2 to a, address a presented again.
      tb.write(w, a, v2);
      tb.read(r, a);
      tb.cycle();
      // RegRead=0: the combinational read of cycle 2 shows v1 (before the
      // write of cycle 2). RegRead=1: the registered result of cycle 1's
      // address: v1 too. Presenting the address one cycle ahead is the same.
      REQUIRE(tb.during(r) == v1);
      REQUIRE(tb.out(r) == v2);
      // Cycle 3: no write.
      tb.cycle();
      REQUIRE(tb.during(r) == v2);
      REQUIRE(tb.out(r) == v2);
    }
  }
  // Where the two modes differ: the address changes. Cycle A presents
  // address x and writes y; cycle B presents y.
  const uint32_t x = 3, y = Tb::Depth - 1;
  tb.write(0, x, Tb::word(0x3000));
  tb.cycle();
  tb.read(0, x);
  tb.write(Tb::W - 1, y, Tb::word(0x3001));
  tb.cycle();  // A
  tb.read(0, y);
  tb.cycle();  // B
  if constexpr (Tb::RegRead) {
    REQUIRE(tb.during(0) == Tb::word(0x3000));  // result of A's address x
  } else {
    REQUIRE(tb.during(0) == Tb::word(0x3001));  // y, written in A, read in B
  }
  REQUIRE(tb.out(0) == Tb::word(0x3001));
  // A new word every cycle on one address, all read ports presenting it:
  // each cycle shows the previous cycle's word before the edge and the new
  // one after it, in both modes.
  const uint32_t a = Tb::Depth / 2;
  tb.read_all(a);
  for (unsigned i = 0; i < 16; ++i) {
    tb.write(i % Tb::W, a, Tb::word(0x5000 + i));
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      CAPTURE(i, r);
      if (i > 0) REQUIRE(tb.during(r) == Tb::word(0x5000 + i - 1));
      REQUIRE(tb.out(r) == Tb::word(0x5000 + i));
    }
  }
  REQUIRE(tb.checked() > 0);
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: two writers to one address in one cycle, writer 1 wins", "[state_ram][smoke]",
                   STATE_RAM_MULTI_WRITER_MODELS) {
  using Tb = StateRamTb<TestType>;
  static_assert(!(Tb::W < 2), "registered only for the models it applies to");
  Tb tb;
  for (uint32_t a : {0u, 7u, Tb::Depth - 1}) {
    CAPTURE(a);
    // Same-cycle collision, the address presented in that cycle.
    tb.read_all(a);
    tb.write(0, a, Tb::word(0x100 + a));
    tb.write(1, a, Tb::word(0x200 + a));
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) REQUIRE(tb.out(r) == Tb::word(0x200 + a));
    // An idle cycle: out() is now read from storage (not forwarded).
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::word(0x200 + a));
      REQUIRE(tb.out(r) == Tb::word(0x200 + a));
    }
    // Across cycles the last write wins, whatever the writer: writer 1,
    // then writer 0 (the live-value table must move back to bank 0).
    tb.write(1, a, Tb::word(0x300 + a));
    tb.cycle();
    tb.write(0, a, Tb::word(0x400 + a));
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) REQUIRE(tb.out(r) == Tb::word(0x400 + a));
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::word(0x400 + a));
      REQUIRE(tb.out(r) == Tb::word(0x400 + a));
    }
    // Collision again after writer 0 held the word.
    tb.write(0, a, Tb::word(0x500 + a));
    tb.write(1, a, Tb::word(0x600 + a));
    tb.cycle();
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::word(0x600 + a));
      REQUIRE(tb.out(r) == Tb::word(0x600 + a));
    }
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: two writers to different addresses in one cycle both land", "[state_ram][smoke]",
                   STATE_RAM_MULTI_WRITER_MODELS) {
  using Tb = StateRamTb<TestType>;
  static_assert(!(Tb::W < 2), "registered only for the models it applies to");
  Tb tb;
  const uint32_t a0 = 10, a1 = 11;
  // Each address presented in the cycle of the writes (forwarding from
  // the right writer for RegRead=1).
  for (unsigned r = 0; r < Tb::R; ++r) tb.read(r, r % 2 ? a1 : a0);
  tb.write(0, a0, Tb::word(0x10));
  tb.write(1, a1, Tb::word(0x11));
  tb.cycle();
  for (unsigned r = 0; r < Tb::R; ++r) REQUIRE(tb.out(r) == Tb::word(r % 2 ? 0x11 : 0x10));
  // Swap the addresses between the writers.
  tb.write(0, a1, Tb::word(0x21));
  tb.write(1, a0, Tb::word(0x20));
  tb.cycle();
  for (unsigned r = 0; r < Tb::R; ++r) {
    REQUIRE(tb.during(r) == Tb::word(r % 2 ? 0x11 : 0x10));
    REQUIRE(tb.out(r) == Tb::word(r % 2 ? 0x21 : 0x20));
  }
  // Read the swapped words in later cycles, ports crossed over.
  for (unsigned r = 0; r < Tb::R; ++r) tb.read(r, r % 2 ? a0 : a1);
  tb.cycle();
  tb.cycle();
  for (unsigned r = 0; r < Tb::R; ++r) {
    REQUIRE(tb.during(r) == Tb::word(r % 2 ? 0x20 : 0x21));
    REQUIRE(tb.out(r) == Tb::word(r % 2 ? 0x20 : 0x21));
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: a cleared address reads as Init", "[state_ram][smoke]", STATE_RAM_MODELS) {
  using Tb = StateRamTb<TestType>;
  Tb tb;
  const uint32_t a = 9, b = Tb::Depth - 2;
  for (unsigned w = 0; w < Tb::W; ++w) {
    CAPTURE(w);
    tb.write(w, a, Tb::word(0x700 + w));
    tb.cycle();
    // Clear with the address presented in the same cycle.
    tb.read_all(a);
    tb.clear(a);
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      CAPTURE(r);
      if constexpr (!Tb::RegRead) REQUIRE(tb.during(r) == Tb::word(0x700 + w));  // before the clear
      if constexpr (Tb::Clear) {
        REQUIRE(tb.out(r) == Tb::init());
      } else {
        REQUIRE(tb.out(r) == Tb::word(0x700 + w));  // no clear port: ignored
      }
    }
    // An idle cycle: out() is now read from storage (not forwarded).
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == (Tb::Clear ? Tb::init() : Tb::word(0x700 + w)));
      REQUIRE(tb.out(r) == (Tb::Clear ? Tb::init() : Tb::word(0x700 + w)));
    }
  }
  if constexpr (Tb::Clear) {
    // A never-written address, cleared, reads Init.
    tb.clear(b);
    tb.read_all(b);
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) REQUIRE(tb.out(r) == Tb::init());
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::init());
      REQUIRE(tb.out(r) == Tb::init());
    }
    // Init has bits above 64 in the 72-bit config.
    if constexpr (Tb::Words > 1) REQUIRE(Tb::init()[1] != 0);
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: clear and write to one address in one cycle, the clear wins", "[state_ram][smoke]",
                   STATE_RAM_CLEAR_MODELS) {
  using Tb = StateRamTb<TestType>;
  static_assert(!(!Tb::Clear), "registered only for the models it applies to");
  Tb tb;
  const uint32_t a = 20;
  tb.read_all(a);
  // Every non-empty set of writers, together with the clear.
  for (unsigned set = 1; set < (1u << Tb::W); ++set) {
    CAPTURE(set);
    tb.write(0, a, Tb::word(0x800 + set));  // a defined word first
    tb.cycle();
    for (unsigned w = 0; w < Tb::W; ++w) {
      if (set >> w & 1) tb.write(w, a, Tb::word(0x900 + 16 * set + w));
    }
    tb.clear(a);
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      if constexpr (!Tb::RegRead) REQUIRE(tb.during(r) == Tb::word(0x800 + set));
      REQUIRE(tb.out(r) == Tb::init());
    }
    // An idle cycle: out() is now read from storage (not forwarded).
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::init());
      REQUIRE(tb.out(r) == Tb::init());
    }
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: a write after a clear replaces Init", "[state_ram][smoke]", STATE_RAM_CLEAR_MODELS) {
  using Tb = StateRamTb<TestType>;
  static_assert(!(!Tb::Clear), "registered only for the models it applies to");
  Tb tb;
  const uint32_t a = 33 % Tb::Depth;
  tb.read_all(a);
  for (unsigned w = 0; w < Tb::W; ++w) {
    CAPTURE(w);
    // Clear, then write in the very next cycle with the address presented
    // (RegRead=1: the forwarded write must beat the fresh bit).
    tb.clear(a);
    tb.cycle();
    tb.write(w, a, Tb::word(0xa00 + w));
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::init());
      REQUIRE(tb.out(r) == Tb::word(0xa00 + w));
    }
    // Later cycles: the fresh bit is gone.
    tb.idle(3);
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.during(r) == Tb::word(0xa00 + w));
      REQUIRE(tb.out(r) == Tb::word(0xa00 + w));
    }
    // Clear and a write of another address in the same cycle, then a write
    // of the cleared address by the other writer.
    tb.clear(a);
    tb.write(w, (a + 1) % Tb::Depth, Tb::word(0xb00 + w));
    tb.cycle();
    REQUIRE(tb.out(0) == Tb::init());
    tb.write(Tb::W - 1 - w, a, Tb::word(0xc00 + w));
    tb.cycle();
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) REQUIRE(tb.during(r) == Tb::word(0xc00 + w));
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: a clear leaves the other addresses untouched", "[state_ram][smoke]",
                   STATE_RAM_MODELS) {
  using Tb = StateRamTb<TestType>;
  Tb tb;
  // Every address written (the last ones by writer W-1), then a clear of
  // each of 0, a middle address and Depth-1; all others keep their words.
  tb.fill(0, Tb::Depth, 0x55);
  std::vector<uint32_t> cleared;
  for (uint32_t c : {0u, Tb::Depth / 2, Tb::Depth - 1}) {
    CAPTURE(c);
    tb.clear(c);
    tb.cycle();
    cleared.push_back(c);
    for (uint32_t base = 0; base < Tb::Depth; base += Tb::R) {
      for (unsigned r = 0; r < Tb::R; ++r) tb.read(r, (base + r) % Tb::Depth);
      tb.cycle();
      for (unsigned r = 0; r < Tb::R; ++r) {
        const uint32_t a = (base + r) % Tb::Depth;
        const bool was_cleared = std::find(cleared.begin(), cleared.end(), a) != cleared.end();
        const auto exp = (Tb::Clear && was_cleared) ? Tb::init() : Tb::word(a ^ 0x55);
        if (tb.out(r) != exp) FAIL("address " << a << " reads " << Tb::hex(tb.out(r)));
      }
    }
  }
  REQUIRE(tb.checked() >= Tb::Depth);
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("state_ram: every read port reads its own address", "[state_ram][smoke]", STATE_RAM_MODELS) {
  using Tb = StateRamTb<TestType>;
  Tb tb;
  tb.fill(0, Tb::Depth, 0x1234);
  // Each cycle port r reads base + 7 r: all ports different, then rotated.
  for (uint32_t base = 0; base < Tb::Depth; base += 5) {
    for (unsigned r = 0; r < Tb::R; ++r) tb.read(r, (base + 7 * r) % Tb::Depth);
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      const uint32_t a = (base + 7 * r) % Tb::Depth;
      if (tb.out(r) != Tb::word(a ^ 0x1234)) FAIL("port " << r << " address " << a);
    }
  }
  // Each port on its own address while a write hits exactly one of them:
  // only that port changes.
  for (unsigned hit = 0; hit < Tb::R; ++hit) {
    CAPTURE(hit);
    for (unsigned r = 0; r < Tb::R; ++r) tb.read(r, 40 + r);
    tb.write(Tb::W - 1, 40 + hit, Tb::word(0xd00 + hit));
    tb.cycle();
    for (unsigned r = 0; r < Tb::R; ++r) {
      REQUIRE(tb.out(r) == (r == hit ? Tb::word(0xd00 + hit) : Tb::word((40 + r) ^ 0x1234)));
    }
    tb.write(0, 40 + hit, Tb::word((40 + hit) ^ 0x1234));  // restore
    tb.cycle();
  }
  // All ports on one address.
  tb.read_all(Tb::Depth - 1);
  tb.cycle();
  for (unsigned r = 0; r < Tb::R; ++r) REQUIRE(tb.out(r) == Tb::word((Tb::Depth - 1) ^ 0x1234));
  REQUIRE_CLEAN(tb);
}

// ---------------------------------------------------------------------------
TEMPLATE_TEST_CASE("state_ram: random traffic on small address windows matches the reference",
                   "[state_ram][stress]", STATE_RAM_MODELS) {
  // Four seeds per config (derived from the test seed), 50 000 cycles each:
  // 200 000 cycles per config.
  TONIC_SEED(0x5374524d01);
  using Tb = StateRamTb<TestType>;
  for (uint64_t k = 0; k < 4; ++k) {
    const uint64_t seed = tonic_seed_ + k * 0x9e3779b97f4a7c15ull;
    CAPTURE(k, seed);
    Tb tb;
    Rng rng(seed);
    run_random(tb, rng, 50000);
    INFO(tb.first_error());
    REQUIRE(tb.errors() == 0);
    // Most reads are of defined words (the windows are written often).
    REQUIRE(tb.checked() > 50000 * Tb::R * 9 / 10);
  }
}

// The comparison is live: the same DUT against a reference with the other
// read timing (what a DUT without forwarding / with an extra read cycle
// would look like) or another Init must report errors.
TEMPLATE_TEST_CASE("state_ram: the random comparison catches a wrong reference", "[state_ram][selfcheck]",
                   STATE_RAM_MODELS) {
  using Tb = StateRamTb<TestType>;
  {
    Tb tb(Tb::make_ref(!Tb::RegRead, Tb::init()));
    Rng rng(11);
    run_random(tb, rng, 3000);
    REQUIRE(tb.errors() > 0);
  }
  if constexpr (Tb::Clear) {
    auto wrong = Tb::init();
    wrong[0] ^= 1;
    Tb tb(Tb::make_ref(Tb::RegRead, wrong));
    Rng rng(12);
    run_random(tb, rng, 3000);
    REQUIRE(tb.errors() > 0);
  }
}
