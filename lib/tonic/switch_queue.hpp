// SPDX-License-Identifier: Apache-2.0
// SwitchQueue: one output queue of a switch, between the senders and the
// receiver models (ndp_receiver, roce_receiver, irn_receiver): a FIFO in
// bytes drained at a fixed rate, RED-style ECN marking on enqueue (the
// DCQCN congestion point) and, when full, drop or NDP trimming.
//
// Plain C++ (no Verilator headers). Two FIFOs share one output:
//   - data: full packets;
//   - headers (high priority): trimmed packets (and packets pushed already
//     trimmed). Non-preemptive strict priority: whenever the output becomes
//     free, a header that has arrived goes before any waiting data packet;
//     the packet being sent is never interrupted.
//
// Rules, for a packet of `len` bytes pushed in cycle c:
//   - backlog B = bytes of the data packets queued and not yet departed
//     (the one being sent counts in full until it departs), taken before
//     the packet is added;
//   - overflow: B + len > capacity. Drop mode: the packet is dropped.
//     Trim mode: it becomes a header of min(len, header_bytes) bytes
//     (trimmed = 1), queued in the header FIFO; a header that would take the
//     header FIFO above header_capacity is dropped. Counted: drops, trims
//     (a trimmed packet whose header is dropped counts in both, and in
//     header_drops);
//   - ECN (on an accepted data packet only, when enabled): marked CE with
//     probability p(B): 0 for B <= Kmin, Pmax * (B - Kmin) / (Kmax - Kmin)
//     for Kmin < B <= Kmax, 1 for B > Kmax. One draw of a SeededBernoulli
//     (rx_common.hpp, seeded with `seed`) per accepted data packet, whatever
//     p is, so the marks are repeatable per seed. A packet already CE stays
//     CE. Counted: marks (draws that said "mark");
//   - drain: the output sends drain_q16 / 2^16 bytes per cycle (fixed
//     point, e.g. 125 << 16 = 100 Gb/s at 100 MHz). A packet that starts at
//     time s (Q16 cycles) ends at s + ceil(len * 2^32 / drain_q16) and
//     departs in the first cycle at or after its end; the next packet
//     starts at that end (no rounding loss, so the long-run rate is exact).
//     A packet pushed in cycle c into an idle queue starts at c: it departs
//     in c + ceil(len / rate), at least c + 1.
//
// Time: push(c, ...) and pop(c) take non-decreasing cycles. Call order per
// cycle c: pop(c) (the packets that depart in c, in departure order), then
// push(c, ...) for what arrives in c. The output commits to a packet only
// once every push that could compete for it has been seen (start < the
// current cycle), so the priority rule holds exactly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

#include "tonic/rx_common.hpp"

