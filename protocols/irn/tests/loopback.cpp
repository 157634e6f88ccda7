// SPDX-License-Identifier: Apache-2.0
// IRN in the loopback rig (tb/unit/loopback/loopback_rig.hpp): the
// sender RTL (tonic_irn_16x128) -> a channel model -> the receiver RTL in
// its receive mode -> its control packets back. Part of test_loopback,
// label loopback; the runs go to build/reports/loopback.json.
#include <catch2/catch.hpp>

#include "Vtonic_irn_16x128.h"
#include "unit/loopback/loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: irn -> IRN with CNPs from an ECN bottleneck", "[loopback][irn][stress]") {
  // As RoCE; IRN's sender keeps its fixed rate under its BDP window, so the
  // bottleneck queue stays long and most packets are marked.
  Proto p{"irn", RxMode::kIrn};
  p.bottleneck = true;
  run_variants<Vtonic_irn_16x128>(p, Scenario{}, 0x630, kRdmaFlows, false, "rx_16x32");
  p.bottleneck = false;
  run_variants<Vtonic_irn_16x128>(p, Scenario{}, 0x630, kRdmaFlows, false, "no-ecn");
}
