// SPDX-License-Identifier: Apache-2.0
// NDP sender (protocols/ndp): directed tests of every rule, and closed-loop
// flows against the NDP receiver model (lib/tonic/ndp_receiver.hpp)
// over a network that trims, drops and reorders. Every event goes through
// the Verilated modules and the twin (FlowSim checks they agree).
// Also registers the cases every rate / token protocol shares
// (tb/unit/proto_rx/proto_rx_cases.hpp) for NDP's configs, and checks the
// constants only NDP has. Part of test_proto_rx.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <vector>

#include "tonic/ndp_receiver.hpp"

#include "Vndp_incoming.h"
#include "Vndp_periodic.h"
#include "protocols/ndp/twin.hpp"
#include "unit/proto_rx/proto_rx_tb.hpp"

namespace tonic::prototb {

using ref::NdpTwin;
using NdpIncoming = Cfg<Vndp_incoming, NdpTwin, 128, true>;
using NdpPeriodic = Cfg<Vndp_periodic, NdpTwin, 128, false>;

/// One flow through the incoming and periodic models.
using NdpFlow = FlowSim<Vndp_incoming, Vndp_periodic, NdpTwin, 128>;

/// NDP's timeout adds RtoTokens tokens (periodic_updates.v).
template <>
inline constexpr bool kPeriodicAddsTokens<NdpTwin> = true;

}  // namespace tonic::prototb

// The cases every protocol with a rate or token credit scheme shares, for
// this protocol's configs.
#define PROTO_RX_CONFIGS \
  tonic::prototb::NdpIncoming, tonic::prototb::NdpPeriodic
#define PROTO_RX_TWIN tonic::ref::NdpTwin
#include "unit/proto_rx/proto_rx_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
constexpr uint32_t kRto = NdpTwin::kRtoInit;

/// Nothing but the enables listed is written.
void require_only_mark_restart(const ProtoOut& o) {
  REQUIRE(!o.wnd_we);
  REQUIRE(!o.rate_we);
  REQUIRE(!o.tokens_we);
}
}  // namespace

TEST_CASE("proto_rx: ndp: a NACK marks exactly the trimmed segment and restarts the timer",
          "[proto_rx][ndp][smoke]") {
  NdpFlow f(100);
  REQUIRE(f.tokens == NdpTwin::kTokensInit);
  REQUIRE(f.wnd == NdpTwin::kInitWnd);
  f.send(15);  // the first window, on the initial tokens
  ProtoOut o = f.trim_nack(100, 104);
  require_only_mark_restart(o);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 104 && o.mark_hi == 105));
  REQUIRE(o.timer_restart);
  REQUIRE(!o.rto_we);
  REQUIRE(!o.user_we);
  REQUIRE(f.newly_marked == std::vector<uint32_t>{104});
  REQUIRE(f.tokens == NdpTwin::kTokensInit);  // the retransmission waits for a pull

  // A NACK may carry a cumulative ack that moves the window.
  o = f.trim_nack(103, 106);
  REQUIRE((o.mark_lo == 106 && o.mark_hi == 107));
  REQUIRE(o.timer_restart);
  REQUIRE(f.wnd_start == 103);
  REQUIRE(f.newly_marked == std::vector<uint32_t>{106});
  REQUIRE(f.pending == std::set<uint32_t>{104, 106});

  // A NACK of a segment the window has passed marks nothing (the framework
  // clips the range).
  o = f.trim_nack(103, 101);
  REQUIRE(o.mark_we);
  REQUIRE(f.newly_marked.empty());

  // With nothing in flight the timer is not restarted.
  f.resend_pending();
  f.ack(115);
  o = f.trim_nack(115, 110);
  REQUIRE(!o.timer_restart);
  REQUIRE(f.newly_marked.empty());
}

