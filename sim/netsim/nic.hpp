// SPDX-License-Identifier: Apache-2.0
// The NICs of tonic-netsim (docs/netsim.md), clocked SystemC modules around
// Verilated C++ models:
//
//   SenderNic<Model>   a host NIC: the Tonic sender (tonic_top of one
//                      protocol build) + the host driver (ADD / POST of the
//                      flows' messages; go-back-0's message restart) + a DMA
//                      stage that turns each segment address into a packet
//                      of the flow's segment size plus headers and hands it
//                      to the host's link, back-pressuring Tonic
//                      (seg_ready_i) while the link's backlog is full.
//   RtlReceiverNic<M>  the receiver NIC: tonic_rx_engine (TCP, RoCE, IRN,
//                      NDP modes), fed one arriving descriptor per cycle;
//                      its control packets go back on the receiver's link.
//   Gb0ReceiverNic     the go-back-0 responder of the live-lock experiment
//                      (lib/tonic/gb0_receiver.hpp; the receiver RTL has
//                      no go-back-0 mode).
//
// Both ends apply nothing of their own to the traffic except the drop
// options (sim/common/drop_rule.hpp), decided at the receiver NIC.
#pragma once

#include "systemc.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "tonic/harness.hpp"
#include "tonic/gb0_receiver.hpp"
#include "tonic/seq.hpp"
#include "tonic/segment_scoreboard.hpp"
#include "tonic/sys_tb.hpp"  // sys_trace, DdStat
#include "tonic/top_drive.hpp"
#include "net.hpp"
#include "sim/common/drop_rule.hpp"
#include "tonic/rx_ports.hpp"

namespace tonic::netsim {

/// What a protocol's user state holds that the traces want (bit offsets in
/// the user field of dd_trace_t, from the protocol registry's probes; -1:
/// absent).
struct ProtoProbe {
  int ss_lo = -1, ss_w = 0;   // ssthresh (segments; all ones = not set)
  int rec_bit = -1;           // in (fast) recovery
  int dup_lo = -1, dup_w = 0; // duplicate-ack count (no recovery flag: fast retransmit when it reaches 3)
  int rate_lo = -1, rate_w = 0;  // rate Rc (RU)
  bool window = false;        // the window scheme (cwnd on probe_wnd_o)
};

/// The sender-side settings of a run.
struct SenderConfig {
  uint32_t host = 0;             // this sender's host id
  uint32_t receiver = 0;         // the receiver's host id
  uint32_t flows = 1;            // flows on this host: ids 0..flows-1
  uint32_t key_base = 0;         // flow key of flow 0
  uint32_t seg_bytes = 1000;
  uint32_t header_bytes = 42;
  uint64_t segments = 0;         // per flow: segments of all messages (0: unbounded)
  uint32_t last_len = 0;         // bytes of the last segment (bounded)
  uint32_t msg_segments = 0;     // go-back-0: segments per message (restart granularity)
  bool restart_on_nack = false;  // go-back-0 driver: REMOVE, ADD at the message start, POST
  int trace_flow = -1;           // flow id on this host whose cwnd / tx are traced
  bool sample_cwnd = false;      // keep every flow's cwnd (cwnd_flows.csv): the probe port alternates
                                 // between the traced flow and the others, round robin
  uint32_t dma_packets = 2;      // DMA stage: packets the host link may hold before seg_ready_i drops
  double start_us = 0;           // the driver ADDs the flows at this time
  uint64_t holdoff_cycles = 0;   // window_mode sender: a RESEND of a packet sent this recently is ignored
  ProtoProbe probe;
  sc_time clock;                 // the Tonic clock period
};

/// Per-flow figures kept by a sender NIC.
struct SenderFlow {
  uint32_t start = 0;      // first segment index
  uint64_t posted = 0;     // segments posted (relative)
  uint64_t acked = 0;      // segments acked (relative, note port)
  uint64_t sent = 0, rtx = 0, timeouts = 0, fr_episodes = 0, restarts = 0;
  double first_tx_us = -1, done_us = -1;
  bool present = true;
  bool restart_pending = false;
  bool in_rec = false;
  uint32_t dup = 0;
};

/// Trace callbacks of the traced flow (time in us since the start).
struct SenderTraces {
  std::function<void(double, int64_t, int64_t)> cwnd;     // cwnd, ssthresh (-1: not set)
  std::function<void(double, uint64_t, bool)> tx;         // segment (relative), retransmit
  std::function<void(double, uint32_t, double)> rate;     // flow, rate Gb/s (rate scheme)
};

/// The common interface of the sender NICs (one per protocol build).
inline double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

/// A rate in RU (bytes per 2^20 cycles) in Gb/s at a clock of clock_ns.
inline double ru_gbps(uint64_t ru, double clock_ns) { return double(ru) / 1048576.0 * 8.0 / clock_ns; }

/// What every sender NIC has: its settings and link, per-flow figures, the
/// control packets that arrived (taken by the NIC's clocked process) and
/// the first error of its checks.
class SenderNicBase : public sc_core::sc_module, public PacketSink {
 public:
  SenderNicBase(sc_core::sc_module_name n, const SenderConfig& cfg, Link* egress)
      : sc_module(n), cfg_(cfg), egress_(egress), fl_(cfg.flows), cwnd_(cfg.flows, -1) {}
  void receive(const Packet& p) override { ingress_.push_back(p); }
  const std::vector<SenderFlow>& flows() const { return fl_; }
  /// The last cwnd (segments) the probe port showed for each flow (-1: not
  /// probed yet; window protocols with sample_cwnd only).
  const std::vector<int64_t>& cwnd() const { return cwnd_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }
  virtual uint64_t cycles() const = 0;
  /// The sender's bad-input counters (docs/robustness.md), by name; empty
  /// for a sender without a tonic_top.
  virtual std::map<std::string, uint64_t> bad_input() { return {}; }
  SenderTraces traces;
  double t0_us = 0;  // simulation time of "0" in the traces

