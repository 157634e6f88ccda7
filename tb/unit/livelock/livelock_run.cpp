// SPDX-License-Identifier: Apache-2.0
// livelock_run: the live-lock experiment at any size
// (docs/design/livelock.md). Prints the table; --json writes the report.
//   build/<dir>/tb/unit/livelock/livelock_run --messages 20 --seed 7
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "livelock_runs.hpp"

int main(int argc, char** argv) {
  using namespace tonic::livelock;
  Config cfg;
  std::string out;
  CLI::App app{"Tonic live-lock experiment: go-back-0 vs go-back-N vs IRN at 1/256 loss"};
  app.add_option("--messages", cfg.messages, "messages go-back-N and IRN complete")->check(CLI::PositiveNumber);
  app.add_option("--msg-segments", cfg.msg_segments, "segments per message")->check(CLI::PositiveNumber);
  app.add_option("--one-way", cfg.one_way, "one-way channel delay (cycles)");
  app.add_option("--loss", cfg.loss, "loss probability per data packet")->check(CLI::Range(0.0, 1.0));
  app.add_option("--seed", cfg.seed, "loss seed");
  app.add_option("--max-cycles", cfg.max_cycles, "cycle budget per run (default: 20 per segment to complete)")->check(CLI::PositiveNumber);
  app.add_option("--json", out, "write the report (JSON) to this file");
  CLI11_PARSE(app, argc, argv);
  if (const Cast c = cast(); !c.complete()) {
    std::cerr << "livelock_run: no participant for " << (c.missing.empty() ? "-" : c.missing)
              << (c.bad.empty() ? "" : "; not a protocol's build: " + c.bad) << "\n";
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto rs = run_all(cfg);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << table(rs);
  std::printf("(%.1f s wall, seed %llu)\n", s, static_cast<unsigned long long>(cfg.seed));
  int rc = 0;
  for (const auto& r : rs) {
    if (r.errors) {
      std::cerr << r.protocol << ": " << r.errors << " errors, first: " << r.first_error << "\n";
      rc = 1;
    }
  }
  if (!out.empty()) std::ofstream(out) << to_json(cfg, rs, "tb/unit/livelock/livelock_run.cpp").dump(2) << "\n";
  return rc;
}
