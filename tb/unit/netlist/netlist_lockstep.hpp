// SPDX-License-Identifier: Apache-2.0
// LockStep: the Verilated RTL of a top and the Verilated Yosys netlist of
// the same config (scripts/netlist.mjs), clocked together. The testbench
// drives the RTL model's inputs only; every cycle LockStep copies every
// input to the netlist model, settles both and compares every output,
// bit for bit, whether a stream is valid or not, except where the test
// says a port's value is undefined by the RTL's contract (`undefined`).
//
// The port lists are not written here: ports.hpp, generated from the
// netlist's module header by scripts/netlist.mjs, lists every input and
// output (TONIC_NETLIST_INPUTS / TONIC_NETLIST_OUTPUTS, X(name, width)). A
// port added to the top is copied or compared on the next build, with no
// change to this file; a port the two models do not share, or share with
// different C++ types, fails the build.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tonic/harness.hpp"
#include "ports.hpp"  // generated: build/.../netlist/<config>/ports.hpp

namespace tonic::netlist {

/// The 32-bit words of a port value, least significant first.
inline void port_words(uint64_t v, unsigned width, std::vector<uint32_t>& out) {
  out.push_back(static_cast<uint32_t>(v));
  if (width > 32) out.push_back(static_cast<uint32_t>(v >> 32));
}
template <std::size_t N>
void port_words(const VlWide<N>& v, unsigned, std::vector<uint32_t>& out) {
  for (std::size_t i = 0; i < N; ++i) out.push_back(v.m_storage[i]);
}

/// A port value in hex, most significant word first.
inline std::string port_hex(const std::vector<uint32_t>& w) {
  std::string s = "0x";
  char b[16];
  for (std::size_t i = w.size(); i-- > 0;) {
    std::snprintf(b, sizeof b, i + 1 == w.size() ? "%x" : "%08x", w[i]);
    s += b;
  }
  return s;
}

/// The first difference found: cycle, port, both values.
struct Mismatch {
  uint64_t cycle = 0;
  std::string port;
  std::string rtl, net;
  std::string text() const {
    std::ostringstream m;
    m << "cycle " << cycle << ": output " << port << " differs: RTL " << rtl << ", netlist " << net;
    return m.str();
  }
};

template <class Rtl, class Net>
class LockStep {
 public:
  LockStep() : rtl_("rtl"), net_("netlist") {
    // Same port, same C++ type on both sides (a width change on one side only
    // shows up here or in the value comparison).
#define TONIC_NL_SAME_TYPE(name, width)                                                   \
  static_assert(std::is_same_v<decltype(std::declval<Rtl&>().name), decltype(std::declval<Net&>().name)>, \
                "port " #name ": different types in the RTL and netlist models");
    TONIC_NETLIST_INPUTS(TONIC_NL_SAME_TYPE)
    TONIC_NETLIST_OUTPUTS(TONIC_NL_SAME_TYPE)
#undef TONIC_NL_SAME_TYPE
  }

  /// The RTL model: the testbench drives its inputs and reads its outputs.
  Rtl& dut() { return rtl_.dut(); }
  /// The netlist model (read only: the tests' `undefined` rules, the reports).
  Net& net() { return net_.dut(); }
  uint64_t cycle() const { return rtl_.cycle(); }

  /// Called after the inputs are copied, before eval: a test that must see
  /// a mismatch (the comparison is not vacuous) changes a netlist input here.
  std::function<void(Net&, uint64_t cycle)> perturb;
  /// When set and true for a port in this cycle, the port is not compared:
  /// its value is undefined by the RTL's contract (e.g. the probe of a flow
  /// whose state was never cleared), so the two models may differ.
  std::function<bool(std::string_view port, uint64_t cycle)> undefined;

  /// Copies the inputs, settles both models (clock low) and compares every
  /// output. Returns false on the first mismatch (kept in mismatch()).
  bool eval() {
    copy_inputs();
    if (perturb) perturb(net_.dut(), cycle());
    rtl_.eval();
    net_.eval();
    return compare();
  }

  /// One clock edge on both models.
  void tick() {
    rtl_.tick();
    net_.tick();
  }

  /// rst_i high for `cycles` cycles (compared each cycle), then low.
  bool reset(int cycles = 4) {
    rtl_.dut().rst_i = 1;
    for (int i = 0; i < cycles; ++i) {
      if (!eval()) return false;
      tick();
    }
    rtl_.dut().rst_i = 0;
    return true;
  }

  bool ok() const { return !failed_; }
  const Mismatch& mismatch() const { return first_; }
  uint64_t cycles_compared() const { return compared_; }
  /// Port-cycles left out because `undefined` said so.
  uint64_t port_cycles_skipped() const { return skipped_; }
  /// Output bits compared per cycle (every output port).
  static constexpr unsigned output_bits() {
    unsigned n = 0;
#define TONIC_NL_BITS(name, width) n += (width);
    TONIC_NETLIST_OUTPUTS(TONIC_NL_BITS)
#undef TONIC_NL_BITS
    return n;
  }
  static constexpr unsigned output_ports() {
    unsigned n = 0;
#define TONIC_NL_COUNT(name, width) ++n;
    TONIC_NETLIST_OUTPUTS(TONIC_NL_COUNT)
#undef TONIC_NL_COUNT
    return n;
  }
  static constexpr unsigned input_ports() {
    unsigned n = 0;
#define TONIC_NL_COUNT(name, width) ++n;
    TONIC_NETLIST_INPUTS(TONIC_NL_COUNT)
#undef TONIC_NL_COUNT
    return n;
  }

 private:
  void copy_inputs() {
    Rtl& r = rtl_.dut();
    Net& n = net_.dut();
    // clk_i belongs to each Harness (both follow the same edges).
#define TONIC_NL_COPY(name, width) \
  if constexpr (std::string_view(#name) != "clk_i") n.name = r.name;
    TONIC_NETLIST_INPUTS(TONIC_NL_COPY)
#undef TONIC_NL_COPY
  }

  bool compare() {
    if (failed_) return false;
    Rtl& r = rtl_.dut();
    Net& n = net_.dut();
#define TONIC_NL_CMP(name, width)                      \
  if (undefined && undefined(#name, cycle())) {        \
    ++skipped_;                                        \
  } else {                                             \
    a_.clear();                                        \
    b_.clear();                                        \
    port_words(r.name, (width), a_);                   \
    port_words(n.name, (width), b_);                   \
    if (a_ != b_) return fail(#name);                  \
  }
    TONIC_NETLIST_OUTPUTS(TONIC_NL_CMP)
#undef TONIC_NL_CMP
    ++compared_;
    return true;
  }

  bool fail(const char* port) {
    failed_ = true;
    first_ = {cycle(), port, port_hex(a_), port_hex(b_)};
    return false;
  }

  Harness<Rtl> rtl_;
  Harness<Net> net_;
  std::vector<uint32_t> a_, b_;
  uint64_t compared_ = 0, skipped_ = 0;
  bool failed_ = false;
  Mismatch first_;
};

}  // namespace tonic::netlist
