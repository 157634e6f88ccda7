// SPDX-License-Identifier: Apache-2.0
// Tests for the NDP, RoCE and IRN receiver models and the switch queue model:
// tb/common/ref/{rx_common,ndp_receiver,roce_receiver,irn_receiver,
// switch_queue}.hpp. Directed cases for every rule, then one seeded random
// run per model checked against an independent model written here (sets of
// received segments, a per-cycle byte-level output for the switch).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tonic/gb0_receiver.hpp"
#include "tonic/irn_receiver.hpp"
#include "tonic/ndp_receiver.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/rx_common.hpp"
#include "tonic/seq.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/rng.hpp"

using namespace tonic;

namespace {

std::string describe(const RxEvent& e) {
  std::ostringstream s;
  s << rx_type_name(e.type) << " flow " << e.flow << " cum " << e.cum_ack << " sack "
    << e.sack_valid << "/" << e.sack_idx << " grant " << e.grant << " cycle " << e.cycle
    << " cause " << to_string(e.cause) << " ecn " << e.ecn;
  return s.str();
}

/// Checks every field of one event.
void check_ev(const RxEvent& e, uint32_t flow, ref::RxType type, uint32_t cum, uint64_t cycle,
              RxCause cause, bool sack = false, uint32_t sack_idx = 0) {
  INFO(describe(e));
  CHECK(e.flow == flow);
  CHECK(e.type == type);
  CHECK(e.cum_ack == cum);
  CHECK(e.cycle == cycle);
  CHECK(e.cause == cause);
  CHECK(e.sack_valid == sack);
  CHECK(e.sack_idx == sack_idx);
  CHECK(e.grant == 0);
  CHECK_FALSE(e.ecn);
}

/// Checks one PULL.
void check_pull(const RxEvent& e, uint32_t flow, uint16_t grant, uint64_t cycle, uint32_t cum) {
  INFO(describe(e));
  CHECK(e.type == ref::kRxPull);
  CHECK(e.cause == RxCause::kPull);
  CHECK(e.flow == flow);
  CHECK(e.grant == grant);
  CHECK(e.cycle == cycle);
  CHECK(e.cum_ack == cum);
  CHECK_FALSE(e.sack_valid);
  CHECK_FALSE(e.ecn);
}

template <class Rx>
std::vector<RxEvent> feed(Rx& rx, uint64_t cycle, uint32_t flow, uint32_t seg, bool flag = false) {
  rx.segment(cycle, flow, seg, flag);
  return rx.take_acks();
}

template <class Rx>
std::vector<RxEvent> tick(Rx& rx, uint64_t cycle) {
  rx.advance(cycle);
  return rx.take_acks();
}

NdpRxConfig ndp_cfg(uint64_t gap, uint32_t window = 128) {
  NdpRxConfig c;
  c.pull_gap = gap;
  c.window = window;
  return c;
}


// The independent models' receive window (NDP and IRN tests): segment
// offset i arrives at a flow whose first missing offset is s.fm, with the
// held offsets above it in s.above and a window of w; returns its cause and
// advances the window.
template <class S>
RxCause literal_arrive(S& s, uint64_t i, uint64_t w) {
  if (i < s.fm || s.above.count(i) != 0) return RxCause::kDuplicate;
  if (i >= s.fm + w) return RxCause::kBeyondWindow;
  if (i > s.fm) {
    s.above.insert(i);
    return RxCause::kOutOfOrder;
  }
  const RxCause c = s.above.empty() ? RxCause::kInOrder : RxCause::kHoleFill;
  ++s.fm;
  while (s.above.erase(s.fm) != 0) ++s.fm;
  return c;
}

/// The next arrival index of a random closed-loop test (the draws in this
/// order): with probability p_edge at or past the window's edge (fm + w +
/// 0..edge-1); else, while `next` is inside the window, the next new one
/// with probability p_new (next advances); else fm or, as often, one of
/// [fm - back, next). `next` becomes at least the index + 1.
uint64_t pick_index(Rng& rng, uint64_t fm, uint64_t& next, uint64_t w, double p_edge, uint64_t edge,
                    double p_new, uint64_t back) {
  uint64_t i;
  if (rng.chance(p_edge)) {
    i = fm + w + rng.below(edge);
  } else if (next < fm + w && rng.chance(p_new)) {
    i = next++;
  } else if (rng.chance(0.5) || next == 0) {
    i = fm;
  } else {
    i = rng.range(fm >= back ? fm - back : 0, next - 1);
  }
  if (i >= next) next = i + 1;
  return i;
}

}  // namespace

// ---------------------------------------------------------------------------
// Shared pieces

TEST_CASE("rxmodel: the per-flow gap limiter allows one event per flow per gap cycles",
          "[rxmodel][smoke]") {
  FlowGapLimiter lim(100);
  CHECK(lim.try_fire(0, 1000));
  CHECK_FALSE(lim.try_fire(0, 1099));
  CHECK(lim.try_fire(1, 1099));  // per flow
  CHECK(lim.try_fire(0, 1100));  // exactly gap cycles later
  CHECK_FALSE(lim.would_fire(0, 1150));
  lim.reset(0);
  CHECK(lim.would_fire(0, 1150));
  CHECK(lim.try_fire(0, 1150));
  CHECK(lim.fired() == 4);
  CHECK(lim.suppressed() == 1);

  CnpNotifier np;  // defaults: on, 5000 cycles
  CHECK(np.config().gap == 5000);
  CHECK_FALSE(np.arrival(3, 0, false));
  CHECK(np.arrival(3, 0, true));
  CHECK_FALSE(np.arrival(3, 4999, true));
  CHECK(np.arrival(3, 5000, true));
  CHECK(np.sent() == 2);
  CHECK(np.suppressed() == 1);
  CnpConfig off;
  off.enabled = false;
  CnpNotifier none(off);
  CHECK_FALSE(none.arrival(0, 0, true));

  RecvWindow w(4, 0xFFFF'FFFEu);
  CHECK(w.receive(0) == RecvWindow::Arrival::kOutOfOrder);
  CHECK(w.receive(2) == RecvWindow::Arrival::kBeyond);  // 0xFFFFFFFE + 4
  CHECK(w.receive(0) == RecvWindow::Arrival::kDuplicate);
  CHECK(w.receive(0xFFFF'FFFEu) == RecvWindow::Arrival::kHoleFill);  // 0 is held
  CHECK(w.rcv_nxt() == 0xFFFF'FFFFu);
  CHECK(w.receive(0xFFFF'FFFFu) == RecvWindow::Arrival::kHoleFill);
  CHECK(w.rcv_nxt() == 1);
  CHECK(w.held() == 0);
  CHECK(w.received(0xFFFF'FFF0u));
  CHECK_FALSE(w.received(1));

  AckEvent a;
  a.flow = 2;
  a.cum_ack = 9;
  a.sack_valid = true;
  a.sack_idx = 12;
  a.cycle = 40;
  const RxEvent e = to_rx_event(a);
  check_ev(e, 2, ref::kRxSack, 9, 40, RxCause::kInOrder, true, 12);
}

TEST_CASE("rxmodel: the seeded Bernoulli is exact at 0 and 1 and repeatable per seed",
          "[rxmodel][smoke]") {
  SeededBernoulli zero(1), one(1);
  for (int i = 0; i < 1000; ++i) {
    CHECK_FALSE(zero.draw(0.0));
    CHECK(one.draw(1.0));
  }
  CHECK(zero.draws() == 1000);
  auto run = [](uint64_t seed) {
    SeededBernoulli b(seed);
    std::vector<bool> v;
    for (int i = 0; i < 5000; ++i) v.push_back(b.draw(i % 2 ? 0.3 : 0.05));
    return v;
  };
  CHECK(run(7) == run(7));
  CHECK(run(7) != run(8));
  CHECK_THROWS(zero.draw(1.5));
}

// ---------------------------------------------------------------------------
// NdpReceiver

TEST_CASE("rxmodel: NDP acks every full packet and NACKs every trimmed header",
          "[rxmodel][smoke]") {
  NdpReceiver rx(ndp_cfg(12, 8));
  rx.open(0, 100);
  auto ev = feed(rx, 10, 0, 100);
  REQUIRE(ev.size() == 2);
  check_ev(ev[0], 0, ref::kRxAck, 101, 10, RxCause::kInOrder);
  check_pull(ev[1], 0, 1, 10, 101);  // idle pacer: at once
  ev = feed(rx, 11, 0, 102);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxSack, 101, 11, RxCause::kOutOfOrder, true, 102);
  ev = feed(rx, 12, 0, 101, true);  // trimmed
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxNack, 101, 12, RxCause::kTrimmed, false, 101);
  CHECK_FALSE(rx.received(0, 101));  // a header is not the data
  CHECK(rx.rcv_nxt(0) == 101);
  CHECK(rx.held(0) == 1);
  ev = feed(rx, 13, 0, 101);  // the retransmission
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxAck, 103, 13, RxCause::kHoleFill);
  ev = feed(rx, 14, 0, 100);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxAck, 103, 14, RxCause::kDuplicate);
  ev = feed(rx, 15, 0, 102);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxAck, 103, 15, RxCause::kDuplicate);
  ev = feed(rx, 16, 0, 111);  // rcv_nxt + W
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxAck, 103, 16, RxCause::kBeyondWindow);
  CHECK_FALSE(rx.received(0, 111));
  ev = feed(rx, 17, 0, 110);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxSack, 103, 17, RxCause::kOutOfOrder, true, 110);
  ev = feed(rx, 18, 0, 110);  // duplicate of a held segment: still SACKed
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxSack, 103, 18, RxCause::kDuplicate, true, 110);
  // Each of the 9 acks/nacks earned one pull: 8 are still paced, 12 apart.
  CHECK(rx.pending_timers() == 8);
  CHECK(rx.next_timer() == 22);
  ev = tick(rx, 1000);
  REQUIRE(ev.size() == 8);
  for (uint16_t k = 0; k < 8; ++k) check_pull(ev[k], 0, static_cast<uint16_t>(2 + k), 22 + 12 * k, 103);
  const RxCounters& st = rx.stats();
  CHECK(st.segments == 9);
  CHECK(st.acks == 8);
  CHECK(st.nacks == 1);
  CHECK(st.trimmed == 1);
  CHECK(st.pulls == 9);
  CHECK(st.in_order == 2);
  CHECK(st.hole_fills == 1);
  CHECK(st.out_of_order == 2);
  CHECK(st.duplicates == 3);
  CHECK(st.beyond_window == 1);
  CHECK(rx.stats(0).pulls == 9);
  CHECK(rx.pending_timers() == 0);
  CHECK(rx.next_timer() == UINT64_MAX);
}

