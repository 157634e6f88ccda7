// SPDX-License-Identifier: Apache-2.0
// Shared by test_cbrt.cpp and bench_cbrt.cpp: the manifest configs of
// tonic_cbrt as types, an owner of one combinational model, and a call that
// drives x_i, evaluates and reads root_o.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include <verilated.h>

#include "Vcbrt_w1.h"
#include "Vcbrt_w20.h"
#include "Vcbrt_w24.h"
#include "Vcbrt_w32.h"
#include "Vcbrt_w32_sig6.h"
#include "Vcbrt_w32_sig8.h"
#include "Vcbrt_w7.h"
#include "tonic/cbrt.hpp"
#include "tonic/harness.hpp"

namespace tonic {

/// A manifest config of tonic_cbrt: its model, InW and SigBits.
template <class M, unsigned InWidth, unsigned Sig = (InWidth + 2) / 3>
struct CbrtCfg {
  using Model = M;
  static constexpr unsigned kInW = InWidth;
  static constexpr unsigned kOutW = (InWidth + 2) / 3;
  static constexpr unsigned kSigBits = Sig;
  static constexpr uint64_t kMaxX = (uint64_t{1} << InWidth) - 1;
  /// What the cell should return for x (lib/tonic/cbrt.hpp).
  static constexpr uint32_t expect(uint64_t x) { return cbrt_cell(x, Sig); }
};

using CbrtW32 = CbrtCfg<Vcbrt_w32, 32>;
using CbrtW32Sig8 = CbrtCfg<Vcbrt_w32_sig8, 32, 8>;
using CbrtW32Sig6 = CbrtCfg<Vcbrt_w32_sig6, 32, 6>;
using CbrtW24 = CbrtCfg<Vcbrt_w24, 24>;
using CbrtW20 = CbrtCfg<Vcbrt_w20, 20>;
using CbrtW7 = CbrtCfg<Vcbrt_w7, 7>;
using CbrtW1 = CbrtCfg<Vcbrt_w1, 1>;

/// One model of the combinational cell (tonic::Harness owns it and its
/// context; the cell has no clock).
template <class Model>
class CombModel {
 public:
  /// root_o for x_i = x.
  uint32_t root(uint64_t x) {
    h_->x_i = static_cast<std::remove_reference_t<decltype(h_->x_i)>>(x);
    h_->eval();
    return static_cast<uint32_t>(h_->root_o);
  }

 private:
  Harness<Model> h_;
};

}  // namespace tonic
