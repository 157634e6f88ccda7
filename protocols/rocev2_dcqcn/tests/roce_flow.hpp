// SPDX-License-Identifier: Apache-2.0
// The RoCEv2 protocol modules (protocols/rocev2_dcqcn, protocols/rocev2_gb0)
// driven as the DD engine drives them, for the dcqcn_rtl tests:
//  - RoceUser: user_t of protocols/rocev2_dcqcn/user_configs.vh, unpacked;
//  - RoceCfg: the constants of that file (test_dcqcn_rtl checks them against
//    the file);
//  - RoceFlow: one flow around the two Verilated models (incoming for
//    acks, NACKs and CNPs, periodic for visits; their ports driven and read
//    as ProtoIn / ProtoOut by tb/unit/proto/proto_ports.hpp), carrying the user state,
//    window start, next_new and RTO between calls and applying every write
//    with its enable; each call also checks the outputs that do not depend
//    on DCQCN against the go-back rules (loss_twin) and that rate_we_o is
//    set exactly when Rc changes or on a CNP, with rate_o = the new Rc;
//    merged() is an event and a periodic call in one cycle, as the engine
//    merges them (user_merge of user_configs.vh, mirrored by
//    RoceUser::merge).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <verilated.h>

#include "unit/proto/proto_ports.hpp"
#include "protocols/rocev2_dcqcn/dcqcn_ref.hpp"
#include "tonic/proto_common.hpp"
#include "tonic/proto_io.hpp"
#include "tonic/seq.hpp"

namespace tonic::dcqcntb {

/// The constants of protocols/rocev2_dcqcn/user_configs.vh (rocev2_gb0
/// includes that file unchanged).
struct RoceCfg {
  static constexpr uint32_t kW = 128;  // manifest parameter W
  static constexpr uint32_t kCntMask = 0xff;  // CntW = 8 bits
  static constexpr uint32_t kC = 131'072'000;
  static constexpr uint32_t kRmin = 13'107;
  static constexpr uint32_t kRai = 52'429;
  static constexpr uint32_t kRhai = 262'144;
  static constexpr uint32_t kK = 5'500;
  static constexpr uint32_t kT = 5'500;
  static constexpr uint32_t kB = 10'000'000;
  static constexpr uint32_t kF = 5;
  static constexpr uint32_t kGShift = 8;
  static constexpr uint32_t kSegBytes = 1024;
  static constexpr uint32_t kRateInit = kC;
  static constexpr uint32_t kBurstBytes = 16'384;
  static constexpr uint32_t kTokensInit = 0;
  static constexpr uint32_t kInitWnd = 120;
  static constexpr uint32_t kRtoInit = 20'000;
  static constexpr uint32_t kRtoMin = 20'000;
  static constexpr uint32_t kRtoMax = 1'280'000;
  static constexpr unsigned kUserW = 128;

  /// The reference's parameters for this configuration.
  static ref::dcqcn::Params params() {
    ref::dcqcn::Params p;
    p.c_ru = kC;
    p.rmin_ru = kRmin;
    p.rai_ru = kRai;
    p.rhai_ru = kRhai;
    p.k_cycles = kK;
    p.t_cycles = kT;
    p.b_bytes = kB;
    p.f_stages = kF;
    p.rinit_ru = kRateInit;
    return p;
  }
};

/// user_t, unpacked (first field most significant).
struct RoceUser {
  bool fresh = true;
  uint32_t rc = RoceCfg::kRateInit;  // 27 bits
  uint32_t rt = RoceCfg::kRateInit;  // 27 bits
  uint32_t alpha = 1024;             // 11 bits
  uint32_t t_cnt = 0;                // 3 bits
  uint32_t b_cnt = 0;                // 3 bits
  uint32_t base = 0;                 // 24 bits: the transmit state's sent at the last byte event or CNP
  uint32_t t_due = 0;                // 16 bits
  uint32_t k_due = 0;                // 16 bits

