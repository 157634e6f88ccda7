// SPDX-License-Identifier: Apache-2.0
// DCTCP (protocols/dctcp): directed tests of the RFC 8257 rules (alpha over
// its observation periods, one cut per window, the floor of the cut, the
// counters' reset, an ECN echo together with loss). Every event goes
// through the Verilated modules and the twin (FlowSim checks they agree);
// the tests then check hand-computed values. Also registers the cases every
// window protocol shares (tb/unit/proto/proto_cases.hpp) for DCTCP's
// configs. Part of test_proto.
#include <catch2/catch.hpp>

#include "Vdctcp_incoming.h"
#include "Vdctcp_incoming_w256.h"
#include "Vdctcp_periodic.h"
#include "protocols/dctcp/twin.hpp"
#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb {

using ref::DctcpTwin;
using DctcpIncoming = Cfg<Vdctcp_incoming, DctcpTwin, 128, true>;
using DctcpPeriodic = Cfg<Vdctcp_periodic, DctcpTwin, 128, false>;
using DctcpIncoming256 = Cfg<Vdctcp_incoming_w256, DctcpTwin, 256, true>;
/// One flow through the W = 128 incoming and periodic models.
using DctcpFlow = FlowSim<Vdctcp_incoming, Vdctcp_periodic, DctcpTwin, 128>;

}  // namespace tonic::prototb

// The cases every window protocol shares, for this protocol's configs.
#define PROTO_CONFIGS \
  tonic::prototb::DctcpIncoming, tonic::prototb::DctcpPeriodic, tonic::prototb::DctcpIncoming256
#define PROTO_FLOWS DctcpFlow
#define PROTO_RTO_FLOWS DctcpFlow
#define PROTO_TWIN tonic::ref::DctcpTwin
#include "unit/proto/proto_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
using User = DctcpTwin::User;

/// A cumulative ack to `cum`; with `ce` it carries the ECN echo, as stage 1
/// forms it (ecn_segs = the newly acked segments).
ProtoOut ack_ce(DctcpFlow& f, uint32_t cum, bool ce) {
  f.info.ecn_segs = ce && proto::seq_lt(f.wnd_start, cum) ? static_cast<uint16_t>(cum - f.wnd_start) : uint16_t{0};
  const ProtoOut o = f.ack(cum);
  f.info.ecn_segs = 0;
  return o;
}
}  // namespace

TEST_CASE("proto: dctcp: the first period is the largest power of two <= InitWnd, alpha starts at 1",
          "[proto][dctcp][smoke]") {
  const User u;
  REQUIRE(u.alpha == 1024);
  REQUIRE((1u << u.obs_k) <= DctcpTwin::kInitWnd);
  REQUIRE((2u << u.obs_k) > DctcpTwin::kInitWnd);
  REQUIRE(u.obs_left == (1u << u.obs_k));
  REQUIRE(u.obs_marked == 0);
}