TEST_CASE("rxmodel: NDP pull pacer is shared by all flows: one pull per pull_gap cycles, "
          "FIFO across flows",
          "[rxmodel][smoke]") {
  NdpReceiver rx(ndp_cfg(pull_gap_cycles(1500, 125)));  // 12 cycles
  for (uint32_t f = 0; f < 3; ++f) rx.open(f);
  std::vector<RxEvent> pulls;
  auto keep = [&](const std::vector<RxEvent>& ev) {
    for (const RxEvent& e : ev)
      if (e.type == ref::kRxPull) pulls.push_back(e);
  };
  keep(feed(rx, 100, 0, 0));
  keep(feed(rx, 100, 1, 0));
  keep(feed(rx, 100, 2, 0));
  keep(feed(rx, 101, 1, 1, true));  // trimmed: NACK, also earns a pull
  keep(feed(rx, 102, 0, 1));
  keep(feed(rx, 103, 2, 1));
  REQUIRE(pulls.size() == 1);
  CHECK(rx.pending_timers() == 5);
  CHECK(rx.next_timer() == 112);
  CHECK(tick(rx, 111).empty());
  keep(tick(rx, 112));
  REQUIRE(pulls.size() == 2);
  keep(tick(rx, 299));
  REQUIRE(pulls.size() == 6);
  CHECK(rx.pending_timers() == 0);
  // An idle pacer releases at once; after a release, the next waits the gap.
  keep(feed(rx, 300, 1, 1));
  REQUIRE(pulls.size() == 7);
  keep(feed(rx, 305, 0, 2));
  CHECK(tick(rx, 311).empty());
  keep(tick(rx, 312));
  REQUIRE(pulls.size() == 8);
  check_pull(pulls[0], 0, 1, 100, 1);
  check_pull(pulls[1], 1, 1, 112, 1);
  check_pull(pulls[2], 2, 1, 124, 2);
  check_pull(pulls[3], 1, 2, 136, 1);
  check_pull(pulls[4], 0, 2, 148, 2);
  check_pull(pulls[5], 2, 2, 160, 2);
  check_pull(pulls[6], 1, 3, 300, 2);
  check_pull(pulls[7], 0, 3, 312, 3);
  CHECK(rx.last_pull_cycle() == 312);

  SECTION("the spacing is the pull_gap parameter") {
    NdpReceiver r5(ndp_cfg(5));
    for (uint32_t f = 0; f < 3; ++f) r5.segment(0, f, 0);
    auto ev = tick(r5, 100);
    std::vector<uint64_t> at;
    for (const RxEvent& e : ev)
      if (e.type == ref::kRxPull) at.push_back(e.cycle);
    CHECK(at == std::vector<uint64_t>{0, 5, 10});
  }
}

