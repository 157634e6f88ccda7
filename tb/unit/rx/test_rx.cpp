// SPDX-License-Identifier: Apache-2.0
// tonic_rx_engine against RxEngineRef (rx_tb.hpp: every output of every
// cycle compared), directed tests of each mode's rules with hand-written
// expectations, bad input, and seeded random arrival orders with loss,
// duplication and reordering per mode.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "Vrx_1024x128.h"
#include "Vrx_16x32.h"
#include "tonic/rng.hpp"
#include "rx_tb.hpp"

using namespace tonic;

namespace {

using Tb = RxTb<Vrx_16x32>;

RxCfg open_cfg(uint16_t flow, RxMode mode, uint32_t first = 0, uint32_t count = 0) {
  RxCfg c;
  c.flow = flow;
  c.mode = mode;
  c.first = first;
  c.count = count;
  c.node = 7;
  c.ctx = 9;
  c.msgid = 0x12345;
  return c;
}
RxDesc seg(uint16_t flow, uint32_t idx, bool ecn = false, bool trimmed = false) {
  RxDesc d;
  d.flow = flow;
  d.idx = idx;
  d.ecn = ecn;
  d.trimmed = trimmed;
  d.node = 7;
  d.ctx = 9;
  d.msgid = 0x12345;
  return d;
}

/// Cum acks and types of the recorded control packets of `flow`.
std::vector<RxCtl> of_flow(const std::vector<RxCtl>& v, uint16_t flow) {
  std::vector<RxCtl> out;
  for (const RxCtl& c : v)
    if (c.flow == flow) out.push_back(c);
  return out;
}

}  // namespace

TEST_CASE("rx: TCP per-segment acks, out of order, duplicates", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(3, RxMode::kTcp, 100));
  for (uint32_t i : {100u, 101u, 103u, 104u, 102u, 101u, 200u}) tb.data(seg(3, i));
  tb.idle(10);
  const auto& c = tb.ctl();
  REQUIRE(c.size() == 7);
  const uint32_t cum[] = {101, 102, 102, 102, 105, 105, 105};
  for (size_t i = 0; i < 7; ++i) {
    CHECK(c[i].type == ref::kRxAck);
    CHECK(c[i].cum_ack == cum[i]);
  }
  const auto& d = tb.dlv();
  REQUIRE(d.size() == 7);
  CHECK(d[4].deliver);
  CHECK(d[5].reason == RxReason::kDuplicate);
  CHECK(d[6].reason == RxReason::kBeyond);
  CHECK(tb.ref().stats().duplicate == 1);
  CHECK(tb.ref().stats().beyond == 1);
}

TEST_CASE("rx: TCP SACK names the held segment", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  RxCfg c = open_cfg(1, RxMode::kTcp, 0);
  c.sack = true;
  tb.cfg(c);
  for (uint32_t i : {0u, 2u, 2u, 1u}) tb.data(seg(1, i));
  tb.idle(10);
  const auto& a = tb.ctl();
  REQUIRE(a.size() == 4);
  CHECK((a[0].type == ref::kRxAck && a[0].cum_ack == 1));
  CHECK((a[1].type == ref::kRxSack && a[1].cum_ack == 1 && a[1].sack_valid && a[1].sack_idx == 2));
  CHECK((a[2].type == ref::kRxSack && a[2].sack_idx == 2));  // duplicate of a held segment
  CHECK((a[3].type == ref::kRxAck && a[3].cum_ack == 3));
}

TEST_CASE("rx: TCP delayed ack every 2nd segment or AckDelay, immediate out of order", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  RxCfg c = open_cfg(5, RxMode::kTcp, 0);
  c.delack = true;
  tb.cfg(c);
  tb.data(seg(5, 0));
  tb.data(seg(5, 1));
  tb.idle(5);
  REQUIRE(tb.ctl().size() == 1);
  CHECK(tb.ctl()[0].cum_ack == 2);
  tb.data(seg(5, 2));
  tb.idle(20);
  CHECK(tb.ctl().size() == 1);  // waiting for AckDelay (40)
  tb.idle(60);                   // delay + one scan round
  REQUIRE(tb.ctl().size() == 2);
  CHECK(tb.ctl()[1].cum_ack == 3);
  tb.data(seg(5, 5));  // out of order: at once
  tb.idle(4);
  REQUIRE(tb.ctl().size() == 3);
  CHECK(tb.ctl()[2].cum_ack == 3);
}

