// SPDX-License-Identifier: Apache-2.0
// IRN (protocols/irn): directed tests of every rule, the settings against
// docs/design/credit-schemes.md, and closed-loop flows against the IRN
// receiver model (lib/tonic/irn_receiver.hpp) over a lossy, reordering
// network. Every event goes through the Verilated modules and the twin
// (FlowSim checks they agree).
// Also registers the cases every rate / token protocol shares
// (tb/unit/proto_rx/proto_rx_cases.hpp) for IRN's configs, and checks the
// constants only IRN has. Part of test_proto_rx.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <vector>

#include "tonic/irn_receiver.hpp"

#include "Virn_incoming.h"
#include "Virn_incoming_w256.h"
#include "Virn_periodic.h"
#include "Virn_periodic_w256.h"
#include "protocols/irn/twin.hpp"
#include "unit/proto_rx/proto_rx_tb.hpp"

namespace tonic::prototb {

using ref::IrnTwin;
using IrnIncoming = Cfg<Virn_incoming, IrnTwin, 128, true>;
using IrnPeriodic = Cfg<Virn_periodic, IrnTwin, 128, false>;
using IrnIncoming256 = Cfg<Virn_incoming_w256, IrnTwin, 256, true>;
using IrnPeriodic256 = Cfg<Virn_periodic_w256, IrnTwin, 256, false>;

/// One flow through the incoming and periodic models.
using IrnFlow = FlowSim<Virn_incoming, Virn_periodic, IrnTwin, 128>;
using IrnFlow256 = FlowSim<Virn_incoming_w256, Virn_periodic_w256, IrnTwin, 256>;

}  // namespace tonic::prototb

// The cases every protocol with a rate or token credit scheme shares, for
// this protocol's configs.
#define PROTO_RX_CONFIGS \
  tonic::prototb::IrnIncoming, tonic::prototb::IrnPeriodic, tonic::prototb::IrnIncoming256, tonic::prototb::IrnPeriodic256
#define PROTO_RX_TWIN tonic::ref::IrnTwin
#include "unit/proto_rx/proto_rx_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
using User = IrnTwin::User;
constexpr uint32_t kLow = IrnTwin::kRtoLow;
constexpr uint32_t kHigh = IrnTwin::kRtoHigh;
}  // namespace

TEST_CASE("proto_rx: irn: a NACK marks the gap below the arriving PSN once and enters recovery",
          "[proto_rx][irn][smoke]") {
  IrnFlow f(50);
  REQUIRE(f.wnd == IrnTwin::kInitWnd);
  REQUIRE(f.rate == IrnTwin::kRateInit);
  f.send(20);  // 50..69
  f.ack(51);
  f.ack(52);
  // 52 is lost; 53 arrives: NACK(cum 52, psn 53).
  ProtoOut o = f.irn_nack(52, 53);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 52 && o.mark_hi == 53));
  REQUIRE(!o.rto_we);  // no new ack
  REQUIRE(!o.timer_restart);
  REQUIRE((!o.wnd_we && !o.rate_we && !o.tokens_we));
  REQUIRE(f.newly_marked == std::vector<uint32_t>{52});
  User u = f.u();
  REQUIRE(u.in_rec);
  REQUIRE(u.rec_off == 17);  // recovery point 69 - wnd_start 52
  REQUIRE(u.high_off == 1);
  // 54, 55 arrive: the gap above the last mark holds only SACKed segments.
  f.irn_nack(52, 54);
  REQUIRE(f.newly_marked.empty());
  o = f.irn_nack(52, 55);
  REQUIRE((o.mark_lo == 54 && o.mark_hi == 55));
  REQUIRE(f.u().high_off == 3);
  // 56 is lost, 57 arrives: only 56 is marked.
  o = f.irn_nack(52, 57);
  REQUIRE((o.mark_lo == 55 && o.mark_hi == 57));
  REQUIRE(f.newly_marked == std::vector<uint32_t>{56});
  REQUIRE(f.u().high_off == 5);
  // A late NACK below the last mark (reordered, or a duplicate PSN) does
  // nothing at all.
  REQUIRE(f.irn_nack(52, 54).writes_nothing());
  REQUIRE(f.irn_nack(52, 57).writes_nothing());
  // A NACK of a PSN outside [wnd_start, next_new) does nothing either.
  REQUIRE(f.irn_nack(52, 49).writes_nothing());
  REQUIRE(f.irn_nack(52, 75).writes_nothing());
  REQUIRE(f.pending == std::set<uint32_t>{52, 56});
}

