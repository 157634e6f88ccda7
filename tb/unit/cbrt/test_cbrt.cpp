// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_cbrt: the reference first (lib/tonic/cbrt.hpp against the
// definition), then every config of the cell against the reference:
// directed values (0, 1, 7, 8, 26, 27, every cube and its neighbours, the
// largest input), every input of the small widths, every input below 2^20
// and seeded random inputs over the whole range of the 32-bit ones.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cbrt_tb.hpp"
#include "tonic/rng.hpp"

using namespace tonic;

namespace {

/// Directed inputs of an InW-bit radicand: 0, 1, 7, 8, 26, 27, every cube
/// k^3 with k^3 - 1 and k^3 + 1, every power of two with its neighbours,
/// and the largest input.
std::vector<uint64_t> directed_inputs(unsigned in_w) {
  const uint64_t max_x = (uint64_t{1} << in_w) - 1;
  std::vector<uint64_t> v{0, 1, 7, 8, 26, 27, max_x};
  for (uint64_t k = 1; k * k * k <= max_x; ++k) {
    for (uint64_t x : {k * k * k - 1, k * k * k, k * k * k + 1}) v.push_back(x);
  }
  for (unsigned b = 0; b < in_w; ++b) {
    const uint64_t p = uint64_t{1} << b;
    for (uint64_t x : {p - 1, p, p + 1}) v.push_back(x);
  }
  std::vector<uint64_t> in_range;
  for (uint64_t x : v) {
    if (x <= max_x) in_range.push_back(x);
  }
  return in_range;
}

/// A value spread over every magnitude below 2^max_bits: 2^k plus a random
/// part below it, k uniform in [0, max_bits).
uint64_t log_uniform(Rng& rng, unsigned max_bits) {
  const uint64_t base = uint64_t{1} << rng.below(max_bits);
  return base + rng.below(base);
}

struct Tally {
  uint64_t checked = 0, errors = 0;
  uint64_t first_x = 0, first_got = 0, first_want = 0;
  void check(uint64_t x, uint32_t got, uint32_t want) {
    ++checked;
    if (got != want && errors++ == 0) {
      first_x = x;
      first_got = got;
      first_want = want;
    }
  }
};

#define REQUIRE_CLEAN(t)                                                                       \
  do {                                                                                        \
    INFO("first mismatch: x " << (t).first_x << " root " << (t).first_got << ", expected " \
                              << (t).first_want);                                         \
    REQUIRE((t).errors == 0);                                                                 \
  } while (0)

}  // namespace

TEST_CASE("cbrt: the reference is floor(cbrt(x)) for every root of a 64-bit value", "[cbrt][ref]") {
  // Every r with r^3 < 2^64: its cube and the value just below.
  uint64_t errors = 0;
  for (uint64_t r = 1; r <= 2642245; ++r) {
    const uint64_t c = r * r * r;
    if (cbrt_floor(c) != r || cbrt_floor(c - 1) != r - 1) ++errors;
  }
  CHECK(errors == 0);
  CHECK(cbrt_floor(0) == 0);
  CHECK(cbrt_floor(~uint64_t{0}) == 2642245);
  // Random 64-bit values: r^3 <= x < (r + 1)^3 (in 128 bits).
  TONIC_SEED(0xcb27'0001);
  Rng rng(tonic_seed_);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t x = rng.chance(0.5) ? rng.bits64() : log_uniform(rng, 64);
    const unsigned __int128 r = cbrt_floor(x);
    INFO("x " << x << " root " << static_cast<uint64_t>(r));
    REQUIRE(r * r * r <= x);
    REQUIRE((r + 1) * (r + 1) * (r + 1) > x);
  }
}

TEST_CASE("cbrt: keep_sig_bits rounds down to n significant bits, within the documented error",
          "[cbrt][ref]") {
  CHECK(keep_sig_bits(0, 1) == 0);
  CHECK(keep_sig_bits(1625, 11) == 1625);
  CHECK(keep_sig_bits(1625, 8) == 1624);
  CHECK(keep_sig_bits(1625, 1) == 1024);
  CHECK(keep_sig_bits(255, 8) == 255);
  CHECK(keep_sig_bits(256, 8) == 256);
  CHECK(keep_sig_bits(257, 8) == 256);
  // For every root and n: v <= r < v + 2^(msb - n + 1), v keeps n bits.
  uint64_t errors = 0;
  for (uint32_t r = 1; r < 4096; ++r) {
    unsigned msb = 0;
    while ((r >> (msb + 1)) != 0) ++msb;
    for (unsigned n = 1; n <= 12; ++n) {
      const uint32_t v = keep_sig_bits(r, n);
      const uint32_t slack = msb + 1 > n ? (uint32_t{1} << (msb + 1 - n)) : 1;
      const bool exact_when_short = msb + 1 > n || v == r;
      if (!(v <= r && r < v + slack && exact_when_short && keep_sig_bits(v, n) == v)) ++errors;
    }
  }
  CHECK(errors == 0);
}

