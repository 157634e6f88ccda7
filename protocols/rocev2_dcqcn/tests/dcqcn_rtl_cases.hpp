// SPDX-License-Identifier: Apache-2.0
// The dcqcn_rtl cases (label dcqcn_rtl): the RoCEv2 protocol modules
// against the DCQCN reaction-point reference (../dcqcn_ref.hpp,
// docs/design/dcqcn.md), integer for integer: directed checks of every
// rule, the go-back rules, and long seeded random schedules of CNPs, acks
// (the byte counter) and periodic visits. Every event goes through the
// Verilated modules (RoceFlow checks the non-DCQCN outputs and the rate
// write on every call); the reference gets the same event:
//   CNP (incoming, RxCnp)                 -> Rp::cnp(now)
//   n segments sent, then acked (incoming) -> Rp::sent(n * SegBytes, now)
// (the transmit event counts the bytes as they leave, RoceFlow::transmit;
// the next incoming call turns them into byte events)
//   periodic visit (not dropped)          -> Rp::visit(now)
// and after every event Rc, Rt, alpha, both stage counts, the byte count,
// the due times and the engine's rate equal the reference's.
// Not a header of declarations: a protocol with these modules
// (test_dcqcn_rtl.cpp here, protocols/rocev2_gb0/tests/test_gb0_rtl.cpp)
// defines DCQCN_RTL_FLOWS (its RoceFlow type) and includes this file once,
// registering every case for that type.
#ifndef DCQCN_RTL_FLOWS
#error "define DCQCN_RTL_FLOWS before including dcqcn_rtl_cases.hpp"
#endif

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "protocols/rocev2_dcqcn/tests/roce_flow.hpp"
#include "tonic/rng.hpp"

using namespace tonic;
using namespace tonic::dcqcntb;
using tonic::ref::dcqcn::Rp;

namespace {

constexpr uint32_t kC = RoceCfg::kC;
constexpr uint32_t kSeg = RoceCfg::kSegBytes;

/// A flow and its reference, fed the same events.
template <class Flow>
struct Pair {
  Flow f;
  Rp rp;
  uint64_t now;
  explicit Pair(uint64_t start) : rp(RoceCfg::params(), start), now(start) {
    visit(start);  // ADD, then the first visit starts the timers at `start`
    REQUIRE(!f.u().fresh);
  }
  void check() const { require_same(f.u(), rp, f.rate, f.byte_count()); }
  RoceOut cnp(uint64_t t) {
    now = t;
    const RoceOut o = f.incoming(ref::kRxCnp, 0, t);
    rp.cnp(t);
    check();
    return o;
  }
  /// `n` new segments acked (sent first so that flight covers them).
  RoceOut ack(uint32_t n, uint64_t t, uint8_t type = ref::kRxAck) {
    now = t;
    if (f.flight() < n) f.next_new = f.wnd_start + n;
    f.transmit(n * kSeg);
    const RoceOut o = f.incoming(type, n, t);
    if (n > 0) rp.sent(n * kSeg, t);
    check();
    return o;
  }
  RoceOut visit(uint64_t t, bool timeout = false) {
    now = t;
    const RoceOut o = f.visit(t, timeout);
    rp.visit(t);
    check();
    return o;
  }
  /// An ack of `n` segments and a visit in one cycle, merged by the engine.
  std::pair<RoceOut, RoceOut> ack_with_visit(uint32_t n, uint64_t t) {
    now = t;
    if (f.flight() < n) f.next_new = f.wnd_start + n;
    f.transmit(n * kSeg);
    const auto o = f.merged(ref::kRxAck, n, t);
    rp.visit_and_sent(n * kSeg, t);
    check();
    return o;
  }
  /// A CNP and a visit in one cycle: the CNP wins whole.
  std::pair<RoceOut, RoceOut> cnp_with_visit(uint64_t t) {
    now = t;
    const auto o = f.merged(ref::kRxCnp, 0, t);
    rp.cnp(t);
    check();
    return o;
  }
};

}  // namespace

