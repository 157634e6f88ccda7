// SPDX-License-Identifier: Apache-2.0
// DMA back-pressure and stalls (docs/backpressure.md): the DMA side drops
// seg_ready_i at random single cycles and holds it low for pauses drawn
// log-uniformly from 100 to 10^7 cycles (few long ones), while a protocol
// runs closed loops with losses. The protocols are those whose
// protocol.json opts into "checks": {"backpressure"} (the generated
// tonic/backpressure_models.hpp: kBackpressureRuns, the build each runs on);
// each gets the scenarios of its credit scheme, registered as test cases
// "backpressure: <protocol>: ..." at start-up:
//   window  lossy, no_loss      on tonic_<p>_1024x128 (128 flows busy)
//   rate    lossy, burst        on the small build (16 flows)
//   tokens  lossy, tokens       on the small build
// The protocol constants (RTOs, rate, burst, tokens, user_t bits) come from
// the generated registry (kProtocols). The checks are in bp_rig.hpp; each
// test case adds its figures to build/reports/backpressure.json under
// <protocol>_<scenario>. Seeds print; TONIC_SEED reproduces.
#include <catch2/catch.hpp>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "bp_rig.hpp"
#include "common/report_merge.hpp"
#include "tonic/backpressure_models.hpp"

using namespace tonic;
using namespace tonic::bp;
using registry::BackpressureRun;
using registry::Credit;
using registry::Protocol;

