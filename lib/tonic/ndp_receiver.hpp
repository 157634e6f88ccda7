// SPDX-License-Identifier: Apache-2.0
// NdpReceiver: one NDP receiver host (Handley et al., SIGCOMM 2017) at
// segment granularity, the far end of the sender-core testbench for the
// token credit scheme (docs/design/credit-schemes.md, "Token credit").
//
// Plain C++ (no Verilator headers). Per flow: a receive window of W
// segments (RecvWindow, rx_common.hpp: rcv_nxt and the segments held above
// it) and the flow's cumulative pull number. Per receiver: ONE pull pacer
// shared by all its flows.
//
// Rules:
//   - a full packet (segment `seg`, trimmed = false) is acked at once:
//     cum_ack = rcv_nxt after it was processed; type SACK with
//     sack_idx = seg when seg is held above rcv_nxt, else type ACK (also for
//     a duplicate, and for a segment beyond the window, which is discarded,
//     counted and acked without SACK);
//   - a trimmed header (trimmed = true: the switch cut the payload) is
//     NACKed at once: type NACK, cum_ack = rcv_nxt, sack_valid = 0 and
//     sack_idx = seg, the trimmed segment, and its echo (stamp and
//     retransmit flag, segment()'s ts and rtx). sack_valid stays 0 because the
//     segment was NOT received (sack_valid means "received" in every model,
//     and the DD engine's stage 1 sets the acked bit of a valid sack_idx
//     on any type); the NDP protocol module reads sack_idx of a NACK. The
//     header changes nothing in the receive window;
//   - every ACK/SACK/NACK adds one pull request for its flow to the pacer,
//     a FIFO over all flows in the order of the events that earned them;
//   - the pacer releases one pull per `pull_gap` cycles (one MTU at line
//     rate: 1500 B at 125 B/cycle (100 Gb/s at 100 MHz) = 12 cycles, see
//     pull_gap_cycles()): pull i goes at
//     max(request_i, release_{i-1} + pull_gap), so an idle pacer releases a
//     pull in the cycle of the ack that earned it;
//   - a PULL carries grant = the flow's cumulative pull number: the flow's
//     initial number (open(), default 0) plus the pulls released for it so
//     far, modulo 2^16 (16 bits, wraps). Its cum_ack is the flow's rcv_nxt
//     at release (the DD engine ignores cum_ack on a PULL).
//
// Time: segment(cycle, ...) and advance(cycle) take non-decreasing cycles.
// Both first release the pulls due at or before `cycle`, then handle the
// segment. Events queue inside in generation order (their cycles never
// decrease); take_acks() hands them out. RxEvent::cycle is the ack's
// arrival cycle or the pull's release cycle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "tonic/rx_common.hpp"
#include "tonic/seq.hpp"

