// SPDX-License-Identifier: Apache-2.0
// The user_configs.vh readers of vh_constants.hpp. Compiled once (the
// object library tonic_tb_common, linked into every test executable):
// std::regex costs seconds of compile time in each file that uses it.
#include "common/vh_constants.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

namespace tonic {

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  INFO(path);
  REQUIRE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

std::map<std::string, uint64_t> vh_constants(const std::string& text) {
  std::map<std::string, uint64_t> out;
  const std::regex re(R"(localparam\s+(?:int\s+unsigned|bit)\s+(\w+)\s*=\s*(?:1'b)?(\d+)\s*;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = std::stoull((*it)[2]);
  }
  return out;
}

std::optional<std::string> vh_assignment(const std::string& text, const std::string& name) {
  std::smatch m;
  const std::regex re("\\b" + name + R"(\s*=\s*([^;]*?)\s*;)");
  if (!std::regex_search(text, m, re)) return std::nullopt;
  return m[1].str();
}

}  // namespace tonic
