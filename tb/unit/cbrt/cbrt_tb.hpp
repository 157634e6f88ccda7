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

/// Owns a VerilatedContext and one model of a combinational cell (no clock:
/// tonic::Harness needs clk_i). The destructor releases the model the way
/// Harness does (Verilator 5.006 keeps a per-thread context pointer that
/// must not outlive the context; several models are made one after another).
template <class Model>
class CombModel {
 public:
  CombModel() : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<Model>(ctx_.get(), "top")) {}
  ~CombModel() {
    dut_->final();
    VerilatedContext* const ctx = ctx_.get();
    Verilated::threadContextp(ctx);
    dut_.reset();
    ctx_.reset();
    Verilated::threadContextp(nullptr);
    if (Verilated::lastContextp() == ctx) Verilated::lastContextp(nullptr);
  }
  CombModel(const CombModel&) = delete;
  CombModel& operator=(const CombModel&) = delete;

  /// root_o for x_i = x.
  uint32_t root(uint64_t x) {
    dut_->x_i = static_cast<std::remove_reference_t<decltype(dut_->x_i)>>(x);
    dut_->eval();
    return static_cast<uint32_t>(dut_->root_o);
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
};

}  // namespace tonic
