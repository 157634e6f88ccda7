// SPDX-License-Identifier: Apache-2.0
// Testbench of tonic_rx_engine: RxTb, which runs the Verilated engine and
// RxEngineRef in lockstep and compares every output of every cycle (ready,
// decisions, control packets, completions, counters). The port packing is
// in rx_ports.hpp (included here).
#pragma once

#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "tonic/harness.hpp"
#include "common/ref/rx_engine_ref.hpp"
#include "tonic/rx_ports.hpp"

namespace tonic {

/// The engine and its reference in lockstep. Every cycle: drive, compare
/// every output, tick. Control packets, decisions and completions that
/// leave are recorded for directed checks.
template <class Model>
class RxTb {
 public:
  explicit RxTb(const RxEngineParams& p) : ref_(p) { h_.reset(); }

  RxEngineRef& ref() { return ref_; }
  uint64_t cycle() const { return h_.cycle(); }

  /// One cycle with `in`; returns whether the data descriptor was taken.
  bool cycle(const RxEngineIn& in) {
    Model& d = h_.dut();
    d.cfg_valid_i = in.cfg_valid;
    rx_write_port(d.cfg_i, pack_cfg(in.cfg));
    d.data_valid_i = in.data_valid;
    rx_write_port(d.data_i, pack_desc(in.data));
    d.ctl_ready_i = in.ctl_ready;
    h_.eval();
    const RxEngineOut e = ref_.step(in);
    INFO("cycle " << h_.cycle());
    REQUIRE(bool(d.cfg_ready_o) == e.cfg_ready);
    REQUIRE(bool(d.data_ready_o) == e.data_ready);
    REQUIRE(bool(d.dlv_valid_o) == e.dlv_valid);
    if (e.dlv_valid) {
      const RxDlv got = unpack_dlv(rx_read_port(d.dlv_o, kDlvW));
      INFO("dlv got " << str(got) << " want " << str(e.dlv));
      REQUIRE(got == e.dlv);
      dlv_.push_back(got);
    }
    REQUIRE(bool(d.ctl_valid_o) == e.ctl_valid);
    if (e.ctl_valid) {
      const RxCtl got = unpack_ctl(rx_read_port(d.ctl_o, kCtlW));
      INFO("ctl got " << str(got) << " want " << str(e.ctl));
      REQUIRE(got == e.ctl);
      if (in.ctl_ready) ctl_.push_back(got);
    }
    REQUIRE(bool(d.done_valid_o) == e.done_valid);
    if (e.done_valid) {
      REQUIRE(uint32_t(d.done_flow_o) == e.done_flow);
      done_.push_back(e.done_flow);
    }
    if (check_stats_) {
      const RxEngineStats got = unpack_stats(rx_read_port(d.stats_o, kStatsW));
      INFO("stats got " << str(got) << " want " << str(e.stats));
      REQUIRE(got == e.stats);
    }
    h_.tick();
    return in.data_valid && e.data_ready && !in.cfg_valid;
  }

  void cfg(const RxCfg& c) {
    RxEngineIn in;
    in.cfg_valid = true;
    in.cfg = c;
    cycle(in);
  }
  /// Offers `d` until it is taken.
  void data(const RxDesc& d) {
    RxEngineIn in;
    in.data_valid = true;
    in.data = d;
    while (!cycle(in)) {
    }
  }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle(RxEngineIn{});
  }
  std::vector<RxCtl>& ctl() { return ctl_; }
  std::vector<RxDlv>& dlv() { return dlv_; }
  std::vector<uint16_t>& done() { return done_; }
  void check_stats(bool on) { check_stats_ = on; }
  RxEngineStats dut_stats() { return unpack_stats(rx_read_port(h_.dut().stats_o, kStatsW)); }

 private:
  Harness<Model> h_;
  RxEngineRef ref_;
  std::vector<RxCtl> ctl_;
  std::vector<RxDlv> dlv_;
  std::vector<uint16_t> done_;
  bool check_stats_ = true;
};

}  // namespace tonic
