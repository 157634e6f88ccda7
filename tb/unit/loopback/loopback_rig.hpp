// SPDX-License-Identifier: Apache-2.0
// Loopback (docs/design/receiver.md "Verification plan"): the
// sender RTL (tonic_top) -> a channel model -> the receiver RTL
// (tonic_rx_engine, rx_16x32) -> its control packets back to the sender's
// rx input, for every sender protocol with the receive mode that matches it
// (its registry receiver):
//
//   tcp       -> TCP cumulative acks (per segment, and delayed)
//   tcp_sack  -> TCP + SACK (per segment, and delayed)
//   ndp       -> NDP (the channel trims instead of dropping)
//   roce      -> RoCE go-back-N, CNPs from an ECN-marking bottleneck
//   irn       -> IRN, CNPs from the same bottleneck (a sender with a fixed
//                rate keeps it: CNPs are counted, not acted on)
//
// The rig of label loopback, not a header of declarations: each protocol
// registers its runs in its folder (protocols/<name>/tests/loopback.cpp,
// part of test_loopback: its seeds, scenario and variants); the receive
// window case (loopback_window.cpp) runs the window protocols that register
// for it (RegisterWindowRun). The receiver's window mode has no sender
// protocol, so it is not run here (tb/unit/window_mode covers it against
// its own driver).
//
// Channel (forward): optional bottleneck (SwitchQueue, 100 Gb/s, RED ECN),
// then per packet: loss (NDP: a trimmed header instead), duplication,
// reordering (an extra delay), a fixed delay. Return: the receiver's ctl
// stream (valid/ready) into a small link buffer that drains at most one
// beat per cycle with random pauses, plus random ctl_ready stalls; a fixed
// delay; then one beat per cycle into the sender's rx input (no ready).
//
// Receive window. rx_16x32 holds offsets 0..W-1 = 31 from WBASE. What it
// does with an index at WBASE + 32 or more depends on the mode: TCP drops
// it and sends a plain duplicate ack (the sender sees a false loss signal:
// fast retransmit, cwnd cut); NDP drops it with a plain ack (no NACK: only
// the sender's RTO, 100,000 cycles, recovers it); IRN drops it with a plain
// ack (again only the RTO); RoCE drops every index above the expected one
// anyway (go-back-N), so W does not matter there. The window senders' cwnd
// reaches 128, the IRN sender's BDP window is 98 and the NDP sender's
// in-flight count is set by its pulls, so without a limit every mode but
// RoCE would see beyond-window drops recovered only by timeouts (a sender
// whose RTO marks only wnd_start pays one backed-off RTO per drop in a
// window with many such drops). The host therefore acts as TCP's receive
// window: it posts a flow's data only up to (latest cum_ack that reached
// the sender) + W, so no segment is ever sent at or beyond WBASE + W and
// the receiver's `beyond` counter must stay 0 (checked). RoCE posts the
// whole message at once. The receive-window case runs window senders
// without the limit against rx_1024x128 (W = 128 = the sender's Window: no
// beyond-window index can occur, checked) and against rx_16x32
// (beyond-window drops; still exactly once) for comparison; the RoCE
// protocol also runs rx_1024x128, whose CnpGap is DCQCN's real 50 us.
//
// Checks, every cycle: one dlv decision per accepted descriptor, in order,
// naming it; a deliver=1 is new data (never delivered before) with reason
// ok, and for RoCE exactly the next in-order index; a drop as "duplicate"
// names data already delivered (no data silently lost); no unknown/zombie;
// every control packet has a type the mode may send, a cum_ack at or below
// the in-order point of what was delivered, and a SACK (sack_valid) names
// delivered data; SACK blocks only on a SACK flow's acks, each above
// cum_ack and of delivered data only; an echo on every TCP ack and every
// NACK, on nothing else, with the descriptor's stamp (0: the sender has no
// stamp port yet, so the rig sends 0) and retransmit flag (the sender's
// seg_rtx); ctl payload stable and valid held while not ready; done
// once per flow, when the in-order point reaches the end. The sender's
// addresses are checked by SysTb. At the end: every segment delivered
// exactly once, the in-order point at the end, the sender's wnd_start at
// the end and its note "everything posted is acked" for the whole message;
// then the channel drains and nothing more may be delivered.
//
// Seeds: three fixed seeds per protocol; TONIC_SEED=<n> runs only seed n
// (every variant of the test case), which reproduces a printed run.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Vrx_1024x128.h"
#include "Vrx_16x32.h"
#include "tonic/harness.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/rng.hpp"
#include "tonic/sys_tb.hpp"
#include "unit/e2e_rdma/e2e_rig.hpp"  // Errors
#include "unit/rx/rx_tb.hpp"  // packing of tonic_rx_engine's ports

