// SPDX-License-Identifier: Apache-2.0
// Shared by the tests of the protocols with a rate or token credit scheme
// (protocols/ndp, protocols/irn). Reuses the port drivers, Cfg and the
// random input vectors of tb/unit/proto/proto_tb.hpp, and adds what those
// protocols need beyond them:
//  - RxDut: a Verilated protocol module read with its credit outputs
//    (rate_we_o / rate_o, tokens_we_o / tokens_o) into a ProtoCreditOut;
//  - RxPair: a model and its twin on the same inputs;
//  - RxFlowSim: one flow with the framework's side of docs/protocol-api.md
//    and docs/design/credit-schemes.md (stage 1 of incoming for every event
//    type, PULLs turned into tokens by the fixed function, the write-back of
//    every enable, the RTO timer), driven with ACK, SACK, NACK, PULL and CNP
//    events and periodic visits.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../proto/proto_tb.hpp"
#include "common/ref/proto_credit.hpp"
#include "common/ref/proto_irn.hpp"
#include "common/ref/proto_ndp.hpp"

namespace tonic::prototb {

using ref::IrnTwin;
using ref::NdpTwin;
using ref::ProtoCreditOut;

/// One combinational protocol model (no clock), every output read.
template <class Model, bool Incoming>
class RxDut {
 public:
  RxDut() : ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Model>(ctx_.get(), "top")) {}
  ~RxDut() { m_->final(); }
  RxDut(const RxDut&) = delete;
  RxDut& operator=(const RxDut&) = delete;

  ProtoCreditOut eval(const ProtoIn& in, unsigned user_w) {
    Model& m = *m_;
    const unsigned cw = proto::cnt_w(in.w);
    m.now_i = in.now;
    m.wnd_start_i = in.wnd_start;
    put_count(m.wnd_i, in.wnd, cw);
    m.next_new_i = in.next_new;
    m.posted_i = in.posted;
    put_count(m.flight_i, in.flight, cw);
    put_bits(m.acked_i, in.acked, in.w);
    put_bits(m.pending_i, in.pending, in.w);
    m.rto_i = in.rto;
    put_bits(m.user_i, in.user, user_w);
    if constexpr (Incoming) {
      m.type_i = in.type & 7U;
      m.cum_ack_i = in.cum_ack;
      m.sack_valid_i = in.sack_valid;
      m.sack_idx_i = in.sack_idx;
      m.ecn_i = in.ecn;
      m.grant_i = in.grant;
      m.old_start_i = in.old_start;
      put_count(m.newly_acked_i, in.newly_acked, cw);
      m.dup_i = in.dup;
    } else {
      m.timeout_i = in.timeout;
    }
    m.eval();
    ProtoCreditOut o;
    o.wnd_we = m.wnd_we_o;
    o.wnd = m.wnd_o;
    o.mark_we = m.mark_we_o;
    o.mark_lo = m.mark_lo_o;
    o.mark_hi = m.mark_hi_o;
    o.rto_we = m.rto_we_o;
    o.rto = m.rto_o;
    o.timer_restart = m.timer_restart_o;
    o.user_we = m.user_we_o;
    o.user = get_bits<ref::kProtoMaxUserW>(m.user_o, user_w);
    o.rate_we = m.rate_we_o;
    o.rate = m.rate_o;
    o.tokens_we = m.tokens_we_o;
    o.tokens = m.tokens_o;
    return o;
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
};

/// The model of a config (Cfg of proto_tb.hpp) and its twin on the same inputs.
template <class C>
struct RxPair {
  RxDut<typename C::Model, C::kIncoming> dut;
  ProtoCreditOut twin(const ProtoIn& in) const {
    return C::kIncoming ? C::Twin::incoming(in) : C::Twin::periodic(in);
  }
  ProtoCreditOut model(const ProtoIn& in) { return dut.eval(in, C::Twin::kUserW); }
};

inline std::string describe_rx(const ProtoIn& in, const ProtoCreditOut& dut, const ProtoCreditOut& twin,
                               unsigned user_w) {
  return "in " + ref::to_string(in, user_w) + "\n model " + ref::to_string(dut, user_w) + "\n twin  " +
         ref::to_string(twin, user_w);
}

/// Value outputs are 0 whenever their enable is 0.
inline void check_rx_output_form(const ProtoCreditOut& o, uint32_t w) {
  if (!o.wnd_we) REQUIRE(o.wnd == 0);
  if (o.wnd_we) REQUIRE((o.wnd >= 1 && o.wnd <= w));
  if (!o.mark_we) REQUIRE((o.mark_lo == 0 && o.mark_hi == 0));
  if (!o.rto_we) REQUIRE(o.rto == 0);
  if (!o.user_we) REQUIRE(o.user.none());
  if (!o.rate_we) REQUIRE(o.rate == 0);
  if (!o.tokens_we) REQUIRE(o.tokens == 0);
}

/// Serial 16-bit "a after b" (the pull number compare of the token scheme).
inline bool pull_after(uint16_t a, uint16_t b) { return static_cast<int16_t>(static_cast<uint16_t>(a - b)) > 0; }

// ---------------------------------------------------------------------------
// RxFlowSim: one flow, the framework's side.

template <class IncModel, class PerModel, class TwinT, unsigned Width>
class RxFlowSim {
 public:
  using Twin = TwinT;
  using User = typename Twin::User;
  static constexpr unsigned W = Width;

