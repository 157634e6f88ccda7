// SPDX-License-Identifier: Apache-2.0
// The output files of a network simulation run, written the same way by
// tonic-netsim (sim/netsim) and the ns-3 side (sim/ns3), so that
// scripts/compare and scripts/plots read one format (docs/netsim.md):
//
//   cwnd.csv     time_us,cwnd_segments,ssthresh_segments   the traced flow, on every change
//                                                          (ssthresh -1 = not set yet / infinite)
//   tx.csv       time_us,segment,retransmit                every data segment the traced flow sends
//   flows.csv    sender,flow,throughput_mbps,retransmits   every flow
//   summary.json the run's figures (RunSummary) and whatever the simulator adds
//
// Times are microseconds since the start of the simulation, written with
// three decimals (ns resolution).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tonic::sim {

/// The figures summary.json carries for every run (both simulators).
struct RunSummary {
  std::string simulator;          // "tonic" or "ns3"
  std::string scenario;           // the config's name
  uint64_t bytes_acked = 0;       // every flow: bytes the senders saw acknowledged
  double completion_time_us = -1; // traced flow: first data segment sent -> last byte acked (-1: did not complete)
  uint64_t retransmitted_segments = 0;  // every flow
  uint64_t fast_retransmit_episodes = 0;// traced flow: entries into fast recovery
  uint64_t timeouts = 0;                // traced flow: retransmission timeouts
  double goodput_gbps = 0;        // bytes_acked * 8 / (simulated time of the data phase)
  double sim_time_us = 0;         // simulated time at the end
  uint32_t flows = 0;             // flows in the run
  uint32_t complete_flows = 0;    // flows whose message was entirely acked

  nlohmann::json to_json() const {
    return {{"simulator", simulator},
            {"scenario", scenario},
            {"bytes_acked", bytes_acked},
            {"completion_time_us", completion_time_us},
            {"retransmitted_segments", retransmitted_segments},
            {"fast_retransmit_episodes", fast_retransmit_episodes},
            {"timeouts", timeouts},
            {"goodput_gbps", goodput_gbps},
            {"sim_time_us", sim_time_us},
            {"flows", flows},
            {"complete_flows", complete_flows}};
  }
};

/// Opens the CSV files of a run directory and appends rows. Throws
/// std::runtime_error when a file cannot be created.
class RunOutput {
 public:
  explicit RunOutput(const std::filesystem::path& dir) : dir_(dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) throw std::runtime_error("cannot create output directory " + dir_.string() + ": " + ec.message());
    cwnd_ = open("cwnd.csv", "time_us,cwnd_segments,ssthresh_segments");
    tx_ = open("tx.csv", "time_us,segment,retransmit");
  }
  ~RunOutput() {
    if (cwnd_) std::fclose(cwnd_);
    if (tx_) std::fclose(tx_);
  }
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;

  const std::filesystem::path& dir() const { return dir_; }

  /// A cwnd/ssthresh change of the traced flow (written only when one of
  /// the two differs from the last row). ssthresh < 0: not set.
  void cwnd(double time_us, int64_t cwnd_segments, int64_t ssthresh_segments) {
    if (cwnd_segments == last_cwnd_ && ssthresh_segments == last_ss_) return;
    last_cwnd_ = cwnd_segments;
    last_ss_ = ssthresh_segments;
    fmt::print(cwnd_, "{:.3f},{},{}\n", time_us, cwnd_segments, ssthresh_segments);
  }

  /// A data segment of the traced flow left the sender.
  void tx(double time_us, uint64_t segment, bool retransmit) {
    fmt::print(tx_, "{:.3f},{},{}\n", time_us, segment, retransmit ? 1 : 0);
  }

  /// flows.csv, every flow at once.
  template <class Rows>  // rows of {sender, flow, throughput_mbps, retransmits}
  void flows(const Rows& rows) {
    std::FILE* f = open("flows.csv", "sender,flow,throughput_mbps,retransmits");
    for (const auto& r : rows) fmt::print(f, "{},{},{:.3f},{}\n", r.sender, r.flow, r.throughput_mbps, r.retransmits);
    std::fclose(f);
  }

  /// Another CSV file of the run (e.g. rate.csv, thr.csv) with its header
  /// line; the caller closes it. Throws std::runtime_error.
  std::FILE* csv(const char* name, const char* header) { return open(name, header); }

  /// summary.json: the common figures, then `extra`'s members.
  void summary(const RunSummary& s, const nlohmann::json& extra = nlohmann::json::object()) {
    nlohmann::json j = s.to_json();
    for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
    std::ofstream out(dir_ / "summary.json");
    if (!out) throw std::runtime_error("cannot write " + (dir_ / "summary.json").string());
    out << j.dump(2) << "\n";
  }

 private:
  std::FILE* open(const char* name, const char* header) {
    const std::filesystem::path p = dir_ / name;
    std::FILE* f = std::fopen(p.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + p.string());
    fmt::print(f, "{}\n", header);
    return f;
  }

  std::filesystem::path dir_;
  std::FILE* cwnd_ = nullptr;
  std::FILE* tx_ = nullptr;
  int64_t last_cwnd_ = -2, last_ss_ = -2;
};

/// One row of flows.csv.
struct FlowRow {
  uint32_t sender = 0, flow = 0;
  double throughput_mbps = 0;
  uint64_t retransmits = 0;
};

}  // namespace tonic::sim
