// SPDX-License-Identifier: Apache-2.0
// Tests of the window-mode models (lib/tonic/window_mode.hpp):
// directed cases for every rule of the cell, the window-mode receive
// context, the counter baseline and the sender; then the seeded random
// closed loop (window_mode_loop.hpp: delay, jitter, loss, duplication, zombies,
// lossy control) checked for exactly-once delivery and completion, every
// arrival and RESEND cross-checked against a literal model written here
// (a set of received indices, WBASE recomputed as the lowest missing one,
// timeouts as multiples of T after the last progress).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tonic/window_mode.hpp"
#include "tonic/rng.hpp"
#include "window_mode_loop.hpp"

using namespace tonic;
using namespace tonic::window_mode;

namespace {

const MsgTag kTag{1, 2, 0x12345};

std::string describe(const Ctl& c) {
  std::ostringstream s;
  s << "RESEND cycle " << c.cycle << " wbase " << c.wbase << " go_back " << c.go_back << " timeout "
    << c.timeout << " sack " << c.sack_valid << "/" << c.sack_idx << " attempt " << c.attempt;
  return s.str();
}

WindowRx make_rx(uint32_t w, uint64_t t, uint32_t g, bool beyond_sack = true) {
  WindowConfig c;
  c.w = w;
  c.resend_timeout = t;
  c.go_back_after = g;
  c.beyond_sack = beyond_sack;
  return WindowRx(c);
}

}  // namespace

// ---------------------------------------------------------------- the cell

TEST_CASE("window_mode: cell holds in-window arrivals and advances by the run of ones", "[window_mode][smoke]") {
  WindowCell c(32, 100);
  CHECK(c.step(103).kind == WindowCell::Kind::kHeld);
  CHECK(c.step(101).kind == WindowCell::Kind::kHeld);
  CHECK(c.step(103).kind == WindowCell::Kind::kDuplicate);  // already set
  CHECK(c.vec()[1]);
  CHECK(c.vec()[3]);
  CHECK(c.wbase() == 100);
  auto s = c.step(100);  // 100, 101 (run of one), stops at the hole 102
  CHECK(s.kind == WindowCell::Kind::kAdvance);
  CHECK(s.advance == 2);
  CHECK(c.wbase() == 102);
  CHECK(c.vec()[1]);  // 103 shifted from bit 3 to bit 1
  CHECK(c.vec().count() == 1);
  CHECK(c.step(99).kind == WindowCell::Kind::kDuplicate);   // below WBASE
  CHECK(c.step(101).kind == WindowCell::Kind::kDuplicate);
  CHECK(c.received(101));
  CHECK(c.received(103));
  CHECK_FALSE(c.received(102));
  s = c.step(102);
  CHECK(s.advance == 2);
  CHECK(c.wbase() == 104);
  CHECK(c.vec().none());
}

TEST_CASE("window_mode: cell window edge is WBASE + W - 1, a full window advances by W", "[window_mode][smoke]") {
  for (uint32_t w : {32u, 64u, 128u, 256u}) {
    INFO("W " << w);
    WindowCell c(w, 0);
    CHECK(c.step(w).kind == WindowCell::Kind::kBeyond);
    CHECK(c.step(w + 5).kind == WindowCell::Kind::kBeyond);
    for (uint32_t i = w - 1; i >= 1; --i) CHECK(c.step(i).kind == WindowCell::Kind::kHeld);
    CHECK(c.step(w).kind == WindowCell::Kind::kBeyond);  // still beyond: WBASE has not moved
    const auto s = c.step(0);
    CHECK(s.kind == WindowCell::Kind::kAdvance);
    CHECK(s.advance == w);
    CHECK(c.wbase() == w);
    CHECK(c.vec().none());
    CHECK(c.step(2 * w - 1).kind == WindowCell::Kind::kHeld);
    CHECK(c.step(2 * w).kind == WindowCell::Kind::kBeyond);
  }
}

