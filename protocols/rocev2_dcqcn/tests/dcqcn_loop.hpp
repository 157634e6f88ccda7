// SPDX-License-Identifier: Apache-2.0
// DcqcnLoop: a DCQCN closed loop in plain C++ (no RTL): N ideal rate-paced
// senders whose rates are set by one reference reaction point each
// (../dcqcn_ref.hpp, Rp), through one SwitchQueue (the congestion point, RED
// ECN marking) to one RoceReceiver (the notification point: a CNP at most
// once per flow per gap), and back. It is the system of the RTL fairness
// test (e2e_rdma.cpp here, part of test_e2e_rdma) with the sender replaced by its
// ideal: the RTL's per-flow state equals Rp value for value (test_e2e_rdma,
// "the DCQCN state and rate equal the reference Rp"), so what this loop
// shows is DCQCN's own behaviour under the chosen settings, without the
// engine's scheduling.
//
// The sender side follows the RTL's event stream for each flow:
//   - a receiver event (ACK, CNP) pushed in cycle c reaches the sender in
//     c + ret_delay and acts `lag` cycles later (the RTL's rx input
//     register and incoming stage 1, kStage2Lag): Rp::cnp(t) for a CNP,
//     Rp::sent(bytes, t) for an ACK, the bytes of the segments that left
//     in cycle t - 3 or earlier and no earlier event took (the protocol's
//     transmit event counts bytes as they leave and its incoming module
//     takes them: docs/protocol-api.md, "Transmit event"); a CNP discards
//     them (the byte counter restarts);
//   - Rp::visit(t) every visit_period cycles (the engine's periodic calls);
//   - rate pacing: each flow earns Rc bytes per 2^20 cycles (the RU of
//     ../dcqcn_ref.hpp) into a credit capped at burst_bytes (the protocol's
//     BurstBytes D) and sends one seg_bytes segment whenever the credit
//     covers it. At most one segment leaves per cycle over all flows (the
//     RTL's single seg stream) unless parallel_send; when several flows are
//     ready in one cycle, `ties` decides who goes first (rotating by
//     default, so no flow id is favoured).
//   - a flow sends only while fewer than `window` segments are unacked
//     (the protocol's InitWnd, 120, which it never changes): with a long
//     switch queue this bound, not the rate, limits a flow;
//   - a segment sent in cycle c reaches the switch in c + fwd_delay.
// Cycle order: switch departures (-> receiver), arrivals at the switch,
// receiver events taken (-> return delay), sender events due, visits,
// sends. The loop is lossless (unlimited switch capacity is required), so
// go-back-N never acts; NACKs are counted, and must stay 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "protocols/rocev2_dcqcn/dcqcn_ref.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/switch_queue.hpp"

namespace tonic::ref::dcqcn {

/// Who sends first when several flows are ready in one cycle.
enum class LoopTies : uint8_t {
  kRotate,     // the first flow checked rotates every cycle (no id favoured)
  kLowFirst,   // flow 0 first (a deliberate bias, for the bias study)
  kHighFirst,  // the highest flow first
};

struct LoopConfig {
  std::vector<uint64_t> start{0, 100'000};  // start cycle of each flow (size = flow count)
  uint64_t run = 8'000'000;                 // cycles simulated
  uint64_t bin = 100'000;                   // throughput bin (cycles)
  uint32_t seg_bytes = 1024;                // segment size
  uint32_t burst_bytes = 16'384;            // D: credit cap (bytes)
  uint32_t window = 120;                    // segments in flight at most (InitWnd; 0: no bound)
  uint64_t fwd_delay = 100;                 // sender -> switch (cycles)
  uint64_t ret_delay = 100;                 // receiver -> sender (cycles)
  uint64_t lag = 2;                         // sender event -> RP update (cycles)
  uint32_t visit_period = 3;                // cycles between two visits of a flow
  bool parallel_send = false;               // several flows may send in one cycle
  LoopTies ties = LoopTies::kRotate;
  SwitchConfig sw;                          // drain rate, ECN marking, seed
  RoceRxConfig rx;                          // ack_every, CNP gap
  Params rp;                                // reaction point (defaults of dcqcn.md)
  std::vector<Params> rp_flow;              // if not empty: each flow's own parameters (size = flow count)
};

/// What a run produced.
struct LoopResult {
  std::vector<std::vector<uint64_t>> bins;  // [flow][bin]: bytes that left the switch
  std::vector<uint64_t> cnps;               // CNPs the receiver sent, per flow
  std::vector<Stats> rp;                    // each reaction point's statistics
  uint64_t marks = 0, max_backlog = 0, drops = 0, nacks = 0;

