// SPDX-License-Identifier: Apache-2.0
// The network of tonic-netsim (docs/netsim.md) as SystemC modules: packets,
// point-to-point links (serialization at the link rate, then a propagation
// delay, with an optional PFC-style pause) and an output-queued switch
// (shared or per-port buffer, drop-tail, ECN marking RED-style with
// Kmin/Kmax/Pmax or at a threshold K, optional NDP payload trimming, optional PFC pause of the
// upstream links, optional adaptive-routing-like reordering).
//
// Time is SystemC time (1 ps resolution). The NICs (nic.hpp) are clocked
// modules; links and the switch are event driven. Everything is
// deterministic: same config, same options -> the same run.
#pragma once

#include "systemc.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/common/net_stats.hpp"  // ArrivalStats
#include "tonic/rx_types.hpp"  // RxCtl
#include "tonic/rng.hpp"

namespace tonic::netsim {

using sc_core::sc_time;
using sc_core::SC_PS;
using sc_core::SC_NS;

/// A packet on the wire: a data segment or a control packet of the receiver.
struct Packet {
  enum class Kind : uint8_t { kData, kCtl };
  Kind kind = Kind::kData;
  uint32_t src = 0, dst = 0;  // host ids: senders 0..N-1, the receiver N
  uint32_t key = 0;           // flow key = sender * flows_per_sender + flow
  uint32_t flow = 0;          // the flow's id on its sender
  uint32_t idx = 0;           // data: the segment's index (Tonic sequence number)
  bool rtx = false;           // data: a retransmission (seg_rtx_o)
  uint32_t ts = 0;            // data: the sender's transmit stamp (seg_ts_o), echoed by the receiver
  bool ce = false;            // data: ECN congestion experienced
  bool trimmed = false;       // data: payload trimmed by the switch (NDP)
  uint32_t bytes = 0;         // on the wire (payload + header)
  uint16_t node = 0, ctx = 0; // data: window-mode message tag {node, context, MSGID} (window mode)
  uint32_t msgid = 0;
  RxCtl ctl;                  // control: the receiver's packet
};

/// Something packets are handed to when they arrive.
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void receive(const Packet& p) = 0;
};

/// One direction of a point-to-point link: a FIFO of packets serialized at
/// `gbps`, each arriving `delay` after its last bit left. pause(true) stops
/// it from starting the next packet (the one on the wire finishes).
/// `on_sent` (optional) is called when a packet's last bit has left (its
/// buffer space is free again).
class Link : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Link);
  Link(sc_core::sc_module_name name, double gbps, sc_time delay)
      : sc_module(name), gbps_(gbps), delay_(delay) {
    if (!(gbps > 0)) throw std::invalid_argument(std::string(this->name()) + ": link rate must be > 0");
    SC_THREAD(tx_thread);
    SC_THREAD(rx_thread);
  }

  void connect(PacketSink* sink) { sink_ = sink; }
  std::function<void(const Packet&)> on_sent;

  void push(const Packet& p) {
    queue_.push_back(p);
    queued_bytes_ += p.bytes;
    ev_queue_.notify(sc_core::SC_ZERO_TIME);
  }
  /// Bytes waiting plus the packet being serialized.
  uint64_t backlog_bytes() const { return queued_bytes_ + wire_bytes_; }
  size_t backlog_packets() const { return queue_.size() + (wire_bytes_ ? 1 : 0); }
  void pause(bool on) {
    if (paused_ == on) return;
    paused_ = on;
    if (on) ++pauses_;
    if (!on) ev_queue_.notify(sc_core::SC_ZERO_TIME);
  }
  bool paused() const { return paused_; }
  uint64_t pauses() const { return pauses_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  uint64_t packets_sent() const { return packets_sent_; }
  double gbps() const { return gbps_; }
  /// Serialization time of `bytes` at this link's rate.
  sc_time ser(uint32_t bytes) const { return sc_time(double(bytes) * 8000.0 / gbps_, SC_PS); }

 private:
  void tx_thread() {
    for (;;) {
      while (queue_.empty() || paused_) wait(ev_queue_);
      Packet p = queue_.front();
      queue_.pop_front();
      queued_bytes_ -= p.bytes;
      wire_bytes_ = p.bytes;
      wait(ser(p.bytes));
      wire_bytes_ = 0;
      bytes_sent_ += p.bytes;
      ++packets_sent_;
      if (on_sent) on_sent(p);
      flight_.push_back({sc_core::sc_time_stamp() + delay_, p});
      ev_flight_.notify(sc_core::SC_ZERO_TIME);
    }
  }
  void rx_thread() {
    for (;;) {
      while (flight_.empty()) wait(ev_flight_);
      const sc_time now = sc_core::sc_time_stamp();
      if (flight_.front().first > now) {
        wait(flight_.front().first - now);
        continue;
      }
      const Packet p = flight_.front().second;
      flight_.pop_front();
      if (sink_) sink_->receive(p);
    }
  }

  double gbps_;
  sc_time delay_;
  PacketSink* sink_ = nullptr;
  std::deque<Packet> queue_;
  std::deque<std::pair<sc_time, Packet>> flight_;
  uint64_t queued_bytes_ = 0, wire_bytes_ = 0, bytes_sent_ = 0, packets_sent_ = 0, pauses_ = 0;
  bool paused_ = false;
  sc_core::sc_event ev_queue_, ev_flight_;
};

