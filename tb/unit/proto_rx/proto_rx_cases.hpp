// SPDX-License-Identifier: Apache-2.0
// The cases the twin tests of the protocols with a rate or token credit
// scheme share (label proto_rx): an event where nothing happened (and a
// periodic visit without a timeout, which the credit schemes make on every
// visit of a present flow) writes nothing; >= 100,000 seeded random input
// vectors per model, every output (credit outputs included) compared with
// the C++ twin; the twin's common constants equal user_configs.vh. Not a
// header of declarations: a protocol's test file (protocols/<name>/tests/,
// e.g. test_<name>.cpp) defines
//   PROTO_RX_CONFIGS  its configs (Cfg<V<name>_incoming, Twin, 128, true>, ...),
//   PROTO_RX_TWIN     its twin type,
// (and specializes kPeriodicAddsTokens<Twin> if its periodic module adds
// tokens), then includes this file once. Harness: proto_rx_tb.hpp.
#ifndef PROTO_RX_CONFIGS
#error "define PROTO_RX_CONFIGS and PROTO_RX_TWIN before including proto_rx_cases.hpp"
#endif

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "common/vh_constants.hpp"
#include "unit/proto_rx/proto_rx_tb.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
constexpr int kRandomVectors = 100000;

/// A random vector biased towards the events these protocols react to.
ProtoIn random_rx_in(Rng& rng, uint32_t w, unsigned user_w, uint32_t rto_init) {
  ProtoIn in = random_in(rng, w, user_w, rto_init);
  if (rng.chance(0.3)) {
    in.type = ref::kRxNack;
    in.sack_valid = rng.chance(0.7);
    if (in.flight != 0 && rng.chance(0.7)) in.sack_idx = in.wnd_start + static_cast<uint32_t>(rng.below(in.flight));
  } else if (rng.chance(0.15)) {
    in.type = ref::kRxPull;
  }
  return in;
}
}  // namespace

TEMPLATE_TEST_CASE("proto_rx: an event where nothing happened writes nothing", "[proto_rx][smoke]",
                   PROTO_RX_CONFIGS) {
  using Twin = typename TestType::Twin;
  constexpr uint32_t W = TestType::W;
  TONIC_SEED(0x9208'0001);
  Rng rng(tonic_seed_);
  // Any state and event fields, as long as nothing happened: the window did
  // not move and the event is not a NACK (ACK, SACK, PULL with any grant,
  // CNP, RESEND, undefined codes), or a periodic visit without timeout.
  check_quiet_events<TestType>(
      rng, 20000, [](Rng& r) { return random_rx_in(r, W, Twin::kUserW, Twin::kRtoInit); },
      [](ProtoIn& in, Rng& r) {
        static constexpr uint8_t kQuiet[] = {ref::kRxAck, ref::kRxSack, ref::kRxPull, ref::kRxCnp,
                                             ref::kRxResend, 6, 7};
        in.type = kQuiet[r.below(sizeof kQuiet)];
        in.old_start = in.wnd_start;
      });
}

TEMPLATE_TEST_CASE("proto_rx: every output of the model equals the twin on random vectors",
                   "[proto_rx][stress]", PROTO_RX_CONFIGS) {
  using Twin = typename TestType::Twin;
  constexpr uint32_t W = TestType::W;
  TONIC_SEED(0x9208'0002);
  Rng rng(tonic_seed_);
  Pair<TestType> p;
  const WriteCounts c = compare_random(p, rng, kRandomVectors, [](Rng& r) {
    return random_rx_in(r, W, Twin::kUserW, Twin::kRtoInit);
  });
  INFO(c.str());
  // The generator reaches every write the module has.
  CHECK(c.mark_we > 1000);
  CHECK(c.rto_we > 1000);
  CHECK(c.restart > 1000);
  CHECK(c.user_we > 1000);
  // These modules write neither the window nor the rate; tokens only
  // where the protocol's test file says its periodic module adds them
  // (kPeriodicAddsTokens).
  CHECK(c.wnd_we == 0);
  CHECK(c.rate_we == 0);
  if constexpr (kPeriodicAddsTokens<Twin> && !TestType::kIncoming) {
    CHECK(c.tokens_we > 1000);
  } else {
    CHECK(c.tokens_we == 0);
  }
}

// ---------------------------------------------------------------------------
// The twins' copies of the configuration equal protocols/<name>/user_configs.vh.

namespace {

std::string vh_text(const std::string& protocol) {
  return read_text(std::string(TONIC_SOURCE_DIR) + "/protocols/" + protocol + "/user_configs.vh");
}

/// The credit scheme named in user_configs.vh, as tonic_dd_pkg::credit_e.
unsigned vh_scheme(const std::string& s) {
  const std::optional<std::string> v = vh_assignment(s, "CreditScheme");
  REQUIRE(v.has_value());
  return *v == "tonic_dd_pkg::CreditWindow" ? 0
         : *v == "tonic_dd_pkg::CreditRate" ? 1
         : *v == "tonic_dd_pkg::CreditToken" ? 2
                                              : 99;
}

template <class Twin>
std::map<std::string, uint64_t> check_common(const std::string& text) {
  auto c = vh_constants(text);
  for (const char* name : {"InitWnd", "RtoInit", "RtoMin", "RtoMax", "RateInit",
                           "BurstBytes", "TokensInit"}) {
    INFO(name);
    REQUIRE(c.count(name) == 1);
  }
  CHECK(vh_scheme(text) == Twin::kCreditScheme);
  CHECK(c["InitWnd"] == Twin::kInitWnd);
  CHECK(c["RtoInit"] == Twin::kRtoInit);
  CHECK(c["RtoMin"] == Twin::kRtoMin);
  CHECK(c["RtoMax"] == Twin::kRtoMax);
  CHECK(c["RateInit"] == Twin::kRateInit);
  CHECK(c["BurstBytes"] == Twin::kBurstBytes);
  CHECK(c["TokensInit"] == Twin::kTokensInit);
  return c;
}

}  // namespace

TEMPLATE_TEST_CASE("proto_rx: the twin's constants equal user_configs.vh", "[proto_rx][smoke]",
                   PROTO_RX_TWIN) {
  INFO("protocol " << TestType::kName);
  check_common<TestType>(vh_text(TestType::kName));
}
