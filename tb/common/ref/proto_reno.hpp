// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/reno (TCP Reno): the same outputs as
// tonic_proto_incoming / tonic_proto_periodic, bit for bit, for every input
// (inputs are first cut to their port widths). Plain C++, no Verilator.
// The rules are documented in protocols/reno/README.md.
#pragma once

#include <cstdint>

#include "common/ref/proto_io.hpp"

namespace tonic::ref::reno {

// user_configs.vh
constexpr unsigned kUserW = 20;
constexpr uint32_t kInitWnd = 10;
constexpr uint32_t kRtoInit = 20000;
constexpr uint32_t kRtoMin = 20000;
constexpr uint32_t kRtoMax = 1280000;
constexpr uint32_t kSsAckCap = 2;
constexpr bool kUserIncomingWins = true;
constexpr uint32_t kSsthreshInfinite = 511;

/// user_t
struct User {
  uint32_t dup_acks = 0;                   // 2 bits
  uint32_t ssthresh = kSsthreshInfinite;   // 9 bits
  uint32_t ca_cnt = 0;                     // 9 bits
  bool operator==(const User& o) const {
    return dup_acks == o.dup_acks && ssthresh == o.ssthresh && ca_cnt == o.ca_cnt;
  }
};

inline User unpack(const ProtoUser& b) {
  proto::FieldReader r(b, kUserW);
  User u;
  u.dup_acks = r.take(2);
  u.ssthresh = r.take(9);
  u.ca_cnt = r.take(9);
  return u;
}

inline ProtoUser pack(const User& u) {
  return proto::FieldWriter(kUserW).put(u.dup_acks, 2).put(u.ssthresh, 9).put(u.ca_cnt, 9).bits();
}

/// UserInit
inline ProtoUser user_init() { return pack(User{}); }

/// tonic_proto_incoming
inline ProtoOut incoming(const ProtoIn& in) {
  const unsigned cw = proto::cnt_w(in.w);
  const uint32_t wnd = proto::low_bits(in.wnd, cw);
  const uint32_t flight = proto::low_bits(in.flight, cw);
  const uint32_t newly = proto::low_bits(in.newly_acked, cw);
  const User u = unpack(in.user);
  User n = u;
  ProtoOut o;
  uint32_t wnd_n = 0;
  const uint32_t half = proto::half_flight(flight);
  if (proto::seq_lt(in.old_start, in.wnd_start)) {
    // New ack.
    o.user_we = o.wnd_we = o.rto_we = true;
    o.timer_restart = flight != 0;
    n.dup_acks = 0;
    n.ca_cnt = 0;
    if (u.dup_acks == 3) {
      wnd_n = u.ssthresh;  // leave fast recovery
    } else {
      n.ca_cnt = u.ca_cnt;
      wnd_n = proto::grow_window(wnd, newly, u.ssthresh, n.ca_cnt, kSsAckCap);
    }
  } else if (in.dup) {
    if (u.dup_acks == 3) {
      o.wnd_we = true;  // inflate
      wnd_n = wnd + 1;
    } else if (u.dup_acks == 2) {
      o.user_we = o.wnd_we = o.mark_we = true;  // 3rd dup ack: fast retransmit
      n.dup_acks = 3;
      n.ssthresh = half;
      n.ca_cnt = 0;
      wnd_n = half + 3;
    } else {
      o.user_we = true;
      n.dup_acks = u.dup_acks + 1;
    }
  }
  o.wnd = o.wnd_we ? proto::clamp_wnd(wnd_n, in.w) : 0;
  o.mark_lo = o.mark_we ? in.wnd_start : 0;
  o.mark_hi = o.mark_we ? in.wnd_start + 1 : 0;
  o.rto = o.rto_we ? kRtoInit : 0;
  if (o.user_we) o.user = pack(n);
  return o;
}

/// tonic_proto_periodic
inline ProtoOut periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const uint32_t flight = proto::low_bits(in.flight, proto::cnt_w(in.w));
  User n = unpack(in.user);
  n.dup_acks = 0;
  n.ssthresh = proto::half_flight(flight);
  n.ca_cnt = 0;
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  o.wnd = 1;
  o.mark_lo = in.wnd_start;
  o.mark_hi = in.wnd_start + 1;
  o.rto = proto::backoff(in.rto, kRtoMax);
  o.user = pack(n);
  return o;
}

}  // namespace tonic::ref::reno
