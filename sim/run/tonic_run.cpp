// SPDX-License-Identifier: Apache-2.0
// tonic-run — the main job (`make run`): one tonic_top sender build
// (rtl/manifest/tonic.json) with N saturated flows, driven by TonicTb
// (tb/unit/tonic/tonic_tb.hpp: host driver, LinkModel network with drops and
// TCP receivers, DMA sink, checks of every segment address), for a number of
// cycles. Prints throughput, retransmissions, timeouts, the per-flow spread
// and one flow's cwnd summary; writes cwnd.csv, tx.csv, summary.json,
// plot.gp and (with gnuplot) cwnd.png into --out.
//
// Built twice (sim/run/CMakeLists.txt): tonic-run with every build, and
// tonic-run-trace (TONIC_RUN_TRACE=1) with only a --trace-fst build of
// tonic_newreno_1024x128; tonic-run exec()s tonic-run-trace for --trace.
//
// Exit status: 0 ok, 1 a testbench check failed (or a run-time error),
// 2 bad command line.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/common/progress.hpp"
#include "tonic_models.hpp"

#if TONIC_RUN_TRACE
#include <verilated_fst_c.h>

#include "Vtonic_newreno_1024x128_trace.h"
namespace tonic {
template <>
struct TonicParams<Vtonic_newreno_1024x128_trace> : TonicParams<Vtonic_newreno_1024x128> {};
}  // namespace tonic
#endif

using namespace tonic;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint32_t kSegSize = 1000;         // bytes per segment (lengths only)
constexpr uint32_t kPosted = 1u << 30;      // segments posted per flow: saturated
constexpr uint64_t kCwndEvery = 100;        // cwnd.csv: a row every 100 cycles
constexpr const char* kTracedModel = "tonic_newreno_1024x128";

// ---------------------------------------------------------------------------
// Options.

#ifndef TONIC_DEFAULT_PROTOCOL
#define TONIC_DEFAULT_PROTOCOL "newreno"
#endif

struct DropEntry {
  uint32_t flow = 0, seg = 0, tx = 0;
};

struct Options {
  std::string protocol = TONIC_DEFAULT_PROTOCOL;  // cmake -DTONIC_PROTOCOL (default newreno)
  unsigned window = 0;  // 0: the smallest build that holds --flows
  uint32_t flows = 1024;
  uint64_t cycles = 1'000'000;
  uint64_t rtt = 1000;
  double loss = 0.001;
  std::string drops_text;
  std::vector<DropEntry> drops;
  bool delayed_ack = false;
  bool sack_rx_on = false, sack_rx_off = false;
  uint64_t seed = 1;
  std::string out = "build/run";
  uint32_t sample = 0;
  std::string trace;
  bool quiet = false;

  bool sack_receiver() const { return sack_rx_on || (!sack_rx_off && protocol == "sack"); }
};

/// Parses a strict unsigned decimal that fits 32 bits.
bool parse_u32(const std::string& s, uint32_t& v) {
  if (s.empty() || s.size() > 10) return false;
  uint64_t x = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    x = x * 10 + static_cast<uint64_t>(ch - '0');
  }
  if (x > UINT32_MAX) return false;
  v = static_cast<uint32_t>(x);
  return true;
}

