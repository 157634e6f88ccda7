// SPDX-License-Identifier: Apache-2.0
// Shared by the protocol tests: port drivers between ProtoIn / ProtoOut and
// the Verilated tonic_proto_incoming / tonic_proto_periodic models, a
// wrapper that evaluates a model and its twin on the same inputs, random
// input vectors, and FlowSim: a one-flow model of the framework around the
// modules (stage 1 of incoming, the write-back of every enable) that the
// directed tests drive with acks, SACKs and timeouts.
#pragma once

#include <catch2/catch.hpp>

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <verilated.h>

#include "common/ref/proto_io.hpp"
#include "common/ref/proto_newreno.hpp"
#include "common/ref/proto_reno.hpp"
#include "common/ref/proto_sack.hpp"
#include "common/rng.hpp"

namespace tonic::prototb {

using ref::ProtoIn;
using ref::ProtoOut;
using ref::ProtoRing;
using ref::ProtoUser;
namespace proto = ref::proto;

// ---------------------------------------------------------------------------
// Port drivers. Scalar ports are CData/SData/IData/QData, wider ones VlWide.

template <class P, std::size_t M>
void put_bits(P& port, const std::bitset<M>& b, unsigned width) {
  static_assert(std::is_integral_v<P>, "scalar Verilator port");
  uint64_t v = 0;
  for (unsigned i = 0; i < width && i < 64; ++i) v |= static_cast<uint64_t>(b[i]) << i;
  port = static_cast<P>(v);
}
template <std::size_t N, std::size_t M>
void put_bits(VlWide<N>& port, const std::bitset<M>& b, unsigned width) {
  for (std::size_t k = 0; k < N; ++k) {
    uint32_t v = 0;
    for (unsigned j = 0; j < 32; ++j) {
      const std::size_t i = k * 32 + j;
      if (i < width && i < M && b[i]) v |= uint32_t{1} << j;
    }
    port[k] = v;
  }
}
/// A count port (CntW bits: wnd_i, flight_i, newly_acked_i): the value cut
/// to the port's width, as the twins cut it (proto::counts).
template <class P>
void put_count(P& port, uint32_t v, unsigned cnt_w) {
  static_assert(std::is_integral_v<P>, "scalar Verilator port");
  port = static_cast<P>(proto::low_bits(v, cnt_w));
}
template <std::size_t M, class P>
std::bitset<M> get_bits(const P& port, unsigned width) {
  static_assert(std::is_integral_v<P>, "scalar Verilator port");
  std::bitset<M> b;
  for (unsigned i = 0; i < width && i < 64; ++i) b[i] = (static_cast<uint64_t>(port) >> i) & 1U;
  return b;
}
template <std::size_t M, std::size_t N>
std::bitset<M> get_bits(const VlWide<N>& port, unsigned width) {
  std::bitset<M> b;
  for (unsigned i = 0; i < width && i < M; ++i) b[i] = (port[i / 32] >> (i % 32)) & 1U;
  return b;
}

// The twins are types (tb/common/ref/proto_<name>.hpp): kName, kUserW, the
// user_configs.vh constants, User, pack / unpack, incoming / periodic.
using ref::NewRenoTwin;
using ref::RenoTwin;
using ref::SackTwin;

/// A manifest config: model class, twin, ring size, incoming or periodic.
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
  ProtoOut eval(const ProtoIn& in, unsigned user_w) {
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
    ProtoOut o;
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
    return o;
  }

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
  return in;
}

// ---------------------------------------------------------------------------
// FlowSim: one flow, the framework's side of docs/protocol-api.md.

/// Serial compare helpers.
inline bool seq_le(uint32_t a, uint32_t b) { return !proto::seq_lt(b, a); }

template <class IncModel, class PerModel, class TwinT, unsigned Width>
class FlowSim {
 public:
  using Twin = TwinT;
  using User = typename Twin::User;
  static constexpr unsigned W = Width;

  explicit FlowSim(uint32_t start = 0)
      : wnd_start(start), next_new(start), wnd(Twin::kInitWnd), rto(Twin::kRtoInit),
        user(Twin::pack(User{})) {}

  // State the framework keeps for the flow.
  uint32_t now = 1000;
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
  // Log of the last event.
  ProtoIn last_in;
  ProtoOut last_out;
  std::vector<uint32_t> newly_marked;  // segments the last event made pending
  uint64_t events = 0;

  User u() const { return Twin::unpack(user); }
  void set_user(const User& v) { user = Twin::pack(v); }
  uint32_t flight() const { return next_new - wnd_start; }

  /// Send n new segments (the caller decides; the window is not checked).
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

  /// An ACK (or SACK when `sack` is set) with cumulative ack `cum`: stage 1
  /// (new window start, SACK bit, newly acked count, dup), then incoming.
  ProtoOut ack(uint32_t cum, std::optional<uint32_t> sack = std::nullopt) {
    ProtoIn in = base();
    in.type = sack ? ref::kRxSack : ref::kRxAck;
    in.cum_ack = cum;
    in.old_start = wnd_start;
    const uint32_t new_start = proto::seq_lt(wnd_start, cum) ? cum : wnd_start;
    uint32_t newly = 0;
    for (uint32_t s = wnd_start; s != new_start; ++s) {
      if (!sacked.count(s)) ++newly;
      sacked.erase(s);
      pending.erase(s);
    }
    wnd_start = new_start;
    if (sack && seq_le(wnd_start, *sack) && proto::seq_lt(*sack, next_new)) {
      in.sack_valid = true;
      in.sack_idx = *sack;
      if (sacked.insert(*sack).second) {
        ++newly;
        pending.erase(*sack);
      }
    }
    in.newly_acked = newly;
    in.dup = cum == in.old_start && flight() > 0;
    fill_state(in);
    return run(in, true);
  }

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
    in.now = ++now;
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
    ++events;
    last_in = in;
    last_out = got;
    apply(got);
    return got;
  }
  /// Write-back: every write with its enable, as the engine will do it.
  void apply(const ProtoOut& o) {
    newly_marked.clear();
    if (o.wnd_we) {
      REQUIRE(o.wnd >= 1);
      REQUIRE(o.wnd <= W);
      wnd = o.wnd;
    }
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
  }
};

}  // namespace tonic::prototb
