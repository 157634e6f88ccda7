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

TEST_CASE("proto: sack: several holes in one window are all marked within one RTT",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.wnd = 16;
  f.send(16);  // 0..15; 2, 5 and 8 are lost
  f.ack(2);
  // SACK 3, 4, 6: the 3rd duplicate ack, and 3 SACKs above 2: recovery.
  f.ack(2, 3);
  f.ack(2, 4);
  ProtoOut o = f.ack(2, 6);
  REQUIRE(f.u().in_rec);
  REQUIRE(f.newly_marked == Marks{2});
  // Each further SACK moves the 3rd-highest SACK up; a hole is marked as
  // soon as three SACKs lie above it, without waiting for an ack of the
  // retransmission of 2 (no new cumulative ack in between).
  o = f.ack(2, 7);  // 3rd-highest 4: nothing unacked below it but 2
  REQUIRE(f.newly_marked.empty());
  o = f.ack(2, 9);  // 3rd-highest 6: 5 is lost
  REQUIRE(o.mark_we);
  REQUIRE(f.newly_marked == Marks{5});
  o = f.ack(2, 10);  // 3rd-highest 7
  REQUIRE(f.newly_marked.empty());
  o = f.ack(2, 11);  // 3rd-highest 9: 8 is lost
  REQUIRE(f.newly_marked == Marks{8});
  REQUIRE(f.pending == std::set<uint32_t>{2, 5, 8});
  // The sender resends all three before anything new, in one burst.
  REQUIRE(f.transmit(16) == std::optional<uint32_t>{2});
  REQUIRE(f.transmit(16) == std::optional<uint32_t>{5});
  REQUIRE(f.transmit(16) == std::optional<uint32_t>{8});
  REQUIRE(f.pending.empty());
  // Their acks: partial acks mark nothing; the last one leaves recovery.
  o = f.ack(5);
  REQUIRE(!o.mark_we);
  REQUIRE(f.u().in_rec);
  o = f.ack(8);
  REQUIRE(!o.mark_we);
  REQUIRE(f.u().in_rec);
  o = f.ack(f.next_new);
  REQUIRE(!f.u().in_rec);
  REQUIRE(o.wnd == f.u().ssthresh);
}

TEST_CASE("proto: sack: a lost retransmission is marked again once 3 segments sent after it are SACKed",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.wnd = 12;
  f.send(12);  // 0..11; 2 is lost, and so is its first retransmission
  f.ack(1);
  f.ack(2);
  f.ack(2, 3);
  f.ack(2, 4);
  ProtoOut o = f.ack(2, 5);  // recovery: 2 is marked
  REQUIRE(f.newly_marked == Marks{2});
  REQUIRE(f.u().rtx_off == 9);  // segment 11 was the last sent before the retransmission
  f.resend_pending();           // ... and the retransmission is lost
  // SACKs of 6..11, all sent before the retransmission: no evidence.
  for (uint32_t s = 6; s <= 11; ++s) {
    o = f.ack(2, s);
    REQUIRE(f.newly_marked.empty());
    REQUIRE(f.u().rtx_off == 9);  // the ranges hold SACKed segments only
  }
  REQUIRE(o.wnd == 14);  // ssthresh 5 + 9 SACKed
  f.send(4);             // 12..15: sent after the retransmission of 2
  o = f.ack(2, 12);
  REQUIRE(f.newly_marked.empty());
  o = f.ack(2, 13);  // two SACKs above 11: not yet
  REQUIRE(f.newly_marked.empty());
  REQUIRE(f.pending.empty());
  // The third: the retransmission of 2 is lost, mark it again.
  o = f.ack(2, 14);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 2 && o.mark_hi == 12));
  REQUIRE(f.newly_marked == Marks{2});
  REQUIRE(f.u().rtx_off == 13);  // the next detection needs 3 SACKs above 15
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().ssthresh == 5);  // no second window reduction
  f.resend_pending();
  // Once per detection: the next SACK does not mark it again.
  o = f.ack(2, 15);
  REQUIRE(f.newly_marked.empty());
  REQUIRE(f.pending.empty());
  // The second retransmission arrives: leave recovery.
  o = f.ack(16);
  REQUIRE(!f.u().in_rec);
  REQUIRE(f.u().rtx_off == 0);
}

