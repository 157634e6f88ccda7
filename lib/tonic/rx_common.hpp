// SPDX-License-Identifier: Apache-2.0
// What the NDP, RoCE and IRN receiver and switch models share (ndp_receiver.hpp,
// roce_receiver.hpp, irn_receiver.hpp, gb0_receiver.hpp, switch_queue.hpp):
// the event they send back to the sender, their counters, the event queue
// and clock of a receiver (RxEventQueue, TimerlessRx), a receive window, the per-flow
// "at most one per gap cycles" limiter of NACKs and CNPs, the DCQCN
// notification point built on it, and a seeded Bernoulli draw.
//
// Plain C++ (no Verilator headers). Conventions follow TcpReceiver
// (tcp_receiver.hpp) so the models plug into the same testbench loop:
// segment(cycle, flow, seg, ...) and advance(cycle) take non-decreasing
// cycles, events queue inside in generation order, take_acks() hands them
// out, next_timer() / pending_timers() / queued_acks() let a link skip idle
// cycles. Every RxEvent is one beat of tonic_top's rx stream
// (docs/sender-core.md): flow, type, cum_ack, sack_valid + sack_idx, ecn,
// grant, and the receiver's echo and SACK blocks (rx_ctl_t: a TCP ack's
// TS.Recent and blocks, a NACK's echo of the packet that triggered it;
// docs/design/receiver.md); `cycle` (generation cycle at the receiver) and
// `cause` are for the testbench only.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "tonic/rng.hpp"
#include "tonic/proto_io.hpp"
#include "tonic/seq.hpp"
#include "tonic/tcp_receiver.hpp"

namespace tonic {

/// Why a receiver model sent an event (for tests and debugging; not on the
/// wire).
enum class RxCause : uint8_t {
  kInOrder,      // in-order segment, acked at once
  kCoalesced,    // in-order segment, the k-th since the last ack (RoCE)
  kTimer,        // coalesced ack sent by the timer (RoCE)
  kOutOfOrder,   // segment above the cumulative ack (held, or NACKed)
  kHoleFill,     // in-order segment while segments above were held
  kDuplicate,    // segment below the cumulative ack or already held
  kBeyondWindow, // segment at or beyond cum_ack + W, discarded
  kTrimmed,      // trimmed header (NDP)
  kPull,         // paced pull (NDP)
  kCnp,          // congestion notification (DCQCN notification point)
};

inline const char* to_string(RxCause c) {
  switch (c) {
    case RxCause::kInOrder: return "in-order";
    case RxCause::kCoalesced: return "coalesced";
    case RxCause::kTimer: return "timer";
    case RxCause::kOutOfOrder: return "out-of-order";
    case RxCause::kHoleFill: return "hole-fill";
    case RxCause::kDuplicate: return "duplicate";
    case RxCause::kBeyondWindow: return "beyond-window";
    case RxCause::kTrimmed: return "trimmed";
    case RxCause::kPull: return "pull";
    case RxCause::kCnp: return "cnp";
  }
  return "?";
}

/// Name of an rx_type_e value.
inline const char* rx_type_name(ref::RxType t) {
  switch (t) {
    case ref::kRxAck: return "ACK";
    case ref::kRxSack: return "SACK";
    case ref::kRxNack: return "NACK";
    case ref::kRxPull: return "PULL";
    case ref::kRxCnp: return "CNP";
    case ref::kRxResend: return "RESEND";
  }
  return "?";
}

/// One event from a receiver model to the sender (one rx beat).
struct RxEvent {
  uint32_t flow = 0;
  ref::RxType type = ref::kRxAck;
  uint32_t cum_ack = 0;     // every segment below it is received
  bool sack_valid = false;  // sack_idx names a RECEIVED segment above cum_ack
  uint32_t sack_idx = 0;
  bool ecn = false;         // ECN echo (TCP; no other model sets it: CNP is the signal)
  uint16_t grant = 0;       // PULL: cumulative pull number of the flow
  Echo echo;                // TCP: TS.Recent; NACK: the triggering packet's stamp
  SackBlocks blks{};        // TCP with SACK: the held runs, [0] the most recent
  uint64_t cycle = 0;       // generation cycle at the receiver
  RxCause cause = RxCause::kInOrder;

