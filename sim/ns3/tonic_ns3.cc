// SPDX-License-Identifier: Apache-2.0
// tonic-ns3 — the ns-3 side of the network-simulation comparison: the
// experiment of a tonic-netsim config (sim/netsim/configs/*.json) run in
// ns-3 3.37 with its own TcpNewReno, writing the same files (cwnd.csv,
// tx.csv, flows.csv, summary.json through sim/common/run_output.hpp) and
// dropping the same data segments (sim/common/drop_rule.hpp, decided at the
// receiver host's NIC). The config is read by tonic-netsim's parser
// (sim/netsim/config.hpp), then checked for what ns-3 models (check_ns3).
//
// Topology: sender host(s) -> one switch (an IPv4 router) -> one receiver
// host, point-to-point links, a drop-tail byte-limited queue per egress
// port and no traffic-control queue disc. One BulkSendApplication per flow,
// one PacketSink per flow (port kBasePort + flow key) on the receiver.
//
// Exit status: 0 ok, 1 a run-time error (output not writable, ns-3
// refused a trace), 2 bad command line or config.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/ppp-header.h>
#include <ns3/traffic-control-module.h>

#include "sim/common/drop_rule.hpp"
#include "sim/common/run_output.hpp"
#include "sim/netsim/config.hpp"

