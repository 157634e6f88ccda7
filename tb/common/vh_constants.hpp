// SPDX-License-Identifier: Apache-2.0
// The constants of a protocol's user_configs.vh, for the tests that check
// a C++ twin's copies against the file (the protocols' tests,
// protocols/<name>/tests/). Declarations only: the parsing
// (vh_constants.cpp, std::regex) is compiled once, into every test
// executable (tonic_tb_common), not into each test file that checks a file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace tonic {

/// The text of a file (REQUIREs that it opens).
std::string read_text(const std::string& path);

/// `localparam int unsigned Name = value;` and `localparam bit Name = 1'bV;`
/// of a user_configs.vh text, by name.
std::map<std::string, uint64_t> vh_constants(const std::string& text);

/// The right-hand side of the first `<name> = <value>;` of a text (e.g.
/// `tonic_dd_pkg::CreditRate` for CreditScheme), blanks trimmed; none if
/// there is no such assignment.
std::optional<std::string> vh_assignment(const std::string& text, const std::string& name);

}  // namespace tonic
