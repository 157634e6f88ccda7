// SPDX-License-Identifier: Apache-2.0
// tonic-demo — the main job until the engines exist: runs each reusable cell
// of rtl/common/ under random traffic against its reference model and
// prints what it did. Exit status 1 if any cell disagrees with its model.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "Vreg_slice.h"
#include "Vskid_buffer.h"
#include "stream/stream_tb.hpp"

using namespace tonic;

namespace {

struct Row {
  std::string cell;
  uint64_t cycles;
  std::string what;
  uint64_t errors;
};

struct Demo {
  std::string name;
  std::function<Row(uint64_t cycles, uint64_t seed)> run;
};

Row stream_demo(uint64_t cycles, uint64_t seed) {
  Harness<Vskid_buffer> h;
  Rng rng(seed);
  auto st = run_stream_cell(h, rng, cycles / 2, 0.2, 0.2, 8);
  return {"skid_buffer", st.cycles,
          fmt::format("{} words in, {} out, in order, 20% idle + 20% back-pressure", st.sent, st.received),
          st.errors};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Tonic demonstration: each rtl/common cell under random traffic vs its reference model"};
  uint64_t cycles = 200000;
  uint64_t seed = 1;
  std::vector<std::string> only;
  app.add_option("--cycles", cycles, "cycles per cell")->check(CLI::Range(1000ULL, 1000000000ULL));
  app.add_option("--seed", seed, "random seed");
  app.add_option("--cell", only, "run only these cells (repeatable)");
  CLI11_PARSE(app, argc, argv);

  std::vector<Demo> demos = {
      {"stream", stream_demo},
  };
  uint64_t total_errors = 0;
  fmt::print("Tonic cells demonstration: {} cycles per cell, seed {}\n\n", cycles, seed);
  fmt::print("{:<14} {:>10} {:>12} {:>7}  {}\n", "cell", "cycles", "Mcycles/s", "errors", "what it did");
  for (auto& d : demos) {
    if (!only.empty() && std::find(only.begin(), only.end(), d.name) == only.end()) continue;
    auto t0 = std::chrono::steady_clock::now();
    Row r = d.run(cycles, seed);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("{:<14} {:>10} {:>12.2f} {:>7}  {}\n", r.cell, r.cycles, r.cycles / s / 1e6, r.errors, r.what);
    total_errors += r.errors;
  }
  fmt::print("\n{}\n", total_errors == 0 ? "all cells agree with their reference models"
                                         : fmt::format("{} disagreements with the reference models", total_errors));
  return total_errors == 0 ? 0 : 1;
}
