// SPDX-License-Identifier: Apache-2.0
// The receive-window case of the loopback rig (loopback_rig.hpp): the
// window protocols that register for it in their folders
// (RegisterWindowRun in protocols/<name>/tests/loopback.cpp) run without the
// host's limit, against rx_1024x128 and rx_16x32, in name order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "loopback_rig.hpp"

using namespace tonic;
using namespace tonic::loopback;

TEST_CASE("loopback: the receive window: no host limit, rx_1024x128 (W = 128) and rx_16x32 (W = 32)",
          "[loopback][window]") {
  // Without the host's limit a window sender keeps up to cwnd <= 128
  // segments above its wnd_start. rx_1024x128 (W = 128 = the sender's
  // Window) never sees a beyond-window index (checked); rx_16x32 (W = 32)
  // drops the excess as `beyond` with a plain duplicate ack. Everything must
  // still be delivered exactly once; the figures show what the drops cost.
  Scenario s = window_scenario();
  s.segs = 300;
  s.max_cycles = 8'000'000;  // a sender whose RTO marks only wnd_start: one backed-off RTO per drop on W = 32
  std::vector<WindowRun> runs = window_runs();
  std::sort(runs.begin(), runs.end(),
            [](const WindowRun& a, const WindowRun& b) { return std::strcmp(a.protocol, b.protocol) < 0; });
  if (runs.empty()) WARN("no window protocol of this tree registers a receive-window run");
  for (const WindowRun& r : runs) r.run(s);
}
