// SPDX-License-Identifier: Apache-2.0
// Every fuzzed build of tonic_top in one program (fuzz_replay): run an
// input on a build chosen by name.
#pragma once

#include <cstring>

#include "Vtonic_fuzz_newreno_16x16.h"
#include "Vtonic_ndp_16x128.h"
#include "Vtonic_rocev2_dcqcn_16x128.h"
#include "fuzz/configs.hpp"

namespace tonic::fuzz {

/// Runs one input on the named build; false if the name is unknown.
inline bool run_target(const char* name, const uint8_t* data, size_t size, bool verbose = false,
                       Mutation mut = Mutation::kNone) {
  if (!std::strcmp(name, kNewreno.name)) {
    FuzzTop<Vtonic_fuzz_newreno_16x16>(kNewreno, verbose, mut).run(data, size);
  } else if (!std::strcmp(name, kDcqcn.name)) {
    FuzzTop<Vtonic_rocev2_dcqcn_16x128>(kDcqcn, verbose, mut).run(data, size);
  } else if (!std::strcmp(name, kNdp.name)) {
    FuzzTop<Vtonic_ndp_16x128>(kNdp, verbose, mut).run(data, size);
  } else {
    return false;
  }
  return true;
}

}  // namespace tonic::fuzz
