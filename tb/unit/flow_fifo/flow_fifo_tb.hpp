// SPDX-License-Identifier: Apache-2.0
// Testbench pieces shared by test_flow_fifo.cpp and bench_flow_fifo.cpp:
// model parameters, port packing, a checking driver (DUT vs FlowFifoRef
// every cycle) and a random traffic generator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <functional>
#include <optional>
#include <queue>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vflow_fifo_1024.h"
#include "Vflow_fifo_1024_w8.h"
#include "Vflow_fifo_2048.h"
#include "Vflow_fifo_4096.h"
#include "tonic/harness.hpp"
#include "common/ref/flow_fifo_ref.hpp"
#include "tonic/rng.hpp"
#include "common/scoreboard.hpp"
#include "common/stream.hpp"

namespace tonic {

/// Parameters of each Verilated configuration (rtl/manifest/flow_fifo.json).
template <class Model>
struct FlowFifoParams;
template <>
struct FlowFifoParams<Vflow_fifo_1024> {
  static constexpr uint32_t kFlows = 1024, kPorts = 4;
  static constexpr const char* kName = "flow_fifo_1024";
};
template <>
struct FlowFifoParams<Vflow_fifo_2048> {
  static constexpr uint32_t kFlows = 2048, kPorts = 4;
  static constexpr const char* kName = "flow_fifo_2048";
};
template <>
struct FlowFifoParams<Vflow_fifo_4096> {
  static constexpr uint32_t kFlows = 4096, kPorts = 4;
  static constexpr const char* kName = "flow_fifo_4096";
};
template <>
struct FlowFifoParams<Vflow_fifo_1024_w8> {
  static constexpr uint32_t kFlows = 1024, kPorts = 8;
  static constexpr const char* kName = "flow_fifo_1024_w8";
};

using FlowInsert = FlowFifoRef::Insert;

/// Drives ins_valid_i / ins_id_i (packed [ports][id width]) from `ins`.
template <class Model>
void drive_inserts(Model& dut, const std::vector<FlowInsert>& ins, uint32_t flows) {
  unsigned id_w = 0;
  while ((1u << id_w) < flows) ++id_w;
  uint32_t words[8] = {};
  uint32_t valid = 0;
  for (size_t k = 0; k < ins.size(); ++k) {
    const uint32_t id = ins[k].valid ? ins[k].id : 0;
    if (ins[k].valid) valid |= 1u << k;
    const unsigned lsb = static_cast<unsigned>(k) * id_w;
    const uint64_t v = static_cast<uint64_t>(id) << (lsb % 32);
    words[lsb / 32] |= static_cast<uint32_t>(v);
    if (lsb / 32 + 1 < 8) words[lsb / 32 + 1] |= static_cast<uint32_t>(v >> 32);
  }
  dut.ins_valid_i = valid;
  using IdPort = std::remove_reference_t<decltype(dut.ins_id_i)>;
  if constexpr (std::is_integral_v<IdPort>) {
    dut.ins_id_i = static_cast<IdPort>(words[0] | (static_cast<uint64_t>(words[1]) << 32));
  } else {
    for (size_t w = 0; w < sizeof(IdPort) / sizeof(uint32_t) && w < 8; ++w) dut.ins_id_i[w] = words[w];
  }
}

/// Random insert/pop traffic in segments of different shapes: sparse and
/// dense uniform ids, a small hot set (duplicates within and across cycles),
/// a scheduler loop (every popped id re-inserted 0..D cycles later, 0 = the
/// same cycle), fill (ready mostly low, a permutation of all ids inserted)
/// and drain. Back-pressure parameters change per segment.
class FlowTraffic {
 public:
  enum class Mode { kUniform, kHot, kLoop, kFill, kDrain };

  FlowTraffic(Rng& rng, uint32_t flows, uint32_t ports)
      : rng_(rng), flows_(flows), ports_(ports), perm_(flows) {
    std::iota(perm_.begin(), perm_.end(), 0u);
    new_segment();
  }

  Mode mode() const { return mode_; }

  /// Picks a random shape for the next segment.
  void new_segment() {
    static constexpr Mode kModes[] = {Mode::kUniform, Mode::kUniform, Mode::kHot, Mode::kLoop,
                                      Mode::kLoop,    Mode::kLoop,    Mode::kFill, Mode::kDrain};
    set_mode(kModes[rng_.below(std::size(kModes))]);
  }