namespace {

using nlohmann::json;
using tonic::sim::DropRule;
using tonic::sim::FlowRow;
using tonic::sim::RunOutput;
using tonic::sim::RunSummary;

constexpr uint16_t kBasePort = 1024;     // flow key k listens on kBasePort + k
constexpr uint32_t kMaxFlows = 60000;    // so that every port fits in 16 bits
constexpr uint32_t kHeaderBytes = 42;    // TCP 20 + IPv4 20 + PPP 2 (no options)

/// A bad command line or config: exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// The config file: sim/netsim/config.hpp (tonic-netsim's parser: every key
// checked), then what ns-3 models of it.

using tonic::netsim::NetConfig;

/// A time in microseconds (a config's double) as an ns-3 time, to the ns.
ns3::Time us(double t) { return ns3::NanoSeconds(static_cast<int64_t>(std::llround(t * 1000.0))); }

double stop_us(const NetConfig& c) { return c.duration_us > 0 ? std::min(c.duration_us, c.max_time_us) : c.max_time_us; }

/// Refuses (UsageError naming the key) what tonic-ns3 does not model.
void check_ns3(const NetConfig& c) {
  auto fail = [](const std::string& key, const std::string& why) { throw UsageError("config." + key + ": " + why); };
  if (c.protocol != "newreno") fail("protocol", "ns-3 runs only \"newreno\" (TcpNewReno), got \"" + c.protocol + "\"");
  if (c.flows() > kMaxFlows)
    fail("flows_per_sender", fmt::format("{} senders x {} flows exceeds {} flows", c.senders, c.flows_per_sender, kMaxFlows));
  if (c.segment_bytes > 8960) fail("segment_bytes", fmt::format("must be at most 8960 for ns-3, got {}", c.segment_bytes));
  if (c.header_bytes != kHeaderBytes || c.ctl_bytes != kHeaderBytes)
    fail(c.header_bytes != kHeaderBytes ? "header_bytes" : "ctl_bytes",
         fmt::format("must be {} for ns-3 (TCP 20 + IPv4 20 + PPP 2)", kHeaderBytes));
  if (c.messages != 1) fail("messages", "must be 1 for ns-3 (one BulkSend message per flow)");
  if (c.buffer_bytes < c.segment_bytes + kHeaderBytes || c.buffer_bytes > std::numeric_limits<uint32_t>::max())
    fail("switch.buffer_bytes", fmt::format("must be in [{}, 2^32) for ns-3", c.segment_bytes + kHeaderBytes));
  if (c.ecn) fail("switch.ecn", "must be null for ns-3 (no ECN marking)");
  if (c.trim) fail("switch.trim", "must be false for ns-3 (no trimming)");
  if (c.pfc) fail("switch.pfc", "must be null for ns-3 (no PFC)");
  if (c.reorder != 0 || c.reorder_max_ns != 0) fail("switch.reorder", "must be null for ns-3 (no reordering)");
  if (c.sack) fail("receiver.sack", "must be false for ns-3 (TcpNewReno without SACK)");
  if (c.delayed_ack && !(c.ack_delay_us > 0)) fail("receiver.ack_delay_us", "must be > 0 with delayed_ack");
  if (c.ack_delay_us < 0) fail("receiver.ack_delay_us", "must be >= 0");
  if (!c.has_tcp) fail("tcp", "required for ns-3 (min_rto_us, init_cwnd, max_window_segments)");
  if (!(c.min_rto_us > 0 && c.min_rto_us <= 60e6)) fail("tcp.min_rto_us", "must be in (0, 60000000]");
  if (c.max_window_segments < 2 || c.max_window_segments > 65536) fail("tcp.max_window_segments", "must be in [2, 65536]");
  if (c.init_cwnd < 1 || c.init_cwnd > c.max_window_segments)
    fail("tcp.init_cwnd", fmt::format("must be in [1, max_window_segments = {}], got {}", c.max_window_segments, c.init_cwnd));
  if (uint64_t{c.max_window_segments} * c.segment_bytes > (uint64_t{1} << 30))
    fail("tcp.max_window_segments", "max_window_segments * segment_bytes exceeds 1 GiB");
}

NetConfig read_config(const std::string& file) {
  NetConfig c;
  try {
    c = tonic::netsim::load_config(file);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  try {
    check_ns3(c);
  } catch (const UsageError& e) {
    throw UsageError(file + ": " + e.what());
  }
  return c;
}

// ---------------------------------------------------------------------------
// The run.

/// 64-bit position of a 32-bit TCP sequence number that moves forward by
/// less than 2^31 between two looks (so bulk flows past 4 GiB work).
struct Unwrap {
  uint64_t last = 0;
  uint64_t operator()(uint32_t seq) {
    const int32_t d = static_cast<int32_t>(seq - static_cast<uint32_t>(last));
    last = static_cast<uint64_t>(static_cast<int64_t>(last) + d);
    return last;
  }
};

struct Run;

/// One flow: its sender socket's traces and figures.
struct Flow {
  Run* run = nullptr;
  uint32_t key = 0, sender = 0, number = 0;
  bool traced = false;
  ns3::Ptr<ns3::BulkSendApplication> app;
  Unwrap tx_seq, ack_seq;
  std::vector<bool> sent;   // segment index -> sent before
  uint64_t retransmits = 0;
  int64_t first_tx_ns = -1;
  uint64_t acked = 0;       // bytes
  uint64_t acked_warmup = 0;// bytes acked at warmup_us
  int64_t done_ns = -1;     // every byte of the message acked
  uint64_t recoveries = 0;  // entries into CA_RECOVERY
  uint64_t loss_entries = 0;// entries into CA_LOSS
  uint64_t timeouts = 0;    // RTO expiries (the RTO doubles on each)
};

struct Run {
  NetConfig cfg;
  DropRule rule;
  uint32_t trace_flow = 0;
  bool quiet = false;
  std::unique_ptr<RunOutput> out;
  std::vector<Flow> flows;
  uint32_t complete = 0;
  uint64_t queue_drops = 0;  // the switch's drop-tail buffers
  uint64_t host_drops = 0;   // host NIC queues (expected 0)
  uint64_t rule_drops = 0;

  double now_us() const { return static_cast<double>(ns3::Simulator::Now().GetNanoSeconds()) / 1000.0; }
};

/// The drop rule at the receiver host's NIC: an ns-3 receive error model
/// that sees every frame arriving there (PPP header still on).
class DropRuleModel : public ns3::ErrorModel {
 public:
  explicit DropRuleModel(Run* run) : run_(run), arrivals_(run->flows.size()), seq_(run->flows.size()) {}

 private:
  bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override {
    ns3::Ptr<ns3::Packet> c = p->Copy();
    ns3::PppHeader ppp;
    if (c->RemoveHeader(ppp) == 0 || ppp.GetProtocol() != 0x0021) return false;  // IPv4 only
    ns3::Ipv4Header ip;
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != ns3::TcpL4Protocol::PROT_NUMBER) return false;
    ns3::TcpHeader tcp;
    c->RemoveHeader(tcp);
    if (c->GetSize() == 0) return false;  // SYN, FIN or a pure ack: never dropped
    const uint32_t port = tcp.GetDestinationPort();
    if (port < kBasePort || port - kBasePort >= run_->flows.size()) return false;
    const uint32_t key = port - kBasePort;
    const uint64_t idx = (seq_[key](tcp.GetSequenceNumber().GetValue()) - 1) / run_->cfg.segment_bytes;
    const uint64_t arrival = arrivals_[key][idx]++;
    const bool drop = run_->rule.drop(key, idx, arrival);
    if (drop) ++run_->rule_drops;
    return drop;
  }
  void DoReset() override {}

  Run* run_;
  std::vector<std::unordered_map<uint64_t, uint64_t>> arrivals_;  // per flow: index -> arrivals so far
  std::vector<Unwrap> seq_;
};

/// The sender socket: ns-3's TcpSocketBase with one fix. In ns-3 3.37, when
/// the peer's receive window ends at (or within a segment of) the next new
/// segment while cwnd - pipe > 0 — a receive-window-limited sender in fast
/// recovery — NextSeg() hands SendPendingData() an empty (or partial) range
/// and it sends a 0-byte segment, which dereferences a null TcpTxItem
/// (SIGSEGV in TcpRateLinux::SkbSent). Here that case reports no room, as
/// the window means: the sender waits for the next ack. Nothing else
/// differs (TcpNewReno, TcpClassicRecovery, the Config defaults).
class WindowSafeTcpSocket : public ns3::TcpSocketBase {
 protected:
  uint32_t AvailableWindow() const override {
    const uint32_t w = ns3::TcpSocketBase::AvailableWindow();
    if (w == 0) return 0;
    ns3::SequenceNumber32 next, high;
    if (m_txBuffer->NextSeg(&next, &high, false)) {
      const uint32_t room = static_cast<uint32_t>(high - next);
      const uint32_t seg = m_tcb->m_segmentSize;
      if (room < seg && m_txBuffer->SizeFromSequence(next) > room) return 0;
    }
    return w;
  }
};

/// Creates WindowSafeTcpSocket senders the way TcpL4Protocol::CreateSocket
/// creates TcpSocketBase ones; aggregated to each sender host and named by
/// BulkSendApplication's "Protocol" attribute.
class WindowSafeTcpFactory : public ns3::SocketFactory {
 public:
  static ns3::TypeId GetTypeId() {
    static const ns3::TypeId tid =
        ns3::TypeId("tonic::WindowSafeTcpFactory").SetParent<ns3::SocketFactory>().SetGroupName("Tonic");
    return tid;
  }
  ns3::Ptr<ns3::Socket> CreateSocket() override {
    ns3::Ptr<ns3::Node> node = GetObject<ns3::Node>();
    ns3::Ptr<ns3::TcpL4Protocol> tcp = node->GetObject<ns3::TcpL4Protocol>();
    ns3::Ptr<WindowSafeTcpSocket> s = ns3::CreateObject<WindowSafeTcpSocket>();
    s->SetNode(node);
    s->SetTcp(tcp);
    s->SetRtt(ns3::CreateObject<ns3::RttMeanDeviation>());
    s->SetCongestionControlAlgorithm(ns3::CreateObject<ns3::TcpNewReno>());
    s->SetRecoveryAlgorithm(ns3::CreateObject<ns3::TcpClassicRecovery>());
    tcp->AddSocket(s);
    return s;
  }
};

int64_t now_ns() { return ns3::Simulator::Now().GetNanoSeconds(); }

void on_tx(Flow* f, ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>) {
  if (p->GetSize() == 0) return;
  const uint64_t idx = (f->tx_seq(h.GetSequenceNumber().GetValue()) - 1) / f->run->cfg.segment_bytes;
  if (f->first_tx_ns < 0) f->first_tx_ns = now_ns();
  if (idx >= f->sent.size()) f->sent.resize(std::max<uint64_t>(idx + 1, 2 * f->sent.size()), false);
  const bool retx = f->sent[idx];
  f->sent[idx] = true;
  if (retx) ++f->retransmits;
  if (f->traced) f->run->out->tx(f->run->now_us(), idx, retx);
}

void on_rx(Flow* f, ns3::Ptr<const ns3::Packet>, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>) {
  if (!(h.GetFlags() & ns3::TcpHeader::ACK)) return;
  Run* r = f->run;
  const uint64_t ack = f->ack_seq(h.GetAckNumber().GetValue());
  uint64_t bytes = ack > 0 ? ack - 1 : 0;  // data starts at sequence number 1
  if (r->cfg.message_bytes) bytes = std::min(bytes, r->cfg.message_bytes);  // the FIN takes one number
  if (bytes <= f->acked) return;
  f->acked = bytes;
  if (r->cfg.message_bytes && bytes == r->cfg.message_bytes && f->done_ns < 0) {
    f->done_ns = now_ns();
    if (++r->complete == r->flows.size() && r->cfg.duration_us == 0) ns3::Simulator::Stop();
  }
}

void on_cong_state(Flow* f, ns3::TcpSocketState::TcpCongState_t, ns3::TcpSocketState::TcpCongState_t now) {
  if (now == ns3::TcpSocketState::CA_RECOVERY) ++f->recoveries;
  if (now == ns3::TcpSocketState::CA_LOSS) ++f->loss_entries;
}

/// ns-3 doubles the RTO (capped at 60 s) on every expiry and recomputes it
/// only from RTT samples otherwise; with MinRto far above the RTT the
/// estimate never doubles by itself, so a doubling is an expiry.
void on_rto(Flow* f, ns3::Time old_rto, ns3::Time new_rto) {
  const ns3::Time cap = ns3::Seconds(60);
  if (new_rto > old_rto && (new_rto == old_rto * 2 || (new_rto == cap && old_rto * 2 > cap))) ++f->timeouts;
}

int64_t ssthresh_segments(uint32_t bytes, uint32_t seg) {
  return bytes == std::numeric_limits<uint32_t>::max() ? -1 : static_cast<int64_t>(bytes / seg);
}

struct CwndTrace {
  Run* run;
  uint32_t cwnd = 0, ssthresh = std::numeric_limits<uint32_t>::max();
  void write() {
    const uint32_t seg = run->cfg.segment_bytes;
    run->out->cwnd(run->now_us(), cwnd / seg, ssthresh_segments(ssthresh, seg));
  }
};

void on_cwnd(CwndTrace* t, uint32_t, uint32_t now) {
  t->cwnd = now;
  t->write();
}
void on_ssthresh(CwndTrace* t, uint32_t, uint32_t now) {
  t->ssthresh = now;
  t->write();
}

template <class F>
void connect(ns3::Ptr<ns3::Object> o, const char* source, F cb) {
  if (!o->TraceConnectWithoutContext(source, cb))
    throw std::runtime_error(std::string("ns-3 refused trace source ") + source + " of " +
                             o->GetInstanceTypeId().GetName());
}

/// Connects the traces of the sender sockets of one sender host (they exist
/// once its applications have started, at its topology.start_us).
void hook_sockets(Run* r, CwndTrace* ct, uint32_t sender) {
  for (Flow& f : r->flows) {
    if (f.sender != sender) continue;
    ns3::Ptr<ns3::Socket> s = f.app->GetSocket();
    if (!s) throw std::runtime_error(fmt::format("flow {} has no socket at its start", f.key));
    connect(s, "Tx", ns3::MakeBoundCallback(&on_tx, &f));
    connect(s, "Rx", ns3::MakeBoundCallback(&on_rx, &f));
    connect(s, "CongState", ns3::MakeBoundCallback(&on_cong_state, &f));
    connect(s, "RTO", ns3::MakeBoundCallback(&on_rto, &f));
    if (f.traced) {
      connect(s, "CongestionWindow", ns3::MakeBoundCallback(&on_cwnd, ct));
      connect(s, "SlowStartThreshold", ns3::MakeBoundCallback(&on_ssthresh, ct));
    }
  }
}

void progress(Run* r, int tenth) {
  fmt::print(stderr, "tonic-ns3: {:3}% simulated ({:.0f} us), {}/{} flows complete\n", tenth * 10, r->now_us(),
             r->complete, r->flows.size());
}

void set_defaults(const NetConfig& c) {
  using namespace ns3;
  ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
  // RFC 6582 fast recovery with window inflation, as Tonic's NewReno (the
  // ns-3 default is proportional rate reduction).
  ns3::Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
  ns3::Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
  ns3::Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
  ns3::Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
  ns3::Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));  // Tonic has none
  ns3::Config::SetDefault("ns3::TcpSocketBase::ReTxThreshold", UintegerValue(3));
  ns3::Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(us(c.min_rto_us)));
  ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(c.segment_bytes));
  ns3::Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(c.init_cwnd));
  ns3::Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(c.delayed_ack ? 2 : 1));
  ns3::Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(us(c.ack_delay_us)));
  const uint32_t window = c.max_window_segments * c.segment_bytes;
  ns3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(window));
  ns3::Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(std::max<uint32_t>(8 * window, 1u << 20)));
}

