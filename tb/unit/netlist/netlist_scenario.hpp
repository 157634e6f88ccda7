// SPDX-License-Identifier: Apache-2.0
// Scenario: the stimulus of the netlist-vs-RTL comparison (docs/netlist.md)
// and the checks that make it meaningful, for tonic_top with any credit
// scheme. It drives one model (the RTL side of a LockStep) and reads only
// that model's outputs; the acks it sends depend on the segments that left.
//
// Each cycle: random ADD / POST / REMOVE of flows (re-ADD after a removal),
// random seg_ready_i / note_ready_i, a probe sweeping the flows, a network
// that delays each segment 20..80 cycles (so segments reorder) and loses or
// trims some, a receiver per credit scheme that answers, and now and then
// bad input: rx for flows not open or beyond FlowCount, unknown rx types, acks beyond what
// was sent, ADD of a present flow, POST / REMOVE of an absent one, an
// unknown control op. Receivers:
//   window (receiver tcp / tcp_sack): keeps out-of-order segments, cumulative ACK, a
//           SACK naming an out-of-order arrival;
//   rate   (receiver roce, go-back-N): in order -> ACK, a gap -> NACK (cum = the
//           expected segment), some CNPs (ecn set);
//   token  (receiver ndp): every arrival -> ACK + PULL (cumulative pull number in
//           rx_grant_i); a trimmed segment -> NACK naming it + PULL.
// Checks on the model (SegmentScoreboard, tonic/segment_scoreboard.hpp, with
// the leftovers rule): an address belongs to a flow added (or one just
// removed, whose queued addresses still leave, also after the next ADD's
// handshake, continuing its indices), a new segment is the next never-sent
// index of its flow, a retransmission was sent before, cr_enq_drop_o stays
// 0; after the drain every posted segment of every flow still open has
// reached the receiver.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tonic/seq.hpp"
#include "tonic/rng.hpp"
#include "tonic/segment_scoreboard.hpp"
#include "tonic/top_drive.hpp"

namespace tonic::netlist {

enum class Scheme { kWindow, kRate, kToken };

struct ScenarioConfig {
  Scheme scheme = Scheme::kWindow;
  uint32_t flows = 16;
  double loss = 0.02;        // segment lost in the network (window, rate)
  double trim = 0.0;         // segment trimmed: a NACK names it (token)
  double cnp = 0.0;          // CNP per arrival (rate)
  double seg_ready = 0.85;   // P(seg_ready_i)
  double note_ready = 0.7;   // P(note_ready_i)
  double bad_rx = 0.004;     // P(a bad rx beat in a cycle)
  double bad_ctrl = 0.002;   // P(a bad control command in a cycle)
};

template <class Model>
class Scenario {
 public:
  Scenario(const ScenarioConfig& c, uint64_t seed)
      : c_(c), rng_(seed), fl_(c.flows), rcv_(c.flows), sb_(c.flows, options()), defined_from_(c.flows, UINT64_MAX) {}

  /// Drain: no new posts, no bad input, no loss; the receivers answer.
  void set_drain(bool d) { drain_ = d; }

  /// Inputs of this cycle (before eval).
  void drive(Model& d, uint64_t cycle) {
    now_ = cycle;
    plan_ctrl();
    drive_ctrl(d, ctrl_);
    d.rx_valid_i = 0;
    if (!drain_ && rng_.chance(c_.bad_rx)) {
      bad_rx_beat(d);
    } else if (!rx_.empty()) {
      drive_rx_beat(d, rx_.front(), rx_.front().ecn, rx_.front().grant);
      rx_from_queue_ = true;
    }
    d.seg_ready_i = rng_.chance(c_.seg_ready);
    d.note_ready_i = rng_.chance(c_.note_ready);
    probe_prev_ = probe_now_;
    probe_now_ = static_cast<uint32_t>(cycle / 3 % c_.flows);
    d.probe_flow_i = probe_now_;
  }

  /// Whether the probe outputs of cycle t show defined words: the flow
  /// presented in cycle t - 1 (a registered read) had its per-flow state
  /// cleared by an ADD before then. A word never written or cleared reads
  /// as undefined data (tonic_state_ram), so until then the RTL and the
  /// netlist may legally differ there.
  bool probe_defined(uint64_t t) const { return t >= defined_from_[probe_prev_]; }