/// "flow:seg[:tx],..." -> entries; returns an error message ("" if fine).
std::string parse_drops(const std::string& text, std::vector<DropEntry>* out) {
  if (text.empty()) return "";
  size_t pos = 0;
  while (true) {
    const size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::vector<std::string> parts;
    size_t p = 0;
    while (true) {
      const size_t colon = item.find(':', p);
      parts.push_back(item.substr(p, colon == std::string::npos ? std::string::npos : colon - p));
      if (colon == std::string::npos) break;
      p = colon + 1;
    }
    DropEntry e;
    const bool ok = (parts.size() == 2 || parts.size() == 3) && parse_u32(parts[0], e.flow) &&
                    parse_u32(parts[1], e.seg) && (parts.size() == 2 || parse_u32(parts[2], e.tx));
    if (!ok)
      return fmt::format("bad entry '{}' (expected flow:seg[:tx] with unsigned decimals, "
                         "comma-separated, e.g. 0:100,0:100:1,5:7)",
                         item);
    if (out) out->push_back(e);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return "";
}

// ---------------------------------------------------------------------------
// The builds.

struct ModelInfo {
  const char* name;
  const char* protocol;
  uint32_t flows;
  uint32_t window;
};

// Smallest first: the first match is the pick.
constexpr ModelInfo kModels[] = {
    {"tonic_reno_1024x128", "reno", 1024, 128},
    {"tonic_newreno_1024x128", "newreno", 1024, 128},
    {"tonic_sack_1024x128", "sack", 1024, 128},
    {"tonic_newreno_2048x256", "newreno", 2048, 256},
    {"tonic_newreno_4096x256", "newreno", 4096, 256},
};

const ModelInfo* choose_model(const Options& o, std::string& err) {
  for (const ModelInfo& m : kModels) {
    if (o.protocol == m.protocol && (o.window == 0 || o.window == m.window) && o.flows <= m.flows) return &m;
  }
  err = fmt::format(
      "no tonic_top build for --protocol {}{} with --flows {}. Built: reno 1024x128, "
      "newreno 1024x128 / 2048x256 / 4096x256, sack 1024x128 (FlowCount x Window; "
      "--flows <= FlowCount)",
      o.protocol, o.window ? fmt::format(" --window {}", o.window) : std::string(), o.flows);
  return nullptr;
}

// ---------------------------------------------------------------------------
// Output helpers.

using sim::grp;
using sim::Progress;

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) {
    if (ch == '\'') q += "'\\''";
    else q += ch;
  }
  return q + "'";
}

/// A gnuplot string literal (double quotes, escaped).
std::string gp_str(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') q += '\\';
    q += ch;
  }
  return q + "\"";
}

struct PlotInput {
  std::string title;
  uint32_t flow = 0;
  uint64_t cwnd_rows = 0, tx_new = 0, tx_rtx = 0;
};

/// Writes plot.gp into `dir`; runs gnuplot there if installed. Returns the
/// PNG path, or "" (with a warning printed) when no plot was made.
std::string make_plot(const fs::path& dir, const PlotInput& in) {
  const fs::path gp = dir / "plot.gp";
  {
    std::ofstream f(gp);
    f << "# Generated by tonic-run: cwnd and sequence numbers of one flow.\n"
         "# Re-plot with: cd <this directory> && gnuplot plot.gp\n"
         "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
         "  set terminal pngcairo size 1400,1000 noenhanced font \",11\"\n"
         "} else {\n"
         "  set terminal png size 1400,1000 noenhanced\n"
         "}\n"
         "set output \"cwnd.png\"\n"
         "set datafile separator \",\"\n"
         "set grid\n"
         "set key top left\n"
      << "set multiplot layout 2,1 title " << gp_str(in.title) << "\n"
      << "set title " << gp_str(fmt::format("flow {}: congestion window (probe port)", in.flow)) << "\n"
      << "set xlabel \"cycle\"\n"
         "set ylabel \"cwnd (segments)\"\n";
    if (in.cwnd_rows > 0)
      f << "plot \"cwnd.csv\" skip 1 using 1:2 with steps lw 2 lc rgb \"#1f77b4\" title \"cwnd\"\n";
    else
      f << "set label 1 \"no data\" at graph 0.5, graph 0.5 center\n"
           "plot [0:1][0:1] NaN notitle\nunset label 1\n";
    f << "set title " << gp_str(fmt::format("flow {}: segments sent", in.flow)) << "\n"
      << "set ylabel \"segment index\"\n";
    std::vector<std::string> series;
    if (in.tx_new > 0)
      series.push_back(
          "\"tx.csv\" skip 1 using 1:($3 == 0 ? $2 : 1/0) with points pt 7 ps 0.25 "
          "lc rgb \"#1f77b4\" title \"new segment\"");
    if (in.cwnd_rows > 0)
      series.push_back(
          "\"cwnd.csv\" skip 1 using 1:3 with steps lw 1 lc rgb \"#2ca02c\" "
          "title \"wnd_start (cumulative ack)\"");
    if (in.tx_rtx > 0)
      series.push_back(
          "\"tx.csv\" skip 1 using 1:($3 == 1 ? $2 : 1/0) with points pt 6 ps 1.2 lw 2 "
          "lc rgb \"#d62728\" title \"retransmission\"");
    if (series.empty()) {
      f << "set label 1 \"no data\" at graph 0.5, graph 0.5 center\n"
           "plot [0:1][0:1] NaN notitle\n";
    } else {
      f << "plot ";
      for (size_t i = 0; i < series.size(); ++i) f << (i ? ", \\\n     " : "") << series[i];
      f << "\n";
    }
    f << "unset multiplot\n";
  }
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    fmt::print(stderr, "warning: gnuplot not found: no cwnd.png (install gnuplot-nox; plot.gp is in {})\n",
               dir.string());
    return "";
  }
  const fs::path log = dir / "plot.log";
  const std::string cmd =
      fmt::format("cd {} && gnuplot plot.gp > plot.log 2>&1", shell_quote(dir.string()));
  const int rc = std::system(cmd.c_str());
  if (rc != 0 || !fs::exists(dir / "cwnd.png")) {
    fmt::print(stderr, "warning: gnuplot failed (status {}): see {}\n", rc, log.string());
    return "";
  }
  std::error_code ec;
  if (fs::file_size(log, ec) == 0) fs::remove(log, ec);
  return (dir / "cwnd.png").string();
}

