// SPDX-License-Identifier: Apache-2.0
// TcpReceiver: a TCP receiver per flow at segment granularity, the far end
// of the sender-core testbench (docs/design/sender-core.md section 6).
//
// Plain C++ (no Verilator headers). Per flow: rcv_nxt (every segment below
// it is received) and an out-of-order set held in a ring of W slots, so a
// segment s is accepted iff rcv_nxt <= s < rcv_nxt + W (serial order).
// Sequence numbers are 32-bit segment indices compared with seq.hpp.
//
// Ack rules (RFC 5681 section 4.2, at segment granularity):
//   - per-segment mode: every arriving segment is acked at once;
//   - delayed mode: an in-order segment that fills no hole is acked when it
//     is the delack_count-th (default 2nd) unacked one, or delack_timeout
//     cycles after the first unacked one arrived (timer ack);
//   - always immediate: an out-of-order segment (above rcv_nxt), a segment
//     that fills all or part of a hole (equal to rcv_nxt while segments above
//     are held), a duplicate (below rcv_nxt or already held), and, unless
//     disabled, a segment beyond the window (discarded and counted; RFC 793
//     answers an unacceptable segment with an ack).
//   Any ack acknowledges everything: it clears the delayed-ack count and
//   cancels the flow's timer.
// Every ack carries cum_ack = rcv_nxt after the segment was processed. With
// SACK on, it also carries the index of the segment just received when that
// segment is held above rcv_nxt (out-of-order arrival or a duplicate of a
// held segment); one SACK index per ack, never for a discarded segment.
//
// Echo, SACK blocks and the CE state (docs/design/receiver.md, "Echo, SACK
// blocks and the CE state"; the receiver engine follows the same rules):
//   - a segment brings its transmit stamp and retransmit flag (segment()'s
//     ts and rtx; a caller that passes none gets stamp 0 echoed, valid);
//     every ack carries `echo` = TS.Recent of RFC 7323 section 4.3 at
//     segment granularity: the stamp of the in-order segment that arrived
//     when no ack was pending (so a delayed ack echoes the earliest segment
//     it covers, an out-of-order or duplicate arrival's ack the last segment
//     that advanced rcv_nxt, a hole-filling segment its own), and of the
//     flow's first arrival of any kind before that; the RFC's test that a
//     stamp does not go backwards is not made;
//   - with SACK on, every ack carries up to kSackBlocks blocks
//     (SackReport, ack_fields.hpp: RFC 2018 section 4);
//   - `ecn`: the CE mark of the segment that caused the ack (0 on a timer
//     ack), or with ce_state_acks the flow's CE state: the CE mark of the
//     last segment; a segment whose mark differs from the state first acks
//     the in-order segments pending under the old state (cause kCeChange,
//     ecn = the old state), then the state flips (RFC 8257 section 3.2).
//     The model sets no mark of its own: ecn is 0 unless segment() is given
//     a CE mark.
//
// Time: segment(cycle, ...) and advance(cycle) take non-decreasing cycles.
// Both first fire the timers due at or before `cycle` (in deadline, then
// flow order), then handle the segment. Acks queue inside in generation
// order; take_acks() hands them out. AckEvent::cycle is the generation cycle
// (the arrival cycle, or the timer deadline).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tonic/ack_fields.hpp"
#include "tonic/seq.hpp"