TEST_CASE("proto_rx: irn: new acks age the recovery, the ack past the recovery point ends it",
          "[proto_rx][irn][smoke]") {
  IrnFlow f;
  f.send(20);                // 0..19
  f.irn_nack(0, 2);          // 0, 1 lost
  REQUIRE(f.newly_marked == std::vector<uint32_t>{0, 1});
  f.irn_nack(0, 3);
  f.resend_pending();
  // Retransmitted 0 arrives: cum ack 1.
  ProtoOut o = f.ack(1);
  REQUIRE((o.rto_we && o.rto == kHigh && o.timer_restart));  // 19 in flight
  REQUIRE(o.user_we);
  REQUIRE(!o.mark_we);
  User u = f.u();
  REQUIRE(u.in_rec);
  REQUIRE(u.rec_off == 18);
  REQUIRE(u.high_off == 2);
  // Retransmitted 1 arrives: cum ack 4 (2, 3 held).
  f.ack(4);
  u = f.u();
  REQUIRE(u.rec_off == 15);
  REQUIRE(u.high_off == 0);  // the marks are behind the window
  // A new hole is marked from wnd_start once the window passed the marks.
  o = f.irn_nack(4, 6);
  REQUIRE((o.mark_lo == 4 && o.mark_hi == 6));
  REQUIRE(f.newly_marked == std::vector<uint32_t>{4, 5});
  REQUIRE(f.u().rec_off == 15);  // recovery point unchanged
  f.resend_pending();
  // cum ack 19 = recovery point: still in recovery.
  f.ack(19);
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().rec_off == 0);
  // cum ack 20 passes it: recovery ends, everything acked.
  o = f.ack(20);
  REQUIRE((o.rto_we && o.rto == kLow));
  REQUIRE(!o.timer_restart);
  REQUIRE(o.user_we);
  REQUIRE(f.u() == User{});
  // Outside recovery a new ack writes the (aged) user state too.
  f.send(10);
  o = f.ack(22);
  REQUIRE(o.user_we);
  REQUIRE(f.u() == User{});
  REQUIRE(o.rto_we);
}

