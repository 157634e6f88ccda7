// SPDX-License-Identifier: Apache-2.0
// TCP Reno in the loopback rig (tb/unit/loopback/loopback_rig.hpp): the
// sender RTL (tonic_reno_1024x128) -> a channel model -> the receiver RTL in
// its receive mode -> its control packets back. Part of test_loopback,
// label loopback; the runs go to build/reports/loopback.json.
#include <catch2/catch.hpp>

#include "Vtonic_reno_1024x128.h"
#include "tonic/protocol_consts.hpp"
#include "unit/loopback/loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: reno -> TCP cumulative acks (per segment, delayed)", "[loopback][reno][stress]") {
  run_variants<Vtonic_reno_1024x128>(Proto{"reno", RxMode::kTcp}, window_scenario(), 0x5e0, kWindowFlows, true);
}

// Its runs of the receive-window case (loopback_window.cpp): cumulative
// acks without the host's limit, W = 128 only: on W = 32 its RTO, which
// marks only wnd_start, costs one RTO per beyond-window drop, and under
// Karn's rule each doubles the last (no sample from an echoed retransmission).
const RegisterWindowRun kWindowRun{"reno", [](const Scenario& s) {
  // Karn's rule (user_configs.vh RttKarn): W = 128 only (loopback_rig.hpp).
  run_window_nolimit<Vtonic_reno_1024x128>(Proto{"reno", RxMode::kTcp}, s, registry::consts::Reno::kRttKarn == 0);
}};