 protected:
  void fail(const std::string& what) {
    if (errors_++ == 0) {
      std::ostringstream m;
      m << name() << " cycle " << cycles() << ": " << what;
      first_error_ = m.str();
    }
  }
  double t_us() const { return now_us() - t0_us; }

  SenderConfig cfg_;
  Link* egress_;
  std::vector<SenderFlow> fl_;
  std::vector<int64_t> cwnd_;
  std::deque<Packet> ingress_;

 private:
  uint64_t errors_ = 0;
  std::string first_error_;
};

template <class Model>
class SenderNic : public SenderNicBase {
 public:
  SC_HAS_PROCESS(SenderNic);
  sc_core::sc_in<bool> clk;

  SenderNic(sc_core::sc_module_name n, const SenderConfig& cfg, Link* egress)
      : SenderNicBase(n, cfg, egress) {
    reset_and_wait_init(h_, 4096 + 64, name());
    for (uint32_t f = 0; f < cfg_.flows; ++f) {
      SenderFlow& s = fl_[f];
      s.start = 0;
      const uint64_t post = cfg_.segments ? cfg_.segments : kUnbounded;
      s.posted = post;
      ctrl_.push_back({CtrlOp::kAdd, f, s.start, cfg_.seg_bytes});
      ctrl_.push_back({CtrlOp::kPost, f, s.start + static_cast<uint32_t>(post),
                       cfg_.segments ? cfg_.last_len : cfg_.seg_bytes});
    }
    SC_METHOD(cycle);
    sensitive << clk.pos();
    dont_initialize();
  }

  uint64_t cycles() const override { return h_.cycle(); }
  std::map<std::string, uint64_t> bad_input() override {
    std::map<std::string, uint64_t> m;
    for (const auto& [name, st] : kDdBadInputStats) m[name] = dd_stat(h_.dut(), st);
    return m;
  }

