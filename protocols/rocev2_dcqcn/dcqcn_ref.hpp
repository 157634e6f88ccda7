// SPDX-License-Identifier: Apache-2.0
// Reference model of the DCQCN reaction point (RP, the sender side of RoCEv2
// congestion control), with exact integer semantics. The RTL module
// protocols/rocev2_dcqcn/ is checked against it value for value. Plain C++,
// no Verilator. Rules, units and defaults: docs/design/dcqcn.md.
//
// Units
//   time   cycles of the 100 MHz clock (10 ns), a uint64_t that never wraps.
//   rate   RU = bytes per 2^20 cycles (uint32_t); 100 Gb/s = 131,072,000 RU,
//          1 RU = 762.939... b/s.
//   alpha  Q10 (1024 = 1.0), uint32_t; g = 1/256 is applied as a shift by 8.
//
// Events (one call each; this is what the RTL sees)
//   cnp(now)          a congestion notification packet arrived.
//   sent(bytes, now)  `bytes` were transmitted.
//   visit(now)        a periodic visit: processes the timer expiries that
//                     are due at or before `now`.
// `now` never decreases from one call to the next (a call with a smaller
// `now` throws std::logic_error); several calls may share a cycle.
//
// Order of processing
//   1. Calls are applied in call order, also when they share a cycle.
//   2. Timer expiries are processed only by visit(). Each timer has a start
//      time s (construction or the last CNP) and a period P; its expiries
//      are due at s + n * P, n = 1, 2, ... A late visit does not move this
//      schedule. visit(now) processes every expiry due at or before `now`
//      in due-time order; the alpha timer goes first when both are due in
//      the same cycle (the two timers touch disjoint state, so the order
//      between them does not change the result).
//   3. cnp(now) restarts both timers at `now`: an expiry that was due at or
//      before `now` and not yet visited is discarded (counted in
//      Stats::dropped_*). In particular visit(t) then cnp(t) processes the
//      expiries due at t, while cnp(t) then visit(t) discards them.
//   4. sent() processes its byte-counter events at once, one per multiple of
//      B bytes crossed, in order; it never processes a timer expiry.
//   5. Within cnp(): the rate cut uses alpha before the CNP's alpha update.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

