// SPDX-License-Identifier: Apache-2.0
// The scenario file of tonic-netsim (and of the ns-3 side, tonic-ns3, which
// reads the keys it models): JSON, every key checked — an unknown key, a
// wrong type or a value out of range is an error naming the key
// (docs/netsim.md lists them with their defaults).
#pragma once

#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tonic::netsim {

struct NetConfig {
  std::string name;
  std::string protocol;
  double clock_ns = 10;
  std::string topology = "path";  // "path" or "incast"
  uint32_t senders = 1;
  std::vector<double> start_us;  // per sender host: when its flows start (default all 0)
  uint32_t flows_per_sender = 1;
  double link_gbps = 10;
  uint64_t link_delay_ns = 2500;
  uint32_t segment_bytes = 1000;
  uint32_t header_bytes = 42;
  uint32_t ctl_bytes = 42;
  uint32_t nic_queue_packets = 2;  // packets the sender NIC may queue for its link before it stops Tonic
  uint64_t message_bytes = 0;   // per message; 0 = unbounded
  uint32_t messages = 1;        // messages per flow, back to back
  double duration_us = 0;       // 0: until every flow completes
  double max_time_us = 10'000'000;
  double warmup_us = 0;         // flows.csv throughput counts from here
  // switch
  uint64_t buffer_bytes = 5'500'000;
  bool shared_buffer = true;
  bool ecn = false;
  // ECN marking of data packets: RED-style (kmin/kmax/pmax) or, with
  // k_bytes or k_packets set (one of them), threshold marking: CE when the
  // port's instantaneous queue exceeds K on the packet's arrival.
  uint64_t kmin_bytes = 5'000, kmax_bytes = 200'000;
  double pmax = 0.01;
  uint64_t k_bytes = 0, k_packets = 0;
  bool trim = false;
  bool pfc = false;
  uint64_t pfc_xoff_bytes = 0, pfc_xon_bytes = 0;
  double reorder = 0;
  uint64_t reorder_max_ns = 0;
  // receiver
  bool delayed_ack = false;
  double ack_delay_us = 0;
  bool sack = false;
  bool ce_state_acks = false;  // TCP: every ack echoes the flow's CE state, a CE change acks at once (RFC 8257 3.2)
  // tcp (checked against the build)
  bool has_tcp = false;
  double min_rto_us = 0;
  uint32_t init_cwnd = 0, max_window_segments = 0;
  // traces
  double bin_us = 100;
  uint32_t bin_flows = 0;
  double sample_us = 0;  // "samples": queue.csv / cwnd_flows.csv every sample_us (0: none)
  // ns-3 only (tonic-ns3; tonic-netsim ignores them)
  bool ns3_hystart = true;  // "ns3.hystart": TcpCubic's HyStart (ns-3 3.37's default: on)
  nlohmann::json raw;  // the scenario as read (tonic-ns3 copies it into summary.json)

  uint32_t flows() const { return senders * flows_per_sender; }
  bool threshold_marking() const { return ecn && (k_bytes > 0 || k_packets > 0); }
  uint64_t segments_per_message() const { return (message_bytes + segment_bytes - 1) / segment_bytes; }
};

namespace detail {

inline void only_keys(const nlohmann::json& j, const std::string& where, std::initializer_list<const char*> keys) {
  if (!j.is_object()) throw std::invalid_argument(where + ": must be an object");
  std::set<std::string> ok(keys.begin(), keys.end());
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!ok.count(it.key())) throw std::invalid_argument(where + ": unknown key \"" + it.key() + "\"");
}

template <class T>
T get(const nlohmann::json& j, const char* key, const std::string& where, bool required, T dflt) {
  if (!j.contains(key)) {
    if (required) throw std::invalid_argument(where + ": missing key \"" + key + "\"");
    return dflt;
  }
  const nlohmann::json& v = j.at(key);
  const std::string at = where + "." + key;
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw std::invalid_argument(at + ": must be true or false");
    return v.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) throw std::invalid_argument(at + ": must be a string");
    return v.get<std::string>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer() && !v.is_number_unsigned()) throw std::invalid_argument(at + ": must be an integer");
    if (v.is_number_integer() && v.get<int64_t>() < 0) throw std::invalid_argument(at + ": must be >= 0");
    return static_cast<T>(v.get<uint64_t>());
  } else {
    if (!v.is_number()) throw std::invalid_argument(at + ": must be a number");
    return v.get<T>();
  }
}

}  // namespace detail