 private:
  static constexpr uint64_t kUnbounded = 1u << 30;  // segments posted for an unbounded flow

  void cycle() {
    auto& d = h_.dut();
    // Control packets that arrived: one rx beat per cycle into the sender.
    while (!ingress_.empty()) {
      const Packet& p = ingress_.front();
      RxCmd r = rx_cmd_of(p.ctl);
      r.flow = p.key - cfg_.key_base;  // the key names the flow network-wide
      rx_.push_back(r);
      ingress_.pop_front();
    }
    if (now_us() >= cfg_.start_us) {
      drive_ctrl(d, ctrl_);
    } else {
      d.ctrl_valid_i = 0;
    }
    d.rx_valid_i = 0;
    if (!rx_.empty()) {
      const RxCmd& r = rx_.front();
      drive_rx_beat(d, r, r.ecn, r.grant);
      if (cfg_.restart_on_nack && r.type == RxType::kNack && r.flow < fl_.size()) restart(r);
    }
    d.seg_ready_i = egress_->backlog_packets() < cfg_.dma_packets;
    // The probe port reads the state a cycle after its address: what it
    // shows now is the flow set in the previous cycle (probed_).
    uint32_t probe = cfg_.trace_flow >= 0 ? static_cast<uint32_t>(cfg_.trace_flow) : 0;
    if (cfg_.sample_cwnd && fl_.size() > 1 && (h_.cycle() & 1)) {
      probe = next_probe_;
      next_probe_ = (next_probe_ + 1) % static_cast<uint32_t>(fl_.size());
    }
    if (cfg_.trace_flow >= 0 || cfg_.sample_cwnd) d.probe_flow_i = probe;
    h_.eval();
    if (d.ctrl_valid_i && d.ctrl_ready_o) {
      const Ctrl k = ctrl_.front();
      ctrl_.pop_front();
      SenderFlow& s = fl_[k.flow];
      if (k.op == CtrlOp::kAdd) {
        s.present = true;
        sb_.add(h_.cycle(), k.flow, k.seq, k.len);
      } else if (k.op == CtrlOp::kRemove) {
        s.present = false;
        sb_.remove(k.flow);
      } else if (k.op == CtrlOp::kPost) {
        sb_.post(k.flow, k.seq, k.len);
        s.restart_pending = false;
      }
      sync_scoreboard();
    }
    if (d.rx_valid_i) rx_.pop_front();
    if (d.seg_valid_o && d.seg_ready_i) segment(d);
    if (d.note_valid_o && d.note_ready_i) note(d.note_flow_o, d.note_acked_o);
    traces_of(d);
    probed_ = probe;
    if (d.cr_enq_drop_o) fail("CR ring overflow");
    h_.tick();
  }

  /// The go-back-0 driver: a NACK restarts the message it names (one
  /// restart at a time per flow).
  void restart(const RxCmd& r) {
    SenderFlow& s = fl_[r.flow];
    if (!s.present || s.restart_pending || cfg_.msg_segments == 0) return;
    const uint32_t m = seq_dist(s.start, r.cum_ack) / cfg_.msg_segments;
    const uint32_t msg_start = s.start + m * cfg_.msg_segments;
    ctrl_.push_back({CtrlOp::kRemove, r.flow, 0, 0});
    ctrl_.push_back({CtrlOp::kAdd, r.flow, msg_start, cfg_.seg_bytes});
    ctrl_.push_back({CtrlOp::kPost, r.flow, s.start + static_cast<uint32_t>(s.posted),
                     cfg_.segments ? cfg_.last_len : cfg_.seg_bytes});
    s.restart_pending = true;
    ++s.restarts;
  }