TEST_CASE("rx: RoCE go-back-N, NackGap, CNP per CnpGap", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(2, RxMode::kRoce, 0));
  tb.data(seg(2, 0));
  tb.data(seg(2, 2));  // NACK(1)
  tb.data(seg(2, 3));  // suppressed
  tb.data(seg(2, 1));  // ACK(2), resets the limiter
  tb.data(seg(2, 3));  // NACK(2) at once
  tb.data(seg(2, 0));  // duplicate: ACK(2)
  tb.idle(6);
  auto a = tb.ctl();
  REQUIRE(a.size() == 5);
  CHECK((a[0].type == ref::kRxAck && a[0].cum_ack == 1));
  CHECK((a[1].type == ref::kRxNack && a[1].cum_ack == 1));
  CHECK((a[2].type == ref::kRxAck && a[2].cum_ack == 2));
  CHECK((a[3].type == ref::kRxNack && a[3].cum_ack == 2));
  CHECK((a[4].type == ref::kRxAck && a[4].cum_ack == 2));
  CHECK(tb.ref().stats().nack_supp == 1);
  CHECK(tb.ref().stats().gbn_drop == 3);
  CHECK_FALSE(tb.dlv()[2].deliver);
  CHECK(tb.dlv()[2].reason == RxReason::kGoBackN);
  tb.ctl().clear();
  tb.data(seg(2, 2, true));  // CE: ACK + CNP
  tb.data(seg(2, 3, true));  // CE within CnpGap: no CNP
  tb.idle(60);
  tb.data(seg(2, 4, true));  // after the gap: CNP
  tb.idle(6);
  a = tb.ctl();
  REQUIRE(a.size() == 5);
  CHECK(a[1].type == ref::kRxCnp);
  CHECK(a[2].type == ref::kRxAck);
  CHECK(a[4].type == ref::kRxCnp);
  CHECK(tb.ref().stats().cnp_supp == 1);
}

TEST_CASE("rx: IRN NACK with SACK, selective", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(4, RxMode::kIrn, 10));
  for (uint32_t i : {10u, 12u, 13u, 11u, 5u}) tb.data(seg(4, i));
  tb.idle(6);
  const auto& a = tb.ctl();
  REQUIRE(a.size() == 5);
  CHECK((a[0].type == ref::kRxAck && a[0].cum_ack == 11));
  CHECK((a[1].type == ref::kRxNack && a[1].cum_ack == 11 && a[1].sack_valid && a[1].sack_idx == 12));
  CHECK((a[2].type == ref::kRxNack && a[2].sack_idx == 13));
  CHECK((a[3].type == ref::kRxAck && a[3].cum_ack == 14));
  CHECK((a[4].type == ref::kRxAck && a[4].cum_ack == 14));
}

TEST_CASE("rx: NDP ack/NACK and paced cumulative pulls", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(6, RxMode::kNdp, 0));
  tb.cfg(open_cfg(7, RxMode::kNdp, 0));
  tb.data(seg(6, 0));
  tb.data(seg(7, 1, false, true));  // trimmed: NACK(1)
  tb.data(seg(6, 2));
  tb.data(seg(7, 0));
  tb.idle(30);
  std::vector<RxCtl> acks, pulls;
  for (const RxCtl& c : tb.ctl()) (c.type == ref::kRxPull ? pulls : acks).push_back(c);
  REQUIRE(acks.size() == 4);
  CHECK(acks[0].type == ref::kRxAck);
  CHECK((acks[1].type == ref::kRxNack && !acks[1].sack_valid && acks[1].sack_idx == 1));
  CHECK((acks[2].type == ref::kRxSack && acks[2].sack_idx == 2));
  REQUIRE(pulls.size() == 4);
  CHECK((pulls[0].flow == 6 && pulls[0].grant == 1));
  CHECK((pulls[1].flow == 7 && pulls[1].grant == 1));
  CHECK((pulls[2].flow == 6 && pulls[2].grant == 2));
  CHECK((pulls[3].flow == 7 && pulls[3].grant == 2));
  CHECK(tb.ref().stats().trimmed == 1);
}

