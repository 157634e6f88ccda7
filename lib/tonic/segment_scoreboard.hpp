// SPDX-License-Identifier: Apache-2.0
// SegmentScoreboard: the one check of the sender's segment output (every address legal, every segment exactly once).
//
// A rig feeds it the events it sees on tonic_top's ports and reads back the
// first violation (and how many there were). Events:
//   add(c, f, first, seg_size)    an ADD the rig counts as executed (at its
//                                 handshake with kLeftovers, see below);
//   post(f, end, last_len, known) a POST the engine took (one past the last
//                                 segment; the last segment's length);
//   ack(f, cum)                   a cumulative ack the engine took;
//   remove(f)                     a REMOVE the rig counts as executed;
//   generated(c, f, idx, rtx)     a next-seg decision (trace_ns_o), for rigs
//                                 that follow the decisions;
//   segment(c, f, idx, rtx, len)  an address that left (seg_*_o handshake).
//
// Rules on every address (the message of each is in index_rule / segment):
//   - the flow id is below the flow count, and the flow was added;
//   - a new segment (rtx = 0) is exactly the flow's next never-sent index
//     (no gaps, no repeats); a retransmission is of an index sent before;
//   - options: the index lies in [first, posted) (check_posted); a new one
//     lies below the highest cumulative ack + W (window); the length is the
//     segment size, or the posted last length for the last posted segment
//     (check_len); every address is its flow's oldest decision not yet out,
//     with the length the flow's state gave at that decision, and at most
//     RingN decisions of a flow are outstanding (generation_order); the
//     index rules are applied to the decisions instead of the addresses
//     (rules_at_generation).
//   - after a REMOVE (AfterRemove): kReject, no address of the flow may leave;
//     kDrain, the removed incarnation's addresses still leave and are
//     checked against it (at most drain_limit of them, 0: no bound), a
//     re-ADD starts afresh; kLeftovers, an ADD seen at its handshake waits
//     in the engine until the removed incarnation's queued addresses have
//     left: they continue the old incarnation's indices until the new one's
//     first index shows as a new segment (at most drain_limit of them).
//
// Per flow it counts the addresses (this incarnation and over all), the
// retransmissions and the first and last cycle one left.
#pragma once

#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "tonic/seq.hpp"

namespace tonic {

/// The rules that differ between rigs.
struct ScoreboardOptions {
  /// What a REMOVE means for the addresses still to leave (see the file comment).
  enum class AfterRemove { kReject, kDrain, kLeftovers };
  AfterRemove after_remove = AfterRemove::kDrain;
  /// Addresses of a removed incarnation tolerated (kDrain, kLeftovers); 0: no bound.
  uint32_t drain_limit = 0;
  /// W: a new segment lies below the highest cumulative ack + W; 0: not checked.
  uint32_t window = 0;
  /// Every index lies in [first, posted).
  bool check_posted = false;
  /// The length is the segment size, or the posted last length for the last
  /// posted segment (at the address; with generation_order, at the decision).
  bool check_len = false;
  /// Every address is its flow's oldest decision (generated()) not yet out.
  bool generation_order = false;
  /// With generation_order: at most this many decisions of a flow not yet out (0: no bound).
  uint32_t ring_n = 0;
  /// The index rules (next never-sent, sent before, posted) are applied to
  /// the decisions (generated()) rather than to the addresses.
  bool rules_at_generation = false;
};

/// What the scoreboard knows about one flow id (its current incarnation).
/// The field names are those of TonicTb's FlowTrack, which is this type.
struct ScoreFlow {
  bool tracked = false;     // an ADD seen (the flow is present or draining)
  bool added = false;       // added and not removed
  uint32_t start = 0;       // first segment index
  uint32_t seg_size = 0;
  uint32_t posted = 0;      // one past the last posted segment
  uint32_t last_len = 0;
  bool posted_known = true; // false: a POST whose acceptance the rig could not tell
  uint32_t snd_max = 0;     // one past the highest new segment sent (decided, with rules_at_generation)
  uint32_t acked = 0;       // highest cumulative ack taken
  uint32_t after_remove = 0;  // addresses of this incarnation since its REMOVE
  uint64_t sent = 0, rtx = 0;             // addresses of this incarnation, retransmissions among them
  uint64_t first_out = 0, last_out = 0;   // cycles of its first and last address
  uint64_t total_out = 0, total_rtx = 0;  // addresses of the flow id over all incarnations, retransmissions
};

/// One next-seg decision not yet out, with the length it must leave with.
struct ScoreDecision {
  uint32_t idx = 0;
  bool rtx = false;
  uint32_t len = 0;
  bool len_known = true;
};

/// The segment-output scoreboard (see the file comment).
class SegmentScoreboard {
 public:
  /// What segment() made of an address.
  enum class Verdict {
    kBad,      // a rule failed (recorded)
    kCurrent,  // an address of the flow's present incarnation
    kDrained   // an address of a removed incarnation, leaving after its REMOVE
  };

