// SPDX-License-Identifier: Apache-2.0
// The harness of the protocols' twin tests (protocols/<name>/tests/, labels
// proto and proto_rx), generic in the twin: a model
// of a config driven through its ports (proto_ports.hpp), a wrapper that
// evaluates a model and its twin on the same inputs, the output-form and
// random-vector checks, random input vectors, and FlowSim: a one-flow model
// of the framework around the modules (stage 1 of incoming, the write-back
// of every enable, credit included) that the directed tests and the closed
// loops drive with ACK, SACK, NACK and PULL events, visits and timeouts.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <verilated.h>

#include "tonic/proto_io.hpp"
#include "tonic/rng.hpp"
#include "unit/proto/proto_ports.hpp"

namespace tonic::prototb {

using ref::ProtoRing;
using ref::ProtoUser;

/// A manifest config: model class, twin, ring size, incoming or periodic.
/// A twin is a type (protocols/<name>/twin.hpp): kName, kUserW, the
/// user_configs.vh constants, User, pack / unpack, incoming / periodic; a
/// protocol's test file includes its own.
template <class M, class T, unsigned Width, bool IsIncoming>
struct Cfg {
  using Model = M;
  using Twin = T;
  static constexpr unsigned W = Width;
  static constexpr bool kIncoming = IsIncoming;
};

// ---------------------------------------------------------------------------
// One combinational protocol model (no clock).

template <class Model, bool Incoming>
class ProtoDut {
 public:
  ProtoDut() : ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Model>(ctx_.get(), "top")) {}
  ~ProtoDut() { m_->final(); }
  ProtoDut(const ProtoDut&) = delete;
  ProtoDut& operator=(const ProtoDut&) = delete;

  /// Drive every input, evaluate, read every output.
  ProtoOut eval(const ProtoIn& in, unsigned user_w) { return eval_model<Incoming>(*m_, in, user_w); }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
};

/// The model of a config and its twin on the same inputs.
template <class C>
struct Pair {
  ProtoDut<typename C::Model, C::kIncoming> dut;
  ProtoOut twin(const ProtoIn& in) const {
    return C::kIncoming ? C::Twin::incoming(in) : C::Twin::periodic(in);
  }
  ProtoOut model(const ProtoIn& in) { return dut.eval(in, C::Twin::kUserW); }
};

inline std::string describe(const ProtoIn& in, const ProtoOut& dut, const ProtoOut& twin, unsigned user_w) {
  return "in " + ref::to_string(in, user_w) + "\n model " + ref::to_string(dut, user_w) + "\n twin  " +
         ref::to_string(twin, user_w);
}

/// Value outputs are 0 whenever their enable is 0; the window is 1..W.
inline void check_output_form(const ProtoOut& o, uint32_t w) {
  if (!o.wnd_we) REQUIRE(o.wnd == 0);
  if (o.wnd_we) REQUIRE((o.wnd >= 1 && o.wnd <= w));
  if (!o.mark_we) REQUIRE((o.mark_lo == 0 && o.mark_hi == 0));
  if (!o.rto_we) REQUIRE(o.rto == 0);
  if (!o.user_we) REQUIRE(o.user.none());
  if (!o.rate_we) REQUIRE(o.rate == 0);
  if (!o.tokens_we) REQUIRE(o.tokens == 0);
  if (!o.tokens_we) REQUIRE(!o.tokens_set);
}

/// An input where nothing happened: the model writes nothing, in the
/// output form, and equals the twin.
template <class C>
void check_writes_nothing(Pair<C>& p, const ProtoIn& in) {
  const ProtoOut got = p.model(in);
  INFO(describe(in, got, p.twin(in), C::Twin::kUserW));
  REQUIRE(got.writes_nothing());
  check_output_form(got, C::W);
  REQUIRE(got == p.twin(in));
}

