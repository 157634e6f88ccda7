// SPDX-License-Identifier: Apache-2.0
// RoCEv2 with DCQCN and go-back-N (rate credit) end to end in the whole sender (tonic_rocev2_dcqcn_16x128, 16 flows,
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

#include "Vtonic_rocev2_dcqcn_16x128.h"
#include "e2e_roce.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/sys_tb.hpp"
#include "unit/e2e_rdma/e2e_rig.hpp"

using namespace tonic;
using namespace tonic::e2e;

// ===========================================================================
// RoCEv2 with DCQCN and go-back-N (rate credit)

TEST_CASE("e2e_rdma: rocev2: directed go-back-N from the NACKed index, bad acks and foreign beats ignored",
          "[e2e_rdma][rocev2][smoke][badinput]") {
  Directed<Vtonic_rocev2_dcqcn_16x128> t;
  constexpr uint32_t kA = 3, kB = 6, kNone = 9, kSeg = RoceCfg::kSegBytes, kW = RoceCfg::kInitWnd;
  // At line rate both flows send their window (120) and stop.
  const auto [a, b] = t.start_pair(kA, kB, 200, kSeg, 3000);
  CHECK(str(a) == str(news(kA, 0, kW)));
  CHECK(str(b) == str(news(kB, 0, kW)));
  // NACK(40): every segment from 40 to what was sent (119) again, in
  // order, then the 40 new ones the slid window allows.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kNack, 40)}, 3000)) == str(cat(rtxs(kA, 40, kW - 40), news(kA, kW, 40))));
  const uint32_t bad_ack0 = t.tb.stat(DdStat::kRxBadAck), unknown0 = t.tb.stat(DdStat::kRxUnknownFlow);
  const uint32_t rtx0 = t.tb.stat(DdStat::kRetransmits);
  // A NACK beyond next_new (160), and a NACK and a CNP of a flow not added:
  // ignored and counted.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kNack, 500), rx_cmd(kNone, SysRx::kNack, 0), rx_cmd(kNone, SysRx::kCnp, 0)},
                   2000)) == "[]");
  CHECK(t.tb.stat(DdStat::kRxBadAck) - bad_ack0 == 1);
  CHECK(t.tb.stat(DdStat::kRxUnknownFlow) - unknown0 == 2);
  CHECK(t.tb.stat(DdStat::kRetransmits) == rtx0);
  // The other flow is untouched: an ACK of 120 sends its last 80 new
  // segments, no retransmission.
  CHECK(str(t.send({rx_cmd(kB, SysRx::kAck, kW)}, 3000)) == str(news(kB, kW, 200 - kW)));
  // And the first still goes back from its own NACK.
  CHECK(str(t.send({rx_cmd(kA, SysRx::kNack, 150)}, 3000)) == str(cat(rtxs(kA, 150, 10), news(kA, 160, 40))));
  INFO(t.tb.first_error());
  CHECK(t.tb.errors() == 0);
}

