// SPDX-License-Identifier: Apache-2.0
// IRN (rate credit under a BDP window, selective retransmission) end to end in the whole sender (tonic_irn_16x128, 16 flows,
// W = 128), driven by its receiver model (lib/tonic) through delay lines
// and, where the test needs one, a switch queue; the pieces of the rig are
// tb/unit/e2e_rdma/e2e_rig.hpp. Every check is in cycles. The checkers
// read the next-seg decisions (trace_ns_o), the incoming stage-2 and
// periodic traces (trace_in_o, trace_per_o) and the segment addresses that
// leave; randomised tests print their seed (TONIC_SEED reproduces a run).
// Part of test_e2e_rdma, label e2e_rdma.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "Vtonic_irn_16x128.h"
#include "tonic/irn_receiver.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/sys_tb.hpp"
#include "unit/e2e_rdma/e2e_rig.hpp"

using namespace tonic;
using namespace tonic::e2e;

// ===========================================================================
// IRN (rate credit under the BDP window, selective retransmission)

TEST_CASE("e2e_rdma: irn: directed NACKs resend only the gap below the arriving PSN, bad SACKs and acks ignored",
          "[e2e_rdma][irn][smoke][badinput]") {
  Directed<Vtonic_irn_16x128> t;
  constexpr uint32_t kA = 1, kB = 4, kNone = 9, kSeg = 1024, kBdp = 98;
  // At line rate both flows send their BDP window (98) and stop.
  const auto [a, b] = t.start_pair(kA, kB, 200, kSeg, 3000);
  CHECK(str(a) == str(news(kA, 0, kBdp)));
  CHECK(str(b) == str(news(kB, 0, kBdp)));
  auto nack = [](uint32_t f, uint32_t cum, uint32_t psn) { return rx_cmd(f, SysRx::kNack, cum, true, psn); };
  // PSN 3 arrived, 0..2 did not: resend exactly 0, 1, 2.
  CHECK(str(t.send({nack(kA, 0, 3)}, 1000)) == str(rtxs(kA, 0, 3)));
  // PSN 4 arrived: the gap below it is 3, which the receiver holds: nothing.
  CHECK(str(t.send({nack(kA, 0, 4)}, 1000)) == "[]");
  // PSN 7 arrived: 5 and 6 are missing (4 is held).
  CHECK(str(t.send({nack(kA, 0, 7)}, 1000)) == str(rtxs(kA, 5, 2)));
  // PSN 6 (a retransmission) arrives out of order: below the last mark,
  // nothing again.
  CHECK(str(t.send({nack(kA, 0, 6)}, 1000)) == "[]");
  // The receiver got 0..4: the window slides by 5, five new segments go.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kAck, 5)}, 1000)) == str(news(kA, kBdp, 5)));
  const uint32_t bad_sack0 = t.tb.stat(DdStat::kRxBadSack), bad_ack0 = t.tb.stat(DdStat::kRxBadAck);
  const uint32_t unknown0 = t.tb.stat(DdStat::kRxUnknownFlow), rtx0 = t.tb.stat(DdStat::kRetransmits);
  // A NACK whose PSN lies beyond next_new (103), one whose cumulative ack
  // does, and one for a flow not added: no retransmission, each counted.
  CHECK(str(t.send({nack(kA, 5, 150), nack(kA, 180, 181), nack(kNone, 0, 3)}, 1000)) == "[]");
  CHECK(t.tb.stat(DdStat::kRxBadSack) - bad_sack0 == 1);
  CHECK(t.tb.stat(DdStat::kRxBadAck) - bad_ack0 == 1);
  CHECK(t.tb.stat(DdStat::kRxUnknownFlow) - unknown0 == 1);
  CHECK(t.tb.stat(DdStat::kRetransmits) == rtx0);
  // The other flow is untouched: an ACK of 10 sends 10 new segments.
  CHECK(str(t.send({rx_cmd(kB, SysRx::kAck, 10)}, 1000)) == str(news(kB, kBdp, 10)));
  // The first one goes on: everything acked, the rest of its data goes,
  // no retransmission.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kAck, 103)}, 3000)) == str(news(kA, 103, 200 - 103)));
  INFO(t.tb.first_error());
  CHECK(t.tb.errors() == 0);
}

