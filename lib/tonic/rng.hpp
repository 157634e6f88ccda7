// SPDX-License-Identifier: Apache-2.0
// Seeded randomness for tests: every random test prints its seed and takes
// one from the environment variable TONIC_SEED to reproduce a run.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace tonic {

/// The seed for a random test: TONIC_SEED if set (decimal or 0x-hex), else
/// `fallback` (a fixed per-test value, so CI runs are deterministic).
/// Prints the seed to stderr so a failing run can be repeated.
inline uint64_t test_seed(uint64_t fallback, const char* what = "test") {
  uint64_t seed = fallback;
  if (const char* env = std::getenv("TONIC_SEED"); env && *env) {
    char* end = nullptr;
    seed = std::strtoull(env, &end, 0);
    if (end == env || *end != '\0') {
      std::fprintf(stderr, "TONIC_SEED='%s' is not a number\n", env);
      std::exit(2);
    }
  }
  std::fprintf(stderr, "[%s] seed=%llu (set TONIC_SEED to reproduce)\n", what,
               static_cast<unsigned long long>(seed));
  return seed;
}

/// Small convenience wrapper over a 64-bit Mersenne Twister.
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  /// Uniform integer in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(gen_);
  }
  /// Uniform integer in [0, n).
  uint64_t below(uint64_t n) { return n == 0 ? 0 : range(0, n - 1); }
  /// True with probability p.
  bool chance(double p) { return std::bernoulli_distribution(p)(gen_); }
  uint64_t bits64() { return gen_(); }
  std::mt19937_64& engine() { return gen_; }

 private:
  std::mt19937_64 gen_;
};

}  // namespace tonic

/// In a Catch2 test: pick the seed and attach it to every failure message.
#define TONIC_SEED(fallback)                                              \
  const uint64_t tonic_seed_ = ::tonic::test_seed((fallback), Catch::getResultCapture().getCurrentTestName().c_str()); \
  CAPTURE(tonic_seed_)