  SegmentScoreboard(uint32_t flows, const ScoreboardOptions& o = {}) : o_(o), fl_(flows), pend_(flows), q_(flows) {}

  const ScoreboardOptions& options() const { return o_; }
  uint32_t flows() const { return static_cast<uint32_t>(fl_.size()); }
  /// The flow's state (the incarnation whose addresses are leaving).
  const ScoreFlow& flow(uint32_t f) const { return fl_[f]; }
  /// For self-tests that corrupt what the scoreboard expects.
  ScoreFlow& mutable_flow(uint32_t f) { return fl_[f]; }
  /// The next never-sent index of the flow's newest incarnation (an ADD
  /// waiting for the old one's leftovers: its first index).
  uint32_t next_new(uint32_t f) const { return pend_[f].valid ? pend_[f].start : fl_[f].snd_max; }
  /// Decisions of the flow not yet out (generation_order).
  const std::deque<ScoreDecision>& queued(uint32_t f) const { return q_[f]; }

  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }
  /// Addresses seen (segment() calls), over all flows.
  uint64_t outs() const { return outs_; }

  // ------------------------------------------------------------ control
  /// An ADD of flow f (ignored for ids >= flows or a flow already added:
  /// the engine ignores those too). With generation_order, decisions of the
  /// flow still queued are a violation (the engine waits for them).
  void add(uint64_t cycle, uint32_t f, uint32_t first, uint32_t seg_size) {
    if (f >= flows() || fl_[f].added) return;
    ScoreFlow& t = fl_[f];
    if (o_.generation_order && !q_[f].empty()) fail(cycle, "ADD of flow " + std::to_string(f) + " executed with addresses of the flow still queued");
    if (o_.after_remove == ScoreboardOptions::AfterRemove::kLeftovers && t.tracked) {
      // The old incarnation's queued addresses may still leave: the new one
      // takes over at its first new segment.
      Pending& p = pend_[f];
      p = Pending{};
      p.valid = true;
      p.start = p.posted = first;
      p.seg_size = p.last_len = seg_size;
      t.added = true;
      return;
    }
    start(f, first, seg_size);
  }

  /// A POST the engine took: data up to `end` (exclusive), the last segment
  /// `last_len` long. A POST backwards or of a flow not added is ignored.
  /// known = false: the rig cannot tell whether the engine took it; the
  /// posted bound and the lengths are then no longer checked for this
  /// incarnation. Returns whether it applied.
  bool post(uint32_t f, uint32_t end, uint32_t last_len, bool known = true) {
    if (f >= flows() || !fl_[f].added) return false;
    if (pend_[f].valid) {
      Pending& p = pend_[f];
      if (seq_lt(end, p.posted)) return false;
      p.posted = end;
      p.last_len = last_len;
      p.posted_known = p.posted_known && known;
      return true;
    }
    ScoreFlow& t = fl_[f];
    if (seq_lt(end, t.posted)) return false;
    t.posted = end;
    t.last_len = last_len;
    t.posted_known = t.posted_known && known;
    return true;
  }

  /// A cumulative ack the engine took: raises `acked` if it lies in
  /// (acked, snd_max]. Returns whether it did.
  bool ack(uint32_t f, uint32_t cum) {
    if (f >= flows() || !fl_[f].added || pend_[f].valid) return false;
    ScoreFlow& t = fl_[f];
    if (!seq_lt(t.acked, cum) || seq_lt(t.snd_max, cum)) return false;
    t.acked = cum;
    return true;
  }

  /// A REMOVE of flow f (ignored if it is not added). An ADD still waiting
  /// for leftovers (kLeftovers) stays waiting: its addresses then drain.
  void remove(uint32_t f) {
    if (f >= flows() || !fl_[f].added) return;
    fl_[f].added = false;
    fl_[f].after_remove = 0;
  }

  // ------------------------------------------------------------ outputs
  /// A next-seg decision (trace_ns_o) for flow f, seen with the state before
  /// this cycle's control op. Needs generation_order.
  bool generated(uint64_t cycle, uint32_t f, uint32_t idx, bool rtx) {
    if (f >= flows() || !fl_[f].added || pend_[f].valid) {
      std::ostringstream m;
      m << "next-seg decides flow " << f << " idx " << idx << (rtx ? " rtx" : "") << ", not present";
      return fail(cycle, m.str());
    }
    ScoreFlow& t = fl_[f];
    if (o_.rules_at_generation) {
      const std::string why = index_rule(t, idx, rtx);
      if (!why.empty()) {
        std::ostringstream m;
        m << "next-seg decides flow " << f << " idx " << idx << (rtx ? " rtx" : "") << ": " << why;
        return fail(cycle, m.str());
      }
      if (!rtx) t.snd_max = idx + 1;
    }
    const bool last = t.posted_known && idx + 1 == t.posted;
    q_[f].push_back({idx, rtx, last ? t.last_len : t.seg_size, t.posted_known});
    if (o_.ring_n != 0 && q_[f].size() > o_.ring_n) {
      return fail(cycle, "flow " + std::to_string(f) + ": more than RingN (" + std::to_string(o_.ring_n) +
                             ") addresses decided and not out");
    }
    return true;
  }

