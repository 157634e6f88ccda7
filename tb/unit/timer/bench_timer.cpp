// SPDX-License-Identifier: Apache-2.0
// Simulation-speed benchmark of tonic_rate_timer: random arms (80 % of
// cycles), re-arms and cancels with deadlines from the past to far beyond
// the wheel horizon, 1 % back-pressure. The DUT runs alone, without the
// reference checker; each case returns the simulated cycles.
#include <cstdint>

#include "common/bench.hpp"
#include "timer_tb.hpp"

using namespace tonic;

namespace {

template <class Model>
uint64_t run(uint64_t cycles, uint64_t seed) {
  using B = TimerBounds<Model>;
  Harness<Model> h;
  Rng rng(seed);
  TimerTraffic traffic(rng, B::kFlows, B::kSlotLen, 0.8);
  Sink sink(rng, 0.01, 4);
  h->now_init_i = 0;
  h->arm_valid_i = 0;
  h->rel_ready_i = 1;
  h.reset();
  uint64_t t = 0, released = 0;
  for (; !h->init_done_o; ++t) h.tick();
  for (uint64_t c = 0; c < cycles; ++c, ++t) {
    const TimerCmd cmd = traffic.next(t);
    h->arm_valid_i = cmd.valid;
    h->arm_cancel_i = cmd.cancel;
    h->arm_flow_i = cmd.flow;
    h->arm_time_i = static_cast<uint32_t>(cmd.deadline);
    h->rel_ready_i = sink.ready();
    h.eval();
    released += h->rel_valid_o && h->rel_ready_i;
    h.tick();
  }
  return released > 0 ? cycles : 0;  // 0 marks a broken run
}

}  // namespace

int main(int argc, char** argv) {
  BenchMain bench("timer", argc, argv);
  bench.add("timer_1024", run<Vtimer_1024>);
  bench.add("timer_4096", run<Vtimer_4096>);
  bench.add("timer_small", run<Vtimer_small>);
  return bench.run();
}
