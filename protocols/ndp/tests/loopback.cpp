// SPDX-License-Identifier: Apache-2.0
// NDP in the loopback rig (tb/unit/loopback/loopback_rig.hpp): the
// sender RTL (tonic_ndp_16x128) -> a channel model -> the receiver RTL in
// its receive mode -> its control packets back. Part of test_loopback,
// label loopback; the runs go to build/reports/loopback.json.
#include <catch2/catch.hpp>

#include "Vtonic_ndp_16x128.h"
#include "unit/loopback/loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: ndp -> NDP, the channel trims instead of dropping", "[loopback][ndp][stress]") {
  // 375-B segments: rx_16x32's PullGap of 3 cycles is one such MTU at
  // 100 Gb/s, so the pull pacer runs at line rate.
  Proto p{"ndp", RxMode::kNdp};
  p.trim = true;
  Scenario s;
  s.flows = 12;
  s.seg_bytes = 375;
  run_variants<Vtonic_ndp_16x128>(p, s, 0x610, kRdmaFlows, false);
}
