// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_mpmem (both banking schemes, several port counts/sizes).
// Directed tests state the expected word explicitly; every cycle of every
// test is also checked against MpmemRef by MpmemTb.
#include <catch2/catch.hpp>

#include "mpmem_tb.hpp"

using namespace tonic;

#define MPMEM_MODELS                                                                 \
  Vmpmem_2w2r_1024x64, Vmpmem_4w4r_1024x64, Vmpmem_4w4r_4096x72, Vmpmem_3w3r_1536x40, \
      Vmpmem_2w2r_1024x64_lvt, Vmpmem_4w4r_1024x64_lvt, Vmpmem_4w4r_4096x72_lvt,      \
      Vmpmem_3w3r_1536x40_lvt

// The reference agrees with the DUT on every cycle so far.
#define REQUIRE_CLEAN(tb)          \
  do {                             \
    INFO((tb).first_error());      \
    REQUIRE((tb).errors() == 0);   \
  } while (0)

TEMPLATE_TEST_CASE("mpmem: every write port reaches every read port", "[mpmem][smoke]",
                   MPMEM_MODELS) {
  using Tb = MpmemTb<TestType>;
  Tb tb;
  for (unsigned p = 0; p < Tb::P; ++p) {
    for (unsigned r = 0; r < Tb::Q; ++r) {
      const uint32_t a = (37 * (p * Tb::Q + r) + 5) % Tb::Depth;
      const auto w = Tb::word(0x1000 + 16 * p + r);
      tb.write(p, a, w);
      tb.cycle();
      tb.read(r, a);
      tb.cycle();
      CAPTURE(p, r, a);
      REQUIRE(tb.valid(r));
      REQUIRE(tb.data(r) == w);
      for (unsigned o = 0; o < Tb::Q; ++o) {
        if (o != r) REQUIRE_FALSE(tb.valid(o));
      }
    }
  }
  // All read ports at once, each on a word from a different write port.
  for (unsigned p = 0; p < Tb::P; ++p) tb.write(p, 100 + p, Tb::word(0x2000 + p));
  tb.cycle();
  for (unsigned shift = 0; shift < Tb::P; ++shift) {
    for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, 100 + (r + shift) % Tb::P);
    tb.cycle();
    for (unsigned r = 0; r < Tb::Q; ++r) {
      CAPTURE(shift, r);
      REQUIRE(tb.valid(r));
      REQUIRE(tb.data(r) == Tb::word(0x2000 + (r + shift) % Tb::P));
    }
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("mpmem: same-address writes in one cycle, the highest port wins",
                   "[mpmem][smoke]", MPMEM_MODELS) {
  using Tb = MpmemTb<TestType>;
  Tb tb;
  const uint32_t a = Tb::Depth / 2 + 3;
  // Every non-empty subset of write ports writes `a` in one cycle.
  for (unsigned set = 1; set < (1u << Tb::P); ++set) {
    unsigned winner = 0;
    for (unsigned p = 0; p < Tb::P; ++p) {
      if (set >> p & 1) {
        tb.write(p, a, Tb::word(0x100 * set + p));
        winner = p;
      }
    }
    tb.cycle();
    for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, a);
    tb.cycle();
    for (unsigned r = 0; r < Tb::Q; ++r) {
      CAPTURE(set, r);
      REQUIRE(tb.data(r) == Tb::word(0x100 * set + winner));
    }
  }
  // Over cycles the LAST write wins, whatever its port: a high port, then a
  // low port; then a low port together with a high port on another address.
  tb.write(Tb::P - 1, a, Tb::word(0xaaa));
  tb.cycle();
  tb.write(0, a, Tb::word(0xbbb));
  tb.cycle();
  tb.write(0, a + 1, Tb::word(0xccc));
  tb.write(Tb::P - 1, a + 2, Tb::word(0xddd));
  tb.cycle();
  tb.read(0, a);
  tb.read(Tb::Q - 1, a + 1);
  tb.cycle();
  REQUIRE(tb.data(0) == Tb::word(0xbbb));
  REQUIRE(tb.data(Tb::Q - 1) == Tb::word(0xccc));
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("mpmem: a read in the cycle after a write returns the new word",
                   "[mpmem][smoke]", MPMEM_MODELS) {
  using Tb = MpmemTb<TestType>;
  Tb tb;
  tb.fill(0x55);
  for (unsigned p = 0; p < Tb::P; ++p) {
    for (unsigned r = 0; r < Tb::Q; ++r) {
      const uint32_t a = (101 * (p * Tb::Q + r) + 1) % Tb::Depth;
      CAPTURE(p, r, a);
      // Cycle 1: write v1. Cycle 2: read, and write v2 to the same address
      // (the read sees v1). Cycle 3: read sees v2.
      tb.write(p, a, Tb::word(0x3000 + p * 16 + r));
      tb.cycle();
      tb.read(r, a);
      tb.write((p + 1) % Tb::P, a, Tb::word(0x4000 + p * 16 + r));
      tb.cycle();
      REQUIRE(tb.valid(r));
      REQUIRE(tb.data(r) == Tb::word(0x3000 + p * 16 + r));
      tb.read(r, a);
      tb.cycle();
      REQUIRE(tb.data(r) == Tb::word(0x4000 + p * 16 + r));
    }
  }
  // Back-to-back: a new word every cycle, read every following cycle by all
  // read ports.
  const uint32_t a = Tb::Depth - 1;
  for (unsigned i = 0; i < 16; ++i) {
    tb.write(i % Tb::P, a, Tb::word(0x5000 + i));
    for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, a);
    tb.cycle();
    for (unsigned r = 0; r < Tb::Q && i > 0; ++r) REQUIRE(tb.data(r) == Tb::word(0x5000 + i - 1));
  }
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("mpmem: a read in the same cycle as a write to that address returns the old word",
                   "[mpmem][smoke]", MPMEM_MODELS) {
  using Tb = MpmemTb<TestType>;
  Tb tb;
  tb.fill(0x77);
  for (unsigned p = 0; p < Tb::P; ++p) {
    for (unsigned r = 0; r < Tb::Q; ++r) {
      const uint32_t a = (211 * (p * Tb::Q + r) + 9) % Tb::Depth;
      CAPTURE(p, r, a);
      const auto old = Tb::word(a ^ 0x77);
      tb.write(p, a, Tb::word(0x6000 + p * 16 + r));
      tb.read(r, a);
      tb.cycle();
      REQUIRE(tb.data(r) == old);
      tb.read(r, a);
      tb.cycle();
      REQUIRE(tb.data(r) == Tb::word(0x6000 + p * 16 + r));
    }
  }
  // Every write port on one address and every read port on it too.
  const uint32_t a = 0;
  const auto before = Tb::word(0x7000);
  tb.write(0, a, before);
  tb.cycle();
  for (unsigned p = 0; p < Tb::P; ++p) tb.write(p, a, Tb::word(0x7100 + p));
  for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, a);
  tb.cycle();
  for (unsigned r = 0; r < Tb::Q; ++r) REQUIRE(tb.data(r) == before);
  for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, a);
  tb.cycle();
  for (unsigned r = 0; r < Tb::Q; ++r) REQUIRE(tb.data(r) == Tb::word(0x7100 + Tb::P - 1));
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("mpmem: every address including Depth-1 holds its own word", "[mpmem][smoke]",
                   MPMEM_MODELS) {
  using Tb = MpmemTb<TestType>;
  Tb tb;
  tb.fill(0x1234);
  // Read everything back; read port r takes addresses r, r+Q, ...
  for (uint32_t base = 0; base < Tb::Depth; base += Tb::Q) {
    for (unsigned r = 0; r < Tb::Q && base + r < Tb::Depth; ++r) tb.read(r, base + r);
    tb.cycle();
    for (unsigned r = 0; r < Tb::Q && base + r < Tb::Depth; ++r) {
      if (tb.data(r) != Tb::word((base + r) ^ 0x1234)) {
        FAIL("address " << base + r << " read back " << Tb::hex(tb.data(r)));
      }
    }
  }
  // The last address through every write and read port pair, and address 0.
  for (uint32_t a : {Tb::Depth - 1, 0u}) {
    for (unsigned p = 0; p < Tb::P; ++p) {
      tb.write(p, a, Tb::word(0x8000 + a + p));
      tb.cycle();
      for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, a);
      tb.cycle();
      for (unsigned r = 0; r < Tb::Q; ++r) REQUIRE(tb.data(r) == Tb::word(0x8000 + a + p));
    }
  }
  REQUIRE(tb.checked() >= Tb::Depth);
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("mpmem: rd_valid_o is rd_en_i one cycle later and clears on reset",
                   "[mpmem][smoke]", MPMEM_MODELS) {
  using Tb = MpmemTb<TestType>;
  Tb tb;
  Rng rng(7);
  for (unsigned r = 0; r < Tb::Q; ++r) REQUIRE_FALSE(tb.valid(r));
  for (int i = 0; i < 200; ++i) {
    unsigned mask = static_cast<unsigned>(rng.below(1u << Tb::Q));
    for (unsigned r = 0; r < Tb::Q; ++r) {
      if (mask >> r & 1) tb.read(r, static_cast<uint32_t>(rng.below(Tb::Depth)));
    }
    tb.cycle();
    for (unsigned r = 0; r < Tb::Q; ++r) REQUIRE(tb.valid(r) == bool(mask >> r & 1));
  }
  for (unsigned r = 0; r < Tb::Q; ++r) tb.read(r, r);
  tb.cycle();
  tb.reset();
  for (unsigned r = 0; r < Tb::Q; ++r) REQUIRE_FALSE(tb.valid(r));
  REQUIRE_CLEAN(tb);
}

TEMPLATE_TEST_CASE("mpmem: random traffic on a small hot address set matches the reference",
                   "[mpmem][stress]", MPMEM_MODELS) {
  TONIC_SEED(0x6d706d01);
  using Tb = MpmemTb<TestType>;
  Tb tb;
  Rng rng(tonic_seed_);
  tb.fill(rng.bits64());
  MpmemTraffic t;
  t.vary = true;  // knobs per phase; hot_p drawn from {0..1}, mostly hot
  run_random(tb, rng, 120000, t);
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  REQUIRE(tb.checked() > 100000);
}

TEMPLATE_TEST_CASE("mpmem: uniform random traffic matches the reference", "[mpmem][stress]",
                   MPMEM_MODELS) {
  TONIC_SEED(0x6d706d02);
  using Tb = MpmemTb<TestType>;
  Tb tb;
  Rng rng(tonic_seed_);
  tb.fill(rng.bits64());
  MpmemTraffic t;
  t.vary = false;
  t.hot_p = 0.0;
  t.wr_p = 0.8;
  t.rd_p = 0.8;
  run_random(tb, rng, 100000, t);
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  REQUIRE(tb.checked() > 100000);
}
