// SPDX-License-Identifier: Apache-2.0
// RoceReceiver: a RoCEv2 responder with go-back-N loss recovery and the
// DCQCN notification point (Zhu et al., SIGCOMM 2015), at segment (PSN)
// granularity; the far end of the sender-core testbench for the rate
// credit scheme.
//
// Plain C++ (no Verilator headers). Per flow: the expected PSN `epsn`
// (every PSN below it is received; nothing above it is kept), the in-order
// packets not acked yet, the coalescing timer, and the NACK and CNP
// limiters. PSNs are 32-bit segment indices compared with seq.hpp.
//
// Rules, for a packet with PSN p (and CE mark `ce`) arriving in cycle t:
//   - p == epsn (in order): epsn += 1; the NACK limiter of the flow is reset
//     (the expected PSN arrived). The packet is acked when it is the
//     ack_every-th (k) in-order packet since the flow's last ACK/NACK:
//     ACK with cum_ack = epsn (k = 1: every packet). With ack_timeout > 0,
//     an in-order packet left unacked is acked ack_timeout cycles after the
//     first such packet arrived (timer ACK, stamped with the deadline);
//   - p > epsn (serial): the packet is dropped (go-back-N keeps nothing)
//     and a NACK with cum_ack = epsn and the echo of p (its stamp and
//     retransmit flag, segment()'s ts and rtx) goes, unless a NACK was sent for this
//     flow less than nack_gap cycles ago and the expected PSN has not
//     arrived since (FlowGapLimiter: at most one NACK per flow per nack_gap
//     cycles until epsn arrives). A suppressed NACK is counted;
//   - p < epsn (duplicate, e.g. a go-back-N retransmission): re-acked at
//     once, ACK with cum_ack = epsn;
//   - every ACK or NACK covers the in-order packets pending before it (it
//     clears the count and cancels the timer);
//   - notification point (CnpNotifier, rx_common.hpp): a CE-marked arrival
//     (of any kind: in order, dropped or duplicate) sends a CNP for the flow
//     unless one was sent for it in the last cnp.gap cycles (5000 = 50 us
//     at 100 MHz): allowed iff t - t_last >= gap. The CNP follows the
//     packet's ACK/NACK, if any, in the same cycle. Its cum_ack is epsn
//     (ignored by the DD engine on a CNP).
// No event sets `ecn` (the CNP is the congestion signal).
//
// Time: segment(cycle, ...) and advance(cycle) take non-decreasing cycles.
// Both first fire the coalescing timers due at or before `cycle` (in
// deadline, then flow order), then handle the packet. Events queue inside
// in generation order; take_acks() hands them out.
#pragma once

#include <cstdint>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tonic/rx_common.hpp"
#include "tonic/seq.hpp"

namespace tonic {

struct RoceRxConfig {
  uint32_t ack_every = 1;    // k: one cumulative ACK per k in-order packets (>= 1)
  uint64_t ack_timeout = 0;  // cycles from the first unacked in-order packet (0: no timer)
  uint64_t nack_gap = 1000;  // at most one NACK per flow per nack_gap cycles until epsn arrives
  CnpConfig cnp;             // DCQCN notification point
};

class RoceReceiver : public RxEventQueue {
 public:
  explicit RoceReceiver(RoceRxConfig cfg = {})
      : RxEventQueue("RoceReceiver"), cfg_(cfg), nack_limit_(cfg.nack_gap), np_(cfg.cnp) {
    if (cfg_.ack_every == 0) throw std::invalid_argument("RoceReceiver: ack_every must be >= 1");
  }

  const RoceRxConfig& config() const { return cfg_; }

  /// (Re)starts `flow` expecting PSN `first` next. A packet for a flow never
  /// opened opens it with first = 0.
  void open(uint32_t flow, uint32_t first = 0) {
    auto it = flows_.find(flow);
    if (it != flows_.end() && it->second.timer_armed) timers_.erase({it->second.deadline, flow});
    Flow& f = flows_[flow];
    f = Flow{};
    f.epsn = first;
    nack_limit_.reset(flow);
  }