  /// The fields of user_t with their widths, the first the most significant
  /// (proto_common.hpp packs them: fresh is bit 127, k_due bits 15..0).
  template <class F>
  void fields(F&& f) {
    f(fresh, 1);
    f(rc, 27);
    f(rt, 27);
    f(alpha, 11);
    f(t_cnt, 3);
    f(b_cnt, 3);
    f(base, 24);
    f(t_due, 16);
    f(k_due, 16);
  }
  ref::ProtoUser pack() const { return ref::proto::pack_user(*this, RoceCfg::kUserW); }
  /// user_merge of protocols/rocev2_dcqcn/user_configs.vh: a CNP wins
  /// whole; else the call's timers, the event's byte counter, and Rc / Rt
  /// from the event if it changed Rc, else from the call.
  static RoceUser merge(uint8_t type, const RoceUser& old, const RoceUser& in, const RoceUser& per) {
    if (type == ref::kRxCnp) return in;
    RoceUser m = per;
    m.base = in.base;
    m.b_cnt = in.b_cnt;
    if (in.rc != old.rc) {
      m.rc = in.rc;
      m.rt = in.rt;
    }
    return m;
  }
  static RoceUser unpack(const ref::ProtoUser& b) {
    return ref::proto::unpack_user<RoceUser>(b, RoceCfg::kUserW);
  }
  std::string str() const {
    std::ostringstream os;
    os << "fresh=" << fresh << " rc=" << rc << " rt=" << rt << " alpha=" << alpha << " t_cnt=" << t_cnt
       << " b_cnt=" << b_cnt << " base=" << base << " t_due=" << t_due << " k_due=" << k_due;
    return os.str();
  }
};

/// Every output of one call.
using RoceOut = ref::ProtoOut;

/// The go-back rules, the part of the modules outside DCQCN, as a plain
/// function of the inputs (the plain-C++ twin of that part).
struct LossOut {
  bool mark_we = false;
  uint32_t mark_lo = 0, mark_hi = 0;
  bool rto_we = false;
  uint32_t rto = 0;
  bool timer_restart = false;
};
namespace loss_twin {
/// Incoming: a NACK marks [wnd_start, next_new); a NACK or a new ack
/// resets the RTO and restarts the timer while something is in flight.
inline LossOut incoming(uint8_t type, uint32_t old_start, uint32_t wnd_start, uint32_t next_new) {
  LossOut o;
  const bool nack = type == ref::kRxNack;
  const bool cnp = type == ref::kRxCnp;
  const bool new_ack = seq_lt(old_start, wnd_start);
  if (!cnp && (nack || new_ack)) {
    o.mark_we = nack;
    o.mark_lo = nack ? wnd_start : 0;
    o.mark_hi = nack ? next_new : 0;
    o.rto_we = true;
    o.rto = RoceCfg::kRtoInit;
    o.timer_restart = ((next_new - wnd_start) & RoceCfg::kCntMask) != 0;
  }
  return o;
}
/// Periodic: a timeout marks [wnd_start, next_new), doubles the RTO up to
/// RtoMax and restarts the timer.
inline LossOut periodic(bool timeout, uint32_t wnd_start, uint32_t next_new, uint32_t rto) {
  LossOut o;
  if (timeout) {
    o.mark_we = true;
    o.mark_lo = wnd_start;
    o.mark_hi = next_new;
    o.rto_we = true;
    const uint64_t d = uint64_t{rto} * 2;
    o.rto = d > RoceCfg::kRtoMax ? RoceCfg::kRtoMax : static_cast<uint32_t>(d);
    o.timer_restart = true;
  }
  return o;
}
}  // namespace loss_twin

/// One flow around the incoming and periodic models of one protocol.
template <class Inc, class Per>
class RoceFlow {
  // The models (declared first: the constructor builds them first).
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Inc> inc_;
  std::unique_ptr<Per> per_;

