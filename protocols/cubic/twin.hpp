// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/cubic (TCP CUBIC, RFC 9438, on NewReno's recovery):
// the same outputs as tonic_proto_incoming / tonic_proto_periodic, bit for
// bit, for every input (inputs are first cut to their port widths). Plain
// C++, no Verilator. The tables are the integers of cubic_math.svh; K uses
// lib/tonic/cbrt.hpp, the integers of tonic_cbrt. The rules are documented
// in protocols/cubic/README.md.
#pragma once

#include <array>
#include <cstdint>

#include "tonic/cbrt.hpp"
#include "tonic/proto_common.hpp"
#include "tonic/protocol_consts.hpp"  // the constants of user_configs.vh, generated

namespace tonic::ref {

struct CubicTwin : registry::consts::Cubic {  // kName, kUserW, kCreditScheme and the constants of user_configs.vh

  /// user_t
  struct User {
    uint32_t dup_acks = 0;  // 2 bits
    bool in_rec = false;
    bool rto_guard = false;
    bool partial = false;
    uint32_t ssthresh = UserInit::kSsthresh;  // 9 bits; UserInit: all ones, not set yet
    uint32_t ca_cnt = 0;                      // 9 bits: sum of (target - cwnd) since the last +1
    uint32_t rec_off = 0;                     // 8 bits: recover - wnd_start
    uint32_t srtt8 = 0;                       // 28 bits: RFC 6298, 8 x SRTT (0 = no sample yet)
    uint32_t rttvar4 = 0;                     // 28 bits: 4 x RTTVAR
    uint32_t w_max = 0;                       // 9 bits: W_max (segments)
    uint32_t w_est = 0;                       // 9 bits: W_est (segments)
    uint32_t est_cnt = 0;                     // 9 bits: segments acked since W_est grew
    bool pending = false;                     // K set, epoch not started
    uint32_t t_org = 0;                       // 11 bits: K while pending, else the origin (time units)
    template <class F>
    void fields(F&& f) {
      f(srtt8, 28);  // first: the most significant (user_t's first field)
      f(rttvar4, 28);
      f(w_max, 9);
      f(w_est, 9);
      f(est_cnt, 9);
      f(pending, 1);
      f(t_org, 11);
      f(dup_acks, 2);  // NewReno's fields last, at NewReno's bit positions
      f(in_rec, 1);
      f(rto_guard, 1);
      f(partial, 1);
      f(ssthresh, 9);
      f(ca_cnt, 9);
      f(rec_off, 8);
    }
    bool operator==(const User& o) const { return proto::field_values(*this) == proto::field_values(o); }
  };
  static User unpack(const ProtoUser& b) { return proto::unpack_user<User>(b, kUserW); }
  static ProtoUser pack(const User& u) { return proto::pack_user(u, kUserW); }

  // --- cubic_math.svh. Time unit: kCycleNs * 2^kTimeShift ns. ---
  using U128 = unsigned __int128;
  static constexpr U128 kUnitNs = U128{kCycleNs} << kTimeShift;
  static constexpr U128 kNsPerS3 = U128{1000000000000000000ull} * 1000000000ull;  // 10^27

  /// max(floor(cwnd * beta), 2): ssthresh after a congestion event.
  static constexpr uint32_t beta(uint32_t w) {
    const uint32_t b = (w * kBetaNum) >> 10;
    return (b < 2 ? 2 : b) & 0x1ff;
  }
  /// floor(cwnd (1 + beta) / 2): W_max under fast convergence.
  static constexpr uint32_t fc_wmax(uint32_t w) { return ((w * (1024 + kBetaNum)) >> 11) & 0x1ff; }
  /// floor((W_max - ssthresh) / C) in units^3, saturating at 30 bits.
  static constexpr uint32_t rad(uint32_t w, bool fc) {
    const uint32_t wmax = fc ? fc_wmax(w) : w;
    const uint32_t ss = beta(w);
    const uint32_t dw = wmax > ss ? wmax - ss : 0;
    const U128 q = (U128{dw} * kCubicCDen * kNsPerS3) / (U128{kCubicCNum} * kUnitNs * kUnitNs * kUnitNs);
    return q > 0x3fffffff ? 0x3fffffffu : static_cast<uint32_t>(q);
  }
  /// K (time units) at a congestion event: tonic_cbrt of rad().
  static constexpr uint32_t k_of(uint32_t w, bool fc) { return cbrt_cell(rad(w, fc), kKSigBits); }
  /// W_cubic - W_max = sign(d) floor(C |d|^3), saturating at +-511, for an
  /// 11-bit two's-complement d = t - K.
  static constexpr int32_t off(uint32_t d11) {
    const bool neg = d11 >= 1024;
    const U128 m = neg ? 2048 - d11 : d11;
    U128 c = (U128{kCubicCNum} * m * m * m * kUnitNs * kUnitNs * kUnitNs) / (U128{kCubicCDen} * kNsPerS3);
    if (c > 511) c = 511;
    return neg ? -static_cast<int32_t>(c) : static_cast<int32_t>(c);
  }
  /// ceil(cwnd / alpha_cubic), at least 1: segments acked per +1 of W_est.
  static constexpr uint32_t est_thr(uint32_t w) {
    const uint32_t t = (w * kEstNum + kEstDen - 1) / kEstDen;
    return t < 1 ? 1 : (t > 511 ? 511 : t);
  }
  /// The ROM of incoming.v: off() of every 11-bit t - K.
  static const std::array<int32_t, 2048>& off_table() {
    static const std::array<int32_t, 2048> t = [] {
      std::array<int32_t, 2048> a{};
      for (uint32_t i = 0; i < 2048; ++i) a[i] = off(i);
      return a;
    }();
    return t;
  }

