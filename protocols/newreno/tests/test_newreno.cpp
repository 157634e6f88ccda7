// SPDX-License-Identifier: Apache-2.0
// TCP NewReno (protocols/newreno): directed tests of the RFC 6582 rules.
// Every event goes through the Verilated modules and the twin (FlowSim
// checks they agree); the tests then check hand-computed values.
// Also registers the cases every window protocol shares
// (tb/unit/proto/proto_cases.hpp) for NewReno's configs. Part of test_proto.
#include <catch2/catch.hpp>

#include <vector>

#include "Vnewreno_incoming.h"
#include "Vnewreno_incoming_w256.h"
#include "Vnewreno_periodic.h"
#include "protocols/newreno/twin.hpp"
#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb {

using ref::NewRenoTwin;
using NewRenoIncoming = Cfg<Vnewreno_incoming, NewRenoTwin, 128, true>;
using NewRenoPeriodic = Cfg<Vnewreno_periodic, NewRenoTwin, 128, false>;
using NewRenoIncoming256 = Cfg<Vnewreno_incoming_w256, NewRenoTwin, 256, true>;
/// One flow through the W = 128 incoming and periodic models.
using NewRenoFlow = FlowSim<Vnewreno_incoming, Vnewreno_periodic, NewRenoTwin, 128>;

}  // namespace tonic::prototb

// The cases every window protocol shares, for this protocol's configs.
#define PROTO_CONFIGS \
  tonic::prototb::NewRenoIncoming, tonic::prototb::NewRenoPeriodic, tonic::prototb::NewRenoIncoming256
#define PROTO_FLOWS NewRenoFlow
#define PROTO_RTO_FLOWS NewRenoFlow
#define PROTO_TWIN tonic::ref::NewRenoTwin
#include "unit/proto/proto_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
using User = NewRenoTwin::User;
constexpr uint32_t kRto = NewRenoTwin::kRtoInit;
}  // namespace

TEST_CASE("proto: newreno: the 3rd duplicate ack enters recovery once, further ones inflate",
          "[proto][newreno][smoke]") {
  NewRenoFlow f;
  f.send(10);
  f.ack(1);
  REQUIRE(f.wnd == 11);
  int marks = 0;
  for (uint32_t d = 1; d <= 5; ++d) {
    INFO("dup ack " << d);
    const ProtoOut o = f.ack(1);
    marks += o.mark_we;
    REQUIRE(!o.rto_we);
    REQUIRE(!o.timer_restart);
    if (d < 3) {
      REQUIRE((o.user_we && !o.wnd_we && !o.mark_we));
      REQUIRE(!f.u().in_rec);
    } else if (d == 3) {
      REQUIRE(o.mark_we);
      REQUIRE(o.mark_lo == 1);
      REQUIRE(o.mark_hi == 2);
      REQUIRE(o.wnd == 7);  // ssthresh 4 + 3
      REQUIRE(f.u().in_rec);
      REQUIRE(f.u().ssthresh == 4);
      REQUIRE(f.u().rec_off == 8);  // recover = next_new - 1 = 9 = wnd_start + 8
    } else {
      REQUIRE(o.wnd_we);
      REQUIRE(o.wnd == 7 + (d - 3));
      REQUIRE(!o.user_we);
    }
  }
  REQUIRE(marks == 1);
}

