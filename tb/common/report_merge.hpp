// SPDX-License-Identifier: Apache-2.0
// report_merge: adds one entry to a JSON report under build/reports/ that
// several test cases write. CTest runs each Catch2 case as its own process,
// maybe two at once, so the read-modify-write is serialised by a lock file
// and the file is replaced atomically (written aside, then renamed).
#pragma once

#include <sys/file.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace tonic {

/// Sets report[section][key] = entry (and report["source"] = source) in
/// <root>/build/reports/<name>.json; section "" puts the entry at the top.
inline void report_merge(const std::string& root, const std::string& name, const std::string& source,
                         const std::string& section, const std::string& key, const nlohmann::json& entry) {
  const std::filesystem::path dir = std::filesystem::path(root) / "build" / "reports";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / (name + ".json"), lock = dir / ("." + name + ".lock");
  FILE* lf = std::fopen(lock.c_str(), "w");
  if (lf) flock(fileno(lf), LOCK_EX);
  nlohmann::json j;
  if (std::ifstream in(file); in) {
    try {
      in >> j;
    } catch (const std::exception&) {
      j = nlohmann::json::object();
    }
  }
  if (!j.is_object()) j = nlohmann::json::object();
  j["source"] = source;
  if (section.empty()) j[key] = entry;
  else j[section][key] = entry;
  const std::filesystem::path tmp = dir / (name + ".json.tmp");
  std::ofstream(tmp) << j.dump(2) << "\n";
  std::filesystem::rename(tmp, file);
  if (lf) {
    flock(fileno(lf), LOCK_UN);
    std::fclose(lf);
  }
}

}  // namespace tonic
