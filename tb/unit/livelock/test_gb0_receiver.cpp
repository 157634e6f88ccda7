// SPDX-License-Identifier: Apache-2.0
// Tests of the go-back-0 receiver model (lib/tonic/gb0_receiver.hpp):
// directed cases for every rule, then a seeded closed loop against a plain
// go-back-0 sender whose own bookkeeping predicts the messages completed
// (a message completes iff one attempt sent all its segments without a
// drop).
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <vector>

#include "tonic/gb0_receiver.hpp"
#include "tonic/rng.hpp"

using namespace tonic;

namespace {

Gb0Receiver make_rx(uint32_t s, uint64_t gap = 100) {
  Gb0RxConfig c;
  c.msg_segments = s;
  c.nack_gap = gap;
  return Gb0Receiver(c);
}

/// The one event the last arrivals sent (exactly one).
RxEvent only_event(Gb0Receiver& rx) {
  const std::vector<RxEvent> ev = rx.take_acks();
  REQUIRE(ev.size() == 1);
  return ev[0];
}

void check_event(const RxEvent& e, ref::RxType type, uint32_t cum) {
  CAPTURE(rx_type_name(e.type), e.cum_ack);
  CHECK(e.type == type);
  CHECK(e.cum_ack == cum);
  CHECK_FALSE(e.sack_valid);
}

}  // namespace

TEST_CASE("gb0_receiver: in-order packets complete messages and are acked cumulatively",
          "[gb0_receiver][smoke]") {
  Gb0Receiver rx = make_rx(4);
  rx.open(2, 100);
  for (uint32_t i = 0; i < 8; ++i) {
    rx.segment(10 + i, 2, 100 + i);
    check_event(only_event(rx), ref::kRxAck, 101 + i);
    CHECK(rx.counters(2).messages == (i + 1) / 4);
  }
  CHECK(rx.msg_start(2) == 108);
  CHECK(rx.counters(2).last_message_cycle == 17);
  CHECK(rx.stats(2).in_order == 8);
  CHECK(rx.counters(2).restarts == 0);
}

TEST_CASE("gb0_receiver: a gap discards the message's progress, NACKs once, then waits for its first segment",
          "[gb0_receiver][smoke]") {
  Gb0Receiver rx = make_rx(8);
  rx.open(1, 0);
  for (uint32_t p = 0; p < 3; ++p) rx.segment(p, 1, p);
  rx.take_acks();
  rx.segment(4, 1, 4);  // 3 lost
  check_event(only_event(rx), ref::kRxNack, 3);  // NAK(i): the PSN of the gap
  CHECK(rx.waiting(1));
  CHECK(rx.expected(1) == 0);
  CHECK(rx.counters(1).discarded == 3);
  CHECK(rx.counters(1).restarts == 1);
  // The rest of the failed attempt (and a retransmission of 3) is dropped
  // silently within the gap.
  uint64_t t = 10;
  for (uint32_t p : {5u, 6u, 3u}) rx.segment(t++, 1, p);
  CHECK(rx.take_acks().empty());
  CHECK(rx.counters(1).dropped_waiting == 3);
  // The restart: the message from its first segment, complete.
  for (uint32_t p = 0; p < 8; ++p) {
    rx.segment(50 + p, 1, p);
    check_event(only_event(rx), ref::kRxAck, p + 1);
  }
  CHECK_FALSE(rx.waiting(1));
  CHECK(rx.counters(1).messages == 1);
}

TEST_CASE("gb0_receiver: while waiting, a NACK again at most once per gap", "[gb0_receiver][smoke]") {
  Gb0Receiver rx = make_rx(16, 100);
  rx.open(0, 0);
  rx.segment(10, 0, 0);
  rx.segment(11, 0, 2);  // gap at 1
  auto ev = rx.take_acks();
  REQUIRE(ev.size() == 2);
  check_event(ev[1], ref::kRxNack, 1);
  rx.segment(109, 0, 3);  // 99 cycles after the NACK: silent
  CHECK(rx.take_acks().empty());
  rx.segment(111, 0, 4);  // 100 cycles: the restart's first segment was lost
  check_event(only_event(rx), ref::kRxNack, 0);
  rx.segment(150, 0, 5);
  CHECK(rx.take_acks().empty());
  rx.segment(211, 0, 6);
  REQUIRE(rx.take_acks().size() == 1);
  CHECK(rx.counters(0).renacks == 2);
  CHECK(rx.stats(0).nacks == 3);
}