// ---------------------------------------------------------------------------
// The scenario.

struct Spread {
  uint64_t min = 0, median = 0, max = 0;
  double ratio = 0.0;  // max / min (0 if min == 0)
};

Spread spread(std::vector<uint64_t> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.ratio = s.min ? static_cast<double>(s.max) / static_cast<double>(s.min) : 0.0;
  return s;
}

template <class Model>
int run_scenario(const Options& o, const ModelInfo& mi) {
  using P = TonicParams<Model>;
  const fs::path dir = o.out;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    fmt::print(stderr, "error: cannot create --out {}: {}\n", dir.string(), ec.message());
    return 1;
  }
  const fs::path cwnd_path = dir / "cwnd.csv", tx_path = dir / "tx.csv", json_path = dir / "summary.json";
  std::FILE* cwnd_f = std::fopen(cwnd_path.c_str(), "w");
  std::FILE* tx_f = std::fopen(tx_path.c_str(), "w");
  if (!cwnd_f || !tx_f) {
    fmt::print(stderr, "error: cannot write into {}: {}\n", dir.string(), std::strerror(errno));
    return 1;
  }
  fmt::print(cwnd_f, "cycle,cwnd,wnd_start,next_new\n");
  fmt::print(tx_f, "cycle,idx,rtx\n");

  LinkConfig lc;
  lc.delay = o.rtt / 2;
  RxConfig rc;
  rc.window = P::kWindow;
  rc.delayed_ack = o.delayed_ack;
  rc.sack = o.sack_receiver();
  TonicTb<Model> tb(lc, rc, o.seed);
  DropModel& drops = tb.link().drops();
  if (o.loss > 0.0) drops.bernoulli(o.loss, o.seed * 0x9E3779B97F4A7C15ull + 0x5EED);
  for (const DropEntry& e : o.drops) drops.drop_at(e.flow, e.seg, e.tx);
  for (uint32_t f = 0; f < o.flows; ++f) tb.add_flow(f, 0, kSegSize, kPosted);

  const std::string scenario = fmt::format(
      "{} flows, RTT {} cycles ({:.2f} us at 100 MHz), loss {:g} %, {} listed drop(s), {} acks{}, seed {}",
      o.flows, 2 * lc.delay, 2 * lc.delay / 100.0, 100.0 * o.loss, o.drops.size(),
      o.delayed_ack ? "delayed" : "per-segment", rc.sack ? " with SACK" : "", o.seed);
  fmt::print("tonic-run: {} ({} build: {} flows x {}-segment window)\n", mi.name, P::kProto, P::kFlows,
             P::kWindow);
  fmt::print("scenario:  {}\n", scenario);
  fmt::print("           {} cycles, sampled flow {}\n", grp(o.cycles), o.sample);
  std::fflush(stdout);

  auto& d = tb.dut();