namespace tonic::ref::dcqcn {

// ---------------------------------------------------------------------------
// Units

/// Clock frequency: one cycle is 10 ns.
inline constexpr uint64_t kClockHz = 100'000'000;
/// A rate in RU is bytes per 2^kRateShift cycles.
inline constexpr unsigned kRateShift = 20;
/// alpha = 1.0 in Q10.
inline constexpr uint32_t kAlphaOne = 1024;
/// g = 2^-kGShift (1/256).
inline constexpr unsigned kGShift = 8;
/// g in Q10 (4): what a CNP adds to alpha.
inline constexpr uint32_t kAlphaG = kAlphaOne >> kGShift;
/// The rate cut multiplies Rc by alpha / 2: alpha in Q10, so a shift by 11.
inline constexpr unsigned kCutShift = 11;

/// round(bits_per_s / 8 / kClockHz * 2^20), in integers (half rounds up);
/// saturates at UINT32_MAX (about 3.28 Tb/s).
constexpr uint32_t ru_from_bps_u64(uint64_t bits_per_s) {
  constexpr uint64_t kDen = 8 * kClockHz;          // bits per s -> bytes per cycle
  constexpr uint64_t kSatBps = 4'000'000'000'000;  // above UINT32_MAX RU; (kSatBps << 20) fits 64 bits
  if (bits_per_s >= kSatBps) return std::numeric_limits<uint32_t>::max();
  const uint64_t ru = ((bits_per_s << kRateShift) + kDen / 2) / kDen;
  return ru > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                   : static_cast<uint32_t>(ru);
}

/// round(bits_per_s / 8 / 100e6 * 2^20); 0 for negative or NaN input,
/// UINT32_MAX above the range. Equals ru_from_bps_u64 on whole numbers.
inline uint32_t ru_from_bps(double bits_per_s) {
  if (!(bits_per_s > 0)) return 0;
  const double ru = std::round(bits_per_s / 8.0 / static_cast<double>(kClockHz) *
                               static_cast<double>(uint64_t{1} << kRateShift));
  if (ru >= static_cast<double>(std::numeric_limits<uint32_t>::max())) return std::numeric_limits<uint32_t>::max();
  return static_cast<uint32_t>(ru);
}

/// Bits per second of a rate in RU (exact up to double rounding).
inline double bps_from_ru(uint32_t ru) {
  return static_cast<double>(ru) * 8.0 * static_cast<double>(kClockHz) /
         static_cast<double>(uint64_t{1} << kRateShift);
}

/// Line rate C: 100 Gb/s = 125 bytes per cycle.
inline constexpr uint32_t kLineRateRu = 131'072'000;
static_assert(ru_from_bps_u64(100'000'000'000ULL) == kLineRateRu, "100 Gb/s in RU");

// ---------------------------------------------------------------------------
// Parameters

/// RP parameters; every field may be overridden (check() lists the rules).
struct Params {
  uint32_t c_ru = kLineRateRu;                      ///< C: line rate, the ceiling of Rc and Rt (RU)
  uint32_t rmin_ru = ru_from_bps_u64(10'000'000);   ///< Rmin: floor of the cut (RU; 10 Mb/s = 13107)
  uint32_t rai_ru = ru_from_bps_u64(40'000'000);    ///< R_AI: additive step of Rt (RU; 40 Mb/s = 52429)
  uint32_t rhai_ru = ru_from_bps_u64(200'000'000);  ///< R_HAI: hyper step of Rt (RU; 200 Mb/s = 262144)
  uint32_t k_cycles = 5500;                         ///< K: alpha-timer period (cycles; 55 us)
  uint32_t t_cycles = 5500;                         ///< T: rate-increase timer period (cycles; 55 us)
  uint32_t b_bytes = 10'000'000;                    ///< B: byte-counter period (bytes; 10 MB)
  uint32_t f_stages = 5;                            ///< F: stage count that ends fast recovery
  uint32_t rinit_ru = 0;                            ///< initial Rc = Rt (RU); 0 means C

  /// The initial Rc and Rt.
  uint32_t r_init() const { return rinit_ru == 0 ? c_ru : rinit_ru; }

  /// Empty when the parameters are usable, else what is wrong: C >= 1,
  /// Rmin <= C, K, T, B, F >= 1, Rmin <= initial rate <= C.
  std::string check() const {
    std::ostringstream os;
    if (c_ru == 0) os << "C must be >= 1; ";
    if (rmin_ru > c_ru) os << "Rmin must be <= C; ";
    if (k_cycles == 0) os << "K must be >= 1; ";
    if (t_cycles == 0) os << "T must be >= 1; ";
    if (b_bytes == 0) os << "B must be >= 1; ";
    if (f_stages == 0) os << "F must be >= 1; ";
    if (r_init() < rmin_ru || r_init() > c_ru) os << "initial rate must be in [Rmin, C]; ";
    return os.str();
  }
};

// ---------------------------------------------------------------------------
// State and statistics

/// A snapshot of everything that decides the RP's future: the RTL's per-flow
/// state, value for value.
struct State {
  uint32_t rc = 0;     ///< current rate Rc (RU)
  uint32_t rt = 0;     ///< target rate Rt (RU)
  uint32_t alpha = 0;  ///< alpha (Q10)
  uint32_t t_cnt = 0;  ///< timer stage count, 0..F
  uint32_t b_cnt = 0;  ///< byte stage count, 0..F
  uint32_t bytes = 0;  ///< bytes sent since the last byte event or CNP, 0..B-1
  uint64_t t_due = 0;  ///< due cycle of the next unprocessed rate-timer expiry
  uint64_t k_due = 0;  ///< due cycle of the next unprocessed alpha-timer expiry
  uint64_t now = 0;    ///< cycle of the last call (or of construction)

  /// The fields in declaration order.
  auto tie() const { return std::tie(rc, rt, alpha, t_cnt, b_cnt, bytes, t_due, k_due, now); }
  bool operator==(const State& o) const { return tie() == o.tie(); }
  bool operator!=(const State& o) const { return !(*this == o); }
};

/// "rc=... rt=..." for failure messages.
inline std::string to_string(const State& s) {
  std::ostringstream os;
  os << "rc=" << s.rc << " rt=" << s.rt << " alpha=" << s.alpha << " t_cnt=" << s.t_cnt
     << " b_cnt=" << s.b_cnt << " bytes=" << s.bytes << " t_due=" << s.t_due << " k_due=" << s.k_due
     << " now=" << s.now;
  return os.str();
}

/// What happened since construction (for tests and reports).
struct Stats {
  uint64_t cnps = 0;           ///< CNPs, i.e. rate cuts
  uint64_t cuts_at_rmin = 0;   ///< cuts whose result was raised to Rmin
  uint64_t fast = 0;           ///< fast-recovery steps
  uint64_t additive = 0;       ///< additive-increase steps
  uint64_t hyper = 0;          ///< hyper-increase steps
  uint64_t rt_at_c = 0;        ///< additive or hyper steps where Rt + step exceeded C (Rt set to C)
  uint64_t timer_events = 0;   ///< rate-timer expiries processed (each one increase step)
  uint64_t byte_events = 0;    ///< byte-counter events (each one increase step)
  uint64_t alpha_decays = 0;   ///< alpha-timer expiries processed
  uint64_t dropped_timer = 0;  ///< rate-timer expiries due but not visited when a CNP came
  uint64_t dropped_alpha = 0;  ///< alpha-timer expiries due but not visited when a CNP came

  /// The fields in declaration order.
  auto tie() const {
    return std::tie(cnps, cuts_at_rmin, fast, additive, hyper, rt_at_c, timer_events, byte_events,
                    alpha_decays, dropped_timer, dropped_alpha);
  }
  bool operator==(const Stats& o) const { return tie() == o.tie(); }
  bool operator!=(const Stats& o) const { return !(*this == o); }
};

/// "cnps=... fast=..." for failure messages and reports.
inline std::string to_string(const Stats& s) {
  std::ostringstream os;
  os << "cnps=" << s.cnps << " cuts_at_rmin=" << s.cuts_at_rmin << " fast=" << s.fast
     << " additive=" << s.additive << " hyper=" << s.hyper << " rt_at_c=" << s.rt_at_c
     << " timer_events=" << s.timer_events << " byte_events=" << s.byte_events
     << " alpha_decays=" << s.alpha_decays << " dropped_timer=" << s.dropped_timer
     << " dropped_alpha=" << s.dropped_alpha;
  return os.str();
}

// ---------------------------------------------------------------------------
// The reaction point

/// One flow's DCQCN reaction point. Rules (all integer, sums in 64 bits):
///   CNP:          Rt = Rc; Rc = max(Rc - (Rc * alpha >> 11), Rmin);
///                 alpha = min(alpha - (alpha >> 8) + 4, 1024);
///                 T_cnt = B_cnt = 0; bytes = 0; both timers restart at now.
///   alpha timer:  alpha = alpha - (alpha >> 8) (stops at 255: 255 >> 8 = 0).
///   rate timer:   T_cnt = min(T_cnt + 1, F), then one increase step.
///   B bytes:      B_cnt = min(B_cnt + 1, F), then one increase step.
///   increase step (counts after the increment):
///     max(T_cnt, B_cnt) < F   fast recovery  Rc = (Rt + Rc) >> 1
///     min(T_cnt, B_cnt) >= F  hyper          Rt = min(Rt + R_HAI, C); Rc = (Rt + Rc) >> 1
///     otherwise               additive       Rt = min(Rt + R_AI, C);  Rc = (Rt + Rc) >> 1
/// Invariant: Rmin <= Rc <= Rt <= C (the cut keeps Rc <= old Rc = new Rt;
/// an average of Rc and Rt lies between them), so no step needs a clamp on
/// Rc. Fast recovery rounds down: the gap Rt - Rc goes to ceil(gap / 2) and
/// stays at 1 once it is 1.
class Rp {
 public:
  /// An RP at rate Rc = Rt = params.r_init(), alpha = 1.0, counters 0,
  /// both timers started at cycle `start`. Throws std::invalid_argument
  /// when params.check() is not empty.
  explicit Rp(const Params& params = Params{}, uint64_t start = 0) : p_(params) {
    if (const std::string err = p_.check(); !err.empty()) throw std::invalid_argument("dcqcn::Params: " + err);
    rc_ = rt_ = p_.r_init();
    now_ = start;
    t_due_ = start + p_.t_cycles;
    k_due_ = start + p_.k_cycles;
  }

  /// A CNP at cycle `now`: discard the expiries due and not visited, cut the
  /// rate with the current alpha, update alpha, reset the stage counters and
  /// the byte count, restart both timers at `now`.
  void cnp(uint64_t now) {
    advance(now);
    stats_.dropped_timer += due_count(t_due_, p_.t_cycles, now);
    stats_.dropped_alpha += due_count(k_due_, p_.k_cycles, now);
    rt_ = rc_;
    const uint32_t cut = static_cast<uint32_t>((uint64_t{rc_} * alpha_) >> kCutShift);  // <= Rc / 2
    const uint32_t rc = rc_ - cut;
    if (rc < p_.rmin_ru) ++stats_.cuts_at_rmin;
    rc_ = std::max(rc, p_.rmin_ru);
    ++stats_.cnps;
    alpha_ = std::min(alpha_ - (alpha_ >> kGShift) + kAlphaG, kAlphaOne);
    t_cnt_ = b_cnt_ = 0;
    bytes_ = 0;
    t_due_ = now + p_.t_cycles;
    k_due_ = now + p_.k_cycles;
  }

  /// `bytes` transmitted at cycle `now`: one byte event, in order, for each
  /// multiple of B that the byte count reaches.
  void sent(uint32_t bytes, uint64_t now) {
    advance(now);
    const uint64_t total = uint64_t{bytes_} + bytes;
    uint64_t events = total / p_.b_bytes;
    bytes_ = static_cast<uint32_t>(total % p_.b_bytes);
    for (; events > 0; --events) {
      if (!increase_event(false)) {  // a fixed point: the rest repeat this step
        repeat_last(events - 1, false);
        break;
      }
    }
  }

  /// A periodic visit at cycle `now`: every expiry of the two timers due at
  /// or before `now`, in due-time order, the alpha timer first on a tie.
  void visit(uint64_t now) {
    advance(now);
    for (;;) {
      const bool k = k_due_ <= now;
      const bool t = t_due_ <= now;
      if (!k && !t) break;
      if (k && (!t || k_due_ <= t_due_)) {
        const uint32_t old = alpha_;
        alpha_ -= alpha_ >> kGShift;
        ++stats_.alpha_decays;
        k_due_ += p_.k_cycles;
        if (alpha_ == old) {  // a fixed point: the rest of the expiries change nothing
          const uint64_t n = due_count(k_due_, p_.k_cycles, now);
          stats_.alpha_decays += n;
          k_due_ += n * p_.k_cycles;
        }
      } else {
        const bool changed = increase_event(true);
        t_due_ += p_.t_cycles;
        if (!changed) {  // a fixed point: the rest repeat this step
          const uint64_t n = due_count(t_due_, p_.t_cycles, now);
          repeat_last(n, true);
          t_due_ += n * p_.t_cycles;
        }
      }
    }
  }

  /// A periodic visit and `bytes` acked at cycle `now` in one cycle, as
  /// the engine merges them (user_merge of user_configs.vh): both from the
  /// state before; the timers (alpha, T_cnt, due times) are the visit's,
  /// the byte counter (bytes, B_cnt) the ack's, Rc / Rt the ack's if its
  /// byte event changed Rc, else the visit's. When a byte event and a
  /// rate-timer expiry meet, the byte event's increase step is the one
  /// applied. (A CNP and a visit in one cycle is cnp(): the CNP wins.)
  void visit_and_sent(uint32_t bytes, uint64_t now) {
    const Rp before = *this;
    Rp a = before;
    a.sent(bytes, now);
    visit(now);
    bytes_ = a.bytes_;
    b_cnt_ = a.b_cnt_;
    if (a.rc_ != before.rc_) {
      rc_ = a.rc_;
      rt_ = a.rt_;
    }
    // The visit's statistics plus the ack's steps.
    stats_.byte_events += a.stats_.byte_events - before.stats_.byte_events;
    stats_.fast += a.stats_.fast - before.stats_.fast;
    stats_.additive += a.stats_.additive - before.stats_.additive;
    stats_.hyper += a.stats_.hyper - before.stats_.hyper;
    stats_.rt_at_c += a.stats_.rt_at_c - before.stats_.rt_at_c;
  }

  uint32_t rc() const { return rc_; }        ///< current rate Rc (RU)
  uint32_t rt() const { return rt_; }        ///< target rate Rt (RU)
  uint32_t alpha() const { return alpha_; }  ///< alpha (Q10)
  uint32_t t_cnt() const { return t_cnt_; }  ///< timer stage count
  uint32_t b_cnt() const { return b_cnt_; }  ///< byte stage count
  uint32_t bytes() const { return bytes_; }  ///< bytes toward the next byte event
  uint64_t now() const { return now_; }      ///< cycle of the last call
  const Params& params() const { return p_; }
  const Stats& stats() const { return stats_; }

  /// Snapshot of the state.
  State state() const { return State{rc_, rt_, alpha_, t_cnt_, b_cnt_, bytes_, t_due_, k_due_, now_}; }

 private:
  /// Kind of the last increase step (for repeat_last).
  enum class Step { kFast, kAdditive, kHyper };

  /// Moves time to `now`; throws if it would go back.
  void advance(uint64_t now) {
    if (now < now_) {
      std::ostringstream os;
      os << "dcqcn::Rp: time went back from cycle " << now_ << " to " << now;
      throw std::logic_error(os.str());
    }
    now_ = now;
  }

  /// Number of expiries of a timer with next due cycle `due` and period
  /// `period` that are due at or before `now`.
  static uint64_t due_count(uint64_t due, uint32_t period, uint64_t now) {
    return due > now ? 0 : (now - due) / period + 1;
  }

  /// One rate-increase event from the rate timer (`timer`) or the byte
  /// counter: counter increment, then one increase step. Returns false when
  /// it changed neither Rc, Rt nor the counter (then every further event of
  /// the same source does the same).
  bool increase_event(bool timer) {
    uint32_t& cnt = timer ? t_cnt_ : b_cnt_;
    ++(timer ? stats_.timer_events : stats_.byte_events);
    const uint32_t cnt0 = cnt, rc0 = rc_, rt0 = rt_;
    if (cnt < p_.f_stages) ++cnt;
    const uint32_t hi = std::max(t_cnt_, b_cnt_);
    const uint32_t lo = std::min(t_cnt_, b_cnt_);
    last_clamped_ = false;
    if (hi < p_.f_stages) {
      last_ = Step::kFast;
      ++stats_.fast;
    } else {
      const bool hyper = lo >= p_.f_stages;
      last_ = hyper ? Step::kHyper : Step::kAdditive;
      ++(hyper ? stats_.hyper : stats_.additive);
      const uint64_t rt = uint64_t{rt_} + (hyper ? p_.rhai_ru : p_.rai_ru);
      last_clamped_ = rt > p_.c_ru;
      if (last_clamped_) ++stats_.rt_at_c;
      rt_ = last_clamped_ ? p_.c_ru : static_cast<uint32_t>(rt);
    }
    rc_ = static_cast<uint32_t>((uint64_t{rt_} + rc_) >> 1);
    return cnt != cnt0 || rc_ != rc0 || rt_ != rt0;
  }

  /// Counts `n` more events of the given source identical to the last one
  /// (used once the state stopped changing).
  void repeat_last(uint64_t n, bool timer) {
    (timer ? stats_.timer_events : stats_.byte_events) += n;
    (last_ == Step::kFast ? stats_.fast : last_ == Step::kAdditive ? stats_.additive : stats_.hyper) += n;
    if (last_clamped_) stats_.rt_at_c += n;
  }

  Params p_;
  uint32_t rc_ = 0;
  uint32_t rt_ = 0;
  uint32_t alpha_ = kAlphaOne;
  uint32_t t_cnt_ = 0;
  uint32_t b_cnt_ = 0;
  uint32_t bytes_ = 0;
  uint64_t t_due_ = 0;
  uint64_t k_due_ = 0;
  uint64_t now_ = 0;
  Stats stats_;
  Step last_ = Step::kFast;
  bool last_clamped_ = false;
};

}  // namespace tonic::ref::dcqcn
