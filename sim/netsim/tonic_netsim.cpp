// SPDX-License-Identifier: Apache-2.0
// tonic-netsim: the Tonic sender and receiver RTL (Verilated C++ models in
// SystemC modules) in a SystemC network — hosts, links, an output-queued
// switch — driven by a scenario file (docs/netsim.md):
//
//   tonic-netsim --config protocols/<name>/netsim/<scenario>.json --out DIR
//                [--drops=5,37,38] [--drop-every=K] [--loss=p --seed=s]
//                [--trace-flow=N] [--duration-us=T] [--quiet]
//
// A protocol's scenarios live in its folder (the file's "protocol" names
// it); sim/netsim/configs/ holds those that run no protocol of the
// registry (the window-mode sender model).
//
// Writes DIR/cwnd.csv, tx.csv, flows.csv, summary.json (sim/common/
// run_output.hpp), and for rate protocols rate.csv; thr.csv when the
// scenario bins per-flow throughput. Exit 0: the run ended (complete or at
// its duration); 1: a check of the NICs failed (an address the sender may
// not send, a receiver decision out of order, ...) or the run did not
// complete before max_time_us; 2: a bad option or scenario.
#include "systemc.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "Vrx_1024x128.h"
#include "config.hpp"
#include "net.hpp"
#include "nic.hpp"
#include "window_mode_nic.hpp"
#include "sim/common/drop_rule.hpp"
#include "sim/common/net_stats.hpp"
#include "sim/common/progress.hpp"
#include "sim/common/run_output.hpp"
#include "tonic/net_models.hpp"
#include "tonic/protocol_registry.hpp"

using namespace tonic;
using namespace tonic::netsim;

namespace {

namespace registry = tonic::registry;

constexpr uint64_t kAckDelayCycles = 2000;  // rx_1024x128 AckDelay

/// Calls `fn` at time 0 and every `every` after (the scenario's "samples").
class Sampler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Sampler);
  Sampler(sc_core::sc_module_name n, sc_time every, std::function<void()> fn)
      : sc_module(n), every_(every), fn_(std::move(fn)) {
    SC_THREAD(run);
  }

 private:
  void run() {
    for (;;) {
      fn_();
      wait(every_);
    }
  }
  sc_time every_;
  std::function<void()> fn_;
};

/// A sender build: protocol, Verilated model and what the scenario must
/// agree with. Every entry but the window-mode sender comes from the
/// protocol registry (tonic/protocol_registry.hpp, generated from
/// protocols/*/): a new protocol folder's network builds appear here with
/// no edit.
struct Build {
  std::string protocol;
  std::string model;
  RxMode mode;
  bool rx_sack = false;       // the TCP receiver sends SACK blocks (receiver tcp_sack)
  bool host_restart = false;  // go-back-0: the host re-posts a message after a NACK or timeout
  uint32_t flows = 0, window = 0;
  uint64_t init_wnd = 0;      // window protocols: InitWnd
  uint64_t rto_cycles = 0;    // window protocols: RtoInit
  uint64_t line_ru = 0;       // rate protocols: line rate C / RateInit (RU = bytes per 2^20 cycles)
  ProtoProbe probe;
  std::function<SenderNicBase*(const char*, const SenderConfig&, Link*)> make;
};

template <class M>
SenderNicBase* make_sender(const char* n, const SenderConfig& c, Link* l) {
  return new SenderNic<M>(n, c, l);
}

/// The receiver engine mode that answers a protocol's receiver.
RxMode rx_mode(registry::Receiver r) {
  switch (r) {
    case registry::Receiver::kTcp:
    case registry::Receiver::kTcpSack: return RxMode::kTcp;
    case registry::Receiver::kRoce: return RxMode::kRoce;
    case registry::Receiver::kIrn: return RxMode::kIrn;
    case registry::Receiver::kNdp: return RxMode::kNdp;
  }
  throw std::logic_error("rx_mode: unknown receiver");
}