namespace tonic {

/// Why the receiver sent an ack (for tests and debugging; not on the wire).
enum class AckCause : uint8_t {
  kPerSegment,    // per-segment mode, in-order segment
  kDelayedCount,  // delayed mode, delack_count-th in-order segment
  kTimer,         // delayed mode, timeout
  kOutOfOrder,    // segment above rcv_nxt, newly held
  kHoleFill,      // segment at rcv_nxt while segments above were held
  kDuplicate,     // segment below rcv_nxt or already held
  kBeyondWindow,  // segment at or beyond rcv_nxt + W, discarded
  kCeChange,      // ce_state_acks: the CE mark changed, pending segments acked first
};

inline const char* to_string(AckCause c) {
  switch (c) {
    case AckCause::kPerSegment: return "per-segment";
    case AckCause::kDelayedCount: return "delayed-count";
    case AckCause::kTimer: return "timer";
    case AckCause::kOutOfOrder: return "out-of-order";
    case AckCause::kHoleFill: return "hole-fill";
    case AckCause::kDuplicate: return "duplicate";
    case AckCause::kBeyondWindow: return "beyond-window";
    case AckCause::kCeChange: return "ce-change";
  }
  return "?";
}

/// One ack from the receiver to the sender.
struct AckEvent {
  uint32_t flow = 0;
  uint32_t cum_ack = 0;    // rcv_nxt: every segment below it is received
  bool sack_valid = false;
  uint32_t sack_idx = 0;   // the segment just received, held above cum_ack
  bool ecn = false;        // ECN echo: the segment's CE mark, or the CE state (ce_state_acks)
  Echo echo;               // TS.Recent: the stamp of one transmission (header)
  SackBlocks blks{};       // SACK on: the held runs, [0] the most recent
  uint64_t cycle = 0;      // generation cycle at the receiver
  AckCause cause = AckCause::kPerSegment;

