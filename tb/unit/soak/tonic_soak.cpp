// SPDX-License-Identifier: Apache-2.0
// tonic-soak (docs/soak.md): the soak rig (soak_rig.hpp) for one protocol
// or all of them, each for a number of cycles, with the SystemVerilog
// assertions of the soak models enabled. Prints one line per protocol and
// optionally writes JSON; exits 1 on any violation or assertion failure.
//   tonic-soak --protocol all --cycles 2000000 --seed 7 --json out.json
// Built as tonic-soak-noassert (the same RTL without TONIC_ASSERT) to
// measure what the assertions cost. The protocols and their builds come
// from the generated registry (scripts/registry.mjs): a new protocol
// folder is soaked with no edit here.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "soak_rig.hpp"

#ifdef TONIC_SOAK_NOASSERT
#include "tonic/small_noassert_models.hpp"
#else
#include "tonic/small_models.hpp"
#endif

using namespace tonic::soak;
namespace registry = tonic::registry;

namespace {

Result run(ProtocolId p, const Options& o) {
  // The protocol's small build (tonic_<name>_<flows>x<window>), from
  // the generated dispatch over every protocol folder.
  auto one = [&](auto tag) {
    using T = decltype(tag);
    Soak<typename T::Model, T::kFlows, T::kWindow> s(p, o);
    return s.run();
  };
#ifdef TONIC_SOAK_NOASSERT
  return registry::with_small_noassert_model(p, one);
#else
  return registry::with_small_model(p, one);
#endif
}

nlohmann::json to_json(const Result& r) {
  return {{"protocol", r.proto},
          {"cycles", r.cycles},
          {"wall_s", r.wall_s},
          {"cycles_per_s", r.wall_s > 0 ? static_cast<double>(r.cycles) / r.wall_s : 0.0},
          {"phases", r.phases},
          {"adds", r.adds},
          {"removes", r.removes},
          {"posts", r.posts},
          {"flows_completed", r.bursts_completed},
          {"segments", r.segments},
          {"retransmissions", r.retransmissions},
          {"lost", r.lost},
          {"trimmed", r.trimmed},
          {"reordered", r.reordered},
          {"acks_lost", r.acks_lost},
          {"pauses", r.pauses},
          {"wdog_trips", r.wdog_trips},
          {"bad_ctrl", r.bad_ctrl},
          {"bad_rx", r.bad_rx},
          {"max_settle_cycles", r.max_settle},
          {"violations", r.violations},
          {"assertion_failures", r.assertions},
          {"first_violation", r.first_violation}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tonic-soak: random mixes of flows, posts, removals, losses, reordering, pauses and bad input "
               "with the RTL's assertions on (docs/soak.md)"};
  std::string proto = "all", json;
  Options o;
  double cycles = 1e6;
  app.add_option("--protocol", proto, std::string("a protocol (") + registry::kNames + ") or all");
  app.add_option("--cycles", cycles, "cycles per protocol (a last calm phase may add some)");
  app.add_option("--seed", o.seed, "random seed (the seed of protocol i is seed + i)");
  app.add_option("--json", json, "write the results as JSON to this file");
  app.add_flag("--quiet", o.quiet, "no per-violation message");
  app.add_option("--mutate-at", o.mutate_at, "self-test: read the index of the n-th segment address as one higher "
                 "(the run must report a violation)");
  CLI11_PARSE(app, argc, argv);
  o.cycles = static_cast<uint64_t>(cycles);

  std::vector<ProtocolId> ps;
  for (int i = 0; i < registry::kProtocolCount; ++i) {
    if (proto == "all" || proto == registry::kProtocols[i].name) ps.push_back(static_cast<ProtocolId>(i));
  }
  if (ps.empty()) {
    std::fprintf(stderr, "tonic-soak: unknown protocol %s (protocols: %s)\n", proto.c_str(), registry::kNames);
    return 2;
  }
  nlohmann::json out = nlohmann::json::array();
  bool bad = false;
  for (ProtocolId p : ps) {
    Options oi = o;
    oi.seed = o.seed + static_cast<uint64_t>(p);
    const Result r = run(p, oi);
    std::printf("soak %-13s seed %llu: %llu cycles in %.1f s (%.0f cycles/s), %llu segments (%llu rtx), "
                "%llu flows completed, %llu adds, %llu removes, %llu bad ctrl, %llu bad rx, max settle %llu, "
                "violations %llu, assertion failures %llu%s%s\n",
                r.proto.c_str(), (unsigned long long)oi.seed, (unsigned long long)r.cycles, r.wall_s,
                r.wall_s > 0 ? r.cycles / r.wall_s : 0.0, (unsigned long long)r.segments,
                (unsigned long long)r.retransmissions, (unsigned long long)r.bursts_completed,
                (unsigned long long)r.adds, (unsigned long long)r.removes, (unsigned long long)r.bad_ctrl,
                (unsigned long long)r.bad_rx, (unsigned long long)r.max_settle, (unsigned long long)r.violations,
                (unsigned long long)r.assertions, r.first_violation.empty() ? "" : ": ",
                r.first_violation.c_str());
    std::fflush(stdout);
    nlohmann::json j = to_json(r);
    j["seed"] = oi.seed;
    out.push_back(j);
    bad = bad || r.violations != 0 || r.assertions != 0;
  }
  if (!json.empty()) {
    std::ofstream f(json);
    f << out.dump(2) << "\n";
  }
  return bad ? 1 : 0;
}
