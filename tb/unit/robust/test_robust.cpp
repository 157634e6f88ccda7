// SPDX-License-Identifier: Apache-2.0
// Bad input at tonic_top (docs/robustness.md): each cause is counted in its
// own counter, reported on status_o with its flow, and otherwise ignored
// (or clamped, or executed where the document says so). The scoreboard is a
// second run of the same scenario without the bad input: an ignored rx
// event must leave every output bit-for-bit and cycle-for-cycle the same;
// an ignored ctrl op (which may take a ctrl slot and, as an ADD, one cycle
// of next-seg) every flow's address sequence and final state the same.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include TONIC_REFERENCE_HEADER  // the reference protocol's 1024x128 build (CMakeLists.txt)
#include "Vtonic_rate_probe_16x128.h"
#include "Vtonic_token_probe_16x128.h"
#include "tonic/rx_beat.hpp"
#include "common/report_merge.hpp"
#include "tonic/sys_tb.hpp"

using namespace tonic;

namespace {

using Top = TONIC_REFERENCE_TOP;  // a window protocol: the reference protocol
constexpr uint32_t kFlows = 1024;
constexpr uint32_t kSegs = 400;        // segments posted per flow (two POSTs)
constexpr uint64_t kCycles = 9000;     // enough for every flow to finish
constexpr uint64_t kDelay = 60;        // ack delay of the ideal receiver

/// The flows of the scenario and their first segment index; flow 1023 runs
/// across 2^32, flow 0 is the one ids 1024 and 2048 would alias.
const std::vector<std::pair<uint32_t, uint32_t>> kScenario = {
    {0, 100}, {1, 5000}, {2, 70000}, {3, 0x7FFFFFF0u}, {5, 12}, {1023, 0xFFFFFF00u}};
constexpr uint32_t kIdle = 9;      // added, nothing posted (SACK-outside target)
constexpr uint32_t kRemoved = 7;   // added and removed before any traffic

uint32_t start_of(uint32_t f) {
  for (const auto& [g, s] : kScenario)
    if (g == f) return s;
  return 0;
}

struct FlowState {
  uint32_t wnd = 0, start = 0, next = 0;
  bool operator==(const FlowState& o) const { return wnd == o.wnd && start == o.start && next == o.next; }
};

struct Outcome {
  std::vector<SysSeg> segs;
  std::map<uint32_t, std::vector<std::pair<uint32_t, bool>>> per_flow;  // (idx, rtx) in order
  std::map<uint32_t, FlowState> state;
  std::vector<std::pair<uint64_t, SysStatus>> status;
  std::map<uint32_t, uint32_t> received;
  std::vector<uint32_t> stats;
  uint64_t errors = 0;
  std::string first_error;
  uint64_t remove_at = 0;  // the cycle the REMOVE was queued in
};

/// A bad input to inject at the first idle slot of its port at or after
/// `at`.
struct Inject {
  uint64_t at = 0;
  bool ctrl = false;
  SysRxCmd rx;
  CtrlCmd op;
};

Outcome run(const std::vector<Inject>& inj, uint32_t remove_flow_at = 0, uint64_t remove_cycle = 0) {
  SysTb<Top> tb(kFlows, 7);
  IdealAcker acker(kFlows, kDelay);
  Outcome out;
  tb.on_seg = [&](const SysSeg& s) {
    acker.on_seg(s);
    out.segs.push_back(s);
    out.per_flow[s.flow].push_back({s.idx, s.rtx});
  };
  tb.on_cycle = [&](Top& d) {
    const SysStatus st = sys_status(d.status_o);
    if (st.valid) out.status.push_back({tb.cycle(), st});
    acker.deliver(tb.cycle(), tb);
  };
  size_t ri = 0, ci = 0;
  std::vector<Inject> rx_inj, ctrl_inj;
  for (const auto& i : inj) (i.ctrl ? ctrl_inj : rx_inj).push_back(i);
  tb.on_idle_rx = [&](SysRxCmd& r) {
    if (ri >= rx_inj.size() || tb.cycle() < rx_inj[ri].at) return false;
    r = rx_inj[ri++].rx;
    return true;
  };
  tb.on_idle_ctrl = [&](CtrlCmd& k) {
    if (ci >= ctrl_inj.size() || tb.cycle() < ctrl_inj[ci].at) return false;
    k = ctrl_inj[ci++].op;
    return true;
  };
  tb.add(kRemoved, 0, 1000);
  tb.remove(kRemoved);
  tb.add(kIdle, 300, 1000);
  for (const auto& [f, s] : kScenario) {
    tb.add(f, s, 1000);
    acker.open(f, s);
    tb.post(f, s + kSegs / 2, 1000);
  }
  bool second = false;
  for (uint64_t c = 0; c < kCycles; ++c) {
    if (!second && c == 1500) {
      for (const auto& [f, s] : kScenario) tb.post(f, s + kSegs, 1000);
      second = true;
    }
    if (remove_flow_at != 0 && c == remove_cycle) {
      tb.remove(remove_flow_at);
      out.remove_at = tb.cycle();
    }
    tb.step();
  }
  // Per-flow state through the probe port (registered: a few cycles each).
  for (uint32_t f : {0u, 1u, 2u, 3u, 5u, 1023u, kIdle}) {
    tb.dut().probe_flow_i = f;
    tb.run(3);
    out.state[f] = {tb.dut().probe_wnd_o, tb.dut().probe_start_o, tb.dut().probe_next_o};
  }
  for (const auto& [f, s] : kScenario) out.received[f] = acker.received(f);
  for (int i = 0; i <= static_cast<int>(DdStat::kWdogTrips); ++i) out.stats.push_back(tb.stat(static_cast<DdStat>(i)));
  out.errors = tb.errors();
  out.first_error = tb.first_error();
  INFO(out.first_error);
  REQUIRE(ri == rx_inj.size());
  REQUIRE(ci == ctrl_inj.size());
  return out;
}

Inject rx_at(uint64_t at, SysRxCmd r) {
  Inject i;
  i.at = at;
  i.rx = r;
  return i;
}

Inject ctrl_at(uint64_t at, CtrlOp op, uint32_t f, uint32_t seq, uint32_t len) {
  Inject i;
  i.at = at;
  i.ctrl = true;
  i.op = {op, f, seq, len};
  return i;
}

uint32_t dd_stat(const Outcome& o, DdStat s) { return o.stats[static_cast<int>(s)]; }

/// The baseline, run once.
const Outcome& baseline() {
  static const Outcome b = run({});
  return b;
}

/// Adds one case's figures to build/reports/robustness.json.
void report(const std::string& key, const nlohmann::json& entry) {
  report_merge(TONIC_SOURCE_DIR, "robustness", "tb/unit/robust/test_robust.cpp (ctest -L robust)", "", key, entry);
}

}  // namespace

