// SPDX-License-Identifier: Apache-2.0
// LineRig: one tonic_top build of any protocol with N saturated flows, its
// receiver model (AnyReceiver, by the protocol's registry receiver mode) and
// a network between them: a one-way delay each way, optional Bernoulli loss
// of data segments and an optional bottleneck switch queue (SwitchQueue:
// drained at a fixed rate, drop-tail, ECN marking and NDP trimming by the
// protocol's credit scheme). The receiver's events (ACK, SACK, NACK, CNP,
// PULL) come back as rx beats, one per cycle. A go-back-0 protocol
// (host_restart) meets the go-back-0 responder, and its host restarts the
// message a NACK names (REMOVE, ADD at the message start, POST). Used by
// tonic-run (sim/run).
//
// Checks of every segment address that leaves (a failed one is counted and
// the first kept): the flow was added, the index lies in the posted data, a
// new segment is exactly the next never-sent index and inside the largest
// window (below the highest cumulative ack delivered + Window), a
// retransmission is of an index sent before, the length is the flow's
// segment size; after a go-back-0 REMOVE at most RingN addresses of the old
// incarnation; cr_enq_drop_o stays 0; the DUT's bad-input counters stay 0
// (except rx_stale_ack, which old acks of a lossy network legitimately
// raise, and with go-back-0 rx_unknown_flow, rx_bad_ack and
// ctrl_remove_unacked, which the restarts raise).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "tonic/harness.hpp"
#include "tonic/rx_common.hpp"
#include "tonic/seq.hpp"
#include "tonic/switch_queue.hpp"
#include "tonic/rng.hpp"
#include "tonic/rx_beat.hpp"
#include "tonic/sys_tb.hpp"
#include "tonic/top_drive.hpp"
#include "tonic/any_receiver.hpp"
#include "tonic/protocol_registry.hpp"

namespace tonic {

/// The bottleneck: one switch output queue between the sender and the receiver.
struct Bottleneck {
  bool on = false;
  uint32_t drain_bytes = 250;     // bytes per cycle (250 = 200 Gb/s at 100 MHz)
  uint64_t buffer_bytes = 256'000;
  bool ecn = false;               // RED marking (rate protocols: the DCQCN congestion point)
  uint64_t kmin = 20'000, kmax = 120'000;
  double pmax = 0.2;
  bool trim = false;              // NDP: trim instead of drop
};

/// A LineRig run.
struct LineConfig {
  uint32_t flows = 1024;
  uint32_t seg_bytes = 1000;
  uint64_t rtt = 1000;            // cycles; one-way delay rtt / 2
  double loss = 0;                // Bernoulli drop per data segment (before the queue)
  uint64_t seed = 1;
  AnyReceiverOptions rx;
  uint64_t pull_gap = 0;          // NDP receiver: cycles between pulls (0: its default)
  uint32_t msg_segments = 64;     // go-back-0 (host_restart): segments per message, the restart granularity
  Bottleneck bottleneck;
};

/// One segment address out, kept for the traces.
struct LineSeg {
  uint64_t cycle;
  uint32_t flow, idx;
  bool rtx;
};

/// A sample of a flow's congestion state (trace ports): window and
/// ssthresh (window credit) or rate in bytes/cycle (rate credit).
struct LineSample {
  uint64_t cycle;
  uint32_t flow;
  uint32_t wnd;
  int64_t ssthresh;  // -1: not set / none
  double rate;       // bytes per cycle; < 0: none
};

template <class Model, uint32_t kFlows, uint32_t kW>
class LineRig {
 public:
  LineRig(registry::ProtocolId p, const LineConfig& c)
      : proto_(registry::get(p)), cfg_(c), rx_(proto_.receiver, rx_options(c, proto_.host_restart)), rng_(c.seed),
        q_(switch_config(c)), fl_(kFlows) {
    reset_and_wait_init(h_, kFlows + 64, "LineRig");
    for (uint32_t f = 0; f < c.flows; ++f) {
      ctrl_.push_back({CtrlOp::kAdd, f, 0, c.seg_bytes});
      ctrl_.push_back({CtrlOp::kPost, f, kPosted, c.seg_bytes});
    }
    for (const auto& [name, s] : kDdBadInputStats) bad0_.push_back(stat(s));
  }