namespace tonic {

/// Cycles of one MTU at line rate, rounded up: the pull spacing.
constexpr uint64_t pull_gap_cycles(uint64_t mtu_bytes, uint64_t bytes_per_cycle) {
  return (mtu_bytes + bytes_per_cycle - 1) / bytes_per_cycle;
}
static_assert(pull_gap_cycles(1500, 125) == 12, "1500 B at 100 Gb/s, 100 MHz");

struct NdpRxConfig {
  uint32_t window = 128;   // W: held segments lie in [rcv_nxt, rcv_nxt + W)
  uint64_t pull_gap = 12;  // cycles between two pulls of this receiver (>= 1)
};

class NdpReceiver {
 public:
  explicit NdpReceiver(NdpRxConfig cfg = {}) : cfg_(cfg) {
    if (cfg_.window == 0 || cfg_.window >= 0x8000'0000u)
      throw std::invalid_argument("NdpReceiver: window must be in [1, 2^31)");
    if (cfg_.pull_gap == 0) throw std::invalid_argument("NdpReceiver: pull_gap must be >= 1");
  }

  const NdpRxConfig& config() const { return cfg_; }

  /// (Re)starts `flow` expecting segment `first` next, its cumulative pull
  /// number at `pull0`. Pull requests of the flow already in the pacer
  /// stay there. A segment for a flow never opened opens it with
  /// first = 0, pull0 = 0.
  void open(uint32_t flow, uint32_t first = 0, uint16_t pull0 = 0) {
    flows_.erase(flow);
    flows_.emplace(flow, Flow{RecvWindow(cfg_.window, first), pull0});
  }

  bool is_open(uint32_t flow) const { return flows_.count(flow) != 0; }

  /// Segment `seg` of `flow` arrives in `cycle`: a full packet, or the
  /// header of a trimmed one; sent at stamp `ts` (a retransmission if `rtx`).
  void segment(uint64_t cycle, uint32_t flow, uint32_t seg, bool trimmed = false, uint32_t ts = 0,
               bool rtx = false) {
    advance(cycle);
    if (!is_open(flow)) open(flow, 0);
    Flow& f = flows_.at(flow);
    stats_.count(flow, &RxCounters::segments);

    RxEvent e;
    if (trimmed) {
      stats_.count(flow, &RxCounters::trimmed);
      e = rx_event(flow, ref::kRxNack, f.win.rcv_nxt(), cycle, RxCause::kTrimmed);
      e.sack_idx = seg;  // the trimmed segment; sack_valid stays 0 (not received)
      e.echo = echo_of(ts, rtx);
    } else {
      const RecvWindow::Arrival a = f.win.receive(seg);
      RxCause cause = RxCause::kInOrder;
      switch (a) {
        case RecvWindow::Arrival::kInOrder:
          stats_.count(flow, &RxCounters::in_order);
          break;
        case RecvWindow::Arrival::kHoleFill:
          stats_.count(flow, &RxCounters::in_order);
          stats_.count(flow, &RxCounters::hole_fills);
          cause = RxCause::kHoleFill;
          break;
        case RecvWindow::Arrival::kOutOfOrder:
          stats_.count(flow, &RxCounters::out_of_order);
          cause = RxCause::kOutOfOrder;
          break;
        case RecvWindow::Arrival::kDuplicate:
          stats_.count(flow, &RxCounters::duplicates);
          cause = RxCause::kDuplicate;
          break;
        case RecvWindow::Arrival::kBeyond:
          stats_.count(flow, &RxCounters::beyond_window);
          cause = RxCause::kBeyondWindow;
          break;
      }
      e = rx_event(flow, ref::kRxAck, f.win.rcv_nxt(), cycle, cause);
      if (a != RecvWindow::Arrival::kBeyond && seq_lt(f.win.rcv_nxt(), seg)) {
        e.type = ref::kRxSack;
        e.sack_valid = true;
        e.sack_idx = seg;
      }
    }
    emit(e);
    pacer_.push_back({flow, cycle});
    release(cycle);
  }

  /// Time passes up to `cycle`: releases every pull due by then.
  void advance(uint64_t cycle) {
    if (cycle < now_) throw std::invalid_argument("NdpReceiver: time went backwards");
    now_ = cycle;
    release(cycle);
  }

  /// The events generated so far (acks, nacks, pulls), oldest first; the
  /// queue is emptied.
  std::vector<RxEvent> take_acks() {
    std::vector<RxEvent> out;
    out.swap(out_);
    return out;
  }
  /// Events generated and not yet taken.
  std::size_t queued_acks() const { return out_.size(); }

  /// Release cycle of the next pull, or UINT64_MAX if none is waiting.
  uint64_t next_timer() const { return pacer_.empty() ? UINT64_MAX : due(pacer_.front()); }
  /// Pulls waiting in the pacer.
  std::size_t pending_timers() const { return pacer_.size(); }

  uint32_t rcv_nxt(uint32_t flow) const { return flows_.at(flow).win.rcv_nxt(); }
  uint32_t held(uint32_t flow) const { return flows_.at(flow).win.held(); }
  bool received(uint32_t flow, uint32_t seg) const { return flows_.at(flow).win.received(seg); }
  /// The flow's cumulative pull number (the grant of its latest pull).
  uint16_t pull_number(uint32_t flow) const { return flows_.at(flow).pull; }
  /// Cycle of the latest pull released (UINT64_MAX before the first).
  uint64_t last_pull_cycle() const { return released_any_ ? last_release_ : UINT64_MAX; }

  const RxCounters& stats() const { return stats_.total(); }
  const RxCounters& stats(uint32_t flow) const { return stats_.flow(flow); }
  uint64_t now() const { return now_; }

 private:
  struct Flow {
    RecvWindow win;
    uint16_t pull = 0;  // cumulative pull number released so far
  };
  struct Request {
    uint32_t flow;
    uint64_t cycle;  // when the ack/nack that earned it was sent
  };

  uint64_t due(const Request& r) const {
    return released_any_ ? std::max(r.cycle, last_release_ + cfg_.pull_gap) : r.cycle;
  }

  void release(uint64_t cycle) {
    while (!pacer_.empty() && due(pacer_.front()) <= cycle) {
      const Request r = pacer_.front();
      const uint64_t at = due(r);
      pacer_.pop_front();
      released_any_ = true;
      last_release_ = at;
      uint32_t cum = 0;
      uint16_t grant = 0;
      if (auto it = flows_.find(r.flow); it != flows_.end()) {
        grant = ++it->second.pull;
        cum = it->second.win.rcv_nxt();
      }
      RxEvent e = rx_event(r.flow, ref::kRxPull, cum, at, RxCause::kPull);
      e.grant = grant;
      emit(e);
    }
  }

  void emit(const RxEvent& e) {
    out_.push_back(e);
    stats_.count_event(e);
  }

  NdpRxConfig cfg_;
  std::unordered_map<uint32_t, Flow> flows_;
  std::deque<Request> pacer_;  // FIFO over all flows
  bool released_any_ = false;
  uint64_t last_release_ = 0;
  std::vector<RxEvent> out_;
  RxCounterSet stats_;
  uint64_t now_ = 0;
};

}  // namespace tonic
