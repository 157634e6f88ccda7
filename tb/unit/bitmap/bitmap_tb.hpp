// SPDX-License-Identifier: Apache-2.0
// Shared by test_bitmap.cpp and bench_bitmap.cpp: a harness for the
// combinational bitmap cells, port drivers for BitRing, one call per cell
// that drives, evaluates and reads the model, and random rings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <verilated.h>

#include "common/ref/bitmap_ref.hpp"
#include "tonic/rng.hpp"

namespace tonic {

/// Owns a VerilatedContext and one model of a combinational cell (no
/// clk_i/rst_i needed, unlike tonic::Harness). tick() is for the pipelined
/// popcount, whose clk_i is then a real clock.
template <class Model>
class Comb {
 public:
  Comb() : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<Model>(ctx_.get(), "top")) {}
  ~Comb() { dut_->final(); }
  Comb(const Comb&) = delete;
  Comb& operator=(const Comb&) = delete;

  Model* operator->() { return dut_.get(); }
  Model& operator*() { return *dut_; }
  Model& dut() { return *dut_; }
  void eval() { dut_->eval(); }
  /// One clock cycle (rising then falling edge); only for models with clk_i.
  void tick() {
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
};

/// Drive a Verilator port of W bits from a ring: IData (W <= 32), QData
/// (W == 64) or VlWide<N> (W > 64, N 32-bit words).
template <std::size_t W>
void drive(IData& port, const BitRing<W>& a) {
  static_assert(W <= 32, "IData port holds at most 32 bits");
  port = a.word32(0);
}
template <std::size_t W>
void drive(QData& port, const BitRing<W>& a) {
  static_assert(W > 32 && W <= 64, "QData port holds 33..64 bits");
  port = a.word[0];
}
template <std::size_t N, std::size_t W>
void drive(VlWide<N>& port, const BitRing<W>& a) {
  static_assert(N * 32 == W, "port width must equal W");
  for (std::size_t k = 0; k < N; ++k) port[k] = a.word32(k);
}

/// A manifest config: its Verilated model class and ring size.
template <class M, std::size_t Width>
struct Cfg {
  using Model = M;
  static constexpr std::size_t W = Width;
};

/// tonic_ffs_after_head on the model.
template <class Model, std::size_t W>
FfsResult dut_ffs(Comb<Model>& c, const BitRing<W>& a, uint32_t head) {
  drive(c->bits_i, a);
  c->head_i = head;
  c.eval();
  return {static_cast<bool>(c->found_o), static_cast<uint32_t>(c->index_o)};
}

/// tonic_ones_from_head on the model.
template <class Model, std::size_t W>
uint32_t dut_ones(Comb<Model>& c, const BitRing<W>& a, uint32_t head) {
  drive(c->bits_i, a);
  c->head_i = head;
  c.eval();
  return static_cast<uint32_t>(c->count_o);
}

/// tonic_popcount_range (Pipeline = 0) on the model.
template <class Model, std::size_t W>
uint32_t dut_popcount(Comb<Model>& c, const BitRing<W>& a, uint32_t start, uint32_t len) {
  drive(c->bits_i, a);
  c->start_i = start;
  c->len_i = len;
  c.eval();
  return static_cast<uint32_t>(c->count_o);
}

/// A random ring for `head`, drawn from a mix of shapes so that sparse,
/// dense, empty, full, wrapping and long-run cases are all common:
/// empty; full; 1..4 random set bits; density 2^-k (AND of k random words);
/// density 1 - 2^-k (OR of k words); full with 1..4 holes; a run of ones
/// from the head of random length followed by random bits; set bits only
/// below the head (the search must wrap).
template <std::size_t W>
BitRing<W> random_ring(Rng& rng, uint32_t head) {
  BitRing<W> a;
  auto random_words = [&](bool and_op, uint64_t k) {
    for (auto& w : a.word) {
      uint64_t v = rng.bits64();
      for (uint64_t i = 1; i < k; ++i) v = and_op ? (v & rng.bits64()) : (v | rng.bits64());
      w = v;
    }
  };
  switch (rng.below(8)) {
    case 0:
      break;
    case 1:
      a.fill(true);
      break;
    case 2:
      for (uint64_t n = rng.range(1, 4); n > 0; --n) a.set(rng.below(W));
      break;
    case 3:
      random_words(true, rng.range(1, 6));
      break;
    case 4:
      random_words(false, rng.range(1, 6));
      break;
    case 5:
      a.fill(true);
      for (uint64_t n = rng.range(1, 4); n > 0; --n) a.set(rng.below(W), false);
      break;
    case 6: {
      random_words(rng.chance(0.5), rng.range(1, 3));
      const uint64_t run = rng.range(0, W);
      for (uint64_t k = 0; k < run; ++k) a.set((head + k) % W, true);
      if (run < W) a.set((head + run) % W, false);
      break;
    }
    default: {
      random_words(rng.chance(0.5), rng.range(1, 3));
      for (std::size_t i = head; i < W; ++i) a.set(i, false);
      break;
    }
  }
  if constexpr (W < 64) a.word[0] &= (uint64_t{1} << W) - 1;
  return a;
}

}  // namespace tonic
