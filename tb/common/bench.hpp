// SPDX-License-Identifier: Apache-2.0
// BenchMain: the shared main of every simulation-speed benchmark.
//
// Each case is a function (cycles, seed) -> simulated cycles. BenchMain runs
// each case --runs times (default 3), takes the median of cycles per second
// of wall-clock time, and prints one JSON object per case:
//   {"name": ..., "cycles": ..., "cycles_per_s": ..., "runs": [...]}
// Wall-clock speed is a benchmark figure only, never a pass/fail test.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace tonic {

class BenchMain {
 public:
  using Case = std::function<uint64_t(uint64_t cycles, uint64_t seed)>;

  BenchMain(std::string suite, int argc, char** argv)
      : suite_(std::move(suite)), argc_(argc), argv_(argv) {}

  void add(std::string name, Case fn, uint64_t default_cycles = 0) {
    cases_.push_back({std::move(name), std::move(fn), default_cycles});
  }

  int run() {
    CLI::App app{"Tonic simulation-speed benchmark: " + suite_};
    uint64_t cycles = 1000000;
    int runs = 3;
    uint64_t seed = 1;
    std::string filter, out;
    bool list = false;
    app.add_option("--cycles", cycles, "simulated cycles (or items) per run")
        ->check(CLI::PositiveNumber);
    app.add_option("--runs", runs, "runs per case; the median is reported")
        ->check(CLI::Range(1, 101));
    app.add_option("--seed", seed, "random seed");
    app.add_option("--filter", filter, "run only cases whose name contains this");
    app.add_option("--json", out, "append results (JSON lines) to this file");
    app.add_flag("--list", list, "list case names and exit");
    try {
      app.parse(argc_, argv_);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
    if (list) {
      for (auto& c : cases_) std::cout << c.name << "\n";
      return 0;
    }
    std::ofstream json_out;
    if (!out.empty()) {
      json_out.open(out, std::ios::app);
      if (!json_out) {
        std::cerr << "cannot open " << out << "\n";
        return 2;
      }
    }
    for (auto& c : cases_) {
      if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
      const uint64_t n = c.default_cycles && cycles == 1000000 ? c.default_cycles : cycles;
      std::vector<double> rates;
      uint64_t simulated = 0;
      for (int r = 0; r < runs; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        simulated = c.fn(n, seed + static_cast<uint64_t>(r));
        auto t1 = std::chrono::steady_clock::now();
        double s = std::chrono::duration<double>(t1 - t0).count();
        rates.push_back(s > 0 ? static_cast<double>(simulated) / s : 0.0);
      }
      std::vector<double> sorted = rates;
      std::sort(sorted.begin(), sorted.end());
      nlohmann::json j = {{"name", c.name},
                          {"suite", suite_},
                          {"cycles", simulated},
                          {"cycles_per_s", sorted[sorted.size() / 2]},
                          {"runs", rates}};
      std::cout << j.dump() << std::endl;
      if (json_out) json_out << j.dump() << "\n";
    }
    return 0;
  }

 private:
  struct Entry {
    std::string name;
    Case fn;
    uint64_t default_cycles;
  };
  std::string suite_;
  int argc_;
  char** argv_;
  std::vector<Entry> cases_;
};

}  // namespace tonic