TEST_CASE("proto: sack: a retransmission is judged lost only by SACKs of segments sent after it",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.wnd = 12;
  f.send(12);  // 0..11; 2 and 8 are lost, and the retransmission of 2 too
  f.ack(1);
  f.ack(2);
  for (uint32_t s : {3u, 4u, 5u}) f.ack(2, s);  // recovery: 2 is marked
  REQUIRE(f.newly_marked == Marks{2});
  REQUIRE(f.u().rtx_off == 9);  // 11
  f.resend_pending();
  for (uint32_t s : {6u, 7u, 9u}) f.ack(2, s);
  f.send(1);  // 12
  f.ack(2, 10);
  f.send(1);  // 13
  REQUIRE(f.u().rtx_off == 9);
  // SACK 11: 9, 10, 11 lie above 8: marked. Its retransmission leaves after 13.
  ProtoOut o = f.ack(2, 11);
  REQUIRE(f.newly_marked == Marks{8});
  REQUIRE(f.u().rtx_off == 11);  // 13
  f.resend_pending();
  f.send(3);  // 14..16
  // 12, 13, 14 were sent after the retransmission of 2 but 12 and 13 before
  // that of 8, which the mark would cover too: no evidence yet.
  for (uint32_t s : {12u, 13u, 14u}) {
    o = f.ack(2, s);
    REQUIRE(f.newly_marked.empty());
  }
  REQUIRE(f.pending.empty());
  f.ack(2, 8);  // the retransmission of 8 arrives
  o = f.ack(2, 15);
  REQUIRE(f.newly_marked.empty());
  // 14, 15, 16 were all sent after both retransmissions: 2 is lost again.
  o = f.ack(2, 16);
  REQUIRE(o.mark_we);
  REQUIRE(o.mark_lo == 2);
  REQUIRE(f.newly_marked == Marks{2});
  REQUIRE(f.u().in_rec);
}

namespace {
/// Tail loss: 0..9 sent, 2 and 9 lost, nothing more to send when
/// `app_limited` (posted = next_new). SACKs 3..8 enter recovery and mark 2
/// (not resent yet).
void tail_recovery(SackFlow& f, bool app_limited) {
  f.send(10);
  if (app_limited) f.posted = f.next_new;
  f.ack(1);
  f.ack(2);
  for (uint32_t s = 3; s <= 8; ++s) f.ack(2, s);
  REQUIRE(f.u().in_rec);
  REQUIRE(f.u().rec_off == 7);  // RecoveryPoint 9
  REQUIRE(f.pending == std::set<uint32_t>{2});
}

/// tail_recovery, then 2's retransmission arrives (cum ack 9), and nothing
/// lies above 9 to show it lost.
ProtoOut tail_loss(SackFlow& f, bool app_limited) {
  tail_recovery(f, app_limited);
  f.resend_pending();
  return f.ack(9);
}
}  // namespace

TEST_CASE("proto: sack: rescue retransmission of the highest unSACKed segment, once per recovery (NextSeg rule 4)",
          "[proto][sack][smoke]") {
  SackFlow f;
  ProtoOut o = tail_loss(f, true);
  // Partial ack 9 <= RecoveryPoint: in recovery, nothing lost, nothing new
  // to send, room in the window (flight 1): resend 9, the segment holding
  // the highest outstanding unSACKed sequence number.
  REQUIRE(f.u().in_rec);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 9 && o.mark_hi == 10));
  REQUIRE(f.newly_marked == Marks{9});
  REQUIRE(f.u().rescued);
  REQUIRE(o.wnd == 4);  // ssthresh 4 (FlightSize 8 / 2) + 0 SACKed
  f.resend_pending();
  // Once per recovery: a duplicate ack does not rescue again.
  o = f.ack(9);
  REQUIRE(!o.mark_we);
  REQUIRE(f.newly_marked.empty());
  // The rescue fills the tail: leave recovery; the next recovery may rescue again.
  o = f.ack(10);
  REQUIRE(!f.u().in_rec);
  REQUIRE(!f.u().rescued);
}

