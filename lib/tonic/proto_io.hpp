// SPDX-License-Identifier: Apache-2.0
// Inputs and outputs of the protocol modules (docs/protocol-api.md), for
// the C++ twins protocols/<name>/twin.hpp.
//
// Plain C++ (no Verilator headers); what the twins share beyond the ports
// is in proto_common.hpp. ProtoIn holds every input port of
// tonic_proto_incoming and tonic_proto_periodic (the incoming-only and
// periodic-only ones are ignored by the other module); ProtoOut holds every
// output port, the credit outputs of the rate and token schemes
// (docs/design/credit-schemes.md) included: a window-scheme protocol drives
// them to 0 (TONIC_PROTO_NO_CREDIT). Bitmaps are rings of W bits (W is a runtime value, at most
// 256): segment s is bit s % W; bits at W and above are 0. The user state is
// the packed struct of the protocol's user_configs.vh as a bit vector:
// the first field of the struct is the most significant.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "tonic/wire_codes.hpp"  // RxType, ref::RxType: generated from tonic_wire_pkg

namespace tonic::ref {

constexpr unsigned kProtoMaxW = 256;      // largest ring the twins support
// The largest user state a C++ twin holds: 64 B (the engine takes up to
// tonic_dd_pkg::UserWMax = 448 B; scripts/registry.mjs refuses a "twin" of
// a protocol wider than this). Every ProtoIn / ProtoOut carries one, and
// the event-by-event references copy them per event: 448 B made the short
// soak several times slower.
constexpr unsigned kProtoMaxUserW = 512;
using ProtoRing = std::bitset<kProtoMaxW>;
using ProtoUser = std::bitset<kProtoMaxUserW>;

// ref::RxType (kRxAck, kRxSack, ...): the plain constants of
// tonic_wire_pkg::rx_type_e, generated in tonic/wire_codes.hpp.

/// Every input port. Fields are the port names without the _i suffix.
/// The incoming module's info_i (tonic_dd_pkg::ev_info_t, field for field).
struct EvInfo {
  uint16_t flow = 0;
  uint16_t seg_bytes = 0;
  bool rtt_valid = false;
  bool echo_rtx = false;
  uint32_t echo_ts = 0;
  uint32_t rtt = 0;
  uint16_t ecn_segs = 0;
  uint32_t acked_bytes = 0;
  uint8_t rtx_cnt = 0;  // retransmissions of the segment the event names (0..3, 3 = three or more)
};

struct ProtoIn {
  uint32_t w = 128;  // module parameter W (ring size)
  // Common inputs.
  uint32_t now = 0;
  uint32_t wnd_start = 0;
  uint32_t wnd = 1;  // CntW bits
  uint32_t next_new = 0;
  uint32_t posted = 0;
  uint32_t flight = 0;  // CntW bits
  ProtoRing acked;
  ProtoRing pending;
  uint32_t rto = 0;
  ProtoUser user;
  // tx_i: the flow's transmit state (a protocol with a transmit.v; its
  // tx_t, up to 64 bits here), 0 otherwise.
  uint64_t tx = 0;
  // Incoming only.
  uint8_t type = kRxAck;  // 3 bits
  uint32_t cum_ack = 0;
  bool sack_valid = false;
  uint32_t sack_idx = 0;
  bool ecn = false;
  uint16_t grant = 0;
  uint32_t old_start = 0;
  uint32_t newly_acked = 0;  // CntW bits
  bool dup = false;
  EvInfo info;
  // Periodic only.
  bool timeout = false;
};

/// Every output port. Value fields are 0 when their enable is 0.
struct ProtoOut {
  bool wnd_we = false;
  uint32_t wnd = 0;
  bool mark_we = false;
  uint32_t mark_lo = 0;
  uint32_t mark_hi = 0;
  bool rto_we = false;
  uint32_t rto = 0;
  bool timer_restart = false;
  bool user_we = false;
  ProtoUser user;
  // Credit (rate and token schemes).
  bool rate_we = false;
  uint32_t rate = 0;    // RU (bytes per 2^20 cycles)
  bool tokens_we = false;
  uint32_t tokens = 0;  // 16 bits: tokens added
  bool tokens_set = false;  // ... or the flow's credit set to them (TONIC_TOKEN_SET)

