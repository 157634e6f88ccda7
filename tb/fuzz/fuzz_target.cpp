// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point of one fuzz target (tb/fuzz/CMakeLists.txt sets
// TONIC_FUZZ_TARGET, its name, and TONIC_FUZZ_MODEL / TONIC_FUZZ_MODEL_H,
// its model class and header, from the registry's fuzz targets): every
// input runs from reset on a fresh model. Only that target's model is
// linked (its coverage is the fuzzer's map).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_top.hpp"
#include "tonic/fuzz_targets.hpp"
#include TONIC_FUZZ_MODEL_H

#if !defined(TONIC_FUZZ_TARGET) || !defined(TONIC_FUZZ_MODEL)
#error "define TONIC_FUZZ_TARGET and TONIC_FUZZ_MODEL"
#endif

namespace {

/// The sizes of this target (tonic/fuzz_targets.hpp).
tonic::fuzz::FuzzConfig target_config() {
  for (const tonic::registry::FuzzTarget& t : tonic::registry::kFuzzTargets)
    if (std::string_view(TONIC_FUZZ_TARGET) == t.name) return {t.name, t.flows, t.window, 16};
  std::abort();  // CMake named a target the registry does not have
}

// TONIC_FUZZ_VERBOSE=1: a line per cycle (to debug one crash file).
const bool kVerbose = std::getenv("TONIC_FUZZ_VERBOSE") != nullptr;
const tonic::fuzz::FuzzConfig kConfig = target_config();

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tonic::fuzz::FuzzTop<TONIC_FUZZ_MODEL>(kConfig, kVerbose).run(data, size);
  return 0;
}