TEST_CASE("robust: the baseline completes every flow (across 2^32 too) with no bad-input event",
          "[robust]") {
  const Outcome& b = baseline();
  INFO(b.first_error);
  REQUIRE(b.errors == 0);
  for (const auto& [f, s] : kScenario) CHECK(b.received.at(f) == s + kSegs);
  CHECK(b.status.empty());
  for (int i = static_cast<int>(DdStat::kCtrlBad); i <= static_cast<int>(DdStat::kWdogTrips); ++i) {
    if (i == static_cast<int>(DdStat::kTimeouts)) continue;
    INFO("counter word " << i);
    CHECK(b.stats[i] == 0);
  }
  // The window: the flight never exceeds W (next - start <= 128).
  for (const auto& [f, st] : b.state) CHECK(st.next - st.start <= 128u);
}

TEST_CASE("robust: ignored rx events leave every output cycle-for-cycle unchanged", "[robust]") {
  const Outcome& b = baseline();
  // (cause, flow as reported) expected per injection, in order.
  std::vector<Inject> inj;
  std::vector<std::pair<RxErr, uint32_t>> want;
  auto add = [&](uint64_t at, SysRxCmd r, RxErr e, uint32_t shown) {
    inj.push_back(rx_at(at, r));
    want.push_back({e, shown});
  };
  for (uint64_t t = 1200; t < 9000; t += 400) {
    add(t, rx_cmd(900, RxType::kAck, 5), RxErr::kUnknown, 900);                         // never added
    add(t + 10, rx_cmd(kRemoved, RxType::kAck, 1), RxErr::kUnknown, kRemoved);          // removed
    add(t + 20, rx_cmd(1024, RxType::kAck, start_of(0) + 50), RxErr::kRange, 1024);     // aliases flow 0
    add(t + 30, rx_cmd(65535, RxType::kSack, 3, true, 4), RxErr::kRange, 65535);
    add(t + 40, rx_cmd(1, RxType::kAck, start_of(1) + 5000), RxErr::kAck, 1);           // never sent
    add(t + 50, rx_cmd(2, RxType::kAck, start_of(2) - 3), RxErr::kStale, 2);            // old ack
    add(t + 60, rx_cmd(3, RxType::kNack, start_of(3) - 1), RxErr::kStale, 3);           // old NACK
    add(t + 70, rx_cmd(5, static_cast<RxType>(6), start_of(5)), RxErr::kType, 5);
    add(t + 80, rx_cmd(1023, static_cast<RxType>(7), 0), RxErr::kType, 1023);
    add(t + 90, rx_cmd(kIdle, RxType::kSack, 300, true, 123456), RxErr::kSack, kIdle);  // outside [300, 300)
    add(t + 100, rx_cmd(1023, RxType::kAck, start_of(1023) + 0x80000000u), RxErr::kAck, 1023);
  }
  const Outcome o = run(inj);
  INFO(o.first_error);
  REQUIRE(o.errors == 0);
  REQUIRE(o.segs.size() == b.segs.size());
  for (size_t i = 0; i < b.segs.size(); ++i) {
    INFO("address " << i);
    REQUIRE(o.segs[i].cycle == b.segs[i].cycle);
    REQUIRE(o.segs[i].flow == b.segs[i].flow);
    REQUIRE(o.segs[i].idx == b.segs[i].idx);
    REQUIRE(o.segs[i].rtx == b.segs[i].rtx);
  }
  for (const auto& [f, st] : b.state) CHECK(o.state.at(f) == st);
  // Every injection: one status word with its cause and flow, in order.
  REQUIRE(o.status.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("event " << i);
    CHECK(o.status[i].second.rx == want[i].first);
    CHECK(o.status[i].second.rx_flow == want[i].second);
    CHECK(o.status[i].second.ctrl == CtrlErr::kNone);
  }
  std::map<RxErr, uint32_t> n;
  for (const auto& w : want) ++n[w.first];
  CHECK(dd_stat(o, DdStat::kRxUnknownFlow) == n[RxErr::kUnknown]);
  CHECK(dd_stat(o, DdStat::kRxFlowRange) == n[RxErr::kRange]);
  CHECK(dd_stat(o, DdStat::kRxBadAck) == n[RxErr::kAck]);
  CHECK(dd_stat(o, DdStat::kRxStaleAck) == n[RxErr::kStale]);
  CHECK(dd_stat(o, DdStat::kRxBadType) == n[RxErr::kType]);
  CHECK(dd_stat(o, DdStat::kRxBadSack) == n[RxErr::kSack]);
  nlohmann::json j;
  j["injected"] = inj.size();
  j["addresses_compared"] = b.segs.size();
  j["cycles"] = kCycles;
  j["counted"] = {{"rx_unknown_flow", dd_stat(o, DdStat::kRxUnknownFlow)},
                  {"rx_flow_range", dd_stat(o, DdStat::kRxFlowRange)},
                  {"rx_bad_ack", dd_stat(o, DdStat::kRxBadAck)},
                  {"rx_stale_ack", dd_stat(o, DdStat::kRxStaleAck)},
                  {"rx_bad_type", dd_stat(o, DdStat::kRxBadType)},
                  {"rx_bad_sack", dd_stat(o, DdStat::kRxBadSack)}};
  j["status_events"] = o.status.size();
  report("rx_ignored", j);
}