TEST_CASE("proto: sack: no rescue retransmission while new data is waiting or a SACK covers next_new - 1",
          "[proto][sack][smoke]") {
  SECTION("unsent data: NextSeg rule 2 sends it instead") {
    SackFlow f;
    const ProtoOut o = tail_loss(f, false);
    REQUIRE(f.u().in_rec);
    REQUIRE(!o.mark_we);
    REQUIRE(!f.u().rescued);
    REQUIRE(f.pending.empty());
  }
  SECTION("next_new - 1 SACKed") {
    SackFlow f;
    f.send(10);
    f.posted = f.next_new;
    f.ack(2);
    for (uint32_t s : {3u, 4u, 5u}) f.ack(2, s);  // recovery, 2 marked
    f.resend_pending();
    ProtoOut o = f.ack(2, 9);  // the 3rd-highest SACK is 4: 2 only
    REQUIRE(f.newly_marked.empty());
    o = f.ack(6);  // 2 arrives (3..5 SACKed): 6, 7, 8 outstanding, 9 SACKed
    REQUIRE(f.u().in_rec);
    REQUIRE(!o.mark_we);
    REQUIRE(!f.u().rescued);
  }
  SECTION("a marked segment not yet resent") {
    SackFlow f;
    tail_recovery(f, true);
    ProtoOut o = f.ack(2, 8);  // a repeated SACK: nothing newly lost, room in the window
    REQUIRE(!o.mark_we);
    REQUIRE(!f.u().rescued);
    f.resend_pending();
    o = f.ack(2, 8);  // now nothing is waiting: the rescue
    REQUIRE((o.mark_we && o.mark_lo == 9 && o.mark_hi == 10));
    REQUIRE(f.newly_marked == Marks{9});
  }
  SECTION("no room in the window") {
    SackFlow f;
    tail_recovery(f, true);
    f.resend_pending();
    f.wnd = 1;  // as if the window had shrunk to the one outstanding segment
    const ProtoOut o = f.ack(9);
    REQUIRE(!o.mark_we);
    REQUIRE(!f.u().rescued);
  }
}

TEST_CASE("proto: sack: NextSeg rule 3 resends the unSACKed segments between the 3rd-highest and the highest SACK",
          "[proto][sack][smoke]") {
  SackFlow f;
  f.send(10);  // 0..9; 2, 6 and 7 are lost; nothing more to send
  f.posted = f.next_new;
  f.ack(2);
  for (uint32_t s : {3u, 4u, 5u}) f.ack(2, s);  // recovery: 2 is marked
  REQUIRE(f.newly_marked == Marks{2});
  f.resend_pending();
  f.ack(2, 8);  // 3rd-highest 4
  ProtoOut o = f.ack(2, 9);  // 3rd-highest 5: nothing unSACKed below it but 2
  REQUIRE(f.newly_marked.empty());
  REQUIRE(f.u().high_off == 3);  // 5
  REQUIRE(o.wnd == 9);           // ssthresh 4 + 5 SACKed; flight 8: room for one
  // 6 and 7 have only two SACKs above them: not lost. Repeated SACKs move
  // nothing; with nothing lost waiting, no new data and room in the window,
  // rule 3 resends the lowest unSACKed segment above HighRxt with a SACK
  // above it, one per event.
  o = f.ack(2, 9);
  REQUIRE(o.mark_we);
  REQUIRE((o.mark_lo == 5 && o.mark_hi == 7));  // 5 is SACKed: 6 alone
  REQUIRE(f.newly_marked == Marks{6});
  REQUIRE(f.u().high_off == 5);  // HighRxt: 6
  o = f.ack(2, 9);  // waits while 6 is pending
  REQUIRE(!o.mark_we);
  f.resend_pending();
  o = f.ack(2, 9);
  REQUIRE((o.mark_lo == 7 && o.mark_hi == 8));
  REQUIRE(f.newly_marked == Marks{7});
  REQUIRE(f.u().high_off == 6);
  f.resend_pending();
  // The gap is done; next_new - 1 = 9 is SACKed: no rescue either.
  o = f.ack(2, 9);
  REQUIRE(!o.mark_we);
  REQUIRE(!f.u().rescued);
  // The retransmissions arrive: leave recovery.
  o = f.ack(10);
  REQUIRE(!f.u().in_rec);
}

