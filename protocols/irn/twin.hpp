// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/irn (IRN loss recovery, Mittal et al. 2018; rate
// credit scheme at a fixed rate under the BDP window): the same outputs as
// tonic_proto_incoming / tonic_proto_periodic, bit for bit, for every input
// (inputs are first cut to their port widths). Plain C++, no Verilator. The
// rules are documented in protocols/irn/README.md.
#pragma once

#include <cstdint>

#include "tonic/proto_common.hpp"
#include "tonic/protocol_consts.hpp"  // the constants of user_configs.vh, generated

namespace tonic::ref {

struct IrnTwin : registry::consts::Irn {  // kName, kUserW, kCreditScheme and the constants of user_configs.vh
  /// user_t
  struct User {
    bool in_rec = false;
    uint32_t rec_off = 0;   // 8 bits: recovery point - wnd_start
    uint32_t high_off = 0;  // 9 bits: end of the last mark - wnd_start
    template <class F>
    void fields(F&& f) {
      f(in_rec, 1);
      f(rec_off, 8);
      f(high_off, 9);
    }
    bool operator==(const User& o) const { return proto::field_values(*this) == proto::field_values(o); }
  };
  static User unpack(const ProtoUser& b) { return proto::unpack_user<User>(b, kUserW); }
  static ProtoUser pack(const User& u) { return proto::pack_user(u, kUserW); }

  /// RtoLow while at most RtoLowFlight segments are in flight, else RtoHigh.
  static uint32_t rto_for(uint32_t flight) { return flight <= kRtoLowFlight ? kRtoLow : kRtoHigh; }

  static ProtoOut incoming(const ProtoIn& in);  // tonic_proto_incoming
  static ProtoOut periodic(const ProtoIn& in);  // tonic_proto_periodic
  /// user_merge of user_configs.vh: the periodic call writes only on a
  /// timeout, which a merged call never has, so incoming's user state.
  static ProtoUser merge(uint8_t /*type*/, const ProtoUser& /*old*/, const ProtoUser& in,
                         const ProtoUser& /*per*/) {
    return in;
  }
};

inline ProtoOut IrnTwin::incoming(const ProtoIn& in) {
  const uint32_t flight = proto::counts(in).flight;
  const User u = unpack(in.user);
  // wnd_start - old_start is 0..W (stage 1 only advances): its low 10 bits.
  const uint32_t adv = (in.wnd_start - in.old_start) & 0x3ffu;
  const bool new_ack = adv != 0;
  const uint32_t dadv = new_ack ? adv : 0;
  const bool passed = new_ack && adv > u.rec_off;  // cum ack > recovery point
  const bool in_rec = u.in_rec && !passed;
  const uint32_t high_aged = dadv <= u.high_off ? u.high_off - dadv : 0;
  const uint32_t lo = high_aged;
  // The NACKed PSN lies in [wnd_start, next_new) (in the engine next_new -
  // wnd_start is the flight).
  const uint32_t off = in.sack_idx - in.wnd_start;
  const bool gap = (in.type & 7U) == kRxNack && in.sack_valid && off < in.next_new - in.wnd_start &&
                   (off & 0x1ff) > lo;

  User n;
  n.in_rec = in_rec;
  n.rec_off = in_rec ? (u.rec_off - adv) & 0xff : 0;
  n.high_off = high_aged;
  if (gap) {
    n.high_off = off & 0x1ff;
    if (!in_rec) {
      n.in_rec = true;
      n.rec_off = proto::rec_offset(flight);  // next_new - 1
    }
  }
  ProtoOut o;
  o.mark_we = gap;
  o.rto_we = new_ack;
  o.timer_restart = new_ack && flight != 0;
  o.user_we = gap || new_ack;
  proto::drive_values(o, in.w, 1, in.wnd_start + lo, in.sack_idx, rto_for(flight), pack(n));
  proto::drive_credit(o, 0, 0);
  return o;
}

inline ProtoOut IrnTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const uint32_t flight = proto::counts(in).flight;
  User n;
  n.in_rec = true;
  n.rec_off = proto::rec_offset(flight);
  n.high_off = flight & 0x1ff;
  o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, rto_for(flight), pack(n));
  proto::drive_credit(o, 0, 0);
  return o;
}

}  // namespace tonic::ref