namespace {

/// The rig's constants of a protocol, from the registry: the RTOs, the
/// scheme's credit constants, the user_t bits the window checks read. The
/// segment length is the scenario's (rate: 1024 B, tokens: 1500 B).
RigCfg protocol_cfg(const Protocol& p) {
  RigCfg c;
  c.rto_init = uint32_t(p.rto_init);
  c.rto_max = uint32_t(p.rto_max);
  switch (p.credit) {
    case Credit::kWindow:
      c.scheme = Scheme::kWindow;
      if (p.in_recovery.present()) {
        c.in_rec_bit = p.in_recovery.lsb;
        if (p.partial_ack.present()) {
          // The rig keeps user-state word 0 of each flow (bp_rig.hpp, user0).
          if (p.partial_ack.lsb >= 32) throw std::runtime_error("backpressure: the partial_ack probe must sit in user_t bits 31:0");
          c.partial_bit = p.partial_ack.lsb;
        }
      }
      break;
    case Credit::kRate:
      c.scheme = Scheme::kRate;
      c.burst_bytes = uint32_t(p.burst_bytes);
      c.rate_ru = p.rate_init;
      c.seg_bytes = 1024;
      break;
    case Credit::kTokens:
      c.scheme = Scheme::kToken;
      c.tokens_init = uint32_t(p.tokens_init);
      c.seg_bytes = 1500;
      break;
  }
  return c;
}

nlohmann::json to_json(const RigCfg& c, const RigResult& r, const char* model, uint64_t seed, double secs,
                       double cpu) {
  nlohmann::json j;
  j["model"] = model;
  j["scheme"] = to_string(c.scheme);
  j["seed"] = seed;
  j["flows"] = c.flows;
  j["segments_per_flow"] = c.segs;
  j["loss"] = c.loss;
  j["one_way_delay"] = c.delay;
  j["cycles"] = r.cycles;
  j["ready_cycles"] = r.ready_cycles;
  j["stalled_cycles_checked"] = r.stalled_checked;
  j["pauses"] = r.pauses;
  j["pause_cycles"] = r.pause_cycles;
  j["longest_pause"] = r.longest_pause;
  j["pauses_by_decade"] = {{"1e2", r.pauses_by_decade[0]}, {"1e3", r.pauses_by_decade[1]},
                           {"1e4", r.pauses_by_decade[2]}, {"1e5", r.pauses_by_decade[3]},
                           {"1e6", r.pauses_by_decade[4]}, {"1e7", r.pauses_by_decade[5]}};
  j["decisions"] = r.decisions;
  j["segments_checked"] = r.outs;
  j["new_segments"] = r.news;
  j["retransmissions"] = r.rtx;
  j["losses"] = r.drops;
  j["delivered"] = r.delivered;
  j["timeouts"] = r.timeouts;
  j["timeouts_in_pauses"] = r.timeouts_in_pause;
  j["pauses_longer_than_rto"] = r.long_pauses_timed;
  j["flow_pauses_requiring_timeout"] = r.flows_timed;
  j["timeout_gaps_checked"] = r.timeout_chain_gaps;
  j["worst_timeout_lateness"] = r.worst_timeout_late;
  j["releases_checked"] = r.releases_checked;
  j["flows_released"] = r.flows_released;
  j["worst_release_to_send_cycles"] = r.worst_release_cycles;
  j["worst_release_to_send_ready_cycles"] = r.worst_release_ready;
  j["release_bound_ready_cycles"] = r.release_bound_ready;
  j["flows_waiting_at_worst_release"] = r.worst_release_waiting;
  j["max_new_ack_gap"] = r.max_new_ack_gap;
  j["min_new_ack_to_timeout"] = r.min_ack_to_timeout == UINT64_MAX ? nlohmann::json() : nlohmann::json(r.min_ack_to_timeout);
  if (c.scheme == Scheme::kRate) {
    j["burst_window"] = c.burst_window;
    j["worst_burst_decisions"] = r.worst_burst;
    j["burst_bound"] = r.burst_bound;
    j["bursts_checked"] = r.bursts_checked;
  }
  if (c.scheme == Scheme::kToken) {
    j["pulls_in"] = r.grants_in;
    j["pulls_in_pauses"] = r.grants_in_pause;
  }
  j["wall_seconds"] = secs;
  j["cpu_seconds"] = cpu;  // the machine is shared: CPU time says more about the model's speed
  j["cycles_per_cpu_second"] = cpu > 0 ? double(r.cycles) / cpu : 0.0;
  return j;
}

/// Adds `entry` under `key` to build/reports/backpressure.json.
void report(const std::string& key, const nlohmann::json& entry) {
  report_merge(TONIC_SOURCE_DIR, "backpressure", "tb/unit/backpressure/test_backpressure.cpp (ctest -L backpressure)",
               "scenarios", key, entry);
}

template <class Model>
RigResult run_scenario(const std::string& key, const char* model, uint32_t flow_count, const RigCfg& cfg,
                       uint64_t seed, bool require_delivered = true) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  BpRig<Model> rig(flow_count, cfg, seed);
  const bool all = rig.run();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const RigResult& r = rig.result();
  std::printf("%s (%s, seed %llu): %llu cycles (%.1f s), %llu pauses (%llu cycles, longest %llu), %llu stalled "
              "cycles checked, %llu addresses (%llu new, %llu rtx, %llu lost), %llu timeouts (%llu in pauses), "
              "worst release-to-send %llu cycles / %llu ready cycles (bound %llu, %llu flows waiting)\n",
              key.c_str(), model, (unsigned long long)seed, (unsigned long long)r.cycles, secs,
              (unsigned long long)r.pauses, (unsigned long long)r.pause_cycles, (unsigned long long)r.longest_pause,
              (unsigned long long)r.stalled_checked, (unsigned long long)r.outs, (unsigned long long)r.news,
              (unsigned long long)r.rtx, (unsigned long long)r.drops, (unsigned long long)r.timeouts,
              (unsigned long long)r.timeouts_in_pause, (unsigned long long)r.worst_release_cycles,
              (unsigned long long)r.worst_release_ready, (unsigned long long)r.release_bound_ready,
              (unsigned long long)r.worst_release_waiting);
  INFO(rig.first_error());
  REQUIRE(rig.errors() == 0);
  if (require_delivered) {
    CHECK(all);
    for (uint32_t f = 0; f < cfg.flows; ++f) {
      INFO("flow " << f);
      CHECK(rig.flow_delivered(f) == cfg.segs);
      CHECK(rig.flow_news(f) == cfg.segs);  // each new segment decided (and left) exactly once
      CHECK(rig.flow_queued(f) == 0);
    }
  }
  // The engine's own counters agree with what left.
  CHECK(r.stat_segments == r.outs + [&] {
    uint64_t q = 0;
    for (uint32_t f = 0; f < cfg.flows; ++f) q += rig.flow_queued(f);
    return q;
  }());
  CHECK(r.stat_rtx == r.rtx);
  CHECK(r.stat_timeouts == r.timeouts);
  if (cfg.scheme == Scheme::kToken)
    for (uint32_t f = 0; f < cfg.flows; ++f) {
      INFO("flow " << f);
      CHECK(rig.flow_gen(f) <= uint64_t(cfg.tokens_init) + rig.flow_grant(f) + rig.flow_timeouts(f));
      if (!require_delivered)  // unbounded data: every token granted was used
        CHECK(rig.flow_gen(f) == uint64_t(cfg.tokens_init) + rig.flow_grant(f) + rig.flow_timeouts(f));
    }
  report(key, to_json(cfg, r, model, seed, secs, cpu));
  return r;
}


/// Runs `cfg` on the back-pressure build of `run` (report key
/// <protocol>_<scenario>).
RigResult run_on(const BackpressureRun& run, const char* scenario, const RigCfg& cfg, uint64_t seed,
                 bool require_delivered = true) {
  const std::string key = std::string(registry::get(run.protocol).name) + "_" + scenario;
  return registry::with_backpressure_model(run.protocol, [&](auto tag) {
    using Tag = decltype(tag);
    return run_scenario<typename Tag::Model>(key, run.config, Tag::kFlows, cfg, seed, require_delivered);
  });
}

