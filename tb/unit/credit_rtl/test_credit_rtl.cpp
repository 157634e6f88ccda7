// SPDX-License-Identifier: Apache-2.0
// The credit gate of the rate and token schemes, in the whole sender.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "Vtonic_rate_probe_1024x128.h"
#include "Vtonic_rate_probe_16x128.h"
#include "Vtonic_token_probe_16x128.h"
#include "tonic/rng.hpp"
#include "tonic/sys_tb.hpp"

using namespace tonic;

namespace {

constexpr uint32_t kRu100G = 131072000;  // 100 Gb/s in RU (bytes per 2^20 cycles)

template <class Model>
struct RateRig {
  SysTb<Model> tb;
  IdealAcker acker;
  std::vector<std::vector<uint64_t>> rel;  // release cycles per flow
  explicit RateRig(uint32_t flows, uint64_t delay = 40) : tb(flows), acker(flows, delay), rel(flows) {
    tb.on_seg = [this](const SysSeg& s) {
      acker.on_seg(s);
      rel[s.flow].push_back(s.cycle);
    };
  }
  void start(uint32_t f, uint32_t seg, uint32_t rate_ru, uint32_t segments = 1u << 24) {
    tb.add(f, 0, seg);
    tb.post(f, segments, seg);
    acker.open(f, 0);
    SysRxCmd r;
    r.flow = f;
    r.type = SysRx::kCnp;
    r.cum_ack = rate_ru;
    pending_rate.push_back(r);
  }
  // Rates go out once the control queue has drained (the flows exist).
  std::vector<SysRxCmd> pending_rate;
  void step() {
    if (!pending_rate.empty() && tb.ctrl_idle()) {
      for (const auto& r : pending_rate) tb.send_rx(r);
      pending_rate.clear();
    }
    acker.deliver(tb.cycle(), tb);
    tb.step();
  }
  void run(uint64_t n) {
    for (uint64_t i = 0; i < n && tb.errors() == 0; ++i) step();
  }
};

}  // namespace

TEST_CASE("rate: one flow at the output's capacity sends >= 0.99 segments per cycle", "[credit_rtl][rate]") {
  RateRig<Vtonic_rate_probe_16x128> rig(16);
  // 128 B per cycle = 134,217,728 RU (102.4 Gb/s): one 128-B segment per cycle.
  rig.start(3, 128, 128u << 20);
  rig.run(2000);
  const uint64_t before = rig.rel[3].size();
  rig.run(20000);
  REQUIRE(rig.tb.errors() == 0);
  const double spc = double(rig.rel[3].size() - before) / 20000.0;
  std::printf("single flow, 128 B, rate = output capacity: %.4f segments/cycle\n", spc);
  CHECK(spc >= 0.99);
  CHECK(rig.tb.credit_stat(CreditStat::kWireHolds) == 0);  // no cut: the wire gate never holds
}

TEST_CASE("rate: one flow at exactly 100 Gb/s with 128-B segments gets 125/128 of the cycles", "[credit_rtl][rate]") {
  RateRig<Vtonic_rate_probe_16x128> rig(16);
  rig.start(5, 128, kRu100G);
  rig.run(2000);
  const uint64_t before = rig.rel[5].size();
  rig.run(20000);
  REQUIRE(rig.tb.errors() == 0);
  const double spc = double(rig.rel[5].size() - before) / 20000.0;
  std::printf("single flow, 128 B, 100 Gb/s: %.4f segments/cycle (exact: %.4f)\n", spc, 125.0 / 128.0);
  CHECK(spc == Approx(125.0 / 128.0).epsilon(0.01));
}