  void segment(Model& d) {
    const uint32_t f = d.seg_flow_o;
    const uint32_t idx = d.seg_idx_o;
    const bool rtx = d.seg_rtx_o;
    if (f >= fl_.size()) return fail("address of a flow never added: " + std::to_string(f));
    SenderFlow& s = fl_[f];
    // The segment checks (tonic/segment_scoreboard.hpp): a new segment is
    // the next never-sent index of the incarnation sending, a
    // retransmission was sent before; after a go-back-0 REMOVE the old
    // incarnation's queued addresses may still leave (kLeftovers). Every
    // address leaves as a packet.
    sb_.segment(h_.cycle(), f, idx, rtx, d.seg_len_o);
    sync_scoreboard();
    ++s.sent;
    if (rtx) ++s.rtx;
    if (s.first_tx_us < 0) s.first_tx_us = t_us();
    Packet p;
    p.kind = Packet::Kind::kData;
    p.src = cfg_.host;
    p.dst = cfg_.receiver;
    p.key = cfg_.key_base + f;
    p.flow = f;
    p.idx = idx;
    p.rtx = rtx;
    p.ts = d.seg_ts_o;
    p.bytes = d.seg_len_o + cfg_.header_bytes;
    egress_->push(p);
    if (static_cast<int>(f) == cfg_.trace_flow && traces.tx) traces.tx(t_us(), seq_dist(s.start, idx), rtx);
  }

  void note(uint32_t f, uint32_t acked) {
    if (f >= fl_.size()) return fail("note for a flow never added");
    SenderFlow& s = fl_[f];
    const uint64_t rel = seq_dist(s.start, acked);
    if (rel > s.acked) s.acked = rel;
    if (cfg_.segments && s.acked >= cfg_.segments && s.done_us < 0) s.done_us = t_us();
  }

  void traces_of(Model& d) {
    const ProtoProbe& pp = cfg_.probe;
    // The traced flow's rate (rate scheme) from either trace port, on change.
    auto rate = [&](const SysTrace& t) {
      if (static_cast<int>(t.flow) != cfg_.trace_flow || pp.rate_lo < 0 || !traces.rate) return;
      const uint32_t rc = t.user_bits(static_cast<unsigned>(pp.rate_lo), static_cast<unsigned>(pp.rate_w));
      if (rc == last_rate_) return;
      last_rate_ = rc;
      traces.rate(t_us(), t.flow, ru_gbps(rc, cfg_.clock.to_seconds() * 1e9));
    };
    const SysTrace in = sys_trace(d.trace_in_o);
    if (in.valid && in.flow < fl_.size()) {
      SenderFlow& s = fl_[in.flow];
      if (pp.rec_bit >= 0) {
        const bool rec = in.user_bits(static_cast<unsigned>(pp.rec_bit), 1);
        if (rec && !s.in_rec) ++s.fr_episodes;
        s.in_rec = rec;
      } else if (pp.dup_lo >= 0) {
        const uint32_t dup = in.user_bits(static_cast<unsigned>(pp.dup_lo), static_cast<unsigned>(pp.dup_w));
        if (dup == 3 && s.dup != 3) ++s.fr_episodes;
        s.dup = dup;
      }
      if (static_cast<int>(in.flow) == cfg_.trace_flow && pp.ss_lo >= 0) {
        const uint32_t ss = in.user_bits(static_cast<unsigned>(pp.ss_lo), static_cast<unsigned>(pp.ss_w));
        ss_ = ss == (1u << pp.ss_w) - 1 ? -1 : int64_t{ss};
      }
      rate(in);
    }
    const SysTrace per = sys_trace(d.trace_per_o);
    if (per.valid && per.flow < fl_.size()) {
      if (per.timeout) ++fl_[per.flow].timeouts;
      rate(per);
    }
    if (pp.window && cfg_.sample_cwnd && probed_ < cwnd_.size()) cwnd_[probed_] = d.probe_wnd_o;
    if (pp.window && cfg_.trace_flow >= 0 && probed_ == static_cast<uint32_t>(cfg_.trace_flow) && traces.cwnd &&
        fl_[cfg_.trace_flow].first_tx_us >= 0)
      traces.cwnd(t_us(), d.probe_wnd_o, ss_);
  }

