// SPDX-License-Identifier: Apache-2.0
// Catch2 checks shared by the CR engine's tests (test_cr, test_cr_gate).
#pragma once

#include <cstdint>
#include <numeric>
#include <vector>

#include <catch2/catch.hpp>

#include "cr_tb.hpp"

namespace tonic {

/// The reference saw no error and the DUT flagged exactly the drops it expected.
template <class Model>
void check_cr_clean(CrTb<Model>& tb) {
  INFO(tb.ref().first_error());
  CHECK(tb.ref().errors() == 0);
  CHECK(tb.mismatched_drops() == 0);
}

/// Flows 0..n-1.
inline std::vector<uint32_t> first_flows(uint32_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

}  // namespace tonic
