// SPDX-License-Identifier: Apache-2.0
// Tests common to the protocol modules of rtl/manifest/proto_rx.json (NDP,
// IRN): an event where nothing happened (and a periodic visit without a
// timeout, which the credit schemes make on every visit of a present flow)
// writes nothing; >= 100,000 seeded random input vectors per model, every
// output (credit outputs included) compared with the C++ twin; the twins'
// constants equal user_configs.vh. Protocol rules and closed loops:
// test_ndp.cpp, test_irn.cpp.
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <type_traits>

#include "proto_rx_models.hpp"

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
  RxPair<TestType> p;
  auto check = [&](const ProtoIn& in) {
    const ProtoCreditOut got = p.model(in);
    INFO(describe_rx(in, got, p.twin(in), Twin::kUserW));
    REQUIRE(got.writes_nothing());
    check_rx_output_form(got, W);
    REQUIRE(got == p.twin(in));
  };
  ProtoIn zero;
  zero.w = W;
  zero.wnd = 0;
  check(zero);
  // Any state and event fields, as long as nothing happened: the window did
  // not move and the event is not a NACK (ACK, SACK, PULL with any grant,
  // CNP, RESEND, undefined codes), or a periodic visit without timeout.
  const uint8_t quiet[] = {ref::kRxAck, ref::kRxSack, ref::kRxPull, ref::kRxCnp, ref::kRxResend, 6, 7};
  for (int n = 0; n < 20000; ++n) {
    ProtoIn in = random_rx_in(rng, W, Twin::kUserW, Twin::kRtoInit);
    if constexpr (TestType::kIncoming) {
      in.type = quiet[rng.below(sizeof quiet)];
      in.old_start = in.wnd_start;
    } else {
      in.timeout = false;
    }
    check(in);
  }
}

TEMPLATE_TEST_CASE("proto_rx: every output of the model equals the twin on random vectors",
                   "[proto_rx][stress]", PROTO_RX_CONFIGS) {
  using Twin = typename TestType::Twin;
  constexpr uint32_t W = TestType::W;
  TONIC_SEED(0x9208'0002);
  Rng rng(tonic_seed_);
  RxPair<TestType> p;
  int mismatches = 0;
  uint64_t wnd_we = 0, mark_we = 0, rto_we = 0, restart = 0, user_we = 0, rate_we = 0, tokens_we = 0;
  for (int n = 0; n < kRandomVectors; ++n) {
    const ProtoIn in = random_rx_in(rng, W, Twin::kUserW, Twin::kRtoInit);
    const ProtoCreditOut got = p.model(in);
    const ProtoCreditOut want = p.twin(in);
    if (got != want) {
      INFO("vector " << n << "\n" << describe_rx(in, got, want, Twin::kUserW));
      CHECK(got == want);
      if (++mismatches >= 5) break;
      continue;
    }
    check_rx_output_form(got, W);
    wnd_we += got.wnd_we;
    mark_we += got.mark_we;
    rto_we += got.rto_we;
    restart += got.timer_restart;
    user_we += got.user_we;
    rate_we += got.rate_we;
    tokens_we += got.tokens_we;
  }
  REQUIRE(mismatches == 0);
  INFO("wnd " << wnd_we << " mark " << mark_we << " rto " << rto_we << " restart " << restart << " user "
              << user_we << " rate " << rate_we << " tokens " << tokens_we);
  // The generator reaches every write the module has.
  CHECK(mark_we > 1000);
  CHECK(rto_we > 1000);
  CHECK(restart > 1000);
  CHECK(user_we > 1000);
  // Neither protocol writes the window or the rate; only NDP's timeout
  // adds tokens.
  CHECK(wnd_we == 0);
  CHECK(rate_we == 0);
  if constexpr (std::is_same_v<Twin, NdpTwin> && !TestType::kIncoming) {
    CHECK(tokens_we > 1000);
  } else {
    CHECK(tokens_we == 0);
  }
}

// ---------------------------------------------------------------------------
// The twins' copies of the configuration equal protocols/<name>/user_configs.vh.

namespace {

std::string vh_text(const std::string& protocol) {
  const std::string path = std::string(TONIC_SOURCE_DIR) + "/protocols/" + protocol + "/user_configs.vh";
  std::ifstream f(path);
  REQUIRE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

/// `localparam int unsigned Name = value;` and `localparam bit Name = 1'bV;`.
std::map<std::string, uint64_t> vh_constants(const std::string& s) {
  std::map<std::string, uint64_t> out;
  const std::regex re(R"(localparam\s+(?:int\s+unsigned|bit)\s+(\w+)\s*=\s*(?:1'b)?(\d+)\s*;)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = std::stoull((*it)[2]);
  }
  return out;
}

/// The credit scheme named in user_configs.vh, as tonic_dd_pkg::credit_e.
unsigned vh_scheme(const std::string& s) {
  std::smatch m;
  const std::regex re(R"(CreditScheme\s*=\s*tonic_dd_pkg::(Credit\w+)\s*;)");
  REQUIRE(std::regex_search(s, m, re));
  const std::string v = m[1];
  return v == "CreditWindow" ? 0 : v == "CreditRate" ? 1 : v == "CreditToken" ? 2 : 99;
}

template <class Twin>
std::map<std::string, uint64_t> check_common(const std::string& text) {
  auto c = vh_constants(text);
  for (const char* name : {"InitWnd", "RtoInit", "RtoMin", "RtoMax", "UserIncomingWins", "RateInit",
                           "BurstBytes", "TokensInit"}) {
    INFO(name);
    REQUIRE(c.count(name) == 1);
  }
  CHECK(vh_scheme(text) == Twin::kCreditScheme);
  CHECK(c["InitWnd"] == Twin::kInitWnd);
  CHECK(c["RtoInit"] == Twin::kRtoInit);
  CHECK(c["RtoMin"] == Twin::kRtoMin);
  CHECK(c["RtoMax"] == Twin::kRtoMax);
  CHECK(c["UserIncomingWins"] == (Twin::kUserIncomingWins ? 1U : 0U));
  CHECK(c["RateInit"] == Twin::kRateInit);
  CHECK(c["BurstBytes"] == Twin::kBurstBytes);
  CHECK(c["TokensInit"] == Twin::kTokensInit);
  return c;
}

}  // namespace

TEST_CASE("proto_rx: the twins' constants equal user_configs.vh", "[proto_rx][smoke]") {
  {
    INFO("protocol ndp");
    auto c = check_common<NdpTwin>(vh_text("ndp"));
    CHECK(c["RtoTokens"] == NdpTwin::kRtoTokens);
  }
  {
    INFO("protocol irn");
    auto c = check_common<IrnTwin>(vh_text("irn"));
    CHECK(c["RtoLow"] == IrnTwin::kRtoLow);
    CHECK(c["RtoHigh"] == IrnTwin::kRtoHigh);
    CHECK(c["RtoLowFlight"] == IrnTwin::kRtoLowFlight);
  }
}
