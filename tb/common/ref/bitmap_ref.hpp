// SPDX-License-Identifier: Apache-2.0
// Reference models of the bitmap cells (rtl/common/tonic_ffs_after_head.sv,
// tonic_ones_from_head.sv, tonic_popcount_range.sv).
//
// Plain C++ (no Verilator headers). A ring is a BitRing<W>: W bits, bit i
// of the ring is bit (i % 64) of word i / 64. Every function walks the ring
// bit by bit from its head, the most literal reading of the cell contracts:
//   ffs_after_head(a, h):   first set index among h, h+1, ..., W-1, 0, ..., h-1
//   ones_from_head(a, h):   consecutive set bits from h going round (0..W)
//   popcount_range(a, s, n): set bits among (s + k) mod W for k < n, n <= W
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace tonic {

/// A ring of W bits (W a power of two, 4..1024).
template <std::size_t W>
struct BitRing {
  static_assert(W >= 4 && W <= 1024 && (W & (W - 1)) == 0, "W: power of two in 4..1024");
  static constexpr std::size_t kBits = W;
  static constexpr std::size_t kWords = (W + 63) / 64;
  std::array<uint64_t, kWords> word{};

  bool get(std::size_t i) const { return (word[i / 64] >> (i % 64)) & 1U; }
  void set(std::size_t i, bool v = true) {
    const uint64_t m = uint64_t{1} << (i % 64);
    word[i / 64] = v ? (word[i / 64] | m) : (word[i / 64] & ~m);
  }
  void fill(bool v) {
    for (std::size_t i = 0; i < W; ++i) set(i, v);
  }
  /// The 32-bit word k (bits 32k..32k+31), as Verilator lays out wide ports.
  uint32_t word32(std::size_t k) const {
    return static_cast<uint32_t>(word[k / 2] >> (32 * (k % 2)));
  }
};

/// Result of a find-first-set.
struct FfsResult {
  bool found = false;
  uint32_t index = 0;  // 0 when !found
  bool operator==(const FfsResult& o) const { return found == o.found && index == o.index; }
};

/// First set bit at or after `head` going round the ring.
template <std::size_t W>
FfsResult ffs_after_head(const BitRing<W>& a, uint32_t head) {
  if (head >= W) throw std::out_of_range("ffs_after_head: head >= W");
  for (std::size_t k = 0; k < W; ++k) {
    const std::size_t i = (head + k) % W;
    if (a.get(i)) return {true, static_cast<uint32_t>(i)};
  }
  return {};
}

/// Number of consecutive set bits starting at `head` going round (0..W).
template <std::size_t W>
uint32_t ones_from_head(const BitRing<W>& a, uint32_t head) {
  if (head >= W) throw std::out_of_range("ones_from_head: head >= W");
  uint32_t n = 0;
  while (n < W && a.get((head + n) % W)) ++n;
  return n;
}

/// Set bits among the `len` bits starting at `start` going round (len <= W).
template <std::size_t W>
uint32_t popcount_range(const BitRing<W>& a, uint32_t start, uint32_t len) {
  if (start >= W || len > W) throw std::out_of_range("popcount_range: start >= W or len > W");
  uint32_t n = 0;
  for (uint32_t k = 0; k < len; ++k) n += a.get((start + k) % W) ? 1 : 0;
  return n;
}

}  // namespace tonic