int run(Run& r) {
  using namespace ns3;
  const NetConfig& c = r.cfg;
  set_defaults(c);

  NodeContainer senders(c.senders), sw(1), receiver(1);
  InternetStackHelper stack;
  stack.Install(senders);
  stack.Install(sw);
  stack.Install(receiver);
  for (uint32_t i = 0; i < c.senders; ++i) senders.Get(i)->AggregateObject(CreateObject<WindowSafeTcpFactory>());

  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(c.link_gbps * 1e9))));
  p2p.SetDeviceAttribute("Mtu", UintegerValue(std::max<uint32_t>(1500, c.segment_bytes + 40)));
  p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(c.link_delay_ns)));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
               QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(c.buffer_bytes))));

  Ipv4AddressHelper addr("10.0.0.0", "255.255.255.252");
  NetDeviceContainer all;
  for (uint32_t i = 0; i < c.senders; ++i) {
    NetDeviceContainer d = p2p.Install(senders.Get(i), sw.Get(0));
    addr.Assign(d);
    addr.NewNetwork();
    all.Add(d);
  }
  NetDeviceContainer down = p2p.Install(sw.Get(0), receiver.Get(0));
  const Ipv4InterfaceContainer rx_if = addr.Assign(down);
  all.Add(down);
  // Assign() installs ns-3's default queue disc (FqCoDel) on every device;
  // remove it so that the device's drop-tail byte queue is the only buffer.
  TrafficControlHelper().Uninstall(all);
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();

  // buffer_bytes is the switch's buffer per egress port; a host's NIC queue
  // never drops (it only holds the windows of its own flows).
  for (uint32_t i = 0; i < all.GetN(); ++i) {
    Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(all.Get(i));
    if (dev->GetNode() != sw.Get(0))
      dev->GetQueue()->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, std::numeric_limits<uint32_t>::max()));
  }

  // Buffer overflow: a full device queue drops on enqueue; without a queue
  // disc the traffic-control layer drops the packet (its "TcDrop") when the
  // device has stopped its queue because the next packet would not fit.
  auto count_drop = +[](uint64_t* n, Ptr<const Packet>) { ++*n; };
  for (uint32_t i = 0; i < all.GetN(); ++i) {
    Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(all.Get(i));
    uint64_t* n = dev->GetNode() == sw.Get(0) ? &r.queue_drops : &r.host_drops;
    connect(dev->GetQueue(), "Drop", MakeBoundCallback(count_drop, n));
  }
  const NodeContainer nodes = NodeContainer::GetGlobal();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    uint64_t* n = nodes.Get(i) == sw.Get(0) ? &r.queue_drops : &r.host_drops;
    connect(nodes.Get(i)->GetObject<TrafficControlLayer>(), "TcDrop", MakeBoundCallback(count_drop, n));
  }
  Ptr<PointToPointNetDevice> rx_nic = DynamicCast<PointToPointNetDevice>(down.Get(1));

  const Ipv4Address rx_ip = rx_if.GetAddress(1);
  r.flows.resize(c.flows());
  ApplicationContainer sinks;
  for (uint32_t i = 0; i < c.senders; ++i) {
    for (uint32_t n = 0; n < c.flows_per_sender; ++n) {
      const uint32_t key = i * c.flows_per_sender + n;
      const uint16_t port = static_cast<uint16_t>(kBasePort + key);
      Flow& f = r.flows[key];
      f.run = &r;
      f.key = key;
      f.sender = i;
      f.number = n;
      f.traced = key == r.trace_flow;
      PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
      sinks.Add(sink.Install(receiver.Get(0)));
      BulkSendHelper bulk("tonic::WindowSafeTcpFactory", InetSocketAddress(rx_ip, port));
      bulk.SetAttribute("MaxBytes", UintegerValue(c.message_bytes));
      bulk.SetAttribute("SendSize", UintegerValue(c.segment_bytes));
      ApplicationContainer a = bulk.Install(senders.Get(i));
      f.app = DynamicCast<BulkSendApplication>(a.Get(0));
      a.Start(us(c.start_us[i]));
    }
  }
  sinks.Start(Seconds(0));

  rx_nic->SetReceiveErrorModel(CreateObject<DropRuleModel>(&r));

  CwndTrace ct{&r};
  ct.cwnd = c.init_cwnd * c.segment_bytes;
  for (uint32_t i = 0; i < c.senders; ++i)
    Simulator::Schedule(us(c.start_us[i]) + NanoSeconds(1), [&r, &ct, i] {
      hook_sockets(&r, &ct, i);
      if (r.flows[r.trace_flow].sender == i) r.out->cwnd(r.cfg.start_us[i], r.cfg.init_cwnd, -1);
    });
  // flows.csv throughput counts from warmup_us, as tonic-netsim's.
  const int64_t warmup_ns = us(c.warmup_us).GetNanoSeconds();
  if (warmup_ns > 0)
    Simulator::Schedule(NanoSeconds(warmup_ns), [&r] {
      for (Flow& f : r.flows) f.acked_warmup = f.acked;
    });
  const Time stop = us(stop_us(c));
  if (!r.quiet)
    for (int k = 1; k < 10; ++k) Simulator::Schedule(stop * k / 10, &progress, &r, k);
  Simulator::Stop(stop);
  Simulator::Run();
  const int64_t end_ns = now_ns();
  if (!r.quiet)
    fmt::print(stderr, "tonic-ns3: done at {:.3f} us, {}/{} flows complete\n", r.now_us(), r.complete, r.flows.size());

  // --- Figures. ---
  RunSummary s;
  s.simulator = "ns3";
  s.scenario = c.name;
  s.flows = static_cast<uint32_t>(r.flows.size());
  s.complete_flows = r.complete;
  s.sim_time_us = static_cast<double>(end_ns) / 1000.0;
  int64_t first_ns = -1, last_ns = 0;
  uint64_t all_timeouts = 0, all_recoveries = 0;
  std::vector<FlowRow> rows;
  for (const Flow& f : r.flows) {
    s.bytes_acked += f.acked;
    s.retransmitted_segments += f.retransmits;
    all_timeouts += f.timeouts;
    all_recoveries += f.recoveries;
    if (f.first_tx_ns >= 0 && (first_ns < 0 || f.first_tx_ns < first_ns)) first_ns = f.first_tx_ns;
    const int64_t f_end = f.done_ns >= 0 ? f.done_ns : end_ns;
    last_ns = std::max(last_ns, f_end);
    FlowRow row;
    row.sender = f.sender;
    row.flow = f.number;
    row.retransmits = f.retransmits;
    const int64_t t0_ns = std::max(warmup_ns, f.first_tx_ns);
    if (f.first_tx_ns >= 0 && f_end > t0_ns)
      row.throughput_mbps =
          static_cast<double>(f.acked - f.acked_warmup) * 8.0 / static_cast<double>(f_end - t0_ns) * 1e3;
    rows.push_back(row);
  }
  const Flow& t = r.flows[r.trace_flow];
  if (t.done_ns >= 0 && t.first_tx_ns >= 0) s.completion_time_us = static_cast<double>(t.done_ns - t.first_tx_ns) / 1000.0;
  s.fast_retransmit_episodes = t.recoveries;
  s.timeouts = t.timeouts;
  if (first_ns >= 0 && last_ns > first_ns)
    s.goodput_gbps = static_cast<double>(s.bytes_acked) * 8.0 / static_cast<double>(last_ns - first_ns);

  r.out->flows(rows);
  json options = {{"drops", std::vector<uint64_t>(r.rule.list.begin(), r.rule.list.end())},
                  {"drop_every", r.rule.every},
                  {"loss", r.rule.loss},
                  {"seed", r.rule.seed},
                  {"trace_flow", r.trace_flow}};
  json extra = {{"drops", r.rule_drops},
                {"queue_drops", r.queue_drops},
                {"host_queue_drops", r.host_drops},
                {"loss_state_entries", t.loss_entries},
                {"timeouts_all_flows", all_timeouts},
                {"fast_retransmit_episodes_all_flows", all_recoveries},
                {"data_phase_us", first_ns >= 0 ? static_cast<double>(last_ns - first_ns) / 1000.0 : 0.0},
                {"ns3", {{"version", "3.37"},
                         {"congestion_control", "ns3::TcpNewReno"},
                         {"recovery", "ns3::TcpClassicRecovery"},
                         {"limited_transmit", false}}},
                {"options", options},
                {"config", c.raw}};
  r.out->summary(s, extra);
  Simulator::Destroy();

  fmt::print("tonic-ns3 {}: {} flows ({} complete), {} bytes acked, goodput {:.3f} Gb/s, {} retransmitted segments, "
             "{} drops by the rule, {} queue drops\n",
             c.name, s.flows, s.complete_flows, s.bytes_acked, s.goodput_gbps, s.retransmitted_segments,
             r.rule_drops, r.queue_drops);
  fmt::print("traced flow {}: completion {:.3f} us, {} fast-retransmit episodes, {} timeouts -> {}\n", r.trace_flow,
             s.completion_time_us, s.fast_retransmit_episodes, s.timeouts, r.out->dir().string());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config_file, out_dir, drops_text;
  uint64_t every = 0, seed = 1;
  double loss = 0;
  uint32_t trace_flow = 0;
  bool quiet = false;

  CLI::App app{
      "tonic-ns3: a tonic-netsim experiment (config JSON) in ns-3 3.37 with TcpNewReno;\n"
      "writes cwnd.csv, tx.csv, flows.csv and summary.json into --out."};
  app.footer("Exit status: 0 ok, 1 run-time error, 2 bad options or config.");
  app.add_option("--config", config_file, "experiment config (sim/netsim/configs/*.json)")->required();
  app.add_option("--out", out_dir, "output directory")->required();
  app.add_option("--drops", drops_text, "drop these segment indices of every flow, first arrival only (5,37,38)");
  app.add_option("--drop-every", every, "drop every K-th segment (indices K-1, 2K-1, ...), first arrival only");
  app.add_option("--loss", loss, "drop each data segment arrival with this probability, in [0, 1)");
  app.add_option("--seed", seed, "seed of --loss")->capture_default_str();
  app.add_option("--trace-flow", trace_flow, "flow key traced in cwnd.csv / tx.csv / the summary")
      ->capture_default_str();
  app.add_flag("--quiet", quiet, "no progress lines on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "tonic-ns3: error: {} (see --help)\n", e.what());
    return 2;
  }

  Run r;
  try {
    r.rule.list = DropRule::parse_list(drops_text);
    r.rule.every = every;
    r.rule.loss = loss;
    r.rule.seed = seed;
    r.rule.check();
    r.cfg = read_config(config_file);
    if (trace_flow >= r.cfg.flows())
      throw UsageError(fmt::format("--trace-flow {} is not one of the {} flows (0..{})", trace_flow, r.cfg.flows(),
                                   r.cfg.flows() - 1));
  } catch (const std::exception& e) {
    fmt::print(stderr, "tonic-ns3: error: {}\n", e.what());
    return 2;
  }
  r.trace_flow = trace_flow;
  r.quiet = quiet;
  try {
    r.out = std::make_unique<RunOutput>(out_dir);
    return run(r);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tonic-ns3: error: {}\n", e.what());
    return 1;
  }
}