  /// Bytes of `flow` that left the switch in cycles [from, to) (bin bounds).
  uint64_t bytes(uint32_t flow, uint64_t from, uint64_t to, uint64_t bin) const {
    uint64_t s = 0;
    for (uint64_t b = from / bin; b < to / bin && b < bins[flow].size(); ++b) s += bins[flow][b];
    return s;
  }
};

class DcqcnLoop {
 public:
  explicit DcqcnLoop(LoopConfig cfg) : cfg_(std::move(cfg)), sw_(cfg_.sw), rx_(cfg_.rx) {
    if (cfg_.start.empty()) throw std::invalid_argument("DcqcnLoop: no flow");
    if (cfg_.sw.capacity != SwitchConfig::kUnlimited)
      throw std::invalid_argument("DcqcnLoop: the loop is lossless (unlimited switch capacity)");
    if (cfg_.bin == 0 || cfg_.visit_period == 0 || cfg_.seg_bytes == 0 || cfg_.burst_bytes < cfg_.seg_bytes)
      throw std::invalid_argument("DcqcnLoop: bad bin, visit period, segment or burst size");
    const size_t n = cfg_.start.size();
    if (!cfg_.rp_flow.empty() && cfg_.rp_flow.size() != n)
      throw std::invalid_argument("DcqcnLoop: rp_flow must have one entry per flow");
    for (size_t i = 0; i < n; ++i) {
      if (const std::string e = params(i).check(); !e.empty()) throw std::invalid_argument("DcqcnLoop: " + e);
    }
    flows_.resize(n);
    res_.bins.assign(n, std::vector<uint64_t>(cfg_.run / cfg_.bin + 1, 0));
    res_.cnps.assign(n, 0);
  }

