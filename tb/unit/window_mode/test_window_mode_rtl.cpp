// SPDX-License-Identifier: Apache-2.0
// the window mode on the receiver RTL (docs/design/window-mode.md,
// "Alignment with the RTL" and "The experiment on the RTL"):
//  1. rules: window_mode::WindowRx (lib/tonic/window_mode.hpp) against the
//     window-mode rules of RxEngineRef (tb/common/ref/rx_engine_ref.hpp,
//     the RTL's cycle-for-cycle reference) on random arrival sequences:
//     every verdict, WBASE, control packet (cycle included) and counter;
//  2. the Verilated engine (rx_16x32, in lockstep with RxEngineRef through
//     RxTb) against WindowRx on random arrival sequences: every decision
//     and every control packet in order, the timer fires at the scan's
//     visit no earlier than the model's deadline and at most FlowCount - 1
//     cycles plus the cycles the scan pointer was held by stage 1 later
//     (receiver.md, "Timers by scan");
//  3. the window-mode experiment of test_window_mode_experiment.cpp with the RTL as
//     the receiver: window_mode::Sender -> channel -> data port; ctl port ->
//     channel -> Sender. Writes build/reports/window_mode_rtl.json;
//  4. a packet beyond the message end is dropped (counted as beyond, no
//     RESEND) and does not block completion (was "[.rtlbug]", the RTL bug
//     fixed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <queue>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "Vrx_16x128_t160.h"
#include "Vrx_16x128_t48.h"
#include "Vrx_16x32.h"
#include "Vrx_16x32_t160.h"
#include "Vrx_16x64_t160.h"
#include "tonic/harness.hpp"
#include "common/ref/rx_engine_ref.hpp"
#include "tonic/window_mode.hpp"
#include "tonic/rng.hpp"
#include "rx/rx_tb.hpp"
#include "window_mode_loop.hpp"
#include "window_mode_report.hpp"

using namespace tonic;
using namespace tonic::window_mode;

namespace {

Verdict verdict_of(const RxDlv& d) {
  switch (d.reason) {
    case RxReason::kOk: return Verdict::kDeliver;
    case RxReason::kDuplicate: return Verdict::kDuplicate;
    case RxReason::kBeyond: return Verdict::kBeyondWindow;
    case RxReason::kZombie: return Verdict::kZombie;
    case RxReason::kUnknown: return Verdict::kClosed;
    default: return Verdict::kStale;  // trimmed / go-back-N: no window-mode counterpart
  }
}

/// The model's verdict as the engine's decision shows it: beyond the
/// message is reason `beyond`, as beyond the window (no RESEND: the
/// control packets tell them apart).
Verdict engine_view(Verdict v) { return v == Verdict::kBeyondMessage ? Verdict::kBeyondWindow : v; }

/// A WindowRx control packet in the engine's ctl format.
RxCtl rx_ctl_of(uint16_t flow, const Ctl& c) {
  RxCtl r;
  r.flow = flow;
  r.type = c.complete ? ref::kRxAck : ref::kRxResend;
  r.cum_ack = c.wbase;
  r.sack_valid = c.sack_valid;
  r.sack_idx = c.sack_idx;
  r.go_back = c.go_back;
  return r;
}

// ------------------------------------------------------- random arrivals

/// One cycle of stimulus for one flow.
struct Ev {
  enum Kind { kIdle, kOpen, kClose, kData } kind = kIdle;
  RxCfg cfg;
  RxDesc d;
  MsgTag tag;
  uint32_t first = 0, count = 0;
};

/// Random window-mode stimulus for one flow, steered by the model's state:
/// OPEN / CLOSE / re-OPEN, in-order, held, duplicate, below, beyond-window,
/// beyond-message (at or past first + count, in and beyond the window) and
/// far-away indices, zombies (old MSGID, other node), arrivals on a closed
/// flow, and idle gaps of up to 4 T (timer expiries, go-backs).
class ArrivalGen {
 public:
  ArrivalGen(Rng& rng, uint16_t flow, uint32_t w, uint64_t t) : rng_(rng), flow_(flow), w_(w), t_(t) {}

  Ev next(const WindowRx& m) {
    Ev e;
    ++since_open_;
    if (gap_ > 0) {
      --gap_;
      return e;
    }
    // The generator's own open state: the engine's model may lag by a cycle.
    if (!opened_) {
      if (rng_.chance(0.05) || !ever_) return open();
      if (rng_.chance(0.3)) return data(m, tag_, first_);
      return e;
    }
    if (rng_.chance(0.002)) {
      opened_ = false;
      e.kind = Ev::kClose;
      e.cfg.close = true;
      e.cfg.flow = flow_;
      return e;
    }
    if (rng_.chance(0.003) || (m.complete() && rng_.chance(0.02))) return open();
    if (rng_.chance(0.01)) {
      gap_ = rng_.below(4 * t_ + 20);
      return e;
    }
    if (rng_.chance(0.55)) {
      if (rng_.chance(0.05)) return data(m, MsgTag{tag_.node, tag_.ctx, (tag_.msgid - 1) & 0xFFFFF}, m.wbase());
      if (rng_.chance(0.02)) return data(m, MsgTag{tag_.node ^ 1, tag_.ctx, tag_.msgid}, m.wbase());
      return data(m, tag_, pick(m));
    }
    return e;
  }

