// SPDX-License-Identifier: Apache-2.0
// Tests for the bitmap cells: tonic_ffs_after_head, tonic_ones_from_head and
// tonic_popcount_range (combinational and pipelined), at W = 64, 128, 256.
// Directed sweeps of the edge cases, then >= 100,000 seeded random
// operations per configuration, compared with tb/common/ref/bitmap_ref.hpp.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "Vffs_w128.h"
#include "Vffs_w256.h"
#include "Vffs_w64.h"
#include "Vones_w128.h"
#include "Vones_w256.h"
#include "Vones_w64.h"
#include "Vpopcount_pipe_w256.h"
#include "Vpopcount_w128.h"
#include "Vpopcount_w256.h"
#include "Vpopcount_w64.h"
#include "bitmap_tb.hpp"

using namespace tonic;

using Ffs64 = Cfg<Vffs_w64, 64>;
using Ffs128 = Cfg<Vffs_w128, 128>;
using Ffs256 = Cfg<Vffs_w256, 256>;
using Ones64 = Cfg<Vones_w64, 64>;
using Ones128 = Cfg<Vones_w128, 128>;
using Ones256 = Cfg<Vones_w256, 256>;
using Popcount64 = Cfg<Vpopcount_w64, 64>;
using Popcount128 = Cfg<Vpopcount_w128, 128>;
using Popcount256 = Cfg<Vpopcount_w256, 256>;
#define FFS_CONFIGS Ffs64, Ffs128, Ffs256
#define ONES_CONFIGS Ones64, Ones128, Ones256
#define POPCOUNT_CONFIGS Popcount64, Popcount128, Popcount256

namespace {
constexpr int kRandomOps = 100000;
}  // namespace

// ---------------------------------------------------------------------------
// tonic_ffs_after_head

TEMPLATE_TEST_CASE("bitmap: ffs of an empty ring is not found, from every head",
                   "[bitmap][smoke]", FFS_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  Comb<typename TestType::Model> c;
  BitRing<W> a;
  for (uint32_t h = 0; h < W; ++h) {
    CAPTURE(h);
    REQUIRE(dut_ffs(c, a, h) == FfsResult{false, 0});
  }
}

TEMPLATE_TEST_CASE("bitmap: ffs finds a single set bit at every position from every head",
                   "[bitmap][smoke]", FFS_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  Comb<typename TestType::Model> c;
  for (uint32_t p = 0; p < W; ++p) {
    BitRing<W> a;
    a.set(p);
    for (uint32_t h = 0; h < W; ++h) {
      const FfsResult got = dut_ffs(c, a, h);
      if (!(got == FfsResult{true, p})) {
        CAPTURE(p, h, got.found, got.index);
        FAIL("single bit not found at its index");
      }
    }
  }
}

TEMPLATE_TEST_CASE("bitmap: ffs wraps to the bit just before the head",
                   "[bitmap][smoke]", FFS_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  Comb<typename TestType::Model> c;
  for (uint32_t h = 0; h < W; ++h) {
    CAPTURE(h);
    const uint32_t before = static_cast<uint32_t>((h + W - 1) % W);
    // Only the bit before the head: the search goes all the way round.
    BitRing<W> a;
    a.set(before);
    REQUIRE(dut_ffs(c, a, h) == FfsResult{true, before});
    // Every bit below the head set (none at/after it): the lowest wins.
    BitRing<W> low;
    for (uint32_t i = 0; i < h; ++i) low.set(i);
    REQUIRE(dut_ffs(c, low, h) == ffs_after_head(low, h));
    // Everything but the head: the bit after the head wins over index 0.
    BitRing<W> holes;
    holes.fill(true);
    holes.set(h, false);
    REQUIRE(dut_ffs(c, holes, h) == FfsResult{true, static_cast<uint32_t>((h + 1) % W)});
  }
}

TEMPLATE_TEST_CASE("bitmap: ffs of a full ring is the head, including head = W-1",
                   "[bitmap][smoke]", FFS_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  Comb<typename TestType::Model> c;
  BitRing<W> a;
  a.fill(true);
  for (uint32_t h = 0; h < W; ++h) {
    CAPTURE(h);
    REQUIRE(dut_ffs(c, a, h) == FfsResult{true, h});
  }
  // head = W-1 with only bit 0 and bit W-2 set: wraps to 0, not W-2.
  BitRing<W> b;
  b.set(0);
  b.set(W - 2);
  REQUIRE(dut_ffs(c, b, W - 1) == FfsResult{true, 0});
}