namespace {

struct AccRow {
  double rate_bps = 0;
  uint32_t seg = 0;
  double configured_Bpc = 0;  // bytes per cycle
  double measured_Bpc = 0;
  double error = 0;           // measured / configured - 1
  uint64_t segments = 0;      // releases measured over
  bool output_limited = false;
};

// The long-run rate of each flow: (k) segments between its first and its
// last release (k + 1 releases), in bytes per cycle.
template <class Rig>
void measure(Rig& rig, const std::vector<std::pair<double, uint32_t>>& combos, uint32_t first_flow,
             std::vector<AccRow>& out) {
  for (size_t i = 0; i < combos.size(); ++i) {
    const auto& r = rig.rel[first_flow + i];
    AccRow row;
    row.rate_bps = combos[i].first;
    row.seg = combos[i].second;
    const uint32_t ru = static_cast<uint32_t>(row.rate_bps / 8.0 / 100e6 * 1048576.0 + 0.5);
    row.configured_Bpc = ru / 1048576.0;
    REQUIRE(r.size() >= 2);
    row.segments = r.size() - 1;
    row.measured_Bpc = double(row.segments) * row.seg / double(r.back() - r.front());
    row.output_limited = row.configured_Bpc / row.seg > 1.0;
    row.error = row.measured_Bpc / row.configured_Bpc - 1.0;
    out.push_back(row);
  }
}

uint32_t ru_of(double bps) { return static_cast<uint32_t>(bps / 8.0 / 100e6 * 1048576.0 + 0.5); }

}  // namespace