  struct Ctrl {
    CtrlOp op;
    uint32_t flow, seq, len;
  };

  /// The scoreboard's new errors into this NIC's (the first with its message).
  void sync_scoreboard() {
    for (; sb_errors_ < sb_.errors(); ++sb_errors_) fail(sb_errors_ == 0 ? sb_.first_error() : "segment check");
  }

  Harness<Model> h_{"sender"};
  SegmentScoreboard sb_{cfg_.flows, [] {
                          ScoreboardOptions o;
                          o.after_remove = ScoreboardOptions::AfterRemove::kLeftovers;
                          return o;
                        }()};
  uint64_t sb_errors_ = 0;
  std::deque<Ctrl> ctrl_;
  std::deque<RxCmd> rx_;
  int64_t ss_ = -1;
  uint32_t last_rate_ = ~0u;
  uint32_t probed_ = cfg_.trace_flow >= 0 ? static_cast<uint32_t>(cfg_.trace_flow) : 0;  // flow the probe port shows
  uint32_t next_probe_ = 0;  // round robin of sample_cwnd
};

/// The receiver-side settings of a run.
struct ReceiverConfig {
  uint32_t host = 0;
  uint32_t flows = 0;              // flow keys 0..flows-1
  uint32_t flows_per_sender = 1;   // key -> sender host = key / flows_per_sender
  RxMode mode = RxMode::kTcp;
  bool delack = false, sack = false;
  bool ce_state_acks = false;      // TCP: acks echo the CE state (RFC 8257's receiver)
  uint64_t segments = 0;           // per flow (0: unbounded)
  uint32_t msg_segments = 0;       // go-back-0: segments per message
  uint32_t ctl_bytes = 42;
  uint32_t seg_bytes = 1000;
  uint32_t header_bytes = 42;      // on the wire beyond the payload (data)
  sim::DropRule drops;
  uint32_t bin_flows = 0;          // thr.csv: flows 0..bin_flows-1 binned
  double warmup_us = 0;            // bytes_measured counts from here
  double bin_us = 100;
  uint64_t nack_gap = 1000;        // go-back-0 responder: re-NACK gap (cycles)
};

/// Per-flow figures kept by the receiver NIC.
struct ReceiverFlow {
  uint64_t delivered = 0;  // segments delivered (new, in the order the engine allows)
  uint64_t bytes = 0;
  uint64_t bytes_measured = 0;  // delivered from warmup_us on
  uint64_t messages = 0;   // go-back-0: messages completed
  uint64_t dropped = 0;    // by the drop options
  double done_us = -1;
};

/// Per-bin delivered bytes of the binned flows: bins[key][bin].
using Bins = std::vector<std::vector<uint64_t>>;

class ReceiverNicBase : public sc_core::sc_module, public PacketSink {
 public:
  explicit ReceiverNicBase(sc_core::sc_module_name n, const ReceiverConfig& cfg, Link* egress)
      : sc_module(n), cfg_(cfg), egress_(egress), fl_(cfg.flows), bins_(cfg.bin_flows) {}
  const std::vector<ReceiverFlow>& flows() const { return fl_; }
  const Bins& bins() const { return bins_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }
  uint64_t dropped() const { return dropped_; }
  uint64_t trimmed() const { return trimmed_; }
  double t0_us = 0;

  /// A data packet reached the NIC: the drop options, then the ingress queue.
  void receive(const Packet& p) override {
    if (p.kind != Packet::Kind::kData) return fail("a control packet reached the receiver");
    if (p.key >= fl_.size()) return fail("data of an unknown flow key " + std::to_string(p.key));
    if (p.trimmed) ++trimmed_;
    if (cfg_.drops.any() && !p.trimmed) {
      const uint64_t id = (uint64_t{p.key} << 32) | p.idx;
      const uint64_t arrival = arrivals_[id]++;
      if (cfg_.drops.drop(p.key, p.idx, arrival)) {
        ++dropped_;
        ++fl_[p.key].dropped;
        return;
      }
    }
    ingress_.push_back(p);
  }