TEST_CASE("e2e_rdma: rocev2: random loss: each NACK(expected) resends exactly from it, all delivered in order",
          "[e2e_rdma][rocev2][stress]") {
  TONIC_SEED(0x726f6365);
  constexpr uint32_t kFlows = 3, kSegs = 3000, kSeg = RoceCfg::kSegBytes;
  constexpr double kLoss = 0.01;
  constexpr uint64_t kMax = 2'000'000;
  SysTb<Vtonic_rocev2_dcqcn_16x128> tb(kFlowCount, tonic_seed_);
  Rng rng(tonic_seed_ * 0x9E3779B97F4A7C15ull + 2);
  RoceRxConfig rc;
  rc.cnp.enabled = false;  // no ECN here: the rate stays at line rate
  RoceReceiver rx(rc);
  Delay<SysSeg> fwd(100);
  Delay<RxEvent> ret(100);
  RxLog log;
  Errors err;
  struct FlowStat {
    uint32_t snd_nxt = 0;       // next new index (from the decisions)
    uint32_t ws = 0;            // highest cumulative ack that entered
    uint32_t cur = 0, end = 0;  // go-back in progress: [cur, end) still to resend, in order
    uint64_t gen = 0, rtx = 0, gobacks = 0, timeouts = 0, drops = 0, resent_span = 0;
  };
  std::vector<FlowStat> fs(kFlowCount);
  open_flows(tb, rx, kFlows, kSegs, kSeg);
  tb.on_seg = [&](const SysSeg& s) {
    if (lost(rng, kLoss, fs[s.flow].drops)) return;
    fwd.push(s.cycle, s);
  };
  auto go_back = [&](FlowStat& st, uint32_t from, uint32_t to) {
    st.cur = from;
    st.end = to;
    st.resent_span += seq_dist(from, to);
  };
  tb.on_cycle = [&](Vtonic_rocev2_dcqcn_16x128& d) {
    const uint64_t c = tb.cycle();
    log.sample(c, d);
    if (d.rx_valid_i && d.rx_flow_i < kFlows && d.rx_type_i <= uint8_t(SysRx::kNack)) {
      FlowStat& st = fs[d.rx_flow_i];
      if (seq_lt(st.ws, d.rx_cum_ack_i)) st.ws = d.rx_cum_ack_i;
    }
    const SysNs ns = sys_ns(d.trace_ns_o);
    if (ns.valid) {
      FlowStat& st = fs[ns.flow];
      const std::string who = "flow " + std::to_string(ns.flow) + ": ";
      ++st.gen;
      if (seq_lt(st.cur, st.end)) {
        if (!ns.rtx)
          err.fail(c, who + "new segment " + std::to_string(ns.idx) + " before resending " + std::to_string(st.cur));
        else if (ns.idx != st.cur)
          err.fail(c, who + "resent " + std::to_string(ns.idx) + ", expected " + std::to_string(st.cur));
        ++st.cur;
        ++st.rtx;
      } else if (ns.rtx) {
        err.fail(c, who + "retransmission of " + std::to_string(ns.idx) + " outside a go-back");
      } else {
        if (ns.idx != st.snd_nxt) err.fail(c, who + "new segment out of order");
        st.snd_nxt = ns.idx + 1;
      }
    }
    const SysTrace ti = sys_trace(d.trace_in_o);
    if (ti.valid) {
      const SysRxCmd* ev = stage2_event(log, c, ti, err);
      if (ev && ev->type == SysRx::kNack) {
        // Go back N: [expected, next_new as stage 2 saw it).
        FlowStat& st = fs[ti.flow];
        ++st.gobacks;
        go_back(st, ev->cum_ack, ti.next_new);
      }
    }
    const SysTrace tp = sys_trace(d.trace_per_o);
    if (tp.valid && tp.timeout) {
      // Timeout: back to the oldest unacked (no ack came for an RTO, so the
      // window start is the last cumulative ack that entered).
      FlowStat& st = fs[tp.flow];
      ++st.timeouts;
      go_back(st, st.ws, tp.next_new);
    }
  };
  auto all_delivered = [&]() {
    for (uint32_t f = 0; f < kFlows; ++f)
      if (rx.expected(f) != kSegs) return false;
    return true;
  };
  const uint64_t cycles = run_closed_loop(
      tb, rx, fwd, ret, kMax, [&](uint64_t c, const SysSeg& s) { rx.segment(c, s.flow, s.idx, false); },
      all_delivered, [&] { return err.count(); });
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  INFO(err.first());
  REQUIRE(err.count() == 0);
  std::printf("rocev2 go-back-N (seed %llu, loss %.3f): all delivered in %llu cycles; receiver NACKs %llu "
              "(suppressed %llu), duplicates %llu\n",
              (unsigned long long)tonic_seed_, kLoss, (unsigned long long)cycles,
              (unsigned long long)rx.stats().nacks, (unsigned long long)rx.stats().nacks_suppressed,
              (unsigned long long)rx.stats().duplicates);
  for (uint32_t f = 0; f < kFlows; ++f) {
    const FlowStat& st = fs[f];
    std::printf("  flow %u: delivered %u in order; sent %llu (rtx %llu); losses %llu; go-backs %llu (NACK), "
                "timeouts %llu; resend spans %llu\n",
                f, rx.expected(f), (unsigned long long)st.gen, (unsigned long long)st.rtx,
                (unsigned long long)st.drops, (unsigned long long)st.gobacks, (unsigned long long)st.timeouts,
                (unsigned long long)st.resent_span);
    CHECK(rx.expected(f) == kSegs);
    CHECK(rx.stats(f).in_order == kSegs);  // each PSN accepted once, in order
    CHECK(st.drops > 0);
    CHECK(st.gobacks > 0);
    // Every go-back ran to its end (later ones may cut an earlier one short).
    CHECK(st.cur == st.end);
  }
}

