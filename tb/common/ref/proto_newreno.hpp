// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/newreno (TCP NewReno, RFC 6582): the same outputs as
// tonic_proto_incoming / tonic_proto_periodic, bit for bit, for every input
// (inputs are first cut to their port widths). Plain C++, no Verilator.
// The rules are documented in protocols/newreno/README.md.
#pragma once

#include <cstdint>

#include "common/ref/proto_io.hpp"

namespace tonic::ref::newreno {

// user_configs.vh
constexpr unsigned kUserW = 31;
constexpr uint32_t kInitWnd = 10;
constexpr uint32_t kRtoInit = 20000;
constexpr uint32_t kRtoMin = 20000;
constexpr uint32_t kRtoMax = 1280000;
constexpr uint32_t kSsAckCap = 2;
constexpr bool kUserIncomingWins = true;
constexpr uint32_t kSsthreshInfinite = 511;

/// user_t
struct User {
  uint32_t dup_acks = 0;  // 2 bits
  bool in_rec = false;
  bool rto_guard = false;
  bool partial = false;
  uint32_t ssthresh = kSsthreshInfinite;  // 9 bits
  uint32_t ca_cnt = 0;                    // 9 bits
  uint32_t rec_off = 0;                   // 8 bits: recover - wnd_start
  bool operator==(const User& o) const {
    return dup_acks == o.dup_acks && in_rec == o.in_rec && rto_guard == o.rto_guard &&
           partial == o.partial && ssthresh == o.ssthresh && ca_cnt == o.ca_cnt &&
           rec_off == o.rec_off;
  }
};

inline User unpack(const ProtoUser& b) {
  proto::FieldReader r(b, kUserW);
  User u;
  u.dup_acks = r.take(2);
  u.in_rec = r.take(1);
  u.rto_guard = r.take(1);
  u.partial = r.take(1);
  u.ssthresh = r.take(9);
  u.ca_cnt = r.take(9);
  u.rec_off = r.take(8);
  return u;
}

inline ProtoUser pack(const User& u) {
  return proto::FieldWriter(kUserW)
      .put(u.dup_acks, 2)
      .put(u.in_rec, 1)
      .put(u.rto_guard, 1)
      .put(u.partial, 1)
      .put(u.ssthresh, 9)
      .put(u.ca_cnt, 9)
      .put(u.rec_off, 8)
      .bits();
}

/// UserInit
inline ProtoUser user_init() { return pack(User{}); }

/// recover = next_new - 1 as a distance from wnd_start (8 bits).
inline uint32_t rec_offset(uint32_t flight) { return flight == 0 ? 0 : (flight - 1) & 0xff; }

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
  const bool new_ack = proto::seq_lt(in.old_start, in.wnd_start);
  const uint32_t adv = in.wnd_start - in.old_start;
  const bool passed = new_ack && adv > u.rec_off;  // ack > recover
  const uint32_t rec_left = (u.rec_off - adv) & 0xff;
  const uint32_t half = proto::half_flight(flight);
  if (new_ack) {
    o.user_we = o.wnd_we = true;
    n.dup_acks = 0;
    if (u.in_rec && passed) {
      // Full ack: min(ssthresh, max(FlightSize, 1) + 1), leave recovery.
      const uint32_t f1 = (flight == 0 ? 1 : flight) + 1;
      wnd_n = u.ssthresh < f1 ? u.ssthresh : f1;
      n.in_rec = n.rto_guard = n.partial = false;
      n.ca_cnt = 0;
      n.rec_off = 0;
      o.rto_we = true;
      o.timer_restart = flight != 0;
    } else if (u.in_rec) {
      // Partial ack.
      o.mark_we = true;
      wnd_n = (wnd > newly ? wnd - newly : 0) + 1;
      n.rec_off = rec_left;
      n.partial = true;
      if (!u.partial) {
        o.rto_we = true;
        o.timer_restart = flight != 0;
      }
    } else {
      o.rto_we = true;
      o.timer_restart = flight != 0;
      n.rto_guard = u.rto_guard && !passed;
      n.rec_off = n.rto_guard ? rec_left : 0;
      wnd_n = proto::grow_window(wnd, newly, u.ssthresh, n.ca_cnt, kSsAckCap);
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
        n.ssthresh = half;
        n.ca_cnt = 0;
        n.rec_off = rec_offset(flight);
        wnd_n = half + 3;
      }
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
  n.in_rec = false;
  n.rto_guard = true;
  n.partial = false;
  n.ssthresh = proto::half_flight(flight);
  n.ca_cnt = 0;
  n.rec_off = rec_offset(flight);
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  o.wnd = 1;
  o.mark_lo = in.wnd_start;
  o.mark_hi = in.wnd_start + 1;
  o.rto = proto::backoff(in.rto, kRtoMax);
  o.user = pack(n);
  return o;
}

}  // namespace tonic::ref::newreno