namespace tonic {

/// What a full queue does with a data packet.
enum class SwitchOverflow : uint8_t {
  kDrop,  // drop it
  kTrim,  // NDP: cut it to a header, queued at high priority
};

struct SwitchConfig {
  static constexpr uint64_t kUnlimited = UINT64_MAX;
  uint64_t drain_q16 = uint64_t{125} << 16;  // bytes per cycle, Q16 (> 0)
  uint64_t capacity = kUnlimited;            // data FIFO, bytes
  SwitchOverflow overflow = SwitchOverflow::kDrop;
  uint32_t header_bytes = 64;                // size of a trimmed packet (>= 1)
  uint64_t header_capacity = kUnlimited;     // header FIFO, bytes
  bool ecn = true;                           // RED-style marking on enqueue
  uint64_t kmin = 5'000;                     // bytes: no marking at or below
  uint64_t kmax = 200'000;                   // bytes: Pmax here, 1 above (> kmin)
  double pmax = 0.01;                        // in [0, 1]
  uint64_t seed = 1;                         // marking draws
};

/// A packet through the switch.
struct SwitchPacket {
  uint32_t flow = 0;
  uint32_t seg = 0;
  uint32_t len = 0;        // bytes (>= 1); header_bytes once trimmed
  bool rtx = false;
  bool ce = false;         // ECN congestion experienced
  bool trimmed = false;    // header only (NDP)
  uint32_t ts = 0;         // transmit stamp (seg_ts_o), carried to the receiver
  uint64_t arrival = 0;    // push cycle
  uint64_t departure = 0;  // cycle it leaves the output (set by the queue)
  uint64_t id = 0;         // push order (set by the queue)
};

/// What push() did with a packet: queued as data (unmarked or marked CE),
/// queued as a header (trimmed here, or pushed already trimmed), dropped.
enum class SwitchVerdict : uint8_t { kQueued, kMarked, kTrimmed, kDropped };

class SwitchQueue {
 public:
  explicit SwitchQueue(SwitchConfig cfg = {}) : cfg_(cfg), bern_(cfg.seed) {
    if (cfg_.drain_q16 == 0) throw std::invalid_argument("SwitchQueue: drain_q16 must be > 0");
    if (cfg_.header_bytes == 0) throw std::invalid_argument("SwitchQueue: header_bytes must be >= 1");
    if (cfg_.kmin >= cfg_.kmax) throw std::invalid_argument("SwitchQueue: kmin must be < kmax");
    if (!(cfg_.pmax >= 0.0 && cfg_.pmax <= 1.0))
      throw std::invalid_argument("SwitchQueue: pmax not in [0, 1]");
  }

  const SwitchConfig& config() const { return cfg_; }

  /// Marking probability for a data backlog of `bytes` (0 with ECN off).
  double mark_probability(uint64_t bytes) const {
    if (!cfg_.ecn || bytes <= cfg_.kmin) return 0.0;
    if (bytes > cfg_.kmax) return 1.0;
    return cfg_.pmax * static_cast<double>(bytes - cfg_.kmin) /
           static_cast<double>(cfg_.kmax - cfg_.kmin);
  }

  /// Output time of `len` bytes, in Q16 cycles (rounded up).
  uint64_t duration_q16(uint32_t len) const {
    return ((uint64_t{len} << 32) + cfg_.drain_q16 - 1) / cfg_.drain_q16;
  }

  /// Packet `p` arrives in `cycle` (its arrival, departure and id are set
  /// here).
  SwitchVerdict push(uint64_t cycle, SwitchPacket p) {
    if (p.len == 0) throw std::invalid_argument("SwitchQueue::push: len must be >= 1");
    advance(cycle);
    p.arrival = cycle;
    p.departure = 0;
    p.id = next_id_++;
    ++offered_;
    if (!p.trimmed) {
      if (cfg_.capacity == SwitchConfig::kUnlimited || data_bytes_ + p.len <= cfg_.capacity) {
        SwitchVerdict v = SwitchVerdict::kQueued;
        if (cfg_.ecn && bern_.draw(mark_probability(data_bytes_))) {
          p.ce = true;
          ++marks_;
          v = SwitchVerdict::kMarked;
        }
        data_bytes_ += p.len;
        max_data_bytes_ = std::max(max_data_bytes_, data_bytes_);
        data_.push_back(p);
        return v;
      }
      if (cfg_.overflow == SwitchOverflow::kDrop) {
        ++drops_;
        return SwitchVerdict::kDropped;
      }
      ++trims_;
      p.trimmed = true;
      p.len = std::min(p.len, cfg_.header_bytes);
    }
    if (cfg_.header_capacity != SwitchConfig::kUnlimited &&
        hdr_bytes_ + p.len > cfg_.header_capacity) {
      ++drops_;
      ++header_drops_;
      return SwitchVerdict::kDropped;
    }
    hdr_bytes_ += p.len;
    max_hdr_bytes_ = std::max(max_hdr_bytes_, hdr_bytes_);
    hdr_.push_back(p);
    return SwitchVerdict::kTrimmed;
  }

  /// The packets that depart by `cycle`, in departure order (ties: in the
  /// order they were sent).
  std::vector<SwitchPacket> pop(uint64_t cycle) {
    advance(cycle);
    std::vector<SwitchPacket> out;
    out.swap(out_);
    departed_ += out.size();
    for (const SwitchPacket& p : out) bytes_departed_ += p.len;
    return out;
  }