TEST_CASE("proto_rx: ndp: a PULL writes nothing, the fixed function turns it into tokens",
          "[proto_rx][ndp][smoke]") {
  TONIC_SEED(0x9208'1001);
  Rng rng(tonic_seed_);
  NdpFlow f;
  f.send(15);
  const uint32_t t0 = f.tokens;
  REQUIRE(f.pull_to(3).writes_nothing());
  REQUIRE(f.tokens == t0 + 3);
  REQUIRE(f.pull_to(3).writes_nothing());  // duplicate
  REQUIRE(f.pull_to(2).writes_nothing());  // stale
  REQUIRE(f.tokens == t0 + 3);
  // Any grant, any state: nothing.
  for (int n = 0; n < 200; ++n) {
    REQUIRE(f.pull_to(static_cast<uint16_t>(rng.bits64())).writes_nothing());
  }
  REQUIRE(f.protocol_tokens == 0);
}

TEST_CASE("proto_rx: ndp: new acks restart the timer, the first after a timeout resets the RTO",
          "[proto_rx][ndp][smoke]") {
  NdpFlow f;
  f.send(10);
  ProtoOut o = f.ack(2);
  REQUIRE(o.timer_restart);
  REQUIRE(!o.rto_we);
  REQUIRE(!o.user_we);
  REQUIRE(!o.mark_we);
  // A duplicate ack (and a SACK that does not move the window) does nothing.
  REQUIRE(f.ack(2).writes_nothing());
  REQUIRE(f.sack(2, 5).writes_nothing());

  // Timeouts back off up to RtoMax.
  uint32_t want = kRto;
  for (int k = 0; k < 9; ++k) {
    o = f.timeout();
    want = std::min<uint32_t>(want * 2, NdpTwin::kRtoMax);
    REQUIRE((o.rto_we && o.rto == want));
    REQUIRE(f.rto == want);
    REQUIRE(f.u().backoff);
  }
  REQUIRE(f.rto == NdpTwin::kRtoMax);
  o = f.ack(4);
  REQUIRE((o.rto_we && o.rto == kRto));
  REQUIRE(o.timer_restart);
  REQUIRE(o.user_we);
  REQUIRE(!f.u().backoff);
  REQUIRE(f.rto == kRto);
  o = f.ack(6);
  REQUIRE(!o.rto_we);
  REQUIRE(!o.user_we);
  REQUIRE(o.timer_restart);
  // Everything acked: no restart.
  o = f.ack(10);
  REQUIRE(!o.timer_restart);
  REQUIRE(!f.timer_armed);
}

TEST_CASE("proto_rx: ndp: a timeout marks every unacked segment and adds one token",
          "[proto_rx][ndp][smoke]") {
  NdpFlow f(0xffff'fffc);  // across the 32-bit wrap
  f.send(8);
  f.sack(0xffff'fffc, 0xffff'ffff);
  f.sack(0xffff'fffc, 1);
  const uint32_t t0 = f.tokens;
  const ProtoOut o = f.timeout();
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 0xffff'fffc && o.mark_hi == 4));
  REQUIRE((o.tokens_we && o.tokens == NdpTwin::kRtoTokens));
  REQUIRE(!o.rate_we);
  REQUIRE(!o.wnd_we);
  REQUIRE(o.timer_restart);
  REQUIRE(f.tokens == t0 + 1);
  REQUIRE(f.newly_marked == std::vector<uint32_t>{0xffff'fffc, 0xffff'fffd, 0xffff'fffe, 0, 2, 3});
  // A visit without timeout writes nothing.
  REQUIRE(f.visit(false).writes_nothing());
}

// ---------------------------------------------------------------------------
// Closed loop: NDP sender -> network (trim, drop, reorder) -> NdpReceiver
// -> acks, NACKs and paced pulls (some lost) -> sender. The sender sends
// one segment per cycle while it has tokens: the lowest pending
// retransmission first, else new data up to the window.

namespace {

struct NdpLoopStats {
  uint64_t sent = 0, trimmed = 0, dropped = 0, timeouts = 0, cycles = 0;
};

NdpLoopStats ndp_loop(uint64_t seed, uint32_t segments, double p_trim, double p_drop, double p_ack_loss) {
  Rng rng(seed);
  const uint32_t start = random_start(rng, 2000);
  NdpFlow f(start);
  f.auto_time = false;
  NdpReceiver rcv(NdpRxConfig{128, 1 + rng.below(12)});
  rcv.open(0, start, 0);
  const uint32_t end = start + segments;
  struct Pkt {
    uint32_t seg;
    bool trimmed;
  };
  std::multimap<uint64_t, Pkt> data;       // arrival cycle -> packet
  std::multimap<uint64_t, RxEvent> back;   // arrival cycle -> event
  NdpLoopStats st;
  uint64_t t = 0;
  const uint32_t t_base = static_cast<uint32_t>(rng.bits64());
  while (f.wnd_start != end) {
    REQUIRE(++st.cycles < uint64_t{segments} * 2000);
    f.now = t_base + static_cast<uint32_t>(t);
    // Data reaches the receiver.
    for (auto it = data.begin(); it != data.end() && it->first <= t; it = data.erase(it)) {
      rcv.segment(t, 0, it->second.seg, it->second.trimmed);
    }
    rcv.advance(t);
    for (const RxEvent& e : rcv.take_acks()) {
      // ACKs and NACKs may be lost; pulls are not (see README: a lost last
      // pull of a flow with nothing in flight is not recovered).
      if (e.type == ref::kRxPull || !rng.chance(p_ack_loss)) back.emplace(t + rng.range(10, 40), e);
    }
    // One event per cycle reaches the sender.
    deliver_one(f, back, t);
    // Periodic visit.
    st.timeouts += periodic_visit(f, rng);
    // Transmit.
    bool sent = false;
    if (f.tokens > 0) {
      if (const std::optional<uint32_t> s = f.transmit(end)) {
        --f.tokens;
        ++st.sent;
        sent = true;
        if (rng.chance(p_drop)) {
          ++st.dropped;
        } else {
          const bool trim = rng.chance(p_trim);
          st.trimmed += trim;
          data.emplace(t + rng.range(10, 60), Pkt{*s, trim});
        }
      }
    }
    ++t;
    // Nothing moves: jump to the next thing that happens.
    if (f.wnd_start != end && !sent && data.empty() && back.empty() && rcv.pending_timers() == 0) {
      skip_to_deadline(f, t_base, t);
    }
  }
  CHECK(rcv.rcv_nxt(0) == end);
  return st;
}

}  // namespace

TEST_CASE("proto_rx: ndp: closed-loop flows deliver everything and match the twin",
          "[proto_rx][ndp][stress]") {
  TONIC_SEED(0x9208'1002);
  Rng rng(tonic_seed_);
  struct Case {
    double trim, drop, ack_loss;
  };
  const Case cases[] = {{0, 0, 0}, {0.1, 0, 0}, {0.3, 0, 0}, {0.1, 0.01, 0}, {0.2, 0.02, 0.02}, {0.05, 0.05, 0.05}};
  for (const Case& c : cases) {
    for (int run = 0; run < 2; ++run) {
      const uint64_t seed = rng.bits64();
      INFO("trim " << c.trim << " drop " << c.drop << " ack loss " << c.ack_loss << " flow seed " << seed);
      const NdpLoopStats st = ndp_loop(seed, 1500, c.trim, c.drop, c.ack_loss);
      std::fprintf(stderr,
                   "  ndp: trim %.2f drop %.2f ack loss %.2f: %llu sent, %llu trimmed, %llu dropped, "
                   "%llu timeouts, %llu cycles\n",
                   c.trim, c.drop, c.ack_loss, static_cast<unsigned long long>(st.sent),
                   static_cast<unsigned long long>(st.trimmed), static_cast<unsigned long long>(st.dropped),
                   static_cast<unsigned long long>(st.timeouts), static_cast<unsigned long long>(st.cycles));
      // Trimming alone never needs the timer: every trimmed packet is NACKed.
      if (c.drop == 0 && c.ack_loss == 0) CHECK(st.timeouts == 0);
    }
  }
}

// The constants of user_configs.vh only NDP has (the common ones:
// proto_rx_cases.hpp).
TEST_CASE("proto_rx: ndp: the twin's own constants equal user_configs.vh", "[proto_rx][ndp][smoke]") {
  auto c = vh_constants(vh_text("ndp"));
  REQUIRE(c.count("RtoTokens") == 1);
  CHECK(c["RtoTokens"] == NdpTwin::kRtoTokens);
}