#if TONIC_RUN_TRACE
  std::unique_ptr<VerilatedFstC> fst;
  if (!o.trace.empty()) {
    if (const fs::path parent = fs::path(o.trace).parent_path(); !parent.empty()) fs::create_directories(parent, ec);
    d.contextp()->traceEverOn(true);
    fst = std::make_unique<VerilatedFstC>();
    d.trace(fst.get(), 99);
    fst->open(o.trace.c_str());
    if (!fst->isOpen()) {
      fmt::print(stderr, "error: cannot open --trace {}\n", o.trace);
      return 1;
    }
    fmt::print("trace:     {} (FST, one sample per cycle after the clock edge)\n", o.trace);
    fst->dump(d.contextp()->time());
  }
#endif

  const uint64_t c0 = tb.cycle();  // after reset: cycle 0 of the run
  uint64_t tx_new = 0, tx_rtx = 0, cwnd_rows = 0;
  tb.on_seg = [&](const SegOut& s) {
    if (s.flow != o.sample) return;
    fmt::print(tx_f, "{},{},{}\n", s.cycle - c0, s.idx, s.rtx ? 1 : 0);
    ++(s.rtx ? tx_rtx : tx_new);
  };

  // Sampled flow's cwnd, from the probe port, once the flow is added.
  uint32_t w_min = UINT32_MAX, w_max = 0, w_prev = UINT32_MAX, w_last = 0;
  uint64_t w_sum = 0, w_n = 0, w_decreases = 0;

  Progress prog(o.cycles, o.quiet);
  const auto t0 = Clock::now();
  uint64_t done = 0;
  while (done < o.cycles && tb.errors() == 0) {
    d.probe_flow_i = o.sample;
    tb.step();
    ++done;
#if TONIC_RUN_TRACE
    if (fst) fst->dump(d.contextp()->time());
#endif
    // The probe now shows the flow at the start of run cycle `done`.
    if (tb.flow(o.sample).added) {
      const uint32_t w = d.probe_wnd_o;
      if (w != w_prev || done % kCwndEvery == 0) {
        fmt::print(cwnd_f, "{},{},{},{}\n", done, w, static_cast<uint32_t>(d.probe_start_o),
                   static_cast<uint32_t>(d.probe_next_o));
        ++cwnd_rows;
      }
      if (w_prev != UINT32_MAX && w < w_prev) ++w_decreases;
      w_prev = w_last = w;
      w_min = std::min(w_min, w);
      w_max = std::max(w_max, w);
      w_sum += w;
      ++w_n;
    }
    prog.update(done);
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  prog.finish(done);
#if TONIC_RUN_TRACE
  if (fst) fst->close();
#endif
  std::fclose(cwnd_f);
  std::fclose(tx_f);

  // Results.
  const uint64_t segs = tb.outs();
  const double spc = done ? static_cast<double>(segs) / static_cast<double>(done) : 0.0;
  std::vector<uint64_t> per_flow(o.flows), per_flow_acked(o.flows);
  uint64_t rtx_out = 0, acked = 0;
  std::vector<uint32_t> rtx_flows;
  for (uint32_t f = 0; f < o.flows; ++f) {
    const FlowTrack& t = tb.flow(f);
    if (t.rtx) rtx_flows.push_back(f);
    per_flow[f] = t.sent;
    per_flow_acked[f] = t.acked - t.start;
    rtx_out += t.rtx;
    acked += per_flow_acked[f];
  }
  const Spread sp = spread(per_flow);
  const uint32_t dut_segs = stat(d, Stat::kSegments), dut_rtx = stat(d, Stat::kRetransmits),
                 dut_to = stat(d, Stat::kTimeouts);
  nlohmann::json dut_errors = nlohmann::json::object();
  std::string dut_err_text;
  for (const auto& [name, s] : kDdBadInputStats) {
    const uint32_t v = stat(d, s);
    dut_errors[name] = v;
    if (v) dut_err_text += fmt::format(" {}={}", name, v);
  }
  const double w_mean = w_n ? static_cast<double>(w_sum) / static_cast<double>(w_n) : 0.0;
  if (w_n == 0) w_min = 0;

  // Plot.
  PlotInput pin;
  pin.title = fmt::format("tonic-run: {}, {}", mi.name, scenario);
  pin.flow = o.sample;
  pin.cwnd_rows = cwnd_rows;
  pin.tx_new = tx_new;
  pin.tx_rtx = tx_rtx;
  const std::string png = make_plot(dir, pin);

  // Summary on stdout.
  auto line = [](const char* what, const std::string& v) { fmt::print("  {:<22}{}\n", what, v); };
  fmt::print("\nresults\n");
  line("cycles", grp(done));
  line("segments", fmt::format("{}  ({:.4f} segments/cycle = {:.2f} Mpps at 100 MHz)", grp(segs), spc,
                               spc * 100.0));
  line("retransmissions", fmt::format("{} segments out ({:.3f} %; DUT counter {})", grp(rtx_out),
                                      segs ? 100.0 * static_cast<double>(rtx_out) / static_cast<double>(segs) : 0.0,
                                      grp(dut_rtx)));
  line("timeouts", grp(dut_to));
  {
    std::string eg;
    for (size_t i = 0; i < rtx_flows.size() && i < 5; ++i) eg += fmt::format("{}{}", i ? ", " : "", rtx_flows[i]);
    line("flows retransmitting", fmt::format("{} of {}{}", grp(rtx_flows.size()), grp(o.flows),
                                             eg.empty() ? "" : " (e.g. " + eg + "; try --sample-flow)"));
  }
  line("network drops", fmt::format("{} ({} listed, {} random)", grp(tb.link().dropped()),
                                    grp(drops.hits_list()), grp(drops.hits_bernoulli())));
  line("acked (goodput)", fmt::format("{} segments ({:.4f} per cycle)", grp(acked),
                                      done ? static_cast<double>(acked) / static_cast<double>(done) : 0.0));
  line("per-flow segments", fmt::format("min {} / median {} / max {}  (max/min {})", grp(sp.min),
                                        grp(sp.median), grp(sp.max),
                                        sp.min ? fmt::format("{:.3f}", sp.ratio) : std::string("inf")));
  line(fmt::format("flow {} cwnd", o.sample).c_str(),
       w_n ? fmt::format("min {} / max {} / mean {:.1f} / final {} segments, {} decrease(s), {} rows in cwnd.csv",
                         w_min, w_max, w_mean, w_last, w_decreases, grp(cwnd_rows))
           : std::string("flow not added yet"));
  line(fmt::format("flow {} sent", o.sample).c_str(),
       fmt::format("{} new, {} retransmitted (tx.csv)", grp(tx_new), grp(tx_rtx)));
  line("checks", tb.errors() ? fmt::format("FAILED: {} error(s), first: {}", tb.errors(), tb.first_error())
                             : std::string("every segment address passed"));
  if (!dut_err_text.empty()) line("DUT error counters", dut_err_text);
  line("wall time", fmt::format("{:.2f} s ({} simulated cycles/s)", wall,
                                grp(static_cast<uint64_t>(wall > 0 ? static_cast<double>(done) / wall : 0))));

  // summary.json
  nlohmann::json j;
  j["model"] = {{"name", mi.name}, {"protocol", P::kProto}, {"flow_count", P::kFlows},
                {"window", P::kWindow}, {"ring", P::kRing}};
  nlohmann::json dl = nlohmann::json::array();
  for (const DropEntry& e : o.drops) dl.push_back({{"flow", e.flow}, {"seg", e.seg}, {"tx", e.tx}});
  j["scenario"] = {{"flows", o.flows},
                   {"cycles", o.cycles},
                   {"rtt_cycles", 2 * lc.delay},
                   {"one_way_delay_cycles", lc.delay},
                   {"loss", o.loss},
                   {"drops", dl},
                   {"delayed_ack", o.delayed_ack},
                   {"sack_receiver", rc.sack},
                   {"seed", o.seed},
                   {"sample_flow", o.sample},
                   {"segment_bytes", kSegSize},
                   {"trace", o.trace}};
  j["results"] = {
      {"cycles", done},
      {"segments", segs},
      {"segments_per_cycle", spc},
      {"mpps_at_100mhz", spc * 100.0},
      {"retransmissions", rtx_out},
      {"flows_retransmitting", rtx_flows.size()},
      {"acked_segments", acked},
      {"network_drops", tb.link().dropped()},
      {"dut", {{"segments", dut_segs}, {"retransmits", dut_rtx}, {"timeouts", dut_to}, {"errors", dut_errors}}},
      {"per_flow_segments",
       {{"min", sp.min}, {"median", sp.median}, {"max", sp.max},
        {"max_over_min", sp.min ? nlohmann::json(sp.ratio) : nlohmann::json(nullptr)}, {"all", per_flow}}},
      {"sample_cwnd",
       {{"flow", o.sample}, {"min", w_min}, {"max", w_max}, {"mean", w_mean}, {"final", w_last},
        {"decreases", w_decreases}, {"csv_rows", cwnd_rows}, {"tx_new", tx_new}, {"tx_rtx", tx_rtx}}},
      {"check_errors", tb.errors()},
      {"first_error", tb.first_error()},
      {"wall_s", wall},
      {"cycles_per_s", wall > 0 ? static_cast<double>(done) / wall : 0.0}};
  j["files"] = {{"cwnd_csv", cwnd_path.string()}, {"tx_csv", tx_path.string()},
                {"plot_script", (dir / "plot.gp").string()}, {"png", png}};
  {
    std::ofstream jf(json_path);
    jf << j.dump(2) << "\n";
  }

  line("files", fmt::format("{}/ cwnd.csv tx.csv summary.json plot.gp{}", dir.string(),
                            png.empty() ? "" : " cwnd.png"));
#if TONIC_RUN_TRACE
  if (!o.trace.empty()) line("waveform", o.trace);
#endif
  return tb.errors() ? 1 : 0;
}

