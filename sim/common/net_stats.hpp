// SPDX-License-Identifier: Apache-2.0
// The network figures both simulators report the same way (tonic-netsim,
// sim/netsim, and tonic-ns3, sim/ns3), so that scripts/compare-suite.mjs
// puts them side by side (docs/netsim.md, "Network figures"):
//
//   flow_stats.csv  key,sender,flow,first_tx_us,completion_us,throughput_mbps,fast_retransmits,timeouts,retransmits
//                   every flow (completion_us -1: not complete)
//   queue.csv       time_us,queue_bytes,queue_packets        the bottleneck port (switch -> receiver),
//                                                            every samples.us (scenario key "samples")
//   cwnd_flows.csv  time_us,flow_0,flow_1,...                every flow's cwnd in segments, every samples.us
//                                                            (-1: not known yet)
//   summary.json "network": the bottleneck queue's mean and percentiles
//                   over the samples, what the marking rule saw at each
//                   data packet's arrival, switch drops, Jain's fairness
//                   index of the per-flow throughput (flows.csv), per-flow
//                   completion times, and fast retransmits, timeouts and
//                   retransmissions summed over every flow.
//
// A queue length is what the port holds, the packet being serialized
// included, in wire bytes (payload + header_bytes) and packets.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/common/run_output.hpp"

