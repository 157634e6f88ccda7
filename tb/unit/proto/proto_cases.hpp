// SPDX-License-Identifier: Apache-2.0
// The cases every window protocol's twin test shares (label proto): a
// "nothing happened" event writes nothing; >= 100,000 seeded random input
// vectors per model, every output compared with the C++ twin; closed-loop
// random flows (loss, reordering, timeouts) that must deliver everything;
// the twin's constants equal its user_configs.vh. Not a header of
// declarations: a protocol's test file (protocols/<name>/tests/, e.g.
// test_<name>.cpp) defines
//   PROTO_CONFIGS  its configs (Cfg<V<name>_incoming, Twin, 128, true>, ...),
//   PROTO_FLOWS    its FlowSim type(s),
//   PROTO_TWIN     its twin type,
//   PROTO_RTO_FLOWS (optional) its FlowSim types, for the RFC 6298 cases of
//                  rto_cases.hpp (a protocol with the estimator),
// and includes this file once: the cases are registered for those types
// only (Catch2 names them "<case> - <type as spelled>", so spell the types
// the same way in every folder). The harness is proto_tb.hpp.
#ifndef PROTO_CONFIGS
#error "define PROTO_CONFIGS, PROTO_FLOWS and PROTO_TWIN before including proto_cases.hpp"
#endif

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "common/vh_constants.hpp"
#include "unit/proto/proto_tb.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
constexpr int kRandomVectors = 100000;
}  // namespace