// ===========================================================================
// DCQCN reaction point in the system

TEST_CASE("e2e_rdma: rocev2: after every CNP, ack and timer call the DCQCN state and rate equal the reference Rp",
          "[e2e_rdma][rocev2][dcqcn]") {
  TONIC_SEED(0x64637163);
  using Rp = ref::dcqcn::Rp;
  constexpr uint32_t kFlows = 2, kSeg = RoceCfg::kSegBytes;
  // Phases: line rate (byte events, Rt at C), random CNPs (some a few
  // cycles apart), quiet recovery (fast, additive and hyper steps).
  constexpr uint64_t kQuiet1 = 400'000, kCnpEnd = 1'100'000, kRun = 1'700'000;
  SysTb<Vtonic_rocev2_dcqcn_16x128> tb(kFlowCount, tonic_seed_);
  Rng rng(tonic_seed_ * 0x9E3779B97F4A7C15ull + 4);
  IdealAcker acker(kFlowCount, 40);
  RxLog log;
  Errors err;
  const ref::dcqcn::Params params = RoceCfg::params();

  struct FlowState {
    std::unique_ptr<Rp> rp;
    TxBytes tx;                      // the bytes the transmit event counted, by cycle
    uint64_t consumed = 0;           // of which incoming has taken (the reference got them)
    std::deque<uint64_t> cnp_at;     // CNP schedule (cycles)
    uint64_t compared = 0, cnps = 0, acks_counted = 0, rate_changes = 0, merged = 0;
    uint32_t rate = RoceCfg::kC;     // Rc the RTL last wrote (RU)
    uint64_t t_rate = 0;             // since when
    double earned = 0;               // bytes earned at the RTL's rates since t0
    uint64_t sent = 0;               // bytes released
    double dev_hi = -1e18, dev_lo = 1e18;  // sent - earned, extremes (bytes)
    bool started = false;
    uint32_t min_rc = RoceCfg::kC;
  };
  std::vector<FlowState> fs(kFlows);
  open_flows(tb, acker, kFlows, 1u << 24, kSeg);
  for (uint32_t f = 0; f < kFlows; ++f) {
    for (uint64_t t = kQuiet1 + rng.below(5000); t < kCnpEnd;) {
      fs[f].cnp_at.push_back(t);
      t += rng.chance(0.25) ? rng.range(1, 40) : rng.range(1000, 30000);
    }
  }
  bool have_off = false;
  uint32_t off = 0;  // (testbench cycle - the engine's now) mod 2^16

  auto compare = [&](uint64_t c, uint32_t f, const SysTrace& t, const char* what) {
    FlowState& st = fs[f];
    const RoceUser u = RoceUser::from(t);
    const ref::dcqcn::State r = st.rp->state();
    const uint32_t t_due16 = uint32_t(r.t_due - off) & 0xffff, k_due16 = uint32_t(r.k_due - off) & 0xffff;
    ++st.compared;
    if (u.fresh || u.rc != r.rc || u.rt != r.rt || u.alpha != r.alpha || u.t_cnt != r.t_cnt || u.b_cnt != r.b_cnt ||
        byte_count(st.consumed, u) != r.bytes || u.t_due != t_due16 || u.k_due != k_due16) {
      err.fail(c, "flow " + std::to_string(f) + " after " + what + ": RTL " + u.str() + " | Rp " +
                      ref::dcqcn::to_string(r) + " (due16 " + std::to_string(t_due16) + "/" +
                      std::to_string(k_due16) + ")");
    }
    // The rate the credit cell uses from now on.
    if (u.rc != st.rate) {
      st.earned += double(st.rate) * double(c - st.t_rate) / 1048576.0;
      st.rate = u.rc;
      st.t_rate = c;
      ++st.rate_changes;
      st.min_rc = std::min(st.min_rc, u.rc);
    }
  };
  tb.on_seg = [&](const SysSeg& s) {
    acker.on_seg(s);
    if (s.flow >= kFlows) return;
    FlowState& st = fs[s.flow];
    st.tx.on_seg(s);
    st.sent += s.len;
    const double earned = st.earned + double(st.rate) * double(s.cycle - st.t_rate) / 1048576.0;
    st.dev_hi = std::max(st.dev_hi, double(st.sent) - earned);
    st.dev_lo = std::min(st.dev_lo, double(st.sent) - earned);
  };
  tb.on_cycle = [&](Vtonic_rocev2_dcqcn_16x128& d) {
    const uint64_t c = tb.cycle();
    log.sample(c, d);
    const SysTrace tp = sys_trace(d.trace_per_o);
    // A call merged into the incoming event of its flow is checked there.
    if (tp.valid && tp.flow < kFlows && !(tp.merged && fs[tp.flow].rp)) {
      FlowState& st = fs[tp.flow];
      if (!st.rp) {
        // The first call starts the timers at the engine's now: t_due = now + T.
        const RoceUser u = RoceUser::from(tp);
        const uint32_t o = uint32_t(c + params.t_cycles - u.t_due) & 0xffff;
        if (have_off && o != off) err.fail(c, "the engine's clock differs between flows");
        off = o;
        have_off = true;
        st.rp = std::make_unique<Rp>(params, c);
        st.t_rate = c;
        st.started = true;
      } else {
        st.rp->visit(c);
      }
      compare(c, tp.flow, tp, "a periodic call");
    }
    const SysTrace ti = sys_trace(d.trace_in_o);
    if (ti.valid && ti.flow < kFlows) {
      FlowState& st = fs[ti.flow];
      const SysRxCmd* ev = stage2_event(log, c, ti, err);
      if (!ev) {
        // recorded by stage2_event
      } else if (!st.rp) {
        err.fail(c, "an event before the first periodic call");
      } else if (ev->type == SysRx::kCnp) {
        st.consumed = st.tx.seen_by(c);  // the CNP restarts the byte counter
        st.rp->cnp(c);  // a merged call too: the CNP wins whole
        ++st.cnps;
        compare(c, ti.flow, ti, ti.merged ? "a CNP with a periodic call" : "a CNP");
      } else {
        // Bytes as the protocol counts them: what left by c - 3 (the
        // transmit event), taken by any call of incoming.
        const uint64_t seen = st.tx.seen_by(c);
        const auto bytes = static_cast<uint32_t>(seen - st.consumed);
        st.consumed = seen;
        if (bytes > 0) ++st.acks_counted;
        if (ti.merged) {
          st.rp->visit_and_sent(bytes, c);
          ++st.merged;
        } else if (bytes > 0) {
          st.rp->sent(bytes, c);
        }
        compare(c, ti.flow, ti, ti.merged ? "an ack with a periodic call" : "an ack");
      }
    }
  };
  for (uint64_t i = 0; i < kRun && err.count() == 0 && tb.errors() == 0; ++i) {
    const uint64_t c = tb.cycle();
    for (uint32_t f = 0; f < kFlows; ++f) {
      auto& q = fs[f].cnp_at;
      while (!q.empty() && q.front() <= c) {
        q.pop_front();
        SysRxCmd r;
        r.flow = f;
        r.type = SysRx::kCnp;
        tb.send_rx(r);
      }
    }
    acker.deliver(c, tb);
    tb.step();
  }
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  INFO(err.first());
  REQUIRE(err.count() == 0);
  std::printf("dcqcn vs Rp (seed %llu, %llu cycles): periodic calls cancelled %u\n", (unsigned long long)tonic_seed_,
              (unsigned long long)kRun, tb.credit_stat(CreditStat::kPerCancelled));
  for (uint32_t f = 0; f < kFlows; ++f) {
    const FlowState& st = fs[f];
    const ref::dcqcn::Stats& s = st.rp->stats();
    std::printf("  flow %u: %llu states compared (%llu with a merged periodic call); CNPs %llu, timer events %llu, "
                "byte events %llu, alpha decays %llu "
                "(fast %llu, additive %llu, hyper %llu, at Rmin %llu, dropped expiries %llu/%llu); rate writes %llu, "
                "lowest Rc %u RU, final Rc %u RU; sent - earned at the RTL's rates: %.0f .. %.0f B\n",
                f, (unsigned long long)st.compared, (unsigned long long)st.merged, (unsigned long long)s.cnps,
                (unsigned long long)s.timer_events,
                (unsigned long long)s.byte_events, (unsigned long long)s.alpha_decays, (unsigned long long)s.fast,
                (unsigned long long)s.additive, (unsigned long long)s.hyper, (unsigned long long)s.cuts_at_rmin,
                (unsigned long long)s.dropped_timer, (unsigned long long)s.dropped_alpha,
                (unsigned long long)st.rate_changes, st.min_rc, st.rp->rc(), st.dev_lo, st.dev_hi);
    // The credit cell releases at the rate the protocol wrote: never ahead
    // by more than the rate change's few cycles of latency, never behind by
    // more than the burst D (credit lost) plus a segment.
    CHECK(st.dev_hi <= 2.0 * kSeg);
    CHECK(st.dev_lo >= -double(RoceCfg::kBurst + kSeg));
    CHECK(s.cnps > 20);
    CHECK(s.byte_events > 0);
    CHECK(s.timer_events > 100);
    CHECK(s.hyper > 0);
    CHECK(s.additive > 0);
  }
}

