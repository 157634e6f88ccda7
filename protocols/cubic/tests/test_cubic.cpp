// SPDX-License-Identifier: Apache-2.0
// TCP CUBIC (protocols/cubic): directed tests of the RFC 9438 rules. Every
// event goes through the Verilated modules and the twin (FlowSim checks
// they agree); the tests then compare with hand-computed values and with a
// double-precision model of RFC 9438 (C = 0.4, beta = 0.7), within the
// error of the fixed-point forms (README.md). Also registers the cases every
// window protocol shares (tb/unit/proto/proto_cases.hpp) for CUBIC's
// configs. Part of test_proto.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "Vcubic_incoming.h"
#include "Vcubic_periodic.h"
#include "protocols/cubic/twin.hpp"
#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb {

using ref::CubicTwin;
using CubicIncoming = Cfg<Vcubic_incoming, CubicTwin, 128, true>;
using CubicPeriodic = Cfg<Vcubic_periodic, CubicTwin, 128, false>;
/// One flow through the W = 128 incoming and periodic models.
using CubicFlow = FlowSim<Vcubic_incoming, Vcubic_periodic, CubicTwin, 128>;

}  // namespace tonic::prototb

// The cases every window protocol shares, for this protocol's configs.
#define PROTO_CONFIGS tonic::prototb::CubicIncoming, tonic::prototb::CubicPeriodic
#define PROTO_FLOWS CubicFlow
#define PROTO_RTO_FLOWS CubicFlow
#define PROTO_TWIN tonic::ref::CubicTwin
#include "unit/proto/proto_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
using User = CubicTwin::User;
/// The time unit in seconds (2^TimeShift cycles of CycleNs).
const double kUnitS = double(CubicTwin::kCycleNs) * double(1u << CubicTwin::kTimeShift) * 1e-9;
constexpr double kC = 0.4;
constexpr double kBeta = 0.7;
/// RFC 9438 in double precision: K (units) for W_max and cwnd_epoch.
double k_units(double w_max, double cwnd_epoch) { return std::cbrt((w_max - cwnd_epoch) / kC) / kUnitS; }
/// W_cubic at t - K = d units.
double w_cubic(double w_max, double d) { return kC * std::pow(d * kUnitS, 3) + w_max; }

/// A flow in congestion avoidance with a running epoch.
void ca_flow(CubicFlow& f, uint32_t wnd, uint32_t w_max, uint32_t w_est, uint32_t t_org) {
  User u;
  u.ssthresh = 2;
  u.w_max = w_max;
  u.w_est = w_est;
  u.t_org = t_org;
  f.set_user(u);
  f.wnd = wnd;
  f.auto_time = false;
}
/// now at time unit t (the cycle of its start).
uint32_t at_unit(uint32_t t) { return t << CubicTwin::kTimeShift; }
}  // namespace

TEST_CASE("proto: cubic: the 3rd duplicate ack cuts cwnd by beta and sets W_max and K",
          "[proto][cubic][smoke]") {
  for (const uint32_t w : {10u, 20u, 64u, 100u, 128u}) {
    INFO("cwnd " << w);
    CubicFlow f;
    User u;
    u.ssthresh = 2;
    f.set_user(u);
    f.wnd = w;
    f.send(w);
    for (int d = 0; d < 2; ++d) f.ack(0);
    const ProtoOut o = f.ack(0);
    const uint32_t ss = std::max<uint32_t>(uint32_t(w * 0.7 + 1e-9), 2);
    REQUIRE(o.mark_we);
    REQUIRE(f.u().ssthresh == ss);
    REQUIRE(o.wnd == std::min<uint32_t>(ss + 3, 128));
    REQUIRE(f.u().w_max == w);  // no fast convergence: W_max was 0
    REQUIRE(f.u().w_est == ss);
    REQUIRE(f.u().pending);
    // K within the cube root's error (rounded down to KSigBits = 6
    // significant bits: < 3.1 %) plus the floor of the radicand and of the root.
    const double k = k_units(w, ss);
    CHECK(f.u().t_org <= k + 1e-9);
    CHECK(f.u().t_org >= k * (1 - 1.0 / 32) - 1);
  }
}

TEST_CASE("proto: cubic: fast convergence lowers W_max to cwnd (1 + beta) / 2", "[proto][cubic][smoke]") {
  CubicFlow f;
  User u;
  u.ssthresh = 2;
  u.w_max = 100;
  f.set_user(u);
  f.wnd = 80;
  f.send(80);
  for (int d = 0; d < 3; ++d) f.ack(0);
  REQUIRE(f.u().w_max == 68);     // 80 * 0.85
  REQUIRE(f.u().ssthresh == 56);  // 80 * 0.7
  const double k = k_units(80 * (1 + kBeta) / 2, 56);
  CHECK(f.u().t_org <= k + 1e-9);
  CHECK(f.u().t_org >= k * (1 - 1.0 / 32) - 1);
  // Without fast convergence (cwnd above the old W_max): W_max = cwnd.
  CubicFlow g;
  u.w_max = 60;
  g.set_user(u);
  g.wnd = 80;
  g.send(80);
  for (int d = 0; d < 3; ++d) g.ack(0);
  REQUIRE(g.u().w_max == 80);
}

TEST_CASE("proto: cubic: cwnd never falls below 2 on a congestion event or a timeout", "[proto][cubic][smoke]") {
  for (const uint32_t w : {1u, 2u, 3u}) {
    INFO("cwnd " << w);
    CubicFlow f;
    User u;
    u.ssthresh = 1;
    f.set_user(u);
    f.wnd = w;
    f.send(4);
    for (int d = 0; d < 3; ++d) f.ack(0);
    REQUIRE(f.u().ssthresh == 2);
    REQUIRE(f.wnd == 5);  // ssthresh + 3 in recovery
    const ProtoOut o = f.timeout();
    REQUIRE(o.wnd == 1);
    REQUIRE(f.u().ssthresh >= 2);
  }
}