  /// Outputs of this cycle (after eval): handshakes, checks, the network.
  void observe(Model& d) {
    if (rx_from_queue_) rx_.pop_front();
    rx_from_queue_ = false;
    // An ADD accepted in cycle h executes (clears the flow's state) by the
    // first cycle c > h in which ctrl_ready_o is high again; a read
    // presented from c on sees the cleared words, the probe from c + 1.
    if (clearing_ && now_ > clear_accepted_ && d.ctrl_ready_o) {
      defined_from_[clear_flow_] = std::min(defined_from_[clear_flow_], now_ + 1);
      clearing_ = false;
    }
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      if (ctrl_.front().op == CtrlOp::kAdd && fl_[ctrl_.front().flow].pending_add) {
        clearing_ = true;
        clear_flow_ = ctrl_.front().flow;
        clear_accepted_ = now_;
      }
      accept_ctrl();
    }
    if (d.seg_valid_o && d.seg_ready_i) on_seg(d.seg_flow_o, d.seg_idx_o, d.seg_rtx_o, d.seg_len_o);
    if (d.note_valid_o && d.note_ready_i) ++notes_;
    if (d.cr_enq_drop_o) sb_.fail(now_, "cr_enq_drop_o: CR ring overflow");
    deliver();
  }

  /// Every posted segment of every open flow reached its receiver.
  bool all_delivered() const {
    for (uint32_t f = 0; f < c_.flows; ++f)
      if (fl_[f].added && !fl_[f].removing && rcv_[f].open && rcv_[f].next != fl_[f].posted) return false;
    return ctrl_.empty();
  }
  std::string undelivered() const {
    std::ostringstream m;
    for (uint32_t f = 0; f < c_.flows; ++f)
      if (fl_[f].added && rcv_[f].open && rcv_[f].next != fl_[f].posted)
        m << " flow " << f << ": received up to " << rcv_[f].next << " of " << fl_[f].posted << ";";
    return m.str();
  }

  uint64_t segments() const { return segs_; }
  uint64_t retransmits() const { return rtx_; }
  uint64_t notes() const { return notes_; }
  uint64_t adds() const { return adds_; }
  uint64_t removes() const { return removes_; }
  uint64_t bad_inputs() const { return bad_; }
  uint64_t errors() const { return sb_.errors(); }
  const std::string& first_error() const { return sb_.first_error(); }

 private:
  struct Flow {
    bool added = false;       // between the ADD handshake and the REMOVE handshake
    bool removing = false;    // REMOVE queued
    bool pending_add = false;
    uint32_t posted = 0;      // the host's: the end of the POSTs queued
    uint64_t epoch = 0;       // incremented per ADD: arrivals of an older incarnation are dropped
  };
  struct Rcv {
    bool open = false;
    uint32_t next = 0;         // cumulative: every segment below arrived
    std::set<uint32_t> ooo;    // out-of-order arrivals (window, token)
    uint16_t pulls = 0;        // token: cumulative pull number
    uint32_t nacked = 0;       // rate: the expected index last NACKed
    bool nack_sent = false;
    uint64_t epoch = 0;
  };
  struct Arrival {
    uint64_t at;
    uint32_t flow, idx;
    uint64_t epoch;
    bool trimmed;
    bool operator<(const Arrival& o) const { return at != o.at ? at < o.at : idx < o.idx; }
  };

  /// The scenario's rules: the index order only (no posted, window or
  /// length rules); after a REMOVE, the removed incarnation's queued
  /// addresses leave (also after the next ADD's handshake, which the
  /// engine holds until they have), in any number.
  static ScoreboardOptions options() {
    ScoreboardOptions o;
    o.after_remove = ScoreboardOptions::AfterRemove::kLeftovers;
    return o;
  }