TEST_CASE("rx: window mode RESEND, timeout, go-back, zombie, completion", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(8, RxMode::kWindow, 0, 4));
  tb.data(seg(8, 40));  // past the message end (and beyond W = 32): dropped, no RESEND
  RxDesc z = seg(8, 0);
  z.msgid = 0x11111;  // zombie
  tb.data(z);
  tb.data(seg(8, 1));
  tb.idle(4);
  CHECK(tb.ctl().empty());
  CHECK(tb.dlv()[0].reason == RxReason::kBeyond);
  CHECK(tb.dlv()[1].reason == RxReason::kZombie);
  CHECK(tb.dlv()[2].deliver);
  tb.idle(3 * 80);  // three timeouts: the third with go-back
  auto r = of_flow(tb.ctl(), 8);
  REQUIRE(r.size() >= 3);
  CHECK((r[0].type == ref::kRxResend && r[0].cum_ack == 0 && !r[0].sack_valid && !r[0].go_back));
  CHECK(!r[1].go_back);
  CHECK(r[2].go_back);
  tb.ctl().clear();
  for (uint32_t i : {0u, 2u, 3u}) tb.data(seg(8, i));
  tb.idle(4);
  REQUIRE(tb.done().size() == 1);
  CHECK(tb.done()[0] == 8);
  REQUIRE(tb.ctl().size() == 1);
  CHECK((tb.ctl()[0].type == ref::kRxAck && tb.ctl()[0].cum_ack == 4));
  tb.data(seg(8, 4));  // after completion: duplicate
  tb.idle(200);         // no more timeouts
  CHECK(tb.ctl().size() == 1);
  CHECK(tb.ref().stats().completed == 1);
  CHECK(tb.ref().stats().zombie == 1);
  CHECK(tb.dlv().back().reason == RxReason::kDuplicate);
}

TEST_CASE("rx: bad input is counted and dropped, nothing else changes", "[rx][badinput]") {
  Tb tb(rx_params_16x32());
  RxCfg c = open_cfg(2, RxMode::kIrn, 50);
  tb.cfg(c);
  tb.data(seg(2, 50));
  tb.data(seg(2, 53));
  tb.idle(4);
  const RxEngineRef::Flow before = tb.ref().flow(2);
  const size_t nctl = tb.ctl().size();
  tb.data(seg(9, 0));         // never opened
  tb.data(seg(40, 0));        // out of range (16 flows)
  tb.data(seg(0xFFFF, 0));    // out of range
  RxCfg cl;
  cl.close = true;
  cl.flow = 3;
  tb.cfg(open_cfg(3, RxMode::kTcp));
  tb.cfg(cl);
  tb.data(seg(3, 0));         // closed
  tb.data(seg(2, 50 + 100000));     // far beyond: counted beyond, ACK without SACK
  tb.data(seg(2, 50 - 100000));     // far below: duplicate
  tb.idle(6);
  CHECK(tb.ref().stats().unknown == 4);
  CHECK(tb.ref().stats().beyond == 1);
  for (size_t i = 0; i < 4; ++i) {
    CHECK_FALSE(tb.dlv()[2 + i].deliver);
    CHECK(tb.dlv()[2 + i].reason == RxReason::kUnknown);
  }
  const RxEngineRef::Flow& after = tb.ref().flow(2);
  CHECK(after.wbase == before.wbase);
  CHECK(after.wvec == before.wvec);
  CHECK(tb.ctl().size() == nctl + 2);  // only flow 2's two acks
  // A zombie in window mode changes nothing either.
  tb.cfg(open_cfg(4, RxMode::kWindow, 0, 10));
  tb.data(seg(4, 1));
  tb.idle(2);
  const RxEngineRef::Flow wb = tb.ref().flow(4);
  RxDesc z = seg(4, 0);
  z.node = 8;
  tb.data(z);
  z = seg(4, 0);
  z.ctx = 1;
  tb.data(z);
  tb.idle(4);
  CHECK(tb.ref().stats().zombie == 2);
  CHECK(tb.ref().flow(4).wbase == wb.wbase);
  CHECK(tb.ref().flow(4).wvec == wb.wvec);
  CHECK(tb.ref().flow(4).tmr_t == wb.tmr_t);
}