TEST_CASE("proto: cubic: a timeout sets ssthresh = cwnd beta and an epoch with K = 0", "[proto][cubic][smoke]") {
  CubicFlow f;
  User u;
  u.ssthresh = 2;
  u.w_max = 90;
  f.set_user(u);
  f.wnd = 100;
  f.send(100);
  const ProtoOut o = f.timeout();
  REQUIRE(o.wnd == 1);
  REQUIRE((o.mark_lo == 0 && o.mark_hi == 100));
  REQUIRE(f.u().ssthresh == 70);
  REQUIRE(f.u().w_max == 70);
  REQUIRE(f.u().w_est == 70);
  REQUIRE(f.u().pending);
  REQUIRE(f.u().t_org == 0);
  REQUIRE(f.u().rto_guard);
}

TEST_CASE("proto: cubic: the first ack in congestion avoidance starts the epoch at now + K - SRTT",
          "[proto][cubic][smoke]") {
  CubicFlow f;
  User u;
  u.ssthresh = 40;
  u.w_max = 57;
  u.w_est = 40;
  u.pending = true;
  u.t_org = 300;  // K
  u.srtt8 = 8 * (3u << CubicTwin::kTimeShift);  // SRTT = 3 units
  u.rttvar4 = 4;
  f.set_user(u);
  f.wnd = 40;
  f.auto_time = false;
  f.now = at_unit(1000) + 5;
  f.send(40);
  const ProtoOut o = f.ack(1);
  REQUIRE(o.wnd == 40);  // no growth on the epoch's first ack
  REQUIRE(!f.u().pending);
  REQUIRE(f.u().t_org == (1000 + 300 - 3) % 2048);
}

TEST_CASE("proto: cubic: congestion avoidance follows W_cubic(t) within one segment", "[proto][cubic][smoke]") {
  // W_max 100, cwnd 80, W_est below everything: the cubic region. One ack
  // at t - K = d adds clamp(W_cubic - cwnd, 0, cwnd / 2) to ca_cnt.
  const uint32_t org = 1200;
  for (const int d : {-500, -300, -150, -40, 0, 60, 200, 400, 700}) {
    INFO("t - K = " << d << " units");
    CubicFlow f;
    ca_flow(f, 80, 100, 10, org);
    f.now = at_unit(uint32_t(int(org) + d) & 0x7ff);
    f.send(80);
    f.ack(1);
    const double want = std::clamp(w_cubic(100, d) - 80, 0.0, 40.0);
    // C |t - K|^3 is rounded toward zero: W_cubic is within one segment.
    CHECK(std::fabs(f.u().ca_cnt - want) < 1);
  }
}

TEST_CASE("proto: cubic: the accumulator adds one segment per cwnd of target - cwnd", "[proto][cubic][smoke]") {
  // W_cubic well above 1.5 cwnd: target - cwnd = floor(cwnd / 2) per ack.
  CubicFlow f;
    ca_flow(f, 40, 100, 10, 0);
  f.now = at_unit(1000);
  f.send(40);
  std::vector<uint32_t> wnds;
  for (uint32_t c = 1; c <= 6; ++c) wnds.push_back(f.ack(c).wnd);
  REQUIRE(wnds == std::vector<uint32_t>{40, 41, 41, 41, 42, 42});
  // The origin follows the time past OrgHold: t - K stays at most OrgHold.
  REQUIRE(f.u().t_org == 1000 - CubicTwin::kOrgHold);
}

TEST_CASE("proto: cubic: the Reno-friendly region sets cwnd to W_est, which grows alpha per cwnd acked",
          "[proto][cubic][smoke]") {
  // Long before the plateau (t - K = -600 units) W_cubic is far below W_est.
  CubicFlow f;
    ca_flow(f, 50, 100, 60, 600);
  f.now = at_unit(0);
  f.send(50);
  ProtoOut o = f.ack(1);
  REQUIRE(o.wnd == 60);  // cwnd = W_est
  // W_est: +1 per ceil(cwnd * (1 + beta) / (3 (1 - beta))) = ceil(60 * 17 / 9) = 114 acks.
  User u = f.u();
  u.est_cnt = 0;
  f.set_user(u);
  uint32_t c = 2;
  for (int i = 0; i < 113; ++i) {
    f.send_window();
    f.ack(c++);
  }
  REQUIRE(f.u().w_est == 60);
  f.send_window();
  f.ack(c++);
  REQUIRE(f.u().w_est == 61);
  REQUIRE(f.wnd == 60);  // W_est is used from the next ack
  f.send_window();
  REQUIRE(f.ack(c++).wnd == 61);
  // Against the RFC's W_est += alpha * acked / cwnd: 114 acks at cwnd 60.
  const double alpha = 3 * (1 - kBeta) / (1 + kBeta);
  CHECK(std::fabs(114 * alpha / 60 - 1) < 0.01);
}

TEST_CASE("proto: cubic: the cube table matches C (t - K)^3 within one segment", "[proto][cubic][smoke]") {
  for (uint32_t d = 0; d < 2048; ++d) {
    const int dd = d < 1024 ? int(d) : int(d) - 2048;
    const double want = std::clamp(kC * std::pow(std::fabs(dd) * kUnitS, 3), 0.0, 511.0);
    const int32_t got = CubicTwin::off(d);
    INFO("d " << dd);
    REQUIRE(std::abs(got) <= want + 1e-6);
    REQUIRE(std::abs(got) >= want - 1);
    REQUIRE((dd < 0 ? got <= 0 : got >= 0));
  }
}
