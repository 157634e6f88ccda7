// SPDX-License-Identifier: Apache-2.0
// Synthesis = simulation (docs/netlist.md): the Yosys 0.69 gate netlist of
// tonic_top (scripts/netlist.mjs) against the RTL of the same config, in
// lock step, every output port compared in every cycle, under the
// scenario of netlist_scenario.hpp. One executable per config of
// the protocol registry (protocol.json "checks": {"netlist"});
// tb/unit/netlist/CMakeLists.txt gives the
// models and the credit scheme:
//   TONIC_NL_RTL, TONIC_NL_NET      the two model classes
//   TONIC_NL_RTL_H, TONIC_NL_NET_H  their headers
//   TONIC_NL_SCHEME                 window | rate | token (Scheme::k...)
//   TONIC_NL_FLOWS                  FlowCount
//   TONIC_NL_CYCLES, TONIC_NL_DRAIN traffic cycles, drain limit
// TONIC_NETLIST_CYCLES (environment) overrides the traffic cycles.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include TONIC_NL_RTL_H
#include TONIC_NL_NET_H
#include "tonic/port_fields.hpp"
#include "netlist_lockstep.hpp"
#include "netlist_scenario.hpp"

using namespace tonic;
using namespace tonic::netlist;

namespace {

using Rtl = TONIC_NL_RTL;
using Net = TONIC_NL_NET;

/// Counters of tonic_top's stats_o (tonic/stats_layout.hpp, generated from the package).
using Stat = tonic::DdStat;
uint32_t stat(Rtl& d, Stat s) { return tonic::dd_stat(d, s); }

ScenarioConfig scenario_config() {
  ScenarioConfig c;
  c.scheme = Scheme::TONIC_NL_SCHEME;
  c.flows = TONIC_NL_FLOWS;
  switch (c.scheme) {
    case Scheme::kWindow: c.loss = 0.02; break;
    case Scheme::kRate: c.loss = 0.01; c.cnp = 0.02; break;
    case Scheme::kToken: c.loss = 0.0; c.trim = 0.03; break;
  }
  return c;
}

const char* scheme_name(Scheme s) {
  return s == Scheme::kWindow ? "window" : s == Scheme::kRate ? "rate" : "token";
}

uint64_t traffic_cycles() {
  if (const char* e = std::getenv("TONIC_NETLIST_CYCLES"); e && *e) return std::strtoull(e, nullptr, 0);
  return TONIC_NL_CYCLES;
}

struct RunResult {
  uint64_t cycles = 0, drain_cycles = 0;
  double seconds = 0;
  bool delivered = false;
};

/// Reset, the init sweep, `cycles` of traffic, then the drain (at most
/// `drain` cycles, until every posted segment arrived). Stops at the first
/// mismatch.
RunResult run(LockStep<Rtl, Net>& ls, Scenario<Rtl>& sc, uint64_t cycles, uint64_t drain) {
  RunResult r;
  const auto t0 = std::chrono::steady_clock::now();
  auto& d = ls.dut();
  d.ctrl_valid_i = 0;
  d.rx_valid_i = 0;
  d.seg_ready_i = 1;
  d.note_ready_i = 1;
  if (!ls.reset()) return r;
  for (uint64_t i = 0; i < cycles + drain; ++i) {
    if (i == cycles) sc.set_drain(true);
    if (i >= cycles) {
      if (sc.all_delivered()) {
        r.delivered = true;
        break;
      }
      ++r.drain_cycles;
    }
    sc.drive(d, ls.cycle());
    if (!ls.eval()) break;
    sc.observe(d);
    ls.tick();
  }
  r.cycles = ls.cycle();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

/// The outputs whose value the RTL's contract leaves undefined in a cycle
/// (docs/netlist.md), which LockStep does not compare: a stream's payload
/// while its valid is low in both models (seg_*, note_*; trace_in_o,
/// trace_per_o, trace_ns_o and status_o, whose valid is a bit of the
/// word), and the probe of a flow whose state no ADD has cleared yet
/// (tonic_state_ram: a word never written or cleared is undefined). The
/// RTL has no reset on data registers and Yosys may exploit that, so
/// outside these rules every bit must match.
std::function<bool(std::string_view, uint64_t)> undefined_ports(LockStep<Rtl, Net>& ls, const Scenario<Rtl>& sc) {
  return [&ls, &sc](std::string_view port, uint64_t cycle) {
    const Rtl& r = ls.dut();
    const Net& n = ls.net();
    const auto starts = [&](std::string_view p) { return port.rfind(p, 0) == 0; };
    if (starts("probe_")) return !sc.probe_defined(cycle);
    if (starts("seg_") && port != "seg_valid_o") return !r.seg_valid_o && !n.seg_valid_o;
    if (starts("note_") && port != "note_valid_o" && port != "note_ready_i") return !r.note_valid_o && !n.note_valid_o;
    if (port == "trace_in_o") {
      return !port_field(r.trace_in_o, layout::dd_trace::kValid) && !port_field(n.trace_in_o, layout::dd_trace::kValid);
    }
    if (port == "trace_per_o") {
      return !port_field(r.trace_per_o, layout::dd_trace::kValid) && !port_field(n.trace_per_o, layout::dd_trace::kValid);
    }
    if (port == "trace_ns_o") {
      return !port_field(static_cast<uint64_t>(r.trace_ns_o), layout::ns_trace::kValid) &&
             !port_field(static_cast<uint64_t>(n.trace_ns_o), layout::ns_trace::kValid);
    }
    if (port == "status_o") {
      return !port_field(r.status_o, layout::status::kValid) && !port_field(n.status_o, layout::status::kValid);
    }
    return false;
  };
}

/// Merges fields into this config's row of build/reports/netlist.json
/// (scripts/netlist.mjs writes the Yosys and Verilator figures there).
void report(const nlohmann::json& fields) {
  const std::filesystem::path dir = std::filesystem::path(TONIC_SOURCE_DIR) / "build" / "reports";
  std::filesystem::create_directories(dir);
  const auto file = dir / "netlist.json";
  nlohmann::json rows = nlohmann::json::array();
  if (std::ifstream in(file); in) {
    try {
      in >> rows;
    } catch (const std::exception&) {
      rows = nlohmann::json::array();
    }
  }
  if (!rows.is_array()) rows = nlohmann::json::array();
  bool found = false;
  for (auto& row : rows) {
    if (row.value("name", "") == TONIC_NETLIST_CONFIG) {
      row.update(fields);
      found = true;
    }
  }
  if (!found) {
    nlohmann::json row = fields;
    row["name"] = TONIC_NETLIST_CONFIG;
    rows.push_back(row);
  }
  std::ofstream(file) << rows.dump(2) << "\n";
}

}  // namespace

TEST_CASE("netlist: the Yosys netlist equals the RTL in every output, every cycle", "[netlist]") {
  TONIC_SEED(20261126);
  LockStep<Rtl, Net> ls;
  Scenario<Rtl> sc(scenario_config(), tonic_seed_);
  ls.undefined = undefined_ports(ls, sc);
  const RunResult r = run(ls, sc, traffic_cycles(), TONIC_NL_DRAIN);
  INFO(TONIC_NETLIST_CONFIG);
  INFO(ls.mismatch().text());
  REQUIRE(ls.ok());
  // The scenario is meaningful: traffic, losses recovered, bad input seen.
  INFO(sc.first_error());
  REQUIRE(sc.errors() == 0);
  auto& d = ls.dut();
  std::printf("[netlist] %s: %llu cycles identical (%u output ports, %u bits each cycle; %llu port-cycles undefined by "
              "contract, not compared); %llu segments, "
              "%llu retransmissions, %u timeouts, %llu notes, %llu ADD, %llu REMOVE, %llu bad inputs; drain %llu "
              "cycles; %.1f s (%.0f cycles/s for both models)\n",
              TONIC_NETLIST_CONFIG, static_cast<unsigned long long>(ls.cycles_compared()), ls.output_ports(),
              ls.output_bits(), static_cast<unsigned long long>(ls.port_cycles_skipped()),
              static_cast<unsigned long long>(sc.segments()),
              static_cast<unsigned long long>(sc.retransmits()), stat(d, Stat::kTimeouts),
              static_cast<unsigned long long>(sc.notes()), static_cast<unsigned long long>(sc.adds()),
              static_cast<unsigned long long>(sc.removes()), static_cast<unsigned long long>(sc.bad_inputs()),
              static_cast<unsigned long long>(r.drain_cycles), r.seconds, r.cycles / r.seconds);
  INFO(sc.undelivered());
  CHECK(r.delivered);
  CHECK(sc.segments() > 1000);
  CHECK(sc.retransmits() > 0);
  CHECK(sc.notes() > 0);
  CHECK(sc.adds() > TONIC_NL_FLOWS);
  CHECK(sc.removes() > 0);
  CHECK(stat(d, Stat::kRxUnknownFlow) > 0);
  CHECK(stat(d, Stat::kRxBadType) > 0);
  CHECK(stat(d, Stat::kCtrlBad) > 0);
  if (scenario_config().scheme == Scheme::kWindow) CHECK(stat(d, Stat::kTimeouts) > 0);
  report({{"scheme", scheme_name(scenario_config().scheme)},
          {"seed", tonic_seed_},
          {"cycles_compared", ls.cycles_compared()},
          {"output_ports", ls.output_ports()},
          {"output_bits", ls.output_bits()},
          {"port_cycles_undefined", ls.port_cycles_skipped()},
          {"input_ports", ls.input_ports()},
          {"segments", sc.segments()},
          {"retransmissions", sc.retransmits()},
          {"timeouts", stat(d, Stat::kTimeouts)},
          {"bad_inputs", sc.bad_inputs()},
          {"drain_cycles", r.drain_cycles},
          {"sim_s", static_cast<double>(static_cast<int64_t>(r.seconds * 10)) / 10},
          {"mismatch", nullptr}});
}

// The comparison is not vacuous: the netlist's probe_flow_i points at
// another flow from cycle 3000 on (a perturbed netlist input), and the
// comparison must name a probe port at or after that cycle.
TEST_CASE("netlist: a perturbed netlist input is reported as a mismatch", "[netlist][mutate]") {
  TONIC_SEED(20261126);
  LockStep<Rtl, Net> ls;
  Scenario<Rtl> sc(scenario_config(), tonic_seed_);
  ls.undefined = undefined_ports(ls, sc);
  constexpr uint64_t kFrom = 3000;
  ls.perturb = [](Net& n, uint64_t cycle) {
    if (cycle >= kFrom) n.probe_flow_i = (n.probe_flow_i + 1) % TONIC_NL_FLOWS;
  };
  run(ls, sc, 20000, 0);
  REQUIRE_FALSE(ls.ok());
  const Mismatch& m = ls.mismatch();
  std::printf("[netlist] %s, perturbed: %s\n", TONIC_NETLIST_CONFIG, m.text().c_str());
  CHECK(m.cycle >= kFrom);
  CHECK(m.port.rfind("probe_", 0) == 0);
}