TEMPLATE_TEST_CASE("proto: an event where nothing happened writes nothing", "[proto][smoke]",
                   PROTO_CONFIGS) {
  using Twin = typename TestType::Twin;
  constexpr uint32_t W = TestType::W;
  TONIC_SEED(0x9207'0001);
  Rng rng(tonic_seed_);
  // Any state, any event fields, as long as nothing happened: the window did
  // not move, no dup ack, no SACK, nothing newly acked, no timeout.
  check_quiet_events<TestType>(
      rng, 20000, [](Rng& r) { return random_in(r, W, Twin::kUserW, Twin::kRtoInit); },
      [](ProtoIn& in, Rng&) {
        in.type = ref::kRxAck;
        in.old_start = in.wnd_start;
        in.cum_ack = in.wnd_start;
        in.dup = false;
        in.newly_acked = 0;
        in.sack_valid = false;
      });
}

TEMPLATE_TEST_CASE("proto: every output of the model equals the twin on random vectors",
                   "[proto][stress]", PROTO_CONFIGS) {
  using Twin = typename TestType::Twin;
  constexpr uint32_t W = TestType::W;
  TONIC_SEED(0x9207'0002);
  Rng rng(tonic_seed_);
  Pair<TestType> p;
  const WriteCounts c = compare_random(p, rng, kRandomVectors, [](Rng& r) {
    return random_in(r, W, Twin::kUserW, Twin::kRtoInit);
  });
  // The generator reaches every write (guards against a degenerate one).
  INFO(c.str());
  CHECK(c.wnd_we > 1000);
  CHECK(c.mark_we > 1000);
  CHECK(c.rto_we > 1000);
  CHECK(c.restart > 1000);
  CHECK(c.user_we > 1000);
}

// ---------------------------------------------------------------------------
// Closed loop: one flow over a lossy, reordering network to a receiver that
// acks every segment (cumulative ack + a SACK of the segment when it arrived
// out of order). Every event is checked against the twin inside FlowSim; the
// flow must deliver all its segments.

namespace {

template <class Flow>
void random_flow(uint64_t seed, uint32_t segments, double loss, bool spurious_rto) {
  Rng rng(seed);
  const uint32_t start = random_start(rng, 3000);
  Flow f(start);
  const uint32_t end = start + segments;
  std::deque<uint32_t> data;  // segments on their way to the receiver
  struct Ack {
    uint32_t cum;
    std::optional<uint32_t> sack;
  };
  std::deque<Ack> acks;
  std::set<uint32_t> rcv;  // received above rcv_next
  uint32_t rcv_next = start;
  uint64_t timeouts = 0, marked = 0, steps = 0;
  const uint64_t max_steps = uint64_t{segments} * 200;
  auto can_send = [&] {
    return !f.pending.empty() ||
           (proto::seq_lt(f.next_new, f.wnd_start + f.wnd) && proto::seq_lt(f.next_new, end));
  };
  while (f.wnd_start != end) {
    REQUIRE(++steps < max_steps);
    const unsigned action = static_cast<unsigned>(rng.below(10));
    if (action < 4) {
      // Transmit: the lowest pending retransmission, else new data.
      const std::optional<uint32_t> s = f.transmit(end);
      if (s && !rng.chance(loss)) {
        // Mostly in order; sometimes overtakes up to 3 packets.
        const std::size_t back = std::min<std::size_t>(data.size(), rng.chance(0.1) ? rng.below(4) : 0);
        data.insert(data.end() - static_cast<std::ptrdiff_t>(back), *s);
      }
    } else if (action < 7 && !data.empty()) {
      const uint32_t s = data.front();
      data.pop_front();
      std::optional<uint32_t> sack;
      if (proto::seq_lt(s, rcv_next)) {
        // Duplicate: ack again.
      } else if (s == rcv_next) {
        ++rcv_next;
        while (rcv.erase(rcv_next)) ++rcv_next;
      } else {
        rcv.insert(s);
        sack = s;
      }
      if (!rng.chance(loss / 2)) acks.push_back({rcv_next, sack});
    } else if (action < 10 && !acks.empty()) {
      const Ack a = acks.front();
      acks.pop_front();
      f.ack(a.cum, a.sack);
      marked += f.newly_marked.size();
    } else if (f.flight() > 0 && ((data.empty() && acks.empty() && !can_send()) ||
                                  (spurious_rto && rng.chance(0.002)))) {
      // Stalled (nothing in the network, nothing the sender may send) or
      // a spurious timer: RTO.
      f.timeout();
      ++timeouts;
      marked += f.newly_marked.size();
    } else if (rng.chance(0.05)) {
      f.visit(false);  // a periodic visit without timeout
      REQUIRE(f.last_out.writes_nothing());
    }
  }
  std::fprintf(stderr, "  %s: %u segments, loss %.2f%s: %llu events, %llu timeouts, %llu marked\n",
               Flow::Twin::kName, segments, loss, spurious_rto ? " + spurious RTOs" : "",
               static_cast<unsigned long long>(f.events), static_cast<unsigned long long>(timeouts),
               static_cast<unsigned long long>(marked));
  if (loss > 0) CHECK(marked > 0);
}

}  // namespace

TEMPLATE_TEST_CASE("proto: closed-loop random flows deliver everything and match the twin",
                   "[proto][stress]", PROTO_FLOWS) {
  TONIC_SEED(0x9207'0003);
  Rng rng(tonic_seed_);
  for (int run = 0; run < 12; ++run) {
    const double loss = run % 3 == 0 ? 0.0 : run % 3 == 1 ? 0.02 : 0.08;
    const uint64_t seed = rng.bits64();
    INFO("run " << run << " loss " << loss << " flow seed " << seed);
    random_flow<TestType>(seed, 2000, loss, run % 2 == 1);
  }
}

// ---------------------------------------------------------------------------
// The twins' copies of the configuration equal protocols/<name>/user_configs.vh.

namespace {

template <class Twin>
void check_constants() {
  auto c = vh_constants(read_text(std::string(TONIC_SOURCE_DIR) + "/protocols/" + Twin::kName + "/user_configs.vh"));
  INFO("protocol " << Twin::kName);
  CHECK(c["InitWnd"] == Twin::kInitWnd);
  CHECK(c["RtoInit"] == Twin::kRtoInit);
  CHECK(c["RtoMin"] == Twin::kRtoMin);
  CHECK(c["RtoMax"] == Twin::kRtoMax);
  REQUIRE(c.count("SsAckCap") == 1);
  CHECK(c["SsAckCap"] == Twin::kSsAckCap);
}

}  // namespace

TEMPLATE_TEST_CASE("proto: the twin's constants equal user_configs.vh", "[proto][smoke]", PROTO_TWIN) {
  check_constants<TestType>();
}

// The RFC 6298 cases, for a protocol that estimates its RTO.
#ifdef PROTO_RTO_FLOWS
#include "unit/proto/rto_cases.hpp"
#endif
