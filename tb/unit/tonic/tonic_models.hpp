// SPDX-License-Identifier: Apache-2.0
// The tonic_top builds test_tonic and bench_tonic run: the builds of the
// detailed run with their parameters and twins (tonic/twin_models.hpp,
// generated from the protocol folders), whose per-flow memories are the
// behavioural form (SimRam 1); a structural form (SimRam 0, what synthesis
// sees) is declared where it is used (its protocol's tests/tonic.cpp,
// tonic/structural_models.hpp for bench_tonic).
#pragma once

#include <cstdint>

#include "tonic/twin_models.hpp"

namespace tonic {

/// Counters of tonic_top's stats_o (tonic/top_drive.hpp).
using Stat = DdStat;

template <class Model>
uint32_t stat(Model& d, Stat s) {
  return dd_stat(d, s);
}

}  // namespace tonic