TEST_CASE("rx: an index past the message end is dropped in every mode, the message completes",
          "[rx][badinput]") {
  // first 100, count 4 (indices 100..103): 104 (in the window) and 140
  // (beyond it) arrive first; each is dropped before the window step
  // (reason beyond, counted beyond), with no control packet and no state
  // change; then 100..103 complete the message. Again after completion
  // (other modes: WBASE is the end, so 104 would be in order).
  for (RxMode mode : {RxMode::kTcp, RxMode::kNdp, RxMode::kRoce, RxMode::kIrn, RxMode::kWindow}) {
    CAPTURE(to_string(mode));
    Tb tb(rx_params_16x32());
    tb.cfg(open_cfg(2, mode, 100, 4));
    tb.idle(2);
    const RxEngineRef::Flow before = tb.ref().flow(2);
    tb.data(seg(2, 104, true));  // CE: no CNP either
    tb.data(seg(2, 140));
    tb.idle(6);
    CHECK(tb.ctl().empty());
    CHECK(tb.ref().stats().beyond == 2);
    CHECK(tb.ref().stats().resends == 0);
    CHECK(tb.ref().stats().cnp_supp == 0);
    const RxEngineRef::Flow& mid = tb.ref().flow(2);
    CHECK(mid.wbase == before.wbase);
    CHECK(mid.wvec == before.wvec);
    CHECK(mid.tmr_t == before.tmr_t);
    CHECK(mid.pull == before.pull);
    CHECK(mid.cnp_on == before.cnp_on);
    for (const RxDlv& x : tb.dlv()) {
      CHECK_FALSE(x.deliver);
      CHECK(x.reason == RxReason::kBeyond);
    }
    for (uint32_t i : {100u, 101u, 102u, 103u}) tb.data(seg(2, i));
    tb.idle(6);
    REQUIRE(tb.done().size() == 1);
    CHECK(tb.ref().flow(2).wbase == 104);
    CHECK(tb.ref().stats().completed == 1);
    tb.data(seg(2, 104));  // after completion
    tb.idle(6);
    CHECK(tb.ref().stats().beyond == (mode == RxMode::kWindow ? 2u : 3u));  // window: duplicate
    CHECK(tb.ref().flow(2).wbase == 104);
    CHECK_FALSE(tb.dlv().back().deliver);
    CHECK(tb.done().size() == 1);
    for (const RxCtl& c : tb.ctl()) CHECK(c.cum_ack <= 104);
  }
}

TEST_CASE("rx: window mode beyond-window RESEND names the dropped index", "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(8, RxMode::kWindow, 0, 100));
  tb.data(seg(8, 1));
  tb.data(seg(8, 40));  // beyond W = 32
  tb.idle(4);
  REQUIRE(tb.ctl().size() == 1);
  const RxCtl& c = tb.ctl()[0];
  CHECK((c.type == ref::kRxResend && c.cum_ack == 0 && c.sack_valid && c.sack_idx == 40 && !c.go_back));
}