/// The trace probes of a protocol: its user_t fields by role (protocol.json "probes").
ProtoProbe probe_of(const registry::Protocol& p) {
  ProtoProbe q;
  q.window = p.credit == registry::Credit::kWindow;
  if (p.ssthresh.present()) {
    q.ss_lo = p.ssthresh.lsb;
    q.ss_w = p.ssthresh.width;
  }
  if (p.in_recovery.present()) q.rec_bit = p.in_recovery.lsb;
  if (p.dup_acks.present()) {
    q.dup_lo = p.dup_acks.lsb;
    q.dup_w = p.dup_acks.width;
  }
  if (p.rate.present()) {
    q.rate_lo = p.rate.lsb;
    q.rate_w = p.rate.width;
  }
  return q;
}

/// The network builds of every protocol (kBuilds with network set), then
/// the window-mode sender.
std::vector<Build> builds() {
  std::vector<Build> all;
  for (const registry::Build& rb : registry::kBuilds) {
    if (!rb.network) continue;
    const registry::Protocol& p = registry::kProtocols[static_cast<int>(rb.protocol)];
    Build b;
    b.protocol = p.name;
    b.model = rb.config;
    b.mode = rx_mode(p.receiver);
    b.rx_sack = p.receiver == registry::Receiver::kTcpSack;
    b.host_restart = p.host_restart;
    b.flows = rb.flows;
    b.window = rb.window;
    b.init_wnd = rb.init_wnd;
    if (p.credit == registry::Credit::kWindow) b.rto_cycles = rb.rto_init;
    if (p.credit == registry::Credit::kRate) b.line_ru = rb.rate_init;
    b.probe = probe_of(p);
    b.make = registry::with_net_model(rb.config, [](auto tag) {
      return std::function<SenderNicBase*(const char*, const SenderConfig&, Link*)>(
          make_sender<typename decltype(tag)::Model>);
    });
    all.push_back(std::move(b));
  }
  // Window mode: no Tonic protocol drives it; the window-mode sender model does.
  Build w;
  w.protocol = "window_mode";
  w.model = "window_mode::Sender (C++ model)";
  w.mode = RxMode::kWindow;
  w.flows = 1024;
  w.window = 128;
  w.make = [](const char* n, const SenderConfig& c, Link* l) -> SenderNicBase* { return new WindowModeSenderNic(n, c, l); };
  all.push_back(std::move(w));
  return all;
}

/// The build that fits the scenario, or std::invalid_argument listing the builds.
const Build& pick(const std::vector<Build>& all, const NetConfig& c) {
  std::string have;
  const Build* found = nullptr;
  for (const Build& b : all) {
    if (c.protocol != b.protocol) continue;
    std::string what = b.model;
    bool ok = true;
    if (b.rto_cycles) {
      const double rto_us = double(b.rto_cycles) * c.clock_ns / 1000.0;
      what += fmt::format(" (RTO {} us at this clock)", rto_us);
      if (c.has_tcp && std::fabs(rto_us - c.min_rto_us) > 1e-6) ok = false;
    }
    if (b.line_ru) {
      const double g = ru_gbps(b.line_ru, c.clock_ns);
      what += fmt::format(" (line rate {:.3g} Gb/s at this clock)", g);
      if (std::fabs(g - c.link_gbps) > 0.005 * c.link_gbps) ok = false;
    }
    have += (have.empty() ? "" : "; ") + what;
    if (ok && !found) found = &b;
  }
  if (have.empty()) {
    std::vector<std::string> seen;
    std::string names;
    for (const Build& b : all) {
      if (std::find(seen.begin(), seen.end(), b.protocol) != seen.end()) continue;
      seen.push_back(b.protocol);
      names += (names.empty() ? "" : ", ") + b.protocol;
    }
    throw std::invalid_argument("config.protocol: no build of \"" + c.protocol + "\" (protocols: " + names + ")");
  }
  if (!found)
    throw std::invalid_argument("no " + c.protocol + " build matches the scenario (tcp.min_rto_us / link.gbps at clock_ns " +
                                fmt::format("{}", c.clock_ns) + "); builds: " + have);
  return *found;
}