 private:
  Ev open() {
    Ev e;
    e.kind = Ev::kOpen;
    opened_ = ever_ = true;
    since_open_ = 0;
    msgid_ = (msgid_ + 1 + static_cast<uint32_t>(rng_.below(3))) & 0xFFFFF;
    tag_ = MsgTag{static_cast<uint32_t>(rng_.below(65536)), static_cast<uint32_t>(rng_.below(65536)), msgid_};
    first_ = rng_.chance(0.3) ? 0xFFFF'FFFFu - static_cast<uint32_t>(rng_.below(400))
                              : static_cast<uint32_t>(rng_.bits64());
    count_ = rng_.chance(0.2) ? 0 : 1 + static_cast<uint32_t>(rng_.below(rng_.chance(0.5) ? 40 : 400));
    e.cfg.flow = flow_;
    e.cfg.mode = RxMode::kWindow;
    e.cfg.first = first_;
    e.cfg.count = count_;
    e.cfg.node = static_cast<uint16_t>(tag_.node);
    e.cfg.ctx = static_cast<uint16_t>(tag_.ctx);
    e.cfg.msgid = tag_.msgid;
    e.tag = tag_;
    e.first = first_;
    e.count = count_;
    return e;
  }
  uint32_t pick(const WindowRx& m) {
    const uint32_t b = m.wbase();
    if (m.complete() && since_open_ > 2) return b - 60 + static_cast<uint32_t>(rng_.below(3 * w_));  // anything: duplicate
    uint32_t i;
    if (rng_.chance(0.3))
      i = b;  // progress
    else if (rng_.chance(0.03))
      i = count_ == 0 ? b + 0x4000'0000u : b - 0x4000'0000u;  // far beyond / far below
    else
      i = b - 8 + static_cast<uint32_t>(rng_.below(w_ + 24));
    // Past the end of a bounded message: mostly kept inside it, some go
    // through (in the window or beyond it; test 4), plus a few picked there.
    if (count_ != 0 && !seq_lt(i, first_ + count_) && rng_.chance(0.7)) i = first_;
    if (count_ != 0 && rng_.chance(0.02)) i = first_ + count_ + static_cast<uint32_t>(rng_.below(w_ + 8));
    return i;
  }
  Ev data(const WindowRx&, const MsgTag& tag, uint32_t idx) {
    Ev e;
    e.kind = Ev::kData;
    e.tag = tag;
    e.d.flow = flow_;
    e.d.idx = idx;
    e.d.node = static_cast<uint16_t>(tag.node);
    e.d.ctx = static_cast<uint16_t>(tag.ctx);
    e.d.msgid = tag.msgid;
    e.d.txid = static_cast<uint8_t>(rng_.below(4));
    e.d.ecn = rng_.chance(0.1);  // carried, not used by window mode
    return e;
  }

  Rng& rng_;
  uint16_t flow_;
  uint32_t w_;
  uint64_t t_;
  uint64_t gap_ = 0;
  bool opened_ = false, ever_ = false;
  uint64_t since_open_ = 0;
  uint32_t msgid_ = 0x100;
  MsgTag tag_;
  uint32_t first_ = 0, count_ = 0;
};

void apply_cfg(WindowRx& m, const Ev& e, uint64_t cycle) {
  if (e.kind == Ev::kOpen) m.open(cycle, e.tag, e.first, e.count);
  if (e.kind == Ev::kClose) m.close();
}

}  // namespace

// ------------------------------------------------------------ 1. the rules

TEST_CASE("window_mode rtl: WindowRx and RxEngineRef's window mode agree on random arrivals",
          "[window_mode][rtl][stress]") {
  TONIC_SEED(0x3a);
  Rng rng(tonic_seed_);
  uint64_t n_arr = 0, n_ctl = 0, n_timer = 0, n_gb = 0, n_done = 0, n_beyond = 0, n_past = 0, n_zombie = 0;
  for (uint32_t run = 0; run < 240; ++run) {
    RxEngineParams p;
    p.flows = 16;
    p.w = 32u << rng.below(4);
    p.resend_timeout = 1 + static_cast<uint32_t>(rng.below(120));
    p.go_back_after = 1 + static_cast<uint32_t>(rng.below(5));
    // Odd runs: the timer looked at by a sparse random "scan" (WindowRx
    // timer_by_visit, visits given); even runs: looked at every cycle
    // (WindowRx's own deadlines).
    const bool sampled = run % 2 == 1;
    const double visit_p = 1.0 / static_cast<double>(1 + rng.below(24));
    RxEngineRef ref(p);
    WindowConfig wc;
    wc.w = p.w;
    wc.resend_timeout = p.resend_timeout;
    wc.go_back_after = p.go_back_after;
    wc.timer_by_visit = sampled;
    WindowRx m(wc);
    const uint16_t f = static_cast<uint16_t>(rng.below(16));
    ArrivalGen gen(rng, f, p.w, p.resend_timeout);
    INFO("run " << run << " W " << p.w << " T " << p.resend_timeout << " G " << p.go_back_after << " sampled "
                << sampled);
    auto same_ctl = [&](const std::vector<Ctl>& mc, const std::vector<RxCtl>& rc, uint32_t c) {
      REQUIRE(mc.size() == rc.size());
      for (std::size_t k = 0; k < mc.size(); ++k) {
        INFO("cycle " << c << " model " << str(rx_ctl_of(f, mc[k])) << " ref " << str(rc[k]));
        REQUIRE(rx_ctl_of(f, mc[k]) == rc[k]);
        REQUIRE(mc[k].cycle == c);
        n_timer += mc[k].timeout;
        n_gb += mc[k].go_back;
      }
      n_ctl += mc.size();
    };
    for (uint32_t c = 0; c < 4000; ++c) {
      const Ev e = gen.next(m);
      if (e.kind == Ev::kOpen || e.kind == Ev::kClose) {
        ref.config(e.cfg, c);
        apply_cfg(m, e, c);
      } else if (e.kind == Ev::kData) {
        const uint64_t done_before = m.counters().completed;
        const RxEngineRef::Result r = ref.descriptor(e.d, c);
        const Verdict v = m.arrive(c, e.tag, e.d.idx);
        INFO("cycle " << c << " idx " << e.d.idx << " model " << to_string(v) << " ref " << str(r.dlv));
        REQUIRE(verdict_of(r.dlv) == engine_view(v));
        REQUIRE(r.dlv.deliver == (v == Verdict::kDeliver));
        REQUIRE(r.done == (m.counters().completed != done_before));
        if (m.is_open()) REQUIRE(ref.flow(f).wbase == m.wbase());
        same_ctl(m.take_ctl(), r.ctl, c);
        ++n_arr;
      }
      if (!sampled || rng.chance(visit_p)) {
        std::vector<RxCtl> rc;
        if (auto s = ref.scan_visit(f, c)) rc.push_back(*s);
        if (sampled)
          m.visit(c);
        else
          m.advance(c);
        same_ctl(m.take_ctl(), rc, c);
      }
    }
    const RxEngineStats& st = ref.stats();
    const Counters& mc = m.counters();
    CHECK(st.unknown == mc.closed);
    CHECK(st.zombie == mc.zombies);
    CHECK(st.duplicate == mc.duplicates);
    CHECK(st.beyond == mc.beyond_window + mc.beyond_message);  // one engine counter
    CHECK(st.resends == mc.resends);
    CHECK(st.gobacks == mc.go_backs);
    CHECK(st.completed == mc.completed);
    n_done += mc.completed;
    n_beyond += mc.beyond_window;
    n_past += mc.beyond_message;
    n_zombie += mc.zombies;
  }
  CHECK(n_timer > 100);
  CHECK(n_past > 100);
  CHECK(n_gb > 10);
  CHECK(n_done > 20);
  CHECK(n_beyond > 100);
  CHECK(n_zombie > 100);
  WARN("rules: " << n_arr << " arrivals, " << n_ctl << " control packets (" << n_timer << " timer, " << n_gb
                 << " go-back), " << n_beyond << " beyond window, " << n_past << " beyond message, " << n_zombie
                 << " zombies, " << n_done
                 << " completions");
}