  bool operator==(const RxEvent& o) const {
    return flow == o.flow && type == o.type && cum_ack == o.cum_ack &&
           sack_valid == o.sack_valid && sack_idx == o.sack_idx && ecn == o.ecn &&
           grant == o.grant && echo == o.echo && blks == o.blks && cycle == o.cycle &&
           cause == o.cause;
  }
  bool operator!=(const RxEvent& o) const { return !(*this == o); }
};

/// An event with no SACK and no grant.
inline RxEvent rx_event(uint32_t flow, ref::RxType type, uint32_t cum_ack, uint64_t cycle,
                        RxCause cause) {
  RxEvent e;
  e.flow = flow;
  e.type = type;
  e.cum_ack = cum_ack;
  e.cycle = cycle;
  e.cause = cause;
  return e;
}

/// A TcpReceiver ack as an rx beat (ACK, or SACK when it carries one), so a
/// testbench can merge TCP, NDP, RoCE and IRN receivers into one stream.
inline RxEvent to_rx_event(const AckEvent& a) {
  RxEvent e;
  e.flow = a.flow;
  e.type = a.sack_valid ? ref::kRxSack : ref::kRxAck;
  e.cum_ack = a.cum_ack;
  e.sack_valid = a.sack_valid;
  e.sack_idx = a.sack_valid ? a.sack_idx : 0;
  e.ecn = a.ecn;
  e.echo = a.echo;
  e.blks = a.blks;
  e.cycle = a.cycle;
  e.cause = a.cause == AckCause::kTimer ? RxCause::kTimer : RxCause::kInOrder;
  return e;
}

/// Counters of the receiver models, per flow and in total (a model leaves
/// the fields of rules it does not have at 0).
struct RxCounters {
  uint64_t segments = 0;       // arrivals (full packets and trimmed headers)
  uint64_t in_order = 0;       // arrived at the cumulative ack
  uint64_t out_of_order = 0;   // arrived above it (held, or dropped by RoCE)
  uint64_t hole_fills = 0;     // in order while segments above were held
  uint64_t duplicates = 0;     // below the cumulative ack, or already held
  uint64_t beyond_window = 0;  // discarded, beyond the window
  uint64_t trimmed = 0;        // trimmed headers (NDP)
  uint64_t ce = 0;             // arrivals with the CE mark
  uint64_t acks = 0;           // ACK and SACK events
  uint64_t timer_acks = 0;     // of which sent by the coalescing timer
  uint64_t nacks = 0;
  uint64_t nacks_suppressed = 0;  // rate limit said no (RoCE)
  uint64_t pulls = 0;             // pulls released (NDP)
  uint64_t cnps = 0;
  uint64_t cnps_suppressed = 0;   // CE seen, a CNP was sent less than the gap ago
};

/// A pair of RxCounters, per flow and total, counted together.
class RxCounterSet {
 public:
  void count(uint32_t flow, uint64_t RxCounters::*field) {
    ++(per_flow_[flow].*field);
    ++(total_.*field);
  }
  /// Counts an event sent: acks (ACK, SACK; timer_acks too for a timer
  /// ack), nacks, pulls or cnps.
  void count_event(const RxEvent& e) {
    switch (e.type) {
      case ref::kRxAck:
      case ref::kRxSack:
        count(e.flow, &RxCounters::acks);
        if (e.cause == RxCause::kTimer) count(e.flow, &RxCounters::timer_acks);
        break;
      case ref::kRxNack: count(e.flow, &RxCounters::nacks); break;
      case ref::kRxPull: count(e.flow, &RxCounters::pulls); break;
      case ref::kRxCnp: count(e.flow, &RxCounters::cnps); break;
      case ref::kRxResend: break;
    }
  }
  const RxCounters& total() const { return total_; }
  /// The counters of `flow` (all zero for a flow never seen).
  const RxCounters& flow(uint32_t flow) const {
    static const RxCounters kZero{};
    auto it = per_flow_.find(flow);
    return it == per_flow_.end() ? kZero : it->second;
  }

