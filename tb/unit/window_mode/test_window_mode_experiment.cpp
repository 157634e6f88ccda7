// SPDX-License-Identifier: Apache-2.0
// The window-mode experiment on the plain-C++ models (docs/design/window-mode.md):
//  (a) reordering distance 64 with windows 32, 64 (and 128): delivered
//      throughput as a fraction of the same window without reordering;
//  (b) loss 0.1 - 0.5 %: message completion time of partial retransmission
//      (RESEND) and of whole-message retransmission (the counter
//      baseline), relative to loss-free.
// Prints both tables, writes build/reports/window_mode.json and checks the
// qualitative results (margins justified next to each check).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tonic/rng.hpp"
#include "window_mode_loop.hpp"
#include "window_mode_report.hpp"

using namespace tonic;
using namespace tonic::window_mode;

namespace {

// Scenario constants (docs/design/window-mode.md, "Scenario").
constexpr uint64_t kOneWay = 16;          // cycles each way: RTT 32 cycles (320 ns at 100 MHz)
constexpr uint32_t kGoBackAfter = 3;
// (a)
constexpr uint32_t kReorderCount = 4096;  // packets per message
constexpr uint64_t kReorderDist = 64;     // jitter U[0, 64] cycles at one packet per cycle
constexpr uint64_t kReorderTimeout = 160; // 2.5 x the reordering distance: reordering alone never fires it
constexpr uint32_t kReorderSeeds = 8;
// (b)
constexpr uint32_t kLossW = 128;
constexpr uint64_t kLossJitter = 8;
constexpr uint64_t kLossTimeout = 48;     // > jitter; T + RTT + jitter = 88 < W - 1 = 127
constexpr uint32_t kLossSeeds = 32;

const char* policy_name(BeyondAction a) {
  switch (a) {
    case BeyondAction::kBase: return "WBASE";
    case BeyondAction::kDropped: return "dropped";
    case BeyondAction::kBoth: return "WBASE+dropped";
  }
  return "?";
}

struct Mean {
  double done = 0, retx = 0, beyond = 0, timeouts = 0, go_backs = 0, restarts = 0;
  uint32_t incomplete = 0;
};

Mean run_mean(LoopConfig c, uint32_t seeds, uint64_t base_seed) {
  Mean m;
  for (uint32_t s = 0; s < seeds; ++s) {
    c.seed = base_seed + s;
    const LoopResult r = run_loop(c);
    if (!r.complete) ++m.incomplete;
    m.done += r.done_cycle;
    m.retx += r.tx.retransmits;
    m.beyond += r.rx.beyond_window;
    m.timeouts += r.rx.timeouts;
    m.go_backs += r.rx.go_backs;
    m.restarts += r.tx.restarts;
  }
  for (double* v : {&m.done, &m.retx, &m.beyond, &m.timeouts, &m.go_backs, &m.restarts}) *v /= seeds;
  return m;
}

struct ReorderRow {
  uint32_t w;
  BeyondAction policy;
  Mean ordered, reordered;
  double fraction() const { return ordered.done / reordered.done; }
};

struct LossRow {
  uint32_t count;
  double loss;
  Mean partial, partial_base, whole;
};

}  // namespace