namespace tonic::loopback {

/// The sender protocol and the receiver mode it is run against.
struct Proto {
  const char* name;
  RxMode mode;
  bool sack = false;        // TCP: SACK the arriving segment
  bool delack = false;      // TCP: delayed acks
  bool rwnd = true;         // host posts only up to cum_ack + W
  bool trim = false;        // channel losses become trimmed headers (NDP)
  bool bottleneck = false;  // ECN-marking bottleneck queue (RoCE, IRN)
};

/// The traffic and the channel.
struct Scenario {
  uint32_t flows = 8;           // flows at once (ids drawn from 0..15)
  uint32_t segs = 600;          // segments per flow (one bounded message)
  uint32_t seg_bytes = 1024;
  double loss = -1;             // per packet (NDP: trimmed instead); < 0: by seed, 0.1..1 %
  double dup = 0.005;           // per packet: a second copy
  double reorder = 0.02;        // per copy: an extra delay of 1..reorder_max
  uint32_t reorder_max = 40;
  uint64_t fwd_delay = 60;      // cycles, sender output -> receiver input
  uint64_t ret_delay = 30;      // cycles, return link -> sender rx
  double ctl_stall = 0.1;       // ctl_ready_i low at random
  double ret_pause = 0.1;       // the return link sends nothing this cycle
  uint32_t ret_cap = 4;         // return link buffer (beats)
  double data_idle = 0.05;      // no descriptor offered although one waits
  uint64_t bottleneck_q16 = uint64_t{125} << 16;  // 100 Gb/s at 100 MHz
  uint64_t max_cycles = 2'000'000;
};

/// What one run measured.
struct Result {
  std::string proto, variant;
  uint64_t seed = 0;
  uint32_t flows = 0, segs = 0;
  bool complete = false;
  uint64_t cycles = 0, delivered = 0, sent = 0, rtx = 0, timeouts = 0;
  uint64_t lost = 0, trimmed = 0, dups = 0, reordered = 0, marks = 0;
  uint64_t ctl_stalls = 0, data_stalls = 0, max_ingress = 0, rx_bad_sack = 0, ctl_taken = 0;
  uint64_t ctl_echoes = 0, ctl_blocks = 0;  // acks with an echo, with SACK blocks
  uint64_t c99 = 0;   // cycles until 99 % of the data was delivered
  double loss = 0;
  RxEngineStats rxs;
  double seg_per_cycle = 0, gbps = 0;
};

/// The first error of the run's checkers (e2e_rig.hpp).
using e2e::Errors;

/// A packet in the channel.
struct Pkt {
  uint32_t flow = 0, idx = 0;
  bool ce = false, trimmed = false;
  bool rtx = false;  // the sender's seg_rtx
  uint32_t ts = 0;   // the sender's seg_ts (transmit stamp)
};

inline bool mode_may_send(RxMode m, bool sack, uint8_t t) {
  switch (m) {
    case RxMode::kTcp: return t == ref::kRxAck || (sack && t == ref::kRxSack);
    case RxMode::kNdp: return t == ref::kRxAck || t == ref::kRxSack || t == ref::kRxNack || t == ref::kRxPull;
    case RxMode::kRoce:
    case RxMode::kIrn: return t == ref::kRxAck || t == ref::kRxNack || t == ref::kRxCnp;
    case RxMode::kWindow: return false;
  }
  return false;
}

/// One loopback run. SM: the sender model (FlowCount sender_flows); RM: the
/// receiver model (16 flows, window rx_w).
template <class SM, class RM = Vrx_16x32>
Result run_loop(const Proto& p, const Scenario& s, uint64_t seed, uint32_t sender_flows, uint32_t rx_flows = 16,
                uint32_t rx_w = 32) {
  Result r;
  r.proto = p.name;
  r.seed = seed;
  // The loss rate is a function of the seed (0.1 %, 0.5 % or 1 %), so that
  // TONIC_SEED alone reproduces a run.
  const double loss = s.loss >= 0 ? s.loss : (seed % 3 == 0 ? 0.001 : seed % 3 == 1 ? 0.005 : 0.01);
  r.loss = loss;
  r.flows = s.flows;
  r.segs = s.segs;
  Errors err;
  const bool debug = std::getenv("LOOPBACK_DEBUG") != nullptr;  // print losses and timeouts
  SysTb<SM> tb(sender_flows, seed);
  Harness<RM> rh("rx");
  {
    auto& d = rh.dut();
    d.cfg_valid_i = 0;
    d.data_valid_i = 0;
    d.ctl_ready_i = 0;
    rh.reset();
  }
  Rng rng(seed * 0x9E3779B97F4A7C15ull + 0x5eed);

  // Flows: distinct ids, random first indices; the first flow crosses 2^32.
  struct Flow {
    uint32_t id = 0, start = 0;
    std::vector<uint8_t> got;  // delivered, by index - start
    uint32_t inorder = 0;      // lowest index - start not delivered
    uint32_t posted = 0;       // posted end - start
    uint32_t done = 0;         // done_* pulses
    bool noted = false;        // note: everything (the whole message) acked
    uint32_t wnd_start = 0;    // probe, - start
  };
  std::vector<uint32_t> ids(std::min(rx_flows, sender_flows));
  std::iota(ids.begin(), ids.end(), 0u);
  std::shuffle(ids.begin(), ids.end(), rng.engine());
  REQUIRE(s.flows <= ids.size());
  std::vector<Flow> fl(s.flows);
  std::vector<int> slot(sender_flows, -1);
  std::deque<RxCfg> cfgq;
  for (uint32_t k = 0; k < s.flows; ++k) {
    Flow& f = fl[k];
    f.id = ids[k];
    f.start = k == 0 ? 0xFFFFFFFFu - s.segs / 3 : static_cast<uint32_t>(rng.bits64());
    f.got.assign(s.segs, 0);
    slot[f.id] = static_cast<int>(k);
    f.posted = p.rwnd ? std::min(s.segs, rx_w) : s.segs;
    tb.add(f.id, f.start, s.seg_bytes);
    tb.post(f.id, f.start + f.posted, s.seg_bytes);
    RxCfg c;
    c.flow = static_cast<uint16_t>(f.id);
    c.mode = p.mode;
    c.first = f.start;
    c.count = s.segs;
    c.delack = p.delack;
    c.sack = p.sack;
    cfgq.push_back(c);
  }

  // Forward channel.
  SwitchConfig sc;
  sc.drain_q16 = s.bottleneck_q16;
  sc.ecn = true;  // RED defaults of SwitchConfig: Kmin 5 KB, Kmax 200 KB, Pmax 1 %
  sc.seed = seed + 17;
  SwitchQueue sw(sc);
  std::multimap<uint64_t, Pkt> wire;  // arrival cycle -> packet (ties: in launch order)
  auto launch = [&](uint64_t c, Pkt k) {
    if (rng.chance(loss)) {
      if (debug && slot[k.flow] >= 0)
        std::fprintf(stderr, "  [debug] cycle %llu: %s flow %u idx %u\n", static_cast<unsigned long long>(c),
                     p.trim ? "trim" : "loss", k.flow, k.idx - fl[slot[k.flow]].start);
      if (!p.trim) {
        ++r.lost;
        return;
      }
      k.trimmed = true;
      ++r.trimmed;
    }
    const int copies = rng.chance(s.dup) ? 2 : 1;
    r.dups += copies - 1;
    for (int i = 0; i < copies; ++i) {
      uint64_t d = s.fwd_delay;
      if (rng.chance(s.reorder)) {
        d += 1 + rng.below(s.reorder_max);
        ++r.reordered;
      }
      wire.emplace(c + d, k);
    }
  };
  tb.on_seg = [&](const SysSeg& g) {
    if (g.rtx) ++r.rtx;
    Pkt k{g.flow, g.idx, false, false, g.rtx, g.ts};
    if (p.bottleneck) {
      SwitchPacket sp;
      sp.flow = g.flow;
      sp.seg = g.idx;
      sp.len = g.len;
      sp.rtx = g.rtx;
      sp.ts = g.ts;
      sw.push(g.cycle, sp);
    } else {
      launch(g.cycle, k);
    }
  };

  // Sender outputs: notes and a probe sweeping the flows (wnd_start).
  uint32_t probe_k = 0;
  bool probe_valid = false;
  tb.on_cycle = [&](SM& d) {
    const uint64_t c = tb.cycle();
    if (d.note_valid_o && d.note_ready_i) {
      const int k = d.note_flow_o < slot.size() ? slot[d.note_flow_o] : -1;
      if (k < 0) {
        err.fail(c, "note for a flow not in the run");
      } else {
        Flow& f = fl[k];
        const uint32_t rel = d.note_acked_o - f.start;
        if (rel > f.posted) err.fail(c, "note: acked beyond what was posted, flow " + std::to_string(f.id));
        if (rel > f.inorder)
          err.fail(c, "note: the sender counts as acked data the receiver has not delivered in order, flow " +
                          std::to_string(f.id));
        if (rel == s.segs) f.noted = true;
      }
    }
    if (debug) {
      const SysTrace t = sys_trace(d.trace_per_o);
      if (t.valid && t.timeout && slot[t.flow] >= 0) {
        const Flow& f = fl[slot[t.flow]];
        std::fprintf(stderr, "  [debug] cycle %llu: timeout flow %u, rx in-order %u, posted %u, next_new %u\n",
                     static_cast<unsigned long long>(c), t.flow, f.inorder, f.posted, t.next_new - f.start);
      }
    }
    if (probe_valid) fl[probe_k].wnd_start = d.probe_start_o - fl[probe_k].start;
    probe_k = (probe_k + 1) % s.flows;
    d.probe_flow_i = fl[probe_k].id;
    probe_valid = true;
  };

  // Receiver side state.
  std::deque<Pkt> ingress;
  bool offering = false;
  std::deque<Pkt> accepted;  // descriptors taken, awaiting their decision
  std::deque<RxCtl> retbuf;  // return link buffer
  std::deque<std::pair<uint64_t, RxCtl>> retline;
  bool stalled = false;
  RxBits stalled_bits(kCtlW);
  const uint64_t t0 = tb.cycle();

  auto check_ctl = [&](uint64_t c, const RxCtl& x) {
    const int k = x.flow < slot.size() ? slot[x.flow] : -1;
    if (k < 0) return err.fail(c, "ctl for a flow not in the run: " + str(x));
    const Flow& f = fl[k];
    if (!mode_may_send(p.mode, p.sack, x.type)) return err.fail(c, "ctl of a type the mode does not send: " + str(x));
    const uint32_t cum = x.cum_ack - f.start;
    if (cum > f.inorder)
      return err.fail(c, "ctl acks data not delivered in order (in-order point " + std::to_string(f.inorder) +
                             "): " + str(x));
    if (x.sack_valid) {
      const uint32_t si = x.sack_idx - f.start;
      if (si >= s.segs || !f.got[si]) return err.fail(c, "SACK of data not delivered: " + str(x));
    }
    const bool echoes = (p.mode == RxMode::kTcp && x.type != ref::kRxPull) || x.type == ref::kRxNack;
    if (x.echo.valid != echoes) return err.fail(c, "echo where the rules say otherwise: " + str(x));
    // An echoed stamp is one the sender gave: not in its future.
    if (x.echo.valid && seq_lt(tb.dut().now_o, x.echo.ts)) return err.fail(c, "echo of a stamp not given yet: " + str(x));
    for (const SackBlock& b : x.blks) {
      if (!b.valid) continue;
      if (p.mode != RxMode::kTcp || !p.sack) return err.fail(c, "SACK blocks outside a SACK flow: " + str(x));
      if (!seq_lt(x.cum_ack, b.lo) || !seq_lt(b.lo, b.hi) || seq_dist(x.cum_ack, b.hi) > rx_w)
        return err.fail(c, "SACK block not above cum_ack inside the window: " + str(x));
      for (uint32_t i = b.lo; i != b.hi; ++i)
        if (i - f.start >= s.segs || !f.got[i - f.start]) return err.fail(c, "SACK block of data not delivered: " + str(x));
    }
    if (x.echo.valid && x.type != ref::kRxNack) ++r.ctl_echoes;
    if (x.blks[0].valid) ++r.ctl_blocks;
  };

  auto rx_cycle = [&](uint64_t c) {
    auto& d = rh.dut();
    // Arrivals due now.
    while (!wire.empty() && wire.begin()->first <= c) {
      ingress.push_back(wire.begin()->second);
      wire.erase(wire.begin());
    }
    r.max_ingress = std::max<uint64_t>(r.max_ingress, ingress.size());
    const bool cfg_v = !cfgq.empty();
    d.cfg_valid_i = cfg_v;
    if (cfg_v) rx_write_port(d.cfg_i, pack_cfg(cfgq.front()));
    if (!offering && !ingress.empty() && !rng.chance(s.data_idle)) offering = true;
    d.data_valid_i = offering;
    if (offering) {
      const Pkt& k = ingress.front();
      RxDesc x;
      x.flow = static_cast<uint16_t>(k.flow);
      x.idx = k.idx;
      x.ecn = k.ce;
      x.trimmed = k.trimmed;
      x.rtx = k.rtx;
      x.ts = k.ts;
      const int sl = slot[k.flow];
      x.last = sl >= 0 && k.idx - fl[sl].start == s.segs - 1;
      rx_write_port(d.data_i, pack_desc(x));
    }
    const bool ctl_rdy = retbuf.size() < s.ret_cap && !rng.chance(s.ctl_stall);
    d.ctl_ready_i = ctl_rdy;
    rh.eval();
    if (!d.cfg_ready_o) err.fail(c, "cfg_ready_o low");
    if (cfg_v) cfgq.pop_front();
    if (offering && !d.data_ready_o && !cfg_v) ++r.data_stalls;
    if (offering && d.data_ready_o) {
      accepted.push_back(ingress.front());
      ingress.pop_front();
      offering = false;
    }
    // Decisions.
    if (d.dlv_valid_o) {
      const RxDlv v = unpack_dlv(rx_read_port(d.dlv_o, kDlvW));
      if (accepted.empty()) {
        err.fail(c, "a decision without a descriptor: " + str(v));
      } else {
        const Pkt a = accepted.front();
        accepted.pop_front();
        if (v.flow != a.flow || v.idx != a.idx) err.fail(c, "decision out of order: " + str(v));
        const int k = v.flow < slot.size() ? slot[v.flow] : -1;
        if (k < 0) {
          err.fail(c, "decision for a flow not in the run: " + str(v));
        } else {
          Flow& f = fl[k];
          const uint32_t rel = v.idx - f.start;
          if (v.deliver) {
            if (v.reason != RxReason::kOk) err.fail(c, "deliver with a reason: " + str(v));
            if (a.trimmed) err.fail(c, "a trimmed header delivered: " + str(v));
            if (rel >= s.segs) {
              err.fail(c, "delivered outside the message: " + str(v));
            } else if (f.got[rel]) {
              err.fail(c, "delivered twice: " + str(v));
            } else {
              if (p.mode == RxMode::kRoce && rel != f.inorder)
                err.fail(c, "RoCE delivered out of order (expected " + std::to_string(f.inorder) + "): " + str(v));
              f.got[rel] = 1;
              if (++r.delivered == uint64_t{s.flows} * s.segs * 99 / 100) r.c99 = c - t0;
              while (f.inorder < s.segs && f.got[f.inorder]) ++f.inorder;
            }
          } else {
            switch (v.reason) {
              case RxReason::kDuplicate:
                if (rel < s.segs && !f.got[rel]) err.fail(c, "dropped as duplicate, never delivered: " + str(v));
                break;
              case RxReason::kTrimmed:
                if (!a.trimmed) err.fail(c, "dropped as trimmed, was not: " + str(v));
                break;
              case RxReason::kGoBackN:
                if (p.mode != RxMode::kRoce) err.fail(c, "go-back-N drop outside RoCE: " + str(v));
                if (rel == f.inorder) err.fail(c, "go-back-N drop of the expected index: " + str(v));
                break;
              case RxReason::kBeyond:
                if (p.rwnd || rx_w >= 128) err.fail(c, "beyond-window drop despite the receive-window limit: " + str(v));
                break;
              default:
                err.fail(c, "drop with reason unknown/zombie/ok: " + str(v));
            }
            if (a.trimmed && v.reason != RxReason::kTrimmed) err.fail(c, "a trimmed header not dropped as trimmed");
          }
        }
      }
    }
    // Completions.
    if (d.done_valid_o) {
      const uint32_t df = d.done_flow_o;
      const int k = df < slot.size() ? slot[df] : -1;
      if (k < 0) {
        err.fail(c, "done for a flow not in the run");
      } else {
        Flow& f = fl[k];
        if (++f.done > 1) err.fail(c, "done twice, flow " + std::to_string(df));
        if (f.inorder != s.segs) err.fail(c, "done before the in-order point reached the end, flow " + std::to_string(df));
      }
    }
    // Control packets (valid/ready).
    if (d.ctl_valid_o) {
      const RxBits b = rx_read_port(d.ctl_o, kCtlW);
      if (stalled && b.w != stalled_bits.w) err.fail(c, "ctl payload changed while not ready");
      const RxCtl x = unpack_ctl(b);
      if (ctl_rdy) {
        check_ctl(c, x);
        retbuf.push_back(x);
        ++r.ctl_taken;
        stalled = false;
      } else {
        ++r.ctl_stalls;
        stalled = true;
        stalled_bits = b;
      }
    } else if (stalled) {
      err.fail(c, "ctl valid dropped before ready");
      stalled = false;
    }
    rh.tick();
    // Return link: at most one beat per cycle, random pauses, fixed delay.
    if (!retbuf.empty() && !rng.chance(s.ret_pause)) {
      retline.emplace_back(c + s.ret_delay, retbuf.front());
      retbuf.pop_front();
    }
  };

  // The sender's host: rx beats due now, and posting under the window.
  auto host_cycle = [&](uint64_t c) {
    while (!retline.empty() && retline.front().first <= c) {
      const RxCtl x = retline.front().second;
      retline.pop_front();
      tb.send_rx(rx_cmd_of(x));
      if (p.rwnd) {
        Flow& f = fl[slot[x.flow]];
        const uint32_t lim = std::min<uint64_t>(s.segs, uint64_t{x.cum_ack - f.start} + rx_w);
        if (lim > f.posted && (lim >= f.posted + 8 || lim == s.segs)) {
          f.posted = lim;
          tb.post(f.id, f.start + lim, s.seg_bytes);
        }
      }
    }
    if (tb.rx_backlog() > 1) err.fail(c, "more than one rx beat per cycle into the sender");
  };

  auto all_done = [&] {
    for (const Flow& f : fl)
      if (f.inorder != s.segs || f.done != 1 || !f.noted || f.wnd_start != s.segs) return false;
    return true;
  };

  auto one_cycle = [&] {
    const uint64_t c = tb.cycle();
    if (p.bottleneck)
      for (const SwitchPacket& sp : sw.pop(c)) launch(c, Pkt{sp.flow, sp.seg, sp.ce, false, sp.rtx, sp.ts});
    rx_cycle(c);
    host_cycle(c);
    tb.step();
  };

  uint64_t n = 0;
  for (; n < s.max_cycles && err.count() == 0 && tb.errors() == 0; ++n) {
    one_cycle();
    if ((n & 63) == 0 && all_done()) break;
  }
  r.cycles = tb.cycle() - t0;
  r.complete = all_done();
  // Drain: whatever is still in the channel arrives; nothing new may be delivered.
  const uint64_t delivered_at_end = r.delivered;
  for (uint64_t i = 0; i < s.fwd_delay + s.reorder_max + s.ret_delay + 400 && err.count() == 0; ++i) one_cycle();
  if (r.delivered != delivered_at_end) err.fail(tb.cycle(), "data delivered after completion");

  r.sent = tb.stat(DdStat::kSegments);
  r.timeouts = tb.stat(DdStat::kTimeouts);
  r.rx_bad_sack = tb.stat(DdStat::kRxBadSack);
  r.marks = sw.marks();
  r.rxs = unpack_stats(rx_read_port(rh.dut().stats_o, kStatsW));
  r.seg_per_cycle = r.cycles ? double(r.delivered) / double(r.cycles) : 0;
  r.gbps = r.seg_per_cycle * s.seg_bytes * 8 * 0.1;  // 100 MHz

  std::ostringstream where;
  where << p.name << " seed=" << seed << " (TONIC_SEED=" << seed << " reproduces)";
  if (!r.complete || err.count() || tb.errors()) {
    std::ostringstream o;
    for (const Flow& f : fl)
      o << " [flow " << f.id << " start " << f.start << " inorder " << f.inorder << " posted " << f.posted
        << " done " << f.done << " noted " << f.noted << " wnd_start " << f.wnd_start << "]";
    std::fprintf(stderr, "loopback %s: FAILED after %llu cycles: %s%s | rx %s%s\n", where.str().c_str(),
                 static_cast<unsigned long long>(r.cycles), err.first().c_str(), tb.first_error().c_str(),
                 str(r.rxs).c_str(), o.str().c_str());
  }
  INFO(where.str());
  INFO("receiver/channel check: " << err.first());
  INFO("sender check: " << tb.first_error());
  CHECK(err.count() == 0);
  CHECK(tb.errors() == 0);
  CHECK(r.complete);
  CHECK(r.delivered == uint64_t{s.flows} * s.segs);
  CHECK(r.rxs.unknown == 0);
  CHECK(r.rxs.zombie == 0);
  CHECK(r.rxs.completed == s.flows);
  CHECK(r.rxs.ctl_sent == r.ctl_taken);
  if (p.rwnd || rx_w >= 128) CHECK(r.rxs.beyond == 0);  // the sender's Window is 128
  CHECK(tb.stat(DdStat::kRxBadAck) == 0);
  CHECK(tb.stat(DdStat::kRxBadType) == 0);
  CHECK(tb.stat(DdStat::kRxUnknownFlow) == 0);
  CHECK(tb.stat(DdStat::kCtrlBad) == 0);
  CHECK(r.rtx == tb.stat(DdStat::kRetransmits));
  if (p.mode == RxMode::kTcp) CHECK(r.ctl_echoes > 0);
  if (p.mode == RxMode::kTcp && p.sack && r.lost > 0) CHECK(r.ctl_blocks > 0);
  return r;
}

// ---------------------------------------------------------------------------
// Reporting.

inline void print(const Result& r) {
  std::printf(
      "loopback %-12s %-11s seed=%-6llu loss %.1f %% %u flows x %u seg: delivered %llu, sent %llu, rtx %llu, timeouts %llu, "
      "cycles %llu (99 %%: %llu), goodput %.3f seg/cycle = %.1f Gb/s | channel lost %llu trimmed %llu dup %llu reordered %llu "
      "ce %llu | rx dup %u beyond %u gbn %u nack_supp %u cnp_supp %u ctl %u, ctl stalls %llu, data stalls %llu, max ingress %llu, "
      "sender bad-sack %llu%s\n",
      r.proto.c_str(), r.variant.c_str(), static_cast<unsigned long long>(r.seed), r.loss * 100, r.flows, r.segs,
      static_cast<unsigned long long>(r.delivered), static_cast<unsigned long long>(r.sent),
      static_cast<unsigned long long>(r.rtx), static_cast<unsigned long long>(r.timeouts),
      static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.c99), r.seg_per_cycle, r.gbps, static_cast<unsigned long long>(r.lost),
      static_cast<unsigned long long>(r.trimmed), static_cast<unsigned long long>(r.dups),
      static_cast<unsigned long long>(r.reordered), static_cast<unsigned long long>(r.marks), r.rxs.duplicate, r.rxs.beyond,
      r.rxs.gbn_drop, r.rxs.nack_supp, r.rxs.cnp_supp, r.rxs.ctl_sent, static_cast<unsigned long long>(r.ctl_stalls),
      static_cast<unsigned long long>(r.data_stalls),
      static_cast<unsigned long long>(r.max_ingress), static_cast<unsigned long long>(r.rx_bad_sack),
      r.complete ? "" : "  INCOMPLETE");
  std::fflush(stdout);
}