  void set_mode(Mode m) {
    mode_ = m;
    static constexpr double kStall[] = {0.0, 0.05, 0.2, 0.5, 0.9};
    static constexpr uint32_t kStallMax[] = {1, 3, 16, 64};
    double stall = kStall[rng_.below(std::size(kStall))];
    uint32_t stall_max = kStallMax[rng_.below(std::size(kStallMax))];
    static constexpr double kRate[] = {0.05, 0.25, 0.5, 0.9, 1.0};
    rate_ = kRate[rng_.below(std::size(kRate))];
    switch (m) {
      case Mode::kUniform:
        break;
      case Mode::kHot: {
        hot_.clear();
        const uint32_t n = static_cast<uint32_t>(rng_.range(1, 12));
        for (uint32_t i = 0; i < n; ++i) hot_.push_back(random_id());
        break;
      }
      case Mode::kLoop:
        loop_delay_ = static_cast<uint32_t>(rng_.range(0, rng_.chance(0.5) ? 3 : 40));
        rate_ = rng_.chance(0.5) ? 0.0 : 0.02;  // new ids besides the re-inserts
        break;
      case Mode::kFill:
        std::shuffle(perm_.begin(), perm_.end(), rng_.engine());
        cursor_ = 0;
        stall = 0.97;
        stall_max = 64;
        break;
      case Mode::kDrain:
        stall = stall > 0.5 ? 0.1 : stall;
        break;
    }
    sink_.emplace(rng_, stall, stall_max);
  }

  /// out_ready for this cycle.
  bool ready() { return sink_->ready(); }

  /// The inserts of this cycle. `pop`/`popped`: whether the head leaves in
  /// this cycle and which id it is (the loop re-inserts it after a delay).
  void inserts(std::vector<FlowInsert>& ins, bool pop, uint32_t popped) {
    ins.assign(ports_, FlowInsert{});
    if (pop && mode_ == Mode::kLoop) {
      due_.push({now_ + rng_.range(0, loop_delay_), popped});
    }
    switch (mode_) {
      case Mode::kUniform:
        for (auto& in : ins)
          if (rng_.chance(rate_)) in = {true, random_id()};
        break;
      case Mode::kHot:
        for (auto& in : ins)
          if (rng_.chance(rate_)) in = {true, hot_[rng_.below(hot_.size())]};
        break;
      case Mode::kLoop: {
        // Due re-inserts, oldest first, on random free ports.
        size_t used = 0;
        while (!due_.empty() && due_.top().first <= now_ && used < ports_) {
          place(ins, due_.top().second);
          due_.pop();
          ++used;
        }
        for (auto& in : ins)
          if (!in.valid && rng_.chance(rate_)) in = {true, random_id()};
        if (rng_.chance(0.05)) {  // a duplicate of another port's id
          const size_t a = rng_.below(ports_), b = rng_.below(ports_);
          if (ins[a].valid) ins[b] = ins[a];
        }
        break;
      }
      case Mode::kFill:
        for (auto& in : ins) {
          if (rng_.chance(0.1)) continue;
          if (rng_.chance(0.05)) {
            in = {true, random_id()};
          } else {
            in = {true, perm_[cursor_]};
            cursor_ = (cursor_ + 1) % flows_;
          }
        }
        break;
      case Mode::kDrain:
        break;
    }
    ++now_;
  }

 private:
  uint32_t random_id() { return static_cast<uint32_t>(rng_.below(flows_)); }
  void place(std::vector<FlowInsert>& ins, uint32_t id) {
    size_t k = rng_.below(ports_);
    while (ins[k].valid) k = (k + 1) % ports_;
    ins[k] = {true, id};
  }

  Rng& rng_;
  uint32_t flows_, ports_;
  Mode mode_ = Mode::kUniform;
  double rate_ = 0.5;
  std::vector<uint32_t> hot_;
  std::vector<uint32_t> perm_;
  uint32_t cursor_ = 0;
  uint32_t loop_delay_ = 0;
  using Due = std::pair<uint64_t, uint32_t>;  // (cycle, id) of a re-insert
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
  uint64_t now_ = 0;
  std::optional<Sink> sink_;  // re-made per segment (holds a reference)
};

/// Runs the DUT next to FlowFifoRef and compares every cycle: out_valid_o,
/// out_id_o (when valid), count_o, and the popped sequence (scoreboard).
/// Also checks that no id is ever held twice (ids accepted by the reference
/// minus ids popped by the DUT).
template <class Model>
class FlowFifoTb {
 public:
  using P = FlowFifoParams<Model>;

  FlowFifoTb() : ref_(P::kFlows, P::kPorts), held_(P::kFlows, 0), ins_(P::kPorts) {
    reset();
  }

  static constexpr uint32_t flows() { return P::kFlows; }
  static constexpr uint32_t ports() { return P::kPorts; }
  Harness<Model>& h() { return h_; }
  Model& dut() { return h_.dut(); }
  FlowFifoRef& ref() { return ref_; }