TEST_CASE("robust: ignored ctrl ops leave every flow's addresses and state unchanged", "[robust]") {
  const Outcome& b = baseline();
  std::vector<Inject> inj;
  std::vector<std::pair<CtrlErr, uint32_t>> want;
  auto add = [&](uint64_t at, CtrlOp op, uint32_t f, uint32_t seq, uint32_t len, CtrlErr e) {
    inj.push_back(ctrl_at(at, op, f, seq, len));
    want.push_back({e, f});
  };
  for (uint64_t t = 1200; t < 9000; t += 700) {
    add(t, CtrlOp::kAdd, 1, 77, 64, CtrlErr::kAddPresent);                       // duplicate ADD
    add(t + 5, CtrlOp::kPost, 900, 10, 1000, CtrlErr::kAbsent);
    add(t + 10, CtrlOp::kRemove, 901, 0, 0, CtrlErr::kAbsent);
    add(t + 15, CtrlOp::kPost, 2, start_of(2) + 5, 1000, CtrlErr::kPostRange);     // backwards
    add(t + 20, CtrlOp::kPost, 3, start_of(3) + 0x40001000u, 1000, CtrlErr::kPostRange);  // > 2^30 ahead
    add(t + 25, static_cast<CtrlOp>(3), 5, 0, 0, CtrlErr::kBadOp);
    add(t + 30, CtrlOp::kAdd, 1024, 0, 1000, CtrlErr::kRange);                     // aliases flow 0
    add(t + 35, CtrlOp::kRemove, 2048 + 1023, 0, 0, CtrlErr::kRange);             // aliases 1023
    add(t + 40, CtrlOp::kPost, 65535, 1, 1, CtrlErr::kRange);
  }
  const Outcome o = run(inj);
  INFO(o.first_error);
  REQUIRE(o.errors == 0);
  REQUIRE(o.per_flow.size() == b.per_flow.size());
  for (const auto& [f, seq] : b.per_flow) {
    INFO("flow " << f);
    CHECK(o.per_flow.at(f) == seq);
  }
  for (const auto& [f, st] : b.state) CHECK(o.state.at(f) == st);
  for (const auto& [f, s] : kScenario) CHECK(o.received.at(f) == s + kSegs);
  REQUIRE(o.status.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("event " << i);
    CHECK(o.status[i].second.ctrl == want[i].first);
    CHECK(o.status[i].second.ctrl_flow == want[i].second);
    CHECK(o.status[i].second.rx == RxErr::kNone);
  }
  std::map<CtrlErr, uint32_t> n;
  for (const auto& w : want) ++n[w.first];
  CHECK(dd_stat(o, DdStat::kCtrlAddPresent) == n[CtrlErr::kAddPresent]);
  CHECK(dd_stat(o, DdStat::kCtrlAbsent) == n[CtrlErr::kAbsent]);
  CHECK(dd_stat(o, DdStat::kCtrlPostRange) == n[CtrlErr::kPostRange]);
  CHECK(dd_stat(o, DdStat::kCtrlBadOp) == n[CtrlErr::kBadOp]);
  CHECK(dd_stat(o, DdStat::kCtrlFlowRange) == n[CtrlErr::kRange]);
  CHECK(dd_stat(o, DdStat::kCtrlBad) == inj.size());
  nlohmann::json j;
  j["injected"] = inj.size();
  j["counted"] = {{"ctrl_add_present", dd_stat(o, DdStat::kCtrlAddPresent)},
                  {"ctrl_absent", dd_stat(o, DdStat::kCtrlAbsent)},
                  {"ctrl_post_range", dd_stat(o, DdStat::kCtrlPostRange)},
                  {"ctrl_bad_op", dd_stat(o, DdStat::kCtrlBadOp)},
                  {"ctrl_flow_range", dd_stat(o, DdStat::kCtrlFlowRange)},
                  {"ctrl_bad", dd_stat(o, DdStat::kCtrlBad)}};
  j["status_events"] = o.status.size();
  report("ctrl_ignored", j);
}