 public:
  explicit RoceFlow(uint32_t start_seq = 0)
      : ctx_(std::make_unique<VerilatedContext>()),
        inc_(std::make_unique<Inc>(ctx_.get(), "inc")),
        per_(std::make_unique<Per>(ctx_.get(), "per")),
        wnd_start(start_seq),
        next_new(start_seq) {}
  ~RoceFlow() {
    inc_->final();
    per_->final();
  }
  RoceFlow(const RoceFlow&) = delete;
  RoceFlow& operator=(const RoceFlow&) = delete;

  // What the engine keeps for the flow.
  ref::ProtoUser user = RoceUser{}.pack();
  uint32_t wnd_start;
  uint32_t next_new;
  uint32_t rto = RoceCfg::kRtoInit;
  uint32_t rate = RoceCfg::kRateInit;  // the CR engine's R
  // The transmit state (transmit.v): bytes sent, mod 2^24.
  uint32_t sent = 0;
  // Counts of what the modules did.
  uint64_t rate_writes = 0;
  uint64_t calls = 0;
  RoceOut last;

  RoceUser u() const { return RoceUser::unpack(user); }
  void set_user(const RoceUser& v) { user = v.pack(); }
  uint32_t flight() const { return next_new - wnd_start; }
  /// `bytes` left the sender (the transmit event's write, before the next call).
  void transmit(uint32_t bytes) { sent = (sent + bytes) & 0xFFFFFFU; }
  /// The byte counter as the module sees it: sent - base, mod 2^24.
  uint32_t byte_count() const { return (sent - u().base) & 0xFFFFFFU; }

  /// An incoming event at cycle `now` (low 32 bits go to now_i): `newly`
  /// segments acked cumulatively (wnd_start advances by that much for the
  /// ack-carrying types; stage 1's job). Applies the writes.
  RoceOut incoming(uint8_t type, uint32_t newly, uint64_t now) {
    const RoceOut o = event(type, newly, now);
    apply(o);
    return o;
  }

  /// An incoming event and a periodic call (no timeout: the event beats
  /// it) at cycle `now`, merged as the engine does: both modules see the
  /// state after the event's stage 1; the RTO and the rate are the event's
  /// where it writes them, else the call's; the user state is
  /// RoceUser::merge when both write it. Returns {event, call}.
  std::pair<RoceOut, RoceOut> merged(uint8_t type, uint32_t newly, uint64_t now) {
    const RoceOut i = event(type, newly, now);
    ref::ProtoIn pin = state(now);
    const RoceOut p = prototb::eval_model<false>(*per_, pin, RoceCfg::kUserW);
    check_common(p, loss_twin::periodic(false, wnd_start, next_new, rto), false);
    const RoceUser old = u();
    ++calls;
    last = i;
    if (i.user_we && p.user_we) {
      user = RoceUser::merge(type, old, RoceUser::unpack(i.user), RoceUser::unpack(p.user)).pack();
    } else if (i.user_we) {
      user = i.user;
    } else if (p.user_we) {
      user = p.user;
    }
    if (i.rate_we || p.rate_we) {
      rate = i.rate_we ? i.rate : p.rate;
      ++rate_writes;
    }
    if (i.rto_we) rto = i.rto < RoceCfg::kRtoMin ? RoceCfg::kRtoMin : i.rto;
    return {i, p};
  }

  /// A periodic visit at cycle `now` on its own (a visit in the cycle of
  /// an incoming event of the flow is merged(): the engine merges them).
  RoceOut visit(uint64_t now, bool timeout = false) {
    ref::ProtoIn in = state(now);
    in.timeout = timeout;
    const RoceOut o = prototb::eval_model<false>(*per_, in, RoceCfg::kUserW);
    check_common(o, loss_twin::periodic(timeout, wnd_start, next_new, rto), false);
    apply(o);
    return o;
  }

