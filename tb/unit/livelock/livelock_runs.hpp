// SPDX-License-Identifier: Apache-2.0
// The three runs of the live-lock experiment (go-back-N, IRN, then
// go-back-0 for at least as long as the longer of the two), the printed
// table and the JSON report; shared by test_livelock and livelock_run.
#pragma once

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Vtonic_irn_16x128.h"
#include "Vtonic_rocev2_dcqcn_16x128.h"
#include "Vtonic_rocev2_gb0_16x128.h"
#include "livelock_rig.hpp"

namespace tonic::livelock {

inline std::vector<Result> run_all(const Config& cfg) {
  std::vector<Result> r;
  r.push_back(run_experiment<Vtonic_rocev2_dcqcn_16x128>(Kind::kGoBackN, "rocev2_dcqcn (go-back-N)", cfg));
  r.push_back(run_experiment<Vtonic_irn_16x128>(Kind::kIrn, "irn (selective)", cfg));
  const uint64_t longest = std::max(r[0].cycles, r[1].cycles);
  r.push_back(run_experiment<Vtonic_rocev2_gb0_16x128>(Kind::kGoBack0, "rocev2_gb0 (go-back-0)", cfg, longest));
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
