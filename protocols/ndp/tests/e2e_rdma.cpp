// SPDX-License-Identifier: Apache-2.0
// NDP (token credit) end to end in the whole sender (tonic_ndp_16x128, 16 flows,
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

#include "Vtonic_ndp_16x128.h"
#include "tonic/ndp_receiver.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/sys_tb.hpp"
#include "unit/e2e_rdma/e2e_rig.hpp"

using namespace tonic;
using namespace tonic::e2e;

// ===========================================================================
// NDP (token credit)

TEST_CASE("e2e_rdma: ndp: directed pulls, a NACK's retransmission first, stale and foreign pulls ignored",
          "[e2e_rdma][ndp][smoke][badinput]") {
  Directed<Vtonic_ndp_16x128> t;
  constexpr uint32_t kA = 2, kB = 5, kNone = 9, kSeg = 1000;
  // First window: TokensInit = 15 segments per flow without pulls, no more.
  const auto [a, b] = t.start_pair(kA, kB, 100, kSeg, 600);
  CHECK(str(a) == str(news(kA, 0, 15)));
  CHECK(str(b) == str(news(kB, 0, 15)));

  const uint32_t stale0 = t.tb.credit_stat(CreditStat::kPullStale);
  const uint32_t unknown0 = t.tb.stat(DdStat::kRxUnknownFlow);
  // A NACK of trimmed segment 3 marks it; without a token nothing goes.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kNack, 0, false, 3)}, 300)) == "[]");
  // Pull 1: exactly one segment, the retransmission of 3.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kPull, 0, false, 0, 1)}, 300)) == str(rtxs(kA, 3, 1)));
  // Pull 4 (pulls 2 and 3 lost): three new segments.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kPull, 0, false, 0, 4)}, 300)) == str(news(kA, 15, 3)));
  // A duplicate (4) and a stale (2) pull: nothing, both counted.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kPull, 0, false, 0, 4), rx_cmd(kA, SysRx::kPull, 0, false, 0, 2)}, 300)) ==
        "[]");
  CHECK(t.tb.credit_stat(CreditStat::kPullStale) - stale0 == 2);
  // A pull and a NACK for a flow that was never added: nothing, counted.
  CHECK(str(t.send({rx_cmd(kNone, SysRx::kPull, 0, false, 0, 5), rx_cmd(kNone, SysRx::kNack, 0, false, 0)}, 300)) ==
        "[]");
  CHECK(t.tb.stat(DdStat::kRxUnknownFlow) - unknown0 == 2);
  // Two NACKs (7, then 1) and pull 6: both retransmissions, lowest first,
  // before any new segment.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kNack, 0, false, 7), rx_cmd(kA, SysRx::kNack, 0, false, 1),
                    rx_cmd(kA, SysRx::kPull, 0, false, 0, 6)},
                   300)) == str(cat(rtxs(kA, 1, 1), rtxs(kA, 7, 1))));
  // The other flow kept its own pull number: pull 2 gives it two segments.
  CHECK(str(t.send({rx_cmd(kB, SysRx::kPull, 0, false, 0, 2)}, 300)) == str(news(kB, 15, 2)));
  // A pull exactly 2^15 ahead of the last one is stale (credit-schemes.md).
  CHECK(str(t.send({rx_cmd(kA, SysRx::kPull, 0, false, 0, 6 + 0x8000)}, 300)) == "[]");
  CHECK(t.tb.credit_stat(CreditStat::kPullStale) - stale0 == 3);
  // And the flow still counts from 6: pull 7 sends one new segment.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kPull, 0, false, 0, 7)}, 300)) == str(news(kA, 18, 1)));
  CHECK(t.tb.errors() == 0);
  INFO(t.tb.first_error());
  CHECK(t.tb.stat(DdStat::kSegments) == 15 + 15 + 1 + 3 + 2 + 2 + 1);
  CHECK(t.tb.stat(DdStat::kRetransmits) == 3);
  std::printf("ndp directed: segments %u, retransmits %u, stale pulls %u, unknown-flow beats %u\n",
              t.tb.stat(DdStat::kSegments), t.tb.stat(DdStat::kRetransmits),
              t.tb.credit_stat(CreditStat::kPullStale) - stale0, t.tb.stat(DdStat::kRxUnknownFlow) - unknown0);
}