TEST_CASE("proto_rx: irn: a NACK that passes the recovery point starts a new recovery",
          "[proto_rx][irn][smoke]") {
  IrnFlow f(0xffff'fff0);  // across the 32-bit wrap
  f.send(10);                                    // ..fff0 .. ..fff9, recovery point ..fff9
  f.irn_nack(0xffff'fff0, 0xffff'fff2);
  REQUIRE(f.u().rec_off == 9);
  f.resend_pending();
  f.send(10);                                    // up to 3 (next_new 4)
  // cum ack passes ..fff9, and PSN 2 arrives with 0, 1 missing.
  const ProtoOut o = f.irn_nack(0xffff'fffa + 6, 2);  // cum 0
  REQUIRE(f.wnd_start == 0);
  REQUIRE((o.mark_lo == 0 && o.mark_hi == 2));
  REQUIRE(f.newly_marked == std::vector<uint32_t>{0, 1});
  const User u = f.u();
  REQUIRE(u.in_rec);
  REQUIRE(u.rec_off == 3);  // new recovery point next_new - 1 = 3
  REQUIRE(u.high_off == 2);
  REQUIRE((o.rto_we && o.rto == kHigh));  // 4 in flight
}

TEST_CASE("proto_rx: irn: the RTO is RtoLow with at most 3 segments in flight, else RtoHigh",
          "[proto_rx][irn][smoke]") {
  IrnFlow f;
  REQUIRE(f.rto == IrnTwin::kRtoInit);
  f.send(6);
  ProtoOut o = f.ack(2);  // 4 in flight
  REQUIRE((o.rto_we && o.rto == kHigh && o.timer_restart));
  o = f.ack(3);                 // 3 in flight
  REQUIRE((o.rto_we && o.rto == kLow && o.timer_restart));
  REQUIRE(f.rto == kLow);
  REQUIRE(f.deadline == f.now + kLow);
  // A NACK that moves the window chooses the RTO too.
  f.send(4);                    // 7 in flight
  o = f.irn_nack(4, 6);
  REQUIRE((o.rto_we && o.rto == kHigh));
  // Duplicate acks, SACKs that do not move the window and CNPs do nothing.
  REQUIRE(f.ack(4).writes_nothing());
  REQUIRE(f.sack(4, 8).writes_nothing());
  REQUIRE(f.rx(ref::kRxCnp, 4).writes_nothing());
  REQUIRE(f.pull_to(9).writes_nothing());
}

TEST_CASE("proto_rx: irn: a timeout resends every unSACKed segment from wnd_start, without back-off",
          "[proto_rx][irn][smoke]") {
  IrnFlow f;
  f.send(10);
  f.irn_nack(0, 4);  // marks 0..3
  f.resend_pending();
  ProtoOut o = f.timeout();
  REQUIRE((o.mark_we && o.mark_lo == 0 && o.mark_hi == 10));
  REQUIRE(f.newly_marked == std::vector<uint32_t>{0, 1, 2, 3, 5, 6, 7, 8, 9});
  REQUIRE((o.rto_we && o.rto == kHigh && o.timer_restart));
  REQUIRE((!o.wnd_we && !o.rate_we && !o.tokens_we));
  User u = f.u();
  REQUIRE(u.in_rec);
  REQUIRE(u.rec_off == 9);
  REQUIRE(u.high_off == 10);
  f.resend_pending();
  o = f.timeout();
  REQUIRE(o.rto == kHigh);  // no back-off
  f.resend_pending();
  // A NACK for a segment sent before the timeout marks nothing...
  REQUIRE(f.irn_nack(0, 7).writes_nothing());
  // ...one for a segment sent after it marks only the new ones.
  f.send(5);  // 10..14
  o = f.irn_nack(0, 12);
  REQUIRE((o.mark_lo == 10 && o.mark_hi == 12));
  REQUIRE(f.newly_marked == std::vector<uint32_t>{10, 11});
  // Few segments in flight: RtoLow.
  IrnFlow g;
  g.send(2);
  REQUIRE(g.timeout().rto == kLow);
  REQUIRE(g.visit(false).writes_nothing());
}

TEST_CASE("proto_rx: irn: W = 256 keeps the mark end of a full window", "[proto_rx][irn][smoke]") {
  IrnFlow256 f(1000);
  f.wnd = 256;
  f.send(256);
  ProtoOut o = f.timeout();
  REQUIRE((o.mark_lo == 1000 && o.mark_hi == 1256));
  REQUIRE(f.u().high_off == 256);
  REQUIRE(f.u().rec_off == 255);
  f.resend_pending();
  REQUIRE(f.irn_nack(1000, 1255).writes_nothing());
  o = f.irn_nack(1000, 1002);
  REQUIRE(!o.mark_we);
}

TEST_CASE("proto_rx: irn: the settings follow the documented numbers", "[proto_rx][irn][smoke]") {
  // 100 Gb/s in RU: 12.5e9 B/s * 2^20 cycles / 1e8 cycles/s.
  REQUIRE(IrnTwin::kRateInit == 125u * (1u << 20));
  // BDP cap: ceil(100 Gb/s * 8 us / 8 / 1 KB).
  REQUIRE(IrnTwin::kInitWnd == (100000u + 1023u) / 1024u);
  // Burst bound of credit-schemes.md for L = 1 KB and 4 KB with 480 cycles
  // of timer lateness: D >= L + L/128 + R * (lateness + 2) / 2^20.
  const uint64_t r = IrnTwin::kRateInit;
  for (uint64_t l : {1024u, 4096u}) {
    const uint64_t need = l + l / 128 + (r * (480 + 2) >> 20);
    INFO("L " << l << " needs " << need);
    CHECK(IrnTwin::kBurstBytes >= need);
  }
  REQUIRE(IrnTwin::kRtoMin <= IrnTwin::kRtoLow);
}

// ---------------------------------------------------------------------------
// Closed loop: IRN sender (window InitWnd, one segment per cycle) ->
// network (drop, optional reordering) -> IrnReceiver -> ACK / NACK (some
// lost) -> sender.

namespace {

struct IrnLoopStats {
  uint64_t sent = 0, dropped = 0, timeouts = 0, nack_marked = 0, nack_marked_held = 0, cycles = 0;
};

template <class Flow>
IrnLoopStats irn_loop(uint64_t seed, uint32_t segments, double p_drop, double p_ack_loss, bool reorder) {
  Rng rng(seed);
  const uint32_t start = random_start(rng, 2000);
  Flow f(start);
  f.auto_time = false;
  IrnRxConfig cfg;
  cfg.window = Flow::W;
  cfg.cnp.enabled = false;
  IrnReceiver rcv(cfg);
  rcv.open(0, start);
  const uint32_t end = start + segments;
  std::multimap<uint64_t, uint32_t> data;
  std::multimap<uint64_t, RxEvent> back;
  IrnLoopStats st;
  uint64_t t = 0;
  const uint32_t t_base = static_cast<uint32_t>(rng.bits64());
  while (f.wnd_start != end) {
    REQUIRE(++st.cycles < uint64_t{segments} * 5000);
    f.now = t_base + static_cast<uint32_t>(t);
    for (auto it = data.begin(); it != data.end() && it->first <= t; it = data.erase(it)) {
      rcv.segment(t, 0, it->second);
    }
    for (const RxEvent& e : rcv.take_acks()) {
      if (!rng.chance(p_ack_loss)) back.emplace(t + (reorder ? rng.range(10, 40) : 20), e);
    }
    if (deliver_one(f, back, t)) {
      for (uint32_t s : f.newly_marked) {
        ++st.nack_marked;
        st.nack_marked_held += rcv.received(0, s);
      }
    }
    st.timeouts += periodic_visit(f, rng);
    bool sent = false;
    if (const std::optional<uint32_t> s = f.transmit(end)) {
      ++st.sent;
      sent = true;
      if (rng.chance(p_drop)) {
        ++st.dropped;
      } else {
        data.emplace(t + (reorder ? rng.range(10, 60) : 30), *s);
      }
    }
    ++t;
    if (f.wnd_start != end && !sent && data.empty() && back.empty()) skip_to_deadline(f, t_base, t);
  }
  CHECK(rcv.rcv_nxt(0) == end);
  return st;
}

template <class Flow>
void irn_loops(uint64_t seed0) {
  Rng rng(seed0);
  struct Case {
    double drop, ack_loss;
    bool reorder;
  };
  const Case cases[] = {{0, 0, false}, {0.02, 0, false}, {0.08, 0, false}, {0, 0, true},
                        {0.02, 0.02, true}, {0.05, 0.05, false}};
  for (const Case& c : cases) {
    for (int run = 0; run < 2; ++run) {
      const uint64_t seed = rng.bits64();
      INFO("W " << Flow::W << " drop " << c.drop << " ack loss " << c.ack_loss << " reorder " << c.reorder
                << " flow seed " << seed);
      const IrnLoopStats st = irn_loop<Flow>(seed, 3000, c.drop, c.ack_loss, c.reorder);
      std::fprintf(stderr,
                   "  irn W %u: drop %.2f ack loss %.2f reorder %d: %llu sent, %llu dropped, %llu timeouts, "
                   "%llu marked on events (%llu already received), %llu cycles\n",
                   Flow::W, c.drop, c.ack_loss, c.reorder ? 1 : 0, static_cast<unsigned long long>(st.sent),
                   static_cast<unsigned long long>(st.dropped), static_cast<unsigned long long>(st.timeouts),
                   static_cast<unsigned long long>(st.nack_marked),
                   static_cast<unsigned long long>(st.nack_marked_held),
                   static_cast<unsigned long long>(st.cycles));
      if (c.drop == 0 && c.ack_loss == 0 && !c.reorder) CHECK(st.sent == 3000);
      // In-order delivery and no lost NACK (a lost NACK hides the SACK of
      // its PSN): a NACK marks only segments the receiver lacks.
      if (!c.reorder && c.ack_loss == 0) CHECK(st.nack_marked_held == 0);
      if (c.drop > 0) CHECK(st.nack_marked > 0);
    }
  }
}

}  // namespace

TEST_CASE("proto_rx: irn: closed-loop flows deliver everything and match the twin",
          "[proto_rx][irn][stress]") {
  TONIC_SEED(0x9208'2001);
  Rng rng(tonic_seed_);
  irn_loops<IrnFlow>(rng.bits64());
  irn_loops<IrnFlow256>(rng.bits64());
}

// The constants of user_configs.vh only IRN has (the common ones:
// proto_rx_cases.hpp).
TEST_CASE("proto_rx: irn: the twin's own constants equal user_configs.vh", "[proto_rx][irn][smoke]") {
  auto c = vh_constants(vh_text("irn"));
  for (const char* name : {"RtoLow", "RtoHigh", "RtoLowFlight"}) {
    INFO(name);
    REQUIRE(c.count(name) == 1);
  }
  CHECK(c["RtoLow"] == IrnTwin::kRtoLow);
  CHECK(c["RtoHigh"] == IrnTwin::kRtoHigh);
  CHECK(c["RtoLowFlight"] == IrnTwin::kRtoLowFlight);
}
