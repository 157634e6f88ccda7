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
  // RFC 6298 and RFC 6582 recovery as NewReno (lib/tonic/proto_common.hpp);
  // RecoveryPoint also ends a window of reduction (cwr).
  const proto::AckView ack = proto::ack_view(in, u, kRttKarn != 0);
  const bool guarded = (u.rto_guard || u.cwr) && !ack.passed;
  // DCTCP: an ack's segments are all marked or all not.
  const bool ce = in.info.ecn_segs != 0;
  const bool obs_end = newly >= u.obs_left;
  const bool cut = ack.new_ack && ce && !u.in_rec && !guarded;
  if (ack.new_ack) {
    proto::new_ack_writes(ack, n, o);
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
    if (!proto::recovery_ack(ack, u, n, o, wnd_n, wnd, newly, flight)) {
      o.timer_restart = flight != 0;
      n.rto_guard = u.rto_guard && !ack.passed;
      n.cwr = u.cwr && !ack.passed;
      n.rec_off = guarded ? ack.rec_left : 0;
      if (cut) {
        wnd_n = cut_wnd(wnd, u.alpha);
        n.ssthresh = wnd_n & 0x1ff;
        n.ca_cnt = 0;
        n.cwr = true;
        n.rec_off = proto::rec_offset(flight);
      } else if (u.cwr && !ack.passed) {
        o.wnd_we = false;  // reduced this window: no growth
      } else {
        const proto::Grow g = proto::grow_wnd(wnd, newly, u.ssthresh, u.ca_cnt, kSsAckCap, kByteCounting != 0);
        wnd_n = g.wnd;
        n.ca_cnt = g.ca_cnt;
      }
    }
  } else if (in.dup) {
    // The fast retransmit ends a window of reduction.
    if (proto::dup_ack(u, n, o, wnd_n, wnd, proto::half_flight(flight), flight)) n.cwr = false;
  }
  proto::drive_values(o, in.w, wnd_n, in.wnd_start, in.wnd_start + 1, proto::ack_rto(ack, u, kRtoInit, kRtoMax),
                      pack(n));
  return o;
}

inline ProtoOut DctcpTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const uint32_t flight = proto::counts(in).flight;
  User n = unpack(in.user);
  proto::timeout_state(n, proto::half_flight(flight), flight);
  n.cwr = false;
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  // Go back N: every segment in flight is marked.
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, proto::rto_backoff(in.rto, kRtoMax), pack(n));
  return o;
}

}  // namespace tonic::ref
