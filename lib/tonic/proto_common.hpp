// SPDX-License-Identifier: Apache-2.0
// What the C++ twins protocols/<name>/twin.hpp share: the integer
// rules of rtl/dd/tonic_proto_pkg.sv (same names, same results), the
// output form of TONIC_PROTO_DRIVE_VALUES (rtl/dd/tonic_proto_ports.svh),
// the packing of a user_t and the configuration of the TCP protocols.
// Plain C++, no Verilator.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tonic/proto_io.hpp"

namespace tonic::ref::proto {

// ---------------------------------------------------------------------------
// tonic_proto_pkg

/// max(FlightSize / 2, 2): ssthresh after a loss.
inline uint32_t half_flight(uint32_t flight) { return (flight >> 1) < 2 ? 2 : (flight >> 1); }

/// Exponential back-off: min(2 * rto, rto_max), computed in 33 bits.
inline uint32_t rto_backoff(uint32_t rto, uint32_t rto_max) {
  const uint64_t d = uint64_t{rto} << 1;
  return d > rto_max ? rto_max : static_cast<uint32_t>(d);
}

/// The RFC 6298 estimator of tonic_proto_pkg (rtt_est_t): srtt8 = 8 x SRTT,
/// rttvar4 = 4 x RTTVAR in cycles, 28 bits each, srtt8 = 0 before the first
/// sample; samples cut to kRttMax.
inline constexpr uint32_t kRttMax = (uint32_t{1} << 25) - 1;
struct RttEst {
  uint32_t srtt8 = 0;
  uint32_t rttvar4 = 0;
};

/// One RTT sample into the estimator (tonic_proto_pkg::rtt_sample).
inline RttEst rtt_sample(RttEst e, uint32_t r) {
  const uint32_t mask = (uint32_t{1} << 28) - 1;
  const uint32_t rc = r > kRttMax ? kRttMax : r;
  if (e.srtt8 == 0) return {(rc << 3) & mask, (rc << 1) & mask};
  const uint32_t s = e.srtt8 >> 3;
  const uint32_t d = s > rc ? s - rc : rc - s;
  return {(e.srtt8 - (e.srtt8 >> 3) + rc) & mask, (e.rttvar4 - (e.rttvar4 >> 2) + d) & mask};
}

/// RTO = SRTT + max(1, 4 RTTVAR), at most rto_max (tonic_proto_pkg::rto_of).
inline uint32_t rto_of(RttEst e, uint32_t rto_max) {
  const uint32_t rto = (e.srtt8 >> 3) + (e.rttvar4 == 0 ? 1 : e.rttvar4);
  return rto > rto_max ? rto_max : rto;
}

/// cwnd clamped to 1..w (the range of wnd_o).
inline uint32_t clamp_wnd(uint32_t wnd, uint32_t w) { return wnd == 0 ? 1 : (wnd > w ? w : wnd); }

/// next_new - 1 as an 8-bit distance from wnd_start (0 when nothing is in
/// flight): NewReno's recover, SACK's RecoveryPoint.
inline uint32_t rec_offset(uint32_t flight) { return flight == 0 ? 0 : (flight - 1) & 0xff; }

/// grow_t: new cwnd and congestion-avoidance count after a new ack.
struct Grow {
  uint32_t wnd;
  uint32_t ca_cnt;  // 9 bits
};

/// Slow start (cwnd < ssthresh: cwnd += min(inc, ss_cap), ca_cnt = 0) or
/// congestion avoidance (+1 per cwnd counted, ca_cnt saturating at 511),
/// inc = 1 per ack (RFC 5681, bytes false) or the newly acked segments
/// (RFC 3465, bytes true): tonic_proto_pkg::grow_wnd.
inline Grow grow_wnd(uint32_t wnd, uint32_t newly, uint32_t ssthresh, uint32_t ca_cnt, uint32_t ss_cap,
                     bool bytes) {
  const uint32_t inc = bytes ? newly : 1;
  const uint32_t ca_sum = ca_cnt + inc;
  if (wnd < ssthresh) return {wnd + (inc < ss_cap ? inc : ss_cap), 0};
  if (ca_sum >= wnd) return {wnd + 1, (ca_sum - wnd > 511) ? 511 : ca_sum - wnd};
  return {wnd, ca_sum};
}

/// Number of set bits among the W ring bits (tonic_popcount_range).
inline uint32_t ring_popcount(const ProtoRing& r, uint32_t w) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < w; ++i) n += r[i] ? 1 : 0;
  return n;
}

