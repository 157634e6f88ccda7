// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/dctcp (DCTCP, RFC 8257, on NewReno's recovery): the
// same outputs as tonic_proto_incoming / tonic_proto_periodic, bit for bit,
// for every input (inputs are first cut to their port widths). Plain C++,
// no Verilator. The rules are documented in protocols/dctcp/README.md.
#pragma once

#include <cstdint>

#include "tonic/proto_common.hpp"
#include "tonic/protocol_consts.hpp"  // the constants of user_configs.vh, generated

namespace tonic::ref {

struct DctcpTwin : registry::consts::Dctcp {  // kName, kUserW, kCreditScheme and the constants of user_configs.vh

  /// user_t
  struct User {
    uint32_t srtt8 = 0;                     // 28 bits: RFC 6298, 8 x SRTT (0 = no sample yet)
    uint32_t rttvar4 = 0;                   // 28 bits: 4 x RTTVAR
    uint32_t dup_acks = 0;                  // 2 bits
    bool in_rec = false;
    bool rto_guard = false;
    bool partial = false;
    uint32_t ssthresh = UserInit::kSsthresh;  // 9 bits; all ones: not set yet
    uint32_t ca_cnt = 0;                    // 9 bits
    uint32_t rec_off = 0;                   // 8 bits: recover (or the cwr end) - wnd_start
    bool cwr = false;                       // an ECE cut this window
    uint32_t alpha = UserInit::kAlpha;      // 11 bits: alpha in 1/1024
    uint32_t obs_k = UserInit::kObsK;       // 4 bits: the period is 2^obs_k segments
    uint32_t obs_left = UserInit::kObsLeft; // 9 bits: segments still to come in the period
    uint32_t obs_marked = 0;                // 9 bits: marked segments of the period so far
    template <class F>
    void fields(F&& f) {
      f(srtt8, 28);  // first: the most significant (user_t's first field)
      f(rttvar4, 28);
      f(alpha, 11);
      f(obs_k, 4);
      f(obs_left, 9);
      f(obs_marked, 9);
      f(cwr, 1);
      f(dup_acks, 2);
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

  static ProtoOut incoming(const ProtoIn& in);  // tonic_proto_incoming
  static ProtoOut periodic(const ProtoIn& in);  // tonic_proto_periodic
  /// user_merge of user_configs.vh: the periodic call writes only on a
  /// timeout, which a merged call never has, so incoming's user state.
  static ProtoUser merge(uint8_t /*type*/, const ProtoUser& /*old*/, const ProtoUser& in,
                         const ProtoUser& /*per*/) {
    return in;
  }

  /// floor(log2(v)) of a 10-bit count (0 for 0 and 1).
  static uint32_t floor_log2(uint32_t v) {
    uint32_t r = 0;
    for (uint32_t i = 1; i < 10; ++i) {
      if ((v >> i) & 1) r = i;
    }
    return r;
  }
  /// alpha at the end of a period of 2^k segments of which `marked` came
  /// under an ECN echo: alpha - ceil(alpha / 2^g) + marked x 2^(10 - g) / 2^k
  /// (11 bits, in 1/1024).
  static uint32_t alpha_update(uint32_t alpha, uint32_t marked, uint32_t k) {
    const uint32_t dec = (alpha + (1u << kAlphaShift) - 1) >> kAlphaShift;
    const uint32_t gain = ((marked << (10 - kAlphaShift)) & 0xffff) >> k;
    return (alpha - dec + gain) & 0x7ff;
  }
  /// cwnd after an ECE cut: max(cwnd - cwnd x alpha / 2048, CutFloor).
  static uint32_t cut_wnd(uint32_t wnd, uint32_t alpha) {
    const uint32_t c = (wnd - ((wnd * alpha) >> 11)) & 0x3ff;
    return c < kCutFloor ? kCutFloor : c;
  }
};

inline ProtoOut DctcpTwin::incoming(const ProtoIn& in) {
  const auto [wnd, flight, newly] = proto::counts(in);
  const User u = unpack(in.user);
  User n = u;
  ProtoOut o;
  uint32_t wnd_n = 0;
  const bool new_ack = proto::seq_lt(in.old_start, in.wnd_start);
  const uint32_t adv = in.wnd_start - in.old_start;
  const bool passed = new_ack && adv > u.rec_off;  // ack > recover (or the cwr end)
  const uint32_t rec_left = (u.rec_off - adv) & 0xff;
  const bool guarded = (u.rto_guard || u.cwr) && !passed;
  const uint32_t half = proto::half_flight(flight);
  const bool sample = new_ack && in.info.rtt_valid && !(kRttKarn != 0 && in.info.echo_rtx);
  const bool unsampled = new_ack && u.srtt8 == 0 && !(u.in_rec && !passed && u.partial);
  const proto::RttEst est = proto::rtt_sample({u.srtt8, u.rttvar4}, in.info.rtt);
  // DCTCP: an ack's segments are all marked or all not.
  const bool ce = in.info.ecn_segs != 0;
  const bool obs_end = newly >= u.obs_left;
  const bool cut = new_ack && ce && !u.in_rec && !guarded;
  if (new_ack) {
    o.user_we = o.wnd_we = true;
    o.rto_we = sample || unsampled;
    n.dup_acks = 0;
    if (sample) {
      n.srtt8 = est.srtt8;
      n.rttvar4 = est.rttvar4;
    }
    if (obs_end) {
      const uint32_t sum = u.obs_marked + (ce ? u.obs_left : 0);
      n.alpha = alpha_update(u.alpha, sum, u.obs_k);
      n.obs_k = floor_log2(wnd);
      n.obs_left = (1u << n.obs_k) & 0x1ff;
      n.obs_marked = 0;
    } else {
      n.obs_left = (u.obs_left - newly) & 0x1ff;
      n.obs_marked = (u.obs_marked + (ce ? newly : 0)) & 0x1ff;
    }
    if (u.in_rec && passed) {
      // Full ack: min(ssthresh, max(FlightSize, 1) + 1), leave recovery.
      const uint32_t f1 = (flight == 0 ? 1 : flight) + 1;
      wnd_n = u.ssthresh < f1 ? u.ssthresh : f1;
      n.in_rec = n.rto_guard = n.partial = false;
      n.ca_cnt = 0;
      n.rec_off = 0;
      o.timer_restart = flight != 0;
    } else if (u.in_rec) {
      // Partial ack.
      o.mark_we = true;
      wnd_n = (wnd > newly ? wnd - newly : 0) + 1;
      n.rec_off = rec_left;
      n.partial = true;
      o.timer_restart = !u.partial && flight != 0;
    } else {
      o.timer_restart = flight != 0;
      n.rto_guard = u.rto_guard && !passed;
      n.cwr = u.cwr && !passed;
      n.rec_off = guarded ? rec_left : 0;
      if (cut) {
        wnd_n = cut_wnd(wnd, u.alpha);
        n.ssthresh = wnd_n & 0x1ff;
        n.ca_cnt = 0;
        n.cwr = true;
        n.rec_off = proto::rec_offset(flight);
      } else if (u.cwr && !passed) {
        o.wnd_we = false;  // reduced this window: no growth
      } else {
        const proto::Grow g = proto::grow_wnd(wnd, newly, u.ssthresh, u.ca_cnt, kSsAckCap, kByteCounting != 0);
        wnd_n = g.wnd;
        n.ca_cnt = g.ca_cnt;
      }
    }
  } else if (in.dup) {
    if (u.in_rec) {
      o.wnd_we = true;
      wnd_n = wnd + 1;
    } else {
      o.user_we = true;
      n.dup_acks = u.dup_acks == 3 ? 3 : u.dup_acks + 1;
      if (u.dup_acks == 2 && !u.rto_guard) {
        o.wnd_we = o.mark_we = true;  // 3rd dup ack: fast retransmit
        n.in_rec = true;
        n.partial = false;
        n.cwr = false;
        n.ssthresh = half;
        n.ca_cnt = 0;
        n.rec_off = proto::rec_offset(flight);
        wnd_n = half + 3;
      }
    }
  }
  // The RTO of the estimate before this sample (one sample of lag).
  const uint32_t rto_n = (sample && u.srtt8 != 0) ? proto::rto_of({u.srtt8, u.rttvar4}, kRtoMax) : kRtoInit;
  proto::drive_values(o, in.w, wnd_n, in.wnd_start, in.wnd_start + 1, rto_n, pack(n));
  return o;
}

inline ProtoOut DctcpTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const uint32_t flight = proto::counts(in).flight;
  User n = unpack(in.user);
  n.dup_acks = 0;
  n.in_rec = false;
  n.rto_guard = true;
  n.partial = false;
  n.cwr = false;
  n.ssthresh = proto::half_flight(flight);
  n.ca_cnt = 0;
  n.rec_off = proto::rec_offset(flight);
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  // Go back N: every segment in flight is marked.
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, proto::rto_backoff(in.rto, kRtoMax), pack(n));
  return o;
}

}  // namespace tonic::ref
