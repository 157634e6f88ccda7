// SPDX-License-Identifier: Apache-2.0
// Tests for the DCQCN reaction-point reference model
// (protocols/rocev2_dcqcn/dcqcn_ref.hpp): directed cases with exact values for every
// rule, then seeded random schedules checked after every event against a
// second, per-cycle implementation written here in the most literal form,
// and a proof that this cross-check catches deliberate mutations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "protocols/rocev2_dcqcn/dcqcn_ref.hpp"
#include "tonic/rng.hpp"

using namespace tonic::ref::dcqcn;

namespace {

constexpr uint32_t kC = kLineRateRu;
constexpr uint32_t kU32Max = std::numeric_limits<uint32_t>::max();

// ---------------------------------------------------------------------------
// The literal model

/// Deliberate faults of the literal model, to show the cross-check sees them.
enum class Mutation {
  kNone,
  kAlphaDecayBy128,      ///< alpha timer: alpha -= alpha / 128
  kCutByAlpha,           ///< cut Rc by Rc * alpha instead of Rc * alpha / 2
  kCnpKeepsBytes,        ///< a CNP does not clear the byte count
  kCnpVisitsFirst,       ///< a CNP first processes the due expiries
  kStepBeforeIncrement,  ///< step kind from the counts before the increment
  kHyperOnEither,        ///< hyper when either count reached F
  kSum32,                ///< (Rt + Rc) / 2 computed in 32 bits
  kVisitRestartsTimer,   ///< a visit restarts the rate timer (schedule drifts)
};

const char* name(Mutation m) {
  switch (m) {
    case Mutation::kNone: return "none";
    case Mutation::kAlphaDecayBy128: return "alpha decay by 1/128";
    case Mutation::kCutByAlpha: return "cut by alpha";
    case Mutation::kCnpKeepsBytes: return "CNP keeps bytes";
    case Mutation::kCnpVisitsFirst: return "CNP visits first";
    case Mutation::kStepBeforeIncrement: return "step before increment";
    case Mutation::kHyperOnEither: return "hyper on either";
    case Mutation::kSum32: return "32-bit sum";
    case Mutation::kVisitRestartsTimer: return "visit restarts timer";
  }
  return "?";
}

/// The RP as a per-cycle simulation: time advances one cycle at a time;
/// each timer counts the cycles since its start or last expiry and, when
/// the count reaches the period, queues an expiry with its cycle. visit()
/// drains the queues; cnp() empties them. Bytes are counted up to B in
/// chunks. Divisions instead of shifts, explicit ifs instead of min/max.
class LiteralRp {
 public:
  LiteralRp(const Params& p, uint64_t start, Mutation m) : p_(p), m_(m), cycle_(start) {
    rc_ = p.rinit_ru == 0 ? p.c_ru : p.rinit_ru;
    rt_ = rc_;
  }

  void cnp(uint64_t now) {
    run_to(now);
    if (m_ == Mutation::kCnpVisitsFirst) visit(now);
    stats_.dropped_timer += t_pending_.size();
    stats_.dropped_alpha += k_pending_.size();
    t_pending_.clear();
    k_pending_.clear();
    t_elapsed_ = 0;
    k_elapsed_ = 0;
    stats_.cnps += 1;
    rt_ = rc_;
    const uint64_t reduction = uint64_t{rc_} * alpha_ / (m_ == Mutation::kCutByAlpha ? 1024 : 2048);
    if (rc_ - reduction < p_.rmin_ru) {
      rc_ = p_.rmin_ru;
      stats_.cuts_at_rmin += 1;
    } else {
      rc_ = static_cast<uint32_t>(rc_ - reduction);
    }
    alpha_ = alpha_ - alpha_ / 256 + 4;
    if (alpha_ > 1024) alpha_ = 1024;
    t_cnt_ = 0;
    b_cnt_ = 0;
    if (m_ != Mutation::kCnpKeepsBytes) bytes_ = 0;
  }

  void sent(uint32_t bytes, uint64_t now) {
    run_to(now);
    uint64_t left = bytes;
    while (left > 0) {
      const uint64_t take = std::min<uint64_t>(left, p_.b_bytes - bytes_);
      bytes_ += static_cast<uint32_t>(take);
      left -= take;
      if (bytes_ == p_.b_bytes) {
        bytes_ = 0;
        increase(false);
      }
    }
  }

