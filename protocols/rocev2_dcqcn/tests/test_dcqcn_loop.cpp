// SPDX-License-Identifier: Apache-2.0
// DCQCN closed loop without RTL (dcqcn_loop.hpp): two ideal
// rate-paced senders driven by the reference Rp (which the RTL equals value
// for value), one RED-marking 40 Gb/s switch queue, the RoCE receiver (CNP
// at most once per flow per 50 us), the delays of the RTL fairness test.
// Fast enough for the long runs and the several seeds that DCQCN's fairness
// needs: the per-flow shares wander by 10-30 % over 30-ms windows (also on
// the RTL, test_e2e_rdma), and only averages over seconds settle within 5 %.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "protocols/rocev2_dcqcn/tests/dcqcn_loop.hpp"
#include "tonic/rng.hpp"

using namespace tonic;
using namespace tonic::ref::dcqcn;

namespace {

/// The RTL fairness test's system: 40 Gb/s bottleneck, the DCQCN paper's
/// marking (Kmin 5 KB, Kmax 200 KB, Pmax 1 %), 1 KB segments, 1 us each
/// way, flow 1 starts 1 ms after flow 0, window 120 (InitWnd).
LoopConfig fair_config(uint64_t seed, uint64_t run) {
  LoopConfig c;
  c.run = run;
  c.start = {0, 100'000};
  c.sw.drain_q16 = uint64_t{50} << 16;  // 50 B/cycle = 40 Gb/s
  c.sw.kmin = 5'000;
  c.sw.kmax = 200'000;
  c.sw.pmax = 0.01;
  c.sw.seed = seed;
  return c;
}

double gbps(uint64_t bytes, uint64_t cycles) { return double(bytes) * 8.0 / (double(cycles) * 10e-9) / 1e9; }

/// (flow 0 - flow 1) / mean over the last `late` cycles, and the rates.
struct Share {
  double r0 = 0, r1 = 0, diff = 0;
};
Share share(const LoopResult& r, const LoopConfig& c, uint64_t late) {
  Share s;
  s.r0 = gbps(r.bytes(0, c.run - late, c.run, c.bin), late);
  s.r1 = gbps(r.bytes(1, c.run - late, c.run, c.bin), late);
  s.diff = (s.r0 - s.r1) / (0.5 * (s.r0 + s.r1));
  return s;
}

}  // namespace

TEST_CASE("dcqcn_loop: lossless, fills the bottleneck, follows the window and repeats per seed",
          "[dcqcn_loop][smoke]") {
  const LoopConfig c = fair_config(7, 2'000'000);
  const LoopResult a = DcqcnLoop(c).run();
  const LoopResult b = DcqcnLoop(c).run();
  CHECK(a.bins == b.bins);
  CHECK(a.cnps == b.cnps);
  const Share s = share(a, c, 1'500'000);
  CHECK(s.r0 + s.r1 >= 0.95 * 40.0);
  CHECK(s.r0 + s.r1 <= 40.0 + 1e-9);
  CHECK(a.nacks == 0);
  CHECK(a.drops == 0);
  CHECK(a.cnps[0] > 0);
  CHECK(a.cnps[1] > 0);
  // Two windows of 120 segments bound the queue: 240 KB minus what is on
  // the wires.
  CHECK(a.max_backlog <= 240u * 1024);
  // One flow alone at line rate with no marking goes at C = 100 Gb/s.
  LoopConfig one = c;
  one.start = {0};
  one.sw.ecn = false;
  one.sw.drain_q16 = uint64_t{125} << 16;
  one.window = 0;
  one.run = 500'000;
  const LoopResult o = DcqcnLoop(one).run();
  CHECK(std::abs(gbps(o.bytes(0, 100'000, 500'000, one.bin), 400'000) - 100.0) < 0.5);
}

// The requirement: two DCQCN flows sharing a marked bottleneck converge to
// within 5 % of each other. Measured as the average over the last 5.8 s of
// a 6-s run, for 4 seeds (about 5 s per seed; TONIC_SEED moves all four).
// At 2.8-s averages the spread is still about 2 % (8 seeds: worst 4.6 %),
// too close to the bound for a robust check. Shorter windows do not settle (printed: the last
// 30 ms): with these settings the AIMD-like restoring force of DCQCN is
// slow (the shares' 1-ms difference has a correlation time of 10-20 ms and
// a standard deviation of about 18 %), so a 5 % bound on 30-ms windows
// would fail for most seeds whatever the implementation.
TEST_CASE("dcqcn_loop: two DCQCN flows through one ECN-marking 40 Gb/s bottleneck converge within 5 % (5.8-s average, 4 seeds)",
          "[dcqcn_loop][fairness]") {
  TONIC_SEED(0x66616972);
  constexpr int kSeeds = 4;
  constexpr uint64_t kRun = 600'000'000, kLate = 580'000'000, kShort = 3'000'000;
  constexpr double kTol = 0.05;
  double worst = 0, sum = 0;
  int lead0 = 0;
  for (int k = 0; k < kSeeds; ++k) {
    const uint64_t seed = tonic_seed_ + uint64_t(k);
    const LoopConfig c = fair_config(seed, kRun);
    const LoopResult r = DcqcnLoop(c).run();
    const Share s = share(r, c, kLate), s30 = share(r, c, kShort);
    std::printf("dcqcn loop fairness (seed %llu): last 5.8 s: flow 0 %.3f Gb/s, flow 1 %.3f Gb/s (diff %+.2f %%), "
                "total %.2f Gb/s; last 30 ms: diff %+.2f %%; CNPs %llu / %llu, marks %llu, max backlog %llu B\n",
                (unsigned long long)seed, s.r0, s.r1, 100 * s.diff, s.r0 + s.r1, 100 * s30.diff,
                (unsigned long long)r.cnps[0], (unsigned long long)r.cnps[1], (unsigned long long)r.marks,
                (unsigned long long)r.max_backlog);
    CHECK(std::abs(s.diff) <= kTol);
    CHECK(s.r0 + s.r1 >= 0.95 * 40.0);
    CHECK(r.nacks == 0);
    worst = std::max(worst, std::abs(s.diff));
    sum += s.diff;
    lead0 += s.diff >= 0;
  }
  std::printf("dcqcn loop fairness: worst |diff| %.2f %%, mean signed diff %+.2f %%, flow 0 led in %d of %d\n",
              100 * worst, 100 * sum / kSeeds, lead0, kSeeds);
}

// The check above is not blind: a reaction point whose additive step is
// doubled for one flow (a per-flow parameter or state mix-up) takes about
// 56 % of the bottleneck, far outside 5 %.
TEST_CASE("dcqcn_loop: the fairness measure catches a flow whose additive step R_AI is doubled",
          "[dcqcn_loop][fairness][badinput]") {
  LoopConfig c = fair_config(1, 100'000'000);
  c.rp_flow = {c.rp, c.rp};
  c.rp_flow[1].rai_ru = 2 * c.rp.rai_ru;
  const LoopResult r = DcqcnLoop(c).run();
  const Share s = share(r, c, 80'000'000);
  std::printf("dcqcn loop, flow 1 with 2 x R_AI: last 0.8 s: flow 0 %.3f Gb/s, flow 1 %.3f Gb/s (diff %+.2f %%)\n", s.r0,
              s.r1, 100 * s.diff);
  CHECK(s.diff < -0.15);
}