TEST_CASE("rxmodel: NDP pull numbers are cumulative per flow and wrap at 2^16",
          "[rxmodel][smoke]") {
  NdpReceiver rx(ndp_cfg(1));
  rx.open(7, 0, 0xFFFE);
  rx.open(8, 50, 0);
  auto ev = feed(rx, 0, 7, 0);
  REQUIRE(ev.size() == 2);
  check_ev(ev[0], 7, ref::kRxAck, 1, 0, RxCause::kInOrder);
  check_pull(ev[1], 7, 0xFFFF, 0, 1);
  ev = feed(rx, 0, 8, 50);
  REQUIRE(ev.size() == 1);  // its pull is due in cycle 1
  ev = feed(rx, 1, 7, 1);   // releases flow 8's pull first
  REQUIRE(ev.size() == 2);
  check_pull(ev[0], 8, 1, 1, 51);
  check_ev(ev[1], 7, ref::kRxAck, 2, 1, RxCause::kInOrder);
  ev = feed(rx, 2, 7, 2);
  REQUIRE(ev.size() == 2);
  check_pull(ev[0], 7, 0x0000, 2, 2);  // wrapped; released before seg 2 is handled
  check_ev(ev[1], 7, ref::kRxAck, 3, 2, RxCause::kInOrder);
  ev = feed(rx, 3, 8, 51, true);
  REQUIRE(ev.size() == 2);
  check_pull(ev[0], 7, 0x0001, 3, 3);
  check_ev(ev[1], 8, ref::kRxNack, 51, 3, RxCause::kTrimmed, false, 51);
  ev = tick(rx, 10);
  REQUIRE(ev.size() == 1);
  check_pull(ev[0], 8, 2, 4, 51);
  CHECK(rx.pull_number(7) == 1);
  CHECK(rx.pull_number(8) == 2);

  // 70,000 pulls of one flow: the number counts on across two wraps.
  NdpReceiver big(ndp_cfg(1));
  big.open(9, 0, 0x8000);
  uint64_t n = 0;
  bool ok = true;
  for (uint32_t i = 0; i < 70'000; ++i) {
    for (const RxEvent& e : feed(big, i, 9, i)) {
      if (e.type != ref::kRxPull) continue;
      ++n;
      ok = ok && e.grant == static_cast<uint16_t>(0x8000 + n) && e.cycle == i;
    }
  }
  CHECK(ok);
  CHECK(n == 70'000);
  CHECK(big.pull_number(9) == static_cast<uint16_t>(0x8000 + 70'000));
}

TEST_CASE("rxmodel: NDP receiver rejects bad settings and backwards time", "[rxmodel][badinput]") {
  CHECK_THROWS(NdpReceiver(ndp_cfg(0)));
  CHECK_THROWS(NdpReceiver(ndp_cfg(12, 0)));
  NdpReceiver rx;
  rx.segment(5, 0, 0);
  CHECK_THROWS(rx.segment(4, 0, 1));
  CHECK_THROWS(rx.advance(3));
}

// ---------------------------------------------------------------------------
// RoceReceiver

TEST_CASE("rxmodel: RoCE acks in-order packets cumulatively, every packet or every k-th",
          "[rxmodel][smoke]") {
  SECTION("every packet") {
    RoceReceiver rx;
    rx.open(0, 10);
    auto ev = feed(rx, 0, 0, 10);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 11, 0, RxCause::kInOrder);
    ev = feed(rx, 1, 0, 11);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 12, 1, RxCause::kInOrder);
    CHECK(rx.stats().acks == 2);
  }
  SECTION("coalesced every 3rd; a duplicate is re-acked at once and covers pending ones") {
    RoceRxConfig c;
    c.ack_every = 3;
    RoceReceiver rx(c);
    CHECK(feed(rx, 0, 0, 0).empty());
    CHECK(feed(rx, 1, 0, 1).empty());
    CHECK(rx.unacked(0) == 2);
    auto ev = feed(rx, 2, 0, 2);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 3, 2, RxCause::kCoalesced);
    ev = feed(rx, 3, 0, 1);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 3, 3, RxCause::kDuplicate);
    CHECK(feed(rx, 4, 0, 3).empty());
    CHECK(feed(rx, 5, 0, 4).empty());
    ev = feed(rx, 6, 0, 5);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 6, 6, RxCause::kCoalesced);
    CHECK(feed(rx, 7, 0, 6).empty());
    ev = feed(rx, 8, 0, 0);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 7, 8, RxCause::kDuplicate);  // covers PSN 6
    CHECK(rx.unacked(0) == 0);
    CHECK(feed(rx, 9, 0, 7).empty());
    CHECK(feed(rx, 10, 0, 8).empty());
    ev = feed(rx, 11, 0, 9);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 10, 11, RxCause::kCoalesced);
    CHECK(rx.pending_timers() == 0);  // no timer unless asked for
    CHECK(tick(rx, 100'000).empty());
  }
  SECTION("the optional coalescing timer acks a tail") {
    RoceRxConfig c;
    c.ack_every = 4;
    c.ack_timeout = 50;
    RoceReceiver rx(c);
    CHECK(feed(rx, 100, 0, 0).empty());
    CHECK(rx.next_timer() == 150);
    CHECK(feed(rx, 120, 0, 1).empty());
    CHECK(rx.next_timer() == 150);  // runs from the first unacked packet
    CHECK(tick(rx, 149).empty());
    auto ev = tick(rx, 150);
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxAck, 2, 150, RxCause::kTimer);
    CHECK(rx.pending_timers() == 0);
    CHECK(rx.stats().timer_acks == 1);
    CHECK(feed(rx, 200, 0, 2).empty());
    ev = feed(rx, 210, 0, 5);  // a NACK covers the pending packet and stops the timer
    REQUIRE(ev.size() == 1);
    check_ev(ev[0], 0, ref::kRxNack, 3, 210, RxCause::kOutOfOrder);
    CHECK(rx.pending_timers() == 0);
    CHECK(tick(rx, 1000).empty());
  }
}

TEST_CASE("rxmodel: RoCE drops a PSN above the expected one and NACKs it at most once per "
          "nack_gap until the expected PSN arrives",
          "[rxmodel][smoke]") {
  RoceRxConfig c;
  c.nack_gap = 100;
  RoceReceiver rx(c);
  auto ev = feed(rx, 0, 0, 0);
  REQUIRE(ev.size() == 1);
  ev = feed(rx, 10, 0, 2);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxNack, 1, 10, RxCause::kOutOfOrder);
  CHECK(rx.expected(0) == 1);              // go-back-N keeps nothing
  CHECK(feed(rx, 11, 0, 3).empty());      // limited
  CHECK(feed(rx, 109, 0, 4).empty());     // 99 cycles later: still limited
  ev = feed(rx, 110, 0, 5);               // 100 cycles later
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxNack, 1, 110, RxCause::kOutOfOrder);
  ev = feed(rx, 115, 0, 1);  // the expected PSN: the limit is lifted
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxAck, 2, 115, RxCause::kInOrder);
  ev = feed(rx, 116, 0, 4);  // 6 cycles after the last NACK, but a new gap
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxNack, 2, 116, RxCause::kOutOfOrder);
  CHECK(feed(rx, 117, 0, 5).empty());
  ev = feed(rx, 117, 1, 5);  // per flow
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 1, ref::kRxNack, 0, 117, RxCause::kOutOfOrder);
  // The go-back-N retransmission is acked in order.
  ev = feed(rx, 120, 0, 2);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxAck, 3, 120, RxCause::kInOrder);
  CHECK(rx.stats(0).nacks == 3);
  CHECK(rx.stats(0).nacks_suppressed == 3);
  CHECK(rx.stats(0).out_of_order == 6);
  CHECK(rx.stats(1).nacks == 1);

  SECTION("nack_gap = 0: every out-of-order packet is NACKed") {
    c.nack_gap = 0;
    RoceReceiver all(c);
    CHECK(feed(all, 0, 0, 5).size() == 1);
    CHECK(feed(all, 0, 0, 6).size() == 1);
    CHECK(all.stats().nacks == 2);
  }
}