  explicit RxFlowSim(uint32_t start = 0)
      : wnd_start(start), next_new(start), wnd(std::min<uint32_t>(Twin::kInitWnd, W)), rto(Twin::kRtoInit),
        user(Twin::pack(User{})), tokens(Twin::kTokensInit), rate(Twin::kRateInit) {}

  // Time: with auto_time every event advances `now` by one; a closed loop
  // sets `now` itself.
  bool auto_time = true;
  uint32_t now = 1000;
  // State the framework keeps for the flow.
  uint32_t wnd_start;
  uint32_t next_new;
  uint32_t posted = 0xffffffffu;
  uint32_t wnd;
  uint32_t rto;
  ProtoUser user;
  std::set<uint32_t> sacked;   // SACKed segments at or above wnd_start
  std::set<uint32_t> pending;  // marked for retransmission, not yet resent
  bool timer_armed = false;
  uint32_t deadline = 0;
  uint32_t tokens;     // token scheme: permits (granted - used)
  uint16_t pull = 0;   // token scheme: last cumulative pull number
  uint32_t rate;       // rate scheme: R (RU)
  uint64_t protocol_tokens = 0;  // tokens the protocol added
  // Log of the last event.
  ProtoIn last_in;
  ProtoCreditOut last_out;
  std::vector<uint32_t> newly_marked;
  uint64_t events = 0;

  User u() const { return Twin::unpack(user); }
  void set_user(const User& v) { user = Twin::pack(v); }
  uint32_t flight() const { return next_new - wnd_start; }

  /// Send n new segments (window and credit not checked).
  void send(uint32_t n) {
    if (next_new == wnd_start && n > 0) arm();
    next_new += n;
  }
  /// Resend every pending segment.
  void resend_pending() { pending.clear(); }
  /// The lowest pending segment, if any.
  std::optional<uint32_t> lowest_pending() const {
    std::optional<uint32_t> s;
    for (uint32_t p : pending) {
      if (!s || p - wnd_start < *s - wnd_start) s = p;
    }
    return s;
  }
  bool timer_expired() const { return timer_armed && !proto::seq_lt(now, deadline); }