/// Switch settings (config "switch").
struct SwitchConfig {
  uint64_t buffer_bytes = 5'500'000;  // shared by all egress ports, or per port
  bool shared = true;
  bool ecn = false;                   // ECN marking of data packets on enqueue: RED-style (kmin/kmax/pmax) ...
  uint64_t kmin_bytes = 5'000, kmax_bytes = 200'000;
  double pmax = 0.01;
  uint64_t k_bytes = 0, k_packets = 0;  // ... or, one of these set, CE iff the port holds more than K on arrival
  bool trim = false;                  // NDP: a data packet that does not fit loses its payload
  uint32_t trim_bytes = 64;           // what is left of a trimmed packet on the wire
  bool pfc = false;                   // pause the upstream links while an egress queue is above xoff
  uint64_t pfc_xoff_bytes = 0, pfc_xon_bytes = 0;
  double reorder = 0;                 // adaptive routing: probability a data packet takes a longer path
  uint64_t reorder_max_ns = 0;        // ... longer by up to this many ns (uniform)
  uint64_t seed = 1;
};

/// Counters of the switch.
struct SwitchStats {
  uint64_t enqueued = 0, dropped = 0, trimmed = 0, marked = 0, reordered = 0, pfc_pauses = 0;
  uint64_t max_queue_bytes = 0;
  sim::ArrivalStats arrivals;  // data packets enqueued: the queue each found, marked or not
};

/// An output-queued switch. Each egress port is a Link (its queue is the
/// port's queue); packets are routed by destination host. Drop-tail against
/// the shared (or per-port) buffer; control packets are never marked or
/// trimmed (they are small and go to the senders) but are counted in the
/// buffer and dropped when it is full.
class Switch : public sc_core::sc_module, public PacketSink {
 public:
  SC_HAS_PROCESS(Switch);
  Switch(sc_core::sc_module_name name, const SwitchConfig& cfg) : sc_module(name), cfg_(cfg), rng_(cfg.seed) {
    SC_THREAD(detour_thread);
  }

  /// Adds the egress port towards host `host` (a link this switch owns).
  void add_port(uint32_t host, Link* egress) {
    if (host >= port_of_.size()) port_of_.resize(host + 1, -1);
    port_of_[host] = static_cast<int>(ports_.size());
    ports_.push_back({egress, 0, 0});
    egress->on_sent = [this, i = ports_.size() - 1](const Packet& p) { release(i, p); };
  }
  /// The links into the switch, paused by PFC.
  void add_upstream(Link* l) { upstream_.push_back(l); }