  void visit(uint64_t now) {
    run_to(now);
    bool rate_expired = false;
    while (!t_pending_.empty() || !k_pending_.empty()) {
      const bool alpha_next =
          !k_pending_.empty() && (t_pending_.empty() || k_pending_.front() <= t_pending_.front());
      if (alpha_next) {
        k_pending_.pop_front();
        alpha_ = alpha_ - alpha_ / (m_ == Mutation::kAlphaDecayBy128 ? 128 : 256);
        stats_.alpha_decays += 1;
      } else {
        t_pending_.pop_front();
        increase(true);
        rate_expired = true;
      }
    }
    if (m_ == Mutation::kVisitRestartsTimer && rate_expired) t_elapsed_ = 0;
  }

  State state() const {
    State s;
    s.rc = rc_;
    s.rt = rt_;
    s.alpha = alpha_;
    s.t_cnt = t_cnt_;
    s.b_cnt = b_cnt_;
    s.bytes = bytes_;
    s.t_due = t_pending_.empty() ? cycle_ + (p_.t_cycles - t_elapsed_) : t_pending_.front();
    s.k_due = k_pending_.empty() ? cycle_ + (p_.k_cycles - k_elapsed_) : k_pending_.front();
    s.now = cycle_;
    return s;
  }
  const Stats& stats() const { return stats_; }

 private:
  void run_to(uint64_t now) {
    while (cycle_ < now) {
      cycle_ += 1;
      t_elapsed_ += 1;
      if (t_elapsed_ == p_.t_cycles) {
        t_elapsed_ = 0;
        t_pending_.push_back(cycle_);
      }
      k_elapsed_ += 1;
      if (k_elapsed_ == p_.k_cycles) {
        k_elapsed_ = 0;
        k_pending_.push_back(cycle_);
      }
    }
  }

  void increase(bool timer) {
    uint32_t t = t_cnt_;
    uint32_t b = b_cnt_;
    if (timer) {
      stats_.timer_events += 1;
      if (t_cnt_ < p_.f_stages) t_cnt_ += 1;
    } else {
      stats_.byte_events += 1;
      if (b_cnt_ < p_.f_stages) b_cnt_ += 1;
    }
    if (m_ != Mutation::kStepBeforeIncrement) {
      t = t_cnt_;
      b = b_cnt_;
    }
    const bool t_done = t >= p_.f_stages;
    const bool b_done = b >= p_.f_stages;
    if (!t_done && !b_done) {
      stats_.fast += 1;
    } else {
      uint32_t step = p_.rai_ru;
      if ((t_done && b_done) || m_ == Mutation::kHyperOnEither) {
        stats_.hyper += 1;
        step = p_.rhai_ru;
      } else {
        stats_.additive += 1;
      }
      const uint64_t target = uint64_t{rt_} + step;
      if (target > p_.c_ru) {
        rt_ = p_.c_ru;
        stats_.rt_at_c += 1;
      } else {
        rt_ = static_cast<uint32_t>(target);
      }
    }
    if (m_ == Mutation::kSum32)
      rc_ = static_cast<uint32_t>(rt_ + rc_) / 2;
    else
      rc_ = static_cast<uint32_t>((uint64_t{rt_} + uint64_t{rc_}) / 2);
  }