using RunFn = int (*)(const Options&, const ModelInfo&);

RunFn runner_for(const std::string& name) {
#if TONIC_RUN_TRACE
  if (name == kTracedModel) return run_scenario<Vtonic_newreno_1024x128_trace>;
#else
  if (name == "tonic_reno_1024x128") return run_scenario<Vtonic_reno_1024x128>;
  if (name == "tonic_newreno_1024x128") return run_scenario<Vtonic_newreno_1024x128>;
  if (name == "tonic_sack_1024x128") return run_scenario<Vtonic_sack_1024x128>;
  if (name == "tonic_newreno_2048x256") return run_scenario<Vtonic_newreno_2048x256>;
  if (name == "tonic_newreno_4096x256") return run_scenario<Vtonic_newreno_4096x256>;
#endif
  return nullptr;
}

int usage_error(const std::string& msg) {
  fmt::print(stderr, "error: {}\nRun with --help for more information.\n", msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "tonic-run: the Tonic sender (tonic_top, Verilated) with N saturated flows over a\n"
      "delay/loss network of TCP receivers, one segment address per 10 ns cycle.\n"
      "Prints throughput (segments/cycle, Mpps at 100 MHz), retransmissions, timeouts,\n"
      "the per-flow spread and the sampled flow's cwnd; writes cwnd.csv, tx.csv,\n"
      "summary.json, plot.gp and cwnd.png (gnuplot) into --out."};
  app.footer(
      "Builds: reno 1024x128, newreno 1024x128 / 2048x256 / 4096x256, sack 1024x128\n"
      "(FlowCount x Window). Exit status: 0 ok, 1 a check failed, 2 bad options.");
  app.add_option("--protocol", o.protocol, "congestion control build: reno | newreno | sack")
      ->check(CLI::IsMember({"reno", "newreno", "sack"}))
      ->capture_default_str();
  app.add_option("--window", o.window,
                 "window ring size of the build: 128 | 256 (default: the smallest build holding --flows; "
                 "256 is newreno only)")
      ->check(CLI::IsMember({128u, 256u}));
  app.add_option("--flows", o.flows, "saturated flows 0..N-1 (1..4096, at most the build's FlowCount)")
      ->check(CLI::Range(1u, 4096u))
      ->capture_default_str();
  app.add_option("--cycles", o.cycles, "cycles to simulate (10 ns each at 100 MHz)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000'000'000}))
      ->capture_default_str();
  app.add_option("--rtt", o.rtt, "round-trip time in cycles (one-way delay rtt/2; 1000 = 10 us)")
      ->check(CLI::Range(uint64_t{2}, uint64_t{1'000'000'000}))
      ->capture_default_str();
  app.add_option("--loss", o.loss, "Bernoulli drop probability per data segment, in [0, 1)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            double p = -1;
            try {
              size_t used = 0;
              p = std::stod(s, &used);
              if (used != s.size()) return "not a number: " + s;
            } catch (...) {
              return "not a number: " + s;
            }
            if (!(p >= 0.0 && p < 1.0)) return "must be in [0, 1), got " + s;
            return "";
          },
          "in [0, 1)"))
      ->capture_default_str();
  app.add_option("--drops", o.drops_text,
                 "explicit drops 'flow:seg[:tx],...' (tx 0 = first transmission, 1 = first retransmission)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            return parse_drops(s, nullptr);
          },
          "flow:seg[:tx],..."));
  app.add_flag("--delayed-ack", o.delayed_ack, "receivers ack every 2nd in-order segment (200-cycle timer)");
  auto* sack_on = app.add_flag("--sack-receiver", o.sack_rx_on, "receivers send SACK (default: on for sack)");
  app.add_flag("--no-sack-receiver", o.sack_rx_off, "receivers send no SACK")->excludes(sack_on);
  app.add_option("--seed", o.seed, "random seed (drops, DMA sink)")->capture_default_str();
  app.add_option("--out", o.out, "output directory")->capture_default_str();
  app.add_option("--sample-flow", o.sample, "flow traced in cwnd.csv / tx.csv / the plot")->capture_default_str();
  app.add_option("--trace", o.trace,
                 "FST waveform of the run (slow; only newreno 1024x128: --protocol newreno, --flows <= 1024, "
                 "no --window 256; runs tonic-run-trace)");
  app.add_flag("--quiet", o.quiet, "no progress bar");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  if (const std::string e = parse_drops(o.drops_text, &o.drops); !e.empty()) return usage_error("--drops: " + e);
  for (const DropEntry& e : o.drops) {
    if (e.flow >= o.flows)
      return usage_error(fmt::format("--drops: flow {} is not one of the {} flows (0..{})", e.flow, o.flows,
                                     o.flows - 1));
  }
  if (o.sample >= o.flows)
    return usage_error(fmt::format("--sample-flow {} is not one of the {} flows (0..{})", o.sample, o.flows,
                                   o.flows - 1));
  std::string err;
  const ModelInfo* mi = choose_model(o, err);
  if (!mi) return usage_error(err);

  if (!o.trace.empty() && std::string(mi->name) != kTracedModel)
    return usage_error(fmt::format("--trace needs the traced build {} (--protocol newreno, --flows <= 1024, "
                                   "no --window 256); this run picks {}",
                                   kTracedModel, mi->name));
#if !TONIC_RUN_TRACE
  if (!o.trace.empty()) {
    // The traced build lives in its own executable (its own runtime).
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const fs::path helper = (ec ? fs::path(argv[0]) : self).parent_path() / "tonic-run-trace";
    if (!fs::exists(helper)) {
      fmt::print(stderr, "error: --trace needs {} (build the tonic-run-trace target)\n", helper.string());
      return 1;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    execv(helper.c_str(), argv);
    fmt::print(stderr, "error: cannot run {}: {}\n", helper.string(), std::strerror(errno));
    return 1;
  }
#endif

  const RunFn fn = runner_for(mi->name);
  if (!fn) return usage_error(fmt::format("{} is not in this executable", mi->name));
  try {
    return fn(o, *mi);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
}