  /// Runs the whole loop and returns the result. Cycles in which nothing
  /// can happen are skipped (same result as stepping every cycle: credit
  /// grows linearly between events, and a visit with no expiry due changes
  /// nothing).
  LoopResult run() {
    const uint32_t n = static_cast<uint32_t>(flows_.size());
    const uint64_t seg_q20 = uint64_t{cfg_.seg_bytes} << kRateShift;
    const uint64_t cap_q20 = uint64_t{cfg_.burst_bytes} << kRateShift;
    const uint64_t period = cfg_.visit_period;
    for (uint64_t c = 0; c < cfg_.run;) {
      for (const SwitchPacket& p : sw_.pop(c)) {
        rx_.segment(c, p.flow, p.seg, p.ce);
        res_.bins[p.flow][c / cfg_.bin] += p.len;
      }
      while (!fwd_.empty() && fwd_.front().first <= c) {
        sw_.push(c, fwd_.front().second);
        fwd_.pop_front();
      }
      rx_.advance(c);
      for (const RxEvent& e : rx_.take_acks()) {
        if (e.type == kRxCnp) ++res_.cnps[e.flow];
        if (e.type == kRxNack) ++res_.nacks;
        back_.push_back({c + cfg_.ret_delay + cfg_.lag, e});
      }
      while (!back_.empty() && back_.front().first <= c) {
        const RxEvent& e = back_.front().second;
        Flow& f = flows_[e.flow];
        if (f.rp) {
          const uint32_t bytes = f.take_sent(c);
          if (e.type == kRxCnp) {
            f.rp->cnp(c);
          } else {
            if (bytes > 0) f.rp->sent(bytes, c);
            if (seq_lt(f.acked, e.cum_ack)) f.acked = e.cum_ack;
          }
        }
        back_.pop_front();
      }
      bool sent = false;
      const uint32_t first = cfg_.ties == LoopTies::kRotate ? static_cast<uint32_t>(c % n)
                             : cfg_.ties == LoopTies::kLowFirst ? 0
                                                                : n - 1;
      uint64_t next = cfg_.run;  // the next cycle in which something can happen
      if (!fwd_.empty()) next = std::min(next, fwd_.front().first);
      if (!back_.empty()) next = std::min(next, back_.front().first);
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t i = cfg_.ties == LoopTies::kHighFirst ? (first + n - k) % n : (first + k) % n;
        Flow& f = flows_[i];
        if (!f.rp) {
          if (c < cfg_.start[i]) {
            next = std::min(next, cfg_.start[i]);
            continue;
          }
          f.rp = std::make_unique<Rp>(params(i), c);
          f.start = f.last = c;
          rx_.open(i, 0);
        }
        if (c > f.start && (c - f.start) % period == 0) f.rp->visit(c);
        f.credit = std::min(f.credit + f.rate * (c - f.last), cap_q20);
        f.last = c;
        f.rate = f.rp->rc();  // a new rate counts from the next cycle
        const bool open = cfg_.window == 0 || seq_dist(f.acked, f.next) < cfg_.window;
        if (f.credit >= seg_q20 && open && (cfg_.parallel_send || !sent)) {
          f.credit -= seg_q20;
          SwitchPacket p;
          p.flow = i;
          p.seg = f.next++;
          p.len = cfg_.seg_bytes;
          f.tx_log.push_back({c, p.len});
          fwd_.push_back({c + cfg_.fwd_delay, p});
          next = std::min(next, c + cfg_.fwd_delay);
          sent = true;
        }
        // The first visit (on the grid start + k * period) at or after the
        // next expiry; the cycle the credit covers a segment.
        const State st = f.rp->state();
        const uint64_t due = std::max(std::min(st.t_due, st.k_due), f.start + 1);
        next = std::min(next, f.start + (due - f.start + period - 1) / period * period);
        if (open) {
          next = std::min(next, f.credit >= seg_q20 ? c + 1 : c + (seg_q20 - f.credit + f.rate - 1) / f.rate);
        }
      }
      next = std::min(next, sw_.next_departure());
      next = std::min(next, rx_.next_timer());
      c = std::max(c + 1, next);
    }
    res_.marks = sw_.marks();
    res_.max_backlog = sw_.max_backlog();
    res_.drops = sw_.drops();
    res_.rp.clear();
    for (const Flow& f : flows_) res_.rp.push_back(f.rp ? f.rp->stats() : Stats{});
    return res_;
  }

 private:
  const Params& params(size_t i) const { return cfg_.rp_flow.empty() ? cfg_.rp : cfg_.rp_flow[i]; }

  struct Flow {
    std::unique_ptr<Rp> rp;  // created at the flow's start
    uint64_t credit = 0;     // bytes << 20
    uint64_t rate = 0;       // RU in force this cycle
    uint64_t start = 0;      // cycle the flow started (visits at start + k * visit_period)
    uint64_t last = 0;       // cycle the credit was last brought up to date
    uint32_t next = 0;       // next PSN
    uint32_t acked = 0;      // cumulative ack seen
    std::deque<std::pair<uint64_t, uint32_t>> tx_log;  // segments sent and not yet taken: {cycle, bytes}
    /// The bytes of the segments sent in cycle c - 3 or earlier, taken.
    uint32_t take_sent(uint64_t c) {
      uint32_t b = 0;
      while (!tx_log.empty() && tx_log.front().first + 3 <= c) {
        b += tx_log.front().second;
        tx_log.pop_front();
      }
      return b;
    }
  };

  LoopConfig cfg_;
  SwitchQueue sw_;
  RoceReceiver rx_;
  std::vector<Flow> flows_;
  std::deque<std::pair<uint64_t, SwitchPacket>> fwd_;
  std::deque<std::pair<uint64_t, RxEvent>> back_;
  LoopResult res_;
};

}  // namespace tonic::ref::dcqcn
