// SPDX-License-Identifier: Apache-2.0
// The tonic_top builds of rtl/manifest/tonic.json and their parameters.
// Their per-flow memories are the behavioural form (manifest "model_params":
// SimRam 1); tonic_newreno_1024x128_structural, the structural form, is
// declared where it is used (test_tonic.cpp, bench_tonic.cpp).
#pragma once

#include <cstdint>

#include "Vtonic_newreno_1024x128.h"
#include "Vtonic_newreno_2048x256.h"
#include "Vtonic_newreno_4096x256.h"
#include "Vtonic_reno_1024x128.h"
#include "Vtonic_sack_1024x128.h"
#include "common/ref/proto_newreno.hpp"
#include "common/ref/proto_reno.hpp"
#include "common/ref/proto_sack.hpp"
#include "tonic_tb.hpp"

namespace tonic {

#define TONIC_PARAMS(M, F, W, NAME, TWIN)                                   \
  template <> struct TonicParams<M> {                                       \
    static constexpr uint32_t kFlows = F, kWindow = W, kRing = 16;          \
    static constexpr const char* kProto = NAME;                             \
    using Twin = ref::TWIN;                                                 \
  };
TONIC_PARAMS(Vtonic_reno_1024x128, 1024, 128, "reno", RenoTwin)
TONIC_PARAMS(Vtonic_newreno_1024x128, 1024, 128, "newreno", NewRenoTwin)
TONIC_PARAMS(Vtonic_sack_1024x128, 1024, 128, "sack", SackTwin)
TONIC_PARAMS(Vtonic_newreno_2048x256, 2048, 256, "newreno", NewRenoTwin)
TONIC_PARAMS(Vtonic_newreno_4096x256, 4096, 256, "newreno", NewRenoTwin)
#undef TONIC_PARAMS

/// Counters of tonic_top's stats_o (common/top_drive.hpp).
using Stat = DdStat;

template <class Model>
uint32_t stat(Model& d, Stat s) {
  return d.stats_o[static_cast<int>(s)];
}

}  // namespace tonic