TEMPLATE_TEST_CASE("dcqcn_rtl: a fresh flow starts its timers on the first visit or the first CNP",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  TestType f;
  REQUIRE(f.u().fresh);
  REQUIRE(f.u().rc == kC);
  REQUIRE(f.u().alpha == 1024);
  SECTION("first visit") {
    const RoceOut o = f.visit(70000);  // 70000 = 0x11170
    REQUIRE(o.user_we);
    REQUIRE(!o.rate_we);
    REQUIRE(!f.u().fresh);
    REQUIRE(f.u().t_due == ((70000 + RoceCfg::kT) & 0xffffU));
    REQUIRE(f.u().k_due == ((70000 + RoceCfg::kK) & 0xffffU));
    REQUIRE(f.u().alpha == 1024);
  }
  SECTION("a CNP before any visit") {
    const RoceOut o = f.incoming(ref::kRxCnp, 0, 123456);
    REQUIRE(o.rate_we);
    REQUIRE(o.rate == kC / 2);
    REQUIRE(!f.u().fresh);
    REQUIRE(f.u().t_due == ((123456 + RoceCfg::kT) & 0xffffU));
    // The next visit processes nothing until due.
    REQUIRE(!f.visit(123456 + RoceCfg::kT - 1).user_we);
    REQUIRE(f.visit(123456 + RoceCfg::kT).user_we);
  }
  SECTION("bytes before the first visit count; the timers still wait") {
    f.next_new = 100;
    f.transmit(100 * kSeg);
    f.incoming(ref::kRxAck, 100, 50);
    REQUIRE(f.u().fresh);
    REQUIRE(f.byte_count() == 100 * kSeg);
  }
}

TEMPLATE_TEST_CASE("dcqcn_rtl: the first CNP from line rate halves Rc and a second cuts with the new alpha",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  Pair<TestType> p(1000);
  RoceOut o = p.cnp(2000);
  REQUIRE(o.rate_we);
  REQUIRE(o.rate == 65'536'000);
  REQUIRE(p.f.u().rt == kC);
  REQUIRE(p.f.u().alpha == 1024);
  REQUIRE(p.f.u().t_due == 2000 + RoceCfg::kT);
  REQUIRE(p.f.u().k_due == 2000 + RoceCfg::kK);
  o = p.cnp(2001);  // alpha still 1024: halves again
  REQUIRE(o.rate == 32'768'000);
  REQUIRE(p.f.u().rt == 65'536'000);
}

TEMPLATE_TEST_CASE("dcqcn_rtl: alpha decays on the start + n * K schedule and visits in between change nothing",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  Pair<TestType> p(0);
  const uint32_t want[] = {1020, 1017, 1014, 1011, 1008, 1005, 1002, 999, 996, 993};
  for (uint32_t n = 1; n <= 10; ++n) {
    p.visit(uint64_t{n} * RoceCfg::kK - 1);
    REQUIRE(!p.f.last.user_we);  // not due yet
    p.visit(uint64_t{n} * RoceCfg::kK + 7);  // late by 7: the schedule does not move
    REQUIRE(p.f.u().alpha == want[n - 1]);
    REQUIRE(p.f.u().k_due == (uint64_t{n + 1} * RoceCfg::kK & 0xffffU));
  }
  // The cut uses the old alpha (993): Rc = C - C * 993 / 2048.
  p.cnp(p.now + 1);
  REQUIRE(p.f.u().rc == 67'520'000);
  REQUIRE(p.f.u().alpha == 994);
}