TEST_CASE("robust: REMOVE with data in flight is executed, counted, and touches no other flow",
          "[robust]") {
  const Outcome& b = baseline();
  const Outcome o = run({}, 5, 800);
  INFO(o.first_error);
  REQUIRE(o.errors == 0);
  for (const auto& [f, seq] : b.per_flow) {
    if (f == 5) continue;
    INFO("flow " << f);
    CHECK(o.per_flow.at(f) == seq);
  }
  CHECK(dd_stat(o, DdStat::kCtrlRemoveUnacked) == 1);
  CHECK(dd_stat(o, DdStat::kCtrlAbsent) == 1);  // the scenario's second POST of flow 5
  CHECK(dd_stat(o, DdStat::kCtrlBad) == 1);
  // Flow 5 stops: at most RingN queued addresses leave after the REMOVE
  // takes effect (two cycles after it is queued).
  size_t after = 0;
  for (const auto& s : o.segs)
    if (s.flow == 5 && s.cycle > o.remove_at + 2) ++after;
  CHECK(after <= 16);
  CHECK(o.per_flow.at(5).size() < b.per_flow.at(5).size());
  // Its acks still in the network are unknown-flow events now.
  CHECK(dd_stat(o, DdStat::kRxUnknownFlow) >= 1);
  REQUIRE(!o.status.empty());
  CHECK(o.status[0].second.ctrl == CtrlErr::kRemoveUnacked);
  CHECK(o.status[0].second.ctrl_flow == 5);
  for (size_t i = 1; i < o.status.size(); ++i) {
    const SysStatus& st = o.status[i].second;
    INFO("event " << i);
    CHECK((st.rx == RxErr::kNone || (st.rx == RxErr::kUnknown && st.rx_flow == 5)));
    CHECK((st.ctrl == CtrlErr::kNone || (st.ctrl == CtrlErr::kAbsent && st.ctrl_flow == 5)));
  }
  report("remove_unacked", {{"remove_unacked", dd_stat(o, DdStat::kCtrlRemoveUnacked)},
                            {"late_acks_unknown", dd_stat(o, DdStat::kRxUnknownFlow)},
                            {"addresses_after_remove", after}});
}

