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

#include "Vflow_fifo_4096.h"
#include "Vmpmem_4w4r_1024x64.h"
#include "Vreg_slice.h"
#include "Vskid_buffer.h"
#include "Vtimer_1024.h"
#include "Vffs_w256.h"
#include "Vones_w256.h"
#include "bitmap/bitmap_tb.hpp"
#include "common/ref/bitmap_ref.hpp"
#include "flow_fifo/flow_fifo_tb.hpp"
#include "mpmem/mpmem_tb.hpp"
#include "stream/stream_tb.hpp"
#include "timer/timer_tb.hpp"

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

Row flow_fifo_demo(uint64_t cycles, uint64_t seed) {
  FlowFifoTb<Vflow_fifo_4096> tb;
  Rng rng(seed);
  FlowTraffic traffic(rng, tb.flows(), tb.ports());
  std::vector<FlowInsert>& ins = tb.staged();
  uint64_t next_segment = 0;
  for (uint64_t c = 0; c < cycles && tb.errors() == 0; ++c) {
    if (c == next_segment) {
      traffic.new_segment();
      next_segment = c + rng.range(100, 6000);
    }
    const bool ready = traffic.ready();
    const bool pop = ready && tb.ref().out_valid();
    traffic.inserts(ins, pop, tb.ref().out_id());
    tb.cycle(ready);
  }
  tb.drain();
  const auto& st = tb.stats();
  return {"flow_fifo", tb.h().cycle(),
          fmt::format("4096 flows, 4 insert ports: {} inserts ({} new ids), {} pops, max occupancy {}",
                      st.inserts, st.accepted, st.pops, st.max_count),
          tb.errors()};
}

Row mpmem_demo(uint64_t cycles, uint64_t seed) {
  MpmemTb<Vmpmem_4w4r_1024x64> tb;
  Rng rng(seed);
  tb.fill(seed);
  run_random(tb, rng, cycles, MpmemTraffic{});
  return {"mpmem", tb.cycles(),
          "4 writes + 4 reads per cycle, 1024 x 64, hot-address collisions, every read checked",
          tb.errors()};
}

Row timer_demo(uint64_t cycles, uint64_t seed) {
  using B = TimerBounds<Vtimer_1024>;
  TimerTb<Vtimer_1024> tb(0, false);
  Rng rng(seed);
  TimerTraffic traffic(rng, B::kFlows, B::kSlotLen, 0.8);
  Sink sink(rng, 0.01, 4);
  while (tb.now() < cycles && tb.errors() == 0) tb.step(traffic.next(tb.now()), sink.ready());
  for (uint64_t i = 0; i < 2 * B::kFlows + 64; ++i) tb.step({}, true);
  return {"timer", tb.now(),
          fmt::format("1024 flows: {} arms/re-arms/cancels, {} releases, none early, max lateness {} "
                      "cycles (bound {})",
                      tb.ref().commands(), tb.ref().releases(), tb.ref().max_lateness(), B::kWorst),
          tb.errors()};
}

Row bitmap_demo(uint64_t cycles, uint64_t seed) {
  Comb<Vffs_w256> ffs;
  Comb<Vones_w256> ones;
  Rng rng(seed);
  uint64_t errors = 0, found = 0, run_total = 0;
  for (uint64_t i = 0; i < cycles; ++i) {
    const auto head = static_cast<uint32_t>(rng.below(256));
    const BitRing<256> a = random_ring<256>(rng, head);
    const FfsResult got = dut_ffs<Vffs_w256, 256>(ffs, a, head);
    const FfsResult want = ffs_after_head<256>(a, head);
    errors += !(got == want);
    found += got.found;
    const uint32_t run = dut_ones<Vones_w256, 256>(ones, a, head);
    errors += run != ones_from_head<256>(a, head);
    run_total += run;
  }
  return {"bitmap", cycles,
          fmt::format("W=256 rings: find-first-after-head found a bit in {} of {}; mean run of ones "
                      "from head {:.1f}",
                      found, cycles, static_cast<double>(run_total) / static_cast<double>(cycles)),
          errors};
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
      {"stream", stream_demo},       {"flow_fifo", flow_fifo_demo}, {"bitmap", bitmap_demo},
      {"mpmem", mpmem_demo},         {"timer", timer_demo},
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