TEMPLATE_TEST_CASE("dcqcn_rtl: timer events give 4 fast steps then additive and byte events then hyper",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  Pair<TestType> p(0);
  p.cnp(100);
  const uint64_t t0 = 100;
  uint32_t rc = 65'536'000;
  for (uint32_t n = 1; n <= 4; ++n) {  // fast recovery
    const RoceOut o = p.visit(t0 + n * RoceCfg::kT);
    rc = (kC + rc) / 2;
    REQUIRE(o.rate_we);
    REQUIRE(o.rate == rc);
    REQUIRE(p.f.u().rt == kC);
    REQUIRE(p.f.u().t_cnt == n);
  }
  REQUIRE(p.rp.stats().fast == 4);
  p.visit(t0 + 5 * RoceCfg::kT);  // additive: Rt + R_AI > C, clamped
  REQUIRE(p.rp.stats().additive == 1);
  REQUIRE(p.rp.stats().rt_at_c == 1);
  REQUIRE(p.f.u().rt == kC);
  REQUIRE(p.f.u().t_cnt == 5);
  // A cut far below C, then byte events: additive until b_cnt reaches F.
  for (int i = 0; i < 8; ++i) p.cnp(p.now + 1);
  const uint32_t rt_cut = p.f.u().rt;
  for (uint32_t n = 1; n <= 5; ++n) p.visit(p.now + RoceCfg::kT);  // t_cnt = 5
  REQUIRE(p.f.u().t_cnt == 5);
  REQUIRE(p.f.u().rt == rt_cut + RoceCfg::kRai);
  const uint32_t per_event = RoceCfg::kB / kSeg + 1;  // segments to cross B
  for (uint32_t n = 1; n <= 6; ++n) {
    uint32_t left = per_event;
    while (left > 0) {
      const uint32_t k = std::min<uint32_t>(left, 128);
      p.ack(k, p.now + 1);
      left -= k;
    }
    REQUIRE(p.f.u().b_cnt == std::min(n, RoceCfg::kF));
  }
  REQUIRE(p.rp.stats().byte_events == 6);
  REQUIRE(p.rp.stats().hyper == 2);  // b_cnt reached F on the 5th and 6th
  REQUIRE(p.f.u().rt == rt_cut + 5 * RoceCfg::kRai + 2 * RoceCfg::kRhai);
}

TEMPLATE_TEST_CASE("dcqcn_rtl: Rc stops at Rmin and a CNP at Rmin writes the rate it leaves",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  Pair<TestType> p(0);
  int n = 0;
  while (p.f.u().rc > RoceCfg::kRmin) {
    p.cnp(p.now + 1);
    ++n;
    REQUIRE(n < 40);
  }
  REQUIRE(p.rp.stats().cuts_at_rmin == 1);
  const RoceOut o = p.cnp(p.now + 1);
  REQUIRE(o.user_we);
  // A CNP always writes the rate (here unchanged), so a periodic call merged
  // with it cannot raise it (user_merge).
  REQUIRE(o.rate_we);
  REQUIRE(o.rate == RoceCfg::kRmin);
  REQUIRE(p.f.u().rc == RoceCfg::kRmin);
}

