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
#include "tonic/protocol_registry.hpp"
#include "tonic_models.hpp"
#if !TONIC_RUN_TRACE
#include "tonic/line_rig.hpp"
#include "tonic/net_models.hpp"
#endif

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
#define TONIC_DEFAULT_PROTOCOL "all"
#endif

struct DropEntry {
  uint32_t flow = 0, seg = 0, tx = 0;
};

struct Options {
  std::string protocol = TONIC_DEFAULT_PROTOCOL;  // cmake -DTONIC_PROTOCOL (default all)
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
  bool suite = false;  // the suite's two runs even for a protocol with a detailed run
  bool cycles_given = false, sample_given = false;
  // The suite's bottleneck (--protocol all, or a protocol with no window twin).
  uint32_t bn_flows = 32;
  uint32_t bn_drain = 250;       // bytes per cycle
  uint64_t bn_buffer = 256'000;  // bytes

  /// The receivers send SACK: asked for, or by the protocol's receiver mode.
  bool sack_receiver() const {
    if (sack_rx_on || sack_rx_off) return sack_rx_on;
    for (const tonic::registry::Protocol& p : tonic::registry::kProtocols)
      if (protocol == p.name) return p.receiver == tonic::registry::Receiver::kTcpSack;
    return false;
  }
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

/// The TCP receivers' settings of a detailed run.
template <class Model>
RxConfig rx_config(const Options& o) {
  RxConfig rc;
  rc.window = TonicParams<Model>::kWindow;
  rc.delayed_ack = o.delayed_ack;
  rc.sack = o.sack_receiver();
  return rc;
}

/// The drops and the saturated flows of a detailed run.
template <class Model>
void populate(TonicTb<Model>& tb, const Options& o) {
  DropModel& drops = tb.link().drops();
  if (o.loss > 0.0) drops.bernoulli(o.loss, o.seed * 0x9E3779B97F4A7C15ull + 0x5EED);
  for (const DropEntry& e : o.drops) drops.drop_at(e.flow, e.seg, e.tx);
  for (uint32_t f = 0; f < o.flows; ++f) tb.add_flow(f, 0, kSegSize, kPosted);
}

/// The flow to sample when --sample-flow is not given: the run is
/// deterministic (seeded drops and DMA sink), so a first pass without
/// outputs finds the flow with the most retransmissions (the first such;
/// 0 if no flow retransmits), whose cwnd then shows the losses.
template <class Model>
uint32_t lossy_flow(const Options& o) {
  LinkConfig lc;
  lc.delay = o.rtt / 2;
  TonicTb<Model> tb(lc, rx_config<Model>(o), o.seed);
  populate(tb, o);
  for (uint64_t i = 0; i < o.cycles && tb.errors() == 0; ++i) tb.step();
  uint32_t best = 0;
  for (uint32_t f = 0; f < o.flows; ++f)
    if (tb.flow(f).rtx > tb.flow(best).rtx) best = f;
  return best;
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
  const RxConfig rc = rx_config<Model>(o);
  TonicTb<Model> tb(lc, rc, o.seed);
  populate(tb, o);
  DropModel& drops = tb.link().drops();

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

// ---------------------------------------------------------------------------
// The suite: every protocol of the registry (or one) on LineRig
// (lib/tonic/line_rig.hpp), at line rate and through a bottleneck.

#if !TONIC_RUN_TRACE
namespace registry = tonic::registry;

constexpr uint64_t kSuiteCycles = 200'000;  // suite default --cycles (per run)

/// What one suite run measured.
struct SuiteRow {
  std::string protocol, credit, network, model;
  uint64_t cycles = 0, segments = 0, rtx = 0, timeouts = 0, acked = 0, drops = 0, marks = 0, trims = 0;
  uint64_t rx_beats = 0, rx_backlog = 0, rx_backlog_max = 0;
  bool host_restart = false;
  uint64_t restarts = 0;  // go-back-0 message restarts by the host
  double spc = 0, goodput_gbps = 0, jain = 0, wall = 0;
  Spread acked_spread;
  std::vector<uint64_t> lat;  // ack-to-retransmit latencies (cycles)
  uint64_t errors = 0;
  std::string first_error, bad_input;
  uint32_t sample = 0;
  std::string dir, png;
};

const char* credit_name(registry::Credit c) {
  switch (c) {
    case registry::Credit::kWindow: return "window";
    case registry::Credit::kRate: return "rate";
    case registry::Credit::kTokens: return "tokens";
  }
  return "?";
}

/// The 1024 x 128 network build of protocol p (tonic_<name>_1024x128).
const registry::Build* line_build(registry::ProtocolId p) {
  const std::string want = std::string("tonic_") + registry::get(p).name + "_1024x128";
  for (const registry::Build& b : registry::kBuilds)
    if (b.network && b.protocol == p && want == b.config) return &b;
  return nullptr;
}

/// The bottleneck each credit scheme must react to: drop-tail for window
/// credit (losses), ECN marking for rate credit (DCQCN's congestion point;
/// drops when full), trimming for token credit (NDP).
Bottleneck bottleneck_for(const registry::Protocol& p, const Options& o) {
  Bottleneck b;
  b.on = true;
  b.drain_bytes = o.bn_drain;
  b.buffer_bytes = o.bn_buffer;
  b.ecn = p.credit == registry::Credit::kRate;
  b.trim = p.credit == registry::Credit::kTokens;
  return b;
}

/// Writes the sampled flow's traces and plot.gp into dir; runs gnuplot.
template <class Rig>
std::string suite_files(const fs::path& dir, Rig& rig, const SuiteRow& r, bool window, bool rate) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  {
    std::ofstream tx(dir / "tx.csv");
    tx << "cycle,idx,rtx\n";
    for (const LineSeg& s : rig.segs())
      if (s.flow == r.sample) tx << s.cycle << "," << s.idx << "," << (s.rtx ? 1 : 0) << "\n";
    std::ofstream st(dir / "state.csv");
    st << "cycle,wnd,ssthresh,rate_gbps\n";
    for (const LineSample& s : rig.samples())
      if (s.flow == r.sample)
        st << s.cycle << "," << s.wnd << "," << s.ssthresh << "," << (s.rate >= 0 ? s.rate * 0.8 : -1.0) << "\n";
  }
  {
    std::ofstream f(dir / "plot.gp");
    f << "# Generated by tonic-run: the sampled flow's congestion state and segments sent.\n"
         "# Re-plot with: cd <this directory> && gnuplot plot.gp\n"
         "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
         "  set terminal pngcairo size 1400,1000 noenhanced font \",11\"\n"
         "} else {\n"
         "  set terminal png size 1400,1000 noenhanced\n"
         "}\n"
         "set output \"plot.png\"\n"
         "set datafile separator \",\"\n"
         "set grid\nset key top left\n"
      << "set multiplot layout 2,1 title "
      << gp_str(fmt::format("tonic-run: {} ({} credit), {}, flow {}", r.protocol, r.credit, r.network, r.sample)) << "\n"
      << "set xlabel \"cycle\"\n";
    if (rate) {
      f << "set title \"rate (user state, trace ports)\"\nset ylabel \"Gb/s at 100 MHz\"\n"
           "plot \"state.csv\" skip 1 using 1:($4 >= 0 ? $4 : 1/0) with steps lw 2 lc rgb \"#1f77b4\" title \"rate\"\n";
    } else {
      f << "set title " << gp_str(window ? "congestion window (trace ports)" : "window (trace ports)") << "\n"
        << "set ylabel \"segments\"\n"
           "plot \"state.csv\" skip 1 using 1:2 with steps lw 2 lc rgb \"#1f77b4\" title \"wnd\"";
      if (window) f << ", \\\n     \"state.csv\" skip 1 using 1:($3 >= 0 ? $3 : 1/0) with steps lw 1 lc rgb \"#2ca02c\" title \"ssthresh\"";
      f << "\n";
    }
    f << "set title \"segments sent\"\nset ylabel \"segment index\"\n"
         "plot \"tx.csv\" skip 1 using 1:($3 == 0 ? $2 : 1/0) with points pt 7 ps 0.25 lc rgb \"#1f77b4\" title \"new\", \\\n"
         "     \"tx.csv\" skip 1 using 1:($3 == 1 ? $2 : 1/0) with points pt 6 ps 1.2 lw 2 lc rgb \"#d62728\" title \"retransmission\"\n"
         "unset multiplot\n";
  }
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return "";
  const std::string cmd = fmt::format("cd {} && gnuplot plot.gp > plot.log 2>&1", shell_quote(dir.string()));
  if (std::system(cmd.c_str()) != 0 || !fs::exists(dir / "plot.png")) {
    fmt::print(stderr, "warning: gnuplot failed: see {}\n", (dir / "plot.log").string());
    return "";
  }
  fs::remove(dir / "plot.log", ec);
  return (dir / "plot.png").string();
}

/// One protocol on one network.
SuiteRow suite_run(registry::ProtocolId p, bool bottleneck, const Options& o) {
  const registry::Protocol& proto = registry::get(p);
  const registry::Build* b = line_build(p);
  if (!b) throw std::runtime_error(std::string("no tonic_") + proto.name + "_1024x128 network build");
  LineConfig c;
  c.flows = bottleneck ? o.bn_flows : o.flows;
  c.rtt = o.rtt;
  c.loss = bottleneck ? 0.0 : o.loss;
  c.seed = o.seed;
  c.seg_bytes = kSegSize;
  c.rx.delayed_ack = o.delayed_ack;
  c.rx.sack = o.sack_rx_on ? 1 : o.sack_rx_off ? 0 : -1;
  // NDP pulls pace the senders at the receiver's link: one segment per
  // pull at line rate (1 per cycle), or at the bottleneck's drain.
  c.pull_gap = bottleneck ? std::max<uint64_t>(1, (kSegSize + o.bn_drain - 1) / o.bn_drain) : 1;
  if (bottleneck) c.bottleneck = bottleneck_for(proto, o);
  SuiteRow r;
  r.protocol = proto.name;
  r.credit = credit_name(proto.credit);
  r.network = bottleneck ? "bottleneck" : "line rate";
  r.model = b->config;
  const uint64_t cycles = o.cycles_given ? o.cycles : kSuiteCycles;
  return registry::with_net_model(b->config, [&](auto tag) {
    using T = decltype(tag);
    if (c.flows > T::kFlows) throw std::runtime_error(fmt::format("--flows: {} holds {}", b->config, T::kFlows));
    LineRig<typename T::Model, T::kFlows, T::kWindow> rig(p, c);
    const auto t0 = Clock::now();
    rig.run(cycles);
    r.wall = std::chrono::duration<double>(Clock::now() - t0).count();
    r.cycles = rig.cycles();
    r.segments = rig.segments();
    r.spc = r.cycles ? double(r.segments) / double(r.cycles) : 0.0;
    r.rtx = rig.retransmissions();
    r.timeouts = rig.stat(DdStat::kTimeouts);
    r.drops = rig.dropped();
    r.marks = rig.queue().marks();
    r.trims = rig.queue().trims();
    r.host_restart = proto.host_restart;
    r.restarts = rig.restarts();
    r.rx_beats = rig.rx_beats();
    r.rx_backlog = rig.rx_backlog();
    r.rx_backlog_max = rig.rx_backlog_max();
    std::vector<uint64_t> acked;
    double sum = 0, sq = 0;
    uint64_t best = 0;
    r.sample = 0;
    for (uint32_t f = 0; f < c.flows; ++f) {
      const auto& t = rig.flows()[f];
      acked.push_back(t.acked);
      r.acked += t.acked;
      sum += double(t.acked);
      sq += double(t.acked) * double(t.acked);
      if (t.rtx > best) {
        best = t.rtx;
        r.sample = f;
      }
    }
    if (o.sample_given && o.sample < c.flows) r.sample = o.sample;
    r.acked_spread = spread(acked);
    r.jain = sq > 0 ? sum * sum / (double(c.flows) * sq) : 0.0;
    r.goodput_gbps = r.cycles ? double(r.acked) * kSegSize * 0.8 / double(r.cycles) : 0.0;
    r.lat = rig.ack_to_rtx();
    std::sort(r.lat.begin(), r.lat.end());
    r.errors = rig.errors();
    r.first_error = rig.first_error();
    r.bad_input = rig.bad_input_text();
    const fs::path dir = fs::path(o.out) / proto.name / (bottleneck ? "bottleneck" : "line");
    r.dir = dir.string();
    r.png = suite_files(dir, rig, r, proto.credit == registry::Credit::kWindow, proto.rate.present());
    return r;
  });
}

nlohmann::json to_json(const SuiteRow& r) {
  auto pct = [&](double q) -> nlohmann::json {
    if (r.lat.empty()) return nullptr;
    return r.lat[std::min(r.lat.size() - 1, size_t(q * double(r.lat.size())))];
  };
  return {{"protocol", r.protocol},
          {"credit", r.credit},
          {"network", r.network},
          {"model", r.model},
          {"cycles", r.cycles},
          {"segments", r.segments},
          {"segments_per_cycle", r.spc},
          {"mpps_at_100mhz", r.spc * 100.0},
          {"ack_to_retransmit_cycles", {{"count", r.lat.size()}, {"min", pct(0)}, {"median", pct(0.5)}, {"p99", pct(0.99)}}},
          {"acked_segments", r.acked},
          {"goodput_gbps_at_100mhz", r.goodput_gbps},
          {"retransmissions", r.rtx},
          {"timeouts", r.timeouts},
          {"network_drops", r.drops},
          {"ecn_marks", r.marks},
          {"trimmed", r.trims},
          {"rx_beats", r.rx_beats},
          {"host_restarts", r.restarts},
          {"rx_port_backlog", {{"end", r.rx_backlog}, {"max", r.rx_backlog_max}}},
          {"per_flow_acked", {{"min", r.acked_spread.min}, {"median", r.acked_spread.median}, {"max", r.acked_spread.max}}},
          {"jain", r.jain},
          {"check_errors", r.errors},
          {"first_error", r.first_error},
          {"dut_bad_input", r.bad_input},
          {"sample_flow", r.sample},
          {"dir", r.dir},
          {"png", r.png},
          {"wall_s", r.wall}};
}

/// Every selected protocol at line rate and through the bottleneck; one table.
int run_suite(const Options& o) {
  std::vector<registry::ProtocolId> ps;
  for (int i = 0; i < registry::kProtocolCount; ++i)
    if (o.protocol == "all" || o.protocol == registry::kProtocols[i].name) ps.push_back(static_cast<registry::ProtocolId>(i));
  const uint64_t cycles = o.cycles_given ? o.cycles : kSuiteCycles;
  fmt::print("tonic-run: {} protocol(s), each {} cycles at line rate ({} flows, RTT {} cycles, loss {:g} %) and {} cycles "
             "through a bottleneck ({} flows, {} B/cycle = {:g} Gb/s at 100 MHz, {} B buffer; drop-tail for window credit, "
             "ECN for rate credit, trimming for token credit), {} B segments, seed {}\n",
             ps.size(), grp(cycles), o.flows, o.rtt, 100.0 * o.loss, grp(cycles), o.bn_flows, o.bn_drain,
             o.bn_drain * 0.8, grp(o.bn_buffer), kSegSize, o.seed);
  std::fflush(stdout);
  const auto t0 = Clock::now();
  std::vector<SuiteRow> rows;
  for (registry::ProtocolId p : ps)
    for (bool bn : {false, true}) {
      rows.push_back(suite_run(p, bn, o));
      const SuiteRow& r = rows.back();
      if (!o.quiet)
        fmt::print(stderr, "  {} {}: {:.1f} s{}\n", r.protocol, r.network, r.wall, r.errors ? " FAILED" : "");
    }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();

  auto lat = [](const SuiteRow& r) {
    return r.lat.empty() ? std::string("-") : fmt::format("{}", r.lat[r.lat.size() / 2]);
  };
  fmt::print("\n{:<13} {:<7} {:<10} {:>9} {:>7} {:>8} {:>8} {:>7} {:>6} {:>22} {:>6}  {}\n", "protocol", "credit", "network",
             "seg/cycle", "Mpps", "ack->rtx", "goodput", "rtx", "RTOs", "per-flow acked", "Jain", "checks");
  fmt::print("{:<13} {:<7} {:<10} {:>9} {:>7} {:>10} {:>8} {:>7} {:>6} {:>22} {:>6}\n", "", "", "", "", "@100MHz", "median",
             "Gb/s", "", "", "min/median/max", "");
  bool bad = false;
  for (const SuiteRow& r : rows) {
    const std::string spread_s = fmt::format("{}/{}/{}", r.acked_spread.min, r.acked_spread.median, r.acked_spread.max);
    fmt::print("{:<13} {:<7} {:<10} {:>9.4f} {:>7.2f} {:>10} {:>8.2f} {:>7} {:>6} {:>22} {:>6.3f}  {}\n", r.protocol, r.credit,
               r.network, r.spc, r.spc * 100.0, lat(r), r.goodput_gbps, r.rtx, r.timeouts, spread_s, r.jain,
               r.errors ? "FAILED" : "passed");
    bad = bad || r.errors;
  }
  for (const SuiteRow& r : rows)
    if (r.host_restart)
      fmt::print("  {} {}: {} go-back-0 message restarts by the host (messages of {} segments)\n", r.protocol, r.network,
                 r.restarts, LineConfig{}.msg_segments);
  for (const SuiteRow& r : rows)
    if (r.errors) fmt::print("  {} {}: {} check(s) failed, first: {}\n", r.protocol, r.network, r.errors, r.first_error);
  fmt::print("\nack->rtx: median cycles from the rx beat (ACK, SACK, NACK) that triggered a retransmission to the "
             "retransmission leaving, over the retransmissions whose trigger is unambiguous (lib/tonic/line_rig.hpp); goodput: cumulatively acked segments x {} B at 100 MHz; RTOs: the "
             "DUT's timeouts; per-flow acked: segments; go-back-0 (host_restart): the host restarts a message on a NACK, against the "
             "go-back-0 responder (tb/common/ref/gb0_receiver.hpp).\n",
             kSegSize);

  nlohmann::json j;
  j["scenario"] = {{"cycles_per_run", cycles}, {"flows", o.flows}, {"rtt_cycles", o.rtt}, {"loss", o.loss},
                   {"bottleneck", {{"flows", o.bn_flows}, {"drain_bytes_per_cycle", o.bn_drain}, {"buffer_bytes", o.bn_buffer}}},
                   {"segment_bytes", kSegSize}, {"seed", o.seed}};
  j["runs"] = nlohmann::json::array();
  for (const SuiteRow& r : rows) j["runs"].push_back(to_json(r));
  j["wall_s"] = wall;
  std::error_code ec;
  fs::create_directories(o.out, ec);
  const fs::path js = fs::path(o.out) / "summary.json";
  std::ofstream(js) << j.dump(2) << "\n";
  fmt::print("files: {} and <protocol>/{{line,bottleneck}}/ tx.csv state.csv plot.gp{}; wall time {:.1f} s\n", js.string(),
             rows.empty() || rows[0].png.empty() ? "" : " plot.png", wall);
  return bad ? 1 : 0;
}
#endif  // !TONIC_RUN_TRACE

using RunFn = int (*)(const Options&, const ModelInfo&);
using PilotFn = uint32_t (*)(const Options&);

/// The detailed run of a build and its first pass (lossy_flow).
struct Runner {
  RunFn run = nullptr;
  PilotFn pilot = nullptr;
};

template <class Model>
Runner runner() {
  return {run_scenario<Model>, lossy_flow<Model>};
}

Runner runner_for(const std::string& name) {
#if TONIC_RUN_TRACE
  if (name == kTracedModel) return runner<Vtonic_newreno_1024x128_trace>();
#else
  if (name == "tonic_reno_1024x128") return runner<Vtonic_reno_1024x128>();
  if (name == "tonic_newreno_1024x128") return runner<Vtonic_newreno_1024x128>();
  if (name == "tonic_sack_1024x128") return runner<Vtonic_sack_1024x128>();
  if (name == "tonic_newreno_2048x256") return runner<Vtonic_newreno_2048x256>();
  if (name == "tonic_newreno_4096x256") return runner<Vtonic_newreno_4096x256>();
#endif
  return {};
}

int usage_error(const std::string& msg) {
  fmt::print(stderr, "error: {}\nRun with --help for more information.\n", msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "tonic-run: the Tonic sender (tonic_top, Verilated) with N saturated flows, one\n"
      "segment address per 10 ns cycle. --protocol all (the default): every protocol of\n"
      "the registry with its receiver model, at line rate and through a bottleneck\n"
      "queue, one table, summary.json and per-protocol plots in --out. --protocol <name>:\n"
      "that protocol; a window protocol with a twin here gets the detailed run (TCP\n"
      "receivers, the window reference checked, cwnd.csv, tx.csv, cwnd.png)."};
  app.footer(
      "Detailed builds: reno 1024x128, newreno 1024x128 / 2048x256 / 4096x256, sack 1024x128\n"
      "(FlowCount x Window). Exit status: 0 ok, 1 a check failed, 2 bad options.");
  std::vector<std::string> names{"all"};
  for (const tonic::registry::Protocol& p : tonic::registry::kProtocols) names.push_back(p.name);
  app.add_option("--protocol", o.protocol,
                 std::string("all (the suite: every protocol at line rate and through a bottleneck) or one of ") +
                     tonic::registry::kNames)
      ->check(CLI::IsMember(names))
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
  app.add_option("--sample-flow", o.sample,
                 "flow traced in cwnd.csv / tx.csv / the plot (default: the flow with the most retransmissions, found "
                 "by a first pass of the same deterministic run)");
  app.add_option("--trace", o.trace,
                 "FST waveform of the run (slow; only newreno 1024x128: --protocol newreno, --flows <= 1024, "
                 "no --window 256; runs tonic-run-trace)");
  app.add_option("--bottleneck-flows", o.bn_flows, "suite: flows through the bottleneck")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--bottleneck-drain", o.bn_drain, "suite: bottleneck drain in bytes per cycle (125 = 100 Gb/s at 100 MHz)")
      ->check(CLI::Range(1u, 100000u))
      ->capture_default_str();
  app.add_option("--bottleneck-buffer", o.bn_buffer, "suite: bottleneck buffer in bytes")
      ->check(CLI::Range(uint64_t{2000}, uint64_t{1} << 32))
      ->capture_default_str();
  app.add_flag("--suite", o.suite, "the suite's runs (line rate, bottleneck) also for a protocol with a detailed run");
  app.add_flag("--quiet", o.quiet, "no progress bar");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  o.cycles_given = app.count("--cycles") > 0;
  o.sample_given = app.count("--sample-flow") > 0;
  if (const std::string e = parse_drops(o.drops_text, &o.drops); !e.empty()) return usage_error("--drops: " + e);
  for (const DropEntry& e : o.drops) {
    if (e.flow >= o.flows)
      return usage_error(fmt::format("--drops: flow {} is not one of the {} flows (0..{})", e.flow, o.flows,
                                     o.flows - 1));
  }
  if (o.sample >= o.flows)
    return usage_error(fmt::format("--sample-flow {} is not one of the {} flows (0..{})", o.sample, o.flows,
                                   o.flows - 1));
  // The suite: every protocol (all), or one whose build has no window twin
  // here (the detailed run below is TonicTb's, for the window protocols).
  bool detailed = false;
  for (const ModelInfo& m : kModels) detailed = detailed || (!o.suite && o.protocol == m.protocol);
  if (!detailed) {
    if (o.window) return usage_error("--window: only for the detailed run of a window protocol (--protocol <name>)");
    if (!o.drops.empty()) return usage_error("--drops: only for the detailed run of a window protocol (--protocol <name>)");
    if (!o.trace.empty()) return usage_error(fmt::format("--trace needs the traced build {} (--protocol newreno)", kTracedModel));
    if (o.flows > 1024) return usage_error(fmt::format("--flows {}: the suite's builds hold 1024 flows", o.flows));
    if (o.bn_flows > 1024) return usage_error("--bottleneck-flows: at most 1024");
#if TONIC_RUN_TRACE
    return usage_error("the suite is not in tonic-run-trace");
#else
    try {
      return run_suite(o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      return 1;
    }
#endif
  }
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

  const Runner fn = runner_for(mi->name);
  if (!fn.run) return usage_error(fmt::format("{} is not in this executable", mi->name));
  try {
    if (!o.sample_given) {
      if (!o.quiet) fmt::print(stderr, "tonic-run: a first pass picks the sampled flow (--sample-flow to skip it)\n");
      o.sample = fn.pilot(o);
    }
    return fn.run(o, *mi);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
}
