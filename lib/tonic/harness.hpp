// SPDX-License-Identifier: Apache-2.0
// Harness: owns one Verilated model, its VerilatedContext and its clock.
//
// Cycle protocol used by every testbench:
//   1. drive inputs for this cycle (h.dut().x = ...);
//   2. h.eval()   — settle combinational outputs with the clock low;
//   3. sample outputs; a stream transfers this cycle iff valid && ready;
//   4. h.tick()   — rising edge then falling edge; cycle() advances by one.
// The model must have an input `clk_i`; `rst_i` (synchronous, active high)
// is optional: a model without it (tonic_state_ram) is only clocked, and
// reset() is then unavailable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <verilated.h>

namespace tonic {

/// Whether a Verilated model has a reset input `rst_i`.
template <class Model, class = void>
struct HasReset : std::false_type {};
template <class Model>
struct HasReset<Model, std::void_t<decltype(std::declval<Model&>().rst_i)>> : std::true_type {};

/// Whether a Verilated model has a clock input `clk_i` (a combinational
/// cell has none: Harness then only owns it; tick() needs one).
template <class Model, class = void>
struct HasClock : std::false_type {};
template <class Model>
struct HasClock<Model, std::void_t<decltype(std::declval<Model&>().clk_i)>> : std::true_type {};

template <class Model>
class Harness {
 public:
  explicit Harness(const char* name = "top")
      : ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<Model>(ctx_.get(), name)) {
    if constexpr (HasClock<Model>::value) dut_->clk_i = 0;
    if constexpr (HasReset<Model>::value) dut_->rst_i = 1;
    dut_->eval();
  }
  ~Harness() {
    dut_->final();
    // Verilator 5.006 erases a model's scopes from the thread's context
    // (Verilated::threadContextp(): the first context the thread used, not
    // the model's own), so with two models alive, or one after another,
    // that pointer can name a context already destroyed (a hang or heap
    // corruption in the destructor). Point it at this model's context while
    // the model goes, and forget this context once it is gone.
    VerilatedContext* const ctx = ctx_.get();
    Verilated::threadContextp(ctx);
    dut_.reset();
    ctx_.reset();
    Verilated::threadContextp(nullptr);
    if (Verilated::lastContextp() == ctx) Verilated::lastContextp(nullptr);
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  Model& dut() { return *dut_; }
  Model* operator->() { return dut_.get(); }
  uint64_t cycle() const { return cycle_; }

  /// Settle combinational logic with the clock low.
  void eval() {
    dut_->eval();
    low_settled_ = true;
  }

  /// One full clock cycle: rising edge, then falling edge. The falling edge
  /// is evaluated lazily: no logic uses it (every process is posedge clk_i),
  /// so the model first sees the clock low in the next eval(), which the
  /// testbench calls anyway after driving the next cycle's inputs; tick()
  /// evaluates it only if no eval() came between two ticks (Verilator finds
  /// an edge only against the clock value of its last eval()). Every eval()
  /// re-runs the model's input-dependent logic, so this saves a third of
  /// that work per cycle. Outputs after tick() are those after the rising
  /// edge, as before.
  void tick() {
    if (!low_settled_) dut_->eval();
    dut_->clk_i = 1;
    dut_->eval();
    ctx_->timeInc(1);
    dut_->clk_i = 0;
    low_settled_ = false;
    ctx_->timeInc(1);
    ++cycle_;
  }

  /// Holds rst_i high for `cycles` clock cycles, then releases it.
  void reset(int cycles = 4) {
    static_assert(HasReset<Model>::value, "Harness::reset(): the model has no rst_i");
    dut_->rst_i = 1;
    for (int i = 0; i < cycles; ++i) tick();
    dut_->rst_i = 0;
    eval();
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> dut_;
  uint64_t cycle_ = 0;
  bool low_settled_ = true;  // the model has evaluated the clock low since the last edge
};

}  // namespace tonic