 private:
  bool have_nxt_ = false;  // nxt_valid_/nxt_id_ hold the DUT's previous-cycle announcement
  bool nxt_valid_ = false;
  uint32_t nxt_id_ = 0;

 public:

  /// Synchronous reset of the DUT and of the reference. `noisy`: hold every
  /// insert port valid and out_ready high during the reset (all ignored).
  void reset(bool noisy = false) {
    std::vector<FlowInsert> ins(P::kPorts);
    for (uint32_t k = 0; k < P::kPorts; ++k) ins[k] = {noisy, k};
    drive_inserts(h_.dut(), ins, P::kFlows);
    h_->out_ready_i = noisy;
    h_.reset();
    ref_.reset();
    have_nxt_ = false;
    std::fill(held_.begin(), held_.end(), 0);
  }

  /// Stages an insert on `port` for the next cycle().
  void insert(uint32_t port, uint32_t id) { ins_.at(port) = {true, id}; }
  std::vector<FlowInsert>& staged() { return ins_; }

  /// One clock cycle with the staged inserts and this out_ready. Returns the
  /// id the DUT popped, if any. Clears the staged inserts.
  std::optional<uint32_t> cycle(bool ready) {
    Model& d = h_.dut();
    drive_inserts(d, ins_, P::kFlows);
    d.out_ready_i = ready;
    h_.eval();
    const uint64_t c = ref_.cycle();
    if (static_cast<bool>(d.out_valid_o) != ref_.out_valid())
      fail(c, "out_valid_o", d.out_valid_o, ref_.out_valid());
    else if (d.out_valid_o && d.out_id_o != ref_.out_id())
      fail(c, "out_id_o", d.out_id_o, ref_.out_id());
    if (d.count_o != ref_.count()) fail(c, "count_o", d.count_o, ref_.count());
    // nxt_* of the last cycle announced this cycle's head.
    if (have_nxt_ && (nxt_valid_ != static_cast<bool>(d.out_valid_o) ||
                      (nxt_valid_ && nxt_id_ != d.out_id_o)))
      fail(c, "nxt_valid_o/nxt_id_o of the previous cycle", nxt_id_, d.out_id_o);
    nxt_valid_ = d.nxt_valid_o;
    nxt_id_ = d.nxt_id_o;
    have_nxt_ = true;
    for (const FlowInsert& in : ins_) stats_.inserts += in.valid;
    std::optional<uint32_t> popped;
    if (d.out_valid_o && ready) popped = static_cast<uint32_t>(d.out_id_o);
    const std::optional<uint32_t> ref_popped = ref_.step(ins_, ready);
    if (ref_popped) sb_.expect(*ref_popped);
    if (popped) {
      ++stats_.pops;
      if (!sb_.observe(c, *popped) && errors_ == 0) fail_text(sb_.first_error());
      if (held_.at(*popped)-- != 1) fail(c, "popped an id not held", *popped, 1);
    }
    for (uint32_t id : ref_.last_accepted()) {
      ++stats_.accepted;
      if (held_[id]++ != 0) fail(c, "id held twice", id, 0);
    }
    stats_.max_count = std::max<uint64_t>(stats_.max_count, ref_.size());
    h_.tick();
    std::fill(ins_.begin(), ins_.end(), FlowInsert{});
    return popped;
  }

  /// Cycles with no inserts and ready high until the FIFO is empty; returns the pops.
  std::vector<uint32_t> drain(uint64_t max_cycles = 0) {
    std::vector<uint32_t> out;
    if (!max_cycles) max_cycles = 2ull * P::kFlows + 16;
    for (uint64_t i = 0; i < max_cycles && (ref_.size() > 0 || h_->out_valid_o); ++i) {
      if (auto p = cycle(true)) out.push_back(*p);
    }
    return out;
  }

  struct Stats {
    uint64_t inserts = 0, accepted = 0, pops = 0, max_count = 0;
  };
  const Stats& stats() const { return stats_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }

 private:
  template <class A, class B>
  void fail(uint64_t cycle, const char* what, A got, B exp) {
    std::ostringstream os;
    os << what << " at cycle " << cycle << ": got " << static_cast<uint64_t>(got) << ", expected "
       << static_cast<uint64_t>(exp);
    fail_text(os.str());
  }
  void fail_text(const std::string& s) {
    if (errors_++ == 0) first_error_ = s;
  }

  Harness<Model> h_;
  FlowFifoRef ref_;
  Scoreboard<uint32_t> sb_;
  std::vector<int32_t> held_;
  std::vector<FlowInsert> ins_;
  Stats stats_;
  uint64_t errors_ = 0;
  std::string first_error_;
};

}  // namespace tonic