  Params p_;
  Mutation m_;
  uint64_t cycle_;
  uint32_t rc_ = 0, rt_ = 0, alpha_ = 1024, t_cnt_ = 0, b_cnt_ = 0, bytes_ = 0;
  uint64_t t_elapsed_ = 0, k_elapsed_ = 0;
  std::deque<uint64_t> t_pending_, k_pending_;
  Stats stats_;
};

// ---------------------------------------------------------------------------
// Random schedules

/// Outcome of one random schedule.
struct Run {
  int64_t diverged_at = -1;  ///< first event where the two models differ, -1 if none
  std::string problem;       ///< the difference or the broken invariant
  Stats stats;               ///< the reference model's statistics at the end
  uint64_t late_visits = 0;  ///< visits that processed two or more rate-timer expiries
  uint64_t multi_sends = 0;  ///< sends that crossed two or more B boundaries
  uint64_t same_cycle = 0;   ///< events in the same cycle as the previous one
  uint32_t min_alpha = kAlphaOne;
};

/// Random parameters with small periods (many timer and byte events) and
/// rates that reach both clamps; sometimes C = UINT32_MAX (64-bit sums).
Params random_params(tonic::Rng& rng) {
  Params p;
  const uint64_t pick = rng.below(4);
  p.c_ru = pick == 0 ? kU32Max : pick == 1 ? kC : static_cast<uint32_t>(rng.range(1000, 1'000'000));
  p.rmin_ru = static_cast<uint32_t>(rng.chance(0.3) ? rng.range(p.c_ru / 8, p.c_ru / 2) : rng.below(p.c_ru / 64 + 1));
  p.rai_ru = static_cast<uint32_t>(rng.below(p.c_ru / 16 + 1));
  p.rhai_ru = static_cast<uint32_t>(rng.range(p.rai_ru, p.c_ru / 4));
  p.t_cycles = static_cast<uint32_t>(rng.range(1, 300));
  p.k_cycles = static_cast<uint32_t>(rng.range(1, 300));
  p.b_bytes = static_cast<uint32_t>(rng.range(1, 20'000));
  p.f_stages = static_cast<uint32_t>(rng.range(1, 7));
  p.rinit_ru = rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.range(p.rmin_ru, p.c_ru));
  return p;
}

/// Runs `events` random cnp/sent/visit calls on the reference model and the
/// literal model (with mutation `m`), comparing state and statistics and
/// checking the invariants after every event. Stops at the first problem.
/// CNPs come in phases (congested, light, none) so every increase kind
/// occurs; gaps are mostly short, sometimes 0, sometimes many periods.
Run cross_check(const Params& p, uint64_t seed, uint64_t events, Mutation m) {
  tonic::Rng rng(seed);
  const uint64_t start = rng.below(1000);
  Rp ref(p, start);
  LiteralRp lit(p, start, m);
  Run r;
  const uint64_t period = std::max(p.t_cycles, p.k_cycles);
  uint64_t now = start;
  double cnp_p = 0.2;
  for (uint64_t i = 0; i < events; ++i) {
    if (i % 2000 == 0) {
      const uint64_t phase = rng.below(3);
      cnp_p = phase == 0 ? 0.2 : phase == 1 ? 0.002 : 0.0;
    }
    const uint64_t g = rng.below(100);
    const uint64_t gap = g < 20   ? 0
                         : g < 90 ? rng.range(1, period / 2 + 1)
                         : g < 99 ? rng.range(1, 3 * period)
                                  : rng.range(1, 40 * period);
    now += gap;
    if (gap == 0) ++r.same_cycle;
    const Stats before = ref.stats();
    std::string what;
    if (rng.chance(cnp_p)) {
      ref.cnp(now);
      lit.cnp(now);
      what = "cnp";
    } else if (rng.chance(0.55)) {
      ref.visit(now);
      lit.visit(now);
      what = "visit";
      if (ref.stats().timer_events - before.timer_events >= 2) ++r.late_visits;
    } else {
      const uint64_t b = rng.below(100);
      const uint64_t bmax = std::min<uint64_t>(8ULL * p.b_bytes, kU32Max);
      const uint64_t bytes = b < 5    ? 0
                             : b < 70 ? rng.range(1, 4096)
                             : b < 95 ? rng.range(1, std::min<uint64_t>(2ULL * p.b_bytes, kU32Max))
                                      : rng.range(std::min<uint64_t>(2ULL * p.b_bytes, bmax), bmax);
      ref.sent(static_cast<uint32_t>(bytes), now);
      lit.sent(static_cast<uint32_t>(bytes), now);
      what = "sent " + std::to_string(bytes);
      if (ref.stats().byte_events - before.byte_events >= 2) ++r.multi_sends;
    }
    const State s = ref.state();
    const State l = lit.state();
    std::ostringstream os;
    if (s != l) {
      os << "state differs";
    } else if (ref.stats() != lit.stats()) {
      os << "stats differ: ref " << to_string(ref.stats()) << " / literal " << to_string(lit.stats());
    } else if (!(p.rmin_ru <= s.rc && s.rc <= s.rt && s.rt <= p.c_ru)) {
      os << "not Rmin <= Rc <= Rt <= C";
    } else if (s.alpha > kAlphaOne || s.t_cnt > p.f_stages || s.b_cnt > p.f_stages || s.bytes >= p.b_bytes) {
      os << "alpha, a stage count or the byte count out of range";
    } else if (s.now != now) {
      os << "time not at the last event";
    } else if (what == "visit" && (s.t_due <= now || s.k_due <= now)) {
      os << "a due expiry left after a visit";
    }
    if (!os.str().empty()) {
      r.diverged_at = static_cast<int64_t>(i);
      r.problem = os.str() + " after event " + std::to_string(i) + " (" + what + " at " + std::to_string(now) +
                  ")\n  ref     " + to_string(s) + "\n  literal " + to_string(l);
      break;
    }
    r.min_alpha = std::min(r.min_alpha, s.alpha);
  }
  r.stats = ref.stats();
  return r;
}

std::string describe(const Params& p) {
  std::ostringstream os;
  os << "C=" << p.c_ru << " Rmin=" << p.rmin_ru << " R_AI=" << p.rai_ru << " R_HAI=" << p.rhai_ru
     << " K=" << p.k_cycles << " T=" << p.t_cycles << " B=" << p.b_bytes << " F=" << p.f_stages
     << " Rinit=" << p.rinit_ru;
  return os.str();
}

/// Default parameters with periods K and T and byte period B.
Params with_periods(uint32_t k, uint32_t t, uint32_t b = 10'000'000) {
  Params p;
  p.k_cycles = k;
  p.t_cycles = t;
  p.b_bytes = b;
  return p;
}

}  // namespace

// ---------------------------------------------------------------------------
// Units and parameters

TEST_CASE("dcqcn: rate units and the default parameters", "[dcqcn][smoke]") {
  CHECK(ru_from_bps_u64(100'000'000'000ULL) == 131'072'000u);
  CHECK(ru_from_bps(100e9) == 131'072'000u);
  CHECK(ru_from_bps_u64(10'000'000) == 13'107u);    // 13107.2
  CHECK(ru_from_bps_u64(40'000'000) == 52'429u);    // 52428.8
  CHECK(ru_from_bps_u64(200'000'000) == 262'144u);  // exact
  CHECK(ru_from_bps_u64(0) == 0u);
  CHECK(ru_from_bps(0.0) == 0u);
  CHECK(ru_from_bps(-5.0) == 0u);
  CHECK(ru_from_bps_u64(3'276'799'000'000ULL) == 4'294'965'985u);  // 4294965985.28
  CHECK(ru_from_bps_u64(3'276'800'000'000ULL) == kU32Max);        // 2^32: saturates
  CHECK(ru_from_bps_u64(std::numeric_limits<uint64_t>::max()) == kU32Max);
  CHECK(ru_from_bps(1e15) == kU32Max);
  CHECK(bps_from_ru(kC) == 100e9);
  CHECK(bps_from_ru(1) == Approx(762.939453125));
  // The double and integer forms agree on whole numbers over the range.
  tonic::Rng rng(12345);
  for (int i = 0; i < 200'000; ++i) {
    const uint64_t bps = rng.below(3'300'000'000'000ULL);
    INFO("bps " << bps);
    REQUIRE(ru_from_bps(static_cast<double>(bps)) == ru_from_bps_u64(bps));
  }
  const Params p;
  CHECK(p.c_ru == 131'072'000u);
  CHECK(p.rmin_ru == 13'107u);
  CHECK(p.rai_ru == 52'429u);
  CHECK(p.rhai_ru == 262'144u);
  CHECK(p.k_cycles == 5500u);
  CHECK(p.t_cycles == 5500u);
  CHECK(p.b_bytes == 10'000'000u);
  CHECK(p.f_stages == 5u);
  CHECK(p.r_init() == kC);
  CHECK(p.check().empty());
  const Rp rp;
  CHECK(rp.rc() == kC);
  CHECK(rp.rt() == kC);
  CHECK(rp.alpha() == 1024u);
  CHECK(rp.t_cnt() == 0u);
  CHECK(rp.b_cnt() == 0u);
  CHECK(rp.state().t_due == 5500u);
  CHECK(rp.state().k_due == 5500u);
}

// ---------------------------------------------------------------------------
// Directed

TEST_CASE("dcqcn: the first CNP from line rate halves Rc", "[dcqcn][smoke]") {
  Rp rp;
  rp.cnp(1000);
  CHECK(rp.rc() == 65'536'000u);
  CHECK(rp.rt() == kC);
  CHECK(rp.alpha() == 1024u);  // 1024 - 4 + 4
  const State s = rp.state();
  CHECK(s.t_due == 6500u);
  CHECK(s.k_due == 6500u);
  CHECK(s.t_cnt == 0u);
  CHECK(s.b_cnt == 0u);
  CHECK(rp.stats().cnps == 1u);
  CHECK(rp.stats().cuts_at_rmin == 0u);
  rp.cnp(1000);  // a second CNP in the same cycle
  CHECK(rp.rc() == 32'768'000u);
  CHECK(rp.rt() == 65'536'000u);
  CHECK(rp.alpha() == 1024u);
  CHECK(rp.stats().cnps == 2u);
}

TEST_CASE("dcqcn: alpha decays by alpha - (alpha >> 8) per K on the start + n*K schedule", "[dcqcn][smoke]") {
  Rp rp(with_periods(5500, 1'000'000'000));
  rp.visit(5499);
  CHECK(rp.alpha() == 1024u);
  rp.visit(5500);
  CHECK(rp.alpha() == 1020u);
  rp.visit(11'000);
  CHECK(rp.alpha() == 1017u);
  rp.visit(5 * 5500 + 100);  // late: three expiries at once
  CHECK(rp.alpha() == 1008u);  // 1014, 1011, 1008
  CHECK(rp.state().k_due == 6u * 5500);
  rp.visit(10 * 5500);
  CHECK(rp.alpha() == 993u);
  rp.visit(100 * 5500);
  CHECK(rp.alpha() == 737u);
  rp.visit(468 * 5500);
  CHECK(rp.alpha() == 256u);
  rp.visit(469 * 5500);
  CHECK(rp.alpha() == 255u);  // 255 >> 8 = 0: the floor
  rp.visit(1'000'000ULL * 5500);
  CHECK(rp.alpha() == 255u);
  CHECK(rp.stats().alpha_decays == 1'000'000u);
  CHECK(rp.state().k_due == 1'000'001ULL * 5500);

  // The cut uses alpha before the CNP's update: 10 decays give 993.
  Rp a(with_periods(5500, 1'000'000'000));
  a.visit(10 * 5500);
  REQUIRE(a.alpha() == 993u);
  a.cnp(10 * 5500);
  CHECK(a.rc() == 67'520'000u);  // 131072000 - (131072000 * 993 >> 11)
  CHECK(a.rt() == kC);
  CHECK(a.alpha() == 994u);  // 993 - 3 + 4
  CHECK(a.state().k_due == 11u * 5500);
}

TEST_CASE("dcqcn: fast recovery halves the gap, then additive, then hyper increase", "[dcqcn][smoke]") {
  Rp rp;
  rp.cnp(0);
  rp.cnp(0);
  REQUIRE(rp.rc() == 32'768'000u);
  REQUIRE(rp.rt() == 65'536'000u);
  // Counts after the increment: T_cnt = 1..4 is fast recovery, 5 is not.
  const uint32_t fast[] = {49'152'000, 57'344'000, 61'440'000, 63'488'000};
  for (uint32_t i = 0; i < 4; ++i) {
    rp.visit(5500ULL * (i + 1));
    INFO("timer event " << i + 1);
    CHECK(rp.t_cnt() == i + 1);
    CHECK(rp.rc() == fast[i]);
    CHECK(rp.rt() == 65'536'000u);
  }
  rp.visit(5 * 5500);
  CHECK(rp.t_cnt() == 5u);
  CHECK(rp.rt() == 65'588'429u);  // + R_AI
  CHECK(rp.rc() == 64'538'214u);
  rp.visit(6 * 5500);
  CHECK(rp.t_cnt() == 5u);  // saturated
  CHECK(rp.rt() == 65'640'858u);
  CHECK(rp.rc() == 65'089'536u);
  CHECK(rp.stats().fast == 4u);
  CHECK(rp.stats().additive == 2u);
  CHECK(rp.stats().timer_events == 6u);

  // Byte events with T_cnt = 5: additive until B_cnt reaches 5, then hyper.
  Rp copy = rp;
  const uint32_t rt[] = {65'693'287, 65'745'716, 65'798'145, 65'850'574, 66'112'718, 66'374'862};
  const uint32_t rc[] = {65'391'411, 65'568'563, 65'683'354, 65'766'964, 65'939'841, 66'157'351};
  for (uint32_t i = 0; i < 6; ++i) {
    rp.sent(10'000'000, 6 * 5500);
    INFO("byte event " << i + 1);
    CHECK(rp.b_cnt() == std::min(i + 1, 5u));
    CHECK(rp.rt() == rt[i]);
    CHECK(rp.rc() == rc[i]);
  }
  CHECK(rp.stats().additive == 6u);
  CHECK(rp.stats().hyper == 2u);
  CHECK(rp.stats().byte_events == 6u);
  // One call crossing six boundaries gives the same.
  copy.sent(60'000'000, 6 * 5500);
  CHECK(copy.state() == rp.state());
  CHECK(copy.stats() == rp.stats());
}

TEST_CASE("dcqcn: Rc is held at Rmin by the cut and Rt at C by the increase", "[dcqcn][smoke]") {
  Rp rp;
  for (int i = 0; i < 13; ++i) rp.cnp(0);
  CHECK(rp.rc() == 16'000u);  // C / 2^13
  CHECK(rp.stats().cuts_at_rmin == 0u);
  rp.cnp(0);
  CHECK(rp.rc() == 13'107u);  // 8000 raised to Rmin
  CHECK(rp.rt() == 16'000u);
  rp.cnp(0);
  CHECK(rp.rc() == 13'107u);
  CHECK(rp.rt() == 13'107u);
  CHECK(rp.stats().cuts_at_rmin == 2u);

  Params at_c;
  at_c.rmin_ru = kC;  // every cut lands on Rmin = C
  Rp flat(at_c);
  flat.cnp(7);
  CHECK(flat.rc() == kC);
  CHECK(flat.stats().cuts_at_rmin == 1u);

  Rp up;
  up.cnp(0);
  for (uint64_t n = 1; n <= 5; ++n) up.visit(5500 * n);
  CHECK(up.rt() == kC);           // C + R_AI clamped
  CHECK(up.rc() == 129'024'000u);  // (C + 126976000) >> 1
  CHECK(up.stats().rt_at_c == 1u);
  CHECK(up.stats().additive == 1u);
}

TEST_CASE("dcqcn: a CNP resets the stage counts, the byte count and both timers", "[dcqcn][smoke]") {
  Rp rp(with_periods(5500, 5500, 1000));
  rp.cnp(0);
  rp.visit(3 * 5500);
  rp.sent(2500, 3 * 5500);
  REQUIRE(rp.t_cnt() == 3u);
  REQUIRE(rp.b_cnt() == 2u);
  REQUIRE(rp.bytes() == 500u);
  const uint32_t rc_before = rp.rc();
  rp.cnp(4 * 5500 + 10);  // the expiries due at 22000 were not visited
  CHECK(rp.t_cnt() == 0u);
  CHECK(rp.b_cnt() == 0u);
  CHECK(rp.bytes() == 0u);
  CHECK(rp.rt() == rc_before);
  CHECK(rp.state().t_due == 27'510u);
  CHECK(rp.state().k_due == 27'510u);
  CHECK(rp.stats().dropped_timer == 1u);
  CHECK(rp.stats().dropped_alpha == 1u);
  rp.sent(999, 22'010);
  CHECK(rp.b_cnt() == 0u);
  rp.visit(27'509);
  CHECK(rp.t_cnt() == 0u);
  rp.visit(27'510);
  CHECK(rp.t_cnt() == 1u);

  // Same cycle: visit then CNP processes the expiry due then; CNP then visit drops it.
  Rp a, b;
  for (Rp* r : {&a, &b}) {
    r->cnp(0);
    r->visit(3 * 5500);
    REQUIRE(r->rc() == 122'880'000u);
    REQUIRE(r->alpha() == 1014u);
  }
  a.visit(22'000);
  a.cnp(22'000);
  b.cnp(22'000);
  b.visit(22'000);
  CHECK(a.rt() == 126'976'000u);
  CHECK(a.rc() == 64'294'000u);
  CHECK(a.alpha() == 1012u);
  CHECK(b.rt() == 122'880'000u);
  CHECK(b.rc() == 62'040'000u);
  CHECK(b.alpha() == 1015u);
  CHECK(a.stats().dropped_timer == 0u);
  CHECK(b.stats().dropped_timer == 1u);
  CHECK(b.stats().dropped_alpha == 1u);
}

TEST_CASE("dcqcn: sent gives one byte event per multiple of B, in order", "[dcqcn][smoke]") {
  Rp rp(with_periods(1'000'000'000, 1'000'000'000, 1000));
  rp.cnp(0);
  rp.sent(999, 1);
  CHECK(rp.b_cnt() == 0u);
  CHECK(rp.bytes() == 999u);
  CHECK(rp.rc() == 65'536'000u);
  rp.sent(1, 2);
  CHECK(rp.b_cnt() == 1u);
  CHECK(rp.bytes() == 0u);
  CHECK(rp.rc() == 98'304'000u);
  rp.sent(0, 3);
  CHECK(rp.stats().byte_events == 1u);
  rp.sent(3005, 4);
  CHECK(rp.b_cnt() == 4u);
  CHECK(rp.bytes() == 5u);
  CHECK(rp.rc() == 126'976'000u);
  rp.sent(1995, 5);
  CHECK(rp.b_cnt() == 5u);
  CHECK(rp.bytes() == 0u);
  CHECK(rp.rc() == 130'048'000u);  // two additive steps, Rt held at C
  CHECK(rp.rt() == kC);
  CHECK(rp.stats().fast == 4u);
  CHECK(rp.stats().additive == 2u);
  CHECK(rp.stats().byte_events == 6u);

  // 2^32 - 1 events in one call (B = 1) ends at the fixed point Rc = C - 1.
  Params one = with_periods(1'000'000'000, 1'000'000'000, 1);
  Rp big(one);
  big.cnp(0);
  big.sent(kU32Max, 1);
  CHECK(big.stats().byte_events == kU32Max);
  CHECK(big.stats().fast == 4u);
  CHECK(big.stats().additive == kU32Max - 4u);
  CHECK(big.rt() == kC);
  CHECK(big.rc() == kC - 1);
  CHECK(big.bytes() == 0u);
}

TEST_CASE("dcqcn: a late visit processes every expiry due, in order, without drift", "[dcqcn][smoke]") {
  const Params p = with_periods(70, 100, 1000);
  Rp late(p), timely(p);
  late.cnp(3);
  timely.cnp(3);
  for (uint64_t t = 3; t <= 1003; ++t) timely.visit(t);
  late.visit(1003);
  CHECK(late.state() == timely.state());
  CHECK(late.stats() == timely.stats());
  CHECK(late.stats().timer_events == 10u);
  CHECK(late.stats().alpha_decays == 14u);
  CHECK(late.state().t_due == 1103u);
  CHECK(late.state().k_due == 1053u);
  const State s = late.state();
  late.visit(1003);  // nothing more is due
  CHECK(late.state() == s);

  // Equal periods: both timers fire in the same cycles.
  Rp tie(with_periods(100, 100));
  tie.cnp(0);
  tie.visit(1050);
  CHECK(tie.stats().timer_events == 10u);
  CHECK(tie.stats().alpha_decays == 10u);
  CHECK(tie.state().t_due == 1100u);
  CHECK(tie.state().k_due == 1100u);
}

TEST_CASE("dcqcn: a long idle period settles at Rt = C, Rc = C - 1, alpha = 255", "[dcqcn][smoke]") {
  Rp rp(with_periods(1, 1));
  rp.cnp(0);
  rp.visit(1'000'000'000);
  CHECK(rp.stats().timer_events == 1'000'000'000u);
  CHECK(rp.stats().alpha_decays == 1'000'000'000u);
  CHECK(rp.stats().fast == 4u);
  CHECK(rp.stats().additive == 1'000'000'000u - 4u);
  CHECK(rp.stats().rt_at_c == 1'000'000'000u - 4u);
  CHECK(rp.rt() == kC);
  CHECK(rp.rc() == kC - 1);  // (C + C - 1) >> 1 = C - 1
  CHECK(rp.alpha() == 255u);
  CHECK(rp.t_cnt() == 5u);
  CHECK(rp.state().t_due == 1'000'000'001u);
  CHECK(rp.state().k_due == 1'000'000'001u);
}

TEST_CASE("dcqcn: time going back and bad parameters are rejected", "[dcqcn][badinput]") {
  Rp rp(Params{}, 100);
  CHECK_THROWS_AS(rp.cnp(99), std::logic_error);
  rp.visit(200);
  const State s = rp.state();
  CHECK_THROWS_AS(rp.sent(10, 199), std::logic_error);
  CHECK_THROWS_AS(rp.visit(0), std::logic_error);
  CHECK(rp.state() == s);  // unchanged
  auto bad = [](auto change) {
    Params p;
    change(p);
    CHECK_FALSE(p.check().empty());
    CHECK_THROWS_AS(Rp(p), std::invalid_argument);
  };
  bad([](Params& p) { p.c_ru = 0; });
  bad([](Params& p) { p.rmin_ru = kC + 1; });
  bad([](Params& p) { p.k_cycles = 0; });
  bad([](Params& p) { p.t_cycles = 0; });
  bad([](Params& p) { p.b_bytes = 0; });
  bad([](Params& p) { p.f_stages = 0; });
  bad([](Params& p) { p.rinit_ru = kC + 1; });
  bad([](Params& p) { p.rinit_ru = 5; });  // below Rmin
}

// ---------------------------------------------------------------------------
// Random: cross-check against the literal model

TEST_CASE("dcqcn: random schedules match a per-cycle literal model after every event", "[dcqcn][stress]") {
  TONIC_SEED(0x5eedd001);
  Stats total;
  Run sum;
  for (uint64_t k = 0; k < 10; ++k) {
    tonic::Rng prng(tonic_seed_ + k);
    const Params p = random_params(prng);
    INFO("seed " << tonic_seed_ + k << " params " << describe(p));
    const Run r = cross_check(p, tonic_seed_ + k, 100'000, Mutation::kNone);
    INFO(r.problem);
    REQUIRE(r.diverged_at == -1);
    total.cnps += r.stats.cnps;
    total.cuts_at_rmin += r.stats.cuts_at_rmin;
    total.fast += r.stats.fast;
    total.additive += r.stats.additive;
    total.hyper += r.stats.hyper;
    total.rt_at_c += r.stats.rt_at_c;
    total.byte_events += r.stats.byte_events;
    total.dropped_timer += r.stats.dropped_timer;
    total.dropped_alpha += r.stats.dropped_alpha;
    sum.late_visits += r.late_visits;
    sum.multi_sends += r.multi_sends;
    sum.same_cycle += r.same_cycle;
    sum.min_alpha = std::min(sum.min_alpha, r.min_alpha);
  }
  // The schedules reach every rule.
  INFO(to_string(total) << " late_visits=" << sum.late_visits << " multi_sends=" << sum.multi_sends
                        << " same_cycle=" << sum.same_cycle << " min_alpha=" << sum.min_alpha);
  CHECK(total.cnps > 0);
  CHECK(total.cuts_at_rmin > 0);
  CHECK(total.fast > 0);
  CHECK(total.additive > 0);
  CHECK(total.hyper > 0);
  CHECK(total.rt_at_c > 0);
  CHECK(total.byte_events > 0);
  CHECK(total.dropped_timer > 0);
  CHECK(total.dropped_alpha > 0);
  CHECK(sum.late_visits > 0);
  CHECK(sum.multi_sends > 0);
  CHECK(sum.same_cycle > 0);
  CHECK(sum.min_alpha == 255u);
}

TEST_CASE("dcqcn: random schedules with the default parameters match the literal model", "[dcqcn][stress]") {
  TONIC_SEED(0x5eedd002);
  uint64_t hyper = 0, additive = 0;
  for (uint64_t k = 0; k < 3; ++k) {
    INFO("seed " << tonic_seed_ + k);
    const Run r = cross_check(Params{}, tonic_seed_ + k, 100'000, Mutation::kNone);
    INFO(r.problem);
    REQUIRE(r.diverged_at == -1);
    hyper += r.stats.hyper;
    additive += r.stats.additive;
  }
  CHECK(additive > 0);
  CHECK(hyper > 0);
}

TEST_CASE("dcqcn: the cross-check catches each deliberate mutation of the literal model", "[dcqcn][smoke]") {
  Params p;  // C = 2^32 - 1 so 32-bit sums overflow; short periods
  p.c_ru = kU32Max;
  p.rmin_ru = 1'000'000;
  p.rai_ru = 10'000'000;
  p.rhai_ru = 50'000'000;
  p.k_cycles = 55;
  p.t_cycles = 40;
  p.b_bytes = 3000;
  p.f_stages = 3;
  const Run clean = cross_check(p, 77, 20'000, Mutation::kNone);
  INFO(clean.problem);
  REQUIRE(clean.diverged_at == -1);
  for (Mutation m : {Mutation::kAlphaDecayBy128, Mutation::kCutByAlpha, Mutation::kCnpKeepsBytes,
                     Mutation::kCnpVisitsFirst, Mutation::kStepBeforeIncrement, Mutation::kHyperOnEither,
                     Mutation::kSum32, Mutation::kVisitRestartsTimer}) {
    const Run r = cross_check(p, 77, 20'000, m);
    INFO("mutation " << name(m));
    CHECK(r.diverged_at >= 0);
    WARN("mutation '" << name(m) << "' caught at event " << r.diverged_at);
  }
}