TEST_CASE("e2e_rdma: ndp: a retransmission timeout adds a token, so the first unacked segment goes again",
          "[e2e_rdma][ndp][timeout]") {
  // No ack, NACK or pull comes back: after the first window the flow holds
  // no token. Each timeout marks [wnd_start, next_new) and adds one token
  // (protocols/ndp: the timeout module's tokens_o), so exactly one
  // retransmission leaves per timeout, the lowest unacked segment; the RTO
  // doubles (RtoInit 100,000 cycles, then 200,000).
  Directed<Vtonic_ndp_16x128> t;
  constexpr uint32_t kF = 6, kSeg = 1500;
  t.tb.add(kF, 50, kSeg);
  t.tb.post(kF, 150, kSeg);
  CHECK(str(t.run(600)) == str(news(kF, 50, 15)));
  const uint32_t tmo0 = t.tb.stat(DdStat::kTimeouts);
  CHECK(str(t.run(90'000)) == "[]");                       // before the RTO
  CHECK(str(t.run(20'000)) == str(rtxs(kF, 50, 1)));       // first timeout
  CHECK(t.tb.stat(DdStat::kTimeouts) - tmo0 == 1);
  CHECK(str(t.run(150'000)) == "[]");                      // backed off
  // The second timeout marks [wnd_start, next_new) again, 50 included (it
  // is still unacked): its one token resends 50 again.
  CHECK(str(t.run(70'000)) == str(rtxs(kF, 50, 1)));       // second timeout
  CHECK(t.tb.stat(DdStat::kTimeouts) - tmo0 == 2);
  CHECK(t.tb.credit_stat(CreditStat::kTokExcess) == 0);
  INFO(t.tb.first_error());
  CHECK(t.tb.errors() == 0);
}

TEST_CASE("e2e_rdma: ndp: closed loop with trimming and lost pulls: one segment per pull, retransmissions first",
          "[e2e_rdma][ndp][stress]") {
  TONIC_SEED(0x6e6470);
  constexpr uint32_t kFlows = 4, kSeg = 1500, kTokInit = 15;
  constexpr uint64_t kRun = 300'000, kDrain = 3'000;
  constexpr double kPullLoss = 0.1;
  SysTb<Vtonic_ndp_16x128> tb(kFlowCount, tonic_seed_);
  Rng rng(tonic_seed_ * 0x9E3779B97F4A7C15ull + 1);
  // A bottleneck at 80 Gb/s (100 B/cycle) behind senders paced at 100 Gb/s
  // by the pulls: its 12 KB buffer fills and trims, all the time.
  SwitchConfig sc;
  sc.drain_q16 = uint64_t{100} << 16;
  sc.capacity = 8 * kSeg;
  sc.overflow = SwitchOverflow::kTrim;
  sc.ecn = false;
  SwitchQueue sw(sc);
  NdpReceiver rx;  // one pull per 12 cycles (1500 B at 100 Gb/s)
  Delay<SysSeg> fwd(50);
  Delay<RxEvent> ret(50);
  RxLog log;
  Errors err;

  struct FlowStat {
    uint64_t gen = 0, rtx = 0, pulls_in = 0, pulls_lost = 0, nacks_in = 0, timeouts = 0, other_rtx = 0;
    uint16_t grant = 0;  // last cumulative pull number that entered the sender
    std::set<uint32_t> pending;  // NACKed, not resent yet
    std::deque<Out> order;       // decisions not yet out
  };
  std::vector<FlowStat> fs(kFlowCount);
  open_flows(tb, rx, kFlows, 1u << 24, kSeg);
  tb.on_seg = [&](const SysSeg& s) {
    FlowStat& st = fs[s.flow];
    if (st.order.empty() || !(st.order.front() == Out{s.flow, s.idx, s.rtx})) {
      err.fail(s.cycle, "flow " + std::to_string(s.flow) + ": address " + std::to_string(s.idx) +
                            " left out of next-seg's order");
    } else {
      st.order.pop_front();
    }
    fwd.push(s.cycle, s);
  };
  tb.on_cycle = [&](Vtonic_ndp_16x128& d) {
    const uint64_t c = tb.cycle();
    log.sample(c, d);
    if (d.rx_valid_i && d.rx_flow_i < kFlows) {
      FlowStat& st = fs[d.rx_flow_i];
      if (d.rx_type_i == uint8_t(SysRx::kPull)) {
        ++st.pulls_in;
        if (seq_lt(uint32_t(st.grant) << 16, uint32_t(d.rx_grant_i) << 16)) st.grant = d.rx_grant_i;
      }
    }
    // The decision of this cycle saw the state before this cycle's writes.
    const SysNs ns = sys_ns(d.trace_ns_o);
    if (ns.valid) {
      FlowStat& st = fs[ns.flow];
      ++st.gen;
      st.rtx += ns.rtx;
      st.order.push_back({ns.flow, ns.idx, ns.rtx});
      if (st.gen > kTokInit + st.grant + st.timeouts)
        err.fail(c, "flow " + std::to_string(ns.flow) + ": segment " + std::to_string(st.gen) +
                        " with only " + std::to_string(kTokInit + st.grant + st.timeouts) + " tokens");
      if (st.timeouts == 0) {
        if (!st.pending.empty()) {
          if (!ns.rtx)
            err.fail(c, "flow " + std::to_string(ns.flow) + ": new segment " + std::to_string(ns.idx) +
                            " while NACKed segment " + std::to_string(*st.pending.begin()) + " waits");
          else if (ns.idx != *st.pending.begin())
            err.fail(c, "flow " + std::to_string(ns.flow) + ": resent " + std::to_string(ns.idx) +
                            ", the lowest NACKed is " + std::to_string(*st.pending.begin()));
          else
            st.pending.erase(st.pending.begin());
        } else if (ns.rtx) {
          ++st.other_rtx;
        }
      }
    }
    const SysTrace ti = sys_trace(d.trace_in_o);
    if (ti.valid) {
      const SysRxCmd* ev = stage2_event(log, c, ti, err);
      if (ev && ev->type == SysRx::kNack) {
        ++fs[ti.flow].nacks_in;
        fs[ti.flow].pending.insert(ev->sack_idx);
      }
    }
    const SysTrace tp = sys_trace(d.trace_per_o);
    if (tp.valid && tp.timeout) ++fs[tp.flow].timeouts;
  };

  bool frozen = false;
  auto cycle = [&]() {
    const uint64_t c = tb.cycle();
    for (const SwitchPacket& p : sw.pop(c)) rx.segment(c, p.flow, p.seg, p.trimmed);
    fwd.pop_due(c, [&](const SysSeg& s) { sw.push(c, to_switch_packet(s)); });
    rx.advance(c);
    for (const RxEvent& e : rx.take_acks()) ret.push(c, e);
    ret.pop_due(c, [&](const RxEvent& e) {
      if (frozen) return;
      if (e.type == ref::kRxPull && rng.chance(kPullLoss)) {
        ++fs[e.flow].pulls_lost;
        return;
      }
      tb.send_rx(to_cmd(e));
    });
    tb.step();
  };
  for (uint64_t i = 0; i < kRun && err.count() == 0 && tb.errors() == 0; ++i) cycle();
  // Freeze the return path; what entered is used up within the drain time.
  frozen = true;
  for (uint64_t i = 0; i < kDrain && err.count() == 0 && tb.errors() == 0; ++i) cycle();

  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  INFO(err.first());
  REQUIRE(err.count() == 0);
  std::printf("ndp closed loop (seed %llu, %llu cycles): switch trims %llu, receiver pulls %llu, NACKs %llu\n",
              (unsigned long long)tonic_seed_, (unsigned long long)kRun, (unsigned long long)sw.trims(),
              (unsigned long long)rx.stats().pulls, (unsigned long long)rx.stats().nacks);
  uint64_t total = 0;
  for (uint32_t f = 0; f < kFlows; ++f) {
    const FlowStat& st = fs[f];
    std::printf("  flow %u: segments %llu (rtx %llu) = %u + last pull %u; pulls in %llu, lost %llu; NACKs %llu; "
                "timeouts %llu; delivered %u\n",
                f, (unsigned long long)st.gen, (unsigned long long)st.rtx, kTokInit, st.grant,
                (unsigned long long)st.pulls_in, (unsigned long long)st.pulls_lost, (unsigned long long)st.nacks_in,
                (unsigned long long)st.timeouts, rx.rcv_nxt(f));
    CHECK(st.timeouts == 0);
    CHECK(st.pulls_lost > 0);
    CHECK(st.nacks_in > 0);
    CHECK(st.other_rtx == 0);
    // After the first window, exactly one segment per pull (lost pulls
    // carried by a later one's cumulative number).
    CHECK(st.gen == kTokInit + st.grant + st.timeouts);
    CHECK(st.order.empty());
    total += st.gen;
  }
  CHECK(tb.stat(DdStat::kSegments) == total);
  CHECK(tb.credit_stat(CreditStat::kTokExcess) == 0);
}