// ------------------------------------------------- 2. the RTL against WindowRx

TEST_CASE("window_mode rtl: engine RTL (rx_16x32) against WindowRx, timer within the scan's lateness",
          "[window_mode][rtl][stress]") {
  TONIC_SEED(0x3b);
  Rng rng(tonic_seed_);
  const RxEngineParams p;  // rx_16x32: 16 flows, W 32, ResendTimeout 60, GoBackAfter 3
  uint64_t n_fire = 0, n_late_max = 0, n_dlv = 0, n_ctl = 0;
  for (uint32_t run = 0; run < 40; ++run) {
    RxTb<Vrx_16x32> tb(p);  // also checks the RTL against RxEngineRef every cycle
    WindowConfig wc;
    wc.w = p.w;
    wc.resend_timeout = p.resend_timeout;
    wc.go_back_after = p.go_back_after;
    wc.timer_by_visit = true;
    WindowRx m(wc);
    const uint16_t f = static_cast<uint16_t>(rng.below(16));
    ArrivalGen gen(rng, f, p.w, p.resend_timeout);
    std::vector<Verdict> want_dlv;
    std::vector<RxCtl> want_ctl;
    std::vector<uint8_t> s1_on_f;  // per cycle: stage 1 held flow f (the scan pointer may wait)
    std::optional<Ev> s1, offer;
    RxEngineStats prev = tb.ref().stats();
    const uint32_t kCycles = 6000, kDrain = 300;
    INFO("run " << run << " flow " << f);
    for (uint64_t k = 0; k < kCycles + kDrain; ++k) {
      Ev e = offer ? *offer : (k < kCycles ? gen.next(m) : Ev{});
      if (k == kCycles && !offer) {  // drain: CLOSE stops the timer, the queue empties
        e.kind = Ev::kClose;
        e.cfg.close = true;
        e.cfg.flow = f;
      }
      offer.reset();
      RxEngineIn in;
      in.cfg_valid = e.kind == Ev::kOpen || e.kind == Ev::kClose;
      in.cfg = e.cfg;
      in.data_valid = e.kind == Ev::kData;
      in.data = e.d;
      const bool took = tb.cycle(in);  // cycle k; stage 1 works on s1
      INFO("cycle " << k);
      s1_on_f.push_back(s1.has_value());
      uint32_t s1_resends = 0;  // stage 1's (beyond-window) RESENDs of cycle k
      if (s1) {
        if (s1->kind == Ev::kData) {
          want_dlv.push_back(m.arrive(k, s1->tag, s1->d.idx));
        } else {
          apply_cfg(m, *s1, k);
        }
        for (const Ctl& c : m.take_ctl()) {
          want_ctl.push_back(rx_ctl_of(f, c));
          s1_resends += !c.complete;
        }
      }
      s1.reset();
      if (in.cfg_valid || took) s1 = e;
      if (in.data_valid && !took) offer = e;
      // The scan's RESEND of cycle k: resends that are not stage 1's
      // (beyond-window) ones, counted in the cycle they are made (the
      // reference's counters; stats_o shows them later and RxTb checks it
      // against them). A beyond-message drop counts `beyond`, no RESEND;
      // a wrong stage-1 count shows in the control packets compared below.
      const RxEngineStats st = tb.ref().stats();
      const uint32_t scan = (st.resends - prev.resends) - s1_resends;
      prev = st;
      const uint64_t due = m.next_timer();
      auto bound = [&]() {  // FlowCount - 1, plus the cycles stage 1 held flow f since the deadline
        uint64_t held = 0;
        for (uint64_t c = due; c <= k; ++c) held += s1_on_f[c];
        return uint64_t{p.flows} - 1 + held;
      };
      REQUIRE(scan <= 1);
      if (scan == 1) {
        REQUIRE(due <= k);  // never early
        INFO("deadline " << due << " fired " << k);
        REQUIRE(k - due <= bound());
        n_late_max = std::max<uint64_t>(n_late_max, k - due);
        m.visit(k);
        const std::vector<Ctl> mc = m.take_ctl();
        REQUIRE(mc.size() == 1);
        want_ctl.push_back(rx_ctl_of(f, mc[0]));
        ++n_fire;
      } else if (due <= k) {
        INFO("deadline " << due << " not fired by " << k);

        REQUIRE(k - due < bound());  // still within the scan's lateness
      }
    }
    // Every decision and every control packet, in order.
    const std::vector<RxDlv>& got_dlv = tb.dlv();
    REQUIRE(got_dlv.size() == want_dlv.size());
    for (std::size_t i = 0; i < got_dlv.size(); ++i) {
      INFO("decision " << i << " rtl " << str(got_dlv[i]) << " model " << to_string(want_dlv[i]));
      REQUIRE(verdict_of(got_dlv[i]) == engine_view(want_dlv[i]));
    }
    const std::vector<RxCtl>& got_ctl = tb.ctl();
    for (std::size_t i = 0; i < std::min(got_ctl.size(), want_ctl.size()); ++i) {
      INFO("ctl " << i << " rtl " << str(got_ctl[i]) << " model " << str(want_ctl[i]));
      REQUIRE(got_ctl[i] == want_ctl[i]);
    }
    REQUIRE(got_ctl.size() == want_ctl.size());
    CHECK(tb.done().size() == m.counters().completed);
    n_dlv += got_dlv.size();
    n_ctl += got_ctl.size();
  }
  CHECK(n_fire > 50);
  WARN("RTL vs WindowRx: " << n_dlv << " decisions, " << n_ctl << " control packets, " << n_fire
                           << " timer RESENDs, latest " << n_late_max << " cycles after the model's deadline");
}

