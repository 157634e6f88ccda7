// SPDX-License-Identifier: Apache-2.0
// The sizes of the fuzzed builds of tonic_top (tb/fuzz/CMakeLists.txt),
// by model class. Include after the model headers in use.
#pragma once

#include "fuzz/fuzz_top.hpp"

namespace tonic::fuzz {

inline constexpr FuzzConfig kNewreno{"newreno_16x16", 16, 16, 16};
inline constexpr FuzzConfig kDcqcn{"rocev2_dcqcn_16x128", 16, 128, 16};
inline constexpr FuzzConfig kNdp{"ndp_16x128", 16, 128, 16};

template <class Model>
constexpr FuzzConfig config_of();
#ifdef VERILATED_VTONIC_FUZZ_NEWRENO_16X16_H_
template <>
constexpr FuzzConfig config_of<Vtonic_fuzz_newreno_16x16>() { return kNewreno; }
#endif
#ifdef VERILATED_VTONIC_FUZZ_ROCEV2_DCQCN_16X128_H_
template <>
constexpr FuzzConfig config_of<Vtonic_rocev2_dcqcn_16x128>() { return kDcqcn; }
#endif
#ifdef VERILATED_VTONIC_FUZZ_NDP_16X128_H_
template <>
constexpr FuzzConfig config_of<Vtonic_ndp_16x128>() { return kNdp; }
#endif

}  // namespace tonic::fuzz
