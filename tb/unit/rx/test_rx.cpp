// SPDX-License-Identifier: Apache-2.0
// tonic_rx_engine against RxEngineRef (rx_tb.hpp: every output of every
// cycle compared), directed tests of each mode's rules with hand-written
// expectations, bad input, and seeded random arrival orders with loss,
// duplication and reordering per mode.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
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

/// A descriptor with its transmit stamp and retransmit flag.
RxDesc segt(uint16_t flow, uint32_t idx, uint32_t ts, bool rtx = false, bool ecn = false) {
  RxDesc d = seg(flow, idx, ecn);
  d.ts = ts;
  d.rtx = rtx;
  return d;
}
/// A SACK block [lo, hi).
SackBlock blk(uint32_t lo, uint32_t hi) { return SackBlock{true, lo, hi}; }
/// The blocks, unused ones after the listed.
SackBlocks blks(std::initializer_list<SackBlock> b) {
  SackBlocks out{};
  size_t i = 0;
  for (const SackBlock& x : b) out[i++] = x;
  return out;
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

TEST_CASE("rx: TCP echo: own stamp in order, TS.Recent out of order, hole fill, rtx flag",
          "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(3, RxMode::kTcp, 100));
  tb.data(segt(3, 101, 7));         // out of order first: its own stamp (nothing recorded yet)
  tb.data(segt(3, 100, 10));        // fills the hole: its own stamp
  tb.data(segt(3, 102, 11, true));  // in order, a retransmission: own stamp, rtx
  tb.data(segt(3, 104, 12));        // out of order: TS.Recent = 102's
  tb.data(segt(3, 100, 13, true));  // duplicate below: TS.Recent still 102's
  tb.data(segt(3, 103, 14));        // fills the hole: own
  tb.data(segt(3, 110, 15));        // out of order: 103's
  tb.idle(8);
  const auto& c = tb.ctl();
  REQUIRE(c.size() == 7);
  const Echo want[] = {echo_of(7, false),  echo_of(10, false), echo_of(11, true), echo_of(11, true),
                       echo_of(11, true),  echo_of(14, false), echo_of(14, false)};
  const uint32_t cum[] = {100, 102, 103, 103, 103, 105, 105};
  for (size_t i = 0; i < 7; ++i) {
    INFO("ack " << i << " " << str(c[i]));
    CHECK(c[i].cum_ack == cum[i]);
    CHECK(c[i].echo == want[i]);
    CHECK(c[i].blks == SackBlocks{});  // no SACK option
  }
}

TEST_CASE("rx: TCP delayed ack echoes the earliest segment it covers, the timer ack too",
          "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  RxCfg c = open_cfg(5, RxMode::kTcp, 0);
  c.delack = true;
  tb.cfg(c);
  tb.data(segt(5, 0, 20));
  tb.data(segt(5, 1, 21, true));  // 2nd: ack of both, echo 0's
  tb.data(segt(5, 2, 22, true));  // held back: the timer acks it with its echo
  tb.idle(100);
  tb.data(segt(5, 3, 30));
  tb.data(segt(5, 5, 31));  // out of order: at once, echo 3's (pending, the earliest it covers)
  tb.idle(6);
  const auto& a = tb.ctl();
  REQUIRE(a.size() == 3);
  CHECK((a[0].cum_ack == 2 && a[0].echo == echo_of(20, false)));
  CHECK((a[1].cum_ack == 3 && a[1].echo == echo_of(22, true)));
  CHECK((a[2].cum_ack == 4 && a[2].echo == echo_of(30, false)));
}

TEST_CASE("rx: NACKs echo the packet that triggered them, other packets carry no echo",
          "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  tb.cfg(open_cfg(2, RxMode::kRoce, 0));
  tb.cfg(open_cfg(4, RxMode::kIrn, 0));
  tb.cfg(open_cfg(6, RxMode::kNdp, 0));
  tb.data(segt(2, 0, 40));
  tb.data(segt(2, 2, 41, true, true));  // RoCE NACK(1) echoes 41 rtx, then a CNP (no echo)
  tb.data(segt(4, 0, 50));
  tb.data(segt(4, 2, 51, true));  // IRN NACK with SACK echoes 51 rtx
  RxDesc t = segt(6, 1, 60, true);
  t.trimmed = true;
  tb.data(t);                     // NDP NACK of a trimmed header echoes 60 rtx
  tb.data(segt(6, 0, 61));        // NDP ACK: no echo
  tb.idle(40);
  std::vector<RxCtl> pk;
  for (const RxCtl& x : tb.ctl())
    if (x.type != ref::kRxPull) pk.push_back(x);
    else CHECK_FALSE(x.echo.valid);
  REQUIRE(pk.size() == 7);
  CHECK((pk[0].type == ref::kRxAck && !pk[0].echo.valid));
  CHECK((pk[1].type == ref::kRxNack && pk[1].echo == echo_of(41, true)));
  CHECK((pk[2].type == ref::kRxCnp && !pk[2].echo.valid));
  CHECK((pk[3].type == ref::kRxAck && !pk[3].echo.valid));
  CHECK((pk[4].type == ref::kRxNack && pk[4].echo == echo_of(51, true)));
  CHECK((pk[5].type == ref::kRxNack && pk[5].flow == 6 && pk[5].echo == echo_of(60, true)));
  CHECK((pk[6].type == ref::kRxAck && pk[6].flow == 6 && !pk[6].echo.valid));
  for (const RxCtl& x : tb.ctl()) CHECK(x.blks == SackBlocks{});
}

TEST_CASE("rx: SACK blocks: the arriving run first, then the runs reported before, at most three",
          "[rx][smoke]") {
  Tb tb(rx_params_16x32());
  RxCfg c = open_cfg(1, RxMode::kTcp, 0);
  c.sack = true;
  tb.cfg(c);
  // Four holes: 0, 3, 6, 9 missing; runs 1-2, 4-5, 7-8, 10-11.
  for (uint32_t i : {1u, 2u, 4u, 5u, 7u, 8u, 10u, 11u}) tb.data(seg(1, i));
  tb.idle(6);
  auto a = tb.ctl();
  REQUIRE(a.size() == 8);
  CHECK(a[0].blks == blks({blk(1, 2)}));
  CHECK(a[1].blks == blks({blk(1, 3)}));
  CHECK(a[2].blks == blks({blk(4, 5), blk(1, 3)}));
  CHECK(a[3].blks == blks({blk(4, 6), blk(1, 3)}));
  CHECK(a[4].blks == blks({blk(7, 8), blk(4, 6), blk(1, 3)}));
  CHECK(a[6].blks == blks({blk(10, 11), blk(7, 9), blk(4, 6)}));  // 1-2 no longer fits
  CHECK(a[7].blks == blks({blk(10, 12), blk(7, 9), blk(4, 6)}));
  for (const RxCtl& x : a) CHECK((x.type == ref::kRxSack && x.cum_ack == 0));
  tb.ctl().clear();
  tb.data(seg(1, 1));   // a duplicate of a held segment: its run first again (1-2 comes back)
  tb.data(seg(1, 5));   // 4-5 first, the rest in the order of the last report
  tb.data(seg(1, 3));   // joins 1-2 and 4-5: one block 1-5, not repeated (7-8 was not in the last report)
  tb.data(seg(1, 0));   // fills the first hole: cum 6, the blocks below it are gone
  tb.data(seg(1, 40));  // beyond W = 32: acked with the blocks, no block for it
  tb.data(seg(1, 9));   // joins 7-8 and 10-11
  tb.data(seg(1, 6));   // fills everything: cum 12, no block
  tb.idle(6);
  a = tb.ctl();
  REQUIRE(a.size() == 7);
  CHECK(a[0].blks == blks({blk(1, 3), blk(10, 12), blk(7, 9)}));
  CHECK(a[1].blks == blks({blk(4, 6), blk(1, 3), blk(10, 12)}));
  CHECK(a[2].blks == blks({blk(1, 6), blk(10, 12)}));
  CHECK((a[3].type == ref::kRxAck && a[3].cum_ack == 6 && a[3].blks == blks({blk(10, 12)})));
  CHECK((a[4].type == ref::kRxAck && !a[4].sack_valid && a[4].blks == blks({blk(10, 12)})));
  CHECK((a[5].type == ref::kRxSack && a[5].blks == blks({blk(7, 12)})));
  CHECK((a[6].type == ref::kRxAck && a[6].cum_ack == 12 && a[6].blks == SackBlocks{}));
}

TEST_CASE("rx: SACK blocks with one to four holes, across the 2^32 wrap", "[rx][smoke]") {
  // Each run: first = 2^32 - 6, the segments above `holes` holes of one
  // segment each (runs of two), sent in order, then the holes filled from
  // the top: each ack's blocks against SackReport on the same held set.
  for (uint32_t holes = 1; holes <= 4; ++holes) {
    CAPTURE(holes);
    Tb tb(rx_params_16x32());
    RxCfg c = open_cfg(9, RxMode::kTcp, 0xFFFFFFFAu);
    c.sack = true;
    tb.cfg(c);
    std::vector<uint32_t> order;
    for (uint32_t h = 0; h < holes; ++h) {
      order.push_back(0xFFFFFFFAu + 3 * h + 1);
      order.push_back(0xFFFFFFFAu + 3 * h + 2);
    }
    for (uint32_t h = holes; h-- > 0;) order.push_back(0xFFFFFFFAu + 3 * h);
    std::set<uint32_t> held;
    uint32_t cum = 0xFFFFFFFAu;
    SackReport want;
    for (uint32_t i : order) {
      tb.ctl().clear();
      tb.data(seg(9, i));
      tb.idle(5);
      if (i == cum) {
        ++cum;
        while (held.erase(cum)) ++cum;
      } else {
        held.insert(i);
      }
      const bool trig = held.count(i) != 0;
      const SackBlocks w = want.ack(cum, trig ? std::optional<uint32_t>(i) : std::nullopt,
                                    [&](uint32_t x) { return held.count(x) != 0; });
      REQUIRE(tb.ctl().size() == 1);
      INFO("after " << i << ": " << str(tb.ctl()[0]));
      CHECK(tb.ctl()[0].cum_ack == cum);
      CHECK(tb.ctl()[0].blks == w);
    }
    CHECK(cum == 0xFFFFFFFAu + 3 * holes);
  }
}

TEST_CASE("rx: CE state with delayed acks: a change acks the pending segment first, ecn = the state",
          "[rx][smoke]") {
  // Marks per in-order segment and the acks expected (cum, ecn) with the
  // bit on; with it off, today's rule: the mark of the segment that caused
  // the ack, no extra ack.
  const bool marks[] = {false, false, false, true, true, true, false, true, false, false};
  for (bool on : {true, false}) {
    CAPTURE(on);
    Tb tb(rx_params_16x32());
    RxCfg c = open_cfg(7, RxMode::kTcp, 0);
    c.delack = true;
    c.ce_state_acks = on;
    tb.cfg(c);
    for (uint32_t i = 0; i < 10; ++i) tb.data(segt(7, i, 100 + i, false, marks[i]));
    tb.idle(100);  // the last one by the timer
    std::vector<std::pair<uint32_t, bool>> got;
    for (const RxCtl& x : tb.ctl()) got.emplace_back(x.cum_ack, x.ecn);
    std::vector<std::pair<uint32_t, bool>> want;
    if (on) {
      // 0,1 acked together; 2 pending, 3 flips: ack 3 (0), state 1; 3,4
      // together (1); 5 pending, 6 flips: ack 6 (1); 6 pending, 7 flips:
      // ack 7 (0); 7 pending, 8 flips: ack 8 (1); 8,9 together (0).
      want = {{2, false}, {3, false}, {5, true}, {6, true}, {7, false}, {8, true}, {10, false}};
    } else {
      // Every 2nd segment, ecn = its mark.
      want = {{2, false}, {4, true}, {6, true}, {8, true}, {10, false}};
    }
    CHECK(got == want);
    if (on) {
      // The flush ack echoes the segment it acks; the 2nd segment's ack the earlier one.
      REQUIRE(tb.ctl().size() == 7);
      CHECK(tb.ctl()[1].echo == echo_of(102, false));
      CHECK(tb.ctl()[2].echo == echo_of(103, false));
    }
  }
  // The timer ack carries the state; an out-of-order arrival flips and
  // acks with the new state after the flush.
  Tb tb(rx_params_16x32());
  RxCfg c = open_cfg(8, RxMode::kTcp, 0);
  c.delack = true;
  c.ce_state_acks = true;
  tb.cfg(c);
  tb.data(segt(8, 0, 1, false, true));  // flips to 1 (nothing pending), held back
  tb.idle(100);                          // timer ack, ecn 1
  tb.data(segt(8, 1, 2, false, true));   // pending
  tb.data(segt(8, 3, 3, false, false));  // flips: ack 2 (1) first, then the dup ack (0)
  tb.idle(6);
  const auto& a = tb.ctl();
  REQUIRE(a.size() == 3);
  CHECK((a[0].cum_ack == 1 && a[0].ecn && a[0].echo == echo_of(1, false)));
  CHECK((a[1].cum_ack == 2 && a[1].ecn && a[1].echo == echo_of(2, false)));
  CHECK((a[2].cum_ack == 2 && !a[2].ecn && a[2].echo == echo_of(2, false)));
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
    c.ce_state_acks = rng.chance(0.5);
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
        d.ts = static_cast<uint32_t>(rng.bits64());
        d.rtx = rng.chance(0.2);
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
  // Every field of every event, the echo and the SACK blocks included;
  // TCP twice: per-segment acks, and delayed acks with the CE state (the
  // engine's timer visited every cycle, so it fires at the model's
  // deadline).
  TONIC_SEED(0xab1e);
  Rng rng(tonic_seed_);
  RxEngineParams p = rx_params_16x32();
  struct Run {
    RxMode mode;
    bool delayed;
  };
  for (const Run& run : {Run{RxMode::kTcp, false}, Run{RxMode::kTcp, true}, Run{RxMode::kRoce, false},
                         Run{RxMode::kIrn, false}, Run{RxMode::kNdp, false}}) {
    const RxMode mode = run.mode;
    CAPTURE(to_string(mode), run.delayed);
    RxEngineRef eng(p);
    RxCfg c = open_cfg(1, mode, 1000);
    c.sack = true;
    c.delack = run.delayed;
    c.ce_state_acks = run.delayed;
    eng.config(c, 0);
    RxConfig tc;
    tc.window = p.w;
    tc.sack = true;
    tc.delayed_ack = run.delayed;
    tc.delack_timeout = p.ack_delay;
    tc.ce_state_acks = run.delayed;
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
    uint64_t events = 0, blocks = 0, echoes = 0, flushes = 0;
    auto compare = [&](uint32_t t, const std::vector<RxEvent>& got, const std::vector<RxCtl>& want) {
      INFO("t " << t);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        RxCtl g;
        g.flow = static_cast<uint16_t>(got[i].flow);
        g.type = got[i].type;
        g.cum_ack = got[i].cum_ack;
        g.sack_valid = got[i].sack_valid;
        g.sack_idx = got[i].sack_valid || got[i].type == ref::kRxNack ? got[i].sack_idx : 0;
        g.ecn = got[i].ecn;
        g.grant = got[i].grant;
        g.echo = got[i].echo;
        g.blks = got[i].blks;
        RxCtl w = want[i];
        if (!(w.sack_valid || w.type == ref::kRxNack)) w.sack_idx = 0;
        INFO("model " << str(g) << " reference " << str(w));
        CHECK(g == w);
        ++events;
        blocks += g.blks[0].valid;
        echoes += g.echo.valid;
      }
    };
    for (uint32_t t = 1; t < 4000; ++t) {
      if (rng.chance(0.05)) t += static_cast<uint32_t>(rng.below(2 * p.ack_delay));  // idle: timers
      if (mode == RxMode::kTcp) {
        // The engine's timer visited at t (one segment at most is pending,
        // so one visit finds what the model's timers fired by t).
        std::vector<RxCtl> want;
        if (auto x = eng.scan_visit(1, t)) want.push_back(*x);
        tcp.advance(t);
        std::vector<RxEvent> got;
        for (const AckEvent& a : tcp.take_acks()) got.push_back(to_rx_event(a));
        compare(t, got, want);
      }
      const uint32_t base = eng.flow(1).wbase;
      // Delayed acks: mostly in order, so that segments are pending.
      uint32_t idx = rng.chance(run.delayed ? 0.03 : 0.3) ? base + static_cast<uint32_t>(rng.below(p.w + 8)) - 2
                                                          : next++;
      if (seq_lt(base + p.w + 8, next)) next = base;
      const bool ce = rng.chance(run.delayed ? 0.3 : 0.2);
      const bool trim = mode == RxMode::kNdp && rng.chance(0.1);
      const uint32_t ts = t * 7;
      const bool rtx = rng.chance(0.3);
      RxDesc d = segt(1, idx, ts, rtx, ce);
      d.trimmed = trim;
      RxEngineRef::Result r = eng.descriptor(d, t);
      std::vector<RxEvent> got;
      switch (mode) {
        case RxMode::kTcp:
          tcp.segment(t, 1, idx, ts, rtx, ce);
          for (const AckEvent& a : tcp.take_acks()) {
            got.push_back(to_rx_event(a));
            flushes += a.cause == AckCause::kCeChange;
          }
          break;
        case RxMode::kRoce:
          roce.segment(t, 1, idx, ce, ts, rtx);
          got = roce.take_acks();
          break;
        case RxMode::kIrn:
          irn.segment(t, 1, idx, ce, ts, rtx);
          got = irn.take_acks();
          break;
        default:
          ndp.segment(t, 1, idx, trim, ts, rtx);
          for (const RxEvent& e : ndp.take_acks())
            if (e.type != ref::kRxPull) got.push_back(e);
          break;
      }
      for (RxCtl& x : r.ctl) x.grant = 0;  // the models' grants are on the PULLs
      compare(t, got, r.ctl);
    }
    std::fprintf(stderr, "  %s%s: %llu events, %llu with blocks, %llu echoes, %llu CE flushes\n",
                 to_string(mode), run.delayed ? " delayed" : "", static_cast<unsigned long long>(events),
                 static_cast<unsigned long long>(blocks), static_cast<unsigned long long>(echoes),
                 static_cast<unsigned long long>(flushes));
    CHECK(echoes > 0);
    if (mode == RxMode::kTcp) CHECK(blocks > 100);
    if (run.delayed) CHECK(flushes > 10);
  }
}