TEST_CASE("proto: dctcp: one cut per window, alpha from the period's marks, counters reset",
          "[proto][dctcp][smoke]") {
  DctcpFlow f;
  f.send(10);  // 0..9; the first period is 8 segments
  for (uint32_t c = 1; c <= 4; ++c) REQUIRE(ack_ce(f, c, false).wnd == 10 + c);  // slow start
  REQUIRE(f.u().obs_left == 4);
  REQUIRE(f.u().obs_marked == 0);
  // The first echo: cwnd 14 x (1 - 1/2) = 7, ssthresh 7, no retransmission.
  ProtoOut o = ack_ce(f, 5, true);
  REQUIRE(o.wnd == 7);
  REQUIRE(!o.mark_we);
  REQUIRE(f.u().ssthresh == 7);
  REQUIRE(f.u().cwr);
  REQUIRE(f.u().rec_off == 4);  // the window ends with segment 9 = wnd_start 5 + 4
  REQUIRE(f.u().obs_marked == 1);
  // More echoes in the same window: no further cut, no growth.
  for (uint32_t c = 6; c <= 7; ++c) {
    o = ack_ce(f, c, true);
    REQUIRE(!o.wnd_we);
    REQUIRE(f.wnd == 7);
  }
  REQUIRE(f.u().obs_left == 1);
  REQUIRE(f.u().obs_marked == 3);
  // Segment 8 ends the period: 4 of 8 marked, F = 1/2:
  // alpha = 1024 - 64 + 1/16 x 1/2 x 1024 = 992; the next period is
  // 4 segments (cwnd 7), its counters reset.
  o = ack_ce(f, 8, true);
  REQUIRE(!o.wnd_we);
  REQUIRE(f.u().alpha == 992);
  REQUIRE(f.u().obs_k == 2);
  REQUIRE(f.u().obs_left == 4);
  REQUIRE(f.u().obs_marked == 0);
  REQUIRE(f.u().cwr);
  f.send(5);  // 10..14
  o = ack_ce(f, 9, false);
  REQUIRE(!o.wnd_we);  // still the window of the cut
  REQUIRE(f.u().cwr);
  // The ack of segment 9 passes the window's end: an echo on it cuts again
  // with alpha 992: 7 - 7 x 992 / 2048 = 7 - 3 = 4.
  o = ack_ce(f, 10, true);
  REQUIRE(o.wnd == 4);
  REQUIRE(f.u().ssthresh == 4);
  REQUIRE(f.u().cwr);
  REQUIRE(f.u().rec_off == 4);  // segment 14
  REQUIRE(f.u().obs_left == 2);
  REQUIRE(f.u().obs_marked == 1);
  // The window of the second cut ends without an echo: growth again
  // (congestion avoidance, cwnd = ssthresh).
  for (uint32_t c = 11; c <= 14; ++c) REQUIRE(!ack_ce(f, c, false).wnd_we);
  REQUIRE(f.u().cwr);
  f.send(1);  // 15
  o = ack_ce(f, 15, false);
  REQUIRE(o.wnd_we);
  REQUIRE(o.wnd == 4);
  REQUIRE(f.u().ca_cnt == 1);
  REQUIRE(!f.u().cwr);
  REQUIRE(f.u().rec_off == 0);
}

TEST_CASE("proto: dctcp: the cut keeps cwnd >= 2, and alpha 0 keeps cwnd", "[proto][dctcp][smoke]") {
  for (uint32_t w = 1; w <= 4; ++w) {
    INFO("cwnd " << w);
    DctcpFlow f;
    f.wnd = w;
    f.send(w + 1);
    const ProtoOut o = ack_ce(f, 1, true);
    const uint32_t want = std::max<uint32_t>(w - w / 2, 2);  // alpha = 1: cwnd - cwnd / 2, at least 2
    REQUIRE(o.wnd == want);
    REQUIRE(f.u().ssthresh == want);
  }
  DctcpFlow f;
  User u;
  u.alpha = 0;
  f.set_user(u);
  f.wnd = 20;
  f.send(20);
  const ProtoOut o = ack_ce(f, 2, true);
  REQUIRE(o.wnd == 20);
  REQUIRE(f.u().ssthresh == 20);
  REQUIRE(f.u().cwr);
}

TEST_CASE("proto: dctcp: alpha stays 1 under marks and decays to 0 without", "[proto][dctcp]") {
  DctcpFlow f;
  // Every ack marked: F = 1 in every period.
  uint32_t periods = 0;
  for (uint32_t i = 0; i < 400; ++i) {
    f.send_window();
    const uint32_t left = f.u().obs_left;
    ack_ce(f, f.wnd_start + 1, true);
    if (left == 1) ++periods;
    REQUIRE(f.u().alpha == 1024);
  }
  REQUIRE(periods > 20);
  // No marks: alpha - ceil(alpha / 16) per period, down to 0 and no lower.
  uint32_t last = 1024;
  periods = 0;
  while (f.u().alpha != 0) {
    REQUIRE(periods < 200);
    f.send_window();
    const uint32_t left = f.u().obs_left;
    ack_ce(f, f.wnd_start + 1, false);
    if (left == 1) {
      ++periods;
      REQUIRE(f.u().alpha == last - (last + 15) / 16);
      last = f.u().alpha;
    }
  }
  uint32_t steps = 0;  // x - ceil(x / 16) from 1024 to 0
  for (uint32_t x = 1024; x != 0; x -= (x + 15) / 16) ++steps;
  REQUIRE(periods == steps);
  for (uint32_t i = 0; i < 300; ++i) {
    f.send_window();
    ack_ce(f, f.wnd_start + 1, false);
  }
  REQUIRE(f.u().alpha == 0);
}

