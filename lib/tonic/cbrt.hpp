// SPDX-License-Identifier: Apache-2.0
// Integer cube root: the plain-C++ reference of rtl/common/tonic_cbrt.sv,
// shared by its tests and by any model that needs the same integers (a
// protocol twin computing RFC 9438's K, docs/cells/cbrt.md).
//
//   cbrt_floor(x)            floor(cbrt(x)), exact for every 64-bit x
//   keep_sig_bits(r, n)      r with every bit below its n most significant
//                            ones cleared (r itself when it has <= n)
//   cbrt_cell(x, sig_bits)   what tonic_cbrt returns with SigBits = sig_bits:
//                            keep_sig_bits(cbrt_floor(x), sig_bits)
//
// Plain C++ (no Verilator headers), integer only (no floating point), so
// the result does not depend on the platform's cbrt().
#pragma once

#include <cstdint>

namespace tonic {

/// floor(cbrt(x)): the largest r with r^3 <= x. Decided one bit at a time
/// from the top (the root of a 64-bit value has at most 22 bits); the test
/// y^3 <= x is written y^2 <= x / y, which cannot overflow (y^2 < 2^44) and
/// is equivalent for integers.
constexpr uint32_t cbrt_floor(uint64_t x) {
  uint64_t r = 0;
  for (int b = 21; b >= 0; --b) {
    const uint64_t y = r | (uint64_t{1} << b);
    if (y * y <= x / y) r = y;
  }
  return static_cast<uint32_t>(r);
}

/// r rounded down to `sig_bits` significant bits (sig_bits >= 1).
constexpr uint32_t keep_sig_bits(uint32_t r, unsigned sig_bits) {
  unsigned width = 0;
  while (width < 32 && (r >> width) != 0) ++width;
  if (width <= sig_bits) return r;
  const unsigned drop = width - sig_bits;
  return (r >> drop) << drop;
}

/// The result of tonic_cbrt with SigBits = sig_bits: floor(cbrt(x)) rounded
/// down to sig_bits significant bits (exact when sig_bits >= the root's width).
constexpr uint32_t cbrt_cell(uint64_t x, unsigned sig_bits) {
  return keep_sig_bits(cbrt_floor(x), sig_bits);
}

static_assert(cbrt_floor(0) == 0 && cbrt_floor(1) == 1 && cbrt_floor(7) == 1, "small roots");
static_assert(cbrt_floor(8) == 2 && cbrt_floor(26) == 2 && cbrt_floor(27) == 3, "cubes");
static_assert(cbrt_floor(0xFFFF'FFFFull) == 1625, "largest 32-bit root");
static_assert(cbrt_floor(~uint64_t{0}) == 2642245, "largest 64-bit root");
static_assert(keep_sig_bits(1625, 8) == 1624 && keep_sig_bits(255, 8) == 255, "rounding down");

}  // namespace tonic