// ------------------------------------------------------ 3. the experiment

namespace {

// Scenario constants: test_window_mode_experiment.cpp's (docs/design/window-mode.md).
constexpr uint64_t kOneWay = 16;
constexpr uint32_t kReorderCount = 4096;
constexpr uint64_t kReorderDist = 64;
constexpr uint32_t kReorderSeeds = 8;
constexpr uint64_t kLossJitter = 8;
constexpr uint32_t kLossSeeds = 32;
// Per run; beyond it a run counts as incomplete (and as kMaxCycles in the
// mean). The WBASE-only sender at W 32 / 64 under reordering runs into it (the
// model needs ~900k / ~160k cycles there): its figure is an upper bound.
// Whole message at 1024 packets and 0.5 % is heavy-tailed (mean ~100k
// cycles), hence the larger cap for it.
constexpr uint64_t kMaxCycles = 400'000;
constexpr uint64_t kMaxCyclesWhole = 2'000'000;

/// What the sender does with the RTL's control packets.
enum class Scheme : uint8_t {
  kBaseOnly,  // partial, the sender ignores sack_idx: RESEND(WBASE), go-back
  kSack,      // partial, beyond-window RESENDs resend WBASE and the dropped index (sack_idx)
  kWhole,    // whole message: a timer RESEND makes the host re-OPEN the context under
             // MSGID + 1 (the old attempt's packets become zombies) and restart the sender
};

const char* scheme_name(Scheme s) {
  switch (s) {
    case Scheme::kBaseOnly: return "WBASE only (sack_idx ignored)";
    case Scheme::kSack: return "WBASE+dropped (sack_idx)";
    case Scheme::kWhole: return "whole message";
  }
  return "?";
}

struct RtlRun {
  uint32_t count = 1024;
  uint64_t jitter = 0;
  double loss = 0;
  Scheme scheme = Scheme::kBaseOnly;
  uint64_t seed = 1;
  uint64_t max_cycles = kMaxCycles;
};

struct RtlResult {
  bool complete = false;
  uint64_t done_cycle = 0;
  uint64_t retx = 0, beyond = 0, timeouts = 0, go_backs = 0, restarts = 0, zombies = 0;
};

/// One message through the RTL: per cycle t, the data channel offers at
/// most one packet (earliest target <= t) to the data port, the engine
/// steps, a control packet leaving reaches the sender 16 cycles later, the
/// sender sends at most one packet. A control packet's origin is in the
/// packet: an ACK is the completion ACK, a RESEND with sack_valid the
/// beyond-window one (sack_idx = the index dropped), one without it the
/// timer's.
template <class Model>
RtlResult run_rtl(const RtlRun& c, const RxEngineParams& params) {
  RtlResult res;
  Harness<Model> h;
  h.reset();
  Model& d = h.dut();
  RxEngineRef ref(params);  // in lockstep: checks the outputs used
  Rng rng(c.seed);
  const MsgTag tag{3, 7, 0x5a5a5};
  const uint16_t flow = 5;
  TxConfig tc;
  tc.tag = tag;
  tc.first = 0;
  tc.count = c.count;
  tc.pace = 1;
  tc.recovery = c.scheme == Scheme::kWhole ? Recovery::kWholeMessage : Recovery::kPartial;
  tc.beyond = c.scheme == Scheme::kSack ? BeyondAction::kBoth : BeyondAction::kBase;
  tc.holdoff = 2 * kOneWay;
  Sender tx(tc);

  using Item = std::tuple<uint64_t, uint64_t, TxPkt>;
  auto later = [](const Item& a, const Item& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
  };
  std::priority_queue<Item, std::vector<Item>, decltype(later)> data(later);
  std::deque<std::pair<uint64_t, Ctl>> ctl;  // fixed delay: FIFO
  uint32_t attempt = 0;
  auto open_cfg = [&](uint32_t a) {
    RxCfg o;
    o.flow = flow;
    o.mode = RxMode::kWindow;
    o.first = 0;
    o.count = c.count;
    o.node = static_cast<uint16_t>(tag.node);
    o.ctx = static_cast<uint16_t>(tag.ctx);
    o.msgid = (tag.msgid + a) & 0xFFFFF;
    return o;
  };
  std::optional<RxCfg> cfg = open_cfg(0);
  bool held = false;  // a packet offered to the data port
  TxPkt held_p;

  for (uint64_t t = 0; t < c.max_cycles; ++t) {
    if (!held && !data.empty() && std::get<0>(data.top()) <= t) {
      held = true;
      held_p = std::get<2>(data.top());
      data.pop();
    }
    const std::optional<RxCfg> cfg_driven = cfg;
    d.cfg_valid_i = cfg.has_value();
    rx_write_port(d.cfg_i, pack_cfg(cfg ? *cfg : RxCfg{}));
    RxDesc desc;
    if (held) {
      desc.flow = flow;
      desc.idx = held_p.idx;
      desc.node = static_cast<uint16_t>(held_p.tag.node);
      desc.ctx = static_cast<uint16_t>(held_p.tag.ctx);
      desc.msgid = (held_p.tag.msgid + held_p.attempt) & 0xFFFFF;
    }
    d.data_valid_i = held;
    rx_write_port(d.data_i, pack_desc(desc));
    d.ctl_ready_i = 1;
    h.eval();
    RxEngineIn in;
    in.cfg_valid = cfg.has_value();
    if (cfg) in.cfg = *cfg;
    in.data_valid = held;
    in.data = desc;
    const RxEngineOut o = ref.step(in);
    const bool took = held && d.data_ready_o && !cfg;
    const bool done = d.done_valid_o;
    if (bool(d.data_ready_o) != o.data_ready || bool(d.ctl_valid_o) != o.ctl_valid ||
        bool(d.dlv_valid_o) != o.dlv_valid || done != o.done_valid ||
        (o.ctl_valid && !(unpack_ctl(rx_read_port(d.ctl_o, kCtlW)) == o.ctl)) ||
        (o.dlv_valid && !(unpack_dlv(rx_read_port(d.dlv_o, kDlvW)) == o.dlv)))
      throw std::logic_error("run_rtl: the RTL and RxEngineRef differ in cycle " + std::to_string(t));
    if (d.ctl_valid_o) {
      const RxCtl x = unpack_ctl(rx_read_port(d.ctl_o, kCtlW));
      if (x.type != ref::kRxAck && x.type != ref::kRxResend)
        throw std::logic_error("run_rtl: a window-mode control packet neither ACK nor RESEND");
      const bool timer = x.type == ref::kRxResend && !x.sack_valid;
      Ctl w;
      w.cycle = t;
      w.wbase = x.cum_ack;
      w.go_back = x.go_back;
      w.timeout = timer;
      w.complete = x.type == ref::kRxAck;
      w.sack_valid = x.sack_valid;  // the RTL's field (the sender's policy decides its use)
      w.sack_idx = x.sack_idx;
      if (c.scheme == Scheme::kWhole && timer) {
        ++attempt;  // the host discards the attempt: re-OPEN under the next MSGID
        cfg = open_cfg(attempt);
        w.attempt = attempt;
        w.go_back = true;
      }
      ctl.emplace_back(t + kOneWay, w);
    }
    h.tick();
    if (took) held = false;
    // The OPEN driven this cycle was taken (cfg_ready is 1); a re-OPEN the
    // host asked for in this very cycle (another MSGID) goes next cycle.
    if (cfg_driven && cfg && cfg->msgid == cfg_driven->msgid) cfg.reset();
    if (done) {
      res.complete = true;
      res.done_cycle = t;
      break;
    }
    while (!ctl.empty() && ctl.front().first <= t) {
      tx.on_ctl(t, ctl.front().second);
      ctl.pop_front();
    }
    if (auto pk = tx.poll(t)) {
      if (c.loss > 0 && rng.chance(c.loss)) continue;
      data.emplace(t + kOneWay + (c.jitter ? rng.below(c.jitter + 1) : 0), rng.bits64(), *pk);
    }
  }
  const RxEngineStats st = ref.stats();
  res.retx = tx.counters().retransmits;
  res.restarts = tx.counters().restarts;
  res.beyond = st.beyond;
  res.timeouts = st.resends - st.beyond;
  res.go_backs = st.gobacks;
  res.zombies = st.zombie;
  return res;
}

struct Mean {
  double done = 0, retx = 0, beyond = 0, timeouts = 0, restarts = 0;
  uint32_t incomplete = 0, runs = 0;
};

template <class Model>
Mean run_mean(RtlRun c, const RxEngineParams& params, uint32_t seeds, uint64_t base) {
  Mean m;
  for (uint32_t s = 0; s < seeds; ++s) {
    c.seed = base + s;
    const RtlResult r = run_rtl<Model>(c, params);
    m.incomplete += !r.complete;
    m.done += static_cast<double>(r.complete ? r.done_cycle : c.max_cycles);
    m.retx += r.retx;
    m.beyond += r.beyond;
    m.timeouts += r.timeouts;
    m.restarts += r.restarts;
  }
  m.runs = seeds;
  for (double* v : {&m.done, &m.retx, &m.beyond, &m.timeouts, &m.restarts}) *v /= seeds;
  return m;
}

}  // namespace