  /// Runs `cycles` cycles (stops at the first failed check).
  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles && errors_ == 0; ++i) step();
    check_counters();
  }

  Model& dut() { return h_.dut(); }
  uint64_t cycles() const { return cycles_; }
  uint64_t segments() const { return segs_; }
  uint64_t retransmissions() const { return rtx_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }
  uint64_t dropped() const { return lost_ + q_.drops(); }
  /// Go-back-0 message restarts by the host.
  uint64_t restarts() const { return restarts_; }
  /// rx beats that reached the sender but wait for the rx port (one per cycle), now and at most.
  uint64_t rx_backlog() const { return rx_q_.size(); }
  uint64_t rx_backlog_max() const { return rx_q_max_; }
  /// rx beats delivered to the DUT.
  uint64_t rx_beats() const { return rx_beats_; }
  const SwitchQueue& queue() const { return q_; }
  uint64_t stat(DdStat s) { return dd_stat(h_.dut(), s); }
  /// Ack-to-retransmit latency, per retransmission whose trigger is
  /// unambiguous: cycles from the latest rx beat of its flow (an ACK, SACK
  /// or NACK; a timeout in between disqualifies) to the retransmission
  /// leaving, counted for the first retransmission after that beat, when
  /// the beat came at least kQuiet cycles after the flow's previous beat
  /// and its previous retransmission, and at least one cycle before the
  /// retransmission. Retransmissions
  /// inside bursts of beats (a congested flow's duplicate ACKs, go-back-N)
  /// are left out rather than credited to the wrong beat.
  static constexpr uint64_t kQuiet = 64;
  const std::vector<uint64_t>& ack_to_rtx() const { return lat_; }
  /// Per flow: segments cumulatively acked, sent, retransmitted, timeouts.
  struct Flow {
    bool added = false;
    uint32_t posted = 0, snd_max = 0, acked = 0;
    uint64_t sent = 0, rtx = 0, timeouts = 0;
    uint64_t beat_at = 0, prev_beat_at = 0;  // cycle + 1 of the latest rx beat and of the one before (0: none)
    bool beat_answered = true;                // a retransmission or timeout came after the latest beat
    uint64_t rtx_at = 0;                      // cycle + 1 of the latest retransmission (0: none)
    // Go-back-0: the host's restart (REMOVE, ADD at the message start, POST) in progress.
    bool restart_pending = false;
    bool pending_add = false;  // re-ADDed; addresses of the old incarnation may still leave until the first new one
    uint32_t pending_seq = 0, old_acked = 0;
    uint32_t drained = 0;      // addresses out between the REMOVE and the ADD
    uint64_t restarts = 0;
  };
  const std::vector<Flow>& flows() const { return fl_; }
  const std::vector<LineSeg>& segs() const { return segs_log_; }
  const std::vector<LineSample>& samples() const { return samples_; }
  /// The DUT's bad-input counters that moved (name=value ...), "" if none.
  std::string bad_input_text() {
    std::string t;
    int i = 0;
    for (const auto& [name, s] : kDdBadInputStats) {
      const uint64_t v = stat(s) - bad0_[i++];
      if (v) t += std::string(t.empty() ? "" : " ") + name + "=" + std::to_string(v);
    }
    return t;
  }

 private:
  static constexpr uint32_t kPosted = 1u << 30;  // segments posted per flow: saturated
  static constexpr uint32_t kRing = layout::top::kRingN;  // RingN: addresses of a flow between generation and output

  static AnyReceiverOptions rx_options(const LineConfig& c, bool host_restart) {
    AnyReceiverOptions o = c.rx;
    o.window = kW;
    o.pull_gap = c.pull_gap;
    if (host_restart) o.go_back_0 = c.msg_segments;
    return o;
  }
  static SwitchConfig switch_config(const LineConfig& c) {
    SwitchConfig s;
    s.drain_q16 = uint64_t{std::max<uint32_t>(1, c.bottleneck.drain_bytes)} << 16;
    s.capacity = c.bottleneck.buffer_bytes;
    s.overflow = c.bottleneck.trim ? SwitchOverflow::kTrim : SwitchOverflow::kDrop;
    s.ecn = c.bottleneck.ecn;
    s.kmin = c.bottleneck.kmin;
    s.kmax = c.bottleneck.kmax;
    s.pmax = c.bottleneck.pmax;
    s.seed = c.seed * 0x9E3779B97F4A7C15ull + 7;
    return s;
  }

  struct Pkt {
    uint64_t at;
    uint32_t flow, idx;
    bool ce, trimmed;
    uint32_t ts;  // transmit stamp, echoed by the receiver
    bool rtx;
  };

  void step() {
    auto& d = h_.dut();
    const uint64_t c = h_.cycle();
    drive_ctrl(d, ctrl_);
    // Network: the bottleneck's departures, then arrivals at the receiver.
    if (cfg_.bottleneck.on)
      for (const SwitchPacket& p : q_.pop(c))
        fwd_.push_back({c + delay(), p.flow, p.seg, p.ce, p.trimmed, p.ts, p.rtx});
    while (!fwd_.empty() && fwd_.front().at <= c) {
      const Pkt p = fwd_.front();
      fwd_.pop_front();
      rx_.segment(c, p.flow, p.idx, p.ce, p.trimmed, p.ts, p.rtx);
    }
    rx_.advance(c, evs_);
    for (const RxEvent& e : evs_) ret_.push_back({c + delay(), e});
    while (!ret_.empty() && ret_.front().first <= c) {
      rx_q_.push_back(to_cmd(ret_.front().second));
      ret_.pop_front();
    }
    rx_q_max_ = std::max<uint64_t>(rx_q_max_, rx_q_.size());
    d.rx_valid_i = 0;
    if (!rx_q_.empty()) drive_rx_beat(d, rx_q_.front(), rx_q_.front().ecn, rx_q_.front().grant);
    d.seg_ready_i = 1;
    d.note_ready_i = 1;
    d.wdog_limit_i = 0;
    h_.eval();

    traces(c, d);
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      apply(ctrl_.front());
      ctrl_.pop_front();
    }
    if (d.rx_valid_i) {
      const RxCmd& r = rx_q_.front();
      if (r.flow < kFlows && fl_[r.flow].added) {
        Flow& t = fl_[r.flow];
        const bool cum = r.type == RxType::kAck || r.type == RxType::kSack || r.type == RxType::kNack;
        const bool advances = cum && seq_lt(t.acked, r.cum_ack) && !seq_lt(t.snd_max, r.cum_ack);
        if (r.type == RxType::kAck || r.type == RxType::kSack || r.type == RxType::kNack) {
          t.prev_beat_at = t.beat_at;
          t.beat_at = c + 1;
          t.beat_answered = false;
        }
        if (advances) t.acked = r.cum_ack;
        // Go-back-0: a NACK restarts the message it names (one restart at a
        // time per flow), as tonic-netsim's host driver does.
        if (proto_.host_restart && r.type == RxType::kNack && !t.restart_pending && !t.pending_add) {
          const uint32_t m = cfg_.msg_segments;
          const uint32_t msg_start = r.cum_ack / m * m;
          ctrl_.push_back({CtrlOp::kRemove, r.flow, 0, 0});
          ctrl_.push_back({CtrlOp::kAdd, r.flow, msg_start, cfg_.seg_bytes});
          ctrl_.push_back({CtrlOp::kPost, r.flow, kPosted, cfg_.seg_bytes});
          t.restart_pending = true;
          ++t.restarts;
          ++restarts_;
        }
      }
      rx_q_.pop_front();
      ++rx_beats_;
    }
    if (d.seg_valid_o && d.seg_ready_i) on_seg(c, d.seg_flow_o, d.seg_idx_o, d.seg_rtx_o, d.seg_len_o, d.seg_ts_o);
    if (d.cr_enq_drop_o) fail(c, "CR ring overflow (more than RingN outstanding)");
    h_.tick();
    ++cycles_;
  }

  uint64_t delay() const { return std::max<uint64_t>(1, cfg_.rtt / 2); }

  void apply(const CtrlCmd& k) {
    Flow& t = fl_[k.flow];
    if (k.op == CtrlOp::kAdd && t.restart_pending) {  // go-back-0: the message again, same receiver flow
      t.added = true;
      t.pending_add = true;
      t.pending_seq = k.seq;
      t.acked = k.seq;
    } else if (k.op == CtrlOp::kAdd) {
      t = Flow{};
      t.added = true;
      t.posted = t.snd_max = t.acked = k.seq;
      rx_.open(k.flow, k.seq);
    } else if (k.op == CtrlOp::kPost) {
      t.posted = k.seq;
      t.restart_pending = false;
    } else if (k.op == CtrlOp::kRemove) {
      t.added = false;
      t.drained = 0;
      t.old_acked = t.acked;
    }
  }

  void traces(uint64_t c, Model& d) {
    const SysTrace per = sys_trace(d.trace_per_o);
    if (per.valid && per.flow < kFlows && per.timeout) {
      ++fl_[per.flow].timeouts;
      fl_[per.flow].beat_answered = true;  // what follows answers the timer, not an ack
    }
    sample(c, per);
    sample(c, sys_trace(d.trace_in_o));
  }

  void sample(uint64_t c, const SysTrace& t) {
    if (!t.valid || t.flow >= cfg_.flows) return;
    LineSample s{c, t.flow, t.wnd, -1, -1.0};
    if (proto_.ssthresh.present()) {
      const uint64_t ss = proto_.ssthresh.read(t.user);
      s.ssthresh = ss == (uint64_t{1} << proto_.ssthresh.width) - 1 ? -1 : static_cast<int64_t>(ss);
    }
    if (proto_.rate.present()) s.rate = static_cast<double>(proto_.rate.read(t.user)) / 1048576.0;
    samples_.push_back(s);
  }

  void on_seg(uint64_t c, uint32_t f, uint32_t idx, bool rtx, uint32_t len, uint32_t ts) {
    ++segs_;
    if (f >= kFlows) return fail(c, "flow id out of range");
    Flow& t = fl_[f];
    auto bad = [&](const std::string& why) {
      fail(c, "flow " + std::to_string(f) + " idx " + std::to_string(idx) + (rtx ? " (rtx)" : "") + ": " + why);
    };
    if (!t.added) {
      // Go-back-0: after the REMOVE, at most RingN addresses of the old
      // incarnation may still leave (the CR ring drains).
      if (!proto_.host_restart || !t.restart_pending) return bad("flow not added");
      if (++t.drained > kRing) return bad("more than RingN addresses after a REMOVE");
    }
    if (!seq_lt(idx, t.posted)) return bad("beyond the posted data");
    if (t.added && t.pending_add && !rtx && idx == t.pending_seq) {  // the re-ADDed incarnation's first segment
      t.pending_add = false;
      t.snd_max = idx;
    }
    // The largest window: from the highest cumulative ack of the incarnation sending.
    const uint32_t base = t.pending_add || !t.added ? t.old_acked : t.acked;
    if (!rtx) {
      if (idx != t.snd_max) return bad("new segment is not the next one (" + std::to_string(t.snd_max) + ")");
      if (t.added && !seq_lt(idx, base + kW)) return bad("outside the largest window");
      t.snd_max = idx + 1;
    } else {
      if (!seq_lt(idx, t.snd_max)) return bad("retransmission of a segment never sent");
      ++rtx_;
      ++t.rtx;
      const bool quiet = (t.prev_beat_at == 0 || t.beat_at - t.prev_beat_at >= kQuiet) &&
                         (t.rtx_at == 0 || t.beat_at >= t.rtx_at + kQuiet);
      if (!t.beat_answered && t.beat_at && c + 1 > t.beat_at && quiet) lat_.push_back(c + 1 - t.beat_at);
      t.beat_answered = true;
      t.rtx_at = c + 1;
    }
    if (len != cfg_.seg_bytes) return bad("length " + std::to_string(len) + ", the flow's is " + std::to_string(cfg_.seg_bytes));
    ++t.sent;
    segs_log_.push_back({c, f, idx, rtx});
    // The network: loss, then the bottleneck or the delay line.
    if (cfg_.loss > 0 && rng_.chance(cfg_.loss)) {
      ++lost_;
      return;
    }
    if (cfg_.bottleneck.on) {
      SwitchPacket p;
      p.flow = f;
      p.seg = idx;
      p.len = len;
      p.rtx = rtx;
      p.ts = ts;
      q_.push(c, p);
    } else {
      fwd_.push_back({c + delay(), f, idx, false, false, ts, rtx});
    }
  }

  void check_counters() {
    int i = 0;
    for (const auto& [name, s] : kDdBadInputStats) {
      const uint64_t v = stat(s) - bad0_[i++];
      // Go-back-0's REMOVE of a flow with data in flight makes its acks
      // unknown or beyond what the new incarnation sent, legitimately.
      const bool restart_noise = proto_.host_restart && (s == DdStat::kRxUnknownFlow || s == DdStat::kRxBadAck ||
                                                         s == DdStat::kCtrlRemoveUnacked);
      if (v && s != DdStat::kRxStaleAck && !restart_noise)
        fail(h_.cycle(), std::string("DUT bad-input counter ") + name + " = " + std::to_string(v));
    }
  }

  void fail(uint64_t c, const std::string& what) {
    if (errors_++ == 0) first_error_ = "cycle " + std::to_string(c) + ": " + what;
  }

  const registry::Protocol& proto_;
  LineConfig cfg_;
  Harness<Model> h_{"sender"};
  AnyReceiver rx_;
  Rng rng_;
  SwitchQueue q_;
  std::vector<Flow> fl_;
  std::deque<CtrlCmd> ctrl_;
  std::deque<Pkt> fwd_;
  std::deque<std::pair<uint64_t, RxEvent>> ret_;
  std::deque<RxCmd> rx_q_;
  std::vector<RxEvent> evs_;
  std::vector<uint64_t> lat_;
  std::vector<LineSeg> segs_log_;
  std::vector<LineSample> samples_;
  std::vector<uint64_t> bad0_;
  uint64_t cycles_ = 0, segs_ = 0, rtx_ = 0, lost_ = 0, errors_ = 0, rx_beats_ = 0, rx_q_max_ = 0, restarts_ = 0;
  std::string first_error_;
};

}  // namespace tonic
