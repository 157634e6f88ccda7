// SPDX-License-Identifier: Apache-2.0
// Every fuzz target of tonic_top in one program (fuzz_replay): run an input
// on a target chosen by name. The targets are the registry's (protocol.json
// "checks": {"fuzz"}): the generated tonic/fuzz_models.hpp gives each one's
// model and sizes.
#pragma once

#include <string_view>

#include "fuzz/fuzz_top.hpp"
#include "tonic/fuzz_models.hpp"

namespace tonic::fuzz {

/// The FuzzConfig of a registry fuzz target (RingN: tonic_top's 16).
inline FuzzConfig config_of(const registry::FuzzTarget& t) { return FuzzConfig{t.name, t.flows, t.window, 16}; }

/// The registry entry of target `name`, or nullptr.
inline const registry::FuzzTarget* find_target(std::string_view name) {
  for (const registry::FuzzTarget& t : registry::kFuzzTargets)
    if (name == t.name) return &t;
  return nullptr;
}

/// Runs one input on the named target; false if the name is unknown.
inline bool run_target(const char* name, const uint8_t* data, size_t size, bool verbose = false,
                       Mutation mut = Mutation::kNone) {
  const registry::FuzzTarget* t = find_target(name);
  if (!t) return false;
  registry::with_fuzz_model(name, [&](auto tag) {
    FuzzTop<typename decltype(tag)::Model>(config_of(*t), verbose, mut).run(data, size);
  });
  return true;
}

}  // namespace tonic::fuzz