 private:
  std::unordered_map<uint32_t, RxCounters> per_flow_;
  RxCounters total_;
};

/// The part of a receiver model outside its rules (RoceReceiver,
/// IrnReceiver, Gb0Receiver): the events queue in generation order and
/// take_acks() hands them out, every event counted; time only moves
/// forward. A model derives from it, sends with emit() and moves time with
/// move_time() (which names the model when time goes backwards).
class RxEventQueue {
 public:
  /// The events generated so far, oldest first; the queue is emptied.
  std::vector<RxEvent> take_acks() {
    std::vector<RxEvent> out;
    out.swap(out_);
    return out;
  }
  std::size_t queued_acks() const { return out_.size(); }

  const RxCounters& stats() const { return stats_.total(); }
  const RxCounters& stats(uint32_t flow) const { return stats_.flow(flow); }
  uint64_t now() const { return now_; }

 protected:
  explicit RxEventQueue(const char* model) : model_(model) {}

  void move_time(uint64_t cycle) {
    if (cycle < now_) throw std::invalid_argument(std::string(model_) + ": time went backwards");
    now_ = cycle;
  }
  void emit(const RxEvent& e) {
    out_.push_back(e);
    stats_.count_event(e);
  }

  RxCounterSet stats_;
  uint64_t now_ = 0;

 private:
  const char* model_;
  std::vector<RxEvent> out_;
};

/// A receiver model without timers (IrnReceiver, Gb0Receiver): advance()
/// only moves time; next_timer() and pending_timers() are always
/// UINT64_MAX and 0 (for a link's idle test).
class TimerlessRx : public RxEventQueue {
 public:
  /// Time passes up to `cycle` (no timers to fire).
  void advance(uint64_t cycle) { move_time(cycle); }
  uint64_t next_timer() const { return UINT64_MAX; }
  std::size_t pending_timers() const { return 0; }

 protected:
  using RxEventQueue::RxEventQueue;
};

/// A receive window of W segments: rcv_nxt (every segment below it is
/// received) and a ring of W slots for segments held above it, so segment s
/// can be held iff rcv_nxt <= s < rcv_nxt + W (serial order). The same
/// rules as TcpReceiver's window, for the models that keep out-of-order
/// data (NDP, IRN).
class RecvWindow {
 public:
  enum class Arrival : uint8_t {
    kInOrder,     // s == rcv_nxt, nothing held above
    kHoleFill,    // s == rcv_nxt while segments above were held
    kOutOfOrder,  // newly held above rcv_nxt
    kDuplicate,   // below rcv_nxt, or already held
    kBeyond,      // at or beyond rcv_nxt + W: not kept
  };

  explicit RecvWindow(uint32_t window = 128, uint32_t first = 0) : ring_(window, 0), nxt_(first) {
    if (window == 0 || window >= 0x8000'0000u)
      throw std::invalid_argument("RecvWindow: window must be in [1, 2^31)");
  }

  /// Segment `s` arrives: holds it or advances rcv_nxt over it and the run
  /// of held segments after it.
  Arrival receive(uint32_t s) {
    const uint32_t w = static_cast<uint32_t>(ring_.size());
    if (seq_lt(s, nxt_)) return Arrival::kDuplicate;
    const uint32_t d = seq_dist(nxt_, s);
    if (d >= w) return Arrival::kBeyond;
    uint8_t& slot = ring_[(head_ + d) % w];
    if (slot != 0) return Arrival::kDuplicate;
    if (d != 0) {
      slot = 1;
      ++held_;
      return Arrival::kOutOfOrder;
    }
    const bool fills = held_ != 0;
    step();
    while (ring_[head_] != 0) {
      ring_[head_] = 0;
      --held_;
      step();
    }
    return fills ? Arrival::kHoleFill : Arrival::kInOrder;
  }

  uint32_t rcv_nxt() const { return nxt_; }
  uint32_t held() const { return held_; }
  uint32_t window() const { return static_cast<uint32_t>(ring_.size()); }
  /// Whether `s` has been received (below rcv_nxt or held).
  bool received(uint32_t s) const {
    if (seq_lt(s, nxt_)) return true;
    const uint32_t d = seq_dist(nxt_, s);
    return d < ring_.size() && ring_[(head_ + d) % ring_.size()] != 0;
  }

 private:
  void step() {
    ++nxt_;
    head_ = (head_ + 1) % static_cast<uint32_t>(ring_.size());
  }

  std::vector<uint8_t> ring_;  // slot (head_ + d) % W: segment nxt_ + d held
  uint32_t nxt_ = 0;
  uint32_t head_ = 0;
  uint32_t held_ = 0;
};

/// At most one event per flow per `gap` cycles: an event at cycle t is
/// allowed iff none was allowed for that flow at a cycle t' with
/// t - t' < gap ("none in the last gap cycles"), or the flow was reset
/// since. Used for RoCE's NACK rate limit and the CNP limiter.
class FlowGapLimiter {
 public:
  explicit FlowGapLimiter(uint64_t gap = 0) : gap_(gap) {}

