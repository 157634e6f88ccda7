// SPDX-License-Identifier: Apache-2.0
// The RFC 6298 cases of a protocol that estimates its RTO from RTT samples
// (info_i: rtt_valid, echo_rtx, rtt) with tonic_proto_pkg's estimator and
// keeps it in user-state fields srtt8 / rttvar4. Included by proto_cases.hpp
// when a protocol's test file defines PROTO_RTO_FLOWS (its FlowSim types).
// Every event runs through the Verilated modules and the twin (FlowSim
// compares them); these cases check the values against RFC 6298 itself:
//  - the first sample: SRTT = R, RTTVAR = R / 2; RTO = SRTT + 4 RTTVAR from
//    the next sample on (the protocols write the RTO of the estimate before
//    each sample: one sample of lag keeps the two adder chains parallel);
//  - steps of the RTT: the estimator equals the integer reference exactly
//    and the real-valued recursion of RFC 6298 2.3 within the truncation of
//    the shifts, the RTO the reference's of the sample before;
//  - an ack echoing nothing is no sample (RTO and estimator unchanged);
//    one echoing a retransmission is no sample under Karn's rule (RttKarn
//    = 1) and a sample like any other with timestamps (RttKarn = 0),
//    since the echo names that very transmission;
//  - back-off: each timeout doubles the RTO up to RtoMax; acks without a
//    sample (no echo; under Karn an echoed retransmission) keep the
//    backed-off value; the next sample recomputes it from the estimator,
//    which the timeouts left alone;
//  - a sample beyond the range: RTO = RtoMax.
#ifndef PROTO_RTO_FLOWS
#error "define PROTO_RTO_FLOWS before including rto_cases.hpp"
#endif

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb::rto {

/// An echo that is an RTT sample of `rtt` cycles (or not, with `rtx`).
inline ref::EvInfo echo(uint32_t rtt, bool rtx = false) {
  ref::EvInfo i;
  i.rtt_valid = true;
  i.echo_rtx = rtx;
  i.rtt = rtt;
  return i;
}

/// The RTO the engine keeps for an estimator: the protocol's value raised to
/// RtoMin.
template <class Twin>
uint32_t engine_rto(proto::RttEst e) {
  const uint32_t r = proto::rto_of(e, Twin::kRtoMax);
  return r < Twin::kRtoMin ? Twin::kRtoMin : r;
}

/// Send a window and ack its first segment with `info`.
template <class F>
ProtoOut ack_one(F& f, const ref::EvInfo& info) {
  if (f.flight() < 2) f.send(8);
  f.info = info;
  const ProtoOut o = f.ack(f.wnd_start + 1);
  f.info = ref::EvInfo{};
  return o;
}

}  // namespace tonic::prototb::rto

TEMPLATE_TEST_CASE("rto: the first RTT sample gives SRTT = R, RTTVAR = R/2", "[proto][rto]", PROTO_RTO_FLOWS) {
  using namespace tonic::prototb;
  using Twin = typename TestType::Twin;
  TestType f;
  REQUIRE(f.rto == Twin::kRtoInit);
  REQUIRE(f.u().srtt8 == 0);
  // R large enough that RTO = R + 4 R/2 = 3R lies above RtoMin.
  const uint32_t r = Twin::kRtoMin / 2 + 1000;
  ProtoOut o = rto::ack_one(f, rto::echo(r));
  CHECK(o.rto_we);
  CHECK(f.u().srtt8 == 8 * r);
  CHECK(f.u().rttvar4 == 2 * r);
  CHECK(f.rto == Twin::kRtoInit);  // the estimate before this sample: none
  // The next sample writes the RTO of the first: R + 4 R/2.
  o = rto::ack_one(f, rto::echo(r));
  CHECK(o.rto_we);
  CHECK(f.rto == std::min<uint32_t>(3 * r, Twin::kRtoMax));
}

TEMPLATE_TEST_CASE("rto: RTT steps follow RFC 6298 exactly in integers and closely in reals",
                   "[proto][rto]", PROTO_RTO_FLOWS) {
  using namespace tonic::prototb;
  using Twin = typename TestType::Twin;
  TestType f;
  // Steps up, down and a noisy plateau, in units of RtoMin / 4 so the
  // RTO moves above the floor.
  const uint32_t u = Twin::kRtoMin / 4;
  std::vector<uint32_t> samples;
  for (int k = 0; k < 20; ++k) samples.push_back(u);
  for (int k = 0; k < 30; ++k) samples.push_back(4 * u);
  for (int k = 0; k < 30; ++k) samples.push_back(u / 2);
  for (int k = 0; k < 40; ++k) samples.push_back(2 * u + ((k % 3) - 1) * (u / 4));
  proto::RttEst ref;
  double srtt = 0, rttvar = 0;
  bool first = true;
  for (uint32_t r : samples) {
    const ProtoOut o = rto::ack_one(f, rto::echo(r));
    REQUIRE(o.rto_we);
    const uint32_t want_rto = first ? Twin::kRtoInit : rto::engine_rto<Twin>(ref);  // the estimate before
    ref = proto::rtt_sample(ref, r);
    // The integer reference, exactly.
    REQUIRE(f.u().srtt8 == ref.srtt8);
    REQUIRE(f.u().rttvar4 == ref.rttvar4);
    REQUIRE(f.rto == want_rto);
    // RFC 6298 2.2 / 2.3 in reals: the shifts truncate at most one cycle
    // of SRTT / RTTVAR per step, and the error decays geometrically, so it
    // stays within 8 cycles of SRTT and 4 of RTTVAR.
    if (first) {
      srtt = r;
      rttvar = r / 2.0;
      first = false;
    } else {
      rttvar = 0.75 * rttvar + 0.25 * std::fabs(srtt - r);
      srtt = 0.875 * srtt + 0.125 * r;
    }
    INFO("sample " << r << ": srtt " << srtt << " vs " << ref.srtt8 / 8.0 << ", rttvar " << rttvar << " vs "
                   << ref.rttvar4 / 4.0);
    CHECK(std::fabs(ref.srtt8 / 8.0 - srtt) <= 8.0);
    CHECK(std::fabs(ref.rttvar4 / 4.0 - rttvar) <= 4.0);
  }
  // On the noisy plateau at 2u the RTO sits near SRTT + 4 RTTVAR of the
  // plateau, far below the 4u step it left behind.
  CHECK(f.rto < 4 * u + 4 * u);
}

