// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_flow_fifo under random traffic (the
// shapes of FlowTraffic: uniform, hot set, pop-and-reinsert loop, fill,
// drain; random back-pressure). The DUT runs alone, without the reference.
#include <cstdint>
#include <vector>

#include "common/bench.hpp"
#include "flow_fifo_tb.hpp"

using namespace tonic;

namespace {

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  using P = FlowFifoParams<Model>;
  Harness<Model> h;
  Rng rng(seed);
  FlowTraffic traffic(rng, P::kFlows, P::kPorts);
  std::vector<FlowInsert> ins(P::kPorts);
  drive_inserts(h.dut(), ins, P::kFlows);
  h->out_ready_i = 0;
  h.reset();
  uint64_t next_segment = 0, pops = 0;
  for (uint64_t c = 0; c < cycles; ++c) {
    if (c == next_segment) {
      traffic.new_segment();
      next_segment = c + rng.range(100, 6000);
    }
    const bool ready = traffic.ready();
    const bool pop = ready && h->out_valid_o;  // registered: settled after the last tick
    traffic.inserts(ins, pop, static_cast<uint32_t>(h->out_id_o));
    drive_inserts(h.dut(), ins, P::kFlows);
    h->out_ready_i = ready;
    h.eval();
    pops += pop;
    h.tick();
  }
  return pops > 0 ? cycles : 0;  // 0 marks a broken run
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("flow_fifo", argc, argv);
  bench.add("flow_fifo_1024", run<Vflow_fifo_1024>);
  bench.add("flow_fifo_2048", run<Vflow_fifo_2048>);
  bench.add("flow_fifo_4096", run<Vflow_fifo_4096>);
  bench.add("flow_fifo_1024_w8", run<Vflow_fifo_1024_w8>);
  return bench.run();
}
