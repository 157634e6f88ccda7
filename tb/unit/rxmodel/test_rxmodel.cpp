// SPDX-License-Identifier: Apache-2.0
// Tests for the receiver-side models of the sender-core testbench
// (tb/common/ref/{seq,drop_model,tcp_receiver,link_model}.hpp): directed
// cases for every rule, then seeded random runs checked against a simple
// independent model (a std::set of received segments per flow).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "tonic/drop_model.hpp"
#include "tonic/link_model.hpp"
#include "tonic/seq.hpp"
#include "tonic/tcp_receiver.hpp"
#include "tonic/rng.hpp"

using namespace tonic;

namespace {

/// Delivers one segment and returns the acks it caused (timer acks first).
std::vector<AckEvent> feed(TcpReceiver& rx, uint64_t cycle, uint32_t flow, uint32_t seg) {
  rx.segment(cycle, flow, seg);
  return rx.take_acks();
}

std::vector<AckEvent> tick(TcpReceiver& rx, uint64_t cycle) {
  rx.advance(cycle);
  return rx.take_acks();
}

/// Checks one ack (SACK index only compared when `sack` is true).
void check_ack(const AckEvent& a, uint32_t flow, uint32_t cum, uint64_t cycle, AckCause cause,
               bool sack = false, uint32_t sack_idx = 0) {
  INFO("ack flow " << a.flow << " cum " << a.cum_ack << " sack " << a.sack_valid << "/"
                   << a.sack_idx << " cycle " << a.cycle << " cause " << to_string(a.cause));
  CHECK(a.flow == flow);
  CHECK(a.cum_ack == cum);
  CHECK(a.cycle == cycle);
  CHECK(a.cause == cause);
  CHECK(a.sack_valid == sack);
  if (sack) CHECK(a.sack_idx == sack_idx);
  CHECK_FALSE(a.ecn);
}

RxConfig per_segment(bool sack = false, uint32_t window = 128) {
  RxConfig c;
  c.window = window;
  c.sack = sack;
  return c;
}

RxConfig delayed(uint64_t timeout, bool sack = false, uint32_t window = 128) {
  RxConfig c = per_segment(sack, window);
  c.delayed_ack = true;
  c.delack_timeout = timeout;
  return c;
}

}  // namespace

// ---------------------------------------------------------------------------
// Serial numbers