namespace tonic::sim {

/// Jain's fairness index (sum x)^2 / (n sum x^2) of non-negative values;
/// 1 for equal shares, 1/n when one value has everything; 0 when empty or
/// all zero.
inline double jain_index(const std::vector<double>& x) {
  double s = 0, s2 = 0;
  for (double v : x) {
    s += v;
    s2 += v * v;
  }
  return x.empty() || s2 <= 0 ? 0.0 : s * s / (double(x.size()) * s2);
}

/// {"mean", "p50", "p90", "p99", "min", "max"} of values (nearest-rank
/// percentiles); null when there are none.
inline nlohmann::json distribution(std::vector<double> v) {
  if (v.empty()) return nullptr;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto pct = [&](double p) {
    const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * double(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
  };
  return {{"mean", sum / double(v.size())}, {"p50", pct(50)}, {"p90", pct(90)}, {"p99", pct(99)},
          {"min", v.front()}, {"max", v.back()}};
}

/// What the bottleneck's marking rule saw: the port's queue that each data
/// packet found on arrival (before it was added), split by whether the
/// packet left marked CE.
struct ArrivalStats {
  uint64_t data = 0, marked = 0;
  uint64_t min_marked_packets = UINT64_MAX, min_marked_bytes = UINT64_MAX;
  uint64_t max_unmarked_packets = 0, max_unmarked_bytes = 0;

  void arrival(uint64_t queue_bytes, uint64_t queue_packets, bool ce) {
    ++data;
    if (ce) {
      ++marked;
      min_marked_packets = std::min(min_marked_packets, queue_packets);
      min_marked_bytes = std::min(min_marked_bytes, queue_bytes);
    } else {
      max_unmarked_packets = std::max(max_unmarked_packets, queue_packets);
      max_unmarked_bytes = std::max(max_unmarked_bytes, queue_bytes);
    }
  }
  nlohmann::json to_json() const {
    auto opt = [](uint64_t v) -> nlohmann::json { return v == UINT64_MAX ? nlohmann::json(nullptr) : nlohmann::json(v); };
    return {{"data_arrivals", data},
            {"marked", marked},
            {"min_queue_when_marked", {{"packets", opt(min_marked_packets)}, {"bytes", opt(min_marked_bytes)}}},
            {"max_queue_when_unmarked", {{"packets", max_unmarked_packets}, {"bytes", max_unmarked_bytes}}}};
  }
};

/// The marking rule of a scenario's switch, as both simulators report it.
inline nlohmann::json marking_json(bool ecn, uint64_t k_bytes, uint64_t k_packets, uint64_t kmin_bytes,
                                   uint64_t kmax_bytes, double pmax) {
  if (!ecn) return {{"mode", "none"}};
  if (k_packets) return {{"mode", "threshold"}, {"k_packets", k_packets}};
  if (k_bytes) return {{"mode", "threshold"}, {"k_bytes", k_bytes}};
  return {{"mode", "red"}, {"kmin_bytes", kmin_bytes}, {"kmax_bytes", kmax_bytes}, {"pmax", pmax}};
}

/// One row of flow_stats.csv.
struct FlowStat {
  uint32_t key = 0, sender = 0, flow = 0;
  double first_tx_us = -1;    // first data segment sent (-1: none)
  double completion_us = -1;  // first data segment -> everything acked (-1: not complete)
  double throughput_mbps = 0; // as flows.csv
  uint64_t fast_retransmits = 0, timeouts = 0, retransmits = 0;
};

/// The sampled traces (queue.csv, cwnd_flows.csv) and the "network" block.
class NetStats {
 public:
  /// sample_us 0: no samples (no queue.csv / cwnd_flows.csv).
  NetStats(RunOutput& out, uint32_t flows, double sample_us) : out_(out), flows_(flows), sample_us_(sample_us) {}
  ~NetStats() { close(); }
  NetStats(const NetStats&) = delete;
  NetStats& operator=(const NetStats&) = delete;

  double sample_us() const { return sample_us_; }

  /// One sample: the bottleneck port's queue and every flow's cwnd
  /// (segments, -1: unknown), flow key order.
  void sample(double t_us, uint64_t queue_bytes, uint64_t queue_packets, const std::vector<int64_t>& cwnd) {
    if (sample_us_ <= 0) return;
    if (!queue_) {
      queue_ = out_.csv("queue.csv", "time_us,queue_bytes,queue_packets");
      std::string h = "time_us";
      for (uint32_t k = 0; k < flows_; ++k) h += fmt::format(",flow_{}", k);
      cwnd_ = out_.csv("cwnd_flows.csv", h.c_str());
    }
    fmt::print(queue_, "{:.3f},{},{}\n", t_us, queue_bytes, queue_packets);
    std::string row = fmt::format("{:.3f}", t_us);
    for (uint32_t k = 0; k < flows_; ++k) row += fmt::format(",{}", k < cwnd.size() ? cwnd[k] : -1);
    fmt::print(cwnd_, "{}\n", row);
    q_bytes_.push_back(double(queue_bytes));
    q_packets_.push_back(double(queue_packets));
  }

  /// flow_stats.csv and the "network" block of summary.json.
  nlohmann::json finish(const std::vector<FlowStat>& flows, const ArrivalStats& arrivals, const nlohmann::json& marking,
                        uint64_t queue_drops) {
    close();
    std::FILE* f = out_.csv("flow_stats.csv",
                            "key,sender,flow,first_tx_us,completion_us,throughput_mbps,fast_retransmits,timeouts,retransmits");
    std::vector<double> thr, done;
    uint64_t fr = 0, to = 0, rtx = 0;
    for (const FlowStat& s : flows) {
      fmt::print(f, "{},{},{},{:.3f},{:.3f},{:.3f},{},{},{}\n", s.key, s.sender, s.flow, s.first_tx_us, s.completion_us,
                 s.throughput_mbps, s.fast_retransmits, s.timeouts, s.retransmits);
      thr.push_back(s.throughput_mbps);
      if (s.completion_us >= 0) done.push_back(s.completion_us);
      fr += s.fast_retransmits;
      to += s.timeouts;
      rtx += s.retransmits;
    }
    std::fclose(f);
    nlohmann::json queue = nullptr;
    if (!q_bytes_.empty())
      queue = {{"samples", q_bytes_.size()}, {"bytes", distribution(q_bytes_)}, {"packets", distribution(q_packets_)}};
    nlohmann::json completion = distribution(done);
    if (completion.is_null()) completion = nlohmann::json::object();
    completion["complete"] = done.size();
    return {{"sample_us", sample_us_},
            {"queue", queue},
            {"marking", marking},
            {"arrivals", arrivals.to_json()},
            {"queue_drops", queue_drops},
            {"jain_index", jain_index(thr)},
            {"throughput_mbps", distribution(thr)},
            {"completion_us", completion},
            {"fast_retransmit_episodes", fr},
            {"timeouts", to},
            {"retransmitted_segments", rtx}};
  }

 private:
  void close() {
    if (queue_) std::fclose(queue_);
    if (cwnd_) std::fclose(cwnd_);
    queue_ = cwnd_ = nullptr;
  }

  RunOutput& out_;
  uint32_t flows_;
  double sample_us_;
  std::FILE* queue_ = nullptr;
  std::FILE* cwnd_ = nullptr;
  std::vector<double> q_bytes_, q_packets_;
};

}  // namespace tonic::sim
