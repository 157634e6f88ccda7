// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of the tops of every rate and token protocol
// of the registry (their tonic_<name>_1024x128 builds, 1024 flows): every
// flow backlogged; an ideal receiver acks each segment 20 cycles after it
// leaves, and for token credit also pulls one segment per arrival (the rx
// stream carries one event per cycle, so a token protocol runs at the rx
// stream's pace). No reference checks beyond SysTb's per-segment ones.
#include <cstdint>
#include <string>
#include <vector>

#include "common/bench.hpp"
#include "tonic/net_models.hpp"
#include "tonic/protocol_registry.hpp"
#include "tonic/sys_tb.hpp"

using namespace tonic;

namespace {

template <class Model, bool kPulls>
uint64_t run(uint64_t cycles, uint64_t seed) {
  constexpr uint32_t kFlows = 1024;
  SysTb<Model> tb(kFlows, seed);
  IdealAcker acker(kFlows, 20);
  std::vector<uint16_t> pulls(kFlows, 0);
  tb.on_seg = [&](const SysSeg& s) {
    acker.on_seg(s);
    if (kPulls) {
      SysRxCmd r;
      r.flow = s.flow;
      r.type = SysRx::kPull;
      r.grant = ++pulls[s.flow];
      tb.send_rx(r);
    }
  };
  for (uint32_t f = 0; f < kFlows; ++f) {
    tb.add(f, f * 11, 1024);
    tb.post(f, f * 11 + (1u << 24), 1024);
    acker.open(f, f * 11);
  }
  for (uint64_t i = 0; i < cycles && tb.errors() == 0; ++i) {
    acker.deliver(tb.cycle(), tb);
    tb.step();
  }
  return tb.errors() == 0 ? cycles : 0;
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("rdma", argc, argv);
  for (const registry::Protocol& p : registry::kProtocols) {
    if (p.credit == registry::Credit::kWindow) continue;
    const std::string config = std::string("tonic_") + p.name + "_1024x128";
    const bool pulls = p.credit == registry::Credit::kTokens;
    registry::with_net_model(config, [&](auto tag) {
      using M = typename decltype(tag)::Model;
      bench.add(config, pulls ? run<M, true> : run<M, false>);
    });
  }
  return bench.run();
}