  /// Any event: stage 1 as the DD engine does it, then incoming.
  ProtoCreditOut rx(uint8_t type, uint32_t cum, bool sack_valid = false, uint32_t sack_idx = 0,
                    uint16_t grant = 0) {
    ProtoIn in = base();
    in.type = type;
    in.cum_ack = cum;
    in.sack_valid = sack_valid;
    in.sack_idx = sack_idx;
    in.grant = grant;
    in.old_start = wnd_start;
    const bool acks = type == ref::kRxAck || type == ref::kRxSack || type == ref::kRxNack;
    if (acks) REQUIRE(seq_le(cum, next_new));  // stage 1 drops an ack beyond next_new
    const uint32_t new_start = acks && proto::seq_lt(wnd_start, cum) ? cum : wnd_start;
    uint32_t newly = 0;
    for (uint32_t s = wnd_start; s != new_start; ++s) {
      if (!sacked.count(s)) ++newly;
      sacked.erase(s);
      pending.erase(s);
    }
    wnd_start = new_start;
    if (sack_valid && seq_le(wnd_start, sack_idx) && proto::seq_lt(sack_idx, next_new)) {
      if (sacked.insert(sack_idx).second) {
        ++newly;
        pending.erase(sack_idx);
      }
    }
    in.newly_acked = newly;
    in.dup = (type == ref::kRxAck || type == ref::kRxSack) && cum == in.old_start && flight() > 0;
    // The fixed function turns a cumulative pull number into tokens.
    if (type == ref::kRxPull && pull_after(grant, pull)) {
      tokens += static_cast<uint16_t>(grant - pull);
      pull = grant;
    }
    fill_state(in);
    return run(in, true);
  }
  ProtoCreditOut ack(uint32_t cum) { return rx(ref::kRxAck, cum); }
  ProtoCreditOut sack(uint32_t cum, uint32_t s) { return rx(ref::kRxSack, cum, true, s); }
  /// NDP: the header of trimmed segment `seg` came back (sack_valid 0).
  ProtoCreditOut trim_nack(uint32_t cum, uint32_t seg) { return rx(ref::kRxNack, cum, false, seg); }
  /// IRN: PSN `psn` arrived out of order (cum ack + the PSN, sack_valid 1).
  ProtoCreditOut irn_nack(uint32_t cum, uint32_t psn) { return rx(ref::kRxNack, cum, true, psn); }
  ProtoCreditOut pull_to(uint16_t grant) { return rx(ref::kRxPull, wnd_start, false, 0, grant); }
  ProtoCreditOut visit(bool timeout) {
    ProtoIn in = base();
    in.timeout = timeout;
    fill_state(in);
    return run(in, false);
  }
  ProtoCreditOut timeout() { return visit(true); }

 private:
  RxDut<IncModel, true> inc_;
  RxDut<PerModel, false> per_;

  void arm() {
    timer_armed = true;
    deadline = now + rto;
  }
  ProtoIn base() {
    ProtoIn in;
    in.w = W;
    if (auto_time) ++now;
    in.now = now;
    return in;
  }
  void fill_state(ProtoIn& in) const {
    in.wnd_start = wnd_start;
    in.wnd = wnd;
    in.next_new = next_new;
    in.posted = posted;
    in.flight = flight();
    for (uint32_t s : sacked) in.acked[s % W] = true;
    for (uint32_t s : pending) in.pending[s % W] = true;
    in.rto = rto;
    in.user = user;
  }
  ProtoCreditOut run(const ProtoIn& in, bool incoming) {
    const ProtoCreditOut got = incoming ? inc_.eval(in, Twin::kUserW) : per_.eval(in, Twin::kUserW);
    const ProtoCreditOut want = incoming ? Twin::incoming(in) : Twin::periodic(in);
    INFO(describe_rx(in, got, want, Twin::kUserW));
    REQUIRE(got == want);
    check_rx_output_form(got, W);
    ++events;
    last_in = in;
    last_out = got;
    apply(got);
    return got;
  }
  void apply(const ProtoCreditOut& o) {
    newly_marked.clear();
    if (o.wnd_we) wnd = o.wnd;
    if (o.mark_we) {
      const uint32_t lo = proto::seq_lt(o.mark_lo, wnd_start) ? wnd_start : o.mark_lo;
      const uint32_t hi = proto::seq_lt(next_new, o.mark_hi) ? next_new : o.mark_hi;
      for (uint32_t s = lo; proto::seq_lt(s, hi); ++s) {
        if (!sacked.count(s) && pending.insert(s).second) newly_marked.push_back(s);
      }
    }
    if (o.rto_we) rto = o.rto < Twin::kRtoMin ? Twin::kRtoMin : o.rto;
    if (o.timer_restart) arm();
    if (flight() == 0) timer_armed = false;
    if (o.user_we) user = o.user;
    if (o.rate_we) rate = o.rate;
    if (o.tokens_we) {
      tokens += o.tokens;
      protocol_tokens += o.tokens;
    }
  }
};

}  // namespace tonic::prototb