namespace {

/// Random traffic: `nflows` flows of `modes`, messages with loss,
/// duplication and reordering, bad input, cfg changes, random idle and
/// control back-pressure; every cycle checked against the reference.
template <class Model>
void random_run(const RxEngineParams& p, const std::vector<RxMode>& modes, uint64_t seed,
                uint32_t cycles, uint32_t nflows) {
  RxTb<Model> tb(p);
  Rng rng(seed);
  struct F {
    uint16_t id;
    RxMode mode;
    uint32_t next = 0;  // next new index the "sender" sends
    uint32_t first = 0;
    uint32_t count = 0;  // 0: unbounded
    std::vector<uint32_t> pending;  // lost / reordered, sent later
  };
  std::vector<F> fl;
  auto open_one = [&](F& f) {
    RxCfg c = open_cfg(f.id, f.mode, static_cast<uint32_t>(rng.bits64()), 0);
    if (rng.chance(0.5)) c.first = static_cast<uint32_t>(rng.below(4)) - 2;  // near the wrap
    c.count = rng.chance(0.6) ? static_cast<uint32_t>(rng.range(8, 200)) : 0;
    c.delack = rng.chance(0.5);
    c.sack = rng.chance(0.5);
    f.first = f.next = c.first;
    f.count = c.count;
    f.pending.clear();
    tb.cfg(c);
  };
  for (uint32_t i = 0; i < nflows; ++i) {
    F f;
    f.id = static_cast<uint16_t>((i * 5 + 1) % p.flows);
    f.mode = modes[rng.below(modes.size())];
    fl.push_back(f);
    open_one(fl.back());
  }
  const double loss = 0.05, dup = 0.05, reorder = 0.2;
  const uint32_t reorder_dist = p.w / 2 + 4;
  double idle = 0.1, stall = 0.0;
  RxEngineIn in;
  bool have = false;
  for (uint32_t t = 0; t < cycles; ++t) {
    if (t % 500 == 0) {
      static constexpr double kIdle[] = {0.0, 0.1, 0.5, 0.9};
      static constexpr double kStall[] = {0.0, 0.0, 0.3, 0.8, 0.98};
      idle = kIdle[rng.below(4)];
      stall = kStall[rng.below(5)];
    }
    if (!have) {
      in = RxEngineIn{};
      const double r = (static_cast<double>(rng.bits64() >> 11) / 9007199254740992.0);
      if (r < 0.002) {
        F& f = fl[rng.below(fl.size())];
        if (rng.chance(0.3)) {
          RxCfg c;
          c.close = true;
          c.flow = f.id;
          in.cfg_valid = true;
          in.cfg = c;
        } else {
          f.mode = modes[rng.below(modes.size())];
          open_one(f);
          continue;
        }
      } else if (!rng.chance(idle)) {
        F& f = fl[rng.below(fl.size())];
        RxDesc d;
        const RxEngineRef::Flow& rf = tb.ref().flow(f.id % p.flows);
        if ((!rf.open && rng.chance(0.5)) || (rf.done && rng.chance(0.1))) {
          open_one(f);  // a closed flow comes back
          continue;
        }
        const uint32_t base = rf.wbase;
        if (f.mode == RxMode::kRoce && seq_lt(base, f.next) && rng.chance(0.05)) f.next = base;  // go back
        const bool full = seq_dist(base, f.next) < 0x8000'0000u && seq_dist(base, f.next) >= p.w - 2;
        if (full && (f.pending.empty() || rng.chance(0.5))) {
          d = seg(f.id, base + static_cast<uint32_t>(rng.below(3)));  // timeout retransmission
        } else if (!f.pending.empty() && (full || rng.chance(0.3))) {
          const size_t k = rng.below(f.pending.size());
          d = seg(f.id, f.pending[k]);
          f.pending.erase(f.pending.begin() + static_cast<long>(k));
        } else {
          const uint32_t idx = f.next++;
          if (rng.chance(loss)) {
            f.pending.push_back(idx);  // lost, retransmitted later
            continue;
          }
          if (rng.chance(reorder)) {
            d = seg(f.id, idx + static_cast<uint32_t>(rng.below(reorder_dist)));
            f.pending.push_back(idx);
          } else {
            d = seg(f.id, idx);
          }
          if (rng.chance(dup)) f.pending.push_back(idx);
        }
        d.ecn = rng.chance(0.15);
        d.trimmed = rng.chance(0.04);
        d.txid = static_cast<uint8_t>(rng.below(4));
        d.last = rng.chance(0.05);
        const double bad = (static_cast<double>(rng.bits64() >> 11) / 9007199254740992.0);
        if (bad < 0.02) d.flow = static_cast<uint16_t>(rng.below(65536));           // unknown
        else if (bad < 0.04) d.msgid ^= 1u << rng.below(20);                        // zombie
        else if (bad < 0.05) d.idx += static_cast<uint32_t>(rng.bits64() | 1);      // far away
        else if (bad < 0.07) d.idx += p.w + static_cast<uint32_t>(rng.below(p.w));  // beyond
        else if (bad < 0.06) d.idx = f.first + static_cast<uint32_t>(rng.below(4)); // old
        else if (bad < 0.08 && f.count != 0)                                         // past the end
          d.idx = f.first + f.count + static_cast<uint32_t>(rng.below(p.w + 8));
        if (f.pending.size() > 64) f.pending.erase(f.pending.begin());
        in.data_valid = true;
        in.data = d;
      }
      have = in.data_valid || in.cfg_valid;
    }
    in.ctl_ready = !rng.chance(stall);
    const bool took = tb.cycle(in);
    if (in.cfg_valid || took) have = false;
  }
  // Drain.
  RxEngineIn drain;
  for (uint32_t t = 0; t < 4 * p.flows + 200; ++t) tb.cycle(drain);
  const RxEngineStats& st = tb.ref().stats();
  std::fprintf(stderr, "  %s\n", str(st).c_str());
  CHECK(st.ctl_sent > 0);
  CHECK(st == tb.dut_stats());
}

}  // namespace