// ---- window credit ---------------------------------------------------------

void window_lossy(const BackpressureRun& run) {
  TONIC_SEED(0x62700001);
  Rng rng(tonic_seed_);
  RigCfg c = protocol_cfg(registry::get(run.protocol));
  c.flows = 128;
  c.segs = 400;
  c.loss = 0.01;
  c.delay = 100;
  c.schedule = make_schedule(rng, {{16, 1e2, 1e4}, {3, 1e4, 1e6}, {1, 3e6, 1e7}}, 1000, 6000, 0.5, 0.9);
  const RigResult r = run_on(run, "lossy", c, tonic_seed_);
  CHECK(r.timeouts_in_pause > 0);
  CHECK(r.flows_timed > 0);
  CHECK(r.timeout_chain_gaps > 0);
  CHECK(r.releases_checked > 0);
}

void window_no_loss(const BackpressureRun& run) {
  TONIC_SEED(0x62700002);
  Rng rng(tonic_seed_);
  const Protocol& p = registry::get(run.protocol);
  RigCfg c = protocol_cfg(p);
  c.flows = 64;
  c.segs = 300;
  c.loss = 0.0;
  c.delay = 100;
  // Acks keep arriving: a pause (<= 5000) plus the queue ahead of a flow
  // (64 flows x 16 at p >= 0.5: 2048) plus the RTT stays below RtoInit.
  c.schedule = make_schedule(rng, {{30, 1e2, 5e3}}, 500, 3000, 0.5, 0.9);
  const RigResult r = run_on(run, "no_loss", c, tonic_seed_);
  CHECK(r.max_new_ack_gap < p.rto_init);
  CHECK(r.timeouts == 0);
  CHECK(r.rtx == 0);
}

// ---- rate credit -----------------------------------------------------------

void rate_lossy(const BackpressureRun& run) {
  TONIC_SEED(0x62700003);
  Rng rng(tonic_seed_);
  RigCfg c = protocol_cfg(registry::get(run.protocol));
  c.flows = 16;
  c.segs = 2000;
  c.loss = 0.01;
  c.delay = 100;
  c.schedule = make_schedule(rng, {{16, 1e2, 1e4}, {3, 1e4, 1e6}, {1, 3e6, 1e7}}, 2000, 8000, 0.5, 0.9);
  const RigResult r = run_on(run, "lossy", c, tonic_seed_);
  CHECK(r.timeouts_in_pause > 0);
  CHECK(r.releases_checked > 0);
  CHECK(r.bursts_checked > 0);
}

void rate_burst(const BackpressureRun& run) {
  TONIC_SEED(0x62700004);
  Rng rng(tonic_seed_);
  RigCfg c = protocol_cfg(registry::get(run.protocol));
  c.flows = 2;  // 2 x 0.12 segments per cycle at C: the output does not limit them
  c.segs = 3000;
  c.loss = 0.0;
  c.delay = 100;
  c.burst_window = 2000;
  c.schedule = make_schedule(rng, {{4, 1e4, 1e6}}, 3000, 4000, 1.0, 1.0);
  const RigResult r = run_on(run, "burst", c, tonic_seed_);
  CHECK(r.bursts_checked >= 8);
  // Without the cap a flow would hold credit for pause * R / 2^20 / L
  // segments (a DCQCN rate protocol: >= 1220) and decide about 1000 in the window
  // (half the output).
  CHECK(r.worst_burst <= r.burst_bound);
}

// ---- token credit ----------------------------------------------------------

void tokens_lossy(const BackpressureRun& run) {
  TONIC_SEED(0x62700005);
  Rng rng(tonic_seed_);
  RigCfg c = protocol_cfg(registry::get(run.protocol));
  c.flows = 16;
  c.segs = 1500;
  c.loss = 0.01;
  c.delay = 100;
  // The long pause here is exactly 1e7 cycles (100 ms at 100 MHz).
  c.schedule = make_schedule(rng, {{16, 1e2, 1e4}, {3, 1e4, 1e6}, {1, 1e7, 1e7}}, 2000, 8000, 0.5, 0.9);
  const RigResult r = run_on(run, "lossy", c, tonic_seed_);
  CHECK(r.releases_checked > 0);
  CHECK(r.grants_in_pause > 0);
}