namespace {

RxEngineParams rx_params(uint32_t w, uint32_t t) {  // rtl/manifest/rx.json, rx_16x<w>_t<t>
  RxEngineParams p;
  p.flows = 16;
  p.w = w;
  p.resend_timeout = t;
  p.go_back_after = 3;
  return p;
}

/// The plain-C++ model of the same scenario (window_mode_loop.hpp), for the
/// columns next to the RTL's.
double model_mean_done(LoopConfig c, uint32_t seeds, uint64_t base) {
  double sum = 0;
  for (uint32_t s = 0; s < seeds; ++s) {
    c.seed = base + s;
    sum += static_cast<double>(run_loop(c).done_cycle);
  }
  return sum / seeds;
}

struct ReorderRow {
  uint32_t w;
  Scheme scheme;
  Mean ordered, reordered;
  double model = 0;  // the model's throughput fraction, same scheme
  double fraction() const { return ordered.done / reordered.done; }
};

struct LossRow {
  uint32_t count;
  double loss;
  Mean emu, rtl, whole;
  double model_partial = 0, model_base = 0, model_whole = 0;  // cycles
};

template <class Model>
void reorder_rows(uint32_t w, uint64_t seed, std::vector<ReorderRow>& out) {
  const RxEngineParams p = rx_params(w, 160);
  RtlRun c;
  c.count = kReorderCount;
  c.jitter = 0;
  const Mean ordered = run_mean<Model>(c, p, 1, seed);  // no loss, no jitter: every seed the same
  LoopConfig mc;
  mc.count = kReorderCount;
  mc.w = w;
  mc.delay = mc.ctl_delay = kOneWay;
  mc.timeout = 160;
  mc.go_back_after = 3;
  const double m_ordered = model_mean_done(mc, 1, seed);
  mc.jitter = kReorderDist;
  for (Scheme s : {Scheme::kBaseOnly, Scheme::kSack}) {
    c.scheme = s;
    c.jitter = kReorderDist;
    ReorderRow row{w, s, ordered, run_mean<Model>(c, p, kReorderSeeds, seed)};
    mc.beyond = s == Scheme::kSack ? BeyondAction::kBoth : BeyondAction::kBase;
    row.model = m_ordered / model_mean_done(mc, kReorderSeeds, seed);
    out.push_back(row);
  }
}

}  // namespace

