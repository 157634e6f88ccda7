// SPDX-License-Identifier: Apache-2.0
// TCP Reno (protocols/reno): directed tests of each rule. Every event goes
// through the Verilated modules and the twin (FlowSim checks they agree);
// the tests then check the outputs against values worked out by hand.
// Also registers the cases every window protocol shares
// (tb/unit/proto/proto_cases.hpp) for Reno's configs. Part of test_proto.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "Vreno_incoming.h"
#include "Vreno_incoming_w256.h"
#include "Vreno_periodic.h"
#include "protocols/reno/twin.hpp"
#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb {

using ref::RenoTwin;
using RenoIncoming = Cfg<Vreno_incoming, RenoTwin, 128, true>;
using RenoPeriodic = Cfg<Vreno_periodic, RenoTwin, 128, false>;
using RenoIncoming256 = Cfg<Vreno_incoming_w256, RenoTwin, 256, true>;
/// One flow through the W = 128 incoming and periodic models.
using RenoFlow = FlowSim<Vreno_incoming, Vreno_periodic, RenoTwin, 128>;

}  // namespace tonic::prototb

// The cases every window protocol shares, for this protocol's configs.
#define PROTO_CONFIGS \
  tonic::prototb::RenoIncoming, tonic::prototb::RenoPeriodic, tonic::prototb::RenoIncoming256
#define PROTO_FLOWS RenoFlow
#define PROTO_RTO_FLOWS RenoFlow
#define PROTO_TWIN tonic::ref::RenoTwin
#include "unit/proto/proto_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {

using User = RenoTwin::User;
constexpr uint32_t kRto = RenoTwin::kRtoInit;

/// A new cumulative ack's fixed part: window written, RTO reset, timer
/// restarted while data is in flight, nothing marked.
void check_new_ack(const RenoFlow& f, const ProtoOut& o, uint32_t wnd) {
  REQUIRE(o.wnd_we);
  REQUIRE(o.wnd == wnd);
  REQUIRE(!o.mark_we);
  REQUIRE(o.rto_we);
  REQUIRE(o.rto == kRto);
  REQUIRE(o.timer_restart == (f.flight() > 0));
  REQUIRE(o.user_we);
  REQUIRE(f.u().dup_acks == 0);
}

}  // namespace

TEST_CASE("proto: reno: slow start doubles cwnd once per window of acks", "[proto][reno][smoke]") {
  RenoFlow f;
  f.wnd = 2;
  for (uint32_t w0 = 2; w0 <= 64; w0 *= 2) {
    REQUIRE(f.wnd == w0);
    f.send(w0);
    for (uint32_t i = 1; i <= w0; ++i) {
      const ProtoOut o = f.ack(f.wnd_start + 1);
      check_new_ack(f, o, w0 + i);
      REQUIRE(f.u().ca_cnt == 0);
    }
  }
  REQUIRE(f.wnd == 128);
  // At W the window stays at W.
  f.send(128);
  for (int i = 0; i < 4; ++i) check_new_ack(f, f.ack(f.wnd_start + 1), 128);
}

TEST_CASE("proto: reno: slow start grows by one per ack (RFC 5681), by at most 2 with byte counting (delayed and stretch acks)",
          "[proto][reno][smoke]") {
  RenoFlow f;
  f.wnd = 4;
  f.send(4);
  // RFC 5681 (ByteCounting = 0): +1 per ack whatever it covers; RFC 3465
  // (ByteCounting = 1): + min(newly acked, L = 2).
  const uint32_t per2 = RenoTwin::kByteCounting != 0 ? 2 : 1;
  check_new_ack(f, f.ack(2), 4 + per2);   // delayed ack of 2 segments
  check_new_ack(f, f.ack(4), 4 + 2 * per2);
  f.send(8);
  check_new_ack(f, f.ack(12), 4 + 3 * per2);  // stretch ack of 8 segments
}

TEST_CASE("proto: reno: congestion avoidance adds one segment per cwnd acks (RFC 5681, per cwnd segments with byte counting)",
          "[proto][reno][smoke]") {
  RenoFlow f;
  User u;
  u.ssthresh = 10;
  f.set_user(u);
  f.wnd = 10;
  f.send(10);
  for (uint32_t i = 1; i <= 9; ++i) {
    check_new_ack(f, f.ack(i), 10);
    REQUIRE(f.u().ca_cnt == i);
  }
  check_new_ack(f, f.ack(10), 11);
  REQUIRE(f.u().ca_cnt == 0);
  f.send(11);
  for (uint32_t i = 1; i <= 10; ++i) check_new_ack(f, f.ack(10 + i), 11);
  check_new_ack(f, f.ack(21), 12);
  // A delayed ack of 2 segments at the threshold: counted once (RFC 5681:
  // SMSS*SMSS/cwnd per ack), or twice with byte counting, which keeps the
  // excess.
  f.send(13);
  for (uint32_t i = 1; i <= 11; ++i) check_new_ack(f, f.ack(21 + i), 12);
  REQUIRE(f.u().ca_cnt == 11);
  check_new_ack(f, f.ack(34), 13);
  REQUIRE(f.u().ca_cnt == (RenoTwin::kByteCounting != 0 ? 1u : 0u));
  REQUIRE(f.u().ssthresh == 10);
  // Per ack, not per segment: cwnd 13 takes 13 more acks, even delayed ones.
  if (RenoTwin::kByteCounting == 0) {
    f.send(26);
    for (uint32_t i = 1; i <= 12; ++i) check_new_ack(f, f.ack(34 + 2 * i), 13);
    check_new_ack(f, f.ack(34 + 26), 14);
  }
}