/// Parses and checks a scenario. Throws std::invalid_argument naming the key.
inline NetConfig parse_config(const nlohmann::json& j) {
  using detail::get;
  using detail::only_keys;
  NetConfig c;
  c.raw = j;
  only_keys(j, "config", {"name", "protocol", "clock_ns", "topology", "flows_per_sender", "link", "segment_bytes",
                          "header_bytes", "ctl_bytes", "nic_queue_packets", "message_bytes", "messages", "duration_us", "max_time_us",
                          "switch", "receiver", "tcp", "bins", "samples", "ns3", "warmup_us", "doc"});
  c.name = get<std::string>(j, "name", "config", true, "");
  c.protocol = get<std::string>(j, "protocol", "config", true, "");
  c.clock_ns = get<double>(j, "clock_ns", "config", true, 0);
  if (!(c.clock_ns > 0)) throw std::invalid_argument("config.clock_ns: must be > 0");
  if (!j.contains("topology")) throw std::invalid_argument("config: missing key \"topology\"");
  const auto& t = j.at("topology");
  only_keys(t, "config.topology", {"kind", "senders", "start_us"});
  c.topology = get<std::string>(t, "kind", "config.topology", true, "");
  if (c.topology == "path") {
    if (t.contains("senders") && get<uint32_t>(t, "senders", "config.topology", false, 1) != 1)
      throw std::invalid_argument("config.topology.senders: a path has one sender");
    c.senders = 1;
  } else if (c.topology == "incast") {
    c.senders = get<uint32_t>(t, "senders", "config.topology", true, 0);
    if (c.senders < 1 || c.senders > 64) throw std::invalid_argument("config.topology.senders: must be in 1..64");
  } else {
    throw std::invalid_argument("config.topology.kind: must be \"path\" or \"incast\"");
  }
  c.start_us.assign(c.senders, 0.0);
  if (t.contains("start_us")) {
    const auto& s = t.at("start_us");
    if (!s.is_array() || s.size() != c.senders)
      throw std::invalid_argument("config.topology.start_us: must be an array with one time per sender");
    for (size_t i = 0; i < s.size(); ++i) {
      if (!s[i].is_number() || s[i].get<double>() < 0) throw std::invalid_argument("config.topology.start_us: times must be numbers >= 0");
      c.start_us[i] = s[i].get<double>();
    }
  }
  c.flows_per_sender = get<uint32_t>(j, "flows_per_sender", "config", true, 0);
  if (c.flows_per_sender < 1) throw std::invalid_argument("config.flows_per_sender: must be >= 1");
  if (!j.contains("link")) throw std::invalid_argument("config: missing key \"link\"");
  only_keys(j.at("link"), "config.link", {"gbps", "delay_ns"});
  c.link_gbps = get<double>(j.at("link"), "gbps", "config.link", true, 0);
  if (!(c.link_gbps > 0 && c.link_gbps <= 1000)) throw std::invalid_argument("config.link.gbps: must be in (0, 1000]");
  c.link_delay_ns = get<uint64_t>(j.at("link"), "delay_ns", "config.link", true, 0);
  c.segment_bytes = get<uint32_t>(j, "segment_bytes", "config", true, 0);
  if (c.segment_bytes < 1 || c.segment_bytes > 9000) throw std::invalid_argument("config.segment_bytes: must be in 1..9000");
  c.header_bytes = get<uint32_t>(j, "header_bytes", "config", false, 42);
  c.ctl_bytes = get<uint32_t>(j, "ctl_bytes", "config", false, 42);
  c.nic_queue_packets = get<uint32_t>(j, "nic_queue_packets", "config", false, 2);
  if (c.nic_queue_packets < 1 || c.nic_queue_packets > 1000000)
    throw std::invalid_argument("config.nic_queue_packets: must be in 1..1000000");
  if (c.ctl_bytes < 1) throw std::invalid_argument("config.ctl_bytes: must be >= 1");
  c.message_bytes = get<uint64_t>(j, "message_bytes", "config", true, 0);
  c.messages = get<uint32_t>(j, "messages", "config", false, 1);
  if (c.messages < 1) throw std::invalid_argument("config.messages: must be >= 1");
  if (c.message_bytes == 0 && c.messages != 1) throw std::invalid_argument("config.messages: needs message_bytes > 0");
  if (c.segments_per_message() * c.messages >= (1ull << 31))
    throw std::invalid_argument("config.message_bytes: too many segments per flow (at most 2^31)");
  c.duration_us = get<double>(j, "duration_us", "config", false, 0);
  c.max_time_us = get<double>(j, "max_time_us", "config", false, 10'000'000);
  c.warmup_us = get<double>(j, "warmup_us", "config", false, 0);
  if (c.warmup_us < 0 || (c.duration_us > 0 && c.warmup_us >= c.duration_us))
    throw std::invalid_argument("config.warmup_us: must be >= 0 and below duration_us");
  if (c.duration_us < 0 || !(c.max_time_us > 0)) throw std::invalid_argument("config.duration_us/max_time_us: must be >= 0 / > 0");
  if (c.message_bytes == 0 && c.duration_us == 0)
    throw std::invalid_argument("config.duration_us: unbounded flows (message_bytes 0) need a duration");
  if (!j.contains("switch")) throw std::invalid_argument("config: missing key \"switch\"");
  const auto& s = j.at("switch");
  only_keys(s, "config.switch", {"buffer_bytes", "shared", "ecn", "trim", "pfc", "reorder"});
  c.buffer_bytes = get<uint64_t>(s, "buffer_bytes", "config.switch", true, 0);
  c.shared_buffer = get<bool>(s, "shared", "config.switch", false, true);
  if (s.contains("ecn") && !s.at("ecn").is_null()) {
    const auto& e = s.at("ecn");
    only_keys(e, "config.switch.ecn", {"kmin_bytes", "kmax_bytes", "pmax", "k_bytes", "k_packets"});
    c.ecn = true;
    const bool red = e.contains("kmin_bytes") || e.contains("kmax_bytes") || e.contains("pmax");
    const bool threshold = e.contains("k_bytes") || e.contains("k_packets");
    if (red && threshold)
      throw std::invalid_argument(
          "config.switch.ecn: either kmin_bytes/kmax_bytes/pmax (RED-style) or one of k_bytes/k_packets (threshold), not both");
    if (threshold) {
      if (e.contains("k_bytes") && e.contains("k_packets"))
        throw std::invalid_argument("config.switch.ecn: k_bytes and k_packets exclude each other (give one threshold K)");
      c.k_bytes = get<uint64_t>(e, "k_bytes", "config.switch.ecn", false, 0);
      c.k_packets = get<uint64_t>(e, "k_packets", "config.switch.ecn", false, 0);
      const uint64_t packet = uint64_t{c.segment_bytes} + c.header_bytes;
      if (e.contains("k_bytes") && (c.k_bytes < 1 || c.k_bytes >= c.buffer_bytes))
        throw std::invalid_argument("config.switch.ecn.k_bytes: must be in [1, buffer_bytes) (a threshold at or above the buffer never marks)");
      if (e.contains("k_packets") && (c.k_packets < 1 || c.k_packets > c.buffer_bytes / packet || c.k_packets * packet >= c.buffer_bytes))
        throw std::invalid_argument("config.switch.ecn.k_packets: must be >= 1 and k_packets x (segment_bytes + header_bytes) below buffer_bytes "
                                    "(a threshold at or above the buffer never marks)");
    } else {
      c.kmin_bytes = get<uint64_t>(e, "kmin_bytes", "config.switch.ecn", true, 0);
      c.kmax_bytes = get<uint64_t>(e, "kmax_bytes", "config.switch.ecn", true, 0);
      c.pmax = get<double>(e, "pmax", "config.switch.ecn", true, 0);
      if (c.kmax_bytes <= c.kmin_bytes || !(c.pmax > 0 && c.pmax <= 1))
        throw std::invalid_argument("config.switch.ecn: needs kmin_bytes < kmax_bytes and 0 < pmax <= 1");
    }
  }
  c.trim = get<bool>(s, "trim", "config.switch", false, false);
  if (s.contains("pfc") && !s.at("pfc").is_null()) {
    only_keys(s.at("pfc"), "config.switch.pfc", {"xoff_bytes", "xon_bytes"});
    c.pfc = true;
    c.pfc_xoff_bytes = get<uint64_t>(s.at("pfc"), "xoff_bytes", "config.switch.pfc", true, 0);
    c.pfc_xon_bytes = get<uint64_t>(s.at("pfc"), "xon_bytes", "config.switch.pfc", true, 0);
    if (c.pfc_xon_bytes >= c.pfc_xoff_bytes || c.pfc_xoff_bytes >= c.buffer_bytes)
      throw std::invalid_argument("config.switch.pfc: needs xon_bytes < xoff_bytes < buffer_bytes");
  }
  if (s.contains("reorder") && !s.at("reorder").is_null()) {
    only_keys(s.at("reorder"), "config.switch.reorder", {"probability", "max_ns"});
    c.reorder = get<double>(s.at("reorder"), "probability", "config.switch.reorder", true, 0);
    c.reorder_max_ns = get<uint64_t>(s.at("reorder"), "max_ns", "config.switch.reorder", true, 0);
    if (!(c.reorder >= 0 && c.reorder <= 1) || c.reorder_max_ns == 0)
      throw std::invalid_argument("config.switch.reorder: needs probability in [0, 1] and max_ns >= 1");
  }
  if (j.contains("receiver")) {
    const auto& r = j.at("receiver");
    only_keys(r, "config.receiver", {"delayed_ack", "ack_delay_us", "sack", "ce_state_acks"});
    c.delayed_ack = get<bool>(r, "delayed_ack", "config.receiver", false, false);
    c.ack_delay_us = get<double>(r, "ack_delay_us", "config.receiver", false, 0);
    c.sack = get<bool>(r, "sack", "config.receiver", false, false);
    c.ce_state_acks = get<bool>(r, "ce_state_acks", "config.receiver", false, false);
  }
  if (j.contains("tcp")) {
    const auto& t2 = j.at("tcp");
    only_keys(t2, "config.tcp", {"min_rto_us", "init_cwnd", "max_window_segments"});
    c.has_tcp = true;
    c.min_rto_us = get<double>(t2, "min_rto_us", "config.tcp", true, 0);
    c.init_cwnd = get<uint32_t>(t2, "init_cwnd", "config.tcp", true, 0);
    c.max_window_segments = get<uint32_t>(t2, "max_window_segments", "config.tcp", true, 0);
  }
  if (j.contains("bins")) {
    only_keys(j.at("bins"), "config.bins", {"us", "flows"});
    c.bin_us = get<double>(j.at("bins"), "us", "config.bins", true, 0);
    c.bin_flows = get<uint32_t>(j.at("bins"), "flows", "config.bins", true, 0);
    if (!(c.bin_us > 0)) throw std::invalid_argument("config.bins.us: must be > 0");
  }
  if (j.contains("samples")) {
    only_keys(j.at("samples"), "config.samples", {"us"});
    c.sample_us = get<double>(j.at("samples"), "us", "config.samples", true, 0);
    const double end = c.duration_us > 0 ? c.duration_us : c.max_time_us;
    if (!(c.sample_us >= 0.01) || end / c.sample_us > 1e7)
      throw std::invalid_argument("config.samples.us: must be >= 0.01 and give at most 10^7 samples over the run");
  }
  if (j.contains("ns3")) {
    only_keys(j.at("ns3"), "config.ns3", {"hystart"});
    c.ns3_hystart = get<bool>(j.at("ns3"), "hystart", "config.ns3", false, true);
  }
  return c;
}

/// Reads and parses a scenario file. Throws std::invalid_argument.
inline NetConfig load_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read config file " + path);
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": not valid JSON: " + e.what());
  }
  try {
    return parse_config(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

}  // namespace tonic::netsim