TEST_CASE("proto: sack: NextSeg rule 3 reaches the gap below the highest SACK", "[proto][sack][smoke]") {
  SECTION("a hole between the 2nd-highest and the highest SACK") {
    SackFlow f;
    f.send(10);  // 0..9; 2, 6 and 8 are lost; nothing more to send
    f.posted = f.next_new;
    f.ack(2);
    for (uint32_t s : {3u, 4u, 5u}) f.ack(2, s);  // recovery: 2 is marked
    f.resend_pending();
    f.ack(2, 7);
    ProtoOut o = f.ack(2, 9);  // kept: 9, 7, 5 (third 5: nothing new lost)
    REQUIRE(f.newly_marked.empty());
    o = f.ack(2, 9);
    REQUIRE((o.mark_we && o.mark_lo == 5 && o.mark_hi == 7));  // 6 (between 5 and 7)
    REQUIRE(f.newly_marked == Marks{6});
    f.resend_pending();
    o = f.ack(2, 9);
    // HighRxt is 6; 7 is SACKed, so the lowest unSACKed above it is 8,
    // below the highest SACK 9: [7, 9) marks 8 alone.
    REQUIRE((o.mark_we && o.mark_lo == 7 && o.mark_hi == 9));
    REQUIRE(f.newly_marked == Marks{8});
    REQUIRE(f.u().high_off == 7);  // 9 - wnd_start 2
    f.resend_pending();
    o = f.ack(2, 9);  // nothing unSACKed below 9 above HighRxt; 9 SACKed: no rescue
    REQUIRE(!o.mark_we);
    o = f.ack(10);
    REQUIRE(!f.u().in_rec);
  }
  SECTION("third and the 2nd-highest SACK adjacent: the hole above both") {
    SackFlow f;
    f.send(10);  // 0..9; 2 and 7 are lost, 9 outstanding
    f.posted = f.next_new;
    f.ack(2);
    for (uint32_t s : {3u, 4u, 5u}) f.ack(2, s);  // recovery: 2 is marked
    f.resend_pending();
    f.ack(2, 6);
    ProtoOut o = f.ack(2, 8);  // kept: 8, 6, 5: third 5, 6 = third + 1 SACKed
    REQUIRE(f.newly_marked.empty());
    REQUIRE(f.u().high_off == 3);  // 5
    o = f.ack(2, 8);
    REQUIRE((o.mark_we && o.mark_lo == 5 && o.mark_hi == 8));  // 7 alone (5, 6 SACKed)
    REQUIRE(f.newly_marked == Marks{7});
    REQUIRE(f.u().high_off == 6);  // 8 - 2: HighRxt 7
    f.resend_pending();
    // 8 is the highest SACK: 9 has no SACK above it; the rescue resends it
    // (NextSeg rule 4) once.
    o = f.ack(2, 8);
    REQUIRE((o.mark_we && o.mark_lo == 9 && o.mark_hi == 10));
    REQUIRE(f.u().rescued);
  }
}
