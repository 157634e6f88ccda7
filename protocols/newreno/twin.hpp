// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/newreno (TCP NewReno, RFC 6582): the same outputs as
// tonic_proto_incoming / tonic_proto_periodic, bit for bit, for every input
// (inputs are first cut to their port widths). Plain C++, no Verilator.
// The rules are documented in protocols/newreno/README.md.
#pragma once

#include <cstdint>

#include "tonic/proto_common.hpp"
#include "tonic/protocol_consts.hpp"  // the constants of user_configs.vh, generated

namespace tonic::ref {

struct NewRenoTwin : registry::consts::Newreno {  // kName, kUserW, kCreditScheme and the constants of user_configs.vh

  /// user_t
  struct User {
    uint32_t dup_acks = 0;  // 2 bits
    bool in_rec = false;
    bool rto_guard = false;
    bool partial = false;
    uint32_t ssthresh = UserInit::kSsthresh;  // 9 bits; UserInit: all ones, not set yet
    uint32_t ca_cnt = 0;                    // 9 bits
    uint32_t rec_off = 0;                   // 8 bits: recover - wnd_start
    uint32_t srtt8 = 0;                     // 28 bits: RFC 6298, 8 x SRTT (0 = no sample yet)
    uint32_t rttvar4 = 0;                   // 28 bits: 4 x RTTVAR
    template <class F>
    void fields(F&& f) {
      f(srtt8, 28);  // first: the most significant (user_t's first field)
      f(rttvar4, 28);
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
};

inline ProtoOut NewRenoTwin::incoming(const ProtoIn& in) {
  const auto [wnd, flight, newly] = proto::counts(in);
  const User u = unpack(in.user);
  User n = u;
  ProtoOut o;
  uint32_t wnd_n = 0;
  // RFC 6298: a new ack with an echo (of a first transmission only under
  // Karn's rule, RttKarn); RFC 6582 recovery (lib/tonic/proto_common.hpp).
  const proto::AckView ack = proto::ack_view(in, u, kRttKarn != 0);
  if (ack.new_ack) {
    proto::new_ack_writes(ack, n, o);
    if (!proto::recovery_ack(ack, u, n, o, wnd_n, wnd, newly, flight)) {
      o.timer_restart = flight != 0;
      n.rto_guard = u.rto_guard && !ack.passed;
      n.rec_off = n.rto_guard ? ack.rec_left : 0;
      const proto::Grow g = proto::grow_wnd(wnd, newly, u.ssthresh, u.ca_cnt, kSsAckCap, kByteCounting != 0);
      wnd_n = g.wnd;
      n.ca_cnt = g.ca_cnt;
    }
  } else if (in.dup) {
    proto::dup_ack(u, n, o, wnd_n, wnd, proto::half_flight(flight), flight);
  }
  proto::drive_values(o, in.w, wnd_n, in.wnd_start, in.wnd_start + 1, proto::ack_rto(ack, u, kRtoInit, kRtoMax),
                      pack(n));
  return o;
}

inline ProtoOut NewRenoTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const uint32_t flight = proto::counts(in).flight;
  User n = unpack(in.user);
  proto::timeout_state(n, proto::half_flight(flight), flight);
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  // Go back N: every segment in flight is marked.
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, proto::rto_backoff(in.rto, kRtoMax), pack(n));
  return o;
}

}  // namespace tonic::ref