/// build/reports/loopback.json: one entry per run, keyed by protocol,
/// variant and seed (merged with what other test processes wrote).
inline void report(const std::vector<Result>& rs) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(TONIC_SOURCE_DIR) / "build" / "reports";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path file = dir / "loopback.json";
  nlohmann::json j;
  if (std::ifstream in(file); in) {
    try {
      in >> j;
    } catch (...) {
      j = nlohmann::json::object();
    }
  }
  for (const Result& r : rs) {
    const std::string key = r.proto + "/" + r.variant + "/" + std::to_string(r.seed);
    j["runs"][key] = {{"protocol", r.proto}, {"variant", r.variant}, {"seed", r.seed},
                      {"flows", r.flows}, {"segments_per_flow", r.segs}, {"complete", r.complete},
                      {"delivered", r.delivered}, {"sent", r.sent}, {"retransmissions", r.rtx},
                      {"timeouts", r.timeouts}, {"cycles", r.cycles}, {"cycles_99pct", r.c99}, {"loss", r.loss}, {"seg_per_cycle", r.seg_per_cycle},
                      {"gbps_100mhz", r.gbps}, {"lost", r.lost}, {"trimmed", r.trimmed}, {"duplicated", r.dups},
                      {"reordered", r.reordered}, {"ce_marks", r.marks}, {"rx_duplicates", r.rxs.duplicate},
                      {"rx_gbn_drops", r.rxs.gbn_drop}, {"rx_ctl_sent", r.rxs.ctl_sent}};
  }
  std::ofstream(file) << j.dump(2) << "\n";
}

