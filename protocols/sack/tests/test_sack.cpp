// SPDX-License-Identifier: Apache-2.0
// TCP SACK loss recovery (protocols/sack, RFC 6675): directed tests. Every
// event goes through the Verilated modules and the twin (FlowSim checks
// they agree); the tests then check hand-computed values.
// Also registers the cases every window protocol shares
// (tb/unit/proto/proto_cases.hpp) for SACK's configs. Part of test_proto.
#include <catch2/catch.hpp>

#include <vector>

#include "Vsack_incoming.h"
#include "Vsack_incoming_w256.h"
#include "Vsack_periodic.h"
#include "protocols/sack/twin.hpp"
#include "unit/proto/proto_tb.hpp"

namespace tonic::prototb {

using ref::SackTwin;
using SackIncoming = Cfg<Vsack_incoming, SackTwin, 128, true>;
using SackPeriodic = Cfg<Vsack_periodic, SackTwin, 128, false>;
using SackIncoming256 = Cfg<Vsack_incoming_w256, SackTwin, 256, true>;
/// One flow through the W = 128 incoming and periodic models.
using SackFlow = FlowSim<Vsack_incoming, Vsack_periodic, SackTwin, 128>;

}  // namespace tonic::prototb

// The cases every window protocol shares, for this protocol's configs.
#define PROTO_CONFIGS \
  tonic::prototb::SackIncoming, tonic::prototb::SackPeriodic, tonic::prototb::SackIncoming256
#define PROTO_FLOWS SackFlow
#define PROTO_RTO_FLOWS SackFlow
#define PROTO_TWIN tonic::ref::SackTwin
#include "unit/proto/proto_cases.hpp"

using namespace tonic;
using namespace tonic::prototb;

namespace {
using Marks = std::vector<uint32_t>;
constexpr uint32_t kRto = SackTwin::kRtoInit;
}  // namespace

TEST_CASE("proto: sack: a hole is marked once 3 SACKed segments lie above it",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.wnd = 12;
  f.send(12);  // 0..11; 2 and 6 are lost
  f.ack(1);
  f.ack(2);
  REQUIRE(f.wnd == 14);  // slow start
  // SACK 3, 4: duplicate acks 1 and 2; nothing lost yet.
  ProtoOut o = f.ack(2, 3);
  REQUIRE((o.user_we && !o.mark_we && !o.wnd_we && !o.rto_we));
  o = f.ack(2, 4);
  REQUIRE((o.user_we && !o.mark_we && !o.wnd_we));
  REQUIRE(f.u().dup_acks == 2);
  // A repeated SACK is no new evidence: neither a new SACK nor a dup ack.
  o = f.ack(2, 4);
  REQUIRE(f.last_in.dup);
  REQUIRE(!o.mark_we);
  REQUIRE(f.u().dup_acks == 2);
  REQUIRE(f.u().sack_cnt == 2);
  // SACK 5: three SACKed segments above 2 (and the 3rd dup ack): recovery.
  o = f.ack(2, 5);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 2 && o.mark_hi == 3));
  REQUIRE(f.newly_marked == Marks{2});
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().ssthresh == 5);  // max(FlightSize 10 / 2, 2)
  REQUIRE(f.u().rec_off == 9);   // RecoveryPoint = next_new - 1 = 11
  REQUIRE(o.wnd == 8);           // ssthresh + 3 SACKed
  REQUIRE(!o.rto_we);
  // SACK 7, 8: the 3rd-highest SACK is 4, then 5: nothing unacked below it.
  o = f.ack(2, 7);
  REQUIRE(o.wnd == 9);
  REQUIRE(f.newly_marked.empty());
  o = f.ack(2, 8);
  REQUIRE(o.wnd == 10);
  REQUIRE(f.newly_marked.empty());
  REQUIRE(f.pending.count(6) == 0);
  // SACK 9: 7, 8, 9 lie above 6: now it is lost, marked once.
  o = f.ack(2, 9);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 5 && o.mark_hi == 7));
  REQUIRE(f.newly_marked == Marks{6});
  REQUIRE(o.wnd == 11);
  // SACK 10, 11: no new hole.
  f.ack(2, 10);
  REQUIRE(f.newly_marked.empty());
  o = f.ack(2, 11);
  REQUIRE(f.newly_marked.empty());
  REQUIRE(o.wnd == 13);
  REQUIRE(f.pending == std::set<uint32_t>{2, 6});
  f.resend_pending();

  // Retransmitted 2 arrives: cum ack 6 <= RecoveryPoint, stay in recovery.
  o = f.ack(6);
  REQUIRE(!o.mark_we);
  REQUIRE(o.wnd == 10);  // ssthresh 5 + 5 SACKed (7..11)
  REQUIRE((o.rto_we && o.rto == kRto && o.timer_restart));
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().rec_off == 5);
  // Retransmitted 6 arrives: cum ack 12 > RecoveryPoint: leave, cwnd = ssthresh.
  o = f.ack(12);
  REQUIRE(o.wnd == 5);
  REQUIRE(!o.mark_we);
  REQUIRE(o.rto_we);
  REQUIRE(!o.timer_restart);  // nothing in flight
  REQUIRE(!f.u().in_rec);
  REQUIRE(f.u().sack_cnt == 0);
}