/// "Nothing happened" writes nothing: all inputs zero (an ACK of nothing
/// or a visit without timeout), then `n` vectors from `gen(rng)` made quiet
/// by `quiet(in, rng)` (incoming) or with timeout 0 (periodic).
template <class C, class Gen, class Quiet>
void check_quiet_events(Rng& rng, int n, Gen&& gen, Quiet&& quiet) {
  Pair<C> p;
  ProtoIn zero;
  zero.w = C::W;
  zero.wnd = 0;
  check_writes_nothing(p, zero);
  for (int k = 0; k < n; ++k) {
    ProtoIn in = gen(rng);
    if constexpr (C::kIncoming) {
      quiet(in, rng);
    } else {
      in.timeout = false;
    }
    check_writes_nothing(p, in);
  }
}

/// How many vectors set each enable.
struct WriteCounts {
  uint64_t wnd_we = 0, mark_we = 0, rto_we = 0, restart = 0, user_we = 0, rate_we = 0, tokens_we = 0;
  std::string str() const {
    std::ostringstream s;
    s << "wnd " << wnd_we << " mark " << mark_we << " rto " << rto_we << " restart " << restart << " user "
      << user_we << " rate " << rate_we << " tokens " << tokens_we;
    return s.str();
  }
};

/// `n` vectors from `gen(rng)` through the model and its twin: every output
/// equal (the first 5 mismatches reported, then the test fails) and in the
/// output form. Returns how often each write was made.
template <class C, class Gen>
WriteCounts compare_random(Pair<C>& p, Rng& rng, int n, Gen&& gen) {
  int mismatches = 0;
  WriteCounts c;
  for (int k = 0; k < n; ++k) {
    const ProtoIn in = gen(rng);
    const ProtoOut got = p.model(in);
    const ProtoOut want = p.twin(in);
    if (got != want) {
      INFO("vector " << k << "\n" << describe(in, got, want, C::Twin::kUserW));
      CHECK(got == want);
      if (++mismatches >= 5) break;
      continue;
    }
    check_output_form(got, C::W);
    c.wnd_we += got.wnd_we;
    c.mark_we += got.mark_we;
    c.rto_we += got.rto_we;
    c.restart += got.timer_restart;
    c.user_we += got.user_we;
    c.rate_we += got.rate_we;
    c.tokens_we += got.tokens_we;
  }
  REQUIRE(mismatches == 0);
  return c;
}

// ---------------------------------------------------------------------------
// Random input vectors: mostly inside the contract (window arithmetic
// consistent), with a share of arbitrary values in every field.

inline ProtoRing random_ring(Rng& rng, uint32_t w) {
  ProtoRing r;
  switch (rng.below(5)) {
    case 0:
      break;  // empty
    case 1:
      for (uint64_t n = rng.range(1, 5); n > 0; --n) r[rng.below(w)] = true;
      break;
    case 2: {
      const uint64_t k = rng.range(1, 4);  // density 2^-k
      for (uint32_t i = 0; i < w; ++i) r[i] = rng.below(uint64_t{1} << k) == 0;
      break;
    }
    case 3:
      for (uint32_t i = 0; i < w; ++i) r[i] = rng.chance(0.5);
      break;
    default:
      for (uint32_t i = 0; i < w; ++i) r[i] = true;
      for (uint64_t n = rng.range(0, 3); n > 0; --n) r[rng.below(w)] = false;
      break;
  }
  return r;
}

/// A flow's first segment: half the time just below the 32-bit wrap
/// (within `span`), else anywhere.
inline uint32_t random_start(Rng& rng, uint64_t span) {
  return rng.chance(0.5) ? static_cast<uint32_t>(0u - rng.below(span)) : static_cast<uint32_t>(rng.bits64());
}