void tokens_kept(const BackpressureRun& run) {
  TONIC_SEED(0x62700006);
  Rng rng(tonic_seed_);
  RigCfg c = protocol_cfg(registry::get(run.protocol));
  c.flows = 16;
  c.segs = 1u << 24;  // unbounded: tokens, not data, limit every flow
  c.loss = 0.01;
  c.delay = 100;
  // Two pauses of 1.5 to 3 RTOs (ndp: 1.5e5..3e5): timeouts add tokens too.
  const double rto = double(c.rto_init);
  c.schedule = make_schedule(rng, {{4, 1e3, 3e4}, {2, 1.5 * rto, 3 * rto}}, 2000, 5000, 0.5, 0.9);
  c.drain_frozen = 3000;
  c.max_cycles = 50'000'000;
  const RigResult r = run_on(run, "tokens", c, tonic_seed_, false);
  CHECK(r.grants_in_pause > 0);
}

// ---- the scenarios of each scheme, registered per protocol -----------------

struct Scenario {
  Credit credit;
  void (*fn)(const BackpressureRun&);
  const char* what;  // the test case name after "backpressure: <protocol>: "
  const char* tags;  // after [backpressure][<protocol>]
};

const Scenario kScenarios[] = {
    {Credit::kWindow, window_lossy,
     "ready drops and pauses of 1e2..1e7 cycles with 1% loss: every address once, in order, stable while stalled, "
     "flows served after release, RTO fires in pauses",
     "[stress]"},
    {Credit::kWindow, window_no_loss,
     "ready drops and pauses shorter than the RTO, no loss: no timeout, no retransmission", ""},
    {Credit::kRate, rate_lossy,
     "ready drops and pauses of 1e2..1e7 cycles with 1% loss: every address once, go-back-N only after NACK or "
     "timeout, flows served after release, burst within the bucket",
     "[stress]"},
    {Credit::kRate, rate_burst,
     "after pauses of 1e4..1e6 cycles two flows decide at most D/L + 1 + R x t/L segments in t = 2000 cycles "
     "(credit in hand and queued segments count against the bucket D)",
     ""},
    {Credit::kTokens, tokens_lossy,
     "ready drops and pauses of 1e2..1e7 cycles with 1% trimming: every address once, retransmissions only after "
     "NACK or timeout, never beyond the tokens, flows served after release",
     "[stress]"},
    {Credit::kTokens, tokens_kept,
     "pulls that enter during pauses are kept: after the drain every flow decided exactly TokensInit + its last "
     "pull number + its timeouts",
     ""},
};

/// A Catch2 test case body bound to one (scenario, protocol).
class Invoker : public Catch::ITestInvoker {
 public:
  explicit Invoker(std::function<void()> fn) : fn_(std::move(fn)) {}
  void invoke() const override { fn_(); }

 private:
  std::function<void()> fn_;
};

/// Registers "backpressure: <protocol>: <scenario>" for every protocol of
/// kBackpressureRuns and every scenario of its credit scheme.
const bool kRegistered = [] {
  for (const BackpressureRun& run : registry::kBackpressureRuns) {
    const Protocol& p = registry::get(run.protocol);
    for (const Scenario& s : kScenarios) {
      if (s.credit != p.credit) continue;
      const std::string name = std::string("backpressure: ") + p.name + ": " + s.what;
      const std::string tags = std::string("[backpressure][") + p.name + "]" + s.tags;
      Catch::AutoReg(new Invoker([f = s.fn, run] { f(run); }), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                     Catch::NameAndTags{name, tags});
    }
  }
  return true;
}();

}  // namespace

TEST_CASE("backpressure: the checks catch a lost address, an address changed under a stall and an uncalled-for "
          "retransmission (mutations of the rig)",
          "[backpressure][smoke]") {
  // On the first protocol of the rig with rate credit (its checks of NACKs).
  const BackpressureRun* rate = nullptr;
  for (const BackpressureRun& run : registry::kBackpressureRuns)
    if (!rate && registry::get(run.protocol).credit == Credit::kRate) rate = &run;
  if (!rate) {
    WARN("no protocol with rate credit opts into the back-pressure check");
    return;
  }
  registry::with_backpressure_model(rate->protocol, [&](auto tag) {
    using Tag = decltype(tag);
    for (int m = 1; m <= 3; ++m) {
      Rng rng(m);
      RigCfg c = protocol_cfg(registry::get(rate->protocol));
      c.flows = 16;
      c.segs = 400;
      c.loss = 0.02;
      c.schedule = make_schedule(rng, {{4, 1e2, 1e4}, {1, 3e4, 5e4}}, 1000, 2000, 0.5, 0.9);
      c.mutate = m;
      BpRig<typename Tag::Model> rig(Tag::kFlows, c, 1000 + m);
      rig.run();
      INFO("mutation " << m << ": " << rig.first_error());
      CHECK(rig.errors() > 0);
      const std::string e = rig.first_error();
      if (m == 1) CHECK(e.find("left, next decided") != std::string::npos);
      if (m == 2) CHECK(e.find("changed or dropped valid") != std::string::npos);
      if (m == 3) CHECK(e.find("called for") != std::string::npos);
    }
  });
}
