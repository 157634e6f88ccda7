// The three runs of the live-lock experiment (go-back-N, IRN, then
// go-back-0 for at least as long as the longer of the two), the printed
// table and the JSON report; shared by test_livelock and livelock_run.
//
// The participants: each protocol that takes part registers its small
// build in its folder (protocols/<name>/tests/livelock.cpp, part of
// test_livelock and livelock_run):
//   TONIC_LIVELOCK_PARTICIPANT(V<its 16x128 build>);
// Its role comes from its descriptor in the registry, never from its name:
// receiver irn -> IRN; receiver roce -> go-back-N, or go-back-0 with
// host_restart "message". The first participant of each role in name order
// runs.
#pragma once

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "livelock_rig.hpp"
#include "tonic/protocol_registry.hpp"

namespace tonic::livelock {

/// The role of a protocol in the experiment, from its descriptor; false if
/// it has none.
inline bool role_of(const registry::Protocol& p, Kind& kind) {
  if (p.receiver == registry::Receiver::kIrn) {
    kind = Kind::kIrn;
    return true;
  }
  if (p.receiver == registry::Receiver::kRoce) {
    kind = p.host_restart ? Kind::kGoBack0 : Kind::kGoBackN;
    return true;
  }
  return false;
}

/// How the table and the report name a role (after the protocol's name).
inline const char* role_label(Kind kind) {
  switch (kind) {
    case Kind::kGoBackN: return "go-back-N";
    case Kind::kIrn: return "selective";
    case Kind::kGoBack0: return "go-back-0";
  }
  return "?";
}

/// A role's name in messages.
inline const char* role_name(Kind kind) {
  switch (kind) {
    case Kind::kGoBackN: return "go-back-N";
    case Kind::kIrn: return "IRN";
    case Kind::kGoBack0: return "go-back-0";
  }
  return "?";
}

/// A registered participant: its protocol and run_experiment on its build.
struct Participant {
  const registry::Protocol* protocol = nullptr;
  Result (*run)(Kind, const std::string&, const Config&, uint64_t) = nullptr;
  std::string config;  // the build, for messages
};

inline std::vector<Participant>& participants() {
  static std::vector<Participant> v;
  return v;
}

/// Registers a build (by its Verilated class name, V<config>) before main;
/// its protocol is the registry's protocol of that build.
struct RegisterParticipant {
  RegisterParticipant(std::string_view vclass, Result (*run)(Kind, const std::string&, const Config&, uint64_t)) {
    Participant p;
    p.config = std::string(vclass.substr(1));
    p.run = run;
    for (const registry::Build& b : registry::kBuilds)
      if (p.config == b.config) p.protocol = &registry::get(b.protocol);
    participants().push_back(p);
  }
};

#define TONIC_LIVELOCK_PARTICIPANT(Model)                                                          \
  static const ::tonic::livelock::RegisterParticipant tonic_livelock_participant_{#Model, \
                                                                                  &::tonic::livelock::run_experiment<Model>}

/// The participant of each role (nullptr: none registered) and what is wrong.
struct Cast {
  const Participant* gbn = nullptr;
  const Participant* irn = nullptr;
  const Participant* gb0 = nullptr;
  std::string missing;  // "go-back-N, ...": the roles without a participant
  std::string unregistered;  // protocols of this tree with a role nobody registered for
  std::string bad;      // builds that are not a protocol's build
  bool complete() const { return gbn && irn && gb0 && bad.empty(); }
};

inline Cast cast() {
  Cast c;
  std::vector<const Participant*> ps;
  for (const Participant& p : participants()) {
    if (!p.protocol) {
      c.bad += (c.bad.empty() ? "" : ", ") + p.config;
      continue;
    }
    ps.push_back(&p);
  }
  std::sort(ps.begin(), ps.end(), [](const Participant* a, const Participant* b) {
    return std::string_view(a->protocol->name) < std::string_view(b->protocol->name);
  });
  auto slot = [&](Kind k) -> const Participant*& { return k == Kind::kGoBackN ? c.gbn : k == Kind::kIrn ? c.irn : c.gb0; };
  for (const Participant* p : ps) {
    Kind k;
    if (role_of(*p->protocol, k) && !slot(k)) slot(k) = p;
  }
  for (const Kind k : {Kind::kGoBackN, Kind::kIrn, Kind::kGoBack0}) {
    if (slot(k)) continue;
    c.missing += (c.missing.empty() ? "" : ", ") + std::string(role_name(k));
    for (const registry::Protocol& p : registry::kProtocols) {
      Kind pk;
      if (role_of(p, pk) && pk == k) c.unregistered += (c.unregistered.empty() ? "" : ", ") + std::string(p.name);
    }
  }
  return c;
}

/// Runs the experiment: go-back-N, IRN, then go-back-0 for at least as long
/// as the longer of the two. Throws if a role has no participant.
inline std::vector<Result> run_all(const Config& cfg) {
  const Cast c = cast();
  if (!c.complete())
    throw std::runtime_error("live-lock experiment: no participant for " + c.missing +
                             (c.bad.empty() ? "" : "; not a protocol's build: " + c.bad));
  auto run = [&](const Participant* p, Kind k, uint64_t cycles) {
    return p->run(k, std::string(p->protocol->name) + " (" + role_label(k) + ")", cfg, cycles);
  };
  std::vector<Result> r;
  r.push_back(run(c.gbn, Kind::kGoBackN, 0));
  r.push_back(run(c.irn, Kind::kIrn, 0));
  const uint64_t longest = std::max(r[0].cycles, r[1].cycles);
  r.push_back(run(c.gb0, Kind::kGoBack0, longest));
  return r;
}

inline std::string table(const std::vector<Result>& rs) {
  std::ostringstream os;
  os << "| protocol | goodput (fraction of 100 Gb/s) | messages completed | cycles | segments sent | "
        "retransmissions | dropped | wire use | restarts | engine timeouts |\n"
     << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Result& r : rs) {
    char g[32], w[32];
    std::snprintf(g, sizeof g, "%.4f", r.goodput());
    std::snprintf(w, sizeof w, "%.4f", r.wire());
    os << "| " << r.protocol << " | " << g << " | " << r.messages << " | " << r.cycles << " | " << r.segments_sent
       << " | " << r.retransmissions << " | " << r.dropped << " | " << w << " | " << r.restarts << " | "
       << r.timeouts << " |\n";
  }
  return os.str();
}