/// The seeds of a test case: TONIC_SEED alone if set, else three fixed ones.
inline std::vector<uint64_t> seeds(uint64_t base, const char* what) {
  if (const char* env = std::getenv("TONIC_SEED"); env && *env) return {test_seed(base, what)};
  std::fprintf(stderr, "[%s] seeds=%llu,%llu,%llu (set TONIC_SEED to run one)\n", what,
               static_cast<unsigned long long>(base), static_cast<unsigned long long>(base + 1),
               static_cast<unsigned long long>(base + 2));
  return {base, base + 1, base + 2};
}

inline constexpr uint32_t kWindowFlows = 1024;  // the window protocols' 1024x128 builds
inline constexpr uint32_t kRdmaFlows = 16;      // the 16x128 builds of the rate and token protocols

template <class SM, class RM = Vrx_16x32>
void run_variants(Proto p, const Scenario& s, uint64_t base, uint32_t sender_flows, bool both_acks,
                  const char* variant = "-", uint32_t rx_flows = 16, uint32_t rx_w = 32) {
  std::vector<Result> rs;
  for (uint64_t seed : seeds(base, p.name)) {
    for (int v = 0; v < (both_acks ? 2 : 1); ++v) {
      p.delack = v == 1;
      Result r = run_loop<SM, RM>(p, s, seed, sender_flows, rx_flows, rx_w);
      r.variant = both_acks ? (p.delack ? "delayed" : "per-seg") : variant;
      print(r);
      rs.push_back(r);
    }
  }
  report(rs);
}