  bool operator==(const AckEvent& o) const {
    return flow == o.flow && cum_ack == o.cum_ack && sack_valid == o.sack_valid &&
           (!sack_valid || sack_idx == o.sack_idx) && ecn == o.ecn && echo == o.echo &&
           blks == o.blks && cycle == o.cycle && cause == o.cause;
  }
};

struct RxConfig {
  uint32_t window = 128;           // W: held segments lie in [rcv_nxt, rcv_nxt + W)
  bool delayed_ack = false;        // false: ack every segment
  uint32_t delack_count = 2;       // delayed mode: ack every n-th in-order segment (n >= 1)
  uint64_t delack_timeout = 200;   // delayed mode: cycles from the first unacked one (>= 1)
  bool sack = false;               // SACK the segment just received when held
  bool ack_beyond_window = true;   // immediate ack for a discarded beyond-window segment
  bool ce_state_acks = false;      // ecn = the flow's CE state; a CE change acks pending segments first
};

/// Counters, per flow and in total.
struct RxStats {
  uint64_t segments = 0;       // arrivals
  uint64_t in_order = 0;       // arrived at rcv_nxt
  uint64_t out_of_order = 0;   // newly held above rcv_nxt
  uint64_t hole_fills = 0;     // in order while segments above were held
  uint64_t duplicates = 0;     // below rcv_nxt or already held
  uint64_t beyond_window = 0;  // discarded
  uint64_t acks = 0;
  uint64_t timer_acks = 0;
  uint64_t sacks = 0;          // acks with sack_valid
};

class TcpReceiver {
 public:
  explicit TcpReceiver(RxConfig cfg = {}) : cfg_(cfg) {
    if (cfg_.window == 0 || cfg_.window >= 0x8000'0000u)
      throw std::invalid_argument("TcpReceiver: window must be in [1, 2^31)");
    if (cfg_.delack_count == 0) throw std::invalid_argument("TcpReceiver: delack_count must be >= 1");
    if (cfg_.delack_timeout == 0) throw std::invalid_argument("TcpReceiver: delack_timeout must be >= 1");
  }

  const RxConfig& config() const { return cfg_; }

  /// (Re)starts `flow` expecting segment `first` next. A segment for a flow
  /// never opened opens it with first = 0.
  void open(uint32_t flow, uint32_t first = 0) {
    Flow& f = flows_[flow];
    if (f.timer_armed) timers_.erase({f.deadline, flow});
    f = Flow{};
    f.rcv_nxt = first;
    f.ring.assign(cfg_.window, 0);
  }

  bool is_open(uint32_t flow) const { return flows_.count(flow) != 0; }

  /// Segment `seg` of `flow` arrives in `cycle`, sent at stamp `ts` (a
  /// retransmission if `rtx`), CE-marked if `ce`.
  void segment(uint64_t cycle, uint32_t flow, uint32_t seg, uint32_t ts = 0, bool rtx = false,
               bool ce = false) {
    advance(cycle);
    if (!is_open(flow)) open(flow, 0);
    Flow& f = flows_.at(flow);
    count(f, &RxStats::segments);

    // CE state: a change acks the segments pending under the old one first.
    if (cfg_.ce_state_acks && ce != f.ce_state) {
      if (f.unacked != 0) emit(cycle, flow, f, AckCause::kCeChange, 0, false);
      f.ce_state = ce;
    }
    f.ce = ce;
    // TS.Recent: the in-order segment at the last ack sent (none pending),
    // or the first arrival.
    if ((seg == f.rcv_nxt && f.unacked == 0) || !f.ts_recent.valid) f.ts_recent = echo_of(ts, rtx);

    if (seq_lt(seg, f.rcv_nxt)) {
      count(f, &RxStats::duplicates);
      return emit(cycle, flow, f, AckCause::kDuplicate, seg);
    }
    const uint32_t d = seq_dist(f.rcv_nxt, seg);
    if (d >= cfg_.window) {
      count(f, &RxStats::beyond_window);
      if (cfg_.ack_beyond_window) emit(cycle, flow, f, AckCause::kBeyondWindow, seg, false);
      return;
    }
    uint8_t& slot = f.ring[(f.head + d) % cfg_.window];
    if (slot != 0) {
      count(f, &RxStats::duplicates);
      return emit(cycle, flow, f, AckCause::kDuplicate, seg);
    }
    if (d != 0) {
      slot = 1;
      ++f.held;
      count(f, &RxStats::out_of_order);
      return emit(cycle, flow, f, AckCause::kOutOfOrder, seg);
    }

    // In order: advance over the segment and the run of held ones after it.
    count(f, &RxStats::in_order);
    const bool fills_hole = f.held != 0;
    step(f);
    while (f.ring[f.head] != 0) {
      f.ring[f.head] = 0;
      --f.held;
      step(f);
    }
    if (fills_hole) {
      count(f, &RxStats::hole_fills);
      return emit(cycle, flow, f, AckCause::kHoleFill, seg);
    }
    if (!cfg_.delayed_ack) return emit(cycle, flow, f, AckCause::kPerSegment, seg);
    if (++f.unacked >= cfg_.delack_count) return emit(cycle, flow, f, AckCause::kDelayedCount, seg);
    if (!f.timer_armed) {
      f.timer_armed = true;
      f.deadline = cycle + cfg_.delack_timeout;
      timers_.insert({f.deadline, flow});
    }
  }

  /// Time passes up to `cycle`: fires every delayed-ack timer due by then.
  void advance(uint64_t cycle) {
    if (cycle < now_) throw std::invalid_argument("TcpReceiver: time went backwards");
    now_ = cycle;
    while (!timers_.empty() && timers_.begin()->first <= cycle) {
      const auto [deadline, flow] = *timers_.begin();
      Flow& f = flows_.at(flow);
      count(f, &RxStats::timer_acks);
      f.ce = false;  // a timer ack echoes no segment's mark
      emit(deadline, flow, f, AckCause::kTimer, 0, false);  // erases the timer
    }
  }

  /// The acks generated so far, oldest first; the queue is emptied.
  std::vector<AckEvent> take_acks() {
    std::vector<AckEvent> out;
    out.swap(out_);
    return out;
  }
  /// Acks generated and not yet taken.
  std::size_t queued_acks() const { return out_.size(); }

  /// Earliest pending delayed-ack timer deadline, or UINT64_MAX if none.
  uint64_t next_timer() const { return timers_.empty() ? UINT64_MAX : timers_.begin()->first; }
  /// Flows with a delayed ack outstanding.
  std::size_t pending_timers() const { return timers_.size(); }

  uint32_t rcv_nxt(uint32_t flow) const { return flows_.at(flow).rcv_nxt; }
  /// Segments held above rcv_nxt.
  uint32_t held(uint32_t flow) const { return flows_.at(flow).held; }
  /// In-order segments not acked yet (delayed mode).
  uint32_t unacked(uint32_t flow) const { return flows_.at(flow).unacked; }
  /// Whether `seg` of `flow` has been received (below rcv_nxt or held).
  bool received(uint32_t flow, uint32_t seg) const {
    const Flow& f = flows_.at(flow);
    if (seq_lt(seg, f.rcv_nxt)) return true;
    const uint32_t d = seq_dist(f.rcv_nxt, seg);
    return d < cfg_.window && f.ring[(f.head + d) % cfg_.window] != 0;
  }

  const RxStats& stats() const { return total_; }
  const RxStats& stats(uint32_t flow) const { return flows_.at(flow).stats; }
  uint64_t now() const { return now_; }

 private:
  struct Flow {
    uint32_t rcv_nxt = 0;
    uint32_t head = 0;           // ring slot of rcv_nxt
    uint32_t held = 0;           // set slots
    std::vector<uint8_t> ring;   // slot (head + d) % W: segment rcv_nxt + d held
    uint32_t unacked = 0;        // delayed mode: in-order segments since the last ack
    bool timer_armed = false;
    uint64_t deadline = 0;
    Echo ts_recent;              // TS.Recent (invalid until the first arrival)
    bool ce_state = false;       // ce_state_acks: CE mark of the last segment
    bool ce = false;             // CE mark of the segment being handled
    SackReport sacks;            // the runs reported
    RxStats stats;
  };

  void count(Flow& f, uint64_t RxStats::*field) {
    ++(f.stats.*field);
    ++(total_.*field);
  }

  /// Whether index i, at or above rcv_nxt, is held.
  bool slot_held(const Flow& f, uint32_t i) const {
    const uint32_t d = seq_dist(f.rcv_nxt, i);
    return d < cfg_.window && f.ring[(f.head + d) % cfg_.window] != 0;
  }

  void step(Flow& f) {
    ++f.rcv_nxt;
    f.head = (f.head + 1) % cfg_.window;
  }

  /// Sends an ack for `flow` now; `seg` is the segment just received (a SACK
  /// candidate when `may_sack`).
  void emit(uint64_t cycle, uint32_t flow, Flow& f, AckCause cause, uint32_t seg,
            bool may_sack = true) {
    AckEvent a;
    a.flow = flow;
    a.cum_ack = f.rcv_nxt;
    a.cycle = cycle;
    a.cause = cause;
    a.ecn = cfg_.ce_state_acks ? f.ce_state : f.ce;
    a.echo = f.ts_recent;
    const bool held = may_sack && seq_lt(f.rcv_nxt, seg);
    if (cfg_.sack && held) {
      a.sack_valid = true;
      a.sack_idx = seg;
      count(f, &RxStats::sacks);
    }
    if (cfg_.sack) {
      a.blks = f.sacks.ack(f.rcv_nxt, held ? std::optional<uint32_t>(seg) : std::nullopt,
                           [&](uint32_t i) { return seq_lt(f.rcv_nxt, i) && slot_held(f, i); });
    }
    out_.push_back(a);
    count(f, &RxStats::acks);
    f.unacked = 0;
    if (f.timer_armed) {
      timers_.erase({f.deadline, flow});
      f.timer_armed = false;
    }
  }

  RxConfig cfg_;
  std::unordered_map<uint32_t, Flow> flows_;
  std::set<std::pair<uint64_t, uint32_t>> timers_;  // (deadline, flow)
  std::vector<AckEvent> out_;
  RxStats total_;
  uint64_t now_ = 0;
};

}  // namespace tonic