  /// Queues the control commands of this cycle (at most a few outstanding).
  void plan_ctrl() {
    if (ctrl_.size() >= 2) return;
    if (!drain_ && rng_.chance(c_.bad_ctrl)) {
      const uint32_t f = static_cast<uint32_t>(rng_.below(c_.flows));
      CtrlCmd k;
      k.flow = f;
      switch (rng_.below(3)) {
        case 0: k.op = static_cast<CtrlOp>(3); break;                 // unknown op
        case 1: k.op = CtrlOp::kPost; k.seq = fl_[f].posted - 5; break;  // backwards (or absent flow)
        default: k.op = CtrlOp::kAdd; k.seq = 7; k.len = 100; break;   // maybe a present flow
      }
      // Only commands the engine must refuse: the flow's state when the
      // command arrives is known (no ADD / REMOVE of it queued).
      if (fl_[f].removing || fl_[f].pending_add) return;
      if (k.op == CtrlOp::kAdd && !fl_[f].added) return;  // would be a real ADD
      if (k.op == CtrlOp::kPost && !fl_[f].added) k.seq = 1;
      ctrl_.push_back(k);
      ++bad_;
      return;
    }
    if (drain_ || !rng_.chance(0.05)) return;
    const uint32_t f = static_cast<uint32_t>(rng_.below(c_.flows));
    Flow& x = fl_[f];
    if (x.removing || x.pending_add) return;
    if (!x.added) {
      CtrlCmd k;
      k.op = CtrlOp::kAdd;
      k.flow = f;
      k.seq = static_cast<uint32_t>(rng_.chance(0.3) ? 0xFFFFFFFFu - rng_.below(40) : rng_.below(1u << 20));
      k.len = static_cast<uint32_t>(rng_.range(64, 1500));
      x.pending_add = true;
      ctrl_.push_back(k);
    } else if (rng_.chance(0.03)) {
      CtrlCmd k;
      k.op = CtrlOp::kRemove;
      k.flow = f;
      x.removing = true;
      ctrl_.push_back(k);
    } else if (seq_diff(x.posted, rcv_[f].next) < 200) {
      CtrlCmd k;
      k.op = CtrlOp::kPost;
      k.flow = f;
      k.seq = x.posted + static_cast<uint32_t>(rng_.range(1, 40));
      k.len = static_cast<uint32_t>(rng_.range(1, 1500));
      ctrl_.push_back(k);
      x.posted = k.seq;  // later POSTs build on it
    }
  }