TEST_CASE("rate: long-run accuracy at every decade 1 Mb/s..100 Gb/s and 64..9000-B segments",
          "[credit_rtl][rate][accuracy]") {
  const std::vector<uint32_t> sizes{64, 128, 1500, 9000};
  std::vector<AccRow> rows;
  {
    // 1 Mb/s .. 1 Gb/s together (16 flows, 4 Gb/s in all).
    RateRig<Vtonic_rate_probe_16x128> rig(16);
    std::vector<std::pair<double, uint32_t>> combos;
    for (double bps : {1e6, 1e7, 1e8, 1e9}) {
      for (uint32_t s : sizes) {
        const uint32_t f = static_cast<uint32_t>(combos.size());
        combos.push_back({bps, s});
        rig.start(f, s, ru_of(bps));
      }
    }
    // 1 Mb/s x 9000 B: one segment per 7.2 M cycles; two intervals.
    rig.run(15'000'000);
    REQUIRE(rig.tb.errors() == 0);
    measure(rig, combos, 0, rows);
  }
  {
    // 10 Gb/s x 4 sizes together (40 Gb/s in all).
    RateRig<Vtonic_rate_probe_16x128> rig(16);
    std::vector<std::pair<double, uint32_t>> combos;
    for (uint32_t s : sizes) {
      rig.start(static_cast<uint32_t>(combos.size()), s, ru_of(1e10));
      combos.push_back({1e10, s});
    }
    rig.run(200'000);
    REQUIRE(rig.tb.errors() == 0);
    measure(rig, combos, 0, rows);
  }
  for (uint32_t s : sizes) {
    // 100 Gb/s, one flow at a time (the output carries one segment a cycle).
    RateRig<Vtonic_rate_probe_16x128> rig(16);
    rig.start(0, s, ru_of(1e11));
    rig.run(200'000);
    REQUIRE(rig.tb.errors() == 0);
    measure(rig, {{1e11, s}}, 0, rows);
  }
  std::printf("%-10s %6s %14s %14s %9s %s\n", "rate", "seg B", "configured B/c", "measured B/c",
              "error %", "");
  for (const AccRow& r : rows) {
    std::printf("%-10.0e %6u %14.6f %14.6f %9.4f %s\n", r.rate_bps, r.seg, r.configured_Bpc,
                r.measured_Bpc, 100.0 * r.error, r.output_limited ? "(output-limited: 1 segment/cycle)" : "");
    if (r.output_limited) {
      // The output carries one segment per cycle.
      CHECK(r.measured_Bpc / r.seg == Approx(1.0).epsilon(0.01));
    } else {
      CHECK(std::abs(r.error) <= 0.01);
    }
  }
  // build/reports/rate_accuracy.json: every row, and the worst error per
  // decade over the rows the rate limits (docs/design/credit-schemes.md).
  nlohmann::json j;
  j["source"] = "tb/unit/credit_rtl/test_credit_rtl.cpp (tonic_rate_probe_16x128, RTL)";
  j["rows"] = nlohmann::json::array();
  std::map<double, double> worst;
  for (const AccRow& r : rows) {
    j["rows"].push_back({{"rate_bps", r.rate_bps}, {"segment_bytes", r.seg},
                         {"configured_bytes_per_cycle", r.configured_Bpc},
                         {"measured_bytes_per_cycle", r.measured_Bpc}, {"error", r.error},
                         {"segments", r.segments}, {"output_limited", r.output_limited}});
    if (!r.output_limited) worst[r.rate_bps] = std::max(worst[r.rate_bps], std::abs(r.error));
  }
  for (const auto& [bps, e] : worst) j["worst_abs_error_per_decade"].push_back({{"rate_bps", bps}, {"error", e}});
  const std::filesystem::path dir = std::filesystem::path(TONIC_SOURCE_DIR) / "build" / "reports";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "rate_accuracy.json") << j.dump(2) << "\n";
}

// A rate cut, measured on the wire. Credit is taken when the DD engine
// generates an address, not when the segment leaves (docs/design/
// credit-schemes.md), so what was granted before the cut still leaves after
// it: the permits the flow holds (<= 44 segments) and the addresses already
// generated and queued in the CR engine (<= RingN = 16 per flow; both
// together <= D/L, 2048 here), plus the
// credit the old rate earns before the update lands. The test measures the
// segments that leave after the cut and the cycles until the last of them
// (the cut-to-effect time), and checks them against that bound.
TEST_CASE("rate: a cut takes effect on the wire within the cut's latency, then the new rate",
          "[credit_rtl][rate]") {
  // One 128-B segment per cycle, then an RxCnp that sets 1 Mb/s (one
  // segment per 102,400 cycles). The cut voids the credit in hand: the
  // rate cell drops the DD engine's permits and the CR engine's wire gate
  // holds the addresses already queued, so only the segments released
  // before the revocation reached the gate leave (the update's path: DD
  // register, the cell's update set and 5 stages, the grant register, the
  // DD grant stage, the gate register; then the addresses past the gate).
  RateRig<Vtonic_rate_probe_16x128> rig(16);
  rig.start(2, 128, 128u << 20);
  rig.run(5000);
  const uint64_t cut = rig.tb.cycle();
  const size_t before = rig.rel[2].size();
  const uint32_t cuts0 = rig.tb.credit_stat(CreditStat::kRateCuts);
  SysRxCmd r;
  r.flow = 2;
  r.type = SysRx::kCnp;
  r.cum_ack = ru_of(1e6);
  rig.tb.send_rx(r);
  rig.run(20000);
  REQUIRE(rig.tb.errors() == 0);
  const auto& rel = rig.rel[2];
  const uint64_t after = rel.size() - before;
  const uint64_t last = after ? rel.back() - cut : 0;
  std::printf("rate cut on the wire: %llu segments left after the cut, the last %llu cycles after it; "
              "none at the new rate within 20,000 cycles; wire holds %u\n",
              static_cast<unsigned long long>(after), static_cast<unsigned long long>(last),
              rig.tb.credit_stat(CreditStat::kWireHolds));
  CHECK(rig.tb.credit_stat(CreditStat::kRateCuts) == cuts0 + 1);
  CHECK(rig.tb.credit_stat(CreditStat::kWireHolds) >= 1);
  // The rx event's own path to stage 2 (a few cycles) + the 10-cycle
  // update path + the addresses past the gate (<= 5), at one per cycle.
  CHECK(after <= 24);
  CHECK(last <= 24);
  // The new rate: the next segment comes L / R = 102,400 cycles after the
  // cut (within the wait's rounding), not before.
  rig.run(80000);  // 100,000 cycles after the cut
  CHECK(rel.size() - before == after);
  rig.run(10000);
  REQUIRE(rel.size() - before == after + 1);
  const uint64_t first_new = rel.back() - cut;
  std::printf("rate cut on the wire: the first segment at the new rate %llu cycles after the cut (L / R = 102,400)\n",
              static_cast<unsigned long long>(first_new));
  CHECK(first_new >= 102400);
  CHECK(first_new <= 102400 + 1000);
}

TEST_CASE("rate: updates take effect without losing or double-counting credit", "[credit_rtl][rate]") {
  // One backlogged flow of 128-B segments; its rate changes at random
  // times (1 Mb/s .. 100 Gb/s, log-uniform). The bytes sent by time t must
  // equal the integral of the rate up to t within a few segments (a late
  // wake-up, the update's own latency and the permits' granularity).
  const uint64_t seed = test_seed(7, "rate updates");
  RateRig<Vtonic_rate_probe_16x128> rig(16);
  Rng rng(seed);
  rig.start(1, 128, ru_of(1e9));
  rig.run(50);
  double integral = 0;  // bytes earned
  uint32_t rate = ru_of(1e9);
  uint64_t changes = 0;
  double worst = 0, over = 0;  // |sent - earned|, max(sent - earned)
  for (int phase = 0; phase < 60; ++phase) {
    const uint64_t len = rng.range(200, 20000);
    for (uint64_t i = 0; i < len; ++i) {
      rig.step();
      integral += rate / 1048576.0;
    }
    const double sent = double(rig.rel[1].size()) * 128.0;
    // The permits granted ahead (<= 44 segments) and the update latency
    // bound the difference; credit lost or counted twice would grow it.
    worst = std::max(worst, std::abs(sent - integral));
    over = std::max(over, sent - integral);
    const uint32_t next = ru_of(std::pow(10.0, rng.range(60, 110) / 10.0));
    // A cut voids the credit in hand: the account restarts from what was
    // sent, plus the old rate for the cut's latency (16 cycles: its path to
    // the wire gate and the addresses past it).
    if (next < rate) integral = sent + 16.0 * rate / 1048576.0;
    rate = next;
    SysRxCmd r;
    r.flow = 1;
    r.type = SysRx::kCnp;
    r.cum_ack = rate;
    rig.tb.send_rx(r);
    ++changes;
  }
  REQUIRE(rig.tb.errors() == 0);
  std::printf("rate updates: %llu changes, worst |sent - earned| = %.0f bytes, most sent beyond earned "
              "= %.0f bytes (TONIC_SEED=%llu)\n",
              static_cast<unsigned long long>(changes), worst, over, static_cast<unsigned long long>(seed));
  CHECK(worst <= 48.0 * 128.0);
  // Sent beyond earned: only the old rate's few cycles before an update
  // lands (<= 12 cycles at <= 125 B/cycle) and one segment.
  CHECK(over <= 12.0 * 125.0 + 128.0);
  // Every update reached the rate cell: the first rate and the 60 changes
  // (the last one a few cycles after the loop).
  rig.run(20);
  CHECK(rig.tb.credit_stat(CreditStat::kRateUpdates) == changes + 1);
}

namespace {

template <class Model>
struct TokRig {
  SysTb<Model> tb;
  IdealAcker acker;
  std::vector<uint64_t> sent;
  std::vector<uint64_t> last;  // the cycle of each flow's last segment
  explicit TokRig(uint32_t flows) : tb(flows), acker(flows, 20), sent(flows, 0), last(flows, 0) {
    tb.on_seg = [this](const SysSeg& s) {
      acker.on_seg(s);
      ++sent[s.flow];
      last[s.flow] = s.cycle;
    };
  }
  void run(uint64_t n) {
    for (uint64_t i = 0; i < n && tb.errors() == 0; ++i) {
      acker.deliver(tb.cycle(), tb);
      tb.step();
    }
  }
  void rx(uint32_t f, SysRx type, uint32_t cum, uint16_t grant) {
    SysRxCmd r;
    r.flow = f;
    r.type = type;
    r.cum_ack = cum;
    r.grant = grant;
    tb.send_rx(r);
  }
  // token_probe: an RxCnp with ecn sets the flow's credit to n tokens (a
  // revocation, TONIC_TOKEN_SET).
  void set(uint32_t f, uint16_t n) {
    SysRxCmd r;
    r.flow = f;
    r.type = SysRx::kCnp;
    r.cum_ack = n;
    r.ecn = true;
    tb.send_rx(r);
  }
};

}  // namespace

TEST_CASE("tokens: initial window, cumulative pulls, stale and lost pulls, protocol adds",
          "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  rig.tb.add(4, 1000, 256);
  rig.tb.post(4, 1100, 256);
  rig.acker.open(4, 1000);
  rig.run(300);
  CHECK(rig.sent[4] == 4);  // TokensInit
  rig.rx(4, SysRx::kPull, 0, 3);
  rig.run(300);
  CHECK(rig.sent[4] == 7);
  rig.rx(4, SysRx::kPull, 0, 2);  // stale: before 3
  rig.rx(4, SysRx::kPull, 0, 3);  // duplicate
  rig.run(300);
  CHECK(rig.sent[4] == 7);
  CHECK(rig.tb.credit_stat(CreditStat::kPullStale) == 2);
  rig.rx(4, SysRx::kPull, 0, 6);  // 4 and 5 were lost: 6 carries them
  rig.run(300);
  CHECK(rig.sent[4] == 10);
  rig.rx(4, SysRx::kCnp, 5, 0);   // the protocol adds 5 (tokens_o)
  rig.run(300);
  CHECK(rig.sent[4] == 15);
  // Pull numbers wrap (serial, 16 bits): 65534 is after 6 by 65528 >= 2^15,
  // so it is stale; 6 + 32767 is after.
  rig.rx(4, SysRx::kPull, 0, 65534);
  rig.run(100);
  CHECK(rig.sent[4] == 15);
  rig.rx(4, SysRx::kPull, 0, 6 + 20);
  rig.run(300);
  CHECK(rig.sent[4] == 35);
  REQUIRE(rig.tb.errors() == 0);
}

TEST_CASE("tokens: a grant for an idle flow is kept, tokens saturate, never wrap", "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  rig.tb.add(2, 0, 64);          // nothing posted yet
  rig.acker.open(2, 0);
  rig.run(50);
  rig.rx(2, SysRx::kPull, 0, 10);
  rig.run(300);
  CHECK(rig.sent[2] == 0);
  rig.tb.post(2, 100, 64);
  rig.run(400);
  CHECK(rig.sent[2] == 14);      // 4 initial + 10 pulled while idle
  // Saturation: 14 of 100 sent, 0 tokens left; add 65535 + 40 (two adds).
  rig.rx(2, SysRx::kCnp, 65535, 0);
  rig.rx(2, SysRx::kCnp, 40, 0);
  rig.run(50);
  CHECK(rig.tb.credit_stat(CreditStat::kTokExcess) >= 1);
  rig.tb.post(2, 70000, 64);
  rig.run(70000);
  CHECK(rig.sent[2] == 14 + 65535);  // never more than 65535 held
  REQUIRE(rig.tb.errors() == 0);
}

// A token set (a revocation), measured on the wire. token_probe sets the
// flow's credit on an RxCnp with ecn; the CR engine's wire gate (on for a
// protocol with TONIC_TOKEN_SET) sets the flow's wire permits to the count
// and hands the old ones back, so the addresses already queued wait too.
TEST_CASE("tokens: a set takes effect for the next segment on the wire, then exactly its count leaves",
          "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  rig.tb.add(5, 0, 128);
  rig.tb.post(5, 1u << 20, 128);
  rig.acker.open(5, 0);
  rig.run(40);
  rig.rx(5, SysRx::kCnp, 65535, 0);  // tokens in hand: one segment per cycle
  rig.run(3000);
  REQUIRE(rig.sent[5] >= 2900);
  const uint32_t holds0 = rig.tb.credit_stat(CreditStat::kWireHolds);
  CHECK(holds0 == 0);                // no set yet: the gate never holds
  const uint64_t t = rig.tb.cycle();
  const uint64_t s0 = rig.sent[5];
  rig.set(5, 0);
  rig.run(5000);
  REQUIRE(rig.tb.errors() == 0);
  const uint64_t after = rig.sent[5] - s0;
  const uint64_t last = after ? rig.last[5] - t : 0;
  std::printf("token set to 0 on the wire: %llu segments left after the set, the last %llu cycles after it; "
              "none within 5,000 cycles; wire holds %u\n",
              static_cast<unsigned long long>(after), static_cast<unsigned long long>(last),
              rig.tb.credit_stat(CreditStat::kWireHolds) - holds0);
  // The rx event's path to stage 2, the grant stage, the gate register,
  // then the addresses past the gate (<= 5), at one per cycle.
  CHECK(after <= 16);
  CHECK(last <= 16);
  CHECK(rig.tb.credit_stat(CreditStat::kWireHolds) > holds0);
  // A set to 7 with addresses still queued (a debt): exactly 7 leave.
  const uint64_t s1 = rig.sent[5];
  rig.set(5, 7);
  rig.run(3000);
  CHECK(rig.sent[5] - s1 == 7);
  // Adds and pulls after a set count as before.
  rig.rx(5, SysRx::kCnp, 3, 0);
  rig.run(3000);
  CHECK(rig.sent[5] - s1 == 10);
  rig.rx(5, SysRx::kPull, 0, 9);
  rig.run(3000);
  CHECK(rig.sent[5] - s1 == 19);
  // A set to 0 of a flow with nothing in hand changes nothing; the next
  // add sends again.
  rig.set(5, 0);
  rig.run(500);
  rig.rx(5, SysRx::kCnp, 4, 0);
  rig.run(3000);
  CHECK(rig.sent[5] - s1 == 23);
  REQUIRE(rig.tb.errors() == 0);
}

// Seeded random adds, pulls and sets on 4 flows, some while the flow sends
// at full speed. At every quiet point (a long run with no event) each
// flow's segments since its last set equal the set's count plus every
// token granted after it; a set that landed while the flow was sending
// may also let out the segments already past the gate (<= 16).
TEST_CASE("tokens: seeded random adds, pulls and sets: the wire matches the credit", "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  Rng rng(test_seed(0x70c5e7, "token sets"));
  struct F {
    uint64_t base = 0;     // sent at the last set's injection
    uint64_t credit = 0;   // the set's count + grants since (or all grants)
    uint64_t slack = 0;    // segments that may have left between a set and the gate
    uint16_t pull = 0;
  };
  std::vector<F> fl(4);
  for (uint32_t f = 0; f < 4; ++f) {
    rig.tb.add(f, f * 1000, 64);
    rig.tb.post(f, f * 1000 + (1u << 22), 64);
    rig.acker.open(f, f * 1000);
    fl[f].credit = 4;  // TokensInit
  }
  rig.run(60);
  uint64_t quiet = 0, sets = 0, busy_sets = 0;
  for (int step = 0; step < 400 && rig.tb.errors() == 0; ++step) {
    const uint32_t f = static_cast<uint32_t>(rng.below(4));
    F& v = fl[f];
    switch (rng.below(3)) {
      case 0: {
        const uint16_t n = static_cast<uint16_t>(rng.below(60));
        rig.rx(f, SysRx::kCnp, n, 0);
        v.credit += n;
        break;
      }
      case 1: {
        const uint16_t n = static_cast<uint16_t>(1 + rng.below(60));
        v.pull = static_cast<uint16_t>(v.pull + n);
        rig.rx(f, SysRx::kPull, 0, v.pull);
        v.credit += n;
        break;
      }
      default: {
        const uint16_t n = static_cast<uint16_t>(rng.below(40));
        // Sending now (credit left beyond what went out, or a segment in
        // the last 64 cycles: after a set that landed while sending, the
        // count is only known within its slack): the segments past the
        // gate may still leave.
        const bool busy = rig.sent[f] < v.base + v.credit || rig.tb.cycle() < rig.last[f] + 64;
        rig.set(f, n);
        v.base = rig.sent[f];
        v.credit = n;
        v.slack = busy ? 16 : 0;
        ++sets;
        busy_sets += busy;
        break;
      }
    }
    if (rng.below(4) != 0) {
      rig.run(rng.below(30));
    } else {
      // Quiet: run until no segment left for 300 cycles.
      uint64_t total = ~0ull;
      for (int k = 0; k < 200 && total != rig.tb.outs(); ++k) {
        total = rig.tb.outs();
        rig.run(300);
      }
      ++quiet;
      for (uint32_t g = 0; g < 4; ++g) {
        const F& w = fl[g];
        const uint64_t since = rig.sent[g] - w.base;
        INFO("step " << step << " flow " << g << " since the set " << since << " credit " << w.credit
                     << " slack " << w.slack);
        REQUIRE(since >= w.credit);
        REQUIRE(since <= w.credit + w.slack);
      }
    }
  }
  std::printf("token sets: %llu quiet checks, %llu sets (%llu while sending)\n",
              static_cast<unsigned long long>(quiet), static_cast<unsigned long long>(sets),
              static_cast<unsigned long long>(busy_sets));
  REQUIRE(rig.tb.errors() == 0);
  CHECK(quiet >= 50);
  CHECK(busy_sets >= 10);
}

namespace {

// Window and token credit on one flow (token_probe: an RxCnp with
// cum_ack = (wnd << 16) | tokens sets the window and adds tokens). Acks are
// the test's own (the flows are not opened in the acker), so the flight
// stays where the test puts it. After every step the engine must have sent
// exactly max(sent before, min(tokens granted, acked + window, posted))
// new segments: neither credit alone decides.
struct WinTok {
  uint32_t start = 0, posted = 0, acked = 0, wnd = 128, tokens = 4, pull = 0, sent = 0;
};

void cnp(TokRig<Vtonic_token_probe_16x128>& rig, uint32_t f, uint32_t wnd, uint32_t tokens) {
  rig.rx(f, SysRx::kCnp, (wnd << 16) | tokens, 0);
}

}  // namespace

TEST_CASE("tokens: a flow needs window and token credit together (directed)", "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  rig.tb.add(3, 0, 256);
  rig.tb.post(3, 1000, 256);
  rig.run(300);
  CHECK(rig.sent[3] == 4);   // TokensInit binds (window 128)
  cnp(rig, 3, 2, 100);       // window 2, 104 tokens: the flight (4) is over the window
  rig.run(300);
  CHECK(rig.sent[3] == 4);
  rig.rx(3, SysRx::kAck, 4, 0);
  rig.run(300);
  CHECK(rig.sent[3] == 6);   // the window binds
  rig.rx(3, SysRx::kAck, 6, 0);
  rig.run(300);
  CHECK(rig.sent[3] == 8);
  cnp(rig, 3, 64, 0);        // window 64: 6 + 64 = 70
  rig.run(400);
  CHECK(rig.sent[3] == 70);
  rig.rx(3, SysRx::kAck, 70, 0);
  rig.run(400);
  CHECK(rig.sent[3] == 104); // tokens bind again (window room 134)
  rig.rx(3, SysRx::kPull, 0, 5);
  rig.run(300);
  CHECK(rig.sent[3] == 109); // a pull is a token like any other
  REQUIRE(rig.tb.errors() == 0);
}

TEST_CASE("tokens: window and token credit together, seeded random steps on 4 flows", "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  Rng rng(test_seed(0x70c3a, "window+tokens"));
  uint64_t rtx = 0;
  rig.tb.on_seg = [&rig, &rtx](const SysSeg& s) {
    ++rig.sent[s.flow];
    rtx += s.rtx;
  };
  constexpr uint32_t kFlows = 4;
  std::vector<WinTok> fl(kFlows);
  for (uint32_t f = 0; f < kFlows; ++f) {
    fl[f].start = fl[f].acked = f * 1000;
    fl[f].sent = fl[f].start;
    fl[f].posted = fl[f].start + 400;
    rig.tb.add(f, fl[f].start, 128);
    rig.tb.post(f, fl[f].posted, 128);
  }
  rig.run(200);
  uint64_t checks = 0, window_bound = 0, token_bound = 0, data_bound = 0;
  for (int step = 0; step < 400 && rig.tb.errors() == 0; ++step) {
    const uint32_t f = static_cast<uint32_t>(rng.below(kFlows));
    WinTok& w = fl[f];
    const uint32_t sent = w.start + static_cast<uint32_t>(rig.sent[f]);
    switch (rng.below(5)) {
      case 0:
      case 1:  // an ack somewhere in what was sent
        if (sent > w.acked) {
          w.acked += 1 + static_cast<uint32_t>(rng.below(sent - w.acked));
          rig.rx(f, SysRx::kAck, w.acked, 0);
        }
        break;
      case 2: {  // tokens and maybe a new window
        const uint32_t tok = static_cast<uint32_t>(rng.below(24));
        const uint32_t wnd = rng.chance(0.6) ? static_cast<uint32_t>(rng.range(1, 48)) : 0;
        cnp(rig, f, wnd, tok);
        w.tokens += tok;
        if (wnd != 0) w.wnd = wnd;
        break;
      }
      case 3: {  // a pull, sometimes a jump over lost ones
        const uint32_t n = static_cast<uint32_t>(rng.range(1, 6));
        w.pull += n;
        w.tokens += n;
        rig.rx(f, SysRx::kPull, 0, static_cast<uint16_t>(w.pull));
        break;
      }
      default:  // more data
        w.posted += static_cast<uint32_t>(rng.range(1, 40));
        rig.tb.post(f, w.posted, 128);
        break;
    }
    rig.run(300);
    for (uint32_t g = 0; g < kFlows; ++g) {
      WinTok& v = fl[g];
      const uint32_t now_sent = v.start + static_cast<uint32_t>(rig.sent[g]);
      const uint32_t by_tok = v.start + v.tokens, by_wnd = v.acked + v.wnd;
      const uint32_t limit = std::min({by_tok, by_wnd, v.posted});
      // Sent never decreases: a shrunk window leaves the flight above it.
      const uint32_t want = std::max(limit, v.sent);
      INFO("step " << step << " flow " << g << " tokens " << v.tokens << " acked " << v.acked << " wnd "
                   << v.wnd << " posted " << v.posted << " sent before " << v.sent);
      CHECK(now_sent == want);
      if (want > v.sent) {
        window_bound += limit == by_wnd && by_wnd < by_tok && by_wnd < v.posted;
        token_bound += limit == by_tok && by_tok < by_wnd && by_tok < v.posted;
        data_bound += limit == v.posted && v.posted < by_tok && v.posted < by_wnd;
      }
      v.sent = now_sent;
      ++checks;
    }
  }
  std::printf("window + tokens: %llu checks; sends stopped by the window %llu, by the tokens %llu, by the data %llu\n",
              static_cast<unsigned long long>(checks), static_cast<unsigned long long>(window_bound),
              static_cast<unsigned long long>(token_bound), static_cast<unsigned long long>(data_bound));
  CHECK(window_bound >= 20);
  CHECK(token_bound >= 20);
  REQUIRE(rig.tb.errors() == 0);
  CHECK(rtx == 0);
}

TEST_CASE("rate: 1024 flows at 100 Gb/s each share the output at 1.00 segments per cycle",
          "[credit_rtl][rate]") {
  RateRig<Vtonic_rate_probe_1024x128> rig(1024, 20);
  for (uint32_t f = 0; f < 1024; ++f) rig.start(f, 1024, kRu100G);
  rig.run(8000);
  std::vector<uint64_t> before(1024);
  for (uint32_t f = 0; f < 1024; ++f) before[f] = rig.rel[f].size();
  const uint64_t total0 = rig.tb.outs();
  rig.run(50000);
  REQUIRE(rig.tb.errors() == 0);
  const double spc = double(rig.tb.outs() - total0) / 50000.0;
  uint64_t lo = ~0ull, hi = 0;
  for (uint32_t f = 0; f < 1024; ++f) {
    const uint64_t n = rig.rel[f].size() - before[f];
    lo = std::min(lo, n);
    hi = std::max(hi, n);
  }
  std::printf("1024 rate flows at 100 Gb/s: %.4f segments/cycle, per flow %llu..%llu segments\n", spc,
              static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi));
  CHECK(spc >= 0.99);
  CHECK(hi - lo <= 2);
  CHECK(rig.tb.credit_stat(CreditStat::kWireHolds) == 0);
}

TEST_CASE("tokens: flows holding tokens send 1.00 segments per cycle", "[credit_rtl][token]") {
  TokRig<Vtonic_token_probe_16x128> rig(16);
  for (uint32_t f = 0; f < 16; ++f) {
    rig.tb.add(f, f * 100, 512);
    rig.tb.post(f, f * 100 + 60000, 512);
    rig.acker.open(f, f * 100);
  }
  rig.run(40);
  for (uint32_t f = 0; f < 16; ++f) rig.rx(f, SysRx::kCnp, 65535, 0);  // tokens in hand
  rig.run(2000);
  const uint64_t out0 = rig.tb.outs();
  rig.run(20000);
  REQUIRE(rig.tb.errors() == 0);
  const double spc = double(rig.tb.outs() - out0) / 20000.0;
  std::printf("16 token flows with tokens: %.4f segments/cycle\n", spc);
  CHECK(spc >= 0.99);
}