  bool is_open(uint32_t flow) const { return flows_.count(flow) != 0; }

  /// Packet `psn` of `flow` arrives in `cycle`, CE-marked if `ce`, sent at
  /// stamp `ts` (a retransmission if `rtx`).
  void segment(uint64_t cycle, uint32_t flow, uint32_t psn, bool ce = false, uint32_t ts = 0,
               bool rtx = false) {
    advance(cycle);
    if (!is_open(flow)) open(flow, 0);
    Flow& f = flows_.at(flow);
    stats_.count(flow, &RxCounters::segments);
    if (ce) stats_.count(flow, &RxCounters::ce);

    if (psn == f.epsn) {
      stats_.count(flow, &RxCounters::in_order);
      ++f.epsn;
      nack_limit_.reset(flow);
      if (++f.unacked >= cfg_.ack_every) {
        ack(cycle, flow, f, ref::kRxAck,
            cfg_.ack_every == 1 ? RxCause::kInOrder : RxCause::kCoalesced);
      } else if (cfg_.ack_timeout != 0 && !f.timer_armed) {
        f.timer_armed = true;
        f.deadline = cycle + cfg_.ack_timeout;
        timers_.insert({f.deadline, flow});
      }
    } else if (seq_lt(f.epsn, psn)) {
      stats_.count(flow, &RxCounters::out_of_order);
      if (nack_limit_.try_fire(flow, cycle)) {
        ack(cycle, flow, f, ref::kRxNack, RxCause::kOutOfOrder, echo_of(ts, rtx));
      } else {
        stats_.count(flow, &RxCounters::nacks_suppressed);
      }
    } else {
      stats_.count(flow, &RxCounters::duplicates);
      ack(cycle, flow, f, ref::kRxAck, RxCause::kDuplicate);
    }

    if (auto cnp = np_.arrival(flow, cycle, ce, f.epsn, stats_)) emit(*cnp);
  }

  /// Time passes up to `cycle`: fires every coalescing timer due by then.
  void advance(uint64_t cycle) {
    move_time(cycle);
    while (!timers_.empty() && timers_.begin()->first <= cycle) {
      const auto [deadline, flow] = *timers_.begin();
      ack(deadline, flow, flows_.at(flow), ref::kRxAck, RxCause::kTimer);  // erases the timer
    }
  }

  /// Earliest pending coalescing-timer deadline, or UINT64_MAX if none.
  uint64_t next_timer() const { return timers_.empty() ? UINT64_MAX : timers_.begin()->first; }
  std::size_t pending_timers() const { return timers_.size(); }

  /// The expected PSN: every PSN below it is received.
  uint32_t expected(uint32_t flow) const { return flows_.at(flow).epsn; }
  /// In-order packets not acked yet.
  uint32_t unacked(uint32_t flow) const { return flows_.at(flow).unacked; }

 private:
  struct Flow {
    uint32_t epsn = 0;
    uint32_t unacked = 0;  // in-order packets since the last ACK/NACK
    bool timer_armed = false;
    uint64_t deadline = 0;
  };

  /// Sends an ACK or NACK (cum_ack = epsn, echo: a NACK's); it covers the
  /// pending packets.
  void ack(uint64_t cycle, uint32_t flow, Flow& f, ref::RxType type, RxCause cause, Echo echo = {}) {
    RxEvent e = rx_event(flow, type, f.epsn, cycle, cause);
    e.echo = echo;
    emit(e);
    f.unacked = 0;
    if (f.timer_armed) {
      timers_.erase({f.deadline, flow});
      f.timer_armed = false;
    }
  }

  RoceRxConfig cfg_;
  std::unordered_map<uint32_t, Flow> flows_;
  std::set<std::pair<uint64_t, uint32_t>> timers_;  // (deadline, flow)
  FlowGapLimiter nack_limit_;
  CnpNotifier np_;
};

}  // namespace tonic