  /// An address that left. Checks it against every rule; the first failing
  /// one is recorded (the state is then left as it was).
  Verdict segment(uint64_t cycle, uint32_t f, uint32_t idx, bool rtx, uint32_t len) {
    ++outs_;
    auto bad = [&](const std::string& why) {
      std::ostringstream m;
      m << "flow " << f << " idx " << idx << " rtx " << rtx << " len " << len << ": " << why;
      fail(cycle, m.str());
      return Verdict::kBad;
    };
    if (f >= flows()) return bad("flow id out of range (" + std::to_string(flows()) + " flows)");
    ScoreFlow& t = fl_[f];
    if (!t.tracked) return bad("address of a flow never added");
    Pending& p = pend_[f];
    if (p.valid && !rtx && idx == p.start) {  // the new incarnation's first segment
      const bool still_added = t.added;  // false: removed again before it sent
      start(f, p.start, p.seg_size);
      t.added = still_added;
      t.posted = p.posted;
      t.last_len = p.last_len;
      t.posted_known = p.posted_known;
      p.valid = false;
    }
    const bool draining = !t.added || p.valid;
    if (draining) {
      if (o_.after_remove == ScoreboardOptions::AfterRemove::kReject) return bad("address of a removed flow");
      if (o_.drain_limit != 0 && t.after_remove + 1 > o_.drain_limit)
        return bad("more than " + std::to_string(o_.drain_limit) + " addresses after its REMOVE");
    }
    if (!o_.rules_at_generation) {
      const std::string why = index_rule(t, idx, rtx);
      if (!why.empty()) return bad(why);
    }
    uint32_t want = 0;
    bool check_len = false;
    if (o_.generation_order) {
      if (q_[f].empty()) return bad("an address next-seg never decided");
      const ScoreDecision g = q_[f].front();
      if (g.idx != idx || g.rtx != rtx)
        return bad("not the flow's oldest decided address (" + std::to_string(g.idx) + (g.rtx ? " rtx" : "") + ")");
      q_[f].pop_front();
      want = g.len;
      check_len = o_.check_len && g.len_known && t.posted_known;
    } else if (o_.check_len && t.posted_known) {
      want = (idx + 1 == t.posted) ? t.last_len : t.seg_size;
      check_len = true;
    }
    if (!o_.rules_at_generation && !rtx) t.snd_max = idx + 1;
    if (check_len && len != want) return bad("length should be " + std::to_string(want));
    if (draining) ++t.after_remove;
    if (t.sent == 0) t.first_out = cycle;
    t.last_out = cycle;
    ++t.sent;
    t.rtx += rtx;
    ++t.total_out;
    t.total_rtx += rtx;
    return draining ? Verdict::kDrained : Verdict::kCurrent;
  }

  /// A violation the rig found itself (kept in the same count and first message).
  bool fail(uint64_t cycle, const std::string& what) {
    if (errors_++ == 0) first_error_ = "cycle " + std::to_string(cycle) + ": " + what;
    return false;
  }

 private:
  /// An ADD waiting for the removed incarnation's leftovers (kLeftovers).
  struct Pending {
    bool valid = false;
    uint32_t start = 0, seg_size = 0, posted = 0, last_len = 0;
    bool posted_known = true;
  };

  void start(uint32_t f, uint32_t first, uint32_t seg_size) {
    ScoreFlow& t = fl_[f];
    const uint64_t total = t.total_out, total_rtx = t.total_rtx;
    t = ScoreFlow{};
    t.tracked = t.added = true;
    t.start = t.posted = t.snd_max = t.acked = first;
    t.seg_size = t.last_len = seg_size;
    t.total_out = total;
    t.total_rtx = total_rtx;
    q_[f].clear();
  }

  /// The index rules; empty if idx passes.
  std::string index_rule(const ScoreFlow& t, uint32_t idx, bool rtx) const {
    if (o_.check_posted && t.posted_known && !seq_lt(idx, t.posted))
      return "beyond the posted data (" + std::to_string(t.posted) + ")";
    if (o_.check_posted && seq_lt(idx, t.start)) return "before the first segment (" + std::to_string(t.start) + ")";
    if (!rtx) {
      if (idx != t.snd_max) return "new segment is not the next one (" + std::to_string(t.snd_max) + ")";
      if (o_.window != 0 && !seq_lt(idx, t.acked + o_.window))
        return "outside the largest window (acked " + std::to_string(t.acked) + " + W " + std::to_string(o_.window) + ")";
    } else if (!seq_lt(idx, t.snd_max)) {
      return "retransmission of a segment never sent (next " + std::to_string(t.snd_max) + ")";
    }
    return {};
  }

  ScoreboardOptions o_;
  std::vector<ScoreFlow> fl_;
  std::vector<Pending> pend_;
  std::vector<std::deque<ScoreDecision>> q_;
  uint64_t errors_ = 0, outs_ = 0;
  std::string first_error_;
};

}  // namespace tonic
