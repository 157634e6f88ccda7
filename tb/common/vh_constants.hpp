// SPDX-License-Identifier: Apache-2.0
// The constants of a protocol's user_configs.vh, for the tests that check
// a C++ twin's copies against the file (the protocols' tests,
// protocols/<name>/tests/).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace tonic {

/// The text of a file (REQUIREs that it opens).
inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  INFO(path);
  REQUIRE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

/// `localparam int unsigned Name = value;` and `localparam bit Name = 1'bV;`
/// of a user_configs.vh text, by name.
inline std::map<std::string, uint64_t> vh_constants(const std::string& text) {
  std::map<std::string, uint64_t> out;
  const std::regex re(R"(localparam\s+(?:int\s+unsigned|bit)\s+(\w+)\s*=\s*(?:1'b)?(\d+)\s*;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = std::stoull((*it)[2]);
  }
  return out;
}

}  // namespace tonic