TEMPLATE_TEST_CASE("cbrt: tonic_cbrt equals the reference on directed values", "[cbrt][smoke]", CbrtW32,
                   CbrtW32Sig8, CbrtW32Sig6, CbrtW24, CbrtW20, CbrtW7, CbrtW1) {
  CombModel<typename TestType::Model> m;
  Tally t;
  for (uint64_t x : directed_inputs(TestType::kInW)) t.check(x, m.root(x), TestType::expect(x));
  CHECK(t.checked >= 2);
  REQUIRE_CLEAN(t);
  if (TestType::kSigBits == TestType::kOutW) {
    // The named corners, exact.
    CHECK(m.root(0) == 0);
    CHECK(m.root(1) == 1);
    if (TestType::kInW >= 5) {
      CHECK(m.root(7) == 1);
      CHECK(m.root(8) == 2);
      CHECK(m.root(26) == 2);
      CHECK(m.root(27) == 3);
    }
    CHECK(m.root(TestType::kMaxX) == cbrt_floor(TestType::kMaxX));
  }
}

TEMPLATE_TEST_CASE("cbrt: tonic_cbrt equals the reference on every input", "[cbrt][stress]", CbrtW20,
                   CbrtW7, CbrtW1) {
  CombModel<typename TestType::Model> m;
  Tally t;
  for (uint64_t x = 0; x <= TestType::kMaxX; ++x) t.check(x, m.root(x), TestType::expect(x));
  CHECK(t.checked == TestType::kMaxX + 1);
  REQUIRE_CLEAN(t);
}

TEMPLATE_TEST_CASE("cbrt: tonic_cbrt equals the reference below 2^20 and on random inputs",
                   "[cbrt][stress]", CbrtW32, CbrtW32Sig8, CbrtW32Sig6, CbrtW24) {
  CombModel<typename TestType::Model> m;
  Tally t;
  for (uint64_t x = 0; x < (uint64_t{1} << 20); ++x) t.check(x, m.root(x), TestType::expect(x));
  TONIC_SEED(0xcb27'0002);
  Rng rng(tonic_seed_);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t x = (rng.chance(0.5) ? rng.bits64() : log_uniform(rng, TestType::kInW)) & TestType::kMaxX;
    t.check(x, m.root(x), TestType::expect(x));
  }
  CHECK(t.checked == (uint64_t{1} << 20) + 200000);
  REQUIRE_CLEAN(t);
}

TEMPLATE_TEST_CASE("cbrt: with fewer significant bits the root is never above and short by less than "
                   "2^(1 - SigBits) of it",
                   "[cbrt][smoke]", CbrtW32Sig8, CbrtW32Sig6) {
  CombModel<typename TestType::Model> m;
  uint64_t errors = 0, short_of_exact = 0;
  for (uint64_t x : directed_inputs(TestType::kInW)) {
    const uint64_t got = m.root(x);
    const uint64_t exact = cbrt_floor(x);
    // got <= exact and (exact - got) * 2^(SigBits - 1) < exact.
    if (got > exact || ((exact - got) << (TestType::kSigBits - 1)) >= std::max<uint64_t>(exact, 1)) ++errors;
    if (exact < (uint64_t{1} << TestType::kSigBits) && got != exact) ++errors;  // short roots are exact
    if (got != exact) ++short_of_exact;
  }
  CHECK(errors == 0);
  CHECK(short_of_exact > 0);  // the rounding is visible on the large roots
}

TEST_CASE("cbrt: the check catches a wrong root (mutation self-test)", "[cbrt][self]") {
  // A reference that rounds to the nearest root instead of down must differ
  // from the exact cell on some directed input.
  CombModel<Vcbrt_w32> m;
  uint64_t differ = 0;
  for (uint64_t x : directed_inputs(32)) {
    const uint64_t r = cbrt_floor(x);
    const uint64_t nearest = (2 * r + 1) * (2 * r + 1) * (2 * r + 1) <= 8 * x ? r + 1 : r;
    if (m.root(x) != nearest) ++differ;
  }
  CHECK(differ > 0);
}