/// Window protocols: 12 flows x 1000 segments of 128 B (one segment per
/// cycle = the output's 102.4 Gb/s, docs/sender-core.md).
inline Scenario window_scenario() {
  Scenario s;
  s.flows = 12;
  s.segs = 1000;
  s.seg_bytes = 128;
  return s;
}

/// A window protocol's runs of the receive-window case
/// (loopback_window.cpp): its Proto, without the host's limit, against
/// rx_1024x128 (variant "nolim-W128") and, with `w32`, rx_16x32
/// ("nolim-W32"). A sender under Karn's rule (RttKarn = 1) leaves out W32:
/// every beyond-window hole there costs an RTO whose ack echoes a
/// retransmission, so no sample collapses the back-off and the RTOs double
/// up to RtoMax (measured with a Karn sender: 46-94 timeouts and 52-65 M
/// cycles per seed).
template <class SM>
void run_window_nolimit(Proto p, const Scenario& s, bool w32 = true) {
  p.rwnd = false;
  run_variants<SM, Vrx_1024x128>(p, s, 0x650, kWindowFlows, false, "nolim-W128", 1024, 128);
  if (w32) run_variants<SM>(p, s, 0x650, kWindowFlows, false, "nolim-W32");
}

/// The window protocols of the receive-window case, registered from their
/// folders (RegisterWindowRun, before main); run in name order.
struct WindowRun {
  const char* protocol;
  void (*run)(const Scenario&);
};
inline std::vector<WindowRun>& window_runs() {
  static std::vector<WindowRun> runs;
  return runs;
}
struct RegisterWindowRun {
  RegisterWindowRun(const char* protocol, void (*run)(const Scenario&)) { window_runs().push_back({protocol, run}); }
};

}  // namespace tonic::loopback
