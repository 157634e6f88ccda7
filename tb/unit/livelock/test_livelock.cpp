// SPDX-License-Identifier: Apache-2.0
// The live-lock experiment (docs/design/livelock.md): 4 MB
// messages of 1 KB segments at 1/256 independent loss through the whole
// sender (the participants' 16x128 models, livelock_runs.hpp). Go-back-0
// must live-lock (goodput ~ 0 while the link is busy); go-back-N and IRN
// must make progress. Writes build/reports/livelock.json and prints the
// table.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "tonic/rng.hpp"
#include "livelock_runs.hpp"

using namespace tonic;
using namespace tonic::livelock;

namespace {

/// Whether this tree can run the experiment: a participant for each role
/// (livelock_runs.hpp). A tree without a protocol of some role
/// (TONIC_ONLY_PROTOCOLS) cannot: the cases say so and check nothing; a
/// protocol of this tree with a role but no participant, or a participant
/// that is not a protocol's build, fails.
bool runnable() {
  const Cast c = cast();
  INFO("not a protocol's build: " << c.bad);
  REQUIRE(c.bad.empty());
  INFO("protocols with a role but no participant (protocols/<name>/tests/livelock.cpp): " << c.unregistered);
  REQUIRE(c.unregistered.empty());
  if (c.complete()) return true;
  WARN("live-lock experiment not run: this tree has no protocol for " << c.missing);
  return false;
}

void require_clean(const std::vector<Result>& rs) {
  for (const Result& r : rs) {
    INFO(r.protocol << ": " << r.first_error);
    REQUIRE(r.errors == 0);
  }
}

}  // namespace

// Floors (docs/design/livelock.md, "Pass criteria"), measured over seeds
// 1..12 at 16 messages: go-back-N 0.851..0.873, IRN 0.848..0.996.
//  - go-back-N wastes the segments sent between a loss and the NACK's
//    return, about one RTT at line rate (~33 segments measured), so
//    goodput ~ 1 / (1 + 33/256) = 0.89. The loss count of a run varies by
//    about 6 %, i.e. +-0.01 in goodput. 0.75 would need ~85 wasted
//    segments per loss, more than twice the RTT's worth.
//  - IRN retransmits only the lost segment (1 - 1/256), but a lost
//    retransmission waits for RTO_high (32,000 cycles, 5.5 % of a 16-message
//    run each); about one per run (Poisson, mean ~1.05). 0.70 allows 7 of
//    them (probability ~1e-4 for a random seed).
//  - go-back-0: (255/256)^4096 ~ 1.7e-7 per attempt: 1 % of line rate
//    would already be ~0.18 messages in the run.
constexpr double kGoBackNFloor = 0.75;
constexpr double kIrnFloor = 0.70;
constexpr double kGoBack0Ceiling = 0.01;

TEST_CASE("livelock: 4 MB messages at 1/256 loss, go-back-0 live-locks while go-back-N and IRN progress",
          "[livelock][stress]") {
  if (!runnable()) return;
  Config cfg;
  cfg.seed = test_seed(cfg.seed, "livelock");
  CAPTURE(cfg.seed);
  const std::vector<Result> rs = run_all(cfg);
  std::cout << "\nlive-lock experiment: " << cfg.messages << " x " << cfg.msg_segments << " x " << cfg.seg_bytes
            << " B, loss " << cfg.loss << ", one-way delay " << cfg.one_way << " cycles, seed " << cfg.seed
            << "\n"
            << table(rs) << std::flush;
  const std::filesystem::path dir = std::filesystem::path(TONIC_SOURCE_DIR) / "build" / "reports";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "livelock.json")
      << to_json(cfg, rs, "tb/unit/livelock/test_livelock.cpp (tonic_*_16x128, RTL)").dump(2) << "\n";
  require_clean(rs);

  const Result& gbn = rs[0];
  const Result& irn = rs[1];
  const Result& gb0 = rs[2];
  CHECK(gbn.messages == cfg.messages);
  CHECK(irn.messages == cfg.messages);
  CHECK(gbn.goodput() > kGoBackNFloor);
  CHECK(irn.goodput() > kIrnFloor);
  // Go-back-0 ran at least as long, kept the link busy and completed nothing.
  CHECK(gb0.cycles >= std::max(gbn.cycles, irn.cycles));
  CHECK(gb0.goodput() < kGoBack0Ceiling);
  CHECK(gb0.wire() > 0.9);
  CHECK(gb0.restarts > 100);
  // The channel dropped about 1/256 of what was sent.
  for (const Result& r : rs) {
    INFO(r.protocol);
    CHECK(r.observed_loss() == Approx(cfg.loss).epsilon(0.25));
  }
}

TEST_CASE("livelock: without loss every protocol delivers 4 MB messages at line rate", "[livelock][smoke]") {
  if (!runnable()) return;
  Config cfg;
  cfg.loss = 0;
  cfg.messages = 2;
  const std::vector<Result> rs = run_all(cfg);
  std::cout << "\nno loss:\n" << table(rs) << std::flush;
  require_clean(rs);
  CHECK(rs[0].goodput() > 0.99);
  CHECK(rs[1].goodput() > 0.99);
  // Go-back-0 runs as long as the others: its second message is a few
  // segments short of complete when the run ends.
  CHECK(rs[2].messages >= 1);
  CHECK(rs[2].restarts == 0);
  for (const Result& r : rs) CHECK(r.retransmissions == 0);
}

TEST_CASE("livelock: go-back-0 with 64 KB messages completes messages through driver restarts",
          "[livelock][smoke]") {
  if (!runnable()) return;
  // (255/256)^64 = 0.78 of the attempts are clean: the restart path (NACK,
  // REMOVE, ADD at the message start, POST) must deliver them.
  Config cfg;
  cfg.msg_segments = 64;
  cfg.messages = 200;
  cfg.seed = test_seed(7, "livelock 64 KB");
  CAPTURE(cfg.seed);
  const std::vector<Result> rs = run_all(cfg);
  std::cout << "\n64 KB messages:\n" << table(rs) << std::flush;
  require_clean(rs);
  const Result& gb0 = rs[2];
  CHECK(gb0.restarts > 10);
  CHECK(gb0.messages > 100);
  CHECK(gb0.goodput() > 0.5);  // measured ~0.82
}