TEST_CASE("robust: the watchdog trips once per stall of wdog_limit_i cycles", "[robust]") {
  SysTb<Top> tb(kFlows, 3);
  IdealAcker acker(kFlows, 40);
  std::vector<std::pair<uint64_t, SysStatus>> ev;
  bool hold = false;
  tb.on_seg = [&](const SysSeg& s) { acker.on_seg(s); };
  tb.on_cycle = [&](Top& d) {
    const SysStatus st = sys_status(d.status_o);
    if (st.valid) ev.push_back({tb.cycle(), st});
    acker.deliver(tb.cycle(), tb);
  };
  tb.add(4, 0, 1000);
  acker.open(4, 0);
  tb.post(4, 1u << 20, 1000);
  tb.dut().wdog_limit_i = 1000;
  tb.run(500);
  // A stall of 999 cycles: no trip. The stall is driven by hand: SysTb
  // draws seg_ready_i itself, so ready probability 0 holds the stream.
  auto stall = [&](uint64_t n) {
    tb.set_ready_prob(0.0);
    tb.run(n);
    tb.set_ready_prob(1.0);
    tb.run(200);
  };
  (void)hold;
  stall(999);
  CHECK(tb.stat(DdStat::kWdogTrips) == 0);
  const uint64_t t0 = tb.cycle();
  stall(5000);
  CHECK(tb.stat(DdStat::kWdogTrips) == 1);
  stall(1000);
  CHECK(tb.stat(DdStat::kWdogTrips) == 2);
  tb.dut().wdog_limit_i = 0;  // off
  stall(3000);
  CHECK(tb.stat(DdStat::kWdogTrips) == 2);
  REQUIRE(ev.size() == 2);
  for (const auto& [c, st] : ev) CHECK(st.watchdog);
  // The first trip: the 1000th held cycle of the stall, reported a cycle later.
  CHECK(ev[0].first == t0 + 1000);
  REQUIRE(tb.errors() == 0);
  report("watchdog", {{"limit", 1000}, {"trips", tb.stat(DdStat::kWdogTrips)},
                      {"first_trip_cycle_after_stall_start", ev[0].first - t0}});
}

TEST_CASE("robust: posting beyond the window is accepted, the flight stays inside cwnd", "[robust]") {
  SysTb<Top> tb(kFlows, 5);
  IdealAcker acker(kFlows, 80);
  uint64_t bad = 0, max_flight = 0;
  tb.on_seg = [&](const SysSeg& s) { acker.on_seg(s); };
  tb.on_cycle = [&](Top& d) {
    const uint32_t flight = d.probe_next_o - d.probe_start_o;
    if (flight > d.probe_wnd_o || flight > 128) ++bad;
    if (flight > max_flight) max_flight = flight;
    acker.deliver(tb.cycle(), tb);
  };
  tb.dut().probe_flow_i = 6;
  tb.add(6, 0xFFFFF000u, 1000);  // crosses 2^32 too
  acker.open(6, 0xFFFFF000u);
  tb.post(6, 0xFFFFF000u + 100000, 1000);  // 100000 segments ahead, far beyond W = 128
  tb.run(20000);
  CHECK(bad == 0);
  CHECK(max_flight >= 64);
  std::printf("posting 100000 segments ahead: largest flight %llu segments (W = 128)\n",
              static_cast<unsigned long long>(max_flight));
  report("post_beyond_window", {{"posted_ahead", 100000}, {"largest_flight", max_flight}, {"window", 128},
                                {"cycles_flight_above_cwnd", bad}});
  CHECK(tb.stat(DdStat::kCtrlBad) == 0);
  CHECK(acker.received(6) - 0xFFFFF000u > 5000);
  REQUIRE(tb.errors() == 0);
}