TEMPLATE_TEST_CASE("dcqcn_rtl: a CNP drops unvisited expiries, a visit in an ack's cycle is merged with it",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  Pair<TestType> p(0);
  p.cnp(10);
  const uint64_t due = 10 + RoceCfg::kT;
  SECTION("a visit in the CNP's cycle: the CNP wins whole") {
    p.visit(due - 5);
    // Cycle `due`: both expiries are due, the periodic call meets a CNP.
    const auto [in, per] = p.cnp_with_visit(due);
    REQUIRE(per.user_we);  // the call would have processed them ...
    REQUIRE(p.rp.stats().dropped_timer == 1);  // ... the CNP drops them
    REQUIRE(p.rp.stats().dropped_alpha == 1);
    REQUIRE(p.f.u().t_due == ((due + RoceCfg::kT) & 0xffffU));
    REQUIRE(in.rate_we);  // a CNP writes the rate, so the call cannot raise it
  }
  SECTION("a visit in the cycle of an ack: merged, the expiries processed on time") {
    p.visit(due - 5);
    const auto [in, per] = p.ack_with_visit(3, due);
    REQUIRE(!in.user_we);  // no byte event: the ack writes no user state
    REQUIRE(per.rate_we);
    REQUIRE(p.f.rate == RoceUser::unpack(per.user).rc);
    REQUIRE(p.f.byte_count() == 3 * kSeg);
    REQUIRE(p.rp.stats().timer_events == 1);
    REQUIRE(p.rp.stats().alpha_decays == 1);
    REQUIRE(p.f.u().t_due == ((due + RoceCfg::kT) & 0xffffU));
  }
  SECTION("visit, then CNP one cycle later: the expiries count") {
    p.visit(due);
    p.cnp(due + 1);
    REQUIRE(p.rp.stats().dropped_timer == 0);
    REQUIRE(p.rp.stats().timer_events == 1);
  }
}

TEMPLATE_TEST_CASE("dcqcn_rtl: beyond the visit-period condition the module catches up one expiry per visit",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  // Documents the limit: visits 3 periods apart give one expiry per visit,
  // and the absolute due times catch up on the next visits.
  TestType f;
  Rp rp(RoceCfg::params(), 0);
  f.visit(0);
  f.incoming(ref::kRxCnp, 0, 1);
  rp.cnp(1);
  const uint64_t late = 1 + 3 * uint64_t{RoceCfg::kT};
  f.visit(late);
  rp.visit(late);
  REQUIRE(f.u().t_cnt == 1);  // the reference has processed 3
  REQUIRE(rp.t_cnt() == 3);
  f.visit(late + 1);
  f.visit(late + 2);
  REQUIRE(!f.visit(late + 3).user_we);  // caught up
  require_same(f.u(), rp, f.rate, f.byte_count());
}

TEMPLATE_TEST_CASE("dcqcn_rtl: go-back: a NACK and a timeout mark from wnd_start to next_new",
                   "[dcqcn_rtl][smoke]", DCQCN_RTL_FLOWS) {
  TestType f(1000);
  f.visit(1);
  f.next_new = 1040;  // 1000..1039 sent
  // ACK 1010: RTO reset and timer restarted, nothing marked.
  f.transmit(40 * kSeg);
  RoceOut o = f.incoming(ref::kRxAck, 10, 2);
  REQUIRE((!o.mark_we && o.rto_we && o.rto == RoceCfg::kRtoInit && o.timer_restart));
  REQUIRE(f.byte_count() == 40 * kSeg);  // what left, acked or not
  // NACK(1015): stage 1 moved wnd_start to 1015; go back to it.
  o = f.incoming(ref::kRxNack, 5, 3);
  REQUIRE(o.mark_we);
  REQUIRE(o.mark_lo == 1015);
  REQUIRE(o.mark_hi == 1040);
  REQUIRE((o.rto_we && o.rto == RoceCfg::kRtoInit && o.timer_restart));
  REQUIRE(f.byte_count() == 40 * kSeg);
  // A repeated NACK(1015) marks again (the receiver rate-limits NACKs).
  o = f.incoming(ref::kRxNack, 0, 4);
  REQUIRE((o.mark_we && o.mark_lo == 1015 && o.mark_hi == 1040));
  REQUIRE(!o.user_we);
  // A duplicate ACK, a PULL and a RESEND do nothing.
  REQUIRE(f.incoming(ref::kRxAck, 0, 5).mark_we == false);
  REQUIRE(!f.last.rto_we);
  f.incoming(ref::kRxPull, 0, 6);
  REQUIRE((!f.last.mark_we && !f.last.rto_we && !f.last.user_we));
  f.incoming(ref::kRxResend, 0, 7);
  REQUIRE((!f.last.mark_we && !f.last.rto_we && !f.last.user_we));
  // Timeouts: mark the same range, back off to RtoMax.
  uint32_t rto = RoceCfg::kRtoInit;
  for (int i = 0; i < 8; ++i) {
    o = f.visit(10 + i, true);
    rto = std::min(2 * rto, RoceCfg::kRtoMax);
    REQUIRE((o.mark_we && o.mark_lo == 1015 && o.mark_hi == 1040));
    REQUIRE((o.rto_we && o.rto == rto && o.timer_restart));
    REQUIRE(f.rto == rto);
  }
  REQUIRE(rto == RoceCfg::kRtoMax);
  // A new ack resets the RTO; with nothing left in flight no restart.
  o = f.incoming(ref::kRxAck, 25, 20);
  REQUIRE((o.rto_we && o.rto == RoceCfg::kRtoInit && !o.timer_restart));
}