TEST_CASE("window_mode: cell wraps at 2^32 and rejects bad W", "[window_mode][badinput]") {
  WindowCell c(64, 0xFFFF'FFF0u);
  CHECK(c.step(0x0000'0005u).kind == WindowCell::Kind::kHeld);  // d = 21
  CHECK(c.step(0xFFFF'FFEFu).kind == WindowCell::Kind::kDuplicate);
  for (uint32_t i = 0xFFFF'FFF1u; i != 0x0000'0005u; ++i) CHECK(c.step(i).kind == WindowCell::Kind::kHeld);
  CHECK(c.step(0xFFFF'FFF0u).advance == 22);
  CHECK(c.wbase() == 6u);
  CHECK(c.step(70u).kind == WindowCell::Kind::kBeyond);  // WBASE + W
  CHECK(c.step(69u).kind == WindowCell::Kind::kHeld);
  CHECK(c.step(0xFFFF'FFFFu).kind == WindowCell::Kind::kDuplicate);
  CHECK_THROWS_AS(WindowCell(16), std::invalid_argument);
  CHECK_THROWS_AS(WindowCell(48), std::invalid_argument);
  CHECK_THROWS_AS(WindowCell(512), std::invalid_argument);
  CHECK_NOTHROW(WindowCell(256));
}

// ------------------------------------------------------- the receive context

TEST_CASE("window_mode: in-window, duplicate, beyond-window and completion", "[window_mode][smoke]") {
  WindowRx rx = make_rx(32, 1000, 3);
  rx.open(0, kTag, 10, 40);
  CHECK(rx.arrive(1, kTag, 12) == Verdict::kDeliver);
  CHECK(rx.arrive(2, kTag, 12) == Verdict::kDuplicate);
  CHECK(rx.arrive(3, kTag, 42) == Verdict::kBeyondWindow);  // 10 + 32
  auto ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 1);
  INFO(describe(ctl[0]));
  CHECK(ctl[0].cycle == 3);
  CHECK(ctl[0].wbase == 10);
  CHECK_FALSE(ctl[0].go_back);
  CHECK_FALSE(ctl[0].timeout);
  CHECK(ctl[0].sack_valid);  // names the index dropped (the RTL)
  CHECK(ctl[0].sack_idx == 42);
  {
    WindowRx sk = make_rx(32, 1000, 3, false);  // beyond_sack off: the old form, no index
    sk.open(0, kTag, 10, 40);
    CHECK(sk.arrive(3, kTag, 42) == Verdict::kBeyondWindow);
    const auto c2 = sk.take_ctl();
    REQUIRE(c2.size() == 1);
    CHECK(c2[0].wbase == 10);
    CHECK_FALSE(c2[0].sack_valid);
    CHECK(c2[0].sack_idx == 0);
  }
  CHECK(rx.arrive(4, kTag, 41) == Verdict::kDeliver);  // WBASE + W - 1
  CHECK(rx.arrive(5, kTag, 9) == Verdict::kDuplicate);  // below the message: below WBASE
  CHECK(rx.arrive(6, kTag, 50) == Verdict::kBeyondMessage);  // F + N
  CHECK(rx.take_ctl().empty());                         // beyond the message: no RESEND
  CHECK(rx.arrive(7, kTag, 10) == Verdict::kDeliver);
  CHECK(rx.wbase() == 11);
  CHECK(rx.arrive(8, kTag, 11) == Verdict::kDeliver);
  CHECK(rx.wbase() == 13);
  for (uint32_t i = 13; i < 49; ++i) {
    if (i == 41) continue;
    CHECK(rx.arrive(9 + i, kTag, i) == Verdict::kDeliver);
  }
  CHECK_FALSE(rx.complete());
  CHECK(rx.wbase() == 49);
  CHECK(rx.arrive(100, kTag, 49) == Verdict::kDeliver);
  CHECK(rx.complete());
  CHECK(rx.done_cycle() == 100);
  CHECK(rx.wbase() == 50);
  CHECK(rx.next_timer() == WindowRx::kNever);
  ctl = rx.take_ctl();  // the completion ACK (the RTL's)
  REQUIRE(ctl.size() == 1);
  CHECK(ctl[0].complete);
  CHECK(ctl[0].wbase == 50);
  CHECK(ctl[0].cycle == 100);
  CHECK(to_rx_event(0, ctl[0]).type == ref::kRxAck);
  CHECK(rx.arrive(101, kTag, 30) == Verdict::kDuplicate);
  CHECK(rx.arrive(102, kTag, 50) == Verdict::kDuplicate);    // complete: every index is a duplicate
  CHECK(rx.arrive(103, kTag, 5000) == Verdict::kDuplicate);  // (the RTL's order of checks)
  rx.advance(100000);
  CHECK(rx.take_ctl().empty());
  const Counters& c = rx.counters();
  CHECK(c.arrivals == 47);
  CHECK(c.delivered == 40);
  CHECK(c.duplicates == 5);
  CHECK(c.beyond_window == 1);
  CHECK(c.beyond_message == 1);
  CHECK(c.resends == 1);
  CHECK(c.acks == 1);
  CHECK(c.timeouts == 0);
  CHECK(c.completed == 1);
}

TEST_CASE("window_mode: zombies of {node, context, MSGID} are dropped and counted", "[window_mode][smoke]") {
  WindowRx rx = make_rx(64, 50, 2);
  rx.open(0, kTag, 0, 8);
  const MsgTag bad[] = {{9, 2, 0x12345}, {1, 9, 0x12345}, {1, 2, 0x12344}};
  for (const MsgTag& z : bad) {
    CHECK(rx.arrive(10, z, 0) == Verdict::kZombie);
    CHECK(rx.arrive(10, z, 500) == Verdict::kZombie);  // would be beyond: still no RESEND
  }
  CHECK(rx.wbase() == 0);
  CHECK(rx.take_ctl().empty());
  CHECK(rx.counters().zombies == 6);
  CHECK(rx.next_timer() == 50);  // zombies do not restart the timer
  // The context is reused for the next message: the old MSGID is a zombie.
  for (uint32_t i = 0; i < 8; ++i) rx.arrive(20 + i, kTag, i);
  CHECK(rx.complete());
  const MsgTag next{1, 2, 0x12346};
  rx.open(30, next, 0, 8);
  CHECK(rx.arrive(31, kTag, 0) == Verdict::kZombie);
  CHECK(rx.arrive(32, next, 0) == Verdict::kDeliver);
  rx.close();
  CHECK(rx.arrive(33, next, 1) == Verdict::kClosed);
  CHECK(rx.counters().closed == 1);
  CHECK(rx.counters().zombies == 7);
}

TEST_CASE("window_mode: WBASE timeout sends RESEND, every G-th in a row goes back", "[window_mode][smoke]") {
  WindowRx rx = make_rx(32, 100, 3);
  rx.open(5, kTag, 0, 200);
  CHECK(rx.next_timer() == 105);
  rx.arrive(50, kTag, 3);  // held: a delivery restarts the timer (the RTL's rule)
  CHECK(rx.next_timer() == 150);
  rx.arrive(60, kTag, 3);  // a duplicate does not
  rx.arrive(70, kTag, 40);  // nor a beyond-window arrival
  CHECK(rx.take_ctl().size() == 1);
  CHECK(rx.next_timer() == 150);
  rx.advance(149);
  CHECK(rx.take_ctl().empty());
  rx.advance(460);  // expiries at 150, 250, 350, 450
  auto ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 4);
  for (unsigned k = 0; k < 4; ++k) {
    INFO(describe(ctl[k]));
    CHECK(ctl[k].cycle == 150u + 100u * k);
    CHECK(ctl[k].wbase == 0);
    CHECK(ctl[k].timeout);
    CHECK_FALSE(ctl[k].sack_valid);
    CHECK(ctl[k].go_back == (k == 2));  // the 3rd goes back and clears the streak
  }
  CHECK(rx.timeout_streak() == 1);
  CHECK(rx.counters().go_backs == 1);
  // Progress clears the streak and restarts the timer.
  rx.arrive(470, kTag, 0);
  CHECK(rx.timeout_streak() == 0);
  CHECK(rx.wbase() == 1);
  CHECK(rx.next_timer() == 570);
  // An arrival at the expiry cycle that moves WBASE wins over the timer.
  rx.arrive(570, kTag, 1);
  rx.advance(570);
  CHECK(rx.take_ctl().empty());
  CHECK(rx.wbase() == 2);
  CHECK(rx.next_timer() == 670);
  // A duplicate at the expiry cycle: the timer fires.
  CHECK(rx.arrive(670, kTag, 3) == Verdict::kDuplicate);
  rx.advance(670);
  ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 1);
  CHECK(ctl[0].cycle == 670);
  CHECK(ctl[0].wbase == 2);
  CHECK_FALSE(ctl[0].go_back);
  // A timer due before an arrival fires before it, stamped with its cycle.
  CHECK(rx.arrive(900, kTag, 2) == Verdict::kDeliver);
  ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 2);
  CHECK(ctl[0].cycle == 770);
  CHECK(ctl[1].cycle == 870);
  CHECK(ctl[1].go_back);
  CHECK(ctl[1].wbase == 2);
  CHECK(rx.wbase() == 4);
  CHECK(rx.next_timer() == 1000);
  CHECK_THROWS_AS(rx.advance(899), std::invalid_argument);
}

TEST_CASE("window_mode: timer by visit fires at the first visit after the deadline, restarts there",
          "[window_mode][smoke]") {
  WindowConfig wc;
  wc.w = 32;
  wc.resend_timeout = 100;
  wc.go_back_after = 2;
  wc.timer_by_visit = true;
  WindowRx rx(wc);
  rx.open(0, kTag, 0, 10);
  rx.advance(1000);  // no visit: nothing fires
  CHECK(rx.take_ctl().empty());
  rx.visit(1000);
  auto ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 1);  // one per visit, however late
  CHECK(ctl[0].cycle == 1000);
  CHECK(rx.next_timer() == 1100);
  rx.visit(1099);
  CHECK(rx.take_ctl().empty());
  rx.visit(1116);
  ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 1);
  CHECK(ctl[0].go_back);
  CHECK(rx.next_timer() == 1216);
}

TEST_CASE("window_mode: GoBackAfter 0 never goes back, 1 always does", "[window_mode][smoke]") {
  for (uint32_t g : {0u, 1u, 2u}) {
    WindowRx rx = make_rx(32, 10, g);
    rx.open(0, kTag, 0, 4);
    rx.advance(100);
    const auto ctl = rx.take_ctl();
    REQUIRE(ctl.size() == 10);
    for (std::size_t k = 0; k < ctl.size(); ++k) CHECK(ctl[k].go_back == (g != 0 && (k + 1) % g == 0));
  }
}

TEST_CASE("window_mode: unbounded message: timer only while a packet above WBASE is held", "[window_mode][smoke]") {
  WindowRx rx = make_rx(32, 20, 2);
  rx.open(0, kTag, 0, 0);
  CHECK(rx.next_timer() == WindowRx::kNever);
  for (uint32_t i = 0; i < 100; ++i) CHECK(rx.arrive(i, kTag, i) == Verdict::kDeliver);
  CHECK(rx.wbase() == 100);
  CHECK_FALSE(rx.complete());
  rx.advance(500);
  CHECK(rx.take_ctl().empty());
  rx.arrive(600, kTag, 102);  // the first hole: timer armed now
  CHECK(rx.next_timer() == 620);
  rx.arrive(601, kTag, 101);  // held: restarts it
  CHECK(rx.next_timer() == 621);
  rx.advance(640);
  CHECK(rx.take_ctl().size() == 1);
  rx.arrive(650, kTag, 100);  // fills: nothing held, timer stops
  CHECK(rx.wbase() == 103);
  CHECK(rx.next_timer() == WindowRx::kNever);
  CHECK(rx.arrive(651, kTag, 0x7000'0000u) == Verdict::kBeyondWindow);
}

TEST_CASE("window_mode: RESEND as an rx beat", "[window_mode][smoke]") {
  Ctl c;
  c.cycle = 7;
  c.wbase = 40;
  c.sack_valid = true;
  c.sack_idx = 99;
  RxEvent e = to_rx_event(3, c);
  CHECK(e.type == ref::kRxResend);
  CHECK(e.flow == 3);
  CHECK(e.cum_ack == 40);
  CHECK(e.sack_valid);
  CHECK(e.sack_idx == 99);
  CHECK(e.cause == RxCause::kBeyondWindow);
  c.timeout = true;
  c.sack_valid = false;
  CHECK(to_rx_event(3, c).cause == RxCause::kTimer);
}

// ------------------------------------------------------------- the baseline

TEST_CASE("window_mode: counter baseline completes one clean attempt, restarts on timeout", "[window_mode][smoke]") {
  CounterRx rx(50);
  rx.open(0, kTag, 100, 4);
  CHECK(rx.arrive(1, kTag, 101, 0) == Verdict::kDeliver);
  CHECK(rx.arrive(2, kTag, 101, 0) == Verdict::kDuplicate);
  CHECK(rx.arrive(3, kTag, 100, 1) == Verdict::kStale);
  CHECK(rx.arrive(4, {1, 2, 3}, 100, 0) == Verdict::kZombie);
  CHECK(rx.arrive(5, kTag, 104, 0) == Verdict::kBeyondMessage);
  CHECK(rx.next_timer() == 51);
  rx.advance(101);  // 51: attempt 1; 101: nothing of it arrived, attempt 2
  auto ctl = rx.take_ctl();
  REQUIRE(ctl.size() == 2);
  CHECK(ctl[0].attempt == 1);
  CHECK(ctl[1].attempt == 2);
  CHECK(ctl[1].go_back);
  CHECK(ctl[1].wbase == 100);
  CHECK(rx.arrive(110, kTag, 101, 1) == Verdict::kStale);
  for (uint32_t i = 0; i < 4; ++i) CHECK(rx.arrive(120 + i, kTag, 100 + i, 2) == Verdict::kDeliver);
  CHECK(rx.complete());
  CHECK(rx.done_cycle() == 123);
  rx.advance(10000);
  CHECK(rx.take_ctl().empty());
}

// ---------------------------------------------------------------- the sender

TEST_CASE("window_mode: sender paces, retransmits singles first, goes back, holds off", "[window_mode][smoke]") {
  TxConfig tc;
  tc.tag = kTag;
  tc.first = 1000;
  tc.count = 10;
  tc.pace = 2;
  tc.holdoff = 5;
  Sender s(tc);
  std::vector<uint32_t> sent;
  auto run = [&](uint64_t from, uint64_t to) {
    for (uint64_t t = from; t < to; ++t)
      if (auto p = s.poll(t)) sent.push_back(p->idx);
  };
  run(0, 8);  // 0, 2, 4, 6
  CHECK(sent == std::vector<uint32_t>{1000, 1001, 1002, 1003});
  Ctl c;
  c.wbase = 1001;
  s.on_ctl(8, c);  // 1001 sent at 2, 6 cycles ago: queued
  c.wbase = 1003;
  s.on_ctl(8, c);  // sent at 6: held off
  c.wbase = 1005;
  s.on_ctl(8, c);  // never sent: the stream will send it
  CHECK(s.counters().singles == 1);
  CHECK(s.counters().ignored == 2);
  sent.clear();
  run(8, 12);
  CHECK(sent == std::vector<uint32_t>{1001, 1004});
  // Beyond-window RESEND: which packet, by policy.
  for (BeyondAction a : {BeyondAction::kBase, BeyondAction::kDropped, BeyondAction::kBoth}) {
    TxConfig t2 = tc;
    t2.pace = 1;
    t2.holdoff = 0;
    t2.beyond = a;
    Sender s2(t2);
    for (uint64_t t = 0; t < 10; ++t) s2.poll(t);
    Ctl b;
    b.wbase = 1002;
    b.sack_valid = true;
    b.sack_idx = 1008;
    s2.on_ctl(20, b);
    std::vector<uint32_t> got;
    for (uint64_t t = 20; t < 25; ++t)
      if (auto p = s2.poll(t)) got.push_back(p->idx);
    if (a == BeyondAction::kBase) CHECK(got == std::vector<uint32_t>{1002});
    if (a == BeyondAction::kDropped) CHECK(got == std::vector<uint32_t>{1008});
    if (a == BeyondAction::kBoth) CHECK(got == std::vector<uint32_t>{1002, 1008});
  }
  // Go-back: the stream restarts at WBASE.
  Ctl g;
  g.wbase = 1002;
  g.go_back = true;
  g.timeout = true;
  s.on_ctl(12, g);
  sent.clear();
  run(12, 40);
  CHECK(sent == std::vector<uint32_t>{1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009});
  CHECK(s.idle());
  CHECK(s.counters().go_backs == 1);
  CHECK(s.counters().sent == 4 + 2 + 8);
  CHECK(s.counters().retransmits == 1 + 3);
}

TEST_CASE("window_mode: whole-message sender restarts on a newer attempt only", "[window_mode][smoke]") {
  TxConfig tc;
  tc.tag = kTag;
  tc.count = 4;
  tc.recovery = Recovery::kWholeMessage;
  Sender s(tc);
  for (uint64_t t = 0; t < 3; ++t) s.poll(t);
  Ctl c;
  c.go_back = true;
  c.attempt = 1;
  s.on_ctl(3, c);
  s.on_ctl(3, c);  // the same attempt again: ignored
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (uint64_t t = 3; t < 10; ++t)
    if (auto p = s.poll(t)) got.emplace_back(p->idx, p->attempt);
  CHECK(got == std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}, {1, 1}, {2, 1}, {3, 1}});
  CHECK(s.counters().restarts == 1);
  CHECK(s.counters().ignored == 1);
  CHECK_THROWS_AS(Sender(TxConfig{kTag, 0, 0}), std::invalid_argument);
}

// ------------------------------------------------------ random closed loop

namespace {

/// The receive rules written out literally (independent of WindowCell and
/// WindowRx): the set of received offsets, WBASE = lowest offset missing,
/// timeouts at last_progress + k * T.
class Literal {
 public:
  Literal(uint32_t w, uint64_t t, uint32_t g, bool sack, MsgTag tag, uint32_t first, uint32_t count)
      : w_(w), t_(t), g_(g), sack_(sack), tag_(tag), first_(first), count_(count) {}

  Verdict arrive(uint64_t cycle, const MsgTag& tag, uint32_t idx) {
    fire_before(cycle);
    if (tag != tag_) return Verdict::kZombie;
    if (complete()) return Verdict::kDuplicate;
    const int64_t off = static_cast<int32_t>(idx - first_);
    if (off >= static_cast<int64_t>(count_)) return Verdict::kBeyondMessage;
    if (off < base_ || got_.count(off)) return Verdict::kDuplicate;
    if (off >= base_ + w_) {
      Ctl c;
      c.cycle = cycle;
      c.wbase = first_ + static_cast<uint32_t>(base_);
      c.sack_valid = sack_;
      c.sack_idx = sack_ ? idx : 0;
      ctls.push_back(c);
      return Verdict::kBeyondWindow;
    }
    got_.insert(off);
    progress_ = cycle;  // every delivery restarts the timer
    fired_ = 0;
    if (off == base_) {
      while (got_.count(base_)) ++base_;
      streak_ = 0;  // only progress clears the streak
      if (complete()) {
        Ctl c;
        c.cycle = cycle;
        c.wbase = wbase();
        c.complete = true;
        ctls.push_back(c);
      }
    }
    return Verdict::kDeliver;
  }
  /// Every timeout up to and including `cycle`.
  void fire_through(uint64_t cycle) { fire(cycle + 1); }
  uint32_t wbase() const { return first_ + static_cast<uint32_t>(base_); }
  bool complete() const { return base_ == count_; }

  std::vector<Ctl> ctls;

 private:
  void fire_before(uint64_t cycle) { fire(cycle); }
  void fire(uint64_t limit) {  // timeouts strictly before `limit`
    if (complete()) return;
    for (;;) {
      const uint64_t at = progress_ + (fired_ + 1) * t_;
      if (at >= limit) return;
      ++fired_;
      ++streak_;
      Ctl c;
      c.cycle = at;
      c.wbase = wbase();
      c.timeout = true;
      c.go_back = g_ != 0 && streak_ == g_;
      if (c.go_back) streak_ = 0;
      ctls.push_back(c);
    }
  }

  uint32_t w_;
  uint64_t t_;
  uint32_t g_;
  bool sack_;
  MsgTag tag_;
  uint32_t first_, count_;
  std::set<int64_t> got_;
  int64_t base_ = 0;
  uint64_t progress_ = 0;
  uint64_t fired_ = 0;   // timeouts since the last delivery (timing)
  uint64_t streak_ = 0;  // timeouts since WBASE last moved or the last go-back
};

}  // namespace

TEST_CASE("window_mode: random closed loop delivers every packet exactly once and completes",
          "[window_mode][stress]") {
  TONIC_SEED(0x003);
  Rng rng(tonic_seed_);
  const uint32_t kRuns = 150;
  uint64_t arrivals = 0, resends = 0, beyond = 0, go_backs = 0, zombies = 0, dups = 0;
  for (uint32_t run = 0; run < kRuns; ++run) {
    LoopConfig c;
    c.w = 32u << rng.below(4);
    c.count = 1 + static_cast<uint32_t>(rng.below(rng.chance(0.2) ? 4000 : 600));
    c.first = rng.chance(0.3) ? 0xFFFF'FFFFu - static_cast<uint32_t>(rng.below(2000))
                              : static_cast<uint32_t>(rng.below(1u << 20));
    c.pace = 1 + static_cast<uint32_t>(rng.below(3));
    c.delay = 1 + rng.below(40);
    c.ctl_delay = 1 + rng.below(40);
    c.jitter = rng.below(2 * c.w);
    c.ctl_jitter = rng.below(10);
    c.loss = rng.chance(0.2) ? 0 : rng.below(60) / 1000.0;
    c.dup = rng.chance(0.5) ? 0 : rng.below(50) / 1000.0;
    c.ctl_loss = rng.chance(0.5) ? 0 : rng.below(100) / 1000.0;
    c.zombies = static_cast<uint32_t>(rng.below(40));
    c.timeout = 1 + rng.below(4 * (c.delay + c.ctl_delay + c.jitter) + 50);
    c.go_back_after = static_cast<uint32_t>(rng.below(6));
    c.beyond = static_cast<BeyondAction>(rng.below(3));
    c.beyond_sack = rng.chance(0.7);
    c.holdoff = rng.chance(0.5) ? UINT64_MAX : rng.below(200);
    c.seed = rng.bits64();
    c.max_cycles = 5'000'000;
    c.trace = true;
    INFO("run " << run << " W " << c.w << " N " << c.count << " first " << c.first << " pace " << c.pace
                << " delay " << c.delay << "/" << c.ctl_delay << " jitter " << c.jitter << " loss " << c.loss
                << " dup " << c.dup << " ctl_loss " << c.ctl_loss << " T " << c.timeout << " G "
                << c.go_back_after << " beyond " << int(c.beyond) << " holdoff " << c.holdoff);
    const LoopResult r = run_loop(c);
    REQUIRE(r.complete);
    // Exactly once.
    for (uint32_t d = 0; d < c.count; ++d) {
      INFO("offset " << d);
      REQUIRE(r.deliveries[d] == 1);
    }
    CHECK(r.rx.delivered == c.count);
    // The literal model agrees on every arrival and every RESEND.
    Literal lit(c.w, c.timeout, c.go_back_after, c.beyond_sack, {3, 7, 0x5a5a5}, c.first, c.count);
    uint64_t zombie_arrivals = 0;
    for (const ArrivalRec& a : r.arrivals) {
      const Verdict v = lit.arrive(a.cycle, a.tag, a.idx);
      INFO("cycle " << a.cycle << " idx " << a.idx << " model " << to_string(a.verdict) << " literal "
                    << to_string(v));
      REQUIRE(v == a.verdict);
      REQUIRE(lit.wbase() == a.wbase_after);
      if (a.tag.msgid != 0x5a5a5) ++zombie_arrivals;
    }
    lit.fire_through(r.end_cycle);
    CHECK(lit.complete());
    REQUIRE(lit.ctls.size() == r.ctls.size());
    for (std::size_t k = 0; k < r.ctls.size(); ++k) {
      INFO("RESEND " << k << ": model " << describe(r.ctls[k]) << " literal " << describe(lit.ctls[k]));
      REQUIRE(r.ctls[k] == lit.ctls[k]);
    }
    CHECK(r.rx.zombies == zombie_arrivals);
    CHECK(r.rx.arrivals == r.arrivals.size());
    arrivals += r.rx.arrivals;
    resends += r.rx.resends;
    beyond += r.rx.beyond_window;
    go_backs += r.rx.go_backs;
    zombies += r.rx.zombies;
    dups += r.rx.duplicates;
  }
  // The runs exercised every rule.
  CHECK(resends > 0);
  CHECK(beyond > 0);
  CHECK(go_backs > 0);
  CHECK(zombies > 0);
  CHECK(dups > 0);
  WARN("random loop: " << kRuns << " runs, " << arrivals << " arrivals, " << resends << " RESENDs ("
                       << beyond << " beyond window, " << go_backs << " go-back), " << zombies
                       << " zombies, " << dups << " duplicates");
}

TEST_CASE("window_mode: random whole-message baseline completes with one clean attempt", "[window_mode][stress]") {
  TONIC_SEED(0x1003);
  Rng rng(tonic_seed_);
  for (uint32_t run = 0; run < 60; ++run) {
    LoopConfig c;
    c.recovery = Recovery::kWholeMessage;
    c.count = 1 + static_cast<uint32_t>(rng.below(200));
    c.delay = 1 + rng.below(30);
    c.ctl_delay = 1 + rng.below(30);
    c.jitter = rng.below(40);
    c.loss = rng.below(10) / 1000.0;
    c.dup = rng.below(20) / 1000.0;
    c.ctl_loss = rng.below(100) / 1000.0;
    c.zombies = static_cast<uint32_t>(rng.below(10));
    c.timeout = c.delay + c.ctl_delay + c.jitter + 1 + rng.below(50);  // > RTT + jitter
    c.seed = rng.bits64();
    c.max_cycles = 5'000'000;
    INFO("run " << run << " N " << c.count << " loss " << c.loss << " T " << c.timeout);
    const LoopResult r = run_loop(c);
    REQUIRE(r.complete);
    CHECK(r.rx.completed == 1);
    CHECK(r.tx.restarts <= r.rx.resends);
  }
}