TEST_CASE("proto: newreno: a partial ack marks the next hole and stays in recovery, a full ack leaves",
          "[proto][newreno][smoke]") {
  NewRenoFlow f;
  User u;
  u.ssthresh = 20;  // congestion avoidance from the start
  f.set_user(u);
  f.wnd = 20;
  f.send(20);  // 0..19; 3, 7 and 12 are lost
  for (uint32_t c = 1; c <= 3; ++c) REQUIRE(f.ack(c).wnd == 20);
  REQUIRE(f.u().ca_cnt == 3);
  // 4, 5, 6 arrive: three dup acks for 3.
  f.ack(3);
  f.ack(3);
  ProtoOut o = f.ack(3);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 3 && o.mark_hi == 4));
  REQUIRE(f.u().ssthresh == 8);  // FlightSize 17
  REQUIRE(o.wnd == 11);
  REQUIRE(f.u().rec_off == 16);  // recover = 19
  // 8..11 and 13..19 arrive: 11 more dup acks inflate cwnd to 22.
  for (int d = 0; d < 11; ++d) {
    o = f.ack(3);
    REQUIRE(!o.mark_we);
  }
  REQUIRE(f.wnd == 22);
  f.send(2);  // 20, 21 (new data allowed by the inflated window)
  f.resend_pending();

  // Retransmitted 3 arrives: cum ack 7 <= recover, a partial ack.
  o = f.ack(7);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 7 && o.mark_hi == 8));
  REQUIRE(o.wnd == 19);  // 22 - 4 newly acked + 1
  REQUIRE((o.rto_we && o.rto == kRto && o.timer_restart));  // first partial ack
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().partial);
  REQUIRE(f.u().rec_off == 12);  // recover 19 - wnd_start 7
  REQUIRE(f.newly_marked == std::vector<uint32_t>{7});
  f.resend_pending();

  // Retransmitted 7 arrives: cum ack 12, another partial ack.
  o = f.ack(12);
  REQUIRE((o.mark_lo == 12 && o.mark_hi == 13));
  REQUIRE(o.wnd == 15);  // 19 - 5 + 1
  REQUIRE(!o.rto_we);    // only the first partial ack restarts the timer
  REQUIRE(!o.timer_restart);
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().rec_off == 7);
  f.resend_pending();

  // Retransmitted 12 arrives: cum ack 20 > recover = 19, a full ack.
  o = f.ack(20);
  REQUIRE(!o.mark_we);
  REQUIRE(o.wnd == 3);  // min(ssthresh 8, FlightSize 2 + 1)
  REQUIRE((o.rto_we && o.timer_restart));
  REQUIRE(!f.u().in_rec);
  REQUIRE(!f.u().partial);
  REQUIRE(f.u().dup_acks == 0);
  REQUIRE(f.u().rec_off == 0);
  // Slow start again (cwnd 3 < ssthresh 8).
  REQUIRE(f.ack(21).wnd == 4);
}

TEST_CASE("proto: newreno: after a timeout no fast retransmit until an ack passes recover",
          "[proto][newreno][smoke]") {
  NewRenoFlow f;
  f.send(10);
  ProtoOut o = f.timeout();
  REQUIRE(o.wnd == 1);
  REQUIRE((o.mark_lo == 0 && o.mark_hi == 10));  // go back N: all in flight
  REQUIRE(o.rto == 2 * kRto);
  REQUIRE(f.u().rto_guard);
  REQUIRE(f.u().rec_off == 9);  // recover = 9
  REQUIRE(f.u().ssthresh == 5);
  // Three dup acks: counted, but no fast retransmit.
  for (int d = 0; d < 3; ++d) {
    o = f.ack(0);
    REQUIRE(!o.mark_we);
    REQUIRE(!o.wnd_we);
  }
  REQUIRE(f.u().dup_acks == 3);
  REQUIRE(!f.u().in_rec);
  // A new ack below recover: slow start, still guarded (+1 per ack, RFC
  // 5681; + min(newly acked, 2) with byte counting).
  const uint32_t ss = NewRenoTwin::kByteCounting != 0 ? 2 : 1;
  o = f.ack(4);
  REQUIRE(o.wnd == 1 + ss);
  REQUIRE(o.rto == kRto);
  REQUIRE(f.u().rto_guard);
  REQUIRE(f.u().rec_off == 5);
  f.send(5);  // 10..14
  for (int d = 0; d < 4; ++d) REQUIRE(!f.ack(4).mark_we);
  // An ack past recover clears the guard.
  o = f.ack(10);
  REQUIRE(o.wnd == 1 + 2 * ss);
  REQUIRE(!f.u().rto_guard);
  REQUIRE(f.u().rec_off == 0);
  f.ack(10);
  f.ack(10);
  o = f.ack(10);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 10 && o.mark_hi == 11));
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().ssthresh == 2);  // max(5 / 2, 2)
  REQUIRE(o.wnd == 5);

  SECTION("a timeout in recovery leaves it and guards again") {
    o = f.timeout();
    REQUIRE(o.wnd == 1);
    REQUIRE(!f.u().in_rec);
    REQUIRE(f.u().rto_guard);
    REQUIRE(f.u().rec_off == 4);  // recover = next_new - 1 = 14
    // A new ack below recover is not a partial ack any more: nothing marked.
    o = f.ack(12);
    REQUIRE(!o.mark_we);
    REQUIRE(o.wnd == (NewRenoTwin::kByteCounting != 0 ? 3u : 2u));  // slow start from 1
  }
}
