// SPDX-License-Identifier: Apache-2.0
// Gb0Receiver: a RoCEv2 responder with go-back-0 loss recovery at segment
// (PSN) granularity, the far end of the live-lock experiment
// (docs/design/livelock.md; Guo et al., SIGCOMM 2016, section on the RDMA
// transport live-lock).
//
// Plain C++ (no Verilator headers). A flow carries messages of S segments
// back to back in PSN space: message m of a flow opened at `first` is
// [first + m*S, first + (m+1)*S). Per flow: the message being received
// (msg_start), the expected PSN epsn (msg_start <= epsn < msg_start + S),
// whether a restart is awaited, and the cycle of the last NACK. PSNs are
// 32-bit segment indices compared with seq.hpp.
//
// Rules, for a packet with PSN p arriving in cycle t, every event sent at
// once:
//   - not waiting, p == epsn (in order): epsn += 1; when epsn reaches
//     msg_start + S the message is complete (delivered to the application:
//     counted, msg_start = epsn). ACK with cum_ack = epsn;
//   - not waiting, p after epsn (a gap): the message's progress is
//     discarded (epsn = msg_start, the discarded segments are counted),
//     the flow waits for the restart, NACK with cum_ack = the old epsn (the
//     PSN the gap is at, the paper's NAK(i)). The driver restarts the
//     message from msg_start;
//   - not waiting, p before epsn (duplicate): ACK with cum_ack = epsn;
//   - waiting, p == msg_start: the restart arrived; waiting ends and p is
//     handled as in order (above);
//   - waiting, any other p: discarded silently (counted), except that a p
//     after msg_start arriving nack_gap cycles or more after the last NACK
//     sends the NACK again (cum_ack = msg_start): the restart's first
//     segment was lost while the rest of it keeps coming. A p before
//     msg_start (a duplicate of a completed message) is ACKed with
//     cum_ack = msg_start.
// Every NACK echoes the packet that sent it (its stamp and retransmit flag,
// segment()'s ts and rtx), as the other models' NACKs do. No CNPs, no ECN
// echo, no coalescing, no timers.
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

struct Gb0RxConfig {
  uint32_t msg_segments = 4096;  // S: segments per message (>= 1)
  uint64_t nack_gap = 1000;      // cycles: re-NACK while waiting at most once per gap
};

/// Counters of Gb0Receiver beyond RxCounters, per flow.
struct Gb0Counters {
  uint64_t messages = 0;           // messages completed (delivered)
  uint64_t discarded = 0;          // in-order segments thrown away by a restart
  uint64_t restarts = 0;           // gaps that discarded a message's progress
  uint64_t dropped_waiting = 0;    // packets discarded while waiting for a restart
  uint64_t renacks = 0;            // NACKs sent again while waiting
  uint64_t last_message_cycle = 0; // arrival cycle of the last completed message's last segment
};

class Gb0Receiver : public TimerlessRx {
 public:
  explicit Gb0Receiver(Gb0RxConfig cfg = {}) : TimerlessRx("Gb0Receiver"), cfg_(cfg) {
    if (cfg_.msg_segments == 0 || cfg_.msg_segments >= 0x8000'0000u)
      throw std::invalid_argument("Gb0Receiver: msg_segments must be in [1, 2^31)");
  }

  const Gb0RxConfig& config() const { return cfg_; }

  /// (Re)starts `flow`: its first message begins at PSN `first`.
  void open(uint32_t flow, uint32_t first = 0) {
    Flow f;
    f.msg_start = first;
    f.epsn = first;
    flows_[flow] = f;
  }
  bool is_open(uint32_t flow) const { return flows_.count(flow) != 0; }

  /// Packet `psn` of `flow` arrives in `cycle`, sent at stamp `ts` (a
  /// retransmission if `rtx`). A packet for a flow never opened opens it
  /// with first = 0.
  void segment(uint64_t cycle, uint32_t flow, uint32_t psn, uint32_t ts = 0, bool rtx = false) {
    advance(cycle);
    if (!is_open(flow)) open(flow, 0);
    Flow& f = flows_.at(flow);
    stats_.count(flow, &RxCounters::segments);

    if (f.waiting) {
      if (psn != f.msg_start) {
        ++f.c.dropped_waiting;
        if (seq_lt(f.msg_start, psn)) {
          stats_.count(flow, &RxCounters::out_of_order);
          if (cycle - f.last_nack >= cfg_.nack_gap) {
            f.last_nack = cycle;
            ++f.c.renacks;
            RxEvent e = rx_event(flow, ref::kRxNack, f.msg_start, cycle, RxCause::kOutOfOrder);
            e.echo = echo_of(ts, rtx);
            emit(e);
          } else {
            stats_.count(flow, &RxCounters::nacks_suppressed);
          }
        } else {
          stats_.count(flow, &RxCounters::duplicates);
          emit(rx_event(flow, ref::kRxAck, f.msg_start, cycle, RxCause::kDuplicate));
        }
        return;
      }
      f.waiting = false;  // the restart's first segment: in order below
    }

    if (psn == f.epsn) {
      stats_.count(flow, &RxCounters::in_order);
      ++f.epsn;
      if (seq_dist(f.msg_start, f.epsn) == cfg_.msg_segments) {
        ++f.c.messages;
        f.c.last_message_cycle = cycle;
        f.msg_start = f.epsn;
      }
      emit(rx_event(flow, ref::kRxAck, f.epsn, cycle, RxCause::kInOrder));
    } else if (seq_lt(f.epsn, psn)) {
      stats_.count(flow, &RxCounters::out_of_order);
      const uint32_t gap_at = f.epsn;
      f.c.discarded += seq_dist(f.msg_start, f.epsn);
      ++f.c.restarts;
      f.epsn = f.msg_start;
      f.waiting = true;
      f.last_nack = cycle;
      RxEvent e = rx_event(flow, ref::kRxNack, gap_at, cycle, RxCause::kOutOfOrder);
      e.echo = echo_of(ts, rtx);
      emit(e);
    } else {
      stats_.count(flow, &RxCounters::duplicates);
      emit(rx_event(flow, ref::kRxAck, f.epsn, cycle, RxCause::kDuplicate));
    }
  }

  /// The expected PSN (in order below it within the current message).
  uint32_t expected(uint32_t flow) const { return flows_.at(flow).epsn; }
  /// First PSN of the message being received.
  uint32_t msg_start(uint32_t flow) const { return flows_.at(flow).msg_start; }
  /// Whether the flow discarded its progress and awaits the restart.
  bool waiting(uint32_t flow) const { return flows_.at(flow).waiting; }
  const Gb0Counters& counters(uint32_t flow) const { return flows_.at(flow).c; }

 private:
  struct Flow {
    uint32_t msg_start = 0;
    uint32_t epsn = 0;
    bool waiting = false;
    uint64_t last_nack = 0;
    Gb0Counters c;
  };

  Gb0RxConfig cfg_;
  std::unordered_map<uint32_t, Flow> flows_;
};

}  // namespace tonic