  /// Time passes up to `cycle`: the output sends what it can.
  void advance(uint64_t cycle) {
    if (cycle < now_) throw std::invalid_argument("SwitchQueue: time went backwards");
    now_ = cycle;
    const uint64_t now_q = cycle << 16;
    for (;;) {
      const bool hi = !hdr_.empty(), lo = !data_.empty();
      if (!hi && !lo) break;
      const uint64_t hi_at = hi ? hdr_.front().arrival << 16 : UINT64_MAX;
      const uint64_t lo_at = lo ? data_.front().arrival << 16 : UINT64_MAX;
      const uint64_t start = std::max(free_q_, std::min(hi_at, lo_at));
      if (start >= now_q) break;  // a push of this cycle could still compete
      const bool take_hi = hi && hi_at <= start;
      std::deque<SwitchPacket>& q = take_hi ? hdr_ : data_;
      SwitchPacket p = q.front();
      q.pop_front();
      free_q_ = start + duration_q16(p.len);
      p.departure = (free_q_ + 0xFFFF) >> 16;
      sending_.push_back(p);
    }
    while (!sending_.empty() && sending_.front().departure <= cycle) {
      const SwitchPacket& p = sending_.front();
      (p.trimmed ? hdr_bytes_ : data_bytes_) -= p.len;
      out_.push_back(p);
      sending_.pop_front();
    }
  }

  /// Earliest cycle at which pop() can return a packet given what is queued
  /// now (UINT64_MAX if nothing is); lets a testbench skip idle cycles.
  uint64_t next_departure() const {
    if (!out_.empty()) return now_;
    if (!sending_.empty()) return sending_.front().departure;
    uint64_t t = UINT64_MAX;
    for (const std::deque<SwitchPacket>* q : {&hdr_, &data_}) {
      if (q->empty()) continue;
      const uint64_t s = std::max(free_q_, q->front().arrival << 16);
      t = std::min(t, (s + duration_q16(q->front().len) + 0xFFFF) >> 16);
    }
    return t;
  }

  /// Nothing queued, being sent or waiting to be popped.
  bool idle() const { return hdr_.empty() && data_.empty() && sending_.empty() && out_.empty(); }

  /// Data backlog in bytes (what ECN and the capacity look at).
  uint64_t backlog() const { return data_bytes_; }
  /// Header FIFO backlog in bytes.
  uint64_t header_backlog() const { return hdr_bytes_; }
  uint64_t max_backlog() const { return max_data_bytes_; }
  uint64_t max_header_backlog() const { return max_hdr_bytes_; }

  uint64_t offered() const { return offered_; }
  uint64_t marks() const { return marks_; }
  /// Packets dropped (data in drop mode, and headers that did not fit).
  uint64_t drops() const { return drops_; }
  uint64_t header_drops() const { return header_drops_; }
  uint64_t trims() const { return trims_; }
  uint64_t departed() const { return departed_; }
  uint64_t bytes_departed() const { return bytes_departed_; }
  uint64_t now() const { return now_; }

 private:
  SwitchConfig cfg_;
  SeededBernoulli bern_;
  std::deque<SwitchPacket> hdr_, data_;  // waiting, FIFO each
  std::deque<SwitchPacket> sending_;     // committed, departure > now_
  std::vector<SwitchPacket> out_;        // departed, not popped yet
  uint64_t free_q_ = 0;                  // Q16 cycles: the output is free from here
  uint64_t data_bytes_ = 0, hdr_bytes_ = 0, max_data_bytes_ = 0, max_hdr_bytes_ = 0;
  uint64_t next_id_ = 0, now_ = 0;
  uint64_t offered_ = 0, marks_ = 0, drops_ = 0, header_drops_ = 0, trims_ = 0;
  uint64_t departed_ = 0, bytes_departed_ = 0;
};

}  // namespace tonic
