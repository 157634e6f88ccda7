// SPDX-License-Identifier: Apache-2.0
// RoCEv2 with DCQCN (go-back-N) in the loopback rig (tb/unit/loopback/loopback_rig.hpp): the
// sender RTL (tonic_rocev2_dcqcn_16x128) -> a channel model -> the receiver RTL in
// its receive mode -> its control packets back. Part of test_loopback,
// label loopback; the runs go to build/reports/loopback.json.
#include <catch2/catch.hpp>

#include "Vtonic_rocev2_dcqcn_16x128.h"
#include "unit/loopback/loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: rocev2_dcqcn -> RoCE go-back-N with CNPs from an ECN bottleneck",
          "[loopback][rocev2_dcqcn][stress]") {
  // 8 flows of 1024-B segments (DCQCN's SegBytes) at 100 Gb/s each into a
  // 100 Gb/s bottleneck with RED marking. rx_16x32's CnpGap is 50 cycles,
  // 100 times DCQCN's 50 us; rx_1024x128 has the real 5000 (and NackGap
  // 1000): both are run.
  Proto p{"rocev2_dcqcn", RxMode::kRoce};
  p.rwnd = false;  // go-back-N keeps nothing above the expected index: W does not matter
  p.bottleneck = true;
  Scenario s;
  run_variants<Vtonic_rocev2_dcqcn_16x128>(p, s, 0x620, kRdmaFlows, false, "rx_16x32");
  run_variants<Vtonic_rocev2_dcqcn_16x128, Vrx_1024x128>(p, s, 0x620, kRdmaFlows, false, "rx_1024x128", 1024, 128);
  // No bottleneck (no ECN): 8 flows at 100 Gb/s each share the output
  // (0.98 segments per cycle); go-back-N loss recovery alone.
  p.bottleneck = false;
  run_variants<Vtonic_rocev2_dcqcn_16x128>(p, s, 0x620, kRdmaFlows, false, "no-ecn");
}