TEST_CASE("rx: random arrivals per mode against the reference", "[rx][stress]") {
  struct M {
    const char* name;
    std::vector<RxMode> modes;
  };
  const std::vector<M> runs = {
      {"tcp", {RxMode::kTcp}},   {"roce", {RxMode::kRoce}},     {"irn", {RxMode::kIrn}},
      {"ndp", {RxMode::kNdp}},   {"window", {RxMode::kWindow}},
      {"mixed", {RxMode::kTcp, RxMode::kNdp, RxMode::kRoce, RxMode::kIrn, RxMode::kWindow}}};
  for (const M& m : runs) {
    DYNAMIC_SECTION(m.name) {
      TONIC_SEED(0x5eed0000 + m.modes.size() * 17 + static_cast<uint64_t>(m.modes[0]));
      random_run<Vrx_16x32>(rx_params_16x32(), m.modes, tonic_seed_, 250000, 6);
    }
  }
}

TEST_CASE("rx: random arrivals, 1024 flows W=128", "[rx][stress]") {
  TONIC_SEED(0x1024128);
  random_run<Vrx_1024x128>(
      rx_params_1024x128(), {RxMode::kTcp, RxMode::kNdp, RxMode::kRoce, RxMode::kIrn, RxMode::kWindow},
      tonic_seed_, 150000, 24);
}

// The reference's rules against the NDP, RoCE and IRN receiver models (rules layer
// only, no RTL): the same arrivals give the same acks, NACKs, SACKs and CNPs.
#include "tonic/irn_receiver.hpp"
#include "tonic/ndp_receiver.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/tcp_receiver.hpp"

TEST_CASE("rx: reference rules agree with the NDP, RoCE and IRN receiver models", "[rx][smoke]") {
  TONIC_SEED(0xab1e);
  Rng rng(tonic_seed_);
  RxEngineParams p = rx_params_16x32();
  for (RxMode mode : {RxMode::kTcp, RxMode::kRoce, RxMode::kIrn, RxMode::kNdp}) {
    CAPTURE(to_string(mode));
    RxEngineRef eng(p);
    RxCfg c = open_cfg(1, mode, 1000);
    c.sack = true;
    eng.config(c, 0);
    RxConfig tc;
    tc.window = p.w;
    tc.sack = true;
    TcpReceiver tcp(tc);
    tcp.open(1, 1000);
    RoceRxConfig rc;
    rc.nack_gap = p.nack_gap;
    rc.cnp.gap = p.cnp_gap;
    RoceReceiver roce(rc);
    roce.open(1, 1000);
    IrnRxConfig ic;
    ic.window = p.w;
    ic.cnp.gap = p.cnp_gap;
    IrnReceiver irn(ic);
    irn.open(1, 1000);
    NdpRxConfig nc;
    nc.window = p.w;
    NdpReceiver ndp(nc);
    ndp.open(1, 1000);
    uint32_t next = 1000;
    for (uint32_t t = 1; t < 3000; ++t) {
      const uint32_t base = eng.flow(1).wbase;
      uint32_t idx = rng.chance(0.3) ? base + static_cast<uint32_t>(rng.below(p.w + 8)) - 2 : next++;
      if (seq_lt(base + p.w + 8, next)) next = base;
      const bool ce = rng.chance(0.2);
      const bool trim = mode == RxMode::kNdp && rng.chance(0.1);
      std::vector<RxCtl> want;
      RxEngineRef::Result r = eng.descriptor(seg(1, idx, ce, trim), t);
      std::vector<RxEvent> got;
      switch (mode) {
        case RxMode::kTcp:
          tcp.segment(t, 1, idx);
          for (const AckEvent& a : tcp.take_acks()) got.push_back(to_rx_event(a));
          for (RxCtl& x : r.ctl) x.ecn = false;  // the TCP model does not echo CE
          break;
        case RxMode::kRoce:
          roce.segment(t, 1, idx, ce);
          got = roce.take_acks();
          break;
        case RxMode::kIrn:
          irn.segment(t, 1, idx, ce);
          got = irn.take_acks();
          break;
        default:
          ndp.segment(t, 1, idx, trim);
          for (const RxEvent& e : ndp.take_acks())
            if (e.type != ref::kRxPull) got.push_back(e);
          break;
      }
      INFO("t " << t << " idx " << idx);
      REQUIRE(got.size() == r.ctl.size());
      for (size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].type == r.ctl[i].type);
        CHECK(got[i].cum_ack == r.ctl[i].cum_ack);
        CHECK(got[i].sack_valid == r.ctl[i].sack_valid);
        if (got[i].sack_valid || got[i].type == ref::kRxNack) CHECK(got[i].sack_idx == r.ctl[i].sack_idx);
      }
    }
  }
}