  bool operator==(const ProtoOut& o) const {
    return wnd_we == o.wnd_we && wnd == o.wnd && mark_we == o.mark_we && mark_lo == o.mark_lo &&
           mark_hi == o.mark_hi && rto_we == o.rto_we && rto == o.rto &&
           timer_restart == o.timer_restart && user_we == o.user_we && user == o.user &&
           rate_we == o.rate_we && rate == o.rate && tokens_we == o.tokens_we && tokens == o.tokens &&
           tokens_set == o.tokens_set;
  }
  bool operator!=(const ProtoOut& o) const { return !(*this == o); }
  /// True if the module writes nothing at all (credit included).
  bool writes_nothing() const {
    return !wnd_we && !mark_we && !rto_we && !timer_restart && !user_we && !rate_we && !tokens_we;
  }
};

/// Hex string of the low `bits` bits of a bit vector (most significant first).
template <std::size_t N>
std::string to_hex(const std::bitset<N>& b, unsigned bits) {
  std::string s;
  for (int nib = static_cast<int>((bits + 3) / 4) - 1; nib >= 0; --nib) {
    unsigned v = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned i = static_cast<unsigned>(nib) * 4 + k;
      if (i < bits && b[i]) v |= 1U << k;
    }
    s += "0123456789abcdef"[v];
  }
  return s;
}

inline std::string to_string(const ProtoOut& o, unsigned user_w) {
  std::ostringstream s;
  s << "{wnd " << o.wnd_we << ":" << o.wnd << ", mark " << o.mark_we << ":[" << o.mark_lo << ","
    << o.mark_hi << "), rto " << o.rto_we << ":" << o.rto << ", restart " << o.timer_restart
    << ", user " << o.user_we << ":" << to_hex(o.user, user_w) << ", rate " << o.rate_we << ":"
    << o.rate << ", tokens " << o.tokens_we << ":" << o.tokens << (o.tokens_set ? " set" : "") << "}";
  return s.str();
}

inline std::string to_string(const ProtoIn& in, unsigned user_w) {
  std::ostringstream s;
  s << "{W " << in.w << ", now " << in.now << ", wnd_start " << in.wnd_start << ", wnd " << in.wnd
    << ", next_new " << in.next_new << ", posted " << in.posted << ", flight " << in.flight
    << ", acked " << to_hex(in.acked, in.w) << ", pending " << to_hex(in.pending, in.w) << ", rto "
    << in.rto << ", user " << to_hex(in.user, user_w) << ", type " << unsigned{in.type}
    << ", cum_ack " << in.cum_ack << ", sack " << in.sack_valid << ":" << in.sack_idx << ", ecn "
    << in.ecn << ", grant " << in.grant << ", old_start " << in.old_start << ", newly_acked "
    << in.newly_acked << ", dup " << in.dup << ", timeout " << in.timeout << "}";
  return s.str();
}

namespace proto {

/// Serial-number compare a < b (tonic_dd_pkg::seq_lt).
inline bool seq_lt(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }

/// CntW = $clog2(W) + 1: the width of wnd, flight and newly_acked.
inline unsigned cnt_w(uint32_t w) {
  unsigned l = 0;
  while ((uint32_t{1} << l) < w) ++l;
  return l + 1;
}
/// The low `bits` bits of v.
inline uint32_t low_bits(uint32_t v, unsigned bits) {
  return bits >= 32 ? v : v & ((uint32_t{1} << bits) - 1);
}

/// TONIC_PROTO_DRIVE_CREDIT(_SET): rate_o / tokens_o from the module's
/// values, each 0 while its enable is 0 (tokens cut to 16 bits);
/// tokens_set_o = tokens_we_o && set.
inline void drive_credit(ProtoOut& o, uint32_t rate, uint32_t tokens, bool set = false) {
  o.rate = o.rate_we ? rate : 0;
  o.tokens = o.tokens_we ? (tokens & 0xffffU) : 0;
  o.tokens_set = o.tokens_we && set;
}

}  // namespace proto
}  // namespace tonic::ref