TEMPLATE_TEST_CASE("dcqcn_rtl: random schedules equal the reference after every event",
                   "[dcqcn_rtl][stress]", DCQCN_RTL_FLOWS) {
  TONIC_SEED(0xdc9c7e1);
  constexpr int kSeeds = 3;
  constexpr uint64_t kEvents = 100'000;
  constexpr uint64_t kGapMax = std::min(RoceCfg::kK, RoceCfg::kT);  // visit-period condition
  ref::dcqcn::Stats total;
  uint64_t merges = 0, rate_writes = 0, timeouts = 0, nacks = 0, max_gap = 0;
  for (int s = 0; s < kSeeds; ++s) {
    const uint64_t seed = tonic_seed_ + static_cast<uint64_t>(s);
    CAPTURE(seed);
    Rng rng(seed);
    // Start anywhere, often shortly before the 32-bit wrap of now_i.
    const uint64_t start = rng.chance(0.5) ? (uint64_t{1} << 32) - rng.range(1, 20'000'000) : rng.bits64() >> 34;
    TestType f(static_cast<uint32_t>(rng.bits64()));
    Rp rp(RoceCfg::params(), start);
    f.visit(start);
    rp.visit(start);
    uint64_t t = start, last_visit = start;
    // Phase: CNP probability, ack size, time step, visit period.
    double p_cnp = 0;
    uint32_t ack_max = 1, dt_max = 1;
    uint64_t vmax = 3, phase_left = 0;
    uint64_t next_visit = start + 3;
    for (uint64_t ev = 0; ev < kEvents; ++ev) {
      if (phase_left == 0) {
        phase_left = rng.range(200, 5000);
        const double cnp_choices[] = {0.0, 0.0, 0.0005, 0.005, 0.05, 0.5};
        p_cnp = cnp_choices[rng.below(6)];
        const uint32_t ack_choices[] = {1, 16, 128, 128};
        ack_max = ack_choices[rng.below(4)];
        const uint32_t dt_choices[] = {4, 64, 1000, 6000};
        dt_max = dt_choices[rng.below(4)];
        // The visit period (at most a few visits per incoming event).
        const uint64_t v_choices[] = {3, 50, 1000, kGapMax / 2, kGapMax};
        vmax = std::max<uint64_t>(v_choices[rng.below(5)], std::min<uint64_t>(dt_max / 4, kGapMax));
      }
      --phase_left;
      uint64_t t_in = t + rng.range(1, dt_max);
      // A visit due exactly at the gap limit is never cancelled: the
      // incoming event moves one cycle later.
      if (t_in == next_visit && next_visit - last_visit == kGapMax) ++t_in;
      // Visits before the incoming event's cycle (each counts as an event).
      while (next_visit < t_in) {
        ++ev;
        const bool timeout = rng.chance(0.01);
        f.visit(next_visit, timeout);
        rp.visit(next_visit);
        timeouts += timeout;
        max_gap = std::max(max_gap, next_visit - last_visit);
        last_visit = next_visit;
        INFO("visit at " << next_visit << " event " << ev);
        require_same(f.u(), rp, f.rate, f.byte_count());
        next_visit = last_visit + rng.range(std::min<uint64_t>(3, vmax), vmax);
      }
      // A visit in the cycle of the incoming event is merged with it.
      const bool with_visit = next_visit == t_in;
      if (with_visit) {
        ++merges;
        max_gap = std::max(max_gap, next_visit - last_visit);
        last_visit = t_in;
        next_visit = t_in + rng.range(std::min<uint64_t>(3, vmax), vmax);
      }
      REQUIRE(next_visit - last_visit <= kGapMax);
      t = t_in;
      INFO("incoming at " << t << " event " << ev << (with_visit ? " (with a visit)" : ""));
      if (rng.chance(p_cnp)) {
        if (with_visit) {
          f.merged(ref::kRxCnp, 0, t);
        } else {
          f.incoming(ref::kRxCnp, 0, t);
        }
        rp.cnp(t);
      } else {
        const uint32_t n = static_cast<uint32_t>(rng.range(0, ack_max));
        // Send up to the window, then ack n of the flight.
        const uint32_t room = RoceCfg::kW - f.flight();
        f.next_new += rng.chance(0.7) ? room : static_cast<uint32_t>(rng.range(0, room));
        const uint32_t k = std::min(n, f.flight());
        const bool nack = rng.chance(0.03);
        nacks += nack;
        const uint8_t type = nack ? ref::kRxNack : (rng.chance(0.9) ? ref::kRxAck : ref::kRxSack);
        // The k acked segments' bytes left before this call (the transmit
        // event counts them; the call turns them into byte events).
        f.transmit(k * kSeg);
        if (with_visit) {
          f.merged(type, k, t);
          rp.visit_and_sent(k * kSeg, t);
        } else {
          f.incoming(type, k, t);
          if (k > 0) rp.sent(k * kSeg, t);
        }
      }
      require_same(f.u(), rp, f.rate, f.byte_count());
    }
    const ref::dcqcn::Stats& st = rp.stats();
    INFO("seed " << seed << ": " << ref::dcqcn::to_string(st));
    total.cnps += st.cnps;
    total.cuts_at_rmin += st.cuts_at_rmin;
    total.fast += st.fast;
    total.additive += st.additive;
    total.hyper += st.hyper;
    total.rt_at_c += st.rt_at_c;
    total.timer_events += st.timer_events;
    total.byte_events += st.byte_events;
    total.alpha_decays += st.alpha_decays;
    total.dropped_timer += st.dropped_timer;
    total.dropped_alpha += st.dropped_alpha;
    rate_writes += f.rate_writes;
  }
  INFO("total: " << ref::dcqcn::to_string(total) << " merges=" << merges << " rate_writes=" << rate_writes
                 << " timeouts=" << timeouts << " nacks=" << nacks << " max_gap=" << max_gap);
  std::fprintf(stderr, "[dcqcn_rtl] %s merges=%llu rate_writes=%llu max_gap=%llu\n",
               ref::dcqcn::to_string(total).c_str(), static_cast<unsigned long long>(merges),
               static_cast<unsigned long long>(rate_writes), static_cast<unsigned long long>(max_gap));
  // Every rule was exercised.
  CHECK(total.cnps > 0);
  CHECK(total.cuts_at_rmin > 0);
  CHECK(total.fast > 0);
  CHECK(total.additive > 0);
  CHECK(total.hyper > 0);
  CHECK(total.rt_at_c > 0);
  CHECK(total.byte_events > 0);
  CHECK(total.timer_events > 0);
  CHECK(total.alpha_decays > 0);
  CHECK(total.dropped_timer > 0);
  CHECK(total.dropped_alpha > 0);
  CHECK(merges > 0);
  CHECK(timeouts > 0);
  CHECK(nacks > 0);
  CHECK(max_gap == kGapMax);
}
