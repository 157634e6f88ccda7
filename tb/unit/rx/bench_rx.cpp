// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_rx_engine (rx_1024x128, rx_16x32):
// random arrivals over many flows in every mode, with loss, duplication,
// reordering, NDP trims, ECN marks, control back-pressure and flows that
// complete their message and reopen. The "sender" of each flow keeps its
// window at the last cum_ack the engine sent for it, so arrivals stay in
// and around the window as in a real transfer.
//
// Cases `<config>` run the engine against RxEngineRef in lockstep (every
// output of every cycle compared, the counters every 256 cycles and at the
// end; a mismatch prints the first difference and the case reports 0
// cycles); cases `<config>_model` run the Verilated model alone.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "Vrx_1024x128.h"
#include "Vrx_16x32.h"
#include "common/bench.hpp"
#include "common/ref/rx_engine_ref.hpp"
#include "tonic/harness.hpp"
#include "tonic/seq.hpp"
#include "tonic/rng.hpp"
#include "tonic/rx_ports.hpp"

using namespace tonic;

namespace {

template <class Model>
uint64_t run_rx(const RxEngineParams& p, uint32_t nflows, uint64_t cycles, uint64_t seed,
                bool check) {
  Harness<Model> h;
  h.reset();
  Model& d = h.dut();
  RxEngineRef ref(p);
  Rng rng(seed);

  static constexpr RxMode kModes[] = {RxMode::kTcp, RxMode::kNdp, RxMode::kRoce, RxMode::kIrn,
                                      RxMode::kWindow};
  struct F {
    uint16_t id = 0;
    RxMode mode = RxMode::kTcp;
    uint32_t next = 0, cum = 0, msgid = 0;
    bool done = false;
    std::vector<uint32_t> pending;  // lost / duplicated / overtaken, sent later
  };
  std::vector<F> fl(nflows);
  std::vector<int> slot(p.flows, -1);
  for (uint32_t i = 0; i < nflows; ++i) {
    fl[i].id = static_cast<uint16_t>((i * 37 + 3) % p.flows);  // spread over the id space
    slot[fl[i].id] = static_cast<int>(i);
  }
  auto open_cfg = [&](F& f) {
    RxCfg c;
    c.flow = f.id;
    c.mode = f.mode = kModes[rng.below(5)];
    c.first = static_cast<uint32_t>(rng.bits64());
    c.count = rng.chance(0.6) ? static_cast<uint32_t>(rng.range(16, 2000)) : 0;
    c.node = static_cast<uint16_t>(f.id ^ 0x55);
    c.ctx = f.id;
    c.msgid = ++f.msgid & 0xFFFFF;
    c.delack = rng.chance(0.5);
    c.sack = rng.chance(0.5);
    f.next = f.cum = c.first;
    f.done = false;
    f.pending.clear();
    return c;
  };

  const uint32_t reorder_dist = p.w / 2;
  uint64_t errors = 0;
  std::string first_error;
  auto fail = [&](const std::string& what) {
    if (errors++ == 0) first_error = "cycle " + std::to_string(h.cycle()) + ": " + what;
  };

  RxEngineIn in;
  bool have = false;
  uint32_t opened = 0;
  uint64_t delivered = 0;
  for (uint64_t t = 0; t < cycles && errors == 0; ++t) {
    if (!have) {
      in.cfg_valid = false;
      in.data_valid = false;
      if (opened < nflows) {
        in.cfg = open_cfg(fl[opened++]);
        in.cfg_valid = true;
      } else if (rng.chance(0.9)) {
        F& f = fl[rng.below(nflows)];
        if (f.done || rng.chance(0.0005)) {
          in.cfg = open_cfg(f);  // the next message
          in.cfg_valid = true;
        } else {
          RxDesc x;
          x.flow = f.id;
          x.node = static_cast<uint16_t>(f.id ^ 0x55);
          x.ctx = f.id;
          x.msgid = f.msgid & 0xFFFFF;
          if (f.mode == RxMode::kRoce && seq_lt(f.cum, f.next) && rng.chance(0.02)) f.next = f.cum;
          const bool full = seq_dist(f.cum, f.next) < 0x8000'0000u && seq_dist(f.cum, f.next) >= p.w - 2;
          bool send = true;
          if (full && (f.pending.empty() || rng.chance(0.5))) {
            x.idx = f.cum + static_cast<uint32_t>(rng.below(3));  // timeout retransmission
          } else if (!f.pending.empty() && (full || rng.chance(0.2))) {
            const size_t k = rng.below(f.pending.size());
            x.idx = f.pending[k];
            f.pending[k] = f.pending.back();
            f.pending.pop_back();
          } else {
            const uint32_t idx = f.next++;
            if (rng.chance(0.03)) {
              f.pending.push_back(idx);  // lost
              send = false;
            } else if (rng.chance(0.1)) {
              x.idx = idx + static_cast<uint32_t>(rng.below(reorder_dist));  // overtaken
              f.pending.push_back(idx);
            } else {
              x.idx = idx;
            }
            if (rng.chance(0.02)) f.pending.push_back(idx);  // duplicated
          }
          if (f.pending.size() > 64) f.pending.erase(f.pending.begin());
          x.ecn = rng.chance(0.1);
          x.trimmed = rng.chance(0.02);
          x.txid = static_cast<uint8_t>(rng.below(4));
          if (send) {
            in.data = x;
            in.data_valid = true;
          }
        }
      }
      have = in.cfg_valid || in.data_valid;
      if (in.cfg_valid) rx_write_port(d.cfg_i, pack_cfg(in.cfg));
      if (in.data_valid) rx_write_port(d.data_i, pack_desc(in.data));
    }
    in.ctl_ready = !rng.chance(0.05);
    d.cfg_valid_i = in.cfg_valid;
    d.data_valid_i = in.data_valid;
    d.ctl_ready_i = in.ctl_ready;
    h.eval();

    const bool ready = d.data_ready_o;
    const bool ctl_v = d.ctl_valid_o;
    const RxCtl ctl = ctl_v ? unpack_ctl(rx_read_port(d.ctl_o, kCtlW)) : RxCtl{};
    if (check) {
      const RxEngineOut e = ref.step(in);
      if (ready != e.data_ready) fail("data_ready");
      if (bool(d.dlv_valid_o) != e.dlv_valid) fail("dlv_valid");
      if (e.dlv_valid) {
        const RxDlv got = unpack_dlv(rx_read_port(d.dlv_o, kDlvW));
        if (!(got == e.dlv)) fail("dlv got " + str(got) + " want " + str(e.dlv));
      }
      if (ctl_v != e.ctl_valid) fail("ctl_valid");
      if (e.ctl_valid && ctl != e.ctl) fail("ctl got " + str(ctl) + " want " + str(e.ctl));
      if (bool(d.done_valid_o) != e.done_valid) fail("done_valid");
      if (e.done_valid && uint32_t(d.done_flow_o) != e.done_flow) fail("done_flow");
      if (t % 256 == 0) {
        const RxEngineStats got = unpack_stats(rx_read_port(d.stats_o, kStatsW));
        if (!(got == e.stats)) fail("stats got " + str(got) + " want " + str(e.stats));
      }
    }
    // The senders see the engine's outputs.
    if (ctl_v && in.ctl_ready && ctl.flow < p.flows && slot[ctl.flow] >= 0) {
      F& f = fl[static_cast<size_t>(slot[ctl.flow])];
      if (seq_lt(f.cum, ctl.cum_ack) && seq_le(ctl.cum_ack, f.next + p.w)) f.cum = ctl.cum_ack;
      if (seq_lt(f.next, f.cum)) f.next = f.cum;
    }
    if (d.dlv_valid_o) delivered += unpack_dlv(rx_read_port(d.dlv_o, kDlvW)).deliver;
    if (d.done_valid_o && d.done_flow_o < p.flows && slot[d.done_flow_o] >= 0)
      fl[static_cast<size_t>(slot[d.done_flow_o])].done = true;

    h.tick();
    if (in.cfg_valid || (in.data_valid && ready)) have = false;
  }
  if (check && errors == 0) {
    h.eval();
    const RxEngineOut e = ref.outputs(RxEngineIn{});
    const RxEngineStats got = unpack_stats(rx_read_port(d.stats_o, kStatsW));
    if (!(got == e.stats)) fail("final stats got " + str(got) + " want " + str(e.stats));
  }
  if (seed == 1) {  // what the traffic did (first run of a case only)
    h.eval();
    std::fprintf(stderr, "bench_rx %u flows x W=%u: %llu delivered, %s\n", p.flows, p.w,
                 static_cast<unsigned long long>(delivered),
                 str(unpack_stats(rx_read_port(d.stats_o, kStatsW))).c_str());
  }
  if (errors) {
    std::fprintf(stderr, "bench_rx: %llu mismatches; first: %s\n",
                 static_cast<unsigned long long>(errors), first_error.c_str());
    return 0;
  }
  return h.cycle();
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("rx", argc, argv);
  bench.add("rx_1024x128", [](uint64_t cycles, uint64_t seed) {
    return run_rx<Vrx_1024x128>(rx_params_1024x128(), 256, cycles, seed, true);
  }, 300000);
  bench.add("rx_1024x128_model", [](uint64_t cycles, uint64_t seed) {
    return run_rx<Vrx_1024x128>(rx_params_1024x128(), 256, cycles, seed, false);
  }, 300000);
  bench.add("rx_16x32", [](uint64_t cycles, uint64_t seed) {
    return run_rx<Vrx_16x32>(rx_params_16x32(), 16, cycles, seed, true);
  }, 1000000);
  bench.add("rx_16x32_model", [](uint64_t cycles, uint64_t seed) {
    return run_rx<Vrx_16x32>(rx_params_16x32(), 16, cycles, seed, false);
  }, 1000000);
  return bench.run();
}