TEST_CASE("rxmodel: RoCE sends a CNP on a CE mark at most once per flow per 50 us",
          "[rxmodel][smoke]") {
  RoceReceiver rx;  // CNP gap 5000 cycles
  REQUIRE(rx.config().cnp.gap == 5000);
  auto ev = feed(rx, 1000, 0, 0, true);
  REQUIRE(ev.size() == 2);
  check_ev(ev[0], 0, ref::kRxAck, 1, 1000, RxCause::kInOrder);
  check_ev(ev[1], 0, ref::kRxCnp, 1, 1000, RxCause::kCnp);
  ev = feed(rx, 5999, 0, 1, true);  // 4999 cycles later
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].type == ref::kRxAck);
  ev = feed(rx, 6000, 0, 2, false);  // no CE, no CNP
  REQUIRE(ev.size() == 1);
  ev = feed(rx, 6000, 0, 3, true);  // 5000 cycles after the CNP
  REQUIRE(ev.size() == 2);
  check_ev(ev[1], 0, ref::kRxCnp, 4, 6000, RxCause::kCnp);
  ev = feed(rx, 6001, 1, 0, true);  // another flow
  REQUIRE(ev.size() == 2);
  check_ev(ev[1], 1, ref::kRxCnp, 1, 6001, RxCause::kCnp);
  ev = feed(rx, 11'000, 0, 1, true);  // a duplicate with CE
  REQUIRE(ev.size() == 2);
  check_ev(ev[0], 0, ref::kRxAck, 4, 11'000, RxCause::kDuplicate);
  check_ev(ev[1], 0, ref::kRxCnp, 4, 11'000, RxCause::kCnp);
  ev = feed(rx, 16'000, 0, 9, true);  // an out-of-order (dropped) packet with CE
  REQUIRE(ev.size() == 2);
  check_ev(ev[0], 0, ref::kRxNack, 4, 16'000, RxCause::kOutOfOrder);
  check_ev(ev[1], 0, ref::kRxCnp, 4, 16'000, RxCause::kCnp);
  CHECK(rx.stats().cnps == 5);
  CHECK(rx.stats().cnps_suppressed == 1);
  CHECK(rx.stats().ce == 6);

  SECTION("the gap is a parameter") {
    RoceRxConfig c;
    c.cnp.gap = 10;
    RoceReceiver r(c);
    CHECK(feed(r, 0, 0, 0, true).size() == 2);
    CHECK(feed(r, 9, 0, 1, true).size() == 1);
    CHECK(feed(r, 10, 0, 2, true).size() == 2);
  }
  SECTION("disabled: no CNP") {
    RoceRxConfig c;
    c.cnp.enabled = false;
    RoceReceiver r(c);
    CHECK(feed(r, 0, 0, 0, true).size() == 1);
    CHECK(r.stats().cnps == 0);
    CHECK(r.stats().cnps_suppressed == 0);
    CHECK(r.stats().ce == 1);
  }
}

TEST_CASE("rxmodel: RoCE receiver rejects bad settings and backwards time", "[rxmodel][badinput]") {
  RoceRxConfig c;
  c.ack_every = 0;
  CHECK_THROWS(RoceReceiver(c));
  RoceReceiver rx;
  rx.segment(5, 0, 0);
  CHECK_THROWS(rx.segment(4, 0, 1));
  CHECK_THROWS(rx.advance(3));
}

// ---------------------------------------------------------------------------
// IrnReceiver

TEST_CASE("rxmodel: IRN keeps out-of-order packets, and its NACK carries the cumulative ack "
          "and the PSN that arrived",
          "[rxmodel][smoke]") {
  IrnRxConfig c;
  c.window = 8;
  IrnReceiver rx(c);
  auto one = [&](uint64_t cyc, uint32_t flow, uint32_t psn) {
    auto ev = feed(rx, cyc, flow, psn);
    REQUIRE(ev.size() == 1);
    return ev[0];
  };
  check_ev(one(0, 0, 0), 0, ref::kRxAck, 1, 0, RxCause::kInOrder);
  check_ev(one(1, 0, 3), 0, ref::kRxNack, 1, 1, RxCause::kOutOfOrder, true, 3);
  check_ev(one(2, 0, 5), 0, ref::kRxNack, 1, 2, RxCause::kOutOfOrder, true, 5);
  check_ev(one(3, 0, 2), 0, ref::kRxNack, 1, 3, RxCause::kOutOfOrder, true, 2);
  CHECK(rx.held(0) == 3);
  check_ev(one(4, 0, 1), 0, ref::kRxAck, 4, 4, RxCause::kHoleFill);  // 2 and 3 were held
  CHECK(rx.held(0) == 1);
  CHECK(rx.received(0, 5));
  CHECK_FALSE(rx.received(0, 4));
  check_ev(one(5, 0, 5), 0, ref::kRxNack, 4, 5, RxCause::kDuplicate, true, 5);
  check_ev(one(6, 0, 0), 0, ref::kRxAck, 4, 6, RxCause::kDuplicate);
  check_ev(one(7, 0, 12), 0, ref::kRxAck, 4, 7, RxCause::kBeyondWindow);  // 4 + W
  check_ev(one(8, 0, 11), 0, ref::kRxNack, 4, 8, RxCause::kOutOfOrder, true, 11);
  check_ev(one(9, 0, 4), 0, ref::kRxAck, 6, 9, RxCause::kHoleFill);
  const RxCounters& st = rx.stats(0);
  CHECK(st.acks == 5);
  CHECK(st.nacks == 5);
  CHECK(st.beyond_window == 1);
  CHECK(st.duplicates == 2);

  // Across 2^32.
  rx.open(1, 0xFFFF'FFFEu);
  check_ev(one(20, 1, 0), 1, ref::kRxNack, 0xFFFF'FFFEu, 20, RxCause::kOutOfOrder, true, 0);
  check_ev(one(21, 1, 0xFFFF'FFFEu), 1, ref::kRxAck, 0xFFFF'FFFFu, 21, RxCause::kHoleFill);
  check_ev(one(22, 1, 0xFFFF'FFFFu), 1, ref::kRxAck, 1, 22, RxCause::kHoleFill);
}

TEST_CASE("rxmodel: IRN sends CNPs by the same 50 us rule when ECN is enabled",
          "[rxmodel][smoke]") {
  IrnReceiver rx;
  REQUIRE(rx.config().cnp.enabled);
  auto ev = feed(rx, 0, 0, 0, true);
  REQUIRE(ev.size() == 2);
  check_ev(ev[1], 0, ref::kRxCnp, 1, 0, RxCause::kCnp);
  ev = feed(rx, 4999, 0, 2, true);
  REQUIRE(ev.size() == 1);
  check_ev(ev[0], 0, ref::kRxNack, 1, 4999, RxCause::kOutOfOrder, true, 2);
  ev = feed(rx, 5000, 0, 1, true);
  REQUIRE(ev.size() == 2);
  check_ev(ev[0], 0, ref::kRxAck, 3, 5000, RxCause::kHoleFill);
  check_ev(ev[1], 0, ref::kRxCnp, 3, 5000, RxCause::kCnp);
  CHECK(rx.stats().cnps == 2);
  CHECK(rx.stats().cnps_suppressed == 1);

  IrnRxConfig off;
  off.cnp.enabled = false;
  IrnReceiver quiet(off);
  CHECK(feed(quiet, 0, 0, 0, true).size() == 1);
  CHECK(quiet.stats().cnps == 0);
  CHECK_THROWS(IrnReceiver(IrnRxConfig{0, {}}));
  quiet.advance(10);
  CHECK_THROWS(quiet.advance(9));
  CHECK_THROWS(quiet.segment(9, 0, 1));
}

// ---------------------------------------------------------------------------
// SwitchQueue

TEST_CASE("rxmodel: switch queue drains at its rate, exact in cycles (fixed point)",
          "[rxmodel][smoke]") {
  SwitchConfig c;  // 125 B/cycle
  c.ecn = false;
  SECTION("125 B/cycle: 1500 B take 12 cycles, back to back") {
    SwitchQueue q(c);
    std::vector<std::pair<uint64_t, uint32_t>> out;  // (departure, seg)
    for (uint64_t cyc = 0; cyc < 200; ++cyc) {
      for (const SwitchPacket& p : q.pop(cyc)) {
        CHECK(p.departure == cyc);
        out.emplace_back(cyc, p.seg);
      }
      if (cyc == 10)
        for (uint32_t s = 0; s < 3; ++s) q.push(cyc, SwitchPacket{0, s, 1500});
      if (cyc == 15) q.push(cyc, SwitchPacket{1, 9, 1500});
      if (cyc == 100) q.push(cyc, SwitchPacket{1, 10, 125});  // idle queue: starts at once
    }
    CHECK(out == std::vector<std::pair<uint64_t, uint32_t>>{
                     {22, 0}, {34, 1}, {46, 2}, {58, 9}, {101, 10}});
    CHECK(q.departed() == 5);
    CHECK(q.bytes_departed() == 4 * 1500 + 125);
    CHECK(q.idle());
  }
  SECTION("12.5 B/cycle: no rounding loss over many packets") {
    c.drain_q16 = 819'200;  // 12.5 * 2^16
    SwitchQueue q(c);
    const uint64_t dur = q.duration_q16(101);
    CHECK(dur == 529'531);  // ceil(101 / 12.5 * 2^16)
    for (uint32_t s = 0; s < 1000; ++s) q.push(0, SwitchPacket{0, s, 101});
    std::vector<uint64_t> dep;
    for (uint64_t cyc = 0; dep.size() < 1000; ++cyc) {
      REQUIRE(cyc < 20'000);
      for (const SwitchPacket& p : q.pop(cyc)) dep.push_back(p.departure);
    }
    CHECK(dep[0] == 9);   // 8.08 cycles
    CHECK(dep[1] == 17);  // 16.16
    CHECK(dep[999] == (1000 * dur + 0xFFFF) >> 16);
    CHECK(std::fabs(double(dep[999]) - 1000 * 101 / 12.5) <= 1.0);
  }
  SECTION("several small packets can leave in one cycle") {
    SwitchQueue q(c);
    for (uint32_t s = 0; s < 4; ++s) q.push(0, SwitchPacket{0, s, 25});  // 100 B < 125
    CHECK(q.next_departure() == 1);
    CHECK(q.pop(0).empty());
    CHECK(q.pop(1).size() == 4);
  }
}

TEST_CASE("rxmodel: switch ECN marks with probability 0 below Kmin, linear to Pmax at Kmax, 1 "
          "above",
          "[rxmodel][smoke]") {
  TONIC_SEED(0x5eed4001);
  SwitchConfig c;  // Kmin 5000, Kmax 200000, Pmax 1 %
  c.seed = tonic_seed_;
  {
    SwitchQueue q(c);
    CHECK(q.mark_probability(0) == 0.0);
    CHECK(q.mark_probability(5000) == 0.0);
    CHECK(q.mark_probability(5001) > 0.0);
    CHECK(q.mark_probability(102'500) == Approx(0.005));
    CHECK(q.mark_probability(200'000) == Approx(0.01));
    CHECK(q.mark_probability(200'001) == 1.0);
  }
  // Steady state at a chosen backlog: 500-B packets drained at 500 B/cycle,
  // one departs and one is pushed per cycle, so every measured packet sees
  // the same backlog. Marks are counted over n packets and compared with
  // the binomial mean n * p within 5 standard deviations.
  auto measure = [&](uint64_t backlog, uint64_t n, uint64_t seed) {
    SwitchConfig sc = c;
    sc.drain_q16 = uint64_t{500} << 16;
    sc.seed = seed;
    SwitchQueue q(sc);
    const uint32_t prefill = static_cast<uint32_t>(backlog / 500 + 1);
    for (uint32_t s = 0; s < prefill; ++s) q.push(0, SwitchPacket{0, s, 500});
    uint64_t marks = 0;
    bool steady = true;
    for (uint64_t k = 1; k <= n; ++k) {
      q.pop(k);
      steady = steady && q.backlog() == backlog;
      if (q.push(k, SwitchPacket{1, static_cast<uint32_t>(k), 500}) == SwitchVerdict::kMarked)
        ++marks;
    }
    CHECK(steady);
    return marks;
  };
  for (uint64_t backlog : {uint64_t{102'500}, uint64_t{200'000}}) {
    constexpr uint64_t kN = 200'000;
    const double p = SwitchQueue(c).mark_probability(backlog);
    const uint64_t m = measure(backlog, kN, tonic_seed_);
    const double mean = p * kN, sd = std::sqrt(kN * p * (1 - p));
    INFO("backlog " << backlog << " p " << p << " marks " << m << " expected " << mean
                    << " +- 5 * " << sd);
    CHECK(std::fabs(double(m) - mean) <= 5 * sd);
  }
  CHECK(measure(5000, 20'000, tonic_seed_) == 0);            // at Kmin
  CHECK(measure(200'500, 20'000, tonic_seed_) == 20'000);    // above Kmax
  CHECK(measure(102'500, 20'000, 3) == measure(102'500, 20'000, 3));  // repeatable
  CHECK(measure(102'500, 20'000, 3) != measure(102'500, 20'000, 4));

  SECTION("ECN off: never marked") {
    c.ecn = false;
    SwitchQueue q(c);
    for (uint32_t s = 0; s < 1000; ++s) CHECK(q.push(0, SwitchPacket{0, s, 1500}) == SwitchVerdict::kQueued);
    CHECK(q.marks() == 0);
  }
}

TEST_CASE("rxmodel: a full switch queue drops, or trims to a header queued ahead of data",
          "[rxmodel][smoke]") {
  SwitchConfig c;
  c.ecn = false;
  c.capacity = 3000;
  SECTION("drop") {
    SwitchQueue q(c);
    CHECK(q.push(0, SwitchPacket{0, 0, 1500}) == SwitchVerdict::kQueued);
    CHECK(q.push(0, SwitchPacket{0, 1, 1500}) == SwitchVerdict::kQueued);
    CHECK(q.push(0, SwitchPacket{0, 2, 1500}) == SwitchVerdict::kDropped);
    CHECK(q.push(0, SwitchPacket{0, 3, 100}) == SwitchVerdict::kDropped);
    CHECK(q.backlog() == 3000);
    CHECK(q.drops() == 2);
    CHECK(q.trims() == 0);
    q.pop(12);  // seg 0 departs: room for one more
    CHECK(q.push(12, SwitchPacket{0, 4, 1500}) == SwitchVerdict::kQueued);
  }
  SECTION("trim") {
    c.overflow = SwitchOverflow::kTrim;
    SwitchQueue q(c);
    std::vector<SwitchPacket> out;
    for (uint64_t cyc = 0; cyc < 100; ++cyc) {
      for (const SwitchPacket& p : q.pop(cyc)) out.push_back(p);
      if (cyc == 0) {
        CHECK(q.push(cyc, SwitchPacket{0, 0, 1500}) == SwitchVerdict::kQueued);
        CHECK(q.push(cyc, SwitchPacket{0, 1, 1500}) == SwitchVerdict::kQueued);
        CHECK(q.push(cyc, SwitchPacket{0, 2, 1500}) == SwitchVerdict::kTrimmed);
      }
      if (cyc == 5) {  // seg 0 is being sent, seg 1 waits: full
        CHECK(q.backlog() == 3000);
        CHECK(q.push(cyc, SwitchPacket{1, 3, 1500}) == SwitchVerdict::kTrimmed);
      }
    }
    // The header of seg 2 goes first (it arrived with the data, ahead of
    // it); seg 3's header waits for seg 0 (no preemption), then overtakes
    // seg 1. 64 B take 0.512 cycles at 125 B/cycle.
    REQUIRE(out.size() == 4);
    std::vector<uint32_t> segs;
    for (const SwitchPacket& p : out) segs.push_back(p.seg);
    CHECK(segs == std::vector<uint32_t>{2, 0, 3, 1});
    CHECK(out[0].departure == 1);
    CHECK(out[1].departure == 13);
    CHECK(out[2].departure == 14);
    CHECK(out[3].departure == 26);
    CHECK(out[0].trimmed);
    CHECK(out[0].len == 64);
    CHECK(out[2].trimmed);
    CHECK(out[2].flow == 1);
    CHECK_FALSE(out[1].trimmed);
    CHECK(out[1].len == 1500);
    CHECK(q.trims() == 2);
    CHECK(q.drops() == 0);
  }
  SECTION("a header that does not fit the header queue is dropped") {
    c.overflow = SwitchOverflow::kTrim;
    c.header_capacity = 110;
    SwitchQueue q(c);
    CHECK(q.push(0, SwitchPacket{0, 0, 3000}) == SwitchVerdict::kQueued);  // exactly full
    CHECK(q.push(0, SwitchPacket{0, 1, 1500}) == SwitchVerdict::kTrimmed);  // 64 B header
    CHECK(q.push(0, SwitchPacket{0, 2, 1500}) == SwitchVerdict::kDropped);  // 128 > 110
    CHECK(q.push(0, SwitchPacket{0, 3, 40}) == SwitchVerdict::kTrimmed);    // 40 B: 104
    CHECK(q.header_backlog() == 104);
    CHECK(q.trims() == 3);  // a trimmed packet whose header is dropped counts in both
    CHECK(q.drops() == 1);
    CHECK(q.header_drops() == 1);
  }
}

TEST_CASE("rxmodel: switch queue rejects bad settings and backwards time", "[rxmodel][badinput]") {
  SwitchConfig c;
  c.drain_q16 = 0;
  CHECK_THROWS(SwitchQueue(c));
  c = SwitchConfig{};
  c.kmin = c.kmax;
  CHECK_THROWS(SwitchQueue(c));
  c = SwitchConfig{};
  c.pmax = 1.5;
  CHECK_THROWS(SwitchQueue(c));
  c = SwitchConfig{};
  c.header_bytes = 0;
  CHECK_THROWS(SwitchQueue(c));
  SwitchQueue q;
  CHECK_THROWS(q.push(0, SwitchPacket{0, 0, 0}));
  q.pop(10);
  CHECK_THROWS(q.push(9, SwitchPacket{0, 0, 100}));
}

// ---------------------------------------------------------------------------
// Random runs against independent models

TEST_CASE("rxmodel: NDP random arrivals: one ack or nack per packet, pulls paced FIFO across "
          "flows with cumulative numbers",
          "[rxmodel][stress]") {
  TONIC_SEED(0x5eed4101);
  constexpr uint32_t kFlows = 5;
  constexpr uint32_t kW = 32;
  constexpr uint64_t kGap = 7;
  constexpr uint64_t kArrivals = 100'000;
  Rng rng(tonic_seed_);
  NdpReceiver rx(ndp_cfg(kGap, kW));

  // Independent model: unwrapped indices from each flow's base, a std::set
  // of received segments above the first missing one.
  struct F {
    uint32_t base = 0;
    uint64_t fm = 0;
    std::set<uint64_t> above;
    uint16_t pull = 0;
    uint64_t next_new = 0;  // test sender
  };
  std::vector<F> fl(kFlows);
  for (uint32_t f = 0; f < kFlows; ++f) {
    fl[f].base = f == 0 ? 0xFFFF'FFFFu - static_cast<uint32_t>(rng.below(200))
                        : static_cast<uint32_t>(rng.bits64());
    fl[f].pull = f == 0 ? uint16_t{0xFFF0} : static_cast<uint16_t>(rng.bits64());
    rx.open(f, fl[f].base, fl[f].pull);
  }
  struct Arrival {
    uint32_t f;
    uint64_t i;
    bool trimmed;
    uint64_t cycle;
  };
  std::deque<std::pair<uint32_t, uint64_t>> reqs;  // (flow, request cycle), FIFO
  bool any_rel = false;
  uint64_t last_rel = 0, last_cycle = 0, pulls = 0, acks = 0, nacks = 0;
  uint64_t immediate = 0, delayed_pulls = 0;
  auto due = [&](const std::pair<uint32_t, uint64_t>& r) {
    return any_rel ? std::max(r.second, last_rel + kGap) : r.second;
  };

  // Checks the events of one call in order: pulls against the FIFO of
  // requests, the ack/nack of the arrival (if any) against the rules.
  auto check = [&](const std::vector<RxEvent>& ev, const Arrival* a, uint64_t now) {
    size_t own = 0;
    for (const RxEvent& e : ev) {
      INFO(describe(e));
      REQUIRE(e.cycle >= last_cycle);
      REQUIRE(e.cycle <= now);
      last_cycle = e.cycle;
      if (e.type == ref::kRxPull) {
        REQUIRE_FALSE(reqs.empty());
        const auto r = reqs.front();
        reqs.pop_front();
        const uint64_t at = due(r);
        F& s = fl[r.first];
        ++s.pull;
        REQUIRE(e.flow == r.first);
        REQUIRE(e.cycle == at);
        REQUIRE(e.grant == s.pull);
        REQUIRE(e.cum_ack == static_cast<uint32_t>(s.base + s.fm));
        if (any_rel) REQUIRE(at - last_rel >= kGap);
        (at == r.second ? immediate : delayed_pulls) += 1;
        any_rel = true;
        last_rel = at;
        ++pulls;
        continue;
      }
      REQUIRE(a != nullptr);
      REQUIRE(++own == 1);
      F& s = fl[a->f];
      RxEvent x;
      x.flow = a->f;
      x.cycle = a->cycle;
      if (a->trimmed) {
        x.type = ref::kRxNack;
        x.cause = RxCause::kTrimmed;
        x.sack_idx = static_cast<uint32_t>(s.base + a->i);
        x.echo = echo_of(0, false);  // no stamp given: stamp 0
        ++nacks;
      } else {
        const uint64_t i = a->i;
        x.cause = literal_arrive(s, i, kW);
        x.type = ref::kRxAck;
        if (x.cause != RxCause::kBeyondWindow && i > s.fm) {
          x.type = ref::kRxSack;
          x.sack_valid = true;
          x.sack_idx = static_cast<uint32_t>(s.base + i);
        }
        ++acks;
      }
      x.cum_ack = static_cast<uint32_t>(s.base + s.fm);
      INFO("expected " << describe(x));
      REQUIRE(e == x);
      reqs.emplace_back(a->f, a->cycle);
    }
    if (a != nullptr) REQUIRE(own == 1);
    // Nothing overdue stays in the pacer.
    REQUIRE(rx.pending_timers() == reqs.size());
    if (!reqs.empty()) {
      REQUIRE(due(reqs.front()) > now);
      REQUIRE(rx.next_timer() == due(reqs.front()));
    }
  };

  uint64_t cycle = 0;
  for (uint64_t n = 0; n < kArrivals; ++n) {
    cycle += rng.chance(0.01) ? rng.range(100, 400) : rng.below(13);
    if (rng.chance(0.05)) {
      rx.advance(cycle);
      check(rx.take_acks(), nullptr, cycle);
    }
    const uint32_t f = static_cast<uint32_t>(rng.below(kFlows));
    F& s = fl[f];
    const uint64_t i = pick_index(rng, s.fm, s.next_new, kW, 0.02, 3, 0.6, 3);
    const Arrival a{f, i, rng.chance(0.15), cycle};
    rx.segment(cycle, f, static_cast<uint32_t>(s.base + i), a.trimmed);
    check(rx.take_acks(), &a, cycle);
  }
  cycle += kGap * (reqs.size() + 2);
  rx.advance(cycle);
  check(rx.take_acks(), nullptr, cycle);

  const RxCounters& st = rx.stats();
  INFO("acks " << acks << " nacks " << nacks << " pulls " << pulls << " immediate " << immediate
               << " paced " << delayed_pulls);
  CHECK(reqs.empty());
  CHECK(pulls == acks + nacks);
  CHECK(st.pulls == pulls);
  CHECK(st.acks == acks);
  CHECK(st.nacks == nacks);
  CHECK(st.segments == kArrivals);
  CHECK(st.trimmed > 1000);
  CHECK(st.out_of_order > 1000);
  CHECK(st.duplicates > 1000);
  CHECK(st.hole_fills > 100);
  CHECK(st.beyond_window > 100);
  CHECK(immediate > 100);       // the pacer was idle at times
  CHECK(delayed_pulls > 10'000);  // and backlogged at others
  CHECK(fl[0].fm > 200);        // flow 0 crossed 2^32
  CHECK(rx.pull_number(0) == fl[0].pull);
  CHECK(fl[0].pull < 0xFFF0);   // and its pull number wrapped
}

TEST_CASE("rxmodel: RoCE random go-back-N traffic: ACK/NACK/CNP exactly as an independent "
          "model says",
          "[rxmodel][stress]") {
  TONIC_SEED(0x5eed4102);
  constexpr uint32_t kFlows = 4;
  constexpr uint64_t kArrivals = 100'000;
  RoceRxConfig c;
  c.ack_every = 3;
  c.ack_timeout = 40;
  c.nack_gap = 64;
  c.cnp.gap = 300;
  RoceReceiver rx(c);
  Rng rng(tonic_seed_);

  struct F {
    uint32_t base = 0;
    uint64_t exp = 0;
    uint32_t unacked = 0;
    bool timer = false;
    uint64_t deadline = 0;
    bool nack_any = false;  // a NACK since the expected PSN last arrived
    uint64_t nack_at = 0;
    bool cnp_any = false;
    uint64_t cnp_at = 0;
    uint64_t next = 0;  // test sender
    uint32_t last_cum = 0;
  };
  std::vector<F> fl(kFlows);
  for (uint32_t f = 0; f < kFlows; ++f) {
    fl[f].base = f == 0 ? 0xFFFF'FFFFu - static_cast<uint32_t>(rng.below(200))
                        : static_cast<uint32_t>(rng.bits64());
    fl[f].last_cum = fl[f].base;
    rx.open(f, fl[f].base);
  }
  std::vector<RxEvent> expect;
  auto put = [&](uint32_t f, ref::RxType t, uint64_t cyc, RxCause cause) {
    F& s = fl[f];
    expect.push_back(rx_event(f, t, static_cast<uint32_t>(s.base + s.exp), cyc, cause));
    if (t == ref::kRxNack) expect.back().echo = echo_of(0, false);  // no stamp given: stamp 0
    if (t != ref::kRxCnp) {
      s.unacked = 0;
      s.timer = false;
    }
  };
  auto timers = [&](uint64_t cyc) {
    std::vector<std::pair<uint64_t, uint32_t>> due;
    for (uint32_t f = 0; f < kFlows; ++f)
      if (fl[f].timer && fl[f].deadline <= cyc) due.emplace_back(fl[f].deadline, f);
    std::sort(due.begin(), due.end());
    for (auto [d, f] : due) put(f, ref::kRxAck, d, RxCause::kTimer);
  };
  auto arrive = [&](uint64_t cyc, uint32_t f, uint64_t i, bool ce) {
    timers(cyc);
    F& s = fl[f];
    if (i == s.exp) {
      ++s.exp;
      s.nack_any = false;
      if (++s.unacked >= c.ack_every) {
        put(f, ref::kRxAck, cyc, RxCause::kCoalesced);
      } else if (!s.timer) {
        s.timer = true;
        s.deadline = cyc + c.ack_timeout;
      }
    } else if (i > s.exp) {
      if (!s.nack_any || cyc - s.nack_at >= c.nack_gap) {
        s.nack_any = true;
        s.nack_at = cyc;
        put(f, ref::kRxNack, cyc, RxCause::kOutOfOrder);
      }
    } else {
      put(f, ref::kRxAck, cyc, RxCause::kDuplicate);
    }
    if (ce && (!s.cnp_any || cyc - s.cnp_at >= c.cnp.gap)) {
      s.cnp_any = true;
      s.cnp_at = cyc;
      put(f, ref::kRxCnp, cyc, RxCause::kCnp);
    }
  };
  uint64_t checked = 0;
  auto compare = [&]() {
    const std::vector<RxEvent> got = rx.take_acks();
    REQUIRE(got.size() == expect.size());
    for (size_t k = 0; k < got.size(); ++k) {
      INFO("event " << checked << ": " << describe(got[k]) << "; expected "
                    << describe(expect[k]));
      REQUIRE(got[k] == expect[k]);
      F& s = fl[got[k].flow];
      REQUIRE(seq_le(s.last_cum, got[k].cum_ack));  // never decreases
      s.last_cum = got[k].cum_ack;
      ++checked;
    }
    expect.clear();
  };

  uint64_t cycle = 0;
  for (uint64_t n = 0; n < kArrivals; ++n) {
    cycle += rng.chance(0.02) ? rng.range(30, 700) : rng.below(4);
    if (rng.chance(0.05)) {
      timers(cycle);
      rx.advance(cycle);
      compare();
    }
    const uint32_t f = static_cast<uint32_t>(rng.below(kFlows));
    F& s = fl[f];
    if (rng.chance(0.08)) s.next = s.exp - std::min<uint64_t>(s.exp, rng.below(3));  // go back N
    const uint64_t i = s.next++;
    if (rng.chance(0.05)) continue;  // lost on the way
    const bool ce = rng.chance(0.2);
    arrive(cycle, f, i, ce);
    rx.segment(cycle, f, static_cast<uint32_t>(s.base + i), ce);
    compare();
  }
  cycle += 10 * c.ack_timeout;
  timers(cycle);
  rx.advance(cycle);
  compare();

  const RxCounters& st = rx.stats();
  INFO("events " << checked << " nacks " << st.nacks << "/" << st.nacks_suppressed << " cnps "
                 << st.cnps << "/" << st.cnps_suppressed << " timer acks " << st.timer_acks);
  CHECK(st.acks + st.nacks + st.cnps == checked);
  CHECK(st.nacks > 1000);
  CHECK(st.nacks_suppressed > 1000);
  CHECK(st.timer_acks > 100);
  CHECK(st.duplicates > 1000);
  CHECK(st.cnps > 1000);
  CHECK(st.cnps_suppressed > 1000);
  CHECK(rx.pending_timers() == 0);
  for (uint32_t f = 0; f < kFlows; ++f) CHECK(rx.expected(f) == static_cast<uint32_t>(fl[f].base + fl[f].exp));
  CHECK(fl[0].exp > 200);  // flow 0 crossed 2^32
}

TEST_CASE("rxmodel: IRN random traffic with drops and reordering: every ACK/NACK/CNP as an "
          "independent model says",
          "[rxmodel][stress]") {
  TONIC_SEED(0x5eed4103);
  constexpr uint32_t kFlows = 4;
  constexpr uint32_t kW = 32;
  constexpr uint64_t kOffered = 100'000;
  IrnRxConfig c;
  c.window = kW;
  c.cnp.gap = 300;
  IrnReceiver rx(c);
  Rng rng(tonic_seed_);

  struct F {
    uint32_t base = 0;
    uint64_t fm = 0;
    std::set<uint64_t> above;
    bool cnp_any = false;
    uint64_t cnp_at = 0;
    uint64_t next = 0;  // test sender
  };
  std::vector<F> fl(kFlows);
  for (uint32_t f = 0; f < kFlows; ++f) {
    fl[f].base = f == 0 ? 0xFFFF'FFFFu - static_cast<uint32_t>(rng.below(200))
                        : static_cast<uint32_t>(rng.bits64());
    rx.open(f, fl[f].base);
  }
  uint64_t cycle = 0, checked = 0, sacks = 0;
  std::deque<std::pair<uint32_t, uint64_t>> wire;  // lets a random packet overtake
  auto deliver = [&](size_t k) {
    const auto [f, i] = wire[k];
    wire.erase(wire.begin() + static_cast<std::ptrdiff_t>(k));
    F& s = fl[f];
    const bool ce = rng.chance(0.1);
    std::vector<RxEvent> expect;
    RxEvent x = rx_event(f, ref::kRxAck, 0, cycle, RxCause::kInOrder);
    x.cause = literal_arrive(s, i, kW);
    x.cum_ack = static_cast<uint32_t>(s.base + s.fm);
    if (x.cause != RxCause::kBeyondWindow && i > s.fm) {
      x.type = ref::kRxNack;
      x.sack_valid = true;
      x.sack_idx = static_cast<uint32_t>(s.base + i);
      x.echo = echo_of(0, false);  // no stamp given: stamp 0
      ++sacks;
    }
    expect.push_back(x);
    if (ce && (!s.cnp_any || cycle - s.cnp_at >= c.cnp.gap)) {
      s.cnp_any = true;
      s.cnp_at = cycle;
      expect.push_back(rx_event(f, ref::kRxCnp, x.cum_ack, cycle, RxCause::kCnp));
    }
    rx.segment(cycle, f, static_cast<uint32_t>(s.base + i), ce);
    const std::vector<RxEvent> got = rx.take_acks();
    REQUIRE(got.size() == expect.size());
    for (size_t k2 = 0; k2 < got.size(); ++k2) {
      INFO("event " << checked << ": " << describe(got[k2]) << "; expected "
                    << describe(expect[k2]));
      REQUIRE(got[k2] == expect[k2]);
      // Invariant on its own: a SACK names a received PSN above cum_ack.
      if (got[k2].sack_valid) {
        REQUIRE(seq_lt(got[k2].cum_ack, got[k2].sack_idx));
        REQUIRE(rx.received(f, got[k2].sack_idx));
      }
      ++checked;
    }
  };
  for (uint64_t n = 0; n < kOffered; ++n) {
    cycle += rng.chance(0.02) ? rng.range(100, 500) : rng.below(4);
    const uint32_t f = static_cast<uint32_t>(rng.below(kFlows));
    F& s = fl[f];
    const uint64_t i = pick_index(rng, s.fm, s.next, kW, 0.005, 2, 0.7, 2);
    if (!rng.chance(0.05)) wire.emplace_back(f, i);
    const size_t hold = static_cast<size_t>(rng.below(6));
    while (wire.size() > hold) deliver(rng.chance(0.7) ? 0 : static_cast<size_t>(rng.below(wire.size())));
  }
  while (!wire.empty()) deliver(0);

  const RxCounters& st = rx.stats();
  INFO("events " << checked << " acks " << st.acks << " nacks " << st.nacks << " cnps "
                 << st.cnps);
  CHECK(st.acks + st.nacks + st.cnps == checked);
  CHECK(st.nacks == sacks);
  CHECK(st.nacks > 1000);
  CHECK(st.hole_fills > 1000);
  CHECK(st.duplicates > 1000);
  CHECK(st.beyond_window > 10);
  CHECK(st.cnps > 1000);
  CHECK(st.cnps_suppressed > 100);
  for (uint32_t f = 0; f < kFlows; ++f) {
    CHECK(rx.rcv_nxt(f) == static_cast<uint32_t>(fl[f].base + fl[f].fm));
    CHECK(rx.held(f) == fl[f].above.size());
  }
  CHECK(fl[0].fm > 200);
}

TEST_CASE("rxmodel: switch queue random traffic matches a per-cycle byte-level model",
          "[rxmodel][stress]") {
  TONIC_SEED(0x5eed4104);
  constexpr uint64_t kCycles = 300'000;
  constexpr uint64_t kRate = 100;  // bytes per cycle; lengths are multiples of 25,
                                   // so every duration is exact in Q16
  for (SwitchOverflow mode : {SwitchOverflow::kDrop, SwitchOverflow::kTrim}) {
    INFO("mode " << (mode == SwitchOverflow::kTrim ? "trim" : "drop"));
    SwitchConfig c;
    c.drain_q16 = kRate << 16;
    c.capacity = 30'000;
    c.overflow = mode;
    c.header_bytes = 50;
    c.header_capacity = 1000;
    c.kmin = 3000;
    c.kmax = 20'000;
    c.pmax = 0.2;
    c.seed = tonic_seed_;
    SwitchQueue q(c);
    Rng rng(tonic_seed_ + static_cast<uint64_t>(mode));

    // Independent model: each cycle, kRate bytes drain from the packet being
    // sent and on into the next (headers first); a packet whose last byte
    // drains in cycle k departs in k + 1. A packet counts in the backlog
    // until it departs.
    struct P {
      uint64_t id;
      uint32_t len;
      uint32_t left;
      bool hdr;
    };
    std::deque<P> hq, dq;
    bool busy = false;
    P cur{};
    uint64_t data_bytes = 0, hdr_bytes = 0, next_id = 0;
    std::map<uint64_t, std::vector<P>> departs;  // cycle -> packets, in order
    uint64_t marks = 0, unmarked_hi = 0, offered = 0, drops = 0, trims = 0, popped = 0;
    double load = 0.5;

    for (uint64_t k = 0;; ++k) {
      // 1. Departures of cycle k.
      std::vector<SwitchPacket> got = q.pop(k);
      std::vector<P> want;
      if (auto it = departs.find(k); it != departs.end()) {
        want = it->second;
        departs.erase(it);
      }
      REQUIRE(got.size() == want.size());
      for (size_t j = 0; j < got.size(); ++j) {
        INFO("cycle " << k << " got id " << got[j].id << " want " << want[j].id);
        REQUIRE(got[j].id == want[j].id);
        REQUIRE(got[j].departure == k);
        REQUIRE(got[j].trimmed == want[j].hdr);
        REQUIRE(got[j].len == want[j].len);
        (want[j].hdr ? hdr_bytes : data_bytes) -= want[j].len;
        ++popped;
      }
      REQUIRE(q.backlog() == data_bytes);
      REQUIRE(q.header_backlog() == hdr_bytes);
      REQUIRE(data_bytes <= c.capacity);
      // 2. Arrivals of cycle k (none after kCycles: drain).
      if (k >= kCycles && q.idle()) break;
      REQUIRE(k < kCycles + 100'000);
      if (k % 2000 == 0) load = 0.3 + 1.2 * double(rng.below(1001)) / 1000.0;
      const uint32_t n = k < kCycles && rng.chance(load * kRate / 762.5)
                             ? (rng.chance(0.2) ? 3 : 1)
                             : 0;
      for (uint32_t j = 0; j < n; ++j) {
        const uint32_t len = static_cast<uint32_t>(25 * rng.range(1, 60));
        SwitchPacket sp;
        sp.flow = static_cast<uint32_t>(rng.below(8));
        sp.seg = static_cast<uint32_t>(offered);
        sp.len = len;
        const uint64_t before = data_bytes;
        const SwitchVerdict v = q.push(k, sp);
        ++offered;
        P p{next_id++, len, len, false};
        SwitchVerdict want_v;
        if (before + len <= c.capacity) {
          want_v = SwitchVerdict::kQueued;
          dq.push_back(p);
          data_bytes += len;
          // ECN: only above Kmin; always above Kmax.
          if (v == SwitchVerdict::kMarked) {
            ++marks;
            REQUIRE(before > c.kmin);
            want_v = v;
          } else if (before > c.kmin) {
            ++unmarked_hi;
          }
          if (before > c.kmax) REQUIRE(v == SwitchVerdict::kMarked);
        } else if (mode == SwitchOverflow::kDrop) {
          want_v = SwitchVerdict::kDropped;
          ++drops;
        } else {
          ++trims;
          p.len = p.left = std::min(len, c.header_bytes);
          p.hdr = true;
          if (hdr_bytes + p.len > c.header_capacity) {
            want_v = SwitchVerdict::kDropped;
            ++drops;
          } else {
            want_v = SwitchVerdict::kTrimmed;
            hq.push_back(p);
            hdr_bytes += p.len;
          }
        }
        INFO("cycle " << k << " packet " << p.id << " len " << len << " backlog " << before);
        REQUIRE(v == want_v);
      }
      // 3. The output drains kRate bytes in cycle k.
      uint64_t budget = kRate;
      while (budget > 0) {
        if (!busy) {
          if (!hq.empty()) {
            cur = hq.front();
            hq.pop_front();
          } else if (!dq.empty()) {
            cur = dq.front();
            dq.pop_front();
          } else {
            break;  // idle: the rest of the cycle is lost
          }
          busy = true;
        }
        const uint64_t t = std::min<uint64_t>(budget, cur.left);
        cur.left -= static_cast<uint32_t>(t);
        budget -= t;
        if (cur.left == 0) {
          departs[k + 1].push_back(cur);
          busy = false;
        }
      }
    }
    INFO("offered " << offered << " marks " << marks << " drops " << drops << " trims " << trims
                    << " max backlog " << q.max_backlog());
    CHECK(departs.empty());
    CHECK(q.offered() == offered);
    CHECK(q.marks() == marks);
    CHECK(q.drops() == drops);
    CHECK(q.trims() == trims);
    CHECK(q.departed() == popped);
    CHECK(offered == popped + drops);
    CHECK(q.max_backlog() <= c.capacity);
    CHECK(q.max_backlog() > c.capacity - 1500);  // the queue did fill
    CHECK(marks > 1000);
    CHECK(unmarked_hi > 1000);  // marking is random between Kmin and Kmax
    if (mode == SwitchOverflow::kDrop) {
      CHECK(drops > 100);
    } else {
      CHECK(trims > 100);
      CHECK(q.header_drops() == drops);
    }
  }
}

TEST_CASE("rxmodel: NACKs echo the packet that triggered them (stamp and rtx), ACKs, pulls and CNPs "
          "carry no echo",
          "[rxmodel][smoke]") {
  RoceReceiver roce;
  roce.segment(1, 0, 0, false, 10);
  roce.segment(2, 0, 2, true, 11, true);  // NACK(1) + CNP
  auto r = roce.take_acks();
  REQUIRE(r.size() == 3);
  CHECK_FALSE(r[0].echo.valid);
  CHECK((r[1].type == ref::kRxNack && r[1].echo == echo_of(11, true)));
  CHECK((r[2].type == ref::kRxCnp && !r[2].echo.valid));
  IrnReceiver irn;
  irn.segment(1, 0, 1, false, 20, true);  // NACK with SACK
  irn.segment(2, 0, 0, false, 21);        // ACK
  r = irn.take_acks();
  REQUIRE(r.size() == 2);
  CHECK(r[0].echo == echo_of(20, true));
  CHECK_FALSE(r[1].echo.valid);
  NdpReceiver ndp;
  ndp.segment(1, 0, 3, true, 30, true);  // trimmed: NACK
  ndp.segment(2, 0, 0, false, 31);       // ACK
  ndp.advance(100);
  r = ndp.take_acks();
  REQUIRE(r.size() == 4);  // NACK, its pull, ACK, its pull
  for (const RxEvent& e : r) CHECK(e.echo.valid == (e.type == ref::kRxNack));
  CHECK(r[0].echo == echo_of(30, true));
  Gb0Receiver gb0;
  gb0.segment(1, 0, 2, 40, true);  // a gap: NACK
  r = gb0.take_acks();
  REQUIRE(r.size() == 1);
  CHECK(r[0].echo == echo_of(40, true));
  for (const RxEvent& e : r) CHECK(e.blks == SackBlocks{});
}