TEST_CASE("window_mode rtl: window-mode experiment with the receiver RTL", "[window_mode][rtl][stress]") {
  const uint64_t seed = test_seed(1, "window_mode rtl experiment");
  CAPTURE(seed);

  // ---------------------------------------------------------------- (a)
  std::vector<ReorderRow> ra;
  reorder_rows<Vrx_16x32_t160>(32, seed, ra);
  reorder_rows<Vrx_16x64_t160>(64, seed, ra);
  reorder_rows<Vrx_16x128_t160>(128, seed, ra);
  std::ostringstream ta;
  ta << "(a) RTL, reordering distance " << kReorderDist << ", " << kReorderCount << " packets, RTT "
     << 2 * kOneWay << ", T 160, G 3, 16 flows, mean of " << kReorderSeeds << " seeds from " << seed << "\n"
     << "| sender on beyond-window RESEND | W | cycles in order | cycles reordered | throughput vs in order | model | retransmissions | beyond-window drops | timeouts | incomplete |\n"
     << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ReorderRow& r : ra)
    ta << "| " << scheme_name(r.scheme) << " | " << r.w << " | " << fmt("%.0f", r.ordered.done) << " | "
       << (r.reordered.incomplete ? ">= " : "") << fmt("%.0f", r.reordered.done) << " | "
       << (r.reordered.incomplete ? "<= " : "") << fmt("%.3f", r.fraction()) << " | " << fmt("%.3f", r.model)
       << " | " << fmt("%.0f", r.reordered.retx) << " | " << fmt("%.0f", r.reordered.beyond) << " | "
       << fmt("%.1f", r.reordered.timeouts) << " | " << r.reordered.incomplete << " |\n";

  // ---------------------------------------------------------------- (b)
  std::vector<LossRow> rb;
  const RxEngineParams pb = rx_params(128, 48);
  for (uint32_t n : {256u, 1024u}) {
    for (double loss : {0.0, 0.001, 0.002, 0.003, 0.005}) {
      LossRow row{n, loss, {}, {}, {}};
      RtlRun c;
      c.count = n;
      c.jitter = kLossJitter;
      c.loss = loss;
      c.scheme = Scheme::kSack;
      row.emu = run_mean<Vrx_16x128_t48>(c, pb, kLossSeeds, seed);
      c.scheme = Scheme::kBaseOnly;
      row.rtl = run_mean<Vrx_16x128_t48>(c, pb, kLossSeeds, seed);
      c.scheme = Scheme::kWhole;
      c.max_cycles = kMaxCyclesWhole;
      row.whole = run_mean<Vrx_16x128_t48>(c, pb, kLossSeeds, seed);
      LoopConfig mc;
      mc.count = n;
      mc.w = 128;
      mc.delay = mc.ctl_delay = kOneWay;
      mc.jitter = kLossJitter;
      mc.timeout = 48;
      mc.go_back_after = 3;
      mc.loss = loss;
      mc.beyond = BeyondAction::kBoth;
      row.model_partial = model_mean_done(mc, kLossSeeds, seed);
      mc.beyond = BeyondAction::kBase;
      row.model_base = model_mean_done(mc, kLossSeeds, seed);
      mc.recovery = Recovery::kWholeMessage;
      row.model_whole = model_mean_done(mc, kLossSeeds, seed);
      rb.push_back(row);
    }
  }
  auto free_of = [&](uint32_t n) -> const LossRow& { return loss_free_row(rb, n); };
  std::ostringstream tb;
  tb << "(b) RTL, loss, W 128, jitter " << kLossJitter << ", RTT " << 2 * kOneWay
     << ", T 48, G 3, 16 flows, mean of " << kLossSeeds << " seeds from " << seed
     << "; completion time relative to the same size loss-free (model: the plain-C++ loop, same seeds)\n"
     << "| packets | loss % | loss-free cycles | WBASE+dropped (sack_idx) | model | WBASE only | model | whole message | model | partial retransmissions (WBASE+dropped / WBASE only) | whole restarts | incomplete |\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const LossRow& r : rb) {
    const LossRow& z = free_of(r.count);
    const double f = z.emu.done, mf = z.model_partial;
    tb << "| " << r.count << " | " << fmt("%.1f", r.loss * 100) << " | " << fmt("%.0f", f) << " | "
       << fmt("%.3f", r.emu.done / f) << " | " << fmt("%.3f", r.model_partial / mf) << " | "
       << fmt("%.3f", r.rtl.done / f) << " | " << fmt("%.3f", r.model_base / mf) << " | "
       << fmt("%.2f", r.whole.done / f) << " | " << fmt("%.2f", r.model_whole / mf) << " | "
       << fmt("%.1f", r.emu.retx) << " / " << fmt("%.1f", r.rtl.retx) << " | " << fmt("%.1f", r.whole.restarts)
       << " | " << r.emu.incomplete + r.rtl.incomplete + r.whole.incomplete << " |\n";
  }
  std::cout << "\nwindow-mode experiment on the RTL (tonic_rx_engine)\n" << ta.str() << "\n" << tb.str() << std::flush;

  // ---------------------------------------------------------------- report
  nlohmann::json j =
      report_head("tb/unit/window_mode/test_window_mode_rtl.cpp (tonic_rx_engine, Verilated rx_16x*_t*)", seed);
  j["config"] = {{"one_way_delay_cycles", kOneWay},
                 {"rtt_cycles", 2 * kOneWay},
                 {"flows", 16},
                 {"go_back_after", 3},
                 {"holdoff_cycles", 2 * kOneWay},
                 {"max_cycles_per_run", kMaxCycles},
                 {"max_cycles_per_run_whole_message", kMaxCyclesWhole},
                 {"reorder", {{"packets", kReorderCount},
                              {"jitter_cycles", kReorderDist},
                              {"resend_timeout", 160},
                              {"seeds", kReorderSeeds},
                              {"models", {"rx_16x32_t160", "rx_16x64_t160", "rx_16x128_t160"}}}},
                 {"loss", {{"window", 128},
                           {"jitter_cycles", kLossJitter},
                           {"resend_timeout", 48},
                           {"seeds", kLossSeeds},
                           {"model", "rx_16x128_t48"}}}};
  j["reorder"] = nlohmann::json::array();
  for (const ReorderRow& r : ra)
    j["reorder"].push_back({{"window", r.w},
                            {"scheme", scheme_name(r.scheme)},
                            {"cycles_in_order", r.ordered.done},
                            {"cycles_reordered", r.reordered.done},
                            {"throughput_fraction", r.fraction()},
                            {"model_throughput_fraction", r.model},
                            {"retransmissions", r.reordered.retx},
                            {"beyond_window_drops", r.reordered.beyond},
                            {"timeouts", r.reordered.timeouts},
                            {"incomplete_runs", r.reordered.incomplete}});
  j["loss"] = nlohmann::json::array();
  for (const LossRow& r : rb) {
    const LossRow& z = free_of(r.count);
    j["loss"].push_back({{"packets", r.count},
                         {"loss_rate", r.loss},
                         {"loss_free_cycles", z.emu.done},
                         {"partial_sack_cycles", r.emu.done},
                         {"partial_sack_relative", r.emu.done / z.emu.done},
                         {"partial_wbase_only_cycles", r.rtl.done},
                         {"partial_wbase_only_relative", r.rtl.done / z.emu.done},
                         {"whole_cycles", r.whole.done},
                         {"whole_relative", r.whole.done / z.emu.done},
                         {"model_partial_relative", r.model_partial / z.model_partial},
                         {"model_wbase_only_relative", r.model_base / z.model_partial},
                         {"model_whole_relative", r.model_whole / z.model_partial},
                         {"partial_sack_retransmissions", r.emu.retx},
                         {"partial_wbase_only_retransmissions", r.rtl.retx},
                         {"partial_wbase_only_timeouts", r.rtl.timeouts},
                         {"whole_restarts", r.whole.restarts},
                         {"incomplete_runs", {{"sack", r.emu.incomplete},
                                              {"wbase_only", r.rtl.incomplete},
                                              {"whole", r.whole.incomplete}}}});
  }
  write_report(j, "window_mode_rtl.json");

  // ---------------------------------------------------------------- checks
  auto frac = [&](Scheme s, uint32_t w) -> const ReorderRow& {
    for (const ReorderRow& r : ra)
      if (r.scheme == s && r.w == w) return r;
    throw std::logic_error("no row");
  };
  // (a) Every run with the dropped index (sack_idx) completes; so does the
  // WBASE-only sender at W 128 (no drops). Measured over the seed sets 1, 1001,
  // ..., 4001: W 32 0.410-0.416, W 64 0.915-0.987, W 128 0.987 (the model:
  // 0.420-0.429, 0.956-0.987, 0.987; the RTL's W 64 dips lower on the
  // seeds with a rare tie, see window-mode.md). Same floors as the model's
  // test: W 64 >= 0.85, W 64 - W 32 >= 0.30 (0.50 measured at the least),
  // W 128 >= 0.95.
  for (const ReorderRow& r : ra)
    if (r.scheme == Scheme::kSack || r.w == 128) CHECK(r.reordered.incomplete == 0);
  CHECK(frac(Scheme::kSack, 64).fraction() >= 0.85);
  CHECK(frac(Scheme::kSack, 64).fraction() - frac(Scheme::kSack, 32).fraction() >= 0.30);
  CHECK(frac(Scheme::kSack, 128).fraction() >= 0.95);
  // The WBASE-only sender (sack_idx ignored) collapses when the window is
  // smaller than the reordering, as the model does: reported, and checked
  // only for being far below the sack_idx sender (< half of it).
  for (uint32_t w : {32u, 64u})
    CHECK(frac(Scheme::kBaseOnly, w).fraction() < 0.5 * frac(Scheme::kSack, w).fraction());
  // (b) Every run completes (whole message: within kMaxCyclesWhole).
  for (const LossRow& r : rb) {
    INFO("packets " << r.count << " loss " << r.loss);
    CHECK(r.emu.incomplete == 0);
    CHECK(r.rtl.incomplete == 0);
    CHECK(r.whole.incomplete == 0);
  }
  // Partial retransmission (WBASE + dropped index) at 0.5 %, seed sets 1
  // ... 4001: 1.241-1.302 of loss-free (1024 packets), 1.317-1.515 (256).
  // With the RTL's timer (restarted by every delivery) a loss is recovered
  // when the stream reaches WBASE + W and a beyond-window RESEND names it;
  // about an RTT of packets is dropped beyond the window meanwhile and
  // resent one by one (~45 retransmissions a loss). Ceilings: twice the
  // worst excess, 1.60 (1024) and 2.0 (256). Whole message at 0.5 %:
  // 82-121 x loss-free (1024; the RTL's window drops everything past
  // WBASE + W after a loss, so a failed attempt ends ~T after the window
  // fills, sooner than the counter baseline's full attempt: the model's
  // 176-245 x) and 3.5-5.3 x (256); whole / partial >= 63 (1024) and
  // >= 2.6 (256) measured. Floors 20 and 2 as in the model's test.
  for (const LossRow& r : rb) {
    const double f = free_of(r.count).emu.done;
    INFO("packets " << r.count << " loss " << r.loss);
    if (r.loss == 0.005) {
      CHECK(r.emu.done / f <= (r.count == 1024 ? 1.60 : 2.0));
      CHECK(r.whole.done / r.emu.done >= (r.count == 1024 ? 20.0 : 2.0));
    }
    if (r.loss > 0) CHECK(r.emu.done < r.whole.done);
    // The RTL and the model agree: the RTL's relative figure is within
    // -0.05 / +0.15 of the model's (measured -0.01 / +0.07: the scan makes
    // each timer expiry up to 15 cycles late, ~0.05 of a 256-packet message).
    const double mf = free_of(r.count).model_partial;
    CHECK(r.emu.done / f - r.model_partial / mf >= -0.05);
    CHECK(r.emu.done / f - r.model_partial / mf <= 0.15);
  }
}

