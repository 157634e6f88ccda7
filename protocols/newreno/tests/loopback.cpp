// SPDX-License-Identifier: Apache-2.0
// TCP NewReno in the loopback rig (tb/unit/loopback/loopback_rig.hpp): the
// sender RTL (tonic_newreno_1024x128) -> a channel model -> the receiver RTL in
// its receive mode -> its control packets back. Part of test_loopback,
// label loopback; the runs go to build/reports/loopback.json.
#include <catch2/catch.hpp>

#include "Vtonic_newreno_1024x128.h"
#include "unit/loopback/loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: newreno -> TCP cumulative acks (per segment, delayed)", "[loopback][newreno][stress]") {
  run_variants<Vtonic_newreno_1024x128>(Proto{"newreno", RxMode::kTcp}, window_scenario(), 0x5f0, kWindowFlows,
                                        true);
}