// ---------------------------------------------------------------------------
// Module inputs and outputs

/// The count inputs as the module sees them: cut to CntW bits.
struct Counts {
  uint32_t wnd;
  uint32_t flight;
  uint32_t newly;
};
inline Counts counts(const ProtoIn& in) {
  const unsigned cw = cnt_w(in.w);
  return {low_bits(in.wnd, cw), low_bits(in.flight, cw), low_bits(in.newly_acked, cw)};
}

/// TONIC_PROTO_DRIVE_VALUES: the value outputs from the module's values,
/// each 0 while its enable is 0; the window clamped to 1..w.
inline void drive_values(ProtoOut& o, uint32_t w, uint32_t wnd, uint32_t mark_lo, uint32_t mark_hi,
                         uint32_t rto, const ProtoUser& user) {
  o.wnd = o.wnd_we ? clamp_wnd(wnd, w) : 0;
  o.mark_lo = o.mark_we ? mark_lo : 0;
  o.mark_hi = o.mark_we ? mark_hi : 0;
  o.rto = o.rto_we ? rto : 0;
  o.user = o.user_we ? user : ProtoUser{};
}

// ---------------------------------------------------------------------------
// User state. A twin's User lists the fields of its user_t once, in
// declaration order with their widths:
//   template <class F> void fields(F&& f) { f(dup_acks, 2); f(ssthresh, 9); ... }
// (bool or uint32_t members); the first field is the most significant.

/// user_t bits -> User.
template <class User>
User unpack_user(const ProtoUser& b, unsigned width) {
  User u;
  unsigned pos = width;
  u.fields([&](auto& v, unsigned bits) {
    pos -= bits;
    uint32_t x = 0;
    for (unsigned k = 0; k < bits; ++k) x |= static_cast<uint32_t>(b[pos + k]) << k;
    v = static_cast<std::remove_reference_t<decltype(v)>>(x);
  });
  return u;
}

/// User -> user_t bits (each field cut to its width).
template <class User>
ProtoUser pack_user(User u, unsigned width) {
  ProtoUser b;
  unsigned pos = width;
  u.fields([&](auto& v, unsigned bits) {
    pos -= bits;
    for (unsigned k = 0; k < bits; ++k) b[pos + k] = (static_cast<uint32_t>(v) >> k) & 1U;
  });
  return b;
}

/// Every field of a User, in order (for operator==).
template <class User>
std::vector<uint32_t> field_values(User u) {
  std::vector<uint32_t> out;
  u.fields([&](auto& v, unsigned) { out.push_back(static_cast<uint32_t>(v)); });
  return out;
}


// ---------------------------------------------------------------------------
// Fast recovery with partial acks (RFC 6582) and the RFC 6298 estimator on
// an ack, shared by the window twins whose user_t has the fields dup_acks,
// in_rec, rto_guard, partial, ssthresh, ca_cnt, rec_off (RecoveryPoint -
// wnd_start), srtt8 and rttvar4. Each twin keeps its own growth outside
// recovery and its own congestion event; rtl/dd/tonic_proto_recovery.svh
// is the same in the RTL.

/// What an ack event means for the recovery state.
struct AckView {
  bool new_ack = false;    // the window start moved
  bool passed = false;     // the ack covers RecoveryPoint
  bool sample = false;     // an RTT sample (Karn's rule with karn)
  bool unsampled = false;  // no sample yet: RtoInit on this ack
  uint32_t rec_left = 0;   // RecoveryPoint - the new window start (8 bits)
  RttEst est;              // the estimator after the sample
};
template <class User>
AckView ack_view(const ProtoIn& in, const User& u, bool karn) {
  AckView a;
  a.new_ack = seq_lt(in.old_start, in.wnd_start);
  const uint32_t adv = in.wnd_start - in.old_start;
  a.passed = a.new_ack && adv > u.rec_off;
  a.rec_left = (u.rec_off - adv) & 0xff;
  a.sample = a.new_ack && in.info.rtt_valid && !(karn && in.info.echo_rtx);
  // No sample yet (a receiver that echoes nothing): RtoInit on a new ack,
  // but a later partial ack's.
  a.unsampled = a.new_ack && u.srtt8 == 0 && !(u.in_rec && !a.passed && u.partial);
  a.est = rtt_sample({u.srtt8, u.rttvar4}, in.info.rtt);
  return a;
}