 private:
  /// Stage 1 of an event (wnd_start advances by `newly` for the
  /// ack-carrying types) and the incoming module on it, its outputs
  /// checked; nothing applied.
  RoceOut event(uint8_t type, uint32_t newly, uint64_t now) {
    const bool acks = type == ref::kRxAck || type == ref::kRxSack || type == ref::kRxNack;
    const uint32_t old_start = wnd_start;
    if (acks) wnd_start += newly;
    else newly = 0;
    ref::ProtoIn in = state(now);
    in.type = type;
    in.cum_ack = wnd_start;
    in.old_start = old_start;
    in.newly_acked = newly;
    in.dup = acks && newly == 0 && flight() > 0;
    const RoceOut o = prototb::eval_model<true>(*inc_, in, RoceCfg::kUserW);
    check_common(o, loss_twin::incoming(type, old_start, wnd_start, next_new), type == ref::kRxCnp);
    return o;
  }

  /// The inputs of both modules: the flow's state at cycle `now` (no SACKs,
  /// nothing pending; the other inputs 0).
  ref::ProtoIn state(uint64_t now) const {
    ref::ProtoIn in;
    in.w = RoceCfg::kW;
    in.now = static_cast<uint32_t>(now);
    in.wnd_start = wnd_start;
    in.wnd = RoceCfg::kInitWnd;
    in.next_new = next_new;
    in.posted = next_new + 1000;
    in.flight = flight();
    in.rto = rto;
    in.user = user;
    in.tx = sent;
    return in;
  }
  /// The outputs outside DCQCN, the value-0-while-disabled form and the
  /// rate write rule.
  void check_common(const RoceOut& o, const LossOut& want, bool cnp) const {
    INFO("outputs " << ref::to_string(o, RoceCfg::kUserW) << "\nuser in  " << u().str());
    REQUIRE(!o.wnd_we);
    REQUIRE(o.wnd == 0);
    REQUIRE(!o.tokens_we);
    REQUIRE(o.tokens == 0);
    REQUIRE(o.mark_we == want.mark_we);
    REQUIRE(o.mark_lo == want.mark_lo);
    REQUIRE(o.mark_hi == want.mark_hi);
    REQUIRE(o.rto_we == want.rto_we);
    REQUIRE(o.rto == want.rto);
    REQUIRE(o.timer_restart == want.timer_restart);
    if (!o.user_we) {
      REQUIRE(o.user.none());
      REQUIRE(!o.rate_we);
    }
    const uint32_t rc_old = u().rc;
    const uint32_t rc_new = o.user_we ? RoceUser::unpack(o.user).rc : rc_old;
    REQUIRE(o.rate_we == (rc_new != rc_old || cnp));
    REQUIRE(o.rate == (o.rate_we ? rc_new : 0U));
  }
  void apply(const RoceOut& o) {
    ++calls;
    last = o;
    if (o.user_we) user = o.user;
    if (o.rate_we) {
      rate = o.rate;
      ++rate_writes;
    }
    if (o.rto_we) rto = o.rto < RoceCfg::kRtoMin ? RoceCfg::kRtoMin : o.rto;
  }
};

/// The RTL state against the reference, field for field (due times as their
/// low 16 bits once the timers are started).
/// `byte_count`: the module's byte counter, sent - base mod 2^24.
inline void require_same(const RoceUser& u, const ref::dcqcn::Rp& rp, uint32_t engine_rate, uint32_t byte_count) {
  const ref::dcqcn::State s = rp.state();
  INFO("rtl " << u.str() << "\nref " << ref::dcqcn::to_string(s));
  REQUIRE(u.rc == s.rc);
  REQUIRE(u.rt == s.rt);
  REQUIRE(u.alpha == s.alpha);
  REQUIRE(u.t_cnt == s.t_cnt);
  REQUIRE(u.b_cnt == s.b_cnt);
  REQUIRE(byte_count == s.bytes);
  REQUIRE(engine_rate == s.rc);
  if (!u.fresh) {
    REQUIRE(u.t_due == (s.t_due & 0xffffU));
    REQUIRE(u.k_due == (s.k_due & 0xffffU));
  }
}

}  // namespace tonic::dcqcntb