TEMPLATE_TEST_CASE("rto: an echoed retransmission: no sample under Karn's rule, a sample with timestamps, no echo: no sample",
                   "[proto][rto]", PROTO_RTO_FLOWS) {
  using namespace tonic::prototb;
  using Twin = typename TestType::Twin;
  TestType f;
  const uint32_t r = Twin::kRtoMin / 2;
  rto::ack_one(f, rto::echo(r));
  auto before = f.u();
  uint32_t rto_before = f.rto;
  // The echoed transmission was a retransmission.
  ProtoOut o = rto::ack_one(f, rto::echo(3 * r, true));
  if (Twin::kRttKarn != 0) {
    // Karn: the sample is ambiguous without a per-transmission stamp.
    CHECK_FALSE(o.rto_we);
    CHECK(f.u().srtt8 == before.srtt8);
    CHECK(f.u().rttvar4 == before.rttvar4);
    CHECK(f.rto == rto_before);
  } else {
    // Timestamps: the echo names this transmission, a sample like any other.
    const proto::RttEst want = proto::rtt_sample({before.srtt8, before.rttvar4}, 3 * r);
    CHECK(o.rto_we);
    CHECK(f.u().srtt8 == want.srtt8);
    CHECK(f.u().rttvar4 == want.rttvar4);
    CHECK(f.rto == rto::engine_rto<Twin>({before.srtt8, before.rttvar4}));
    before = f.u();
    rto_before = f.rto;
  }
  // No echo at all.
  o = rto::ack_one(f, ref::EvInfo{});
  CHECK_FALSE(o.rto_we);
  CHECK(f.u().srtt8 == before.srtt8);
  CHECK(f.rto == rto_before);
  // A duplicate ack with an echo is no sample either (it acks no new data).
  f.info = rto::echo(r / 4);
  o = f.ack(f.wnd_start);
  f.info = ref::EvInfo{};
  CHECK_FALSE(o.rto_we);
  CHECK(f.u().srtt8 == before.srtt8);
}

TEMPLATE_TEST_CASE("rto: back-off doubles until a new sample recomputes it", "[proto][rto]", PROTO_RTO_FLOWS) {
  using namespace tonic::prototb;
  using Twin = typename TestType::Twin;
  TestType f;
  const uint32_t r = Twin::kRtoMin / 2 + 500;
  rto::ack_one(f, rto::echo(r));
  const proto::RttEst est1{f.u().srtt8, f.u().rttvar4};
  rto::ack_one(f, rto::echo(r));  // writes the RTO of est1
  const proto::RttEst est{f.u().srtt8, f.u().rttvar4};
  const uint32_t rto0 = f.rto;
  REQUIRE(rto0 == rto::engine_rto<Twin>(est1));
  // Three timeouts: 2x, 4x, 8x (RFC 6298 5.5), the estimator untouched.
  uint32_t want = rto0;
  for (int k = 0; k < 3; ++k) {
    f.send(1);
    const ProtoOut o = f.timeout();
    REQUIRE(o.rto_we);
    want = proto::rto_backoff(want, Twin::kRtoMax);
    CHECK(f.rto == want);
    CHECK(f.u().srtt8 == est.srtt8);
    f.resend_pending();
  }
  // New acks without an echo keep it, and under Karn's rule those echoing
  // a retransmission.
  rto::ack_one(f, ref::EvInfo{});
  CHECK(f.rto == want);
  if (Twin::kRttKarn != 0) {
    rto::ack_one(f, rto::echo(r, true));
    CHECK(f.rto == want);
  }
  // A valid sample collapses it to the estimate (RFC 6298 5.7; the
  // estimate before the sample, which the timeouts left alone).
  rto::ack_one(f, rto::echo(r));
  CHECK(f.rto == rto::engine_rto<Twin>(est));
  // Back-off stops at RtoMax.
  for (int k = 0; k < 12; ++k) {
    f.send(1);
    f.timeout();
    f.resend_pending();
  }
  CHECK(f.rto == Twin::kRtoMax);
}

TEMPLATE_TEST_CASE("rto: a sample beyond the range gives RtoMax", "[proto][rto]", PROTO_RTO_FLOWS) {
  using namespace tonic::prototb;
  using Twin = typename TestType::Twin;
  TestType f;
  rto::ack_one(f, rto::echo(0xffffffffu));
  CHECK(f.u().srtt8 == 8 * proto::kRttMax);
  rto::ack_one(f, rto::echo(0xffffffffu));
  CHECK(f.rto == Twin::kRtoMax);
}