TEST_CASE("proto: dctcp: an ack past the period's end closes it and starts the next one whole",
          "[proto][dctcp][smoke]") {
  DctcpFlow f;
  f.send(10);
  ack_ce(f, 3, false);  // 3 of 8
  REQUIRE(f.u().obs_left == 5);
  // 7 segments at once (5 to close the period, 2 beyond it), no echo:
  // F = 0, alpha 960; the next period is 8 segments (cwnd 11) from 0.
  ack_ce(f, 10, false);
  REQUIRE(f.u().alpha == 960);
  REQUIRE(f.u().obs_k == 3);
  REQUIRE(f.u().obs_left == 8);
  REQUIRE(f.u().obs_marked == 0);
}

TEST_CASE("proto: dctcp: an ECN echo in recovery does not cut, loss ends a cwr window",
          "[proto][dctcp][smoke]") {
  DctcpFlow f;
  User u;
  u.ssthresh = 20;
  f.set_user(u);
  f.wnd = 20;
  f.send(20);  // 0..19; 3 is lost
  for (uint32_t c = 1; c <= 3; ++c) ack_ce(f, c, false);
  for (int d = 0; d < 3; ++d) ack_ce(f, 3, true);  // dup acks carry no newly acked segment
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().ssthresh == 8);  // max(FlightSize 17 / 2, 2)
  REQUIRE(f.wnd == 11);
  f.resend_pending();
  // A partial ack with an echo: NewReno's deflation only, no cut.
  f.send(1);  // 20
  ProtoOut o = ack_ce(f, 5, true);
  REQUIRE(o.mark_we);
  REQUIRE(o.wnd == 10);  // 11 - 2 + 1
  REQUIRE(f.u().in_rec);
  REQUIRE(!f.u().cwr);
  REQUIRE(f.u().ssthresh == 8);
  f.resend_pending();
  // The full ack leaves recovery as NewReno; an echo on the next ack cuts.
  o = ack_ce(f, 20, false);
  REQUIRE(!f.u().in_rec);
  REQUIRE(o.wnd == 2);  // min(ssthresh 8, FlightSize 1 + 1)
  f.send(4);            // 21..24
  o = ack_ce(f, 21, true);
  REQUIRE(f.u().cwr);
  REQUIRE(o.wnd == 2);  // 2 - 2 x alpha / 2048 = 1, floor 2
  REQUIRE(f.u().rec_off == 3);
  // Three duplicate acks within the cwr window: fast retransmit; recovery
  // takes rec_off over.
  for (int d = 0; d < 3; ++d) ack_ce(f, 21, false);
  REQUIRE(f.u().in_rec);
  REQUIRE(!f.u().cwr);
  REQUIRE(f.u().rec_off == 3);
  // A timeout leaves recovery; a timeout in a cwr window ends the window.
  o = f.timeout();
  REQUIRE(o.wnd == 1);
  REQUIRE(f.u().rto_guard);
  REQUIRE(!f.u().cwr);
  REQUIRE(!f.u().in_rec);
  // Guarded after the timeout: an echo below recover does not cut.
  f.resend_pending();
  o = ack_ce(f, 22, true);
  REQUIRE(!f.u().cwr);
  REQUIRE(o.wnd == 2);  // slow start from 1
  REQUIRE(f.u().rto_guard);
}