inline ProtoIn random_in(Rng& rng, uint32_t w, unsigned user_w, uint32_t rto_init) {
  ProtoIn in;
  in.w = w;
  const unsigned cw = proto::cnt_w(w);
  const uint32_t cmax = (uint32_t{1} << cw) - 1;
  in.now = static_cast<uint32_t>(rng.bits64());
  in.wnd_start = rng.chance(0.15) ? static_cast<uint32_t>(0u - rng.below(2 * w))  // near the wrap
                                  : static_cast<uint32_t>(rng.bits64());
  uint32_t adv = 0;
  switch (rng.below(8)) {
    case 0:
    case 1:
    case 2:
      adv = 0;
      break;
    case 3:
    case 4:
      adv = static_cast<uint32_t>(rng.range(1, 4));
      break;
    case 5:
    case 6:
      adv = static_cast<uint32_t>(rng.range(1, w));
      break;
    default:
      adv = static_cast<uint32_t>(rng.bits64());  // anything, backwards included
      break;
  }
  in.old_start = in.wnd_start - adv;
  in.flight = rng.chance(0.9) ? static_cast<uint32_t>(rng.range(0, w)) : static_cast<uint32_t>(rng.range(0, cmax));
  in.next_new = rng.chance(0.9) ? in.wnd_start + in.flight : static_cast<uint32_t>(rng.bits64());
  in.posted = in.next_new + static_cast<uint32_t>(rng.below(64));
  in.wnd = rng.chance(0.9) ? static_cast<uint32_t>(rng.range(1, w)) : static_cast<uint32_t>(rng.range(0, cmax));
  if (adv >= 1 && adv <= w && rng.chance(0.8)) {
    in.newly_acked = adv + static_cast<uint32_t>(rng.below(3));
  } else {
    in.newly_acked = rng.chance(0.8) ? static_cast<uint32_t>(rng.below(4)) : static_cast<uint32_t>(rng.range(0, cmax));
  }
  in.newly_acked &= cmax;
  in.dup = rng.chance(0.4);
  in.sack_valid = rng.chance(0.5);
  in.sack_idx = rng.chance(0.85) ? in.wnd_start + static_cast<uint32_t>(rng.range(0, w + 4)) - 2
                                 : static_cast<uint32_t>(rng.bits64());
  in.type = static_cast<uint8_t>(rng.below(8));
  in.cum_ack = rng.chance(0.7) ? in.wnd_start : static_cast<uint32_t>(rng.bits64());
  in.ecn = rng.chance(0.5);
  in.grant = static_cast<uint16_t>(rng.bits64());
  in.acked = random_ring(rng, w);
  in.pending = random_ring(rng, w);
  in.rto = rng.chance(0.6) ? rto_init << rng.below(8) : static_cast<uint32_t>(rng.bits64());
  for (unsigned i = 0; i < user_w; ++i) in.user[i] = rng.chance(0.5);
  in.timeout = rng.chance(0.5);
  // info_i: mostly consistent with the event (as stage 1 forms it), at
  // times any value.
  in.info.flow = static_cast<uint16_t>(rng.bits64());
  in.info.seg_bytes = rng.chance(0.8) ? uint16_t{1024} << rng.below(4) : static_cast<uint16_t>(rng.bits64());
  in.info.rtt_valid = rng.chance(0.7);
  in.info.echo_rtx = rng.chance(0.2);
  in.info.echo_ts = static_cast<uint32_t>(rng.bits64());
  in.info.rtt = rng.chance(0.8) ? static_cast<uint32_t>(rng.range(1, 4 * uint64_t{rto_init}))
                                : static_cast<uint32_t>(rng.bits64());
  in.info.ecn_segs = in.ecn ? static_cast<uint16_t>(in.newly_acked) : uint16_t{0};
  in.info.acked_bytes = rng.chance(0.9) ? in.newly_acked * in.info.seg_bytes : static_cast<uint32_t>(rng.bits64());
  in.info.rtx_cnt = rng.chance(0.7) ? uint8_t{0} : static_cast<uint8_t>(rng.below(4));
  return in;
}

// ---------------------------------------------------------------------------
// FlowSim: one flow, the framework's side of docs/protocol-api.md and
// docs/design/credit-schemes.md: stage 1 of incoming for every event type,
// PULLs turned into tokens by the fixed function, the write-back of every
// enable (credit included), the RTO timer. Driven with ACK, SACK, NACK, PULL
// and CNP events and periodic visits; every call is checked against the twin.