 protected:
  void fail(const std::string& what) {
    if (errors_++ == 0) first_error_ = std::string(name()) + ": " + what;
  }
  double t_us() const { return now_us() - t0_us; }
  void delivered(uint32_t key, uint32_t bytes) {
    ReceiverFlow& f = fl_[key];
    ++f.delivered;
    f.bytes += bytes;
    if (t_us() >= cfg_.warmup_us) f.bytes_measured += bytes;
    if (key < bins_.size()) {
      const double t = t_us();
      const size_t b = t < 0 ? 0 : static_cast<size_t>(t / cfg_.bin_us);
      if (bins_[key].size() <= b) bins_[key].resize(b + 1, 0);
      bins_[key][b] += bytes;
    }
  }
  void send_ctl(const RxCtl& x) {
    Packet p;
    p.kind = Packet::Kind::kCtl;
    p.src = cfg_.host;
    p.key = x.flow;
    p.dst = x.flow / cfg_.flows_per_sender;
    p.flow = x.flow % cfg_.flows_per_sender;
    p.bytes = cfg_.ctl_bytes;
    p.ctl = x;
    egress_->push(p);
  }

  ReceiverConfig cfg_;
  Link* egress_;
  std::vector<ReceiverFlow> fl_;
  Bins bins_;
  std::deque<Packet> ingress_;
  std::unordered_map<uint64_t, uint32_t> arrivals_;
  uint64_t errors_ = 0, dropped_ = 0, trimmed_ = 0;
  std::string first_error_;
};

/// tonic_rx_engine as the receiver NIC.
template <class Model>
class RtlReceiverNic : public ReceiverNicBase {
 public:
  SC_HAS_PROCESS(RtlReceiverNic);
  sc_core::sc_in<bool> clk;

  RtlReceiverNic(sc_core::sc_module_name n, const ReceiverConfig& cfg, Link* egress)
      : ReceiverNicBase(n, cfg, egress) {
    auto& d = h_.dut();
    d.cfg_valid_i = 0;
    d.data_valid_i = 0;
    d.ctl_ready_i = 0;
    h_.reset();
    for (uint32_t k = 0; k < cfg_.flows; ++k) {
      RxCfg c;
      c.flow = static_cast<uint16_t>(k);
      c.mode = cfg_.mode;
      c.first = 0;
      c.count = static_cast<uint32_t>(cfg_.segments);
      c.delack = cfg_.delack;
      c.sack = cfg_.sack;
      c.ce_state_acks = cfg_.ce_state_acks;
      if (cfg_.mode == RxMode::kWindow) {  // the tag WindowModeSenderNic sends
        c.node = static_cast<uint16_t>(k / cfg_.flows_per_sender);
        c.ctx = static_cast<uint16_t>(k % cfg_.flows_per_sender);
        c.msgid = 1;
      }
      cfgq_.push_back(c);
    }
    SC_METHOD(cycle);
    sensitive << clk.pos();
    dont_initialize();
  }

  RxEngineStats stats() { return unpack_stats(rx_read_port(h_.dut().stats_o, kStatsW)); }