TEST_CASE("proto: reno: the 3rd duplicate ack triggers exactly one fast retransmit",
          "[proto][reno][smoke]") {
  RenoFlow f;  // cwnd 10, ssthresh infinite
  f.send(10);
  check_new_ack(f, f.ack(1), 11);  // slow start
  REQUIRE(f.flight() == 9);
  int marks = 0;
  std::vector<uint32_t> marked;
  for (uint32_t d = 1; d <= 6; ++d) {
    INFO("dup ack " << d);
    const ProtoOut o = f.ack(1);
    REQUIRE(f.last_in.dup);
    REQUIRE(!o.rto_we);
    REQUIRE(!o.timer_restart);
    marks += o.mark_we;
    marked.insert(marked.end(), f.newly_marked.begin(), f.newly_marked.end());
    if (d < 3) {
      REQUIRE(o.user_we);
      REQUIRE(!o.wnd_we);
      REQUIRE(!o.mark_we);
      REQUIRE(f.u().dup_acks == d);
    } else if (d == 3) {
      // ssthresh = max(FlightSize / 2, 2) = 4; cwnd = ssthresh + 3.
      REQUIRE(o.mark_we);
      REQUIRE(o.mark_lo == 1);
      REQUIRE(o.mark_hi == 2);
      REQUIRE(o.wnd_we);
      REQUIRE(o.wnd == 7);
      REQUIRE(o.user_we);
      REQUIRE(f.u().dup_acks == 3);
      REQUIRE(f.u().ssthresh == 4);
      REQUIRE(f.u().ca_cnt == 0);
    } else {
      // Beyond the 3rd: inflate by one per dup ack, nothing else.
      REQUIRE(o.wnd_we);
      REQUIRE(o.wnd == 7 + (d - 3));
      REQUIRE(!o.mark_we);
      REQUIRE(!o.user_we);
    }
  }
  REQUIRE(marks == 1);
  REQUIRE(marked == std::vector<uint32_t>{1});
  REQUIRE(f.wnd == 10);

  SECTION("a new ack leaves fast recovery with cwnd = ssthresh") {
    check_new_ack(f, f.ack(5), 4);
    REQUIRE(f.u().ssthresh == 4);
    REQUIRE(f.u().ca_cnt == 0);
    // Then congestion avoidance (cwnd = ssthresh).
    check_new_ack(f, f.ack(6), 4);
    REQUIRE(f.u().ca_cnt == 1);
  }
  SECTION("a timeout in fast recovery leaves it") {
    const ProtoOut o = f.timeout();
    REQUIRE(o.wnd == 1);
    REQUIRE(f.u().dup_acks == 0);
    // The next new ack is slow start from 1, not "leave fast recovery".
    check_new_ack(f, f.ack(2), 2);
  }
}

TEST_CASE("proto: reno: ssthresh after a loss is at least 2", "[proto][reno][smoke]") {
  RenoFlow f;
  f.send(3);
  f.ack(0);
  f.ack(0);
  const ProtoOut o = f.ack(0);
  REQUIRE(o.mark_we);
  REQUIRE(o.mark_lo == 0);
  REQUIRE(o.mark_hi == 1);
  REQUIRE(f.u().ssthresh == 2);  // max(3 / 2, 2)
  REQUIRE(o.wnd == 5);
}

TEST_CASE("proto: reno: a timeout sets cwnd to 1, marks wnd_start and backs off the RTO",
          "[proto][reno][smoke]") {
  RenoFlow f;
  f.send(10);
  const uint32_t per2 = RenoTwin::kByteCounting != 0 ? 2 : 1;  // a 2-segment ack's growth
  check_new_ack(f, f.ack(2), 10 + per2);
  REQUIRE(f.flight() == 8);
  uint32_t rto = kRto;
  for (int k = 1; k <= 8; ++k) {
    INFO("timeout " << k);
    const ProtoOut o = f.timeout();
    rto = std::min<uint32_t>(2 * rto, RenoTwin::kRtoMax);
    REQUIRE(o.wnd_we);
    REQUIRE(o.wnd == 1);
    REQUIRE(o.mark_we);
    REQUIRE(o.mark_lo == 2);
    REQUIRE(o.mark_hi == 3);
    REQUIRE(o.rto_we);
    REQUIRE(o.rto == rto);
    REQUIRE(o.timer_restart);
    REQUIRE(o.user_we);
    REQUIRE(f.u().ssthresh == 4);
    REQUIRE(f.u().dup_acks == 0);
  }
  REQUIRE(rto == 1280000);  // capped at RtoMax = RtoInit << 6
  REQUIRE(f.rto == 1280000);
  // A new ack resets the RTO to its base value; slow start from 1.
  check_new_ack(f, f.ack(3), 2);
  REQUIRE(f.rto == kRto);
}
