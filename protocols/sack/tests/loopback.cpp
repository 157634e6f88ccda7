// SPDX-License-Identifier: Apache-2.0
// TCP SACK in the loopback rig (tb/unit/loopback/loopback_rig.hpp): the
// sender RTL (tonic_sack_1024x128) -> a channel model -> the receiver RTL in
// its receive mode -> its control packets back. Part of test_loopback,
// label loopback; the runs go to build/reports/loopback.json.
#include <catch2/catch.hpp>

#include "Vtonic_sack_1024x128.h"
#include "unit/loopback/loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: sack -> TCP + SACK (per segment, delayed)", "[loopback][sack][stress]") {
  Proto p{"sack", RxMode::kTcp};
  p.sack = true;
  run_variants<Vtonic_sack_1024x128>(p, window_scenario(), 0x600, kWindowFlows, true);
}

TEST_CASE("loopback: sack with a slow return link (heavy ctl back-pressure)", "[loopback][sack][backpressure]") {
  // The return link is paused 30 % of the cycles and ctl_ready_i is low
  // half the time: the receiver's control queue fills and data_ready_o
  // holds the data back (the ingress queue grows); nothing may be lost.
  Proto p{"sack", RxMode::kTcp};
  p.sack = true;
  Scenario s = window_scenario();
  s.ctl_stall = 0.5;
  s.ret_pause = 0.3;
  s.segs = 300;
  std::vector<Result> rs;
  for (uint64_t seed : seeds(0x640, "sack backpressure")) {
    Result r = run_loop<Vtonic_sack_1024x128>(p, s, seed, kWindowFlows);
    r.variant = "slow-ret";
    print(r);
    CHECK(r.ctl_stalls > 0);
    rs.push_back(r);
  }
  report(rs);
}

// Its runs of the receive-window case (loopback_window.cpp): TCP + SACK
// without the host's limit.
const RegisterWindowRun kWindowRun{"sack", [](const Scenario& s) {
  Proto p{"sack", RxMode::kTcp};
  p.sack = true;
  run_window_nolimit<Vtonic_sack_1024x128>(p, s);
}};