  static int64_t seq_diff(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b); }

  void accept_ctrl() {
    const CtrlCmd k = ctrl_.front();
    ctrl_.pop_front();
    Flow& x = fl_[k.flow];
    if (k.op == CtrlOp::kAdd && x.pending_add) {
      x.pending_add = false;
      x.added = true;
      x.posted = k.seq;
      sb_.add(now_, k.flow, k.seq, k.len);
      ++x.epoch;
      Rcv& r = rcv_[k.flow];
      r = Rcv{};
      r.open = true;
      r.next = k.seq;
      r.epoch = x.epoch;
      ++adds_;
    } else if (k.op == CtrlOp::kRemove && x.removing) {
      sb_.remove(k.flow);
      x.removing = false;
      x.added = false;
      rcv_[k.flow].open = false;
      ++removes_;
    }
  }

  void on_seg(uint32_t f, uint32_t idx, bool rtx, uint32_t len) {
    ++segs_;
    if (rtx) ++rtx_;
    // A violation, or a leftover of a removed incarnation (to a closed receiver).
    if (sb_.segment(now_, f, idx, rtx, len) != SegmentScoreboard::Verdict::kCurrent) return;
    const Flow& x = fl_[f];
    const bool trimmed = !drain_ && rng_.chance(c_.trim);
    if (!drain_ && !trimmed && rng_.chance(c_.loss)) return;
    net_.insert({now_ + rng_.range(20, 80), f, idx, x.epoch, trimmed});
  }

  /// Arrivals due now: the receiver answers (into the rx queue).
  void deliver() {
    while (!net_.empty() && net_.begin()->at <= now_) {
      const Arrival a = *net_.begin();
      net_.erase(net_.begin());
      Rcv& r = rcv_[a.flow];
      if (!r.open || r.epoch != a.epoch) continue;
      RxCmd k;
      k.flow = a.flow;
      switch (c_.scheme) {
        case Scheme::kWindow: {
          const bool ooo = arrive_buffered(r, a.idx);
          k.type = ooo ? RxType::kSack : RxType::kAck;
          k.cum_ack = r.next;
          k.sack_valid = ooo;
          k.sack_idx = a.idx;
          rx_.push_back(k);
          break;
        }
        case Scheme::kRate: {
          if (a.idx == r.next) {
            ++r.next;
            r.nack_sent = false;
            k.type = RxType::kAck;
          } else if (seq_lt(r.next, a.idx)) {
            if (r.nack_sent && r.nacked == r.next) break;  // one NACK per gap
            r.nack_sent = true;
            r.nacked = r.next;
            k.type = RxType::kNack;
          } else {
            k.type = RxType::kAck;  // duplicate
          }
          k.cum_ack = r.next;
          rx_.push_back(k);
          if (!drain_ && rng_.chance(c_.cnp)) {
            RxCmd n = k;
            n.type = RxType::kCnp;
            n.ecn = true;
            rx_.push_back(n);
          }
          break;
        }
        case Scheme::kToken: {
          if (a.trimmed) {
            k.type = RxType::kNack;
            k.cum_ack = r.next;
            k.sack_idx = a.idx;
          } else {
            arrive_buffered(r, a.idx);
            k.type = RxType::kAck;
            k.cum_ack = r.next;
          }
          rx_.push_back(k);
          RxCmd p;
          p.flow = a.flow;
          p.type = RxType::kPull;
          p.cum_ack = r.next;
          p.grant = ++r.pulls;
          rx_.push_back(p);
          break;
        }
      }
    }
  }

  /// A receiver that keeps out-of-order segments; true if `idx` is beyond
  /// the cumulative point (an out-of-order arrival).
  static bool arrive_buffered(Rcv& r, uint32_t idx) {
    if (!seq_lt(idx, r.next) && idx != r.next) {
      r.ooo.insert(idx - r.next);  // offsets from next: no wrap issues in the set order
      // Re-base the set when next moves (below).
      return true;
    }
    if (idx == r.next) {
      // Offsets are relative to the old next: shift them by the advance.
      std::set<uint32_t> rest;
      uint32_t adv = 1;
      for (uint32_t off : r.ooo) {
        if (off == adv) ++adv;
        else if (off > adv) rest.insert(off);
      }
      std::set<uint32_t> shifted;
      for (uint32_t off : rest) shifted.insert(off - adv);
      r.ooo.swap(shifted);
      r.next += adv;
    }
    return false;
  }

  /// One bad rx beat: a flow not open, a flow id out of range, an unknown
  /// type or an ack beyond anything sent.
  void bad_rx_beat(Model& d) {
    RxCmd k;
    const uint32_t f = static_cast<uint32_t>(rng_.below(c_.flows));
    k.flow = f;
    switch (rng_.below(4)) {
      case 3:  // a flow id beyond FlowCount (the port is wider than the ids)
        k.flow = c_.flows + static_cast<uint32_t>(rng_.below(1000));
        k.type = RxType::kAck;
        k.cum_ack = static_cast<uint32_t>(rng_.bits64());
        break;
      case 0:
        if (fl_[f].added || fl_[f].pending_add) return;  // an open flow: not bad
        k.type = RxType::kAck;
        k.cum_ack = static_cast<uint32_t>(rng_.bits64());
        break;
      case 1:
        k.type = static_cast<RxType>(rng_.range(6, 7));
        k.cum_ack = rcv_[f].next;
        break;
      default:
        if (!fl_[f].added) return;
        k.type = RxType::kAck;
        k.cum_ack = sb_.next_new(f) + 1000u + static_cast<uint32_t>(rng_.below(1000));
        break;
    }
    drive_rx_beat(d, k, false, 0);
    ++bad_;
  }

  ScenarioConfig c_;
  Rng rng_;
  std::vector<Flow> fl_;
  std::vector<Rcv> rcv_;
  std::deque<CtrlCmd> ctrl_;
  std::deque<RxCmd> rx_;
  std::multiset<Arrival> net_;
  bool rx_from_queue_ = false;
  bool drain_ = false;
  uint64_t now_ = 0;
  // The probe's flow (this cycle, the one before) and the first probe
  // output cycle at which each flow's state is defined (probe_defined).
  uint32_t probe_now_ = 0, probe_prev_ = 0;
  std::vector<uint64_t> defined_from_;
  bool clearing_ = false;
  uint32_t clear_flow_ = 0;
  uint64_t clear_accepted_ = 0;
  SegmentScoreboard sb_;
  uint64_t segs_ = 0, rtx_ = 0, notes_ = 0, adds_ = 0, removes_ = 0, bad_ = 0;
};

}  // namespace tonic::netlist