/// A new ack's common writes: user state, window, the RTO on a sample, the
/// estimator, the duplicate-ack count cleared.
template <class User>
void new_ack_writes(const AckView& a, User& n, ProtoOut& o) {
  o.user_we = o.wnd_we = true;
  o.rto_we = a.sample || a.unsampled;
  n.dup_acks = 0;
  if (a.sample) {
    n.srtt8 = a.est.srtt8;
    n.rttvar4 = a.est.rttvar4;
  }
}

/// A new ack in recovery: a full ack leaves it with min(ssthresh,
/// max(FlightSize, 1) + 1); a partial ack deflates by the newly acked, adds
/// one and marks the next hole. Returns false outside recovery (no writes).
template <class User>
bool recovery_ack(const AckView& a, const User& u, User& n, ProtoOut& o, uint32_t& wnd_n, uint32_t wnd,
                  uint32_t newly, uint32_t flight) {
  if (!u.in_rec) return false;
  if (a.passed) {
    const uint32_t f1 = (flight == 0 ? 1 : flight) + 1;
    wnd_n = u.ssthresh < f1 ? u.ssthresh : f1;
    n.in_rec = n.rto_guard = n.partial = false;
    n.ca_cnt = 0;
    n.rec_off = 0;
    o.timer_restart = flight != 0;
  } else {
    o.mark_we = true;
    wnd_n = (wnd > newly ? wnd - newly : 0) + 1;
    n.rec_off = a.rec_left;
    n.partial = true;
    o.timer_restart = !u.partial && flight != 0;  // the first partial ack only
  }
  return true;
}

/// A duplicate ack: inflate by one in recovery; else count it, and the 3rd
/// (no RTO's RecoveryPoint pending) is the fast retransmit: recovery with
/// ssthresh = ss_new, cwnd = ss_new + 3. Returns true on that entry.
template <class User>
bool dup_ack(const User& u, User& n, ProtoOut& o, uint32_t& wnd_n, uint32_t wnd, uint32_t ss_new,
             uint32_t flight) {
  if (u.in_rec) {
    o.wnd_we = true;
    wnd_n = wnd + 1;
    return false;
  }
  o.user_we = true;
  n.dup_acks = u.dup_acks == 3 ? 3 : u.dup_acks + 1;
  if (u.dup_acks != 2 || u.rto_guard) return false;
  o.wnd_we = o.mark_we = true;
  n.in_rec = true;
  n.partial = false;
  n.ssthresh = ss_new;
  n.ca_cnt = 0;
  n.rec_off = rec_offset(flight);
  wnd_n = ss_new + 3;
  return true;
}

/// An RTO's user state (TONIC_REC_TIMEOUT): recovery left, RecoveryPoint =
/// next_new - 1 with rto_guard (no fast retransmit until an ack passes it),
/// ssthresh = ss_new.
template <class User>
void timeout_state(User& n, uint32_t ss_new, uint32_t flight) {
  n.dup_acks = 0;
  n.in_rec = false;
  n.rto_guard = true;
  n.partial = false;
  n.ssthresh = ss_new;
  n.ca_cnt = 0;
  n.rec_off = rec_offset(flight);
}

/// The RTO an ack writes: of the estimate before this sample (one sample of
/// lag), or RtoInit.
template <class User>
uint32_t ack_rto(const AckView& a, const User& u, uint32_t rto_init, uint32_t rto_max) {
  return (a.sample && u.srtt8 != 0) ? rto_of({u.srtt8, u.rttvar4}, rto_max) : rto_init;
}

}  // namespace tonic::ref::proto