TEST_CASE("proto: sack: a lost wnd_start is detected from SACKs without duplicate acks",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.send(10);  // 4 is lost; 5, 6, 7 overtake 2, 3 and 4's neighbours
  f.ack(1);
  // New acks that also SACK: slow start, +1 per ack (RFC 5681) or + min(2,
  // newly acked) with byte counting.
  const uint32_t ss = SackTwin::kByteCounting != 0 ? 2 : 1;
  REQUIRE(f.ack(2, 5).wnd == 11 + ss);
  REQUIRE(f.ack(3, 6).wnd == 11 + 2 * ss);
  REQUIRE(!f.last_out.mark_we);
  const ProtoOut o = f.ack(4, 7);
  REQUIRE(!f.last_in.dup);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 4 && o.mark_hi == 5));
  REQUIRE(f.newly_marked == Marks{4});
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().dup_acks == 0);
  REQUIRE(f.u().ssthresh == 3);  // FlightSize 6
  REQUIRE(o.wnd == 6);           // 3 + 3 SACKed
  REQUIRE((o.rto_we && o.timer_restart));
}

TEST_CASE("proto: sack: a timeout marks every unacked segment, cwnd 1, no recovery until RecoveryPoint",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.send(10);
  f.ack(2);
  f.ack(2, 4);
  f.ack(2, 6);
  ProtoOut o = f.timeout();
  REQUIRE(o.wnd == 1);
  REQUIRE((o.mark_lo == 2 && o.mark_hi == 10));
  REQUIRE(f.newly_marked == Marks{2, 3, 5, 7, 8, 9});
  REQUIRE((o.rto_we && o.rto == 2 * kRto && o.timer_restart));
  REQUIRE(f.u().ssthresh == 4);
  REQUIRE(f.u().rto_guard);
  REQUIRE(f.u().rec_off == 7);   // RecoveryPoint = 9
  REQUIRE(f.u().sack_cnt == 2);  // the SACK record is kept
  REQUIRE(f.u().dup_acks == 0);
  // Three SACKs above 2 and three dup acks: no recovery while guarded.
  for (uint32_t s : {7u, 8u, 9u}) {
    o = f.ack(2, s);
    REQUIRE(!o.mark_we);
    REQUIRE(!o.wnd_we);
  }
  REQUIRE(!f.u().in_rec);
  f.resend_pending();
  // An ack past RecoveryPoint clears the guard; slow start from 1.
  o = f.ack(10);
  REQUIRE(!f.u().rto_guard);
  REQUIRE(o.wnd == (SackTwin::kByteCounting != 0 ? 3u : 2u));  // 1 + 1 per ack, or + min(3 newly acked, 2)
  REQUIRE(o.rto == kRto);
}

TEST_CASE("proto: sack: 3 duplicate acks without SACK information enter recovery (RFC 5681 fallback)",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.send(10);  // 2 is lost; the receiver sends no SACK blocks
  f.ack(2);
  // Plain duplicate acks 1 and 2: counted, nothing lost yet.
  for (uint32_t k = 1; k <= 2; ++k) {
    const ProtoOut o = f.ack(2);
    REQUIRE(f.last_in.dup);
    REQUIRE(!f.last_in.sack_valid);
    REQUIRE((o.user_we && !o.mark_we && !o.wnd_we && !o.rto_we));
    REQUIRE(f.u().dup_acks == k);
    REQUIRE(!f.u().in_rec);
  }
  // The 3rd: recovery, wnd_start alone is marked.
  ProtoOut o = f.ack(2);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 2 && o.mark_hi == 3));
  REQUIRE(f.newly_marked == Marks{2});
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().dup_acks == 3);
  REQUIRE(f.u().ssthresh == 4);  // max(FlightSize 8 / 2, 2)
  REQUIRE(f.u().rec_off == 7);   // RecoveryPoint = next_new - 1 = 9
  REQUIRE(f.u().high_off == 1);
  REQUIRE(o.wnd == 4);           // ssthresh + 0 SACKed
  REQUIRE(!o.rto_we);
  // Further duplicate acks in recovery mark nothing more.
  o = f.ack(2);
  REQUIRE(!o.mark_we);
  REQUIRE(o.wnd == 4);
  REQUIRE(f.newly_marked.empty());
  REQUIRE(f.pending == std::set<uint32_t>{2});
  f.resend_pending();
  // The retransmission fills the hole: cum ack 10 > RecoveryPoint, leave.
  o = f.ack(10);
  REQUIRE(!f.u().in_rec);
  REQUIRE(o.wnd == 4);
  REQUIRE(!o.mark_we);
}