  static ProtoOut incoming(const ProtoIn& in);  // tonic_proto_incoming
  static ProtoOut periodic(const ProtoIn& in);  // tonic_proto_periodic
  /// user_merge of user_configs.vh: the periodic call writes only on a
  /// timeout, which a merged call never has, so incoming's user state.
  static ProtoUser merge(uint8_t /*type*/, const ProtoUser& /*old*/, const ProtoUser& in,
                         const ProtoUser& /*per*/) {
    return in;
  }
};

inline ProtoOut CubicTwin::incoming(const ProtoIn& in) {
  const auto [wnd, flight, newly] = proto::counts(in);
  const User u = unpack(in.user);
  User n = u;
  ProtoOut o;
  uint32_t wnd_n = 0;
  // RFC 6298 and RFC 6582 recovery as NewReno (lib/tonic/proto_common.hpp).
  const proto::AckView ack = proto::ack_view(in, u, kRttKarn != 0);
  const uint32_t ss_inc = kByteCounting != 0 ? newly : 1;

  // The congestion event.
  const uint32_t w9 = wnd & 0x1ff;
  const bool fc = wnd < u.w_max;
  const uint32_t ss_new = beta(w9);
  const uint32_t wmax_new = fc ? fc_wmax(w9) : w9;

  // Congestion avoidance (12-bit two's complement in the RTL; every value
  // here stays inside its range).
  const uint32_t now_u = (in.now >> kTimeShift) & 0x7ff;
  const uint32_t srtt_u = (u.srtt8 >> (3 + kTimeShift)) & 0x7ff;
  const uint32_t d = (now_u - u.t_org) & 0x7ff;  // t - K
  const int32_t off_v = off_table()[d];          // W_cubic - W_max
  const int32_t a = static_cast<int32_t>(u.w_max) - static_cast<int32_t>(wnd);
  const int32_t h = static_cast<int32_t>(wnd >> 1);
  const int32_t ca = static_cast<int32_t>(u.ca_cnt);
  const int32_t wn = static_cast<int32_t>(wnd);
  const bool reno = off_v < static_cast<int32_t>(u.w_est) - static_cast<int32_t>(u.w_max);
  bool step;
  int32_t acc;
  if (off_v <= -a) {  // W_cubic <= cwnd: no increase
    step = ca - wn >= 0;
    acc = step ? ca - wn : ca;
  } else if (off_v >= h - a) {  // W_cubic >= 1.5 cwnd: the clamp
    step = ca + h - wn >= 0;
    acc = step ? ca + h - wn : ca + h;
  } else {
    step = ca + a + off_v - wn >= 0;
    acc = step ? ca + a + off_v - wn : ca + a + off_v;
  }
  // acc is in 0..511 for every input (ca_cnt <= 511, cwnd <= 511): 9 bits.
  const uint32_t ca_n = static_cast<uint32_t>(acc) & 0x1ff;
  const uint32_t est_sum = u.est_cnt + ss_inc;
  const uint32_t est_m = (est_sum - est_thr(w9)) & 0x7ff;
  const bool est_step = (est_m & 0x400) == 0;

  if (ack.new_ack) {
    proto::new_ack_writes(ack, n, o);
    if (!proto::recovery_ack(ack, u, n, o, wnd_n, wnd, newly, flight)) {
      o.timer_restart = flight != 0;
      n.rto_guard = u.rto_guard && !ack.passed;
      n.rec_off = n.rto_guard ? ack.rec_left : 0;
      if (wnd < u.ssthresh) {
        wnd_n = wnd + (ss_inc < kSsAckCap ? ss_inc : kSsAckCap);  // slow start
        n.ca_cnt = 0;
      } else {
        n.est_cnt = est_step ? (est_m > 511 ? 511 : est_m) : (est_sum > 511 ? 511 : est_sum);
        n.w_est = (est_step && u.w_est != 511) ? u.w_est + 1 : u.w_est;
        if (u.pending) {
          // The epoch starts: origin = now + K - SRTT.
          wnd_n = wnd;
          n.pending = false;
          n.t_org = (now_u + u.t_org - srtt_u) & 0x7ff;
          n.ca_cnt = 0;
        } else {
          if ((d & 0x400) == 0 && d > kOrgHold) n.t_org = (now_u - kOrgHold) & 0x7ff;
          if (reno) {
            wnd_n = u.w_est > wnd ? u.w_est : wnd;  // Reno-friendly region
          } else {
            wnd_n = step ? wnd + 1 : wnd;
            n.ca_cnt = ca_n;
          }
        }
      }
    }
  } else if (in.dup) {
    if (proto::dup_ack(u, n, o, wnd_n, wnd, ss_new, flight)) {
      // The fast retransmit is CUBIC's congestion event.
      n.w_max = wmax_new;
      n.w_est = ss_new;
      n.est_cnt = 0;
      n.pending = true;
      n.t_org = k_of(w9, fc) & 0x7ff;
    }
  }
  proto::drive_values(o, in.w, wnd_n, in.wnd_start, in.wnd_start + 1, proto::ack_rto(ack, u, kRtoInit, kRtoMax),
                      pack(n));
  return o;
}

inline ProtoOut CubicTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const auto [wnd, flight, newly] = proto::counts(in);
  (void)newly;
  const uint32_t ss_new = beta(wnd & 0x1ff);
  User n = unpack(in.user);
  proto::timeout_state(n, ss_new, flight);
  n.w_max = ss_new;  // RFC 9438 section 4.8: K = 0, W_max = the epoch's start window
  n.w_est = ss_new;
  n.est_cnt = 0;
  n.pending = true;
  n.t_org = 0;
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  // Go back N: every segment in flight is marked.
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, proto::rto_backoff(in.rto, kRtoMax), pack(n));
  return o;
}

}  // namespace tonic::ref
