// SPDX-License-Identifier: Apache-2.0
// Reference of rtl/cr/tonic_rate_wait.sv: the wait of a flow short of rate
// credit, computed without a divider (docs/design/credit-schemes.md).
// Plain C++, no Verilator.
#pragma once

#include <array>
#include <cstdint>

namespace tonic::ref::rate {

/// RECIP[m] = ceil(2^24 / m) for m in 1..255 (entry 0 unused).
inline constexpr std::array<uint32_t, 256> kRecip = [] {
  std::array<uint32_t, 256> t{};
  for (uint32_t m = 1; m < 256; ++m) t[m] = ((uint32_t{1} << 24) + m - 1) / m;
  return t;
}();

/// R's short float: e = max(msb(R) - 7, 0), m = R >> e.
struct Short {
  uint32_t m;
  uint32_t e;
};
inline Short short_rate(uint32_t rate) {
  uint32_t e = 0;
  for (uint32_t b = 8; b < 32; ++b) {
    if ((rate >> b) & 1u) e = b - 7;
  }
  return {(rate >> e) & 0xffu, e};
}

/// T = ((((need >> e) + 1) * RECIP[m]) >> 24) + 1, saturated at
/// 2^(time_w - 1) - 1; rate 0 gives the maximum. need is in credit units
/// (bytes * 2^20), rate in RU (bytes per 2^20 cycles); need < 2^need_w.
inline uint64_t wait_cycles(uint64_t need, uint32_t rate, unsigned time_w = 32) {
  const uint64_t tmax = (uint64_t{1} << (time_w - 1)) - 1;
  const Short s = short_rate(rate);
  if (s.m == 0) return tmax;
  const unsigned __int128 p =
      static_cast<unsigned __int128>((need >> s.e) + 1) * kRecip[s.m];
  const unsigned __int128 t = (p >> 24) + 1;
  return t > tmax ? tmax : static_cast<uint64_t>(t);
}

}  // namespace tonic::ref::rate
