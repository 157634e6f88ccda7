// SPDX-License-Identifier: Apache-2.0
// Serial (wrap-around) comparison of 32-bit segment indices, as the RTL does
// it (docs/design/sender-core.md section 2): a < b iff signed'(a - b) < 0.
//
// Plain C++ (no Verilator headers). Meaningful while the two values are less
// than 2^31 apart; at exactly 2^31 apart both a < b and b < a hold (the same
// answer the RTL gives), so models must keep windows far below that.
#pragma once

#include <cstdint>

namespace tonic {

/// a < b in serial order (bit 31 of a - b set).
constexpr bool seq_lt(uint32_t a, uint32_t b) {
  return ((a - b) & 0x8000'0000u) != 0;
}
/// a <= b in serial order.
constexpr bool seq_le(uint32_t a, uint32_t b) { return a == b || seq_lt(a, b); }
/// a > b in serial order.
constexpr bool seq_gt(uint32_t a, uint32_t b) { return seq_lt(b, a); }
/// a >= b in serial order.
constexpr bool seq_ge(uint32_t a, uint32_t b) { return seq_le(b, a); }
/// Forward distance from `from` to `to` modulo 2^32 (to - from).
constexpr uint32_t seq_dist(uint32_t from, uint32_t to) { return to - from; }
/// The later of two indices in serial order.
constexpr uint32_t seq_max(uint32_t a, uint32_t b) { return seq_lt(a, b) ? b : a; }

static_assert(seq_lt(0xFFFF'FFFFu, 0u), "seq_lt wraps");
static_assert(!seq_lt(0u, 0xFFFF'FFFFu), "seq_lt wraps");
static_assert(seq_le(5u, 5u) && !seq_lt(5u, 5u), "seq_le reflexive");

}  // namespace tonic
