// SPDX-License-Identifier: Apache-2.0
// Tests of SegmentScoreboard (lib/tonic/segment_scoreboard.hpp): a directed
// case per rule (a legal sequence passes; each illegal address fails with
// its message), the options (REMOVE policies, generation order, rules at
// generation, unknown POSTs), then a seeded random legal sequence that must
// pass and, with one address altered, fail.
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "tonic/rng.hpp"
#include "tonic/segment_scoreboard.hpp"

using tonic::ScoreboardOptions;
using tonic::SegmentScoreboard;
using Verdict = SegmentScoreboard::Verdict;
using AfterRemove = ScoreboardOptions::AfterRemove;

namespace {

/// The options of the strictest output-only rig (TonicTb's).
ScoreboardOptions strict(uint32_t w = 8) {
  ScoreboardOptions o;
  o.after_remove = AfterRemove::kReject;
  o.window = w;
  o.check_posted = true;
  o.check_len = true;
  return o;
}

bool has(const SegmentScoreboard& sb, const std::string& what) {
  return sb.first_error().find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("scoreboard: a legal sequence passes and is counted", "[scoreboard]") {
  SegmentScoreboard sb(4, strict());
  sb.add(0, 1, 100, 1000);
  REQUIRE(sb.post(1, 105, 17));
  CHECK(sb.segment(10, 1, 100, false, 1000) == Verdict::kCurrent);
  CHECK(sb.segment(11, 1, 101, false, 1000) == Verdict::kCurrent);
  CHECK(sb.segment(12, 1, 100, true, 1000) == Verdict::kCurrent);
  CHECK(sb.ack(1, 101));
  CHECK_FALSE(sb.ack(1, 103));  // beyond what was sent
  CHECK(sb.segment(13, 1, 102, false, 1000) == Verdict::kCurrent);
  CHECK(sb.segment(14, 1, 103, false, 1000) == Verdict::kCurrent);
  CHECK(sb.segment(15, 1, 104, false, 17) == Verdict::kCurrent);  // the last posted segment
  CHECK(sb.errors() == 0);
  CHECK(sb.flow(1).sent == 6);
  CHECK(sb.flow(1).rtx == 1);
  CHECK(sb.flow(1).first_out == 10);
  CHECK(sb.flow(1).last_out == 15);
  CHECK(sb.flow(1).snd_max == 105);
  CHECK(sb.flow(1).acked == 101);
  CHECK(sb.outs() == 6);
}

TEST_CASE("scoreboard: each rule fails with its message", "[scoreboard]") {
  auto fresh = [] {
    SegmentScoreboard sb(4, strict(4));
    sb.add(0, 2, 0xFFFFFFFEu, 64);  // across 2^32
    sb.post(2, 6, 9);
    return sb;
  };
  SECTION("a new segment out of order") {
    SegmentScoreboard sb = fresh();
    CHECK(sb.segment(5, 2, 0xFFFFFFFFu, false, 64) == Verdict::kBad);
    CHECK(has(sb, "cycle 5: flow 2 idx 4294967295 rtx 0 len 64: new segment is not the next one (4294967294)"));
  }
  SECTION("a repeated new segment") {
    SegmentScoreboard sb = fresh();
    sb.segment(5, 2, 0xFFFFFFFEu, false, 64);
    CHECK(sb.segment(6, 2, 0xFFFFFFFEu, false, 64) == Verdict::kBad);
    CHECK(has(sb, "new segment is not the next one"));
  }
  SECTION("beyond the posted data") {
    SegmentScoreboard sb(4, strict(100));
    sb.add(0, 0, 10, 64);
    sb.post(0, 11, 64);
    sb.segment(1, 0, 10, false, 64);
    CHECK(sb.segment(2, 0, 11, false, 64) == Verdict::kBad);
    CHECK(has(sb, "beyond the posted data (11)"));
  }
  SECTION("before the first segment") {
    SegmentScoreboard sb = fresh();
    sb.segment(5, 2, 0xFFFFFFFEu, false, 64);
    CHECK(sb.segment(6, 2, 0xFFFFFFFDu, true, 64) == Verdict::kBad);
    CHECK(has(sb, "before the first segment"));
  }
  SECTION("beyond the window") {
    SegmentScoreboard sb = fresh();
    for (uint32_t i = 0; i < 4; ++i) REQUIRE(sb.segment(5 + i, 2, 0xFFFFFFFEu + i, false, 64) == Verdict::kCurrent);
    CHECK(sb.segment(9, 2, 2, false, 64) == Verdict::kBad);
    CHECK(has(sb, "outside the largest window (acked 4294967294 + W 4)"));
  }
  SECTION("an ack opens the window") {
    SegmentScoreboard sb = fresh();
    for (uint32_t i = 0; i < 4; ++i) sb.segment(5 + i, 2, 0xFFFFFFFEu + i, false, 64);
    CHECK(sb.ack(2, 0));
    CHECK(sb.segment(9, 2, 2, false, 64) == Verdict::kCurrent);
    CHECK(sb.errors() == 0);
  }
  SECTION("a retransmission never sent") {
    SegmentScoreboard sb = fresh();
    sb.segment(5, 2, 0xFFFFFFFEu, false, 64);
    CHECK(sb.segment(6, 2, 0xFFFFFFFFu, true, 64) == Verdict::kBad);
    CHECK(has(sb, "retransmission of a segment never sent (next 4294967295)"));
  }
  SECTION("a wrong length") {
    SegmentScoreboard sb = fresh();
    CHECK(sb.segment(5, 2, 0xFFFFFFFEu, false, 65) == Verdict::kBad);
    CHECK(has(sb, "length should be 64"));
  }
  SECTION("a wrong length of the last posted segment") {
    SegmentScoreboard sb(4, strict(100));
    sb.add(0, 0, 0, 64);
    sb.post(0, 1, 9);
    CHECK(sb.segment(5, 0, 0, false, 64) == Verdict::kBad);
    CHECK(has(sb, "length should be 9"));
  }
  SECTION("an address of a flow never added") {
    SegmentScoreboard sb = fresh();
    CHECK(sb.segment(5, 3, 0, false, 64) == Verdict::kBad);
    CHECK(has(sb, "flow 3 idx 0 rtx 0 len 64: address of a flow never added"));
  }
  SECTION("a flow id out of range") {
    SegmentScoreboard sb = fresh();
    CHECK(sb.segment(5, 4, 0, false, 64) == Verdict::kBad);
    CHECK(has(sb, "flow id out of range (4 flows)"));
  }
  SECTION("an address after REMOVE (kReject)") {
    SegmentScoreboard sb = fresh();
    sb.remove(2);
    CHECK(sb.segment(5, 2, 0xFFFFFFFEu, false, 64) == Verdict::kBad);
    CHECK(has(sb, "address of a removed flow"));
  }
  SECTION("only the first violation is kept, all are counted") {
    SegmentScoreboard sb = fresh();
    sb.segment(5, 3, 0, false, 64);
    sb.segment(6, 2, 7, false, 64);
    CHECK(sb.errors() == 2);
    CHECK(has(sb, "cycle 5: flow 3"));
  }
  SECTION("bad control input is ignored") {
    SegmentScoreboard sb = fresh();
    sb.add(1, 2, 500, 10);                 // ADD of a present flow
    CHECK_FALSE(sb.post(2, 5, 9));         // POST backwards
    CHECK_FALSE(sb.post(3, 5, 9));         // POST of an absent flow
    sb.remove(3);                          // REMOVE of an absent flow
    sb.add(1, 9, 0, 10);                   // id out of range
    CHECK(sb.segment(5, 2, 0xFFFFFFFEu, false, 64) == Verdict::kCurrent);
    CHECK(sb.errors() == 0);
  }
}

TEST_CASE("scoreboard: draining after REMOVE, at most drain_limit", "[scoreboard]") {
  ScoreboardOptions o;
  o.after_remove = AfterRemove::kDrain;
  o.drain_limit = 2;
  o.check_posted = true;
  SegmentScoreboard sb(2, o);
  sb.add(0, 0, 10, 64);
  sb.post(0, 20, 64);
  sb.segment(1, 0, 10, false, 64);
  sb.remove(0);
  CHECK(sb.segment(2, 0, 11, false, 64) == Verdict::kDrained);  // checked like the rest
  CHECK(sb.segment(3, 0, 10, true, 64) == Verdict::kDrained);
  CHECK(sb.errors() == 0);
  CHECK(sb.segment(4, 0, 12, false, 64) == Verdict::kBad);
  CHECK(has(sb, "more than 2 addresses after its REMOVE"));
  SECTION("a drained address is still checked") {
    SegmentScoreboard s2(2, o);
    s2.add(0, 0, 10, 64);
    s2.post(0, 20, 64);
    s2.remove(0);
    CHECK(s2.segment(2, 0, 11, false, 64) == Verdict::kBad);
    CHECK(has(s2, "new segment is not the next one (10)"));
  }
  SECTION("a re-ADD starts afresh") {
    SegmentScoreboard s2(2, o);
    s2.add(0, 0, 10, 64);
    s2.post(0, 20, 64);
    s2.remove(0);
    s2.add(0, 0, 500, 64);
    s2.post(0, 510, 64);
    CHECK(s2.segment(2, 0, 500, false, 64) == Verdict::kCurrent);
    CHECK(s2.flow(0).sent == 1);
    CHECK(s2.errors() == 0);
  }
}

TEST_CASE("scoreboard: leftovers of a removed incarnation after the re-ADD", "[scoreboard]") {
  ScoreboardOptions o;
  o.after_remove = AfterRemove::kLeftovers;
  SegmentScoreboard sb(1, o);
  sb.add(0, 0, 0, 64);
  sb.segment(1, 0, 0, false, 64);
  sb.segment(2, 0, 1, false, 64);
  sb.remove(0);
  sb.add(3, 0, 1000, 64);  // seen at its handshake: the old queue still drains
  CHECK(sb.next_new(0) == 1000);
  CHECK(sb.segment(4, 0, 2, false, 64) == Verdict::kDrained);
  CHECK(sb.segment(5, 0, 1, true, 64) == Verdict::kDrained);
  CHECK(sb.errors() == 0);
  SECTION("the new incarnation takes over at its first index") {
    CHECK(sb.segment(6, 0, 1000, false, 64) == Verdict::kCurrent);
    CHECK(sb.segment(7, 0, 1001, false, 64) == Verdict::kCurrent);
    CHECK(sb.flow(0).total_out == 6);
    CHECK(sb.flow(0).sent == 2);
    CHECK(sb.errors() == 0);
    CHECK(sb.segment(8, 0, 3, false, 64) == Verdict::kBad);  // an old one after the switch
    CHECK(has(sb, "new segment is not the next one (1002)"));
  }
  SECTION("a leftover out of order fails") {
    CHECK(sb.segment(6, 0, 4, false, 64) == Verdict::kBad);
    CHECK(has(sb, "new segment is not the next one (3)"));
  }
  SECTION("a leftover retransmission never sent fails") {
    CHECK(sb.segment(6, 0, 5, true, 64) == Verdict::kBad);
    CHECK(has(sb, "retransmission of a segment never sent"));
  }
  SECTION("at most drain_limit leftovers") {
    ScoreboardOptions b = o;
    b.drain_limit = 1;
    SegmentScoreboard s2(1, b);
    s2.add(0, 0, 0, 64);
    s2.remove(0);
    s2.add(1, 0, 100, 64);
    CHECK(s2.segment(2, 0, 0, false, 64) == Verdict::kDrained);
    CHECK(s2.segment(3, 0, 1, false, 64) == Verdict::kBad);
    CHECK(has(s2, "more than 1 addresses after its REMOVE"));
  }
}

TEST_CASE("scoreboard: generation order", "[scoreboard]") {
  ScoreboardOptions o;
  o.generation_order = true;
  o.ring_n = 2;
  o.check_posted = true;
  o.check_len = true;
  SegmentScoreboard sb(2, o);
  sb.add(0, 0, 0, 100);
  sb.post(0, 3, 7);
  REQUIRE(sb.generated(1, 0, 0, false));
  REQUIRE(sb.generated(2, 0, 1, false));
  SECTION("in order passes") {
    CHECK(sb.segment(3, 0, 0, false, 100) == Verdict::kCurrent);
    CHECK(sb.segment(4, 0, 1, false, 100) == Verdict::kCurrent);
    CHECK(sb.queued(0).empty());
    CHECK(sb.errors() == 0);
  }
  SECTION("out of decision order fails") {
    sb.segment(3, 0, 0, false, 100);
    sb.generated(4, 0, 0, true);
    CHECK(sb.segment(5, 0, 0, true, 100) == Verdict::kBad);
    CHECK(has(sb, "not the flow's oldest decided address (1)"));
  }
  SECTION("an address never decided fails") {
    sb.segment(3, 0, 0, false, 100);
    sb.segment(4, 0, 1, false, 100);
    sb.ack(0, 2);
    CHECK(sb.segment(5, 0, 0, true, 100) == Verdict::kBad);
    CHECK(has(sb, "an address next-seg never decided"));
  }
  SECTION("the length is the one at the decision") {
    sb.segment(3, 0, 0, false, 100);
    sb.segment(4, 0, 1, false, 100);
    sb.generated(5, 0, 2, false);  // the last posted: 7
    sb.post(0, 10, 50);            // the decision keeps 7
    CHECK(sb.segment(6, 0, 2, false, 7) == Verdict::kCurrent);
    CHECK(sb.errors() == 0);
  }
  SECTION("more than RingN decided") {
    CHECK_FALSE(sb.generated(3, 0, 2, false));
    CHECK(has(sb, "more than RingN (2) addresses decided and not out"));
  }
  SECTION("a decision for a flow not present") {
    CHECK_FALSE(sb.generated(3, 1, 0, false));
    CHECK(has(sb, "next-seg decides flow 1 idx 0, not present"));
  }
  SECTION("an ADD with decisions queued") {
    sb.remove(0);
    sb.add(3, 0, 50, 100);
    CHECK(has(sb, "ADD of flow 0 executed with addresses of the flow still queued"));
  }
}

TEST_CASE("scoreboard: rules at generation, POSTs of unknown fate", "[scoreboard]") {
  ScoreboardOptions o;
  o.generation_order = true;
  o.rules_at_generation = true;
  o.check_posted = true;
  o.check_len = true;
  SegmentScoreboard sb(1, o);
  sb.add(0, 0, 0, 100);
  sb.post(0, 5, 7);
  CHECK(sb.generated(1, 0, 0, false));
  CHECK(sb.flow(0).snd_max == 1);  // advanced at the decision
  CHECK_FALSE(sb.generated(2, 0, 2, false));
  CHECK(has(sb, "next-seg decides flow 0 idx 2: new segment is not the next one (1)"));
  SegmentScoreboard s2(1, o);
  s2.add(0, 0, 0, 100);
  s2.post(0, 1, 7);
  s2.generated(1, 0, 0, false);
  CHECK_FALSE(s2.generated(2, 0, 1, false));
  CHECK(has(s2, "beyond the posted data (1)"));
  SegmentScoreboard s3(1, o);
  s3.add(0, 0, 0, 100);
  s3.post(0, 1, 7, false);  // the engine may or may not have taken it
  CHECK(s3.generated(1, 0, 0, false));
  CHECK(s3.generated(2, 0, 1, false));  // posted no longer checked
  CHECK(s3.segment(3, 0, 0, false, 55) == Verdict::kCurrent);  // nor lengths
  CHECK(s3.errors() == 0);
}

namespace {

/// A legal sender for the random test: flows added, posted, acked and
/// removed at random; new segments in order inside the window and the posted
/// data, retransmissions of what was sent, each decision leaving after a
/// random delay in its flow's order (so outputs of flows interleave).
struct RandomRun {
  static constexpr uint32_t kFlows = 6, kW = 16;
  struct F {
    bool on = false;
    uint32_t first = 0, next = 0, posted = 0, acked = 0, seg = 0, last = 0;
    uint32_t out_next = 0;  // one past the highest new segment out
    std::deque<tonic::ScoreDecision> q;  // decided, not out
  };

  /// Runs `steps` cycles; alters the `mutate_at`-th address (a
  /// retransmission shown as new, a new segment with index + 1).
  static SegmentScoreboard run(uint64_t seed, uint64_t steps, bool gen, uint64_t mutate_at = UINT64_MAX) {
    ScoreboardOptions o;
    o.after_remove = AfterRemove::kDrain;
    o.drain_limit = 8;
    o.window = kW;
    o.check_posted = true;
    o.check_len = true;
    o.generation_order = gen;
    o.ring_n = gen ? 8 : 0;
    SegmentScoreboard sb(kFlows, o);
    tonic::Rng rng(seed);
    std::vector<F> fl(kFlows);
    uint64_t outs = 0;
    for (uint64_t c = 0; c < steps; ++c) {
      const uint32_t f = static_cast<uint32_t>(rng.below(kFlows));
      F& x = fl[f];
      const uint64_t r = rng.below(100);
      if (r < 3 && !x.on && x.q.empty()) {
        x = F{};
        x.on = true;
        x.first = x.next = x.posted = x.acked = x.out_next = static_cast<uint32_t>(rng.chance(0.5) ? rng.bits64() : 0xFFFFFFF0u);
        x.seg = x.last = static_cast<uint32_t>(rng.range(1, 1500));
        sb.add(c, f, x.first, x.seg);
      } else if (r < 10 && x.on) {
        x.posted += static_cast<uint32_t>(rng.range(1, 20));
        x.last = static_cast<uint32_t>(rng.range(1, x.seg));
        REQUIRE(sb.post(f, x.posted, x.last));
      } else if (r < 20 && x.on && x.acked != x.out_next) {
        x.acked += static_cast<uint32_t>(rng.range(1, x.out_next - x.acked));
        const bool took = sb.ack(f, x.acked);
        if (mutate_at == UINT64_MAX) REQUIRE(took);  // (an altered address leaves the state behind)
      } else if (r < 21 && x.on) {
        x.on = false;
        sb.remove(f);
      } else if (r < 60 && x.on && x.q.size() < 8) {  // a decision
        tonic::ScoreDecision g;
        if (x.next != x.posted && x.next - x.acked < kW && rng.chance(0.8)) {
          g.idx = x.next++;
        } else if (x.next != x.first) {
          g.idx = x.first + static_cast<uint32_t>(rng.below(x.next - x.first));
          g.rtx = true;
        } else {
          continue;
        }
        g.len = g.idx + 1 == x.posted ? x.last : x.seg;
        x.q.push_back(g);
        if (gen) sb.generated(c, f, g.idx, g.rtx);
      } else if (!x.q.empty()) {  // the oldest decision leaves
        tonic::ScoreDecision g = x.q.front();
        x.q.pop_front();
        if (!gen) g.len = g.idx + 1 == x.posted ? x.last : x.seg;  // the state at the address
        if (!g.rtx) x.out_next = g.idx + 1;
        if (outs++ == mutate_at) {  // a repeated new segment, or a new one skipped
          if (g.rtx) sb.segment(c, f, g.idx, false, g.len);
          else sb.segment(c, f, g.idx + 1, false, g.len);
        } else {
          sb.segment(c, f, g.idx, g.rtx, g.len);
        }
      }
    }
    return sb;
  }
};

}  // namespace

TEST_CASE("scoreboard: a seeded random legal sequence passes, one altered address fails", "[scoreboard][random]") {
  TONIC_SEED(0x5c0eb0a2dull);
  for (const bool gen : {false, true}) {
    CAPTURE(gen);
    const SegmentScoreboard sb = RandomRun::run(tonic_seed_, 200'000, gen);
    INFO(sb.first_error());
    REQUIRE(sb.errors() == 0);
    REQUIRE(sb.outs() > 10'000);
    uint64_t rtx = 0;
    for (uint32_t f = 0; f < RandomRun::kFlows; ++f) rtx += sb.flow(f).total_rtx;
    CHECK(rtx > 0);
    tonic::Rng pick(tonic_seed_ + 1);
    for (int k = 0; k < 20; ++k) {
      const uint64_t at = pick.below(sb.outs());
      CAPTURE(at);
      const SegmentScoreboard bad = RandomRun::run(tonic_seed_, 200'000, gen, at);
      CHECK(bad.errors() > 0);
    }
  }
}