 private:
  void cycle() {
    auto& d = h_.dut();
    const bool cfg_v = !cfgq_.empty();
    d.cfg_valid_i = cfg_v;
    if (cfg_v) rx_write_port(d.cfg_i, pack_cfg(cfgq_.front()));
    // Configuration first: data waits until every flow is open.
    const bool offer = !cfg_v && !ingress_.empty();
    d.data_valid_i = offer;
    if (offer) {
      const Packet& k = ingress_.front();
      RxDesc x;
      x.flow = static_cast<uint16_t>(k.key);
      x.idx = k.idx;
      x.ecn = k.ce;
      x.trimmed = k.trimmed;
      x.ts = k.ts;
      x.rtx = k.rtx;
      x.node = k.node;
      x.ctx = k.ctx;
      x.msgid = k.msgid;
      x.last = cfg_.segments != 0 && uint64_t{k.idx} == cfg_.segments - 1;
      rx_write_port(d.data_i, pack_desc(x));
    }
    d.ctl_ready_i = 1;
    h_.eval();
    if (cfg_v && d.cfg_ready_o) cfgq_.pop_front();
    if (offer && d.data_ready_o) {
      accepted_.push_back(ingress_.front());
      ingress_.pop_front();
    }
    if (d.dlv_valid_o) {
      const RxDlv v = unpack_dlv(rx_read_port(d.dlv_o, kDlvW));
      if (accepted_.empty()) {
        fail("a decision without a descriptor");
      } else {
        const Packet a = accepted_.front();
        accepted_.pop_front();
        if (v.flow != a.key || v.idx != a.idx) fail("decision out of order");
        if (v.deliver) delivered(a.key, a.bytes - cfg_.header_bytes);
      }
    }
    if (d.done_valid_o) {
      const uint32_t k = d.done_flow_o;
      if (k < fl_.size() && fl_[k].done_us < 0) fl_[k].done_us = t_us();
    }
    if (d.ctl_valid_o) send_ctl(unpack_ctl(rx_read_port(d.ctl_o, kCtlW)));
    h_.tick();
  }

  Harness<Model> h_{"receiver"};
  std::deque<RxCfg> cfgq_;
  std::deque<Packet> accepted_;
};

/// The go-back-0 responder (reference model) as the receiver NIC.
class Gb0ReceiverNic : public ReceiverNicBase {
 public:
  SC_HAS_PROCESS(Gb0ReceiverNic);
  sc_core::sc_in<bool> clk;

  Gb0ReceiverNic(sc_core::sc_module_name n, const ReceiverConfig& cfg, Link* egress)
      : ReceiverNicBase(n, cfg, egress), rx_(make_cfg(cfg)) {
    for (uint32_t k = 0; k < cfg_.flows; ++k) rx_.open(k, 0);
    SC_METHOD(cycle);
    sensitive << clk.pos();
    dont_initialize();
  }

 private:
  static Gb0RxConfig make_cfg(const ReceiverConfig& c) {
    Gb0RxConfig g;
    g.msg_segments = c.msg_segments;
    g.nack_gap = c.nack_gap;
    return g;
  }
  void cycle() {
    // One descriptor per cycle, like the RTL.
    if (!ingress_.empty()) {
      const Packet k = ingress_.front();
      ingress_.pop_front();
      const uint64_t before = rx_.counters(k.key).messages;
      rx_.segment(cycle_, k.key, k.idx, k.ts, k.rtx);
      const uint64_t after = rx_.counters(k.key).messages;
      if (after > before) {
        ReceiverFlow& f = fl_[k.key];
        f.messages = after;
        for (uint64_t m = before; m < after; ++m)
          for (uint32_t i = 0; i < cfg_.msg_segments; ++i) delivered(k.key, cfg_.seg_bytes);
        if (cfg_.segments && f.messages * cfg_.msg_segments >= cfg_.segments && f.done_us < 0) f.done_us = t_us();
      }
    }
    for (const RxEvent& e : rx_.take_acks()) {
      RxCtl x;
      x.flow = static_cast<uint16_t>(e.flow);
      x.type = e.type;
      x.cum_ack = e.cum_ack;
      x.sack_valid = e.sack_valid;
      x.sack_idx = e.sack_idx;
      x.ecn = e.ecn;
      x.grant = e.grant;
      send_ctl(x);
    }
    ++cycle_;
  }

  Gb0Receiver rx_;
  uint64_t cycle_ = 0;
};

}  // namespace tonic::netsim