TEMPLATE_TEST_CASE("bitmap: ffs matches the reference on random rings and heads",
                   "[bitmap][stress]", FFS_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  TONIC_SEED(0xb17f0001);
  Rng rng(tonic_seed_);
  Comb<typename TestType::Model> c;
  int checked = 0, not_found = 0, wrapped = 0, at_head = 0;
  for (int n = 0; n < kRandomOps; ++n) {
    const uint32_t h = static_cast<uint32_t>(rng.below(W));
    const BitRing<W> a = random_ring<W>(rng, h);
    const FfsResult got = dut_ffs(c, a, h);
    const FfsResult want = ffs_after_head(a, h);
    if (!(got == want)) {
      CAPTURE(n, h, got.found, got.index, want.found, want.index);
      FAIL("ffs differs from the reference");
    }
    ++checked;
    not_found += !want.found;
    wrapped += want.found && want.index < h;
    at_head += want.found && want.index == h;
  }
  REQUIRE(checked == kRandomOps);
  // The mix of ring shapes reaches every kind of answer often.
  CHECK(not_found > kRandomOps / 50);
  CHECK(wrapped > kRandomOps / 50);
  CHECK(at_head > kRandomOps / 50);
}

// ---------------------------------------------------------------------------
// tonic_ones_from_head

TEMPLATE_TEST_CASE("bitmap: ones from head is 0 on an empty ring and W on a full one",
                   "[bitmap][smoke]", ONES_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  Comb<typename TestType::Model> c;
  BitRing<W> empty, full;
  full.fill(true);
  for (uint32_t h = 0; h < W; ++h) {
    CAPTURE(h);
    REQUIRE(dut_ones(c, empty, h) == 0);
    REQUIRE(dut_ones(c, full, h) == W);
  }
}

TEMPLATE_TEST_CASE("bitmap: ones from head measures every run length from every head",
                   "[bitmap][smoke]", ONES_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  TONIC_SEED(0xb17f0002);
  Rng rng(tonic_seed_);
  Comb<typename TestType::Model> c;
  for (uint32_t h = 0; h < W; ++h) {
    for (uint32_t run = 0; run <= W; ++run) {
      // A run of `run` ones from the head (wrapping), a zero after it and
      // random bits beyond (they must not count).
      BitRing<W> a = random_ring<W>(rng, h);
      for (uint32_t k = 0; k < run; ++k) a.set((h + k) % W, true);
      if (run < W) a.set((h + run) % W, false);
      const uint32_t got = dut_ones(c, a, h);
      if (got != run) {
        CAPTURE(h, run, got);
        FAIL("run length differs");
      }
    }
  }
}

TEMPLATE_TEST_CASE("bitmap: ones from head matches the reference on random rings and heads",
                   "[bitmap][stress]", ONES_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  TONIC_SEED(0xb17f0003);
  Rng rng(tonic_seed_);
  Comb<typename TestType::Model> c;
  int checked = 0, zero = 0, full = 0, wraps = 0;
  for (int n = 0; n < kRandomOps; ++n) {
    const uint32_t h = static_cast<uint32_t>(rng.below(W));
    const BitRing<W> a = random_ring<W>(rng, h);
    const uint32_t got = dut_ones(c, a, h);
    const uint32_t want = ones_from_head(a, h);
    if (got != want) {
      CAPTURE(n, h, got, want);
      FAIL("ones from head differs from the reference");
    }
    ++checked;
    zero += want == 0;
    full += want == W;
    wraps += want > W - h && want < W;
  }
  REQUIRE(checked == kRandomOps);
  CHECK(zero > kRandomOps / 50);
  CHECK(full > kRandomOps / 50);
  CHECK(wraps > kRandomOps / 50);  // runs that pass index W-1
}

// ---------------------------------------------------------------------------
// tonic_popcount_range

