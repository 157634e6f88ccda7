// SPDX-License-Identifier: Apache-2.0
// IrnReceiver: an IRN receiver (Mittal et al., SIGCOMM 2018) at segment
// (PSN) granularity: selective retransmission for RoCE, with the DCQCN
// notification point when ECN is enabled.
//
// Plain C++ (no Verilator headers). Per flow: a receive window of W
// segments (RecvWindow, rx_common.hpp: the cumulative ack rcv_nxt and a
// bitmap of the PSNs held above it, rcv_nxt <= p < rcv_nxt + W). PSNs are
// 32-bit segment indices compared with seq.hpp.
//
// Rules, for a packet with PSN p (and CE mark `ce`) arriving in cycle t,
// every event sent at once with cum_ack = rcv_nxt after the packet:
//   - p == rcv_nxt (in order): rcv_nxt advances over p and the run of held
//     PSNs after it; ACK (cause in-order, or hole-fill when PSNs above were
//     held);
//   - rcv_nxt < p < rcv_nxt + W (out of order): p is held; NACK carrying
//     the cumulative ack AND the PSN that just arrived: sack_valid = 1,
//     sack_idx = p, and the echo of p (its stamp and retransmit flag,
//     segment()'s ts and rtx). A duplicate of a held PSN is NACKed the same
//     way (it is an out-of-order arrival; cause duplicate);
//   - p < rcv_nxt (duplicate): ACK;
//   - p >= rcv_nxt + W: discarded and counted; ACK without SACK (IRN's BDP
//     flow control should make this rare).
//   - notification point (CnpNotifier, shared with RoceReceiver): with
//     ECN enabled (cnp.enabled), a CE-marked arrival sends a CNP for the
//     flow unless one was sent for it in the last cnp.gap cycles. The CNP
//     follows the packet's ACK/NACK in the same cycle.
// No event sets `ecn` (the CNP is the congestion signal). There are no
// timers: advance() only moves time.
//
// Time: segment(cycle, ...) and advance(cycle) take non-decreasing cycles.
// Events queue inside in generation order; take_acks() hands them out.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "tonic/rx_common.hpp"
#include "tonic/seq.hpp"

namespace tonic {

struct IrnRxConfig {
  uint32_t window = 128;  // W: held PSNs lie in [rcv_nxt, rcv_nxt + W)
  CnpConfig cnp;          // ECN / DCQCN notification point (enabled by default)
};

class IrnReceiver : public TimerlessRx {
 public:
  explicit IrnReceiver(IrnRxConfig cfg = {}) : TimerlessRx("IrnReceiver"), cfg_(cfg), np_(cfg.cnp) {
    if (cfg_.window == 0 || cfg_.window >= 0x8000'0000u)
      throw std::invalid_argument("IrnReceiver: window must be in [1, 2^31)");
  }

  const IrnRxConfig& config() const { return cfg_; }

  /// (Re)starts `flow` expecting PSN `first` next. A packet for a flow never
  /// opened opens it with first = 0.
  void open(uint32_t flow, uint32_t first = 0) {
    flows_.erase(flow);
    flows_.emplace(flow, RecvWindow(cfg_.window, first));
  }

  bool is_open(uint32_t flow) const { return flows_.count(flow) != 0; }

  /// Packet `psn` of `flow` arrives in `cycle`, CE-marked if `ce`, sent at
  /// stamp `ts` (a retransmission if `rtx`).
  void segment(uint64_t cycle, uint32_t flow, uint32_t psn, bool ce = false, uint32_t ts = 0,
               bool rtx = false) {
    advance(cycle);
    if (!is_open(flow)) open(flow, 0);
    RecvWindow& w = flows_.at(flow);
    stats_.count(flow, &RxCounters::segments);
    if (ce) stats_.count(flow, &RxCounters::ce);

    const RecvWindow::Arrival a = w.receive(psn);
    RxEvent e = rx_event(flow, ref::kRxAck, w.rcv_nxt(), cycle, RxCause::kInOrder);
    switch (a) {
      case RecvWindow::Arrival::kInOrder:
        stats_.count(flow, &RxCounters::in_order);
        break;
      case RecvWindow::Arrival::kHoleFill:
        stats_.count(flow, &RxCounters::in_order);
        stats_.count(flow, &RxCounters::hole_fills);
        e.cause = RxCause::kHoleFill;
        break;
      case RecvWindow::Arrival::kOutOfOrder:
        stats_.count(flow, &RxCounters::out_of_order);
        e.cause = RxCause::kOutOfOrder;
        break;
      case RecvWindow::Arrival::kDuplicate:
        stats_.count(flow, &RxCounters::duplicates);
        e.cause = RxCause::kDuplicate;
        break;
      case RecvWindow::Arrival::kBeyond:
        stats_.count(flow, &RxCounters::beyond_window);
        e.cause = RxCause::kBeyondWindow;
        break;
    }
    if (a != RecvWindow::Arrival::kBeyond && seq_lt(w.rcv_nxt(), psn)) {
      e.type = ref::kRxNack;  // held above the cumulative ack
      e.sack_valid = true;
      e.sack_idx = psn;
      e.echo = echo_of(ts, rtx);
    }
    emit(e);

    if (auto cnp = np_.arrival(flow, cycle, ce, w.rcv_nxt(), stats_)) emit(*cnp);
  }

  uint32_t rcv_nxt(uint32_t flow) const { return flows_.at(flow).rcv_nxt(); }
  uint32_t held(uint32_t flow) const { return flows_.at(flow).held(); }
  bool received(uint32_t flow, uint32_t psn) const { return flows_.at(flow).received(psn); }

 private:
  IrnRxConfig cfg_;
  std::unordered_map<uint32_t, RecvWindow> flows_;
  CnpNotifier np_;
};

}  // namespace tonic