// --------------------------------------------- 4. past the message end

// A packet of the message's own tag with an index at or past its end
// (first + count) that lands in the window used to be held: when the last
// packet arrived, WBASE advanced over it to end + 1, never equal to end,
// and the message never completed (no done, no completion ACK, RESEND(end
// + 1) forever). Fixed: such an index is dropped before the
// window step, reason `beyond`, counted in `beyond`, no RESEND, no other
// state change; WindowRx drops it the same way (beyond the message).
TEST_CASE("window_mode rtl: a packet past the message end must not block completion", "[window_mode][rtl][badinput]") {
  RxEngineParams p;  // rx_16x32
  RxTb<Vrx_16x32> tb(p);
  RxCfg o;
  o.flow = 2;
  o.mode = RxMode::kWindow;
  o.first = 100;
  o.count = 4;  // indices 100..103
  o.node = 1;
  o.ctx = 2;
  o.msgid = 3;
  tb.cfg(o);
  RxDesc d;
  d.flow = 2;
  d.node = 1;
  d.ctx = 2;
  d.msgid = 3;
  for (uint32_t i : {104u, 100u, 101u, 102u, 103u}) {  // 104: one past the end, in the window
    d.idx = i;
    tb.data(d);
  }
  tb.idle(200);
  INFO("decisions: " << [&] {
    std::ostringstream s;
    for (const RxDlv& x : tb.dlv()) s << str(x) << " ";
    return s.str();
  }());
  INFO("control: " << [&] {
    std::ostringstream s;
    for (const RxCtl& x : tb.ctl()) s << str(x) << " ";
    return s.str();
  }());
  CHECK(tb.dlv().at(0).reason == RxReason::kBeyond);  // 104 is not part of the message
  CHECK_FALSE(tb.dlv().at(0).deliver);
  CHECK(tb.done().size() == 1);  // the message completed
  CHECK(tb.ref().stats().beyond == 1);
  CHECK(tb.ref().stats().resends == 0);  // no RESEND for it, and no timeout
  REQUIRE(tb.ctl().size() == 1);         // only the completion ACK
  CHECK((tb.ctl()[0].type == ref::kRxAck && tb.ctl()[0].cum_ack == 104));
}
