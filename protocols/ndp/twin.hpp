// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/ndp (NDP sender, Handley et al. 2017; token credit
// scheme): the same outputs as tonic_proto_incoming / tonic_proto_periodic,
// bit for bit, for every input (inputs are first cut to their port widths).
// Plain C++, no Verilator. The rules are documented in
// protocols/ndp/README.md.
#pragma once

#include <cstdint>

#include "tonic/proto_common.hpp"
#include "tonic/protocol_consts.hpp"  // the constants of user_configs.vh, generated

namespace tonic::ref {

struct NdpTwin : registry::consts::Ndp {  // kName, kUserW, kCreditScheme and the constants of user_configs.vh
  /// user_t
  struct User {
    bool backoff = false;  // a timeout backed the RTO off; the next new ack resets it
    template <class F>
    void fields(F&& f) {
      f(backoff, 1);
    }
    bool operator==(const User& o) const { return backoff == o.backoff; }
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

inline ProtoOut NdpTwin::incoming(const ProtoIn& in) {
  const uint32_t flight = proto::counts(in).flight;
  const User u = unpack(in.user);
  const bool new_ack = proto::seq_lt(in.old_start, in.wnd_start);
  const bool nack = (in.type & 7U) == kRxNack;
  ProtoOut o;
  o.mark_we = nack;  // the trimmed segment, whatever sack_valid says
  o.rto_we = o.user_we = new_ack && u.backoff;
  o.timer_restart = (new_ack || nack) && flight != 0;
  proto::drive_values(o, in.w, 1, in.sack_idx, in.sack_idx + 1, kRtoInit, pack(User{}));
  proto::drive_credit(o, 0, 0);
  return o;
}

inline ProtoOut NdpTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  User n;
  n.backoff = true;
  o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  o.tokens_we = true;
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, proto::rto_backoff(in.rto, kRtoMax), pack(n));
  proto::drive_credit(o, 0, kRtoTokens);
  return o;
}

}  // namespace tonic::ref