// Same-flow merge: a flow acked in every cycle meets its periodic call in
// every visit. The calls are merged into the acks' writes (not dropped), so
// DCQCN's timers fire on schedule: every rate-timer and alpha-timer expiry
// of the run is processed within one visit period of its due time, and the
// RTL state equals the reference Rp (visit_and_sent) after every event.
TEST_CASE("e2e_rdma: rocev2: DCQCN's timers fire on schedule for a flow acked every cycle",
          "[e2e_rdma][rocev2][dcqcn][merge]") {
  TONIC_SEED(0x6d657267);
  using Rp = ref::dcqcn::Rp;
  constexpr uint32_t kSeg = RoceCfg::kSegBytes;
  SysTb<Vtonic_rocev2_dcqcn_16x128> tb(kFlowCount, tonic_seed_);
  IdealAcker acker(kFlowCount, 40);
  RxLog log;
  Errors err;
  const ref::dcqcn::Params params = RoceCfg::params();
  const uint64_t kRun = 12 * uint64_t{params.t_cycles} + 2000;
  std::unique_ptr<Rp> rp;
  uint64_t start = 0, acks = 0, merged = 0, calls = 0, compared = 0;
  TxBytes tx;             // the bytes the transmit event counted, by cycle
  uint64_t consumed = 0;  // of which incoming has taken (the reference got them)
  // 64-byte segments: at the line rate (125 B per cycle) the CR engine
  // sends one per cycle, so an ack comes back in every cycle.
  open_flows(tb, acker, 1, 1u << 24, 64);
  auto compare = [&](uint64_t c, const SysTrace& t, const char* what) {
    ++compared;
    const RoceUser u = RoceUser::from(t);
    const ref::dcqcn::State r = rp->state();
    if (u.rc != r.rc || u.rt != r.rt || u.alpha != r.alpha || u.t_cnt != r.t_cnt || u.b_cnt != r.b_cnt ||
        byte_count(consumed, u) != r.bytes) {
      err.fail(c, std::string("after ") + what + ": RTL " + u.str() + " | Rp " + ref::dcqcn::to_string(r));
    }
  };
  uint32_t due0 = 0;  // the first call's t_due (engine clock, 16 bits)
  tb.on_seg = [&](const SysSeg& s) {
    acker.on_seg(s);
    if (s.flow == 0) tx.on_seg(s);
  };
  tb.on_cycle = [&](Vtonic_rocev2_dcqcn_16x128& d) {
    const uint64_t c = tb.cycle();
    log.sample(c, d);
    const SysTrace tp = sys_trace(d.trace_per_o);
    if (tp.valid && tp.flow == 0) {
      ++calls;
      if (!rp) {
        rp = std::make_unique<Rp>(params, c);
        start = c;
        due0 = RoceUser::from(tp).t_due;
        compare(c, tp, "the first periodic call");
      } else if (!tp.merged) {
        rp->visit(c);
        compare(c, tp, "a periodic call");
      }
    }
    const SysTrace ti = sys_trace(d.trace_in_o);
    if (ti.valid && ti.flow == 0 && rp) {
      const SysRxCmd* ev = stage2_event(log, c, ti, err);
      if (ev) {
        const uint64_t seen = tx.seen_by(c);
        const auto bytes = static_cast<uint32_t>(seen - consumed);
        consumed = seen;
        ++acks;
        if (ti.merged) {
          ++merged;
          rp->visit_and_sent(bytes, c);
        } else if (bytes > 0) {
          rp->sent(bytes, c);
        }
        compare(c, ti, ti.merged ? "an ack with a periodic call" : "an ack");
        // On schedule: the next rate-timer expiry is never more than a
        // visit period (3 cycles with one flow) overdue.
        // The engine's clock runs at c - start - T + due0 (16 bits).
        const RoceUser u = RoceUser::from(ti);
        const auto overdue = static_cast<int16_t>(static_cast<uint16_t>(c - start - params.t_cycles + due0 - u.t_due));
        if (overdue > 3) err.fail(c, "rate timer " + std::to_string(overdue) + " cycles overdue");
      }
    }
  };
  for (uint64_t i = 0; i < kRun && err.count() == 0 && tb.errors() == 0; ++i) {
    acker.deliver(tb.cycle(), tb);
    tb.step();
  }
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  INFO(err.first());
  REQUIRE(err.count() == 0);
  REQUIRE(rp);
  const ref::dcqcn::Stats& s = rp->stats();
  const uint64_t elapsed = tb.cycle() - start;
  std::printf("dcqcn merge (%llu cycles): %llu acks, %llu periodic calls of which %llu merged; timer events %llu, "
              "alpha decays %llu, byte events %llu; %llu states compared; periodic calls cancelled %u\n",
              (unsigned long long)elapsed, (unsigned long long)acks, (unsigned long long)calls,
              (unsigned long long)merged, (unsigned long long)s.timer_events, (unsigned long long)s.alpha_decays,
              (unsigned long long)s.byte_events, (unsigned long long)compared,
              tb.credit_stat(CreditStat::kPerCancelled));
  // Acked in (nearly) every cycle, so (nearly) every visit is merged.
  CHECK(acks > elapsed * 9 / 10);
  CHECK(merged > calls * 9 / 10);
  // Every expiry due in the run was processed: floor(elapsed / T) rate
  // steps and floor(elapsed / K) alpha decays, less at most the one due in
  // the last visit period.
  CHECK(s.timer_events + 1 >= elapsed / params.t_cycles);
  CHECK(s.timer_events <= elapsed / params.t_cycles);
  CHECK(s.alpha_decays + 1 >= elapsed / params.k_cycles);
  CHECK(s.alpha_decays <= elapsed / params.k_cycles);
}