TEST_CASE("window_mode: window-mode experiment, reordering 64 vs window and loss vs retransmission scheme",
          "[window_mode][stress]") {
  const uint64_t seed = test_seed(1, "window_mode experiment");
  CAPTURE(seed);

  // ---------------------------------------------------------------- (a)
  std::vector<ReorderRow> ra;
  for (BeyondAction p : {BeyondAction::kBase, BeyondAction::kDropped, BeyondAction::kBoth}) {
    for (uint32_t w : {32u, 64u, 128u}) {
      LoopConfig c;
      c.count = kReorderCount;
      c.w = w;
      c.delay = c.ctl_delay = kOneWay;
      c.timeout = kReorderTimeout;
      c.go_back_after = kGoBackAfter;
      c.beyond = p;
      ReorderRow row{w, p, {}, {}};
      c.jitter = 0;
      row.ordered = run_mean(c, kReorderSeeds, seed);
      c.jitter = kReorderDist;
      row.reordered = run_mean(c, kReorderSeeds, seed);
      ra.push_back(row);
    }
  }
  std::ostringstream ta;
  ta << "(a) reordering distance " << kReorderDist << ", " << kReorderCount << " packets, RTT "
     << 2 * kOneWay << ", T " << kReorderTimeout << ", mean of " << kReorderSeeds << " seeds from "
     << seed << "\n"
     << "| sender on beyond-window RESEND | W | cycles in order | cycles reordered | throughput vs in order | retransmissions | beyond-window drops | timeouts |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (const ReorderRow& r : ra)
    ta << "| " << policy_name(r.policy) << " | " << r.w << " | " << fmt("%.0f", r.ordered.done) << " | "
       << fmt("%.0f", r.reordered.done) << " | " << fmt("%.3f", r.fraction()) << " | "
       << fmt("%.0f", r.reordered.retx) << " | " << fmt("%.0f", r.reordered.beyond) << " | "
       << fmt("%.1f", r.reordered.timeouts) << " |\n";

  // ---------------------------------------------------------------- (b)
  std::vector<LossRow> rb;
  for (uint32_t n : {256u, 1024u}) {
    for (double loss : {0.0, 0.001, 0.002, 0.003, 0.005}) {
      LoopConfig c;
      c.count = n;
      c.w = kLossW;
      c.delay = c.ctl_delay = kOneWay;
      c.jitter = kLossJitter;
      c.timeout = kLossTimeout;
      c.go_back_after = kGoBackAfter;
      c.loss = loss;
      LossRow row{n, loss, {}, {}, {}};
      c.beyond = BeyondAction::kBoth;
      c.beyond_sack = true;
      row.partial = run_mean(c, kLossSeeds, seed);
      c.beyond = BeyondAction::kBase;  // the sender ignores sack_idx
      row.partial_base = run_mean(c, kLossSeeds, seed);
      c.recovery = Recovery::kWholeMessage;
      row.whole = run_mean(c, kLossSeeds, seed);
      rb.push_back(row);
    }
  }
  auto free_of = [&](uint32_t n) -> const LossRow& { return loss_free_row(rb, n); };
  std::ostringstream tb;
  tb << "(b) loss, W " << kLossW << ", jitter " << kLossJitter << ", RTT " << 2 * kOneWay << ", T "
     << kLossTimeout << ", mean of " << kLossSeeds << " seeds from " << seed
     << "; completion time relative to the same size loss-free\n"
     << "| packets | loss % | loss-free cycles | partial (WBASE+dropped) | partial (WBASE only) | whole message | partial retransmissions | whole restarts |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (const LossRow& r : rb) {
    const double f = free_of(r.count).partial.done;
    tb << "| " << r.count << " | " << fmt("%.1f", r.loss * 100) << " | " << fmt("%.0f", f) << " | "
       << fmt("%.3f", r.partial.done / f) << " | " << fmt("%.3f", r.partial_base.done / f) << " | "
       << fmt("%.2f", r.whole.done / f) << " | " << fmt("%.1f", r.partial.retx) << " | "
       << fmt("%.1f", r.whole.restarts) << " |\n";
  }
  std::cout << "\nwindow-mode experiment\n" << ta.str() << "\n" << tb.str() << std::flush;

  // ---------------------------------------------------------------- report
  nlohmann::json j =
      report_head("tb/unit/window_mode/test_window_mode_experiment.cpp (lib/tonic/window_mode.hpp, plain C++)", seed);
  j["config"] = {{"one_way_delay_cycles", kOneWay},
                 {"rtt_cycles", 2 * kOneWay},
                 {"pace_cycles_per_packet", 1},
                 {"go_back_after", kGoBackAfter},
                 {"holdoff_cycles", 2 * kOneWay},
                 {"reorder", {{"packets", kReorderCount},
                              {"jitter_cycles", kReorderDist},
                              {"resend_timeout", kReorderTimeout},
                              {"seeds", kReorderSeeds}}},
                 {"loss", {{"window", kLossW},
                           {"jitter_cycles", kLossJitter},
                           {"resend_timeout", kLossTimeout},
                           {"seeds", kLossSeeds}}}};
  j["reorder"] = nlohmann::json::array();
  for (const ReorderRow& r : ra)
    j["reorder"].push_back({{"window", r.w},
                            {"beyond_window_resend", policy_name(r.policy)},
                            {"cycles_in_order", r.ordered.done},
                            {"cycles_reordered", r.reordered.done},
                            {"throughput_fraction", r.fraction()},
                            {"retransmissions", r.reordered.retx},
                            {"beyond_window_drops", r.reordered.beyond},
                            {"timeouts", r.reordered.timeouts},
                            {"incomplete_runs", r.reordered.incomplete}});
  j["loss"] = nlohmann::json::array();
  for (const LossRow& r : rb) {
    const double f = free_of(r.count).partial.done;
    j["loss"].push_back({{"packets", r.count},
                         {"loss_rate", r.loss},
                         {"loss_free_cycles", f},
                         {"partial_cycles", r.partial.done},
                         {"partial_relative", r.partial.done / f},
                         {"partial_wbase_only_cycles", r.partial_base.done},
                         {"partial_wbase_only_relative", r.partial_base.done / f},
                         {"whole_cycles", r.whole.done},
                         {"whole_relative", r.whole.done / f},
                         {"partial_retransmissions", r.partial.retx},
                         {"partial_timeouts", r.partial.timeouts},
                         {"whole_restarts", r.whole.restarts},
                         {"incomplete_runs", r.partial.incomplete + r.partial_base.incomplete + r.whole.incomplete}});
  }
  write_report(j, "window_mode.json");

  // ---------------------------------------------------------------- checks
  for (const ReorderRow& r : ra) CHECK(r.reordered.incomplete == 0);
  for (const LossRow& r : rb) {
    CHECK(r.partial.incomplete == 0);
    CHECK(r.partial_base.incomplete == 0);
    CHECK(r.whole.incomplete == 0);
  }
  auto frac = [&](BeyondAction p, uint32_t w) {
    for (const ReorderRow& r : ra)
      if (r.policy == p && r.w == w) return r.fraction();
    return 0.0;
  };
  // (a) With the dropped packet resent (the reference scheme; alone or with
  // WBASE), measured over the seed sets 1, 1001, ..., 5001 (8 seeds each):
  // W 32 0.418-0.429, W 64 0.934-0.987, W 128 0.987. A window as large as
  // the reordering distance keeps nearly all of the throughput, half of it
  // loses more than half. W 64 varies with the rare ties (a packet 64 late
  // overtaken by one sent 64 later, ~1 per 8000 packets), each of which
  // costs a short burst of beyond-window drops. Floors: W 64 >= 0.85, at
  // least 0.30 above W 32 (0.51 measured at the least), W 128 >= 0.95.
  for (BeyondAction p : {BeyondAction::kDropped, BeyondAction::kBoth}) {
    INFO("policy " << policy_name(p));
    CHECK(frac(p, 64) >= 0.85);
    CHECK(frac(p, 64) - frac(p, 32) >= 0.30);
    CHECK(frac(p, 128) >= 0.95);
  }
  // (b) Partial retransmission (WBASE + dropped) at 0.5 %, seed sets 1,
  // 1001, ..., 4001 with the RTL's rules (window-mode.md, "Alignment with the
  // RTL"): 1.221-1.276 of loss-free (1024 packets), 1.297-1.445 (256). The
  // timer restarts on every delivery, so a loss is recovered when the
  // stream reaches WBASE + W and a beyond-window RESEND names it; about an
  // RTT of packets is dropped beyond the window meanwhile and resent one by
  // one. Ceilings 1.55 / 1.90 leave about twice the worst excess seen. Whole message at 0.5 %: 1024 packets need
  // 1/0.995^1024 ~ 170 attempts (measured 176-245 x loss-free, >= 165 x
  // partial), 256 packets ~3.6 (3.8-5.7 x loss-free, >= 3.3 x partial).
  // Floors: whole / partial >= 20 (1024) and >= 2 (256).
  for (const LossRow& r : rb) {
    if (r.loss != 0.005) continue;
    const double f = free_of(r.count).partial.done;
    INFO("packets " << r.count);
    CHECK(r.partial.done / f <= (r.count == 1024 ? 1.55 : 1.90));
    CHECK(r.whole.done / r.partial.done >= (r.count == 1024 ? 20.0 : 2.0));
  }
  // Partial stays below whole-message at every loss rate.
  for (const LossRow& r : rb)
    if (r.loss > 0) CHECK(r.partial.done < r.whole.done);
}