TEST_CASE("rxmodel: serial compare wraps around 2^32", "[rxmodel][smoke]") {
  CHECK(seq_lt(1, 2));
  CHECK_FALSE(seq_lt(2, 1));
  CHECK_FALSE(seq_lt(7, 7));
  CHECK(seq_le(7, 7));
  CHECK(seq_lt(0xFFFF'FFFFu, 0));
  CHECK(seq_lt(0xFFFF'FF00u, 0x10));
  CHECK_FALSE(seq_lt(0x10, 0xFFFF'FF00u));
  CHECK(seq_gt(0x10, 0xFFFF'FF00u));
  CHECK(seq_ge(0, 0xFFFF'FFFFu));
  CHECK(seq_lt(0x7FFF'FFFFu, 0x8000'0000u));
  CHECK(seq_lt(0, 0x7FFF'FFFFu));
  CHECK_FALSE(seq_lt(0, 0x8000'0001u));  // more than 2^31 ahead reads as behind
  CHECK(seq_lt(0x8000'0001u, 0));
  CHECK(seq_dist(0xFFFF'FFFEu, 1) == 3);
  CHECK(seq_max(0xFFFF'FFFFu, 2) == 2);
}

// ---------------------------------------------------------------------------
// DropModel

TEST_CASE("rxmodel: drop list drops exactly the listed transmissions", "[rxmodel][smoke]") {
  DropModel m;
  m.drop_at(1, 10, 0);
  m.drop_at(1, 10, 2);
  m.drop_at(2, 0xFFFF'FFFFu, 1);
  CHECK_FALSE(m.offer(1, 9, false));
  CHECK(m.offer(1, 10, false));        // tx 0
  CHECK_FALSE(m.offer(0, 10, false));  // other flow
  CHECK_FALSE(m.offer(1, 10, true));   // tx 1
  CHECK(m.offer(1, 10, true));         // tx 2
  CHECK_FALSE(m.offer(1, 10, true));   // tx 3
  CHECK_FALSE(m.offer(2, 0xFFFF'FFFFu, false));
  CHECK(m.offer(2, 0xFFFF'FFFFu, true));
  CHECK_FALSE(m.offer(2, 0, false));
  CHECK(m.offered() == 9);
  CHECK(m.dropped() == 3);
  CHECK(m.hits_list() == 3);
  CHECK(m.transmissions_seen(1, 10) == 4);
  CHECK(m.transmissions_seen(1, 11) == 0);
}

TEST_CASE("rxmodel: every k-th drop counts globally or per flow", "[rxmodel][smoke]") {
  DropModel m;
  SECTION("global, all transmissions") {
    m.every_kth(3);
    std::vector<bool> got;
    for (uint32_t i = 0; i < 9; ++i) got.push_back(m.offer(i % 2, i, (i % 4) == 3));
    CHECK(got == std::vector<bool>{false, false, true, false, false, true, false, false, true});
    CHECK(m.dropped() == 3);
    CHECK(m.hits_every_kth() == 3);
  }
  SECTION("per flow") {
    m.every_kth_per_flow(2);
    // Flow 0: 1st, 2nd (drop), 3rd, 4th (drop); flow 1: 1st, 2nd (drop).
    CHECK_FALSE(m.offer(0, 0, false));
    CHECK_FALSE(m.offer(1, 0, false));
    CHECK(m.offer(0, 1, false));
    CHECK(m.offer(1, 1, false));
    CHECK_FALSE(m.offer(0, 2, false));
    CHECK_FALSE(m.offer(7, 0, false));
    CHECK(m.offer(0, 3, false));
    CHECK(m.dropped() == 3);
    CHECK(m.hits_every_kth_per_flow() == 3);
  }
  SECTION("originals only: retransmissions pass and do not count") {
    m.every_kth(2, DropScope::kOriginals);
    CHECK_FALSE(m.offer(0, 0, false));
    CHECK_FALSE(m.offer(0, 0, true));
    CHECK(m.offer(0, 1, false));
    CHECK_FALSE(m.offer(0, 1, true));
    CHECK_FALSE(m.offer(0, 1, true));
    CHECK_FALSE(m.offer(0, 2, false));
    CHECK(m.offer(0, 3, false));
    CHECK(m.dropped() == 2);
  }
  SECTION("global and per flow together") {
    m.every_kth(4);
    m.every_kth_per_flow(3);
    int drops = 0;
    for (uint32_t i = 0; i < 12; ++i) drops += m.offer(0, i, false) ? 1 : 0;
    // Global: 4, 8, 12; per flow: 3, 6, 9, 12 -> 12 counted once.
    CHECK(drops == 6);
    CHECK(m.dropped() == 6);
    CHECK(m.hits_every_kth() == 3);
    CHECK(m.hits_every_kth_per_flow() == 4);
  }
}

TEST_CASE("rxmodel: Bernoulli drops at rate p within statistical bounds, repeatable per seed",
          "[rxmodel][smoke]") {
  TONIC_SEED(0x5eed0001);
  constexpr uint64_t kN = 200'000;
  for (double p : {0.001, 0.01, 0.1, 0.5}) {
    DropModel m;
    m.bernoulli(p, tonic_seed_);
    uint64_t n = 0;
    for (uint64_t i = 0; i < kN; ++i) n += m.offer(static_cast<uint32_t>(i % 5), static_cast<uint32_t>(i), false) ? 1 : 0;
    const double mean = p * kN;
    const double sd = std::sqrt(kN * p * (1 - p));
    INFO("p " << p << " drops " << n << " expected " << mean << " +- 5 * " << sd);
    CHECK(std::fabs(double(n) - mean) <= 5 * sd);
    CHECK(m.dropped() == n);
    CHECK(m.hits_bernoulli() == n);
  }
  // Same seed: same decisions; another seed: different ones.
  auto run = [](uint64_t seed) {
    DropModel m;
    m.bernoulli(0.1, seed);
    std::vector<bool> v;
    for (uint32_t i = 0; i < 10'000; ++i) v.push_back(m.offer(i % 3, i, false));
    return v;
  };
  CHECK(run(tonic_seed_) == run(tonic_seed_));
  CHECK(run(tonic_seed_) != run(tonic_seed_ + 1));
  // Edges and scope.
  DropModel never, always, orig;
  never.bernoulli(0.0, 1);
  always.bernoulli(1.0, 1);
  orig.bernoulli(1.0, 1, DropScope::kOriginals);
  for (uint32_t i = 0; i < 1000; ++i) {
    CHECK_FALSE(never.offer(0, i, false));
    CHECK(always.offer(0, i, i % 2 == 0));
    CHECK(orig.offer(0, i, false));
    CHECK_FALSE(orig.offer(0, i, true));
  }
  CHECK_THROWS(never.bernoulli(1.5, 1));
}

TEST_CASE("rxmodel: drop rules combine and each drop is counted once", "[rxmodel][smoke]") {
  DropModel m;
  m.drop_at(0, 4, 0);  // the 5th offer
  m.drop_at(0, 6, 0);
  m.every_kth(5);
  std::vector<uint32_t> dropped;
  for (uint32_t s = 0; s < 10; ++s)
    if (m.offer(0, s, false)) dropped.push_back(s);
  CHECK(dropped == std::vector<uint32_t>{4, 6, 9});
  CHECK(m.offered() == 10);
  CHECK(m.dropped() == 3);
  CHECK(m.hits_list() == 2);
  CHECK(m.hits_every_kth() == 2);
}

// ---------------------------------------------------------------------------
// TcpReceiver

TEST_CASE("rxmodel: per-segment mode acks every in-order segment at once", "[rxmodel][smoke]") {
  TcpReceiver rx(per_segment(true));
  rx.open(0, 100);
  for (uint32_t i = 0; i < 5; ++i) {
    auto acks = feed(rx, 10 + i, 0, 100 + i);
    REQUIRE(acks.size() == 1);
    check_ack(acks[0], 0, 101 + i, 10 + i, AckCause::kPerSegment);  // in order: no SACK
  }
  CHECK(rx.rcv_nxt(0) == 105);
  CHECK(rx.held(0) == 0);
  CHECK(tick(rx, 100'000).empty());
  CHECK(rx.stats().acks == 5);
  CHECK(rx.stats().in_order == 5);
  // A flow never opened starts at 0.
  auto acks = feed(rx, 100'001, 9, 0);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 9, 1, 100'001, AckCause::kPerSegment);
}

TEST_CASE("rxmodel: delayed mode acks every 2nd in-order segment", "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(1000));
  rx.open(3);
  CHECK(feed(rx, 0, 3, 0).empty());
  CHECK(rx.unacked(3) == 1);
  auto acks = feed(rx, 1, 3, 1);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 3, 2, 1, AckCause::kDelayedCount);
  CHECK(rx.unacked(3) == 0);
  CHECK(rx.pending_timers() == 0);
  CHECK(feed(rx, 2, 3, 2).empty());
  acks = feed(rx, 5, 3, 3);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 3, 4, 5, AckCause::kDelayedCount);
  CHECK(tick(rx, 5000).empty());  // nothing left to ack

  SECTION("every 3rd with delack_count = 3") {
    RxConfig c = delayed(1000);
    c.delack_count = 3;
    TcpReceiver r3(c);
    CHECK(feed(r3, 0, 0, 0).empty());
    CHECK(feed(r3, 1, 0, 1).empty());
    acks = feed(r3, 2, 0, 2);
    REQUIRE(acks.size() == 1);
    check_ack(acks[0], 0, 3, 2, AckCause::kDelayedCount);
  }
}

TEST_CASE("rxmodel: delayed ack is sent when the timeout expires", "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(50));
  rx.open(0);
  CHECK(feed(rx, 100, 0, 0).empty());
  CHECK(rx.next_timer() == 150);
  CHECK(tick(rx, 149).empty());
  auto acks = tick(rx, 150);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 1, 150, AckCause::kTimer);
  CHECK(rx.pending_timers() == 0);

  // The 2nd segment acks at once and cancels the timer.
  CHECK(feed(rx, 200, 0, 1).empty());
  acks = feed(rx, 240, 0, 2);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 3, 240, AckCause::kDelayedCount);
  CHECK(tick(rx, 1000).empty());

  // A late call fires the timer (stamped with its deadline) before the
  // segment of that call is handled.
  CHECK(feed(rx, 1100, 0, 3).empty());
  acks = feed(rx, 1500, 0, 4);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 4, 1150, AckCause::kTimer);
  CHECK(rx.unacked(0) == 1);
  CHECK(rx.next_timer() == 1550);

  SECTION("the timer runs from the first unacked segment") {
    RxConfig c = delayed(50);
    c.delack_count = 3;
    TcpReceiver r3(c);
    CHECK(feed(r3, 0, 0, 0).empty());
    CHECK(feed(r3, 30, 0, 1).empty());
    CHECK(tick(r3, 49).empty());
    acks = tick(r3, 50);
    REQUIRE(acks.size() == 1);
    check_ack(acks[0], 0, 2, 50, AckCause::kTimer);
  }
}

TEST_CASE("rxmodel: receiver time never goes backwards", "[rxmodel][badinput]") {
  TcpReceiver rx(delayed(10));
  rx.segment(5, 0, 0);
  CHECK_THROWS(rx.segment(4, 0, 1));
  CHECK_THROWS(rx.advance(3));
  RxConfig bad;
  bad.window = 0;
  CHECK_THROWS(TcpReceiver(bad));
  bad.window = 8;
  bad.delack_count = 0;
  CHECK_THROWS(TcpReceiver(bad));
}

TEST_CASE("rxmodel: timers of several flows fire in deadline, then flow order",
          "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(10));
  rx.open(5, 1000);
  rx.open(2, 7);
  rx.open(4, 0xFFFF'FFFFu);
  CHECK(feed(rx, 3, 5, 1000).empty());
  CHECK(feed(rx, 3, 2, 7).empty());
  CHECK(feed(rx, 4, 4, 0xFFFF'FFFFu).empty());
  auto acks = feed(rx, 20, 5, 1001);  // after all three deadlines
  REQUIRE(acks.size() == 3);
  check_ack(acks[0], 2, 8, 13, AckCause::kTimer);
  check_ack(acks[1], 5, 1001, 13, AckCause::kTimer);
  check_ack(acks[2], 4, 0, 14, AckCause::kTimer);
  CHECK(rx.unacked(5) == 1);
}

TEST_CASE("rxmodel: an out-of-order segment is acked at once", "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(1000));
  CHECK(feed(rx, 0, 0, 0).empty());  // pending delayed ack
  auto acks = feed(rx, 1, 0, 2);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 1, 1, AckCause::kOutOfOrder);  // dup ack, covers the pending one
  CHECK(rx.unacked(0) == 0);
  CHECK(rx.pending_timers() == 0);
  acks = feed(rx, 2, 0, 3);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 1, 2, AckCause::kOutOfOrder);
  CHECK(rx.held(0) == 2);
  CHECK(rx.received(0, 2));
  CHECK(rx.received(0, 3));
  CHECK_FALSE(rx.received(0, 1));
  CHECK(rx.stats().out_of_order == 2);
}

TEST_CASE("rxmodel: filling a hole is acked at once", "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(1000));
  CHECK(feed(rx, 0, 0, 0).empty());
  REQUIRE(feed(rx, 1, 0, 1).size() == 1);
  REQUIRE(feed(rx, 2, 0, 3).size() == 1);
  REQUIRE(feed(rx, 3, 0, 4).size() == 1);
  auto acks = feed(rx, 4, 0, 2);  // fills the whole hole
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 5, 4, AckCause::kHoleFill);
  CHECK(rx.held(0) == 0);
  // Holes at 5 and 6: filling part of the gap is acked at once too.
  REQUIRE(feed(rx, 5, 0, 7).size() == 1);
  acks = feed(rx, 6, 0, 5);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 6, 6, AckCause::kHoleFill);
  CHECK(rx.held(0) == 1);
  acks = feed(rx, 7, 0, 6);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 8, 7, AckCause::kHoleFill);
  // Back in order: delayed acks again.
  CHECK(feed(rx, 8, 0, 8).empty());
  acks = feed(rx, 9, 0, 9);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 10, 9, AckCause::kDelayedCount);
  CHECK(rx.stats().hole_fills == 3);
}

TEST_CASE("rxmodel: SACK carries the segment just received, only above cum_ack",
          "[rxmodel][smoke]") {
  TcpReceiver rx(per_segment(true, 8));
  auto one = [&](uint64_t c, uint32_t seg) {
    auto a = feed(rx, c, 0, seg);
    REQUIRE(a.size() == 1);
    return a[0];
  };
  check_ack(one(0, 0), 0, 1, 0, AckCause::kPerSegment);
  check_ack(one(1, 3), 0, 1, 1, AckCause::kOutOfOrder, true, 3);
  check_ack(one(2, 5), 0, 1, 2, AckCause::kOutOfOrder, true, 5);
  check_ack(one(3, 2), 0, 1, 3, AckCause::kOutOfOrder, true, 2);
  check_ack(one(4, 1), 0, 4, 4, AckCause::kHoleFill);  // 1 is below cum_ack now
  check_ack(one(5, 5), 0, 4, 5, AckCause::kDuplicate, true, 5);  // held above cum_ack
  check_ack(one(6, 2), 0, 4, 6, AckCause::kDuplicate);           // below cum_ack
  check_ack(one(7, 12), 0, 4, 7, AckCause::kBeyondWindow);       // discarded: no SACK
  CHECK(rx.stats().sacks == 4);

  TcpReceiver plain(per_segment(false, 8));
  plain.segment(0, 0, 3);
  plain.segment(1, 0, 5);
  for (const AckEvent& a : plain.take_acks()) CHECK_FALSE(a.sack_valid);
}

TEST_CASE("rxmodel: a duplicate segment is acked at once", "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(1000, true));
  CHECK(feed(rx, 0, 0, 0).empty());
  REQUIRE(feed(rx, 1, 0, 1).size() == 1);
  auto acks = feed(rx, 2, 0, 0);  // retransmission of received data
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 2, 2, AckCause::kDuplicate);
  // With an in-order segment pending, the dup ack covers it and stops the timer.
  CHECK(feed(rx, 3, 0, 2).empty());
  CHECK(rx.pending_timers() == 1);
  acks = feed(rx, 4, 0, 1);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 3, 4, AckCause::kDuplicate);
  CHECK(rx.pending_timers() == 0);
  // Duplicate of a held segment.
  REQUIRE(feed(rx, 5, 0, 6).size() == 1);
  acks = feed(rx, 6, 0, 6);
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 3, 6, AckCause::kDuplicate, true, 6);
  CHECK(rx.stats().duplicates == 3);
  CHECK(rx.held(0) == 1);
}

TEST_CASE("rxmodel: segments beyond the window are discarded and counted",
          "[rxmodel][badinput]") {
  TcpReceiver rx(per_segment(true, 8));
  auto acks = feed(rx, 0, 0, 8);  // rcv_nxt + W: first index outside
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 0, 0, AckCause::kBeyondWindow);
  CHECK_FALSE(rx.received(0, 8));
  CHECK(rx.held(0) == 0);
  acks = feed(rx, 1, 0, 7);  // last index inside
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 0, 1, AckCause::kOutOfOrder, true, 7);
  acks = feed(rx, 2, 0, 1000);
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].cause == AckCause::kBeyondWindow);
  CHECK(rx.stats().beyond_window == 2);
  for (uint32_t s = 0; s < 7; ++s) rx.segment(3 + s, 0, s);
  CHECK(rx.rcv_nxt(0) == 8);  // 7 was held
  rx.take_acks();
  acks = feed(rx, 20, 0, 8);  // inside now; it was never kept
  REQUIRE(acks.size() == 1);
  check_ack(acks[0], 0, 9, 20, AckCause::kPerSegment);

  RxConfig quiet = per_segment(false, 8);
  quiet.ack_beyond_window = false;
  TcpReceiver q(quiet);
  CHECK(feed(q, 0, 0, 8).empty());
  CHECK(q.stats().beyond_window == 1);
}

TEST_CASE("rxmodel: sequence numbers wrap around 2^32", "[rxmodel][smoke]") {
  TcpReceiver rx(per_segment(true, 8));
  rx.open(5, 0xFFFF'FFFDu);
  auto one = [&](uint64_t c, uint32_t seg) {
    auto a = feed(rx, c, 5, seg);
    REQUIRE(a.size() == 1);
    return a[0];
  };
  check_ack(one(0, 0xFFFF'FFFDu), 5, 0xFFFF'FFFEu, 0, AckCause::kPerSegment);
  check_ack(one(1, 0), 5, 0xFFFF'FFFEu, 1, AckCause::kOutOfOrder, true, 0);
  check_ack(one(2, 0xFFFF'FFFFu), 5, 0xFFFF'FFFEu, 2, AckCause::kOutOfOrder, true,
            0xFFFF'FFFFu);
  check_ack(one(3, 1), 5, 0xFFFF'FFFEu, 3, AckCause::kOutOfOrder, true, 1);
  check_ack(one(4, 0xFFFF'FFFEu), 5, 2, 4, AckCause::kHoleFill);
  CHECK(rx.held(5) == 0);
  CHECK(rx.received(5, 0xFFFF'FFFFu));
  CHECK(rx.received(5, 1));
  CHECK_FALSE(rx.received(5, 2));
  check_ack(one(5, 0xFFFF'FFF0u), 5, 2, 5, AckCause::kDuplicate);  // old data
  check_ack(one(6, 10), 5, 2, 6, AckCause::kBeyondWindow);         // 2 + 8
  check_ack(one(7, 9), 5, 2, 7, AckCause::kOutOfOrder, true, 9);
}

// ---------------------------------------------------------------------------
// LinkModel

TEST_CASE("rxmodel: link delay is exact in cycles", "[rxmodel][smoke]") {
  LinkConfig lc;
  lc.delay = 7;
  lc.rx_proc = 3;
  SECTION("per-segment acks: RTT = 2 * delay + rx_proc") {
    LinkModel link(lc);
    std::vector<std::pair<uint64_t, AckEvent>> got;
    for (uint64_t c = 0; c < 100; ++c) {
      for (const AckEvent& a : link.pop_acks(c)) got.emplace_back(c, a);
      if (c == 10) REQUIRE(link.push_data(c, 0, 0, 1500, false));
      if (c == 11) REQUIRE(link.push_data(c, 0, 1, 1500, false));
    }
    REQUIRE(got.size() == 2);
    CHECK(got[0].first == 27);
    check_ack(got[0].second, 0, 1, 17, AckCause::kPerSegment);  // generated on arrival
    CHECK(got[1].first == 28);
    check_ack(got[1].second, 0, 2, 18, AckCause::kPerSegment);
    CHECK(link.max_ack_backlog() == 0);
    CHECK(link.max_ack_wait() == 0);
    CHECK(link.arrived() == 2);
    CHECK(link.bytes_arrived() == 3000);
    CHECK(link.idle());
  }
  SECTION("timer acks: arrival + timeout + rx_proc + delay") {
    LinkModel link(lc, delayed(20));
    std::vector<std::pair<uint64_t, AckEvent>> got;
    for (uint64_t c = 0; c < 100; ++c) {
      for (const AckEvent& a : link.pop_acks(c)) got.emplace_back(c, a);
      if (c == 10) link.push_data(c, 0, 0, 64, false);
      if (c == 17) CHECK(link.next_ack_cycle() == 17 + 20 + 3 + 7);
    }
    REQUIRE(got.size() == 1);
    CHECK(got[0].first == 47);
    check_ack(got[0].second, 0, 1, 37, AckCause::kTimer);
  }
  SECTION("zero delay: the ack of a segment pushed in cycle c is taken in c + 1") {
    lc.delay = 0;
    lc.rx_proc = 0;
    LinkModel link(lc);
    CHECK(link.pop_acks(5).empty());
    link.push_data(5, 0, 0, 64, false);
    CHECK(link.next_ack_cycle() == 5);
    auto a = link.pop_acks(6);
    REQUIRE(a.size() == 1);
    check_ack(a[0], 0, 1, 5, AckCause::kPerSegment);
  }
}

TEST_CASE("rxmodel: link hands out at most one ack per cycle, in generation order",
          "[rxmodel][smoke]") {
  LinkConfig lc;
  lc.delay = 5;
  LinkModel link(lc);
  std::vector<std::pair<uint64_t, AckEvent>> got;
  for (uint64_t c = 0; c < 50; ++c) {
    auto acks = link.pop_acks(c);
    REQUIRE(acks.size() <= 1);
    for (const AckEvent& a : acks) got.emplace_back(c, a);
    if (c == 0)
      for (uint32_t f = 0; f < 5; ++f) link.push_data(c, f, 0, 100, false);
    if (c == 1) link.push_data(c, 0, 1, 100, false);
  }
  REQUIRE(got.size() == 6);
  for (uint32_t f = 0; f < 5; ++f) {
    CHECK(got[f].first == 10 + f);
    check_ack(got[f].second, f, 1, 5, AckCause::kPerSegment);
  }
  CHECK(got[5].first == 15);  // due in 11, waited behind the others
  check_ack(got[5].second, 0, 2, 6, AckCause::kPerSegment);
  CHECK(link.max_ack_backlog() == 4);
  CHECK(link.max_ack_wait() == 4);
  CHECK(link.acks_delivered() == 6);

  SECTION("a wider port") {
    lc.acks_per_cycle = 2;
    LinkModel wide(lc);
    for (uint32_t f = 0; f < 5; ++f) wide.push_data(0, f, 0, 100, false);
    std::vector<size_t> sizes;
    for (uint64_t c = 0; c < 20; ++c) sizes.push_back(wide.pop_acks(c).size());
    CHECK(sizes[10] == 2);
    CHECK(sizes[11] == 2);
    CHECK(sizes[12] == 1);
    CHECK(wide.max_ack_backlog() == 3);
  }
}

TEST_CASE("rxmodel: dropped segments never reach the receiver", "[rxmodel][smoke]") {
  LinkConfig lc;
  lc.delay = 2;
  LinkModel link(lc, per_segment(true));
  link.drops().drop_at(0, 1, 0);
  std::vector<DataArrival> arrivals;
  link.on_arrival = [&](const DataArrival& d) { arrivals.push_back(d); };
  std::vector<AckEvent> acks;
  for (uint64_t c = 0; c < 30; ++c) {
    for (const AckEvent& a : link.pop_acks(c)) acks.push_back(a);
    if (c < 3) CHECK(link.push_data(c, 0, static_cast<uint32_t>(c), 10, false) == (c != 1));
    if (c == 10) CHECK(link.push_data(c, 0, 1, 10, true));
  }
  REQUIRE(acks.size() == 3);
  CHECK(acks[0].cum_ack == 1);
  CHECK(acks[1].cum_ack == 1);
  CHECK(acks[1].sack_valid);
  CHECK(acks[1].sack_idx == 2);
  CHECK(acks[2].cum_ack == 3);
  CHECK(acks[2].cause == AckCause::kHoleFill);
  REQUIRE(arrivals.size() == 3);
  CHECK(arrivals[2].seg == 1);
  CHECK(arrivals[2].rtx);
  CHECK(arrivals[2].cycle == 12);
  CHECK(arrivals[2].sent == 10);
  CHECK(link.pushed() == 4);
  CHECK(link.dropped() == 1);
  CHECK(link.arrived() == 3);
  CHECK_THROWS(link.push_data(5, 0, 3, 10, false));  // before the last pop_acks
}

TEST_CASE("rxmodel: link reordering is off by default and opt-in", "[rxmodel][smoke]") {
  TONIC_SEED(0x5eed0002);
  for (bool reorder : {false, true}) {
    LinkConfig lc;
    lc.delay = 10;
    if (reorder) {
      lc.reorder_p = 0.3;
      lc.reorder_max = 20;
      lc.reorder_seed = tonic_seed_;
    }
    LinkModel link(lc);
    uint64_t arrivals = 0, late = 0, last = 0;
    link.on_arrival = [&](const DataArrival& d) {
      ++arrivals;
      CHECK(d.cycle >= d.sent + lc.delay);
      CHECK(d.cycle <= d.sent + lc.delay + lc.reorder_max);
      if (d.cycle < last) ++late;
      last = std::max(last, d.cycle);
    };
    uint64_t c = 0;
    for (; c < 200; ++c) {
      link.pop_acks(c);
      link.push_data(c, 0, static_cast<uint32_t>(c), 64, false);
    }
    for (; !link.idle(); ++c) link.pop_acks(c);
    INFO("reorder " << reorder);
    CHECK(arrivals == 200);
    CHECK(link.receiver().rcv_nxt(0) == 200);
    if (reorder) {
      CHECK(link.reordered() > 0);
      CHECK(link.receiver().stats().out_of_order > 0);
    } else {
      CHECK(link.reordered() == 0);
      CHECK(link.receiver().stats().out_of_order == 0);
    }
    CHECK(late == 0);  // arrivals reach the receiver in time order
  }
}

// ---------------------------------------------------------------------------
// Echo, SACK blocks, CE state (docs/design/receiver.md)

TEST_CASE("rxmodel: acks echo TS.Recent: the earliest a delayed ack covers, the last advance for "
          "an out-of-order arrival, a hole fill's own",
          "[rxmodel][smoke]") {
  TcpReceiver rx(delayed(50));
  rx.open(0, 0);
  rx.segment(1, 0, 0, 100);
  auto a = rx.take_acks();
  CHECK(a.empty());
  rx.segment(2, 0, 1, 101, true);  // 2nd: acks both, echoes 0's
  rx.segment(3, 0, 3, 102);        // out of order: TS.Recent, still 0's (1 came with 0 pending)
  rx.segment(4, 0, 2, 103, true);  // fills the hole: its own, rtx
  a = rx.take_acks();
  REQUIRE(a.size() == 3);
  CHECK(a[0].echo == echo_of(100, false));
  CHECK(a[1].echo == echo_of(100, false));
  CHECK(a[2].echo == echo_of(103, true));
  rx.segment(10, 0, 4, 104);  // pending: the timer ack echoes it
  rx.advance(100);
  a = rx.take_acks();
  REQUIRE(a.size() == 1);
  CHECK((a[0].cause == AckCause::kTimer && a[0].echo == echo_of(104, false)));
  // A caller that passes no stamp: stamp 0, valid; no CE given: ecn 0.
  TcpReceiver plain(per_segment());
  plain.segment(1, 3, 0);
  a = plain.take_acks();
  REQUIRE(a.size() == 1);
  CHECK(a[0].echo == echo_of(0, false));
  CHECK_FALSE(a[0].ecn);
  CHECK(a[0].blks == SackBlocks{});
}

TEST_CASE("rxmodel: SACK blocks: the triggering run first, then the last report's runs still held",
          "[rxmodel][smoke]") {
  TcpReceiver rx(per_segment(true, 64));
  rx.open(0, 0);
  for (uint32_t i : {2u, 3u, 6u, 9u, 12u}) rx.segment(i, 0, i);
  auto a = rx.take_acks();
  REQUIRE(a.size() == 5);
  CHECK(a[1].blks == SackBlocks{SackBlock{true, 2, 4}});
  CHECK(a[3].blks == (SackBlocks{SackBlock{true, 9, 10}, SackBlock{true, 6, 7}, SackBlock{true, 2, 4}}));
  CHECK(a[4].blks == (SackBlocks{SackBlock{true, 12, 13}, SackBlock{true, 9, 10}, SackBlock{true, 6, 7}}));
  rx.segment(20, 0, 0);  // in order: cum 1, the remembered runs
  rx.segment(21, 0, 1);  // cum 4: 2-3 was forgotten anyway
  rx.segment(22, 0, 5);  // joins 6: block 0 = 5-6
  a = rx.take_acks();
  REQUIRE(a.size() == 3);
  CHECK((a[0].cum_ack == 1 && a[0].blks == (SackBlocks{SackBlock{true, 12, 13}, SackBlock{true, 9, 10},
                                                       SackBlock{true, 6, 7}})));
  CHECK((a[1].cum_ack == 4 && a[1].blks == (SackBlocks{SackBlock{true, 12, 13}, SackBlock{true, 9, 10},
                                                       SackBlock{true, 6, 7}})));
  CHECK(a[2].blks == (SackBlocks{SackBlock{true, 5, 7}, SackBlock{true, 12, 13}, SackBlock{true, 9, 10}}));
}

TEST_CASE("rxmodel: ce_state_acks: a CE change acks the pending segments first, ecn = the state",
          "[rxmodel][smoke]") {
  RxConfig c = delayed(50);
  c.ce_state_acks = true;
  TcpReceiver rx(c);
  rx.open(0, 0);
  rx.segment(1, 0, 0, 1, false, false);  // pending
  rx.segment(2, 0, 1, 2, false, true);   // change: ack of 0 (ecn 0), then 1 pending
  rx.segment(3, 0, 2, 3, false, true);   // ack of 1-2, ecn 1
  rx.segment(4, 0, 3, 4, false, true);   // pending
  rx.advance(100);                       // timer: ecn 1
  const auto a = rx.take_acks();
  REQUIRE(a.size() == 3);
  CHECK((a[0].cause == AckCause::kCeChange && a[0].cum_ack == 1 && !a[0].ecn && a[0].echo == echo_of(1, false)));
  CHECK((a[1].cause == AckCause::kDelayedCount && a[1].cum_ack == 3 && a[1].ecn && a[1].echo == echo_of(2, false)));
  CHECK((a[2].cause == AckCause::kTimer && a[2].cum_ack == 4 && a[2].ecn));
  // Without the bit: ecn is the mark of the segment that caused the ack.
  TcpReceiver old(delayed(50));
  old.segment(1, 0, 0, 0, false, true);
  old.segment(2, 0, 1, 0, false, false);
  const auto b = old.take_acks();
  REQUIRE(b.size() == 1);
  CHECK_FALSE(b[0].ecn);
}

// ---------------------------------------------------------------------------
// Random runs against an independent model

namespace {

/// Independent receiver model for one flow: unwrapped 64-bit indices from
/// the flow's base, a std::set of received segments above the first missing.
struct IndepFlow {
  uint32_t base = 0;
  uint64_t fm = 0;           // first missing segment
  std::set<uint64_t> above;  // received above fm
  uint32_t unacked = 0;
  bool timer = false;
  uint64_t deadline = 0;
  // Test sender's view.
  uint64_t next_new = 0;
  uint64_t cum_seen = 0;
  std::set<uint64_t> sacked;
  Echo tsr;                      // TS.Recent
  std::vector<uint64_t> reported;  // starts of the runs the last ack reported
  bool acked_once = false;
  uint32_t last_cum = 0;
};

}  // namespace

TEST_CASE("rxmodel: random segments with drops and retransmissions keep cum_ack at the first "
          "missing segment",
          "[rxmodel][stress]") {
  TONIC_SEED(0x5eed0003);
  constexpr uint64_t kSegments = 100'000;  // offered per configuration
  constexpr uint32_t kFlows = 6;
  constexpr uint64_t kTimeout = 64;

  for (int mode = 0; mode < 4; ++mode) {
    const bool is_delayed = (mode & 1) != 0;
    const bool sack = (mode & 2) != 0;
    const uint32_t window = sack ? 64 : 128;
    RxConfig rc = is_delayed ? delayed(kTimeout, sack, window) : per_segment(sack, window);
    INFO("delayed " << is_delayed << " sack " << sack << " window " << window);
    Rng rng(tonic_seed_ + static_cast<uint64_t>(mode));
    TcpReceiver rx(rc);
    DropModel drops;
    drops.bernoulli(0.05, tonic_seed_ ^ 0xd0d0);
    drops.every_kth_per_flow(23, DropScope::kOriginals);

    std::vector<IndepFlow> fl(kFlows);
    for (uint32_t f = 0; f < kFlows; ++f) {
      uint32_t base = static_cast<uint32_t>(rng.bits64());
      if (f == 0) base = 0xFFFF'FFFFu - static_cast<uint32_t>(rng.below(300));  // wraps early
      if (f == 1) base = 0x7FFF'FF00u;  // crosses the sign bit
      fl[f].base = base;
      rx.open(f, base);
    }
    drops.drop_at(0, fl[0].base + 3, 0);
    drops.drop_at(0, fl[0].base + 3, 1);
    drops.drop_at(2, fl[2].base + 10, 0);

    uint64_t cycle = 0;
    struct Wire {
      uint32_t f;
      uint64_t i;
      uint32_t ts;  // the cycle it was sent
      bool rtx;
    };
    std::deque<Wire> wire;  // small reorder buffer
    std::vector<AckEvent> expect;
    std::vector<uint64_t> expect_fm;  // independent first missing when each ack was due
    uint64_t offered = 0, acks_checked = 0, timer_acks = 0;

    auto indep_emit = [&](uint32_t f, uint64_t c, AckCause cause, bool sack_ok, uint64_t seg) {
      IndepFlow& s = fl[f];
      AckEvent a;
      a.flow = f;
      a.cum_ack = static_cast<uint32_t>(s.base + s.fm);
      a.cycle = c;
      a.cause = cause;
      if (rc.sack && sack_ok && seg > s.fm) {
        a.sack_valid = true;
        a.sack_idx = static_cast<uint32_t>(s.base + seg);
      }
      a.echo = s.tsr;
      if (rc.sack) {
        // SACK blocks: the run of the segment when held, then the runs
        // the last ack reported, each as it stands now, none twice.
        auto run_of = [&](uint64_t x) {
          uint64_t lo = x, hi = x + 1;
          while (lo > s.fm + 1 && s.above.count(lo - 1)) --lo;
          while (s.above.count(hi)) ++hi;
          return std::make_pair(lo, hi);
        };
        std::vector<std::pair<uint64_t, uint64_t>> runs;
        if (sack_ok && seg > s.fm && s.above.count(seg)) runs.push_back(run_of(seg));
        for (uint64_t lo : s.reported) {
          if (runs.size() == kSackBlocks) break;
          if (!s.above.count(lo)) continue;
          const auto r = run_of(lo);
          if (std::find(runs.begin(), runs.end(), r) == runs.end()) runs.push_back(r);
        }
        s.reported.clear();
        for (size_t b = 0; b < runs.size(); ++b) {
          a.blks[b] = SackBlock{true, static_cast<uint32_t>(s.base + runs[b].first),
                                static_cast<uint32_t>(s.base + runs[b].second)};
          s.reported.push_back(runs[b].first);
        }
      }
      s.unacked = 0;
      s.timer = false;
      expect.push_back(a);
      expect_fm.push_back(s.fm);
    };
    auto indep_timers = [&](uint64_t c) {
      std::vector<std::pair<uint64_t, uint32_t>> due;
      for (uint32_t f = 0; f < kFlows; ++f)
        if (fl[f].timer && fl[f].deadline <= c) due.emplace_back(fl[f].deadline, f);
      std::sort(due.begin(), due.end());
      for (auto [d, f] : due) indep_emit(f, d, AckCause::kTimer, false, 0);
    };
    auto indep_segment = [&](uint64_t c, uint32_t f, uint64_t i, uint32_t ts, bool rtx) {
      IndepFlow& s = fl[f];
      // TS.Recent: an in-order segment with no ack pending, or the first.
      if ((i == s.fm && s.unacked == 0) || !s.tsr.valid) s.tsr = echo_of(ts, rtx);
      if (i < s.fm) return indep_emit(f, c, AckCause::kDuplicate, true, i);
      if (i >= s.fm + window) return indep_emit(f, c, AckCause::kBeyondWindow, false, i);
      if (s.above.count(i)) return indep_emit(f, c, AckCause::kDuplicate, true, i);
      if (i > s.fm) {
        s.above.insert(i);
        return indep_emit(f, c, AckCause::kOutOfOrder, true, i);
      }
      const bool hole = !s.above.empty();
      ++s.fm;
      while (s.above.erase(s.fm) != 0) ++s.fm;
      if (hole) return indep_emit(f, c, AckCause::kHoleFill, true, i);
      if (!rc.delayed_ack) return indep_emit(f, c, AckCause::kPerSegment, true, i);
      if (++s.unacked >= rc.delack_count) return indep_emit(f, c, AckCause::kDelayedCount, true, i);
      if (!s.timer) {
        s.timer = true;
        s.deadline = c + rc.delack_timeout;
      }
    };
    // Compares the receiver's acks with the independent model's and checks
    // the invariants; feeds the acks back to the test sender.
    auto check_acks = [&]() {
      std::vector<AckEvent> got = rx.take_acks();
      REQUIRE(got.size() == expect.size());
      for (size_t k = 0; k < got.size(); ++k) {
        const AckEvent& a = got[k];
        INFO("ack " << acks_checked << ": flow " << a.flow << " cum " << a.cum_ack << " sack "
                    << a.sack_valid << "/" << a.sack_idx << " cycle " << a.cycle << " cause "
                    << to_string(a.cause) << " echo " << str(a.echo) << " blks " << str(a.blks)
                    << "; expected cum " << expect[k].cum_ack << " sack " << expect[k].sack_valid
                    << "/" << expect[k].sack_idx << " cycle " << expect[k].cycle << " cause "
                    << to_string(expect[k].cause) << " echo " << str(expect[k].echo) << " blks "
                    << str(expect[k].blks));
        REQUIRE(a == expect[k]);
        IndepFlow& s = fl[a.flow];
        const uint64_t fm = expect_fm[k];
        // Invariants, stated on their own: cum_ack is the first missing
        // segment, never decreases; a SACK names a received segment above it.
        REQUIRE(a.cum_ack == static_cast<uint32_t>(s.base + fm));
        if (s.acked_once) REQUIRE(seq_le(s.last_cum, a.cum_ack));
        if (a.sack_valid) {
          REQUIRE(seq_lt(a.cum_ack, a.sack_idx));
          const uint64_t si = fm + seq_dist(a.cum_ack, a.sack_idx);
          REQUIRE((si < s.fm || s.above.count(si) == 1));
          s.sacked.insert(si);
        }
        s.acked_once = true;
        s.last_cum = a.cum_ack;
        s.cum_seen = std::max(s.cum_seen, fm);  // the test sender learns
        if (a.cause == AckCause::kTimer) ++timer_acks;
        ++acks_checked;
      }
      expect.clear();
      expect_fm.clear();
    };
    auto deliver = [&](size_t k) {
      const Wire w = wire[k];
      wire.erase(wire.begin() + static_cast<std::ptrdiff_t>(k));
      indep_timers(cycle);
      indep_segment(cycle, w.f, w.i, w.ts, w.rtx);
      rx.segment(cycle, w.f, static_cast<uint32_t>(fl[w.f].base + w.i), w.ts, w.rtx);
      check_acks();
    };

    while (offered < kSegments) {
      // Time passes: usually a little, sometimes past every timer.
      cycle += rng.chance(0.02) ? rng.range(kTimeout, 4 * kTimeout) : rng.below(4);
      if (rng.chance(0.05)) {
        indep_timers(cycle);
        rx.advance(cycle);
        check_acks();
      }
      // The test sender offers one segment: new data, or a retransmission
      // (mostly of a segment it does not know to be received).
      const uint32_t f = static_cast<uint32_t>(rng.below(kFlows));
      IndepFlow& s = fl[f];
      uint64_t i;
      bool rtx;
      const bool can_new = s.next_new < s.cum_seen + window + 2;  // a little overshoot
      if (rng.chance(0.003)) {
        // A probe at or just past the window's far edge (as the sender knows it).
        i = s.cum_seen + window + rng.below(3);
        rtx = false;
      } else if (s.next_new > 0 && (!can_new || rng.chance(0.3))) {
        const uint64_t lo = s.cum_seen >= 4 ? s.cum_seen - 4 : 0;
        i = rng.range(lo, s.next_new - 1);
        if (rng.chance(0.4) || (s.sacked.count(i) != 0 && rng.chance(0.8))) i = s.cum_seen;
        if (i >= s.next_new) i = s.next_new - 1;
        rtx = true;
      } else {
        i = s.next_new++;
        rtx = false;
      }
      for (auto it = s.sacked.begin(); it != s.sacked.end() && *it < s.cum_seen;)
        it = s.sacked.erase(it);
      ++offered;
      if (!drops.offer(f, static_cast<uint32_t>(s.base + i), rtx))
        wire.push_back(Wire{f, i, static_cast<uint32_t>(cycle), rtx});
      // The wire holds up to a few segments and lets a random one overtake.
      const size_t hold = static_cast<size_t>(rng.below(6));
      while (wire.size() > hold)
        deliver(rng.chance(0.7) ? 0 : static_cast<size_t>(rng.below(wire.size())));
    }
    while (!wire.empty()) deliver(0);
    cycle += 10 * kTimeout;
    indep_timers(cycle);
    rx.advance(cycle);
    check_acks();

    const RxStats& st = rx.stats();
    INFO("acks " << acks_checked << " timer acks " << timer_acks << " drops " << drops.dropped()
                 << " out-of-order " << st.out_of_order << " dup " << st.duplicates
                 << " beyond " << st.beyond_window << " hole fills " << st.hole_fills);
    CHECK(drops.offered() == kSegments);
    CHECK(st.segments + drops.dropped() == kSegments);
    CHECK(st.acks == acks_checked);
    CHECK(drops.hits_list() == 3);
    // Every rule was exercised.
    CHECK(st.out_of_order > 1000);
    CHECK(st.duplicates > 1000);
    CHECK(st.hole_fills > 100);
    CHECK(st.beyond_window > 10);
    if (is_delayed) {
      CHECK(timer_acks > 10);
      CHECK(st.acks < st.segments);
    } else {
      CHECK(st.acks == st.segments);
    }
    if (sack) CHECK(st.sacks > 1000);
    CHECK(rx.pending_timers() == 0);
    for (uint32_t f = 0; f < kFlows; ++f) {
      CHECK(rx.rcv_nxt(f) == static_cast<uint32_t>(fl[f].base + fl[f].fm));
      CHECK(rx.held(f) == fl[f].above.size());
    }
    CHECK(fl[0].fm > 300);  // flow 0 crossed 2^32
  }
}

TEST_CASE("rxmodel: random traffic over the link: one ack per cycle, in order, every segment "
          "delivered",
          "[rxmodel][stress]") {
  TONIC_SEED(0x5eed0004);
  constexpr uint32_t kFlows = 4;
  constexpr uint64_t kPerFlow = 30'000;
  constexpr uint64_t kWnd = 64;

  for (int mode = 0; mode < 2; ++mode) {
    LinkConfig lc;
    RxConfig rc;
    rc.window = kWnd;
    if (mode == 0) {  // per-segment acks with SACK, no reordering
      lc.delay = 40;
      lc.rx_proc = 3;
      rc.sack = true;
    } else {  // delayed acks, reordering
      lc.delay = 25;
      lc.rx_proc = 1;
      lc.reorder_p = 0.05;
      lc.reorder_max = 16;
      lc.reorder_seed = tonic_seed_ + 7;
      rc.delayed_ack = true;
      rc.delack_timeout = 30;
    }
    INFO("mode " << mode);
    LinkModel link(lc, rc);
    Rng rng(tonic_seed_ + static_cast<uint64_t>(mode));
    link.drops().bernoulli(mode == 0 ? 0.02 : 0.01, tonic_seed_ ^ 0xabc);
    link.drops().every_kth(97, DropScope::kOriginals);

    struct Sender {
      uint32_t base;
      uint64_t una = 0, next_new = 0;
      uint32_t dupacks = 0;
      uint64_t last_progress = 0;
      std::deque<uint64_t> rtx;
      // Independent view of what arrived (from on_arrival).
      std::set<uint64_t> arrived_above;
      uint64_t arrived_fm = 0;
      bool acked_once = false;
      uint32_t last_cum = 0;
    };
    std::vector<Sender> snd(kFlows);
    for (uint32_t f = 0; f < kFlows; ++f) {
      snd[f].base = f == 0 ? 0xFFFF'FFFFu - 1000u : static_cast<uint32_t>(rng.bits64());
      link.receiver().open(f, snd[f].base);
    }
    link.drops().drop_at(1, snd[1].base + 100, 0);
    link.drops().drop_at(1, snd[1].base + 100, 1);
    link.drops().drop_at(1, snd[1].base + 100, 2);

    link.on_arrival = [&](const DataArrival& d) {
      Sender& s = snd.at(d.flow);
      const uint64_t i = seq_dist(s.base, d.seg);
      REQUIRE(d.cycle >= d.sent + lc.delay);
      if (i < s.arrived_fm) return;
      s.arrived_above.insert(i);
      while (s.arrived_above.erase(s.arrived_fm) != 0) ++s.arrived_fm;
    };

    const uint64_t rto =
        2 * (2 * lc.delay + lc.rx_proc + lc.reorder_max) + 2 * rc.delack_timeout + 100;
    uint64_t c = 0, prev_delivery = 0, prev_gen = 0, delivered = 0;
    bool any = false;
    uint32_t rr = 0;
    auto all_done = [&]() {
      for (const Sender& s : snd)
        if (s.una < kPerFlow) return false;
      return true;
    };
    auto take = [&](uint64_t cycle) {
      auto acks = link.pop_acks(cycle);
      REQUIRE(acks.size() <= 1);
      for (const AckEvent& a : acks) {
        Sender& s = snd.at(a.flow);
        INFO("cycle " << cycle << " flow " << a.flow << " cum " << a.cum_ack << " gen "
                      << a.cycle);
        // Timing: FIFO over all flows, one per cycle, never before it is due.
        const uint64_t due = a.cycle + lc.rx_proc + lc.delay;
        REQUIRE(cycle == (any ? std::max(due, prev_delivery + 1) : due));
        REQUIRE(a.cycle >= prev_gen);
        // Content: cum_ack never decreases, covers only arrived data; SACK
        // only above cum_ack and only of arrived data.
        if (s.acked_once) REQUIRE(seq_le(s.last_cum, a.cum_ack));
        const uint64_t cum = seq_dist(s.base, a.cum_ack);
        REQUIRE(cum <= s.arrived_fm);
        if (a.sack_valid) {
          REQUIRE(seq_lt(a.cum_ack, a.sack_idx));
          const uint64_t si = seq_dist(s.base, a.sack_idx);
          REQUIRE((si < s.arrived_fm || s.arrived_above.count(si) == 1));
        }
        REQUIRE_FALSE(a.ecn);
        any = true;
        prev_delivery = cycle;
        prev_gen = a.cycle;
        s.acked_once = true;
        s.last_cum = a.cum_ack;
        ++delivered;
        // Sender: new ack, or duplicate (fast retransmit on the 3rd).
        if (cum > s.una) {
          s.una = cum;
          s.dupacks = 0;
          s.last_progress = cycle;
        } else if (cum == s.una && s.una < s.next_new && ++s.dupacks == 3) {
          s.rtx.push_back(s.una);
        }
      }
    };

    for (; !all_done(); ++c) {
      REQUIRE(c < 20'000'000);
      take(c);
      for (Sender& s : snd) {  // timeout: go back N
        if (s.una < s.next_new && c - s.last_progress > rto) {
          s.rtx.clear();
          for (uint64_t i = s.una; i < s.next_new; ++i) s.rtx.push_back(i);
          s.last_progress = c;
          s.dupacks = 0;
        }
      }
      if (!rng.chance(0.9)) continue;  // idle cycle
      for (uint32_t k = 0; k < kFlows; ++k) {
        const uint32_t f = (rr + k) % kFlows;
        Sender& s = snd[f];
        while (!s.rtx.empty() && s.rtx.front() < s.una) s.rtx.pop_front();
        uint64_t i;
        bool rtx;
        if (!s.rtx.empty()) {
          i = s.rtx.front();
          s.rtx.pop_front();
          rtx = true;
        } else if (s.next_new < s.una + kWnd && s.next_new < kPerFlow) {
          i = s.next_new++;
          rtx = false;
        } else {
          continue;
        }
        const uint32_t len = i + 1 == kPerFlow ? 100 : 1024;
        link.push_data(c, f, static_cast<uint32_t>(s.base + i), len, rtx);
        rr = f + 1;
        break;
      }
    }
    for (uint64_t end = c + 100'000; !link.idle(); ++c) {
      REQUIRE(c < end);
      take(c);
    }
    INFO("cycles " << c << " pushed " << link.pushed() << " dropped " << link.dropped()
                   << " acks " << delivered << " max backlog " << link.max_ack_backlog()
                   << " max wait " << link.max_ack_wait());
    CHECK(link.pushed() >= kFlows * kPerFlow);
    CHECK(link.pushed() == link.arrived() + link.dropped());
    CHECK(link.drops().offered() == link.pushed());
    CHECK(link.drops().hits_list() == 3);
    CHECK(link.acks_delivered() == delivered);
    CHECK(link.receiver().stats().acks == delivered);
    CHECK(link.acks_in_flight() == 0);
    for (uint32_t f = 0; f < kFlows; ++f) {
      CHECK(snd[f].arrived_fm == kPerFlow);
      CHECK(link.receiver().rcv_nxt(f) == static_cast<uint32_t>(snd[f].base + kPerFlow));
      CHECK(snd[f].last_cum == static_cast<uint32_t>(snd[f].base + kPerFlow));
    }
    if (mode == 1) CHECK(link.reordered() > 0);
  }
}