// What this RTL run (80 ms) can check: both flows share the bottleneck
// (neither starves, the link is full, nothing is lost). 5 % over a 30-ms
// window is not a property of DCQCN with these settings. The same system in plain C++ (the reference Rp
// with ideal pacing, protocols/rocev2_dcqcn/tests/dcqcn_loop.hpp) gives 30-ms differences of
// 0.4-30 % (mean 16 %, 10 seeds) against 0.4-16 % here (7 seeds), with no
// flow-id bias in either; the 1-ms share difference has a standard deviation
// of about 18 % and a correlation time of 10-20 ms. Only averages over
// seconds settle within 5 %: test_dcqcn_loop checks that (6-s runs, 4 seeds),
// out of reach of this RTL run (about 1 M cycles/s). The RTL's reaction
// point equals Rp event for event (the test above), which is what makes the
// loop's figure the RTL's. Here: each flow's late-window rate within 35 %
// of the other's (the loop's 30-ms spread reaches 30 %), the link >= 95 %
// busy.
TEST_CASE("e2e_rdma: rocev2: two DCQCN flows share one ECN-marking 40 Gb/s bottleneck",
          "[e2e_rdma][rocev2][dcqcn][fairness]") {
  TONIC_SEED(0x66616972);
  constexpr uint32_t kSeg = RoceCfg::kSegBytes;
  constexpr uint64_t kStart1 = 100'000;   // the second flow starts 1 ms late
  constexpr uint64_t kRun = 8'000'000;    // 80 ms
  constexpr uint64_t kBin = 100'000;      // 1 ms throughput bins
  constexpr uint64_t kLate = 3'000'000;   // the late window measured (30 ms)
  constexpr size_t kAvg = 5;              // convergence: 5-ms moving averages
  constexpr double kTol = 0.05;           // reported: 5-ms averages within 5 %
  constexpr double kShare = 0.35;         // checked over the late window
  SysTb<Vtonic_rocev2_dcqcn_16x128> tb(kFlowCount, tonic_seed_);
  SwitchConfig sc;
  sc.drain_q16 = uint64_t{50} << 16;  // 50 B/cycle = 40 Gb/s
  sc.ecn = true;                      // Kmin 5 KB, Kmax 200 KB, Pmax 1 % (DCQCN paper)
  sc.seed = tonic_seed_;
  SwitchQueue sw(sc);
  RoceReceiver rx;  // CNP at most once per flow per 50 us
  Delay<SysSeg> fwd(100);
  Delay<RxEvent> ret(100);
  std::vector<std::vector<uint64_t>> bins(2, std::vector<uint64_t>(kRun / kBin + 1, 0));
  tb.add(0, 0, kSeg);
  tb.post(0, 1u << 24, kSeg);
  rx.open(0, 0);
  rx.open(1, 0);
  tb.on_seg = [&](const SysSeg& s) { fwd.push(s.cycle, s); };
  bool started1 = false;
  for (uint64_t i = 0; i < kRun && tb.errors() == 0; ++i) {
    const uint64_t c = tb.cycle();
    if (!started1 && i >= kStart1) {
      tb.add(1, 0, kSeg);
      tb.post(1, 1u << 24, kSeg);
      started1 = true;
    }
    for (const SwitchPacket& p : sw.pop(c)) {
      rx.segment(c, p.flow, p.seg, p.ce);
      bins[p.flow][i / kBin] += p.len;
    }
    fwd.pop_due(c, [&](const SysSeg& s) { sw.push(c, to_switch_packet(s)); });
    rx.advance(c);
    for (const RxEvent& e : rx.take_acks()) ret.push(c, e);
    ret.pop_due(c, [&](const RxEvent& e) { tb.send_rx(to_cmd(e)); });
    tb.step();
  }
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  auto gbps = [](uint64_t bytes, uint64_t cycles) { return double(bytes) * 8.0 / (double(cycles) * 10e-9) / 1e9; };
  // Convergence: the first time from which the kAvg-ms moving averages of
  // both flows stay within kTol of each other (relative to their mean).
  const size_t nb = kRun / kBin;
  size_t conv = nb;
  for (size_t b = nb; b-- > kStart1 / kBin + kAvg;) {
    uint64_t x = 0, y = 0;
    for (size_t k = b + 1 - kAvg; k <= b; ++k) {
      x += bins[0][k];
      y += bins[1][k];
    }
    if (std::abs(double(x) - double(y)) > kTol * 0.5 * double(x + y)) break;
    conv = b;
  }
  uint64_t late0 = 0, late1 = 0;
  for (size_t b = (kRun - kLate) / kBin; b < nb; ++b) {
    late0 += bins[0][b];
    late1 += bins[1][b];
  }
  const double r0 = gbps(late0, kLate), r1 = gbps(late1, kLate);
  std::printf("dcqcn fairness (seed %llu): bottleneck 40 Gb/s, flow 1 starts at cycle %llu; late window "
              "(last %llu cycles): flow 0 %.2f Gb/s, flow 1 %.2f Gb/s (diff %.2f %%), total %.2f Gb/s; "
              "%zu-ms averages within %.0f %% from cycle %llu (%llu cycles after flow 1 started; %llu = not reached)\n",
              (unsigned long long)tonic_seed_, (unsigned long long)kStart1, (unsigned long long)kLate, r0, r1,
              100.0 * std::abs(r0 - r1) / (0.5 * (r0 + r1)), r0 + r1, kAvg, 100 * kTol,
              (unsigned long long)(conv * kBin), (unsigned long long)(conv * kBin - kStart1), (unsigned long long)kRun);
  std::printf("  switch: marks %llu, max backlog %llu B, drops %llu; CNPs %llu (flow 0 %llu, flow 1 %llu); "
              "receiver NACKs %llu\n",
              (unsigned long long)sw.marks(), (unsigned long long)sw.max_backlog(), (unsigned long long)sw.drops(),
              (unsigned long long)rx.stats().cnps, (unsigned long long)rx.stats(0).cnps,
              (unsigned long long)rx.stats(1).cnps, (unsigned long long)rx.stats().nacks);
  std::printf("  1-ms bins (Gb/s, flow 0 / flow 1):");
  for (size_t b = 0; b < nb; b += 4) std::printf(" %.1f/%.1f", gbps(bins[0][b], kBin), gbps(bins[1][b], kBin));
  std::printf("\n");
  CHECK(std::abs(r0 - r1) <= kShare * 0.5 * (r0 + r1));
  CHECK(r0 + r1 >= 0.95 * 40.0);
  CHECK(rx.stats().nacks == 0);
  CHECK(sw.drops() == 0);
  // A systematic advantage of one flow id would show here over seeds.
  std::printf("  late-window leader: flow %d\n", r0 >= r1 ? 0 : 1);
}