/// The window-credit protocols of the registry, comma-separated.
std::string window_protocols() {
  std::string names;
  for (const registry::Protocol& p : registry::kProtocols)
    if (p.credit == registry::Credit::kWindow) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

/// Scenario checks that depend on the build.
void check_against(const Build& b, const NetConfig& c) {
  if (c.flows() > b.flows) throw std::invalid_argument(fmt::format("config: {} flows, the build holds {}", c.flows(), b.flows));
  if (b.probe.window) {
    if (!c.has_tcp) throw std::invalid_argument("config.tcp: required for a window protocol");
    if (c.init_cwnd != b.init_wnd) throw std::invalid_argument(fmt::format("config.tcp.init_cwnd: the build's InitWnd is {}", b.init_wnd));
    if (c.max_window_segments != b.window)
      throw std::invalid_argument(fmt::format("config.tcp.max_window_segments: the build's Window is {}", b.window));
  } else if (c.has_tcp) {
    throw std::invalid_argument("config.tcp: only for the window protocols (" + window_protocols() + ")");
  }
  if (b.mode == RxMode::kTcp && c.delayed_ack) {
    const double want = double(kAckDelayCycles) * c.clock_ns / 1000.0;
    if (std::fabs(c.ack_delay_us - want) > 1e-6)
      throw std::invalid_argument(fmt::format("config.receiver.ack_delay_us: the receiver build's AckDelay is {} cycles = {} us at this clock",
                                              kAckDelayCycles, want));
  }
  if (b.mode != RxMode::kTcp && (c.delayed_ack || c.sack || c.ce_state_acks))
    throw std::invalid_argument("config.receiver: delayed_ack / sack / ce_state_acks are TCP receiver options");
  if (b.mode == RxMode::kWindow && (c.message_bytes == 0 || c.messages != 1))
    throw std::invalid_argument("config.message_bytes: window_mode sends one bounded message per flow");
  if (b.host_restart && c.message_bytes == 0) throw std::invalid_argument("config.message_bytes: go-back-0 needs bounded messages");
  if (c.message_bytes && c.segments_per_message() * c.messages > (1ull << 30))
    throw std::invalid_argument("config.message_bytes: more than 2^30 segments per flow");
}

struct Options {
  std::string config, out;
  std::string drops;
  uint64_t drop_every = 0;
  double loss = 0;
  uint64_t seed = 1;
  int64_t trace_flow = 0;
  double duration_us = -1;
  double reorder = -1;
  int64_t reorder_max_ns = -1;
  double warmup_us = -1;
  bool quiet = false;
};

int run(const Options& o) {
  NetConfig c = load_config(o.config);
  if (o.duration_us >= 0) c.duration_us = o.duration_us;
  if (o.warmup_us >= 0) c.warmup_us = o.warmup_us;
  if (c.duration_us > 0 && c.warmup_us >= c.duration_us)
    throw std::invalid_argument("warmup_us must be below duration_us");
  if (o.reorder >= 0) {
    if (c.reorder_max_ns == 0) throw std::invalid_argument("--reorder: the scenario has no switch.reorder (max_ns)");
    c.reorder = o.reorder;
  }
  if (o.reorder_max_ns >= 0) {
    if (c.reorder_max_ns == 0) throw std::invalid_argument("--reorder-max-ns: the scenario has no switch.reorder");
    if (o.reorder_max_ns < 1) throw std::invalid_argument("--reorder-max-ns: must be >= 1");
    c.reorder_max_ns = static_cast<uint64_t>(o.reorder_max_ns);
  }
  const std::vector<Build> all = builds();
  const Build& b = pick(all, c);
  check_against(b, c);
  sim::DropRule drops;
  drops.list = sim::DropRule::parse_list(o.drops);
  drops.every = o.drop_every;
  drops.loss = o.loss;
  drops.seed = o.seed;
  drops.check();
  if (o.trace_flow < 0 || uint64_t(o.trace_flow) >= c.flows())
    throw std::invalid_argument(fmt::format("--trace-flow: must be a flow key in 0..{}", c.flows() - 1));

  const uint32_t S = c.senders, fps = c.flows_per_sender, R = S;
  const uint64_t seg_per_flow = c.segments_per_message() * c.messages;
  const uint32_t last_len = c.message_bytes == 0 ? c.segment_bytes
                            : c.message_bytes % c.segment_bytes ? uint32_t(c.message_bytes % c.segment_bytes)
                                                                : c.segment_bytes;
  const sc_time clock(c.clock_ns, SC_NS);
  const sc_time delay(double(c.link_delay_ns), SC_NS);
  sc_core::sc_clock clk("clk", clock);

  SwitchConfig swc;
  swc.buffer_bytes = c.buffer_bytes;
  swc.shared = c.shared_buffer;
  swc.ecn = c.ecn;
  swc.kmin_bytes = c.kmin_bytes;
  swc.kmax_bytes = c.kmax_bytes;
  swc.pmax = c.pmax;
  swc.k_bytes = c.k_bytes;
  swc.k_packets = c.k_packets;
  swc.trim = c.trim;
  swc.pfc = c.pfc;
  swc.pfc_xoff_bytes = c.pfc_xoff_bytes;
  swc.pfc_xon_bytes = c.pfc_xon_bytes;
  swc.reorder = c.reorder;
  swc.reorder_max_ns = c.reorder_max_ns;
  swc.seed = o.seed * 0x9E3779B97F4A7C15ull + 11;
  Switch sw("switch", swc);

  std::vector<std::unique_ptr<Link>> up, down;
  for (uint32_t h = 0; h <= S; ++h) {
    up.emplace_back(std::make_unique<Link>(fmt::format("up{}", h).c_str(), c.link_gbps, delay));
    down.emplace_back(std::make_unique<Link>(fmt::format("down{}", h).c_str(), c.link_gbps, delay));
    up.back()->connect(&sw);
    sw.add_port(h, down.back().get());
    if (h < S) sw.add_upstream(up.back().get());
  }

  const uint32_t traced_sender = uint32_t(o.trace_flow) / fps, traced_local = uint32_t(o.trace_flow) % fps;
  sim::RunOutput out(o.out);
  std::FILE* rate_csv = nullptr;
  if (b.probe.rate_lo >= 0) {
    rate_csv = out.csv("rate.csv", "time_us,sender,flow,rate_gbps");
  }

  std::vector<std::unique_ptr<SenderNicBase>> senders;
  for (uint32_t s = 0; s < S; ++s) {
    SenderConfig sc;
    sc.host = s;
    sc.receiver = R;
    sc.flows = fps;
    sc.key_base = s * fps;
    sc.seg_bytes = c.segment_bytes;
    sc.header_bytes = c.header_bytes;
    sc.segments = seg_per_flow;
    sc.last_len = last_len;
    sc.msg_segments = static_cast<uint32_t>(c.segments_per_message());
    sc.restart_on_nack = b.host_restart;
    sc.trace_flow = s == traced_sender ? int(traced_local) : (b.probe.rate_lo >= 0 ? 0 : -1);
    sc.sample_cwnd = c.sample_us > 0 && b.probe.window;
    sc.probe = b.probe;
    sc.clock = clock;
    sc.start_us = c.start_us[s];
    sc.dma_packets = c.nic_queue_packets;
    // About one round trip, in cycles: 4 link delays + a data and a control packet's serialization.
    sc.holdoff_cycles = static_cast<uint64_t>((4.0 * double(c.link_delay_ns) +
                                               double(c.segment_bytes + c.header_bytes + c.ctl_bytes) * 16.0 / c.link_gbps) /
                                              c.clock_ns);
    senders.emplace_back(b.make(fmt::format("sender{}", s).c_str(), sc, up[s].get()));
    SenderNicBase& n = *senders.back();
    down[s]->connect(&n);
    if (s == traced_sender) {
      n.traces.cwnd = [&out](double t, int64_t w, int64_t ss) { out.cwnd(t, w, ss); };
      n.traces.tx = [&out](double t, uint64_t seg, bool rtx) { out.tx(t, seg, rtx); };
    }
    if (rate_csv)
      n.traces.rate = [rate_csv, s](double t, uint32_t f, double g) { fmt::print(rate_csv, "{:.3f},{},{},{:.4f}\n", t, s, f, g); };
  }
  // Bind the clocks (sc_in ports of the concrete NIC types).
  auto bind_clk = [&](sc_core::sc_module* m) {
    for (sc_core::sc_object* ch : m->get_child_objects())
      if (auto* p = dynamic_cast<sc_core::sc_in<bool>*>(ch)) p->bind(clk);
  };
  for (auto& s : senders) bind_clk(s.get());

  ReceiverConfig rc;
  rc.host = R;
  rc.flows = c.flows();
  rc.flows_per_sender = fps;
  rc.mode = b.mode;
  rc.delack = c.delayed_ack;
  rc.ce_state_acks = c.ce_state_acks;
  rc.sack = c.sack || b.rx_sack;
  rc.segments = seg_per_flow;
  rc.msg_segments = static_cast<uint32_t>(c.segments_per_message());
  rc.ctl_bytes = c.ctl_bytes;
  rc.seg_bytes = c.segment_bytes;
  rc.header_bytes = c.header_bytes;
  rc.drops = drops;
  rc.bin_flows = std::min(c.bin_flows, c.flows());
  rc.bin_us = c.bin_us;
  rc.warmup_us = c.warmup_us;
  std::unique_ptr<ReceiverNicBase> receiver;
  RtlReceiverNic<Vrx_1024x128>* rtl_rx = nullptr;
  if (b.host_restart) {
    receiver = std::make_unique<Gb0ReceiverNic>("receiver", rc, up[R].get());
  } else {
    auto* r = new RtlReceiverNic<Vrx_1024x128>("receiver", rc, up[R].get());
    rtl_rx = r;
    receiver.reset(r);
  }
  down[R]->connect(receiver.get());
  bind_clk(receiver.get());

  // The scenario's samples: the bottleneck port (towards the receiver) and every flow's cwnd.
  sim::NetStats net(out, c.flows(), c.sample_us);
  std::unique_ptr<Sampler> sampler;
  if (c.sample_us > 0) {
    sampler = std::make_unique<Sampler>("sampler", sc_time(c.sample_us, sc_core::SC_US), [&] {
      std::vector<int64_t> cwnd;
      cwnd.reserve(c.flows());
      for (auto& s : senders) cwnd.insert(cwnd.end(), s->cwnd().begin(), s->cwnd().end());
      net.sample(now_us(), sw.queue_bytes(R), sw.queue_packets(R), cwnd);
    });
  }

  // Run: in slices, until every flow completes (bounded) or the duration.
  const double end_us = c.duration_us > 0 ? c.duration_us : c.max_time_us;
  const bool bounded = c.message_bytes != 0;
  auto all_done = [&] {
    for (auto& s : senders)
      for (const SenderFlow& f : s->flows())
        if (f.done_us < 0) return false;
    return true;
  };
  auto errors = [&] {
    uint64_t e = receiver->errors();
    for (auto& s : senders) e += s->errors();
    return e;
  };
  sim::Progress prog(static_cast<uint64_t>(end_us), o.quiet, "tonic-netsim", "us simulated");
  const auto w0 = std::chrono::steady_clock::now();
  const double slice_us = std::max(1.0, std::min(100.0, end_us / 200));
  bool complete = false;
  while (now_us() < end_us) {
    sc_core::sc_start(sc_time(std::min(slice_us, end_us - now_us()), sc_core::SC_US));
    prog.update(static_cast<uint64_t>(now_us()));
    if (errors()) break;
    if (bounded && all_done()) {
      complete = true;
      break;
    }
  }
  prog.finish(static_cast<uint64_t>(now_us()));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  const double t_end = now_us();

  // Figures.
  sim::RunSummary sum;
  sum.simulator = "tonic";
  sum.scenario = c.name;
  sum.flows = c.flows();
  sum.sim_time_us = t_end;
  std::vector<sim::FlowRow> rows;
  double first = -1, last = 0;
  std::vector<double> thr;
  uint64_t segs_sent = 0, cycles = 0;
  for (uint32_t s = 0; s < S; ++s) {
    const auto& fl = senders[s]->flows();
    cycles = std::max(cycles, senders[s]->cycles());
    for (uint32_t f = 0; f < fps; ++f) {
      const SenderFlow& sf = fl[f];
      const ReceiverFlow& rf = receiver->flows()[s * fps + f];
      // Acked: a complete flow its whole data; otherwise what the receiver
      // delivered (the sender reports progress only by its notes, which
      // come when everything posted is acked).
      const uint64_t acked_bytes = sf.done_us >= 0 ? c.message_bytes * c.messages : rf.bytes;
      sum.bytes_acked += acked_bytes;
      sum.retransmitted_segments += sf.rtx;
      segs_sent += sf.sent;
      if (sf.done_us >= 0) ++sum.complete_flows;
      const double t1 = sf.done_us >= 0 ? sf.done_us : t_end;
      const double t0 = std::max(c.warmup_us, sf.first_tx_us >= 0 ? sf.first_tx_us : t1);
      if (sf.first_tx_us >= 0 && (first < 0 || sf.first_tx_us < first)) first = sf.first_tx_us;
      last = std::max(last, t1);
      const double mbps = t1 > t0 ? double(rf.bytes_measured) * 8.0 / (t1 - t0) : 0.0;
      rows.push_back({s, f, mbps, sf.rtx});
      thr.push_back(mbps);
    }
  }
  const SenderFlow& tf = senders[traced_sender]->flows()[traced_local];
  sum.completion_time_us = tf.done_us >= 0 ? tf.done_us - tf.first_tx_us : -1;
  sum.fast_retransmit_episodes = tf.fr_episodes;
  sum.timeouts = tf.timeouts;
  sum.goodput_gbps = last > first && first >= 0 ? double(sum.bytes_acked) * 8.0 / ((last - first) * 1000.0) : 0.0;
  out.flows(rows);

  // thr.csv: per-flow delivered throughput in bins.
  if (rc.bin_flows) {
    std::FILE* f = out.csv("thr.csv", "time_us,sender,flow,throughput_mbps");
    const Bins& bins = receiver->bins();
    size_t nb = 0;
    for (const auto& v : bins) nb = std::max(nb, v.size());
    for (size_t i = 0; i < nb; ++i)
      for (uint32_t k = 0; k < bins.size(); ++k) {
        const uint64_t by = i < bins[k].size() ? bins[k][i] : 0;
        fmt::print(f, "{:.3f},{},{},{:.3f}\n", double(i) * c.bin_us, k / fps, k % fps, double(by) * 8.0 / c.bin_us);
      }
    std::fclose(f);
  }
  if (rate_csv) std::fclose(rate_csv);

  double mean = 0, sd = 0, mn = thr.empty() ? 0 : thr[0], mx = 0;
  for (double v : thr) {
    mean += v;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  mean /= std::max<size_t>(1, thr.size());
  for (double v : thr) sd += (v - mean) * (v - mean);
  sd = std::sqrt(sd / std::max<size_t>(1, thr.size()));
  uint64_t timeouts_all = 0, fr_all = 0, restarts = 0, messages = 0;
  for (auto& s : senders)
    for (const SenderFlow& f : s->flows()) {
      timeouts_all += f.timeouts;
      fr_all += f.fr_episodes;
      restarts += f.restarts;
    }
  uint64_t delivered_bytes = 0;
  const uint64_t spm = c.segments_per_message();
  for (const ReceiverFlow& f : receiver->flows()) {
    messages += b.host_restart ? f.messages : (spm ? f.delivered / spm : 0);
    delivered_bytes += f.bytes;
  }
  const uint64_t rx_bytes = down[R]->bytes_sent();
  nlohmann::json extra = {
      {"protocol", c.protocol},
      {"model", b.model},
      {"clock_ns", c.clock_ns},
      {"complete", complete},
      {"drops", receiver->dropped()},
      {"segments_sent", segs_sent},
      {"timeouts_all_flows", timeouts_all},
      {"fast_retransmit_episodes_all_flows", fr_all},
      {"restarts", restarts},
      {"messages_completed", messages},
      {"delivered_bytes", delivered_bytes},
      {"delivered_gbps", t_end > first && first >= 0 ? double(delivered_bytes) * 8.0 / ((t_end - first) * 1000.0) : 0.0},
      {"throughput_mbps", {{"mean", mean}, {"stddev", sd}, {"min", mn}, {"max", mx}}},
      {"receiver_link_utilization", t_end > 0 ? double(rx_bytes) * 8.0 / (c.link_gbps * 1000.0 * t_end) : 0.0},
      {"switch",
       {{"enqueued", sw.stats().enqueued}, {"dropped", sw.stats().dropped}, {"trimmed", sw.stats().trimmed},
        {"ecn_marked", sw.stats().marked}, {"reordered", sw.stats().reordered}, {"pfc_pauses", sw.stats().pfc_pauses},
        {"max_queue_bytes", sw.stats().max_queue_bytes}}},
      {"errors", errors()},
      {"wall_s", wall},
      {"tonic_cycles", cycles},
      {"cycles_per_s", wall > 0 ? double(cycles) / wall : 0.0},
      {"options", {{"drops", o.drops}, {"drop_every", o.drop_every}, {"loss", o.loss}, {"seed", o.seed}, {"trace_flow", o.trace_flow}}},
  };
  // The senders' bad-input counters, summed (docs/robustness.md): e.g.
  // rx_stale_ack counts the acks that reordering made old.
  std::map<std::string, uint64_t> bad;
  for (auto& s : senders)
    for (const auto& [name, v] : s->bad_input()) bad[name] += v;
  extra["sender_bad_input"] = bad;
  if (rtl_rx) {
    const RxEngineStats st = rtl_rx->stats();
    extra["receiver"] = {{"duplicate", st.duplicate}, {"beyond", st.beyond}, {"gbn_drop", st.gbn_drop},
                         {"nack_supp", st.nack_supp}, {"cnp_supp", st.cnp_supp}, {"ctl_sent", st.ctl_sent},
                         {"unknown", st.unknown}, {"trimmed", st.trimmed}, {"completed", st.completed}};
  }
  std::vector<sim::FlowStat> fstats;
  for (uint32_t s = 0; s < S; ++s)
    for (uint32_t f = 0; f < fps; ++f) {
      const SenderFlow& sf = senders[s]->flows()[f];
      sim::FlowStat st;
      st.key = s * fps + f;
      st.sender = s;
      st.flow = f;
      st.first_tx_us = sf.first_tx_us;
      st.completion_us = sf.done_us >= 0 && sf.first_tx_us >= 0 ? sf.done_us - sf.first_tx_us : -1;
      st.throughput_mbps = rows[st.key].throughput_mbps;
      st.fast_retransmits = sf.fr_episodes;
      st.timeouts = sf.timeouts;
      st.retransmits = sf.rtx;
      fstats.push_back(st);
    }
  extra["network"] = net.finish(fstats, sw.stats().arrivals,
                                sim::marking_json(c.ecn, c.k_bytes, c.k_packets, c.kmin_bytes, c.kmax_bytes, c.pmax),
                                sw.stats().dropped);
  std::string first_error = receiver->first_error();
  for (auto& s : senders)
    if (first_error.empty()) first_error = s->first_error();
  if (!first_error.empty()) extra["first_error"] = first_error;
  out.summary(sum, extra);

  fmt::print("tonic-netsim {}: {} ({}), {} flows, {:.1f} us simulated in {:.1f} s ({:.0f} cycles/s)\n", c.name, c.protocol,
             b.model, c.flows(), t_end, wall, wall > 0 ? double(cycles) / wall : 0.0);
  fmt::print("  acked {} B, goodput {:.3f} Gb/s, complete flows {}/{}, retransmitted {}, timeouts (traced) {}, "
             "fast-retransmit episodes (traced) {}, drops {}\n",
             sim::grp(sum.bytes_acked), sum.goodput_gbps, sum.complete_flows, sum.flows, sum.retransmitted_segments,
             sum.timeouts, sum.fast_retransmit_episodes, receiver->dropped());
  fmt::print("  per-flow throughput: mean {:.2f} Mb/s, stddev {:.3f}, min {:.2f}, max {:.2f}; switch: dropped {}, marked {}, max queue {} B\n",
             mean, sd, mn, mx, sw.stats().dropped, sw.stats().marked, sw.stats().max_queue_bytes);
  if (sum.completion_time_us >= 0) fmt::print("  traced flow {}: completion {:.3f} us\n", o.trace_flow, sum.completion_time_us);
  {
    const nlohmann::json& nw = extra["network"];
    fmt::print("  network: Jain {:.4f}, {} flows complete", nw["jain_index"].get<double>(),
               nw["completion_us"]["complete"].get<uint64_t>());
    if (!nw["queue"].is_null())
      fmt::print(", bottleneck queue mean {:.1f} packets (p99 {}), {} of {} data packets marked",
                 nw["queue"]["packets"]["mean"].get<double>(), nw["queue"]["packets"]["p99"].get<double>(),
                 sw.stats().arrivals.marked, sw.stats().arrivals.data);
    fmt::print("\n");
  }
  fmt::print("  output: {}\n", o.out);
  if (errors()) {
    fmt::print(stderr, "tonic-netsim: FAILED: {}\n", first_error);
    return 1;
  }
  if (bounded && c.duration_us == 0 && !complete) {
    fmt::print(stderr, "tonic-netsim: not complete after max_time_us = {} us\n", c.max_time_us);
    return 1;
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  Options o;
  CLI::App app{"tonic-netsim: the Tonic RTL in a SystemC network (docs/netsim.md)"};
  app.add_option("--config", o.config, "scenario file (JSON)")->required()->check(CLI::ExistingFile);
  app.add_option("--out", o.out, "output directory (default build/netsim/<scenario name>)");
  app.add_option("--drops", o.drops, "segment indices dropped at the receiver NIC on their first arrival, e.g. 5,37,38");
  app.add_option("--drop-every", o.drop_every, "drop every K-th segment (indices K-1, 2K-1, ...) on its first arrival");
  app.add_option("--loss", o.loss, "drop each arrival with this probability (hash of seed, flow, index, arrival)")
      ->check(CLI::Range(0.0, 0.999999));
  app.add_option("--seed", o.seed, "seed of --loss and of the switch's ECN / reordering draws");
  app.add_option("--trace-flow", o.trace_flow, "flow key traced in cwnd.csv / tx.csv (sender * flows_per_sender + flow)");
  app.add_option("--duration-us", o.duration_us, "override the scenario's duration_us");
  app.add_option("--warmup-us", o.warmup_us, "override the scenario's warmup_us");
  app.add_option("--reorder", o.reorder, "override switch.reorder.probability")->check(CLI::Range(0.0, 1.0));
  app.add_option("--reorder-max-ns", o.reorder_max_ns, "override switch.reorder.max_ns");
  app.add_flag("--quiet", o.quiet, "no progress");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    if (o.out.empty()) o.out = "build/netsim/" + load_config(o.config).name;
    return run(o);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "tonic-netsim: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tonic-netsim: error: {}\n", e.what());
    return 1;
  }
}

// Our own main: SystemC prints its banner before sc_main unless told not to.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