TEST_CASE("e2e_rdma: irn: random loss: only lost segments are resent, once each, everything delivered",
          "[e2e_rdma][irn][stress]") {
  TONIC_SEED(0x69726e);
  constexpr uint32_t kFlows = 3, kSegs = 3000, kSeg = 1024;
  constexpr double kLoss = 0.01;
  constexpr uint64_t kMax = 2'000'000;
  SysTb<Vtonic_irn_16x128> tb(kFlowCount, tonic_seed_);
  Rng rng(tonic_seed_ * 0x9E3779B97F4A7C15ull + 3);
  IrnRxConfig ic;
  ic.cnp.enabled = false;
  IrnReceiver rx(ic);
  Delay<SysSeg> fwd(100);
  Delay<RxEvent> ret(100);
  Errors err;
  struct FlowStat {
    uint64_t gen = 0, rtx = 0, drops = 0, spurious = 0, timeouts = 0;
    std::vector<uint32_t> in_flight = std::vector<uint32_t>(kSegs, 0);  // copies on the way
  };
  std::vector<FlowStat> fs(kFlowCount);
  open_flows(tb, rx, kFlows, kSegs, kSeg);
  tb.on_seg = [&](const SysSeg& s) {
    if (lost(rng, kLoss, fs[s.flow].drops)) return;
    ++fs[s.flow].in_flight[s.idx];
    fwd.push(s.cycle, s);
  };
  tb.on_cycle = [&](Vtonic_irn_16x128& d) {
    const uint64_t c = tb.cycle();
    const SysNs ns = sys_ns(d.trace_ns_o);
    if (ns.valid) {
      FlowStat& st = fs[ns.flow];
      ++st.gen;
      if (ns.rtx) {
        ++st.rtx;
        // Resend only what is lost: not held by the receiver, no copy on
        // the way.
        if (rx.received(ns.flow, ns.idx) || st.in_flight[ns.idx] != 0) {
          ++st.spurious;
          err.fail(c, "flow " + std::to_string(ns.flow) + ": resent " + std::to_string(ns.idx) + ", which is " +
                          (rx.received(ns.flow, ns.idx) ? "received" : "on the way"));
        }
      }
    }
    const SysTrace tp = sys_trace(d.trace_per_o);
    if (tp.valid && tp.timeout) ++fs[tp.flow].timeouts;
  };
  auto all_delivered = [&]() {
    for (uint32_t f = 0; f < kFlows; ++f)
      if (rx.rcv_nxt(f) != kSegs) return false;
    return true;
  };
  const uint64_t cycles = run_closed_loop(
      tb, rx, fwd, ret, kMax,
      [&](uint64_t c, const SysSeg& s) {
        --fs[s.flow].in_flight[s.idx];
        rx.segment(c, s.flow, s.idx, false);
      },
      all_delivered, [&] { return err.count(); });
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  INFO(err.first());
  REQUIRE(err.count() == 0);
  std::printf("irn selective (seed %llu, loss %.3f): all delivered in %llu cycles; receiver NACKs %llu, "
              "duplicates %llu\n",
              (unsigned long long)tonic_seed_, kLoss, (unsigned long long)cycles,
              (unsigned long long)rx.stats().nacks, (unsigned long long)rx.stats().duplicates);
  for (uint32_t f = 0; f < kFlows; ++f) {
    const FlowStat& st = fs[f];
    std::printf("  flow %u: delivered %u; sent %llu; losses %llu; retransmissions %llu; spurious %llu; timeouts %llu\n",
                f, rx.rcv_nxt(f), (unsigned long long)st.gen, (unsigned long long)st.drops,
                (unsigned long long)st.rtx, (unsigned long long)st.spurious, (unsigned long long)st.timeouts);
    CHECK(rx.rcv_nxt(f) == kSegs);
    CHECK(st.drops > 0);
    // One retransmission per lost copy (retransmissions lost too are
    // counted as losses), none of a segment that arrived.
    CHECK(st.rtx == st.drops);
    CHECK(st.gen == kSegs + st.rtx);
    CHECK(rx.stats(f).duplicates == 0);
  }
}
