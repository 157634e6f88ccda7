// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point of one build (TONIC_FUZZ_TARGET_<name>, set by
// tb/fuzz/CMakeLists.txt): every input runs from reset on a fresh model.
// Only that build's model is linked (its coverage is the fuzzer's map).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz/fuzz_top.hpp"

#if defined(TONIC_FUZZ_TARGET_newreno_16x16)
#include "Vtonic_fuzz_newreno_16x16.h"
using Model = Vtonic_fuzz_newreno_16x16;
#elif defined(TONIC_FUZZ_TARGET_rocev2_dcqcn_16x128)
#include "Vtonic_rocev2_dcqcn_16x128.h"
using Model = Vtonic_rocev2_dcqcn_16x128;
#elif defined(TONIC_FUZZ_TARGET_ndp_16x128)
#include "Vtonic_ndp_16x128.h"
using Model = Vtonic_ndp_16x128;
#else
#error "define TONIC_FUZZ_TARGET_<name>"
#endif
#include "fuzz/configs.hpp"

// TONIC_FUZZ_VERBOSE=1: a line per cycle (to debug one crash file).
static const bool kVerbose = std::getenv("TONIC_FUZZ_VERBOSE") != nullptr;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tonic::fuzz::FuzzTop<Model>(tonic::fuzz::config_of<Model>(), kVerbose).run(data, size);
  return 0;
}