  /// True (and remembers `cycle`) if an event for `flow` may go now.
  bool try_fire(uint32_t flow, uint64_t cycle) {
    auto it = last_.find(flow);
    if (it != last_.end() && cycle - it->second < gap_) {
      ++suppressed_;
      return false;
    }
    last_[flow] = cycle;
    ++fired_;
    return true;
  }
  /// Forgets the flow's last event: the next one goes at once.
  void reset(uint32_t flow) { last_.erase(flow); }
  /// Whether an event for `flow` would go in `cycle` (no state change).
  bool would_fire(uint32_t flow, uint64_t cycle) const {
    auto it = last_.find(flow);
    return it == last_.end() || cycle - it->second >= gap_;
  }

  uint64_t gap() const { return gap_; }
  uint64_t fired() const { return fired_; }
  uint64_t suppressed() const { return suppressed_; }

 private:
  uint64_t gap_;
  std::unordered_map<uint32_t, uint64_t> last_;  // flow -> cycle of its last event
  uint64_t fired_ = 0, suppressed_ = 0;
};

/// DCQCN notification point (NP) settings.
struct CnpConfig {
  bool enabled = true;  // react to CE marks at all
  uint64_t gap = 5000;  // cycles: at most one CNP per flow per gap (50 us at 100 MHz)
};

/// DCQCN notification point: on a CE-marked arrival, a CNP for that flow
/// unless one was sent for it in the last `gap` cycles. Shared by
/// RoceReceiver and IrnReceiver.
class CnpNotifier {
 public:
  explicit CnpNotifier(CnpConfig cfg = {}) : cfg_(cfg), limiter_(cfg.gap) {}
  const CnpConfig& config() const { return cfg_; }
  /// A packet of `flow` arrived in `cycle` with CE = `ce`; true if a CNP
  /// goes now.
  bool arrival(uint32_t flow, uint64_t cycle, bool ce) {
    if (!cfg_.enabled || !ce) return false;
    return limiter_.try_fire(flow, cycle);
  }
  /// arrival() for a receiver model: the CNP event to send (cum_ack is the
  /// flow's cumulative ack, informative only), if any; a CE mark that gets
  /// no CNP is counted in `stats` as cnps_suppressed.
  std::optional<RxEvent> arrival(uint32_t flow, uint64_t cycle, bool ce, uint32_t cum_ack,
                                 RxCounterSet& stats) {
    if (arrival(flow, cycle, ce)) return rx_event(flow, ref::kRxCnp, cum_ack, cycle, RxCause::kCnp);
    if (ce && cfg_.enabled) stats.count(flow, &RxCounters::cnps_suppressed);
    return std::nullopt;
  }
  uint64_t sent() const { return limiter_.fired(); }
  uint64_t suppressed() const { return limiter_.suppressed(); }

 private:
  CnpConfig cfg_;
  FlowGapLimiter limiter_;
};

/// A seeded Bernoulli source with a per-draw probability: true iff 53
/// random bits are below p * 2^53 (exact for p = 0 and p = 1, and
/// independent of the standard library's distributions, the same rule as
/// DropModel's Bernoulli). Every draw() takes exactly one 64-bit word from
/// the generator, whatever p is, so the i-th outcome depends only on the
/// seed, i and the i-th p.
class SeededBernoulli {
 public:
  explicit SeededBernoulli(uint64_t seed) : rng_(seed) {}
  bool draw(double p) {
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("SeededBernoulli: p not in [0, 1]");
    const uint64_t bits = rng_.bits64() >> 11;  // 53 bits
    ++draws_;
    return bits < static_cast<uint64_t>(std::ldexp(p, 53));
  }
  uint64_t draws() const { return draws_; }

 private:
  Rng rng_;
  uint64_t draws_ = 0;
};

}  // namespace tonic