TEMPLATE_TEST_CASE("bitmap: popcount of length 0 is 0 and of length W is the whole ring",
                   "[bitmap][smoke]", POPCOUNT_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  TONIC_SEED(0xb17f0004);
  Rng rng(tonic_seed_);
  Comb<typename TestType::Model> c;
  for (uint32_t s = 0; s < W; ++s) {
    CAPTURE(s);
    const BitRing<W> a = random_ring<W>(rng, s);
    BitRing<W> full;
    full.fill(true);
    REQUIRE(dut_popcount(c, a, s, 0) == 0);
    REQUIRE(dut_popcount(c, full, s, 0) == 0);
    REQUIRE(dut_popcount(c, a, s, W) == popcount_range(a, 0, W));
    REQUIRE(dut_popcount(c, full, s, W) == W);
  }
}

TEMPLATE_TEST_CASE("bitmap: popcount counts a single bit iff the range covers it",
                   "[bitmap][smoke]", POPCOUNT_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  Comb<typename TestType::Model> c;
  // Every start and length with the bit at a few positions (both ends of
  // the ring and the middle), and on a full ring (count == length).
  BitRing<W> full;
  full.fill(true);
  for (uint32_t p : {uint32_t{0}, uint32_t{1}, static_cast<uint32_t>(W / 2),
                     static_cast<uint32_t>(W - 2), static_cast<uint32_t>(W - 1)}) {
    BitRing<W> a;
    a.set(p);
    for (uint32_t s = 0; s < W; ++s) {
      for (uint32_t len = 0; len <= W; ++len) {
        const uint32_t got = dut_popcount(c, a, s, len);
        const uint32_t want = static_cast<uint32_t>((p + W - s) % W) < len ? 1 : 0;
        const uint32_t got_full = dut_popcount(c, full, s, len);
        if (got != want || got_full != len) {
          CAPTURE(p, s, len, got, want, got_full);
          FAIL("single-bit range count differs");
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("bitmap: popcount matches the reference on random rings and ranges",
                   "[bitmap][stress]", POPCOUNT_CONFIGS) {
  constexpr std::size_t W = TestType::W;
  TONIC_SEED(0xb17f0005);
  Rng rng(tonic_seed_);
  Comb<typename TestType::Model> c;
  int checked = 0, wraps = 0;
  for (int n = 0; n < kRandomOps; ++n) {
    const uint32_t s = static_cast<uint32_t>(rng.below(W));
    // Lengths: uniform, or the edges 0, 1, W-1, W.
    const uint32_t len = static_cast<uint32_t>(
        rng.chance(0.8) ? rng.range(0, W) : std::array<uint64_t, 4>{0, 1, W - 1, W}[rng.below(4)]);
    const BitRing<W> a = random_ring<W>(rng, s);
    const uint32_t got = dut_popcount(c, a, s, len);
    const uint32_t want = popcount_range(a, s, len);
    if (got != want) {
      CAPTURE(n, s, len, got, want);
      FAIL("popcount differs from the reference");
    }
    ++checked;
    wraps += s + len > W;
  }
  REQUIRE(checked == kRandomOps);
  CHECK(wraps > kRandomOps / 10);  // ranges that pass index W-1
}

TEST_CASE("bitmap: pipelined popcount gives each count one cycle later",
          "[bitmap][stress]") {
  constexpr std::size_t W = 256;
  TONIC_SEED(0xb17f0006);
  Rng rng(tonic_seed_);
  Comb<Vpopcount_pipe_w256> c;
  uint32_t prev = 0;  // the count of the previous cycle's inputs
  int checked = 0;
  for (int n = 0; n < kRandomOps; ++n) {
    const uint32_t s = static_cast<uint32_t>(rng.below(W));
    const uint32_t len = static_cast<uint32_t>(rng.range(0, W));
    const BitRing<W> a = random_ring<W>(rng, s);
    const uint32_t want = popcount_range(a, s, len);
    drive(c->bits_i, a);
    c->start_i = s;
    c->len_i = len;
    c.eval();  // before the edge: still the previous inputs' count
    const uint32_t before = static_cast<uint32_t>(c->count_o);
    c.tick();  // the edge registers this cycle's leaf counts
    const uint32_t after = static_cast<uint32_t>(c->count_o);
    if ((n > 0 && before != prev) || after != want) {
      CAPTURE(n, s, len, before, prev, after, want);
      FAIL("pipelined popcount differs from the reference");
    }
    prev = want;
    ++checked;
  }
  REQUIRE(checked == kRandomOps);
}
