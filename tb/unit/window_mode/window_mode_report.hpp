// SPDX-License-Identifier: Apache-2.0
// Pieces shared by the two window-mode experiments (test_window_mode_experiment.cpp
// on the plain-C++ models, test_window_mode_rtl.cpp on the receiver RTL): number
// formatting for the printed tables, the loss-free row a loss table is
// relative to, and writing the JSON report under build/reports (the
// targets define TONIC_SOURCE_DIR).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tonic::window_mode {

/// `v` printed with the printf format `f` (one double).
inline std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// The loss-free row of `n` packets in a loss table (rows with `count` and
/// `loss`); throws if there is none.
template <class Row>
const Row& loss_free_row(const std::vector<Row>& rows, uint32_t n) {
  for (const Row& r : rows)
    if (r.count == n && r.loss == 0.0) return r;
  throw std::logic_error("no loss-free row");
}

/// A report's head: the test that wrote it (`source`), the design note
/// and the seed; the caller adds config and tables.
inline nlohmann::json report_head(const char* source, uint64_t seed) {
  nlohmann::json j;
  j["source"] = source;
  j["doc"] = "docs/design/window-mode.md";
  j["seed"] = seed;
  return j;
}

/// Writes `j` to build/reports/<name> in the source tree.
inline void write_report(const nlohmann::json& j, const char* name) {
  const std::filesystem::path dir = std::filesystem::path(TONIC_SOURCE_DIR) / "build" / "reports";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name) << j.dump(2) << "\n";
}

}  // namespace tonic::window_mode
