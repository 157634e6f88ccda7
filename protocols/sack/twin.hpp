// SPDX-License-Identifier: Apache-2.0
// C++ twin of protocols/sack (TCP SACK loss recovery, RFC 6675): the same
// outputs as tonic_proto_incoming / tonic_proto_periodic, bit for bit, for
// every input (inputs are first cut to their port widths). Plain C++, no
// Verilator. The rules are documented in protocols/sack/README.md.
#pragma once

#include <array>
#include <cstdint>

#include "tonic/proto_common.hpp"
#include "tonic/protocol_consts.hpp"  // the constants of user_configs.vh, generated

namespace tonic::ref {

struct SackTwin : registry::consts::Sack {  // kName, kUserW, kCreditScheme and the constants of user_configs.vh

  /// user_t. Positions are distances from wnd_start (8 bits).
  struct User {
    uint32_t dup_acks = 0;  // 2 bits
    bool in_rec = false;
    bool rto_guard = false;
    uint32_t ssthresh = UserInit::kSsthresh;  // 9 bits; UserInit: all ones, not set yet
    uint32_t ca_cnt = 0;                    // 9 bits
    uint32_t rec_off = 0;                   // RecoveryPoint - wnd_start
    uint32_t high_off = 0;                  // end of the marked range - wnd_start
    uint32_t sack_cnt = 0;                  // 0..3
    std::array<uint32_t, 3> sack_off{};     // [0] highest; unused entries 0
    uint32_t srtt8 = 0;                     // 28 bits: RFC 6298, 8 x SRTT (0 = no sample yet)
    uint32_t rttvar4 = 0;                   // 28 bits: 4 x RTTVAR
    uint32_t rtx_off = 0;                   // next_new - 1 - wnd_start at the latest loss mark
    bool rescued = false;                   // the rescue retransmission was made
    template <class F>
    void fields(F&& f) {
      f(srtt8, 28);  // first: the most significant (user_t's first field)
      f(rttvar4, 28);
      f(dup_acks, 2);
      f(in_rec, 1);
      f(rto_guard, 1);
      f(ssthresh, 9);
      f(ca_cnt, 9);
      f(rec_off, 8);
      f(high_off, 8);
      f(sack_cnt, 2);
      for (int k = 2; k >= 0; --k) f(sack_off[k], 8);  // packed [2:0][7:0]: element 2 first
      f(rtx_off, 8);
      f(rescued, 1);
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

namespace sack {

/// The three highest SACKs after this event, in the new window (offsets
/// from wnd_start): the stored ones aged by the cumulative advance `dadv`,
/// plus this event's SACK at offset `n` if `n_ok` and not already there.
inline void update_top3(const SackTwin::User& u, uint32_t dadv, bool n_ok, uint32_t n, uint32_t& cnt,
                        std::array<uint32_t, 3>& top) {
  std::array<bool, 3> alive{};
  std::array<uint32_t, 3> aged{};
  bool prefix = true;
  for (unsigned k = 0; k < 3; ++k) {
    prefix = prefix && u.sack_cnt > k && dadv <= u.sack_off[k];
    alive[k] = prefix;
    aged[k] = (u.sack_off[k] - dadv) & 0xff;
  }
  bool same = false;
  std::array<bool, 3> above{};
  for (unsigned k = 0; k < 3; ++k) {
    same = same || (alive[k] && n == aged[k]);
    above[k] = !alive[k] || n > aged[k];
  }
  const bool ins = n_ok && !same && (above[0] || above[1] || above[2]);
  const uint32_t live = alive[2] ? 3 : alive[1] ? 2 : alive[0] ? 1 : 0;
  cnt = (ins && live != 3) ? live + 1 : live;
  if (ins && above[0]) {
    top = {n, aged[0], aged[1]};
  } else if (ins && above[1]) {
    top = {aged[0], n, aged[1]};
  } else if (ins && above[2]) {
    top = {aged[0], aged[1], n};
  } else {
    top = aged;
  }
  for (unsigned k = 0; k < 3; ++k) {
    if (k >= cnt) top[k] = 0;
  }
}

}  // namespace sack

inline ProtoOut SackTwin::incoming(const ProtoIn& in) {
  const auto [wnd, flight, newly] = proto::counts(in);
  const User u = unpack(in.user);
  User n = u;
  ProtoOut o;

  const bool new_ack = proto::seq_lt(in.old_start, in.wnd_start);
  const uint32_t adv = in.wnd_start - in.old_start;
  const uint32_t dadv = new_ack ? adv : 0;
  const bool passed = new_ack && adv > u.rec_off;  // cum ack > RecoveryPoint
  const uint32_t sacked = proto::ring_popcount(in.acked, in.w);

  const uint32_t new_off = in.sack_idx - in.wnd_start;
  const bool new_ok = in.sack_valid && new_off < in.w;
  uint32_t cnt = 0;
  std::array<uint32_t, 3> top{};
  sack::update_top3(u, dadv, new_ok, new_off & 0xff, cnt, top);

  const bool third_ok = cnt == 3;
  const uint32_t third = top[2];
  const bool lost_head = third_ok && third != 0;  // IsLost(wnd_start)
  // A duplicate ack with SACK information counts only if it SACKs new data
  // (RFC 6675 section 2); one without always counts (RFC 5681 fallback).
  const bool sack_dup = in.dup && !new_ack && (!in.sack_valid || newly != 0);
  const bool third_dup = sack_dup && !u.in_rec && u.dup_acks == 2;
  const bool guard_n = u.rto_guard && !passed;
  const bool ev = new_ack || in.dup || new_ok;
  const bool enter = ev && !u.in_rec && !guard_n && (third_dup || lost_head);
  const uint32_t enter_hi = lost_head ? third : 1;
  const uint32_t high_aged = dadv <= u.high_off ? ((u.high_off - dadv) & 0xff) : 0;
  const uint32_t rec_left = (u.rec_off - adv) & 0xff;
  // In recovery: new losses (third above the marked range); lost
  // retransmissions (three SACKs above rtx_off, the last segment sent
  // before the latest mark of an unSACKed segment, while the marked range
  // still holds wnd_start); the rescue
  // retransmission of NextSeg rule 4 (once per recovery, when nothing is
  // pending or newly lost, no unsent data, room in the window and
  // next_new - 1 unSACKed).
  const uint32_t rtx_aged = dadv <= u.rtx_off ? ((u.rtx_off - dadv) & 0xff) : 0;
  const bool lost_new = third_ok && third > high_aged;
  const bool relost = lost_new && high_aged != 0 && third > rtx_aged;
  const bool fresh = third > high_aged + 1;  // the new range holds an unSACKed segment
  const uint32_t cmask = (uint32_t{1} << proto::cnt_w(in.w)) - 1;
  const bool top_sacked = cnt != 0 && ((top[0] + 1) & cmask) == flight;
  // NextSeg past rules 1 and 2; rule 3: c3 is the lowest segment at or
  // above high_off (HighRxt) that is none of the three kept SACKs, which
  // with third <= high_off makes it the lowest unSACKed one there; it must
  // lie below the highest SACK; rule 4.
  const bool idle = !lost_new && proto::ring_popcount(in.pending, in.w) == 0 && in.posted == in.next_new &&
                    flight != 0 && flight < wnd;
  uint32_t c3 = high_aged;
  while (third_ok && (c3 == top[0] || c3 == top[1] || c3 == top[2])) ++c3;
  const bool rule3 = idle && third_ok && c3 < top[0];
  const bool rescue = idle && !rule3 && !u.rescued && !top_sacked;
  const uint32_t half = proto::half_flight(flight);
  const proto::RttEst est = proto::rtt_sample({u.srtt8, u.rttvar4}, in.info.rtt);

  n.dup_acks = new_ack ? 0 : (sack_dup && !u.in_rec && u.dup_acks != 3) ? u.dup_acks + 1 : u.dup_acks;
  n.rto_guard = guard_n;
  n.rec_off = guard_n ? rec_left : 0;
  n.high_off = 0;
  n.rtx_off = 0;
  n.rescued = false;
  n.sack_cnt = cnt;
  n.sack_off = top;
  uint32_t wnd_n = 0, lo = 0, hi = 0;  // the mark range
  o.user_we = ev;
  if (ev) {
    if (new_ack) {
      // RFC 6298: a new ack with an echo (of a first transmission only under
      // Karn's rule, RttKarn).
      const bool sample = in.info.rtt_valid && !(kRttKarn != 0 && in.info.echo_rtx);
      o.rto_we = sample || u.srtt8 == 0;  // no sample yet: RtoInit
      o.timer_restart = flight != 0;
      if (sample) {
        n.srtt8 = est.srtt8;
        n.rttvar4 = est.rttvar4;
      }
    }
    if (enter) {
      o.wnd_we = o.mark_we = true;
      lo = in.wnd_start;
      hi = in.wnd_start + enter_hi;
      n.in_rec = true;
      n.ssthresh = half;
      n.ca_cnt = 0;
      n.rec_off = proto::rec_offset(flight);
      n.high_off = enter_hi;
      n.rtx_off = proto::rec_offset(flight);
      wnd_n = half + sacked;
    } else if (u.in_rec && !passed) {
      o.wnd_we = true;
      n.rec_off = rec_left;
      n.high_off = high_aged;
      n.rtx_off = rtx_aged;
      n.rescued = u.rescued;
      wnd_n = u.ssthresh + sacked;
      if (lost_new) {
        o.mark_we = true;
        lo = in.wnd_start + (relost ? 0 : high_aged);
        hi = in.wnd_start + third;
        n.high_off = third;
        if (relost || fresh) n.rtx_off = proto::rec_offset(flight);
      } else if (rule3) {
        o.mark_we = true;
        lo = in.wnd_start + high_aged;
        hi = in.wnd_start + c3 + 1;
        n.high_off = (c3 + 1) & 0xff;
        n.rtx_off = proto::rec_offset(flight);
      } else if (rescue) {
        o.mark_we = true;
        lo = in.next_new - 1;
        hi = in.next_new;
        n.rescued = true;
      }
    } else if (u.in_rec) {
      o.wnd_we = true;
      n.in_rec = false;
      n.ca_cnt = 0;
      wnd_n = u.ssthresh;
    } else if (new_ack) {
      o.wnd_we = true;
      const proto::Grow g = proto::grow_wnd(wnd, newly, u.ssthresh, u.ca_cnt, kSsAckCap, kByteCounting != 0);
      wnd_n = g.wnd;
      n.ca_cnt = g.ca_cnt;
    }
  }
  const bool sampled = new_ack && in.info.rtt_valid && !(kRttKarn != 0 && in.info.echo_rtx);
  proto::drive_values(o, in.w, wnd_n, lo, hi,
                      (sampled && u.srtt8 != 0) ? proto::rto_of({u.srtt8, u.rttvar4}, kRtoMax) : kRtoInit,
                      pack(n));
  return o;
}

inline ProtoOut SackTwin::periodic(const ProtoIn& in) {
  ProtoOut o;
  if (!in.timeout) return o;
  const uint32_t flight = proto::counts(in).flight;
  User n = unpack(in.user);
  n.dup_acks = 0;
  n.in_rec = false;
  n.rto_guard = true;
  n.ssthresh = proto::half_flight(flight);
  n.ca_cnt = 0;
  n.high_off = 0;
  n.rtx_off = 0;
  n.rescued = false;
  n.rec_off = proto::rec_offset(flight);
  o.wnd_we = o.mark_we = o.rto_we = o.timer_restart = o.user_we = true;
  proto::drive_values(o, in.w, 1, in.wnd_start, in.next_new, proto::rto_backoff(in.rto, kRtoMax), pack(n));
  return o;
}

}  // namespace tonic::ref