TEST_CASE("gb0_receiver: a gap in a later message keeps the completed ones, duplicates are re-acked",
          "[gb0_receiver][smoke]") {
  Gb0Receiver rx = make_rx(4);
  rx.open(3, 0);
  for (uint32_t p = 0; p < 6; ++p) rx.segment(p, 3, p);  // message 0 complete, 4 and 5 of message 1
  rx.take_acks();
  rx.segment(6, 3, 1);  // duplicate of a completed message, not waiting
  check_event(only_event(rx), ref::kRxAck, 6);
  rx.segment(7, 3, 7);  // 6 lost
  check_event(only_event(rx), ref::kRxNack, 6);
  CHECK(rx.counters(3).messages == 1);
  CHECK(rx.msg_start(3) == 4);
  CHECK(rx.expected(3) == 4);
  CHECK(rx.counters(3).discarded == 2);
  rx.segment(8, 3, 2);  // duplicate while waiting: acked at the message start
  check_event(only_event(rx), ref::kRxAck, 4);
  // Flows are independent.
  rx.segment(9, 4, 0);
  CHECK(only_event(rx).flow == 4);
  CHECK(rx.waiting(3));
}

TEST_CASE("gb0_receiver: closed loop with a go-back-0 sender completes exactly the clean attempts",
          "[gb0_receiver][stress]") {
  TONIC_SEED(0x9b0);
  constexpr uint32_t kS = 64;        // segments per message
  constexpr uint64_t kDelay = 10;    // one way, cycles
  constexpr uint64_t kSend = 200000; // cycles with the sender on
  const double p = 1.0 / 32;
  Rng loss(tonic_seed_);
  Gb0Receiver rx = make_rx(kS, 4 * kDelay);  // > RTT: stale packets never re-NACK
  rx.open(0, 0);

  struct Pkt { uint64_t at; uint32_t psn; };
  struct Ev { uint64_t at; RxEvent e; };
  std::deque<Pkt> data;
  std::deque<Ev> back;
  uint32_t next = 0, attempt_start = 0;
  bool clean = true;
  uint64_t predicted = 0, restarts = 0, drops = 0;
  for (uint64_t c = 0; c < kSend + 4 * kDelay; ++c) {
    while (!data.empty() && data.front().at <= c) {
      rx.segment(c, 0, data.front().psn);
      data.pop_front();
    }
    for (const RxEvent& e : rx.take_acks()) back.push_back({c + kDelay, e});
    while (!back.empty() && back.front().at <= c) {
      const RxEvent e = back.front().e;
      back.pop_front();
      if (e.type == ref::kRxNack) {  // restart the message the NACK is in
        next = e.cum_ack / kS * kS;
        attempt_start = next;
        clean = true;
        ++restarts;
      }
    }
    if (c >= kSend) continue;
    const uint32_t psn = next++;
    if (loss.chance(p)) {
      clean = false;
      ++drops;
    } else {
      data.push_back({c + kDelay, psn});
    }
    if (psn + 1 == attempt_start + kS) {  // the attempt sent its last segment
      if (clean) ++predicted;
      attempt_start = next;
      clean = true;
    }
  }
  CAPTURE(predicted, restarts, drops);
  CHECK(rx.counters(0).messages == predicted);
  CHECK(rx.counters(0).restarts + rx.counters(0).renacks == restarts);
  // (1 - 1/32)^64 = 13 %: both outcomes must occur often.
  CHECK(predicted > 100);
  CHECK(restarts > 100);
}