/// Serial compare helpers.
inline bool seq_le(uint32_t a, uint32_t b) { return !proto::seq_lt(b, a); }
/// Serial 16-bit "a after b" (the pull number compare of the token scheme).
inline bool pull_after(uint16_t a, uint16_t b) { return static_cast<int16_t>(static_cast<uint16_t>(a - b)) > 0; }

/// The credit constants of a twin (kTokensInit, kRateInit); 0 for a twin
/// of the window scheme, which has none.
template <class Twin, class = void>
struct CreditInit {
  static constexpr uint32_t kTokens = 0;
  static constexpr uint32_t kRate = 0;
};
template <class Twin>
struct CreditInit<Twin, std::void_t<decltype(Twin::kTokensInit), decltype(Twin::kRateInit)>> {
  static constexpr uint32_t kTokens = Twin::kTokensInit;
  static constexpr uint32_t kRate = Twin::kRateInit;
};

template <class IncModel, class PerModel, class TwinT, unsigned Width>
class FlowSim {
 public:
  using Twin = TwinT;
  using User = typename Twin::User;
  static constexpr unsigned W = Width;

  explicit FlowSim(uint32_t start = 0)
      : wnd_start(start), next_new(start), wnd(std::min<uint32_t>(Twin::kInitWnd, W)), rto(Twin::kRtoInit),
        user(Twin::pack(User{})), tokens(CreditInit<Twin>::kTokens), rate(CreditInit<Twin>::kRate) {}

  // Time: with auto_time every event advances `now` by one; a closed loop
  // sets `now` itself.
  bool auto_time = true;
  uint32_t now = 1000;
  // State the framework keeps for the flow.
  uint32_t wnd_start;
  uint32_t next_new;
  uint32_t posted = 0xffffffffu;  // unused by TCP
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
  // info_i of the next incoming events (RTT sample, echo; default: none).
  ref::EvInfo info;
  // Log of the last event.
  ProtoIn last_in;
  ProtoOut last_out;
  std::vector<uint32_t> newly_marked;  // segments the last event made pending
  uint64_t events = 0;

  User u() const { return Twin::unpack(user); }
  void set_user(const User& v) { user = Twin::pack(v); }
  uint32_t flight() const { return next_new - wnd_start; }

  /// Send n new segments (the caller decides; window and credit are not
  /// checked).
  void send(uint32_t n) {
    if (next_new == wnd_start && n > 0) arm();
    next_new += n;
  }
  /// Send new segments while the window allows.
  void send_window() {
    while (proto::seq_lt(next_new, wnd_start + wnd)) send(1);
  }
  /// Resend every pending segment (they are not window-limited).
  void resend_pending() { pending.clear(); }
  /// The lowest pending segment, if any.
  std::optional<uint32_t> lowest_pending() const {
    std::optional<uint32_t> s;
    for (uint32_t p : pending) {
      if (!s || p - wnd_start < *s - wnd_start) s = p;
    }
    return s;
  }
  /// What a sender transmits next: the lowest pending retransmission (no
  /// longer pending), else a new segment if the window allows and it is
  /// before `end` (sent); nothing otherwise.
  std::optional<uint32_t> transmit(uint32_t end) {
    std::optional<uint32_t> s = lowest_pending();
    if (s) {
      pending.erase(*s);
    } else if (proto::seq_lt(next_new, wnd_start + wnd) && proto::seq_lt(next_new, end)) {
      s = next_new;
      send(1);
    }
    return s;
  }
  bool timer_expired() const { return timer_armed && !proto::seq_lt(now, deadline); }