inline nlohmann::json to_json(const Config& cfg, const std::vector<Result>& rs, const std::string& source) {
  nlohmann::json j;
  j["source"] = source;
  j["config"] = {{"message_segments", cfg.msg_segments},
                 {"segment_bytes", cfg.seg_bytes},
                 {"message_bytes", uint64_t{cfg.msg_segments} * cfg.seg_bytes},
                 {"messages_target", cfg.messages},
                 {"one_way_delay_cycles", cfg.one_way},
                 {"loss_rate", cfg.loss},
                 {"seed", cfg.seed},
                 {"nack_gap_cycles", cfg.nack_gap},
                 {"line_bytes_per_cycle", kLineBytesPerCycle},
                 {"clock_mhz", 100}};
  j["runs"] = nlohmann::json::array();
  for (const Result& r : rs) {
    j["runs"].push_back({{"protocol", r.protocol},
                         {"goodput_fraction", r.goodput()},
                         {"messages_completed", r.messages},
                         {"cycles", r.cycles},
                         {"segments_sent", r.segments_sent},
                         {"retransmissions", r.retransmissions},
                         {"dropped", r.dropped},
                         {"observed_loss_rate", r.observed_loss()},
                         {"wire_fraction", r.wire()},
                         {"in_order_arrivals", r.in_order},
                         {"restarts", r.restarts},
                         {"discarded_segments", r.discarded},
                         {"engine_timeouts", r.timeouts},
                         {"rx_bad_ack", r.rx_bad_ack},
                         {"rx_unknown_flow", r.rx_unknown_flow},
                         {"loss_rate", r.loss},
                         {"seed", r.seed}});
  }
  return j;
}

}  // namespace tonic::livelock