  void receive(const Packet& p) override {
    if (p.kind == Packet::Kind::kData && cfg_.reorder > 0 && rng_.chance(cfg_.reorder)) {
      // A longer path: the packet reaches the port later (order between
      // packets of a flow changes).
      ++st_.reordered;
      const uint64_t extra = 1 + rng_.below(cfg_.reorder_max_ns > 0 ? cfg_.reorder_max_ns : 1);
      detour_.push_back({sc_core::sc_time_stamp() + sc_time(double(extra), SC_NS), p});
      std::sort(detour_.begin(), detour_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      ev_detour_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    enqueue(p);
  }

  const SwitchStats& stats() const { return st_; }
  /// What the port towards `host` holds: bytes and packets waiting, the
  /// one being serialized included (what a marking or drop decision sees).
  uint64_t queue_bytes(uint32_t host) const { return ports_.at(port_of_.at(host)).bytes; }
  uint64_t queue_packets(uint32_t host) const { return ports_.at(port_of_.at(host)).packets; }

 private:
  struct Port {
    Link* link;
    uint64_t bytes;
    uint64_t packets;
  };

  void enqueue(Packet p) {
    if (p.dst >= port_of_.size() || port_of_[p.dst] < 0)
      throw std::logic_error(std::string(name()) + ": no port to host " + std::to_string(p.dst));
    const size_t i = static_cast<size_t>(port_of_[p.dst]);
    Port& port = ports_[i];
    const uint64_t used = cfg_.shared ? total_ : port.bytes;
    if (used + p.bytes > cfg_.buffer_bytes) {
      if (cfg_.trim && p.kind == Packet::Kind::kData && !p.trimmed && used + cfg_.trim_bytes <= cfg_.buffer_bytes) {
        p.trimmed = true;
        p.bytes = cfg_.trim_bytes;
        ++st_.trimmed;
      } else {
        ++st_.dropped;
        return;
      }
    }
    if (cfg_.ecn && p.kind == Packet::Kind::kData && !p.trimmed && (cfg_.k_bytes || cfg_.k_packets)) {
      // Threshold marking (RFC 8257's switch): the instantaneous queue the
      // packet finds, in the unit of K, above K -> CE; never a drop.
      if (cfg_.k_packets ? port.packets > cfg_.k_packets : port.bytes > cfg_.k_bytes) {
        p.ce = true;
        ++st_.marked;
      }
    } else if (cfg_.ecn && p.kind == Packet::Kind::kData && !p.trimmed) {
      const uint64_t q = port.bytes;
      double prob = 0;
      if (q >= cfg_.kmax_bytes) prob = 1;
      else if (q > cfg_.kmin_bytes) prob = cfg_.pmax * double(q - cfg_.kmin_bytes) / double(cfg_.kmax_bytes - cfg_.kmin_bytes);
      if (prob > 0 && rng_.chance(prob)) {
        p.ce = true;
        ++st_.marked;
      }
    }
    if (p.kind == Packet::Kind::kData && !p.trimmed) st_.arrivals.arrival(port.bytes, port.packets, p.ce);
    port.bytes += p.bytes;
    ++port.packets;
    total_ += p.bytes;
    st_.max_queue_bytes = std::max(st_.max_queue_bytes, port.bytes);
    ++st_.enqueued;
    port.link->push(p);
    update_pfc();
  }

  void release(size_t i, const Packet& p) {
    ports_[i].bytes -= p.bytes;
    --ports_[i].packets;
    total_ -= p.bytes;
    update_pfc();
  }

  void update_pfc() {
    if (!cfg_.pfc) return;
    uint64_t worst = 0;
    for (const Port& p : ports_) worst = std::max(worst, p.bytes);
    if (!paused_ && worst > cfg_.pfc_xoff_bytes) {
      paused_ = true;
      ++st_.pfc_pauses;
      for (Link* l : upstream_) l->pause(true);
    } else if (paused_ && worst <= cfg_.pfc_xon_bytes) {
      paused_ = false;
      for (Link* l : upstream_) l->pause(false);
    }
  }

  void detour_thread() {
    for (;;) {
      while (detour_.empty()) wait(ev_detour_);
      const sc_time now = sc_core::sc_time_stamp();
      if (detour_.front().first > now) {
        wait(detour_.front().first - now, ev_detour_);
        continue;
      }
      const Packet p = detour_.front().second;
      detour_.pop_front();
      enqueue(p);
    }
  }

  SwitchConfig cfg_;
  Rng rng_;
  std::vector<Port> ports_;
  std::vector<int> port_of_;
  std::vector<Link*> upstream_;
  std::deque<std::pair<sc_time, Packet>> detour_;
  sc_core::sc_event ev_detour_;
  uint64_t total_ = 0;
  bool paused_ = false;
  SwitchStats st_;
};

}  // namespace tonic::netsim