TEST_CASE("robust: note queue overflow is reported with the flow", "[robust]") {
  SysTb<Top> tb(kFlows, 9);
  IdealAcker acker(kFlows, 30);
  std::vector<SysStatus> ev;
  tb.on_seg = [&](const SysSeg& s) { acker.on_seg(s); };
  tb.on_cycle = [&](Top& d) {
    d.note_ready_i = 0;  // the host takes no notes
    const SysStatus st = sys_status(d.status_o);
    if (st.valid) ev.push_back(st);
    acker.deliver(tb.cycle(), tb);
  };
  for (uint32_t f = 10; f < 16; ++f) {
    tb.add(f, 0, 1000);
    acker.open(f, 0);
    tb.post(f, 4, 1000);
  }
  tb.run(3000);
  CHECK(tb.stat(DdStat::kNoteDrops) == 2);  // 6 bursts complete, 4 notes fit
  REQUIRE(ev.size() == 2);
  for (const auto& st : ev) {
    CHECK(st.note_drop);
    CHECK(st.note_flow >= 10);
    CHECK(st.note_flow < 16);
  }
  REQUIRE(tb.errors() == 0);
}

TEST_CASE("robust: rate of 0 or above RateMax is clamped, counted and reported", "[robust]") {
  using Rate = Vtonic_rate_probe_16x128;
  SysTb<Rate> tb(16, 2);
  IdealAcker acker(16, 30);
  std::vector<SysStatus> ev;
  std::vector<uint64_t> sent(16, 0);
  tb.on_seg = [&](const SysSeg& s) {
    acker.on_seg(s);
    ++sent[s.flow];
  };
  tb.on_cycle = [&](Rate& d) {
    const SysStatus st = sys_status(d.status_o);
    if (st.valid) ev.push_back(st);
    acker.deliver(tb.cycle(), tb);
  };
  for (uint32_t f : {3u, 4u}) {
    tb.add(f, 0, 128);
    acker.open(f, 0);
    tb.post(f, 1u << 20, 128);
  }
  tb.run(100);
  tb.send_rx(rx_cmd(3, RxType::kCnp, 0));              // rate 0: clamped to 1 RU
  tb.send_rx(rx_cmd(4, RxType::kCnp, 0xFFFFFFFFu));    // above RateMax (2^30): clamped to it
  tb.run(400);
  const uint64_t s3 = sent[3], s4 = sent[4];
  tb.run(20000);
  CHECK(tb.credit_stat(CreditStat::kRateClamped) == 2);
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].rate_clamp);
  CHECK(ev[0].rate_flow == 3);
  CHECK(ev[1].rate_clamp);
  CHECK(ev[1].rate_flow == 4);
  // 1 RU: about one 128-B segment per 2^27 cycles, so nothing more after the
  // burst; RateMax: flow 4 keeps sending (it shares the output with nobody).
  CHECK(sent[3] - s3 <= 1);
  CHECK(sent[4] - s4 > 15000);
  REQUIRE(tb.errors() == 0);
}

TEST_CASE("robust: token overflow and stale pulls are reported with the flow", "[robust]") {
  using Tok = Vtonic_token_probe_16x128;
  SysTb<Tok> tb(16, 4);
  IdealAcker acker(16, 30);
  std::vector<SysStatus> ev;
  tb.on_seg = [&](const SysSeg& s) { acker.on_seg(s); };
  tb.on_cycle = [&](Tok& d) {
    const SysStatus st = sys_status(d.status_o);
    if (st.valid) ev.push_back(st);
    acker.deliver(tb.cycle(), tb);
  };
  tb.add(6, 0, 64);
  acker.open(6, 0);
  tb.run(50);
  SysRxCmd pull = rx_cmd(6, RxType::kPull, 0);
  pull.grant = 10;
  tb.send_rx(pull);
  tb.run(50);
  pull.grant = 9;  // stale: not after 10
  tb.send_rx(pull);
  tb.run(50);
  tb.send_rx(rx_cmd(6, RxType::kCnp, 65535));  // the probe adds 65535 tokens: cut at 65535 held
  tb.run(50);
  CHECK(tb.credit_stat(CreditStat::kPullStale) == 1);
  CHECK(tb.credit_stat(CreditStat::kTokExcess) == 1);
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].pull_stale);
  CHECK(ev[0].cred_flow == 6);
  CHECK(ev[1].tok_excess);
  CHECK(ev[1].cred_flow == 6);
  REQUIRE(tb.errors() == 0);
}