  /// Any event: stage 1 as the DD engine does it (which drops an ack
  /// beyond next_new), then incoming.
  ProtoOut rx(uint8_t type, uint32_t cum, bool sack_valid = false, uint32_t sack_idx = 0, uint16_t grant = 0) {
    ProtoIn in = base();
    in.type = type;
    in.cum_ack = cum;
    in.sack_valid = sack_valid;
    in.sack_idx = sack_idx;
    in.grant = grant;
    in.old_start = wnd_start;
    const bool acks = type == ref::kRxAck || type == ref::kRxSack || type == ref::kRxNack;
    if (acks) REQUIRE(seq_le(cum, next_new));
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
    in.info = info;
    // The fixed function turns a cumulative pull number into tokens.
    if (type == ref::kRxPull && pull_after(grant, pull)) {
      tokens += static_cast<uint16_t>(grant - pull);
      pull = grant;
    }
    fill_state(in);
    return run(in, true);
  }
  /// An ACK, or a TCP SACK when `sack` is set: a SACK outside [the new
  /// window start, next_new) goes in as a SACK with sack_valid 0.
  ProtoOut ack(uint32_t cum, std::optional<uint32_t> sack = std::nullopt) {
    const uint32_t new_start = proto::seq_lt(wnd_start, cum) ? cum : wnd_start;
    const bool valid = sack && seq_le(new_start, *sack) && proto::seq_lt(*sack, next_new);
    return rx(sack ? ref::kRxSack : ref::kRxAck, cum, valid, valid ? *sack : 0);
  }
  ProtoOut sack(uint32_t cum, uint32_t s) { return rx(ref::kRxSack, cum, true, s); }
  /// NDP: the header of trimmed segment `seg` came back (sack_valid 0).
  ProtoOut trim_nack(uint32_t cum, uint32_t seg) { return rx(ref::kRxNack, cum, false, seg); }
  /// IRN: PSN `psn` arrived out of order (cum ack + the PSN, sack_valid 1).
  ProtoOut irn_nack(uint32_t cum, uint32_t psn) { return rx(ref::kRxNack, cum, true, psn); }
  ProtoOut pull_to(uint16_t grant) { return rx(ref::kRxPull, wnd_start, false, 0, grant); }

  /// A periodic visit (timeout_i as given).
  ProtoOut visit(bool timeout) {
    ProtoIn in = base();
    in.timeout = timeout;
    fill_state(in);
    return run(in, false);
  }
  ProtoOut timeout() { return visit(true); }

 private:
  ProtoDut<IncModel, true> inc_;
  ProtoDut<PerModel, false> per_;

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
  ProtoOut run(const ProtoIn& in, bool incoming) {
    const ProtoOut got = incoming ? inc_.eval(in, Twin::kUserW) : per_.eval(in, Twin::kUserW);
    const ProtoOut want = incoming ? Twin::incoming(in) : Twin::periodic(in);
    INFO(describe(in, got, want, Twin::kUserW));
    REQUIRE(got == want);
    check_output_form(got, W);  // the window 1..W among the rest
    ++events;
    last_in = in;
    last_out = got;
    apply(got);
    return got;
  }
  /// Write-back: every write with its enable, as the engine will do it.
  void apply(const ProtoOut& o) {
    newly_marked.clear();
    if (o.wnd_we) wnd = o.wnd;
    if (o.mark_we) {
      // Clip to [wnd_start, next_new); mark every unacked segment.
      const uint32_t lo = proto::seq_lt(o.mark_lo, wnd_start) ? wnd_start : o.mark_lo;
      const uint32_t hi = proto::seq_lt(next_new, o.mark_hi) ? next_new : o.mark_hi;
      for (uint32_t s = lo; proto::seq_lt(s, hi); ++s) {
        if (!sacked.count(s) && pending.insert(s).second) newly_marked.push_back(s);
      }
    }
    if (o.rto_we) rto = o.rto < Twin::kRtoMin ? Twin::kRtoMin : o.rto;
    if (o.timer_restart) arm();
    if (flight() == 0) timer_armed = false;  // the framework stops it
    if (o.user_we) user = o.user;
    if (o.rate_we) rate = o.rate;
    if (o.tokens_we) {
      // A set (TONIC_TOKEN_SET) replaces the credit; FlowSim has no queue.
      tokens = o.tokens_set ? o.tokens : tokens + o.tokens;
      protocol_tokens += o.tokens;
    }
  }
};

}  // namespace tonic::prototb
