// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_flow_fifo: directed cases for each rule of the module
// header, then seeded random traffic compared with FlowFifoRef every cycle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "flow_fifo_tb.hpp"

using namespace tonic;

#define ALL_CONFIGS Vflow_fifo_1024, Vflow_fifo_2048, Vflow_fifo_4096, Vflow_fifo_1024_w8

namespace {

/// Outputs of the DUT in the current cycle (they come from registers).
struct Out {
  bool valid;
  uint32_t id;
  uint32_t count;
};
template <class Tb>
Out peek(Tb& tb) {
  tb.h().eval();
  return {static_cast<bool>(tb.dut().out_valid_o), static_cast<uint32_t>(tb.dut().out_id_o),
          static_cast<uint32_t>(tb.dut().count_o)};
}

template <class Tb>
void require_clean(const Tb& tb) {
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("flow_fifo: one insert is visible two cycles later and pops once",
                   "[flow_fifo][smoke]", ALL_CONFIGS) {
  FlowFifoTb<TestType> tb;
  auto o = peek(tb);
  REQUIRE_FALSE(o.valid);
  REQUIRE(o.count == 0);
  tb.insert(0, 5);
  tb.cycle(true);  // cycle t: insert
  o = peek(tb);
  REQUIRE_FALSE(o.valid);  // t + 1: not yet
  REQUIRE(o.count == 0);
  tb.cycle(true);
  o = peek(tb);  // t + 2: visible
  REQUIRE(o.valid);
  REQUIRE(o.id == 5);
  REQUIRE(o.count == 1);
  // Held while ready is low.
  for (int i = 0; i < 5; ++i) {
    REQUIRE_FALSE(tb.cycle(false).has_value());
    o = peek(tb);
    REQUIRE(o.valid);
    REQUIRE(o.id == 5);
  }
  REQUIRE(tb.cycle(true) == std::optional<uint32_t>(5));
  o = peek(tb);
  REQUIRE_FALSE(o.valid);
  REQUIRE(o.count == 0);
  for (int i = 0; i < 4; ++i) REQUIRE_FALSE(tb.cycle(true).has_value());
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: same-cycle inserts enqueue in port order, one pop per cycle",
                   "[flow_fifo][smoke]", ALL_CONFIGS) {
  FlowFifoTb<TestType> tb;
  const uint32_t k = tb.ports(), n = tb.flows();
  std::vector<uint32_t> expect;
  // Three cycles of K inserts each; ids chosen so that port order differs
  // from numeric order.
  for (uint32_t c = 0; c < 3; ++c) {
    for (uint32_t p = 0; p < k; ++p) {
      const uint32_t id = (n - 1 - 7 * p - 100 * c) % n;
      tb.insert(p, id);
      expect.push_back(id);
    }
    tb.cycle(false);
  }
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == 3 * k);
  std::vector<uint32_t> got;
  for (uint32_t i = 0; i < 3 * k; ++i) {
    auto p = tb.cycle(true);
    REQUIRE(p.has_value());  // no bubbles while draining
    got.push_back(*p);
  }
  REQUIRE(got == expect);
  REQUIRE_FALSE(peek(tb).valid);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: the same id on several ports in one cycle is one insert",
                   "[flow_fifo][smoke]", ALL_CONFIGS) {
  FlowFifoTb<TestType> tb;
  const uint32_t k = tb.ports();
  for (uint32_t p = 0; p < k; ++p) tb.insert(p, 42);
  tb.cycle(false);
  // Pairs: ports 0,2,4.. carry 5 and 1,3,5.. carry 6 -> 5 then 6.
  for (uint32_t p = 0; p < k; ++p) tb.insert(p, p % 2 ? 6 : 5);
  tb.cycle(false);
  // An invalid port's id does not count: port 0 idle with id 77, port 1 inserts 77.
  tb.staged()[0] = {false, 77};
  tb.insert(1, 77);
  tb.cycle(false);
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == 4);
  REQUIRE(tb.drain() == std::vector<uint32_t>{42, 5, 6, 77});
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: inserting a member is a no-op in every later cycle",
                   "[flow_fifo][smoke]", ALL_CONFIGS) {
  FlowFifoTb<TestType> tb;
  // t: insert 9; t+1 (still in the pipeline), t+2 (just visible), t+3.. : again.
  for (int c = 0; c < 8; ++c) {
    tb.insert(static_cast<uint32_t>(c) % tb.ports(), 9);
    if (c == 1) tb.insert(0, 10);
    tb.cycle(false);
  }
  REQUIRE(peek(tb).count == 2);
  // Re-insert while waiting at the head (ready low) changes nothing.
  tb.insert(0, 10);
  tb.insert(1, 9);
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == 2);
  REQUIRE(tb.drain() == std::vector<uint32_t>{9, 10});
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: an id inserted in the cycle it is popped is re-inserted",
                   "[flow_fifo][smoke]", ALL_CONFIGS) {
  FlowFifoTb<TestType> tb;
  tb.insert(0, 1);
  tb.insert(1, 2);
  tb.insert(2, 3);
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).id == 1);
  // Insert 1 the cycle before its pop: a no-op (it is a member).
  tb.insert(0, 1);
  tb.cycle(false);
  // Pop 1 and insert 1 in the same cycle: it goes to the tail.
  tb.insert(3 % tb.ports(), 1);
  REQUIRE(tb.cycle(true) == std::optional<uint32_t>(1));
  // Pop 2; insert 2 one cycle after... here in the same cycle again, plus 1
  // (a member again since the last cycle, so a no-op).
  tb.insert(0, 1);
  tb.insert(1, 2);
  REQUIRE(tb.cycle(true) == std::optional<uint32_t>(2));
  REQUIRE(tb.drain() == std::vector<uint32_t>{3, 1, 2});
  // Insert the cycle after the pop: an ordinary insert.
  tb.insert(0, 4);
  tb.cycle(true);
  tb.cycle(true);
  REQUIRE(tb.cycle(true) == std::optional<uint32_t>(4));
  tb.insert(0, 4);
  tb.cycle(true);
  tb.cycle(true);
  REQUIRE(tb.cycle(true) == std::optional<uint32_t>(4));
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: ids 0 and FlowCount-1 are usable flows",
                   "[flow_fifo][smoke]", ALL_CONFIGS) {
  FlowFifoTb<TestType> tb;
  const uint32_t last = tb.flows() - 1, k = tb.ports();
  tb.insert(k - 1, 0);
  tb.insert(0, last);
  tb.cycle(false);
  tb.insert(0, 0);  // members: no-ops
  tb.insert(k - 1, last);
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == 2);
  REQUIRE(tb.drain() == std::vector<uint32_t>{last, 0});
  // Both can be inserted again after leaving.
  tb.insert(1, 0);
  tb.insert(2, last);
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(tb.drain() == std::vector<uint32_t>{0, last});
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: fill with every flow id, then drain in order",
                   "[flow_fifo][stress]", ALL_CONFIGS) {
  TONIC_SEED(0xf1f0f111);
  Rng rng(tonic_seed_);
  FlowFifoTb<TestType> tb;
  const uint32_t n = tb.flows(), k = tb.ports();
  std::vector<uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), rng.engine());
  for (uint32_t i = 0; i < n; i += k) {
    for (uint32_t p = 0; p < k; ++p) tb.insert(p, perm[i + p]);
    tb.cycle(false);
  }
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == n);
  // Full: every insert is now a no-op, on every port, for a while.
  for (uint32_t c = 0; c < 64; ++c) {
    for (uint32_t p = 0; p < k; ++p) tb.insert(p, static_cast<uint32_t>(rng.below(n)));
    tb.cycle(false);
  }
  REQUIRE(peek(tb).count == n);
  std::vector<uint32_t> got;
  for (uint32_t i = 0; i < n; ++i) {
    auto p = tb.cycle(true);
    REQUIRE(p.has_value());  // one pop every cycle from a full FIFO
    got.push_back(*p);
  }
  REQUIRE(got == perm);
  REQUIRE_FALSE(peek(tb).valid);
  REQUIRE(peek(tb).count == 0);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: pop-and-reinsert loop is round robin at one pop per cycle",
                   "[flow_fifo][smoke]", Vflow_fifo_1024, Vflow_fifo_4096) {
  // Each popped flow is re-inserted in the same cycle (rule (b)). With the
  // 2-cycle latency, one flow pops every other cycle; two or more flows pop
  // every cycle, in round-robin order.
  for (uint32_t flows : {1u, 2u, 3u, 7u}) {
    CAPTURE(flows);
    FlowFifoTb<TestType> tb;
    for (uint32_t f = 0; f < std::min(flows, tb.ports()); ++f) tb.insert(f, 100 + f);
    if (flows > tb.ports()) {
      tb.cycle(false);
      for (uint32_t f = tb.ports(); f < flows; ++f) tb.insert(f - tb.ports(), 100 + f);
    }
    tb.cycle(false);
    tb.cycle(false);
    tb.cycle(false);
    std::vector<uint32_t> seq;
    const int cycles = 1000;
    for (int c = 0; c < cycles; ++c) {
      tb.h().eval();
      if (tb.ref().out_valid()) tb.insert(0, tb.ref().out_id());
      if (auto p = tb.cycle(true)) seq.push_back(*p);
    }
    require_clean(tb);
    if (flows == 1) {
      REQUIRE(seq.size() == cycles / 2);
    } else {
      REQUIRE(seq.size() == cycles);
    }
    for (size_t i = flows; i < seq.size(); ++i) REQUIRE(seq[i] == seq[i - flows]);
    REQUIRE(std::set<uint32_t>(seq.begin(), seq.end()).size() == flows);
  }
}

TEMPLATE_TEST_CASE("flow_fifo: insert storm on every port with the output stalled",
                   "[flow_fifo][badinput]", ALL_CONFIGS) {
  TONIC_SEED(0xba0ba0);
  Rng rng(tonic_seed_);
  FlowFifoTb<TestType> tb;
  const uint32_t n = tb.flows(), k = tb.ports();
  // Random ids on every port every cycle, far more inserts than FlowCount:
  // the FIFO saturates at FlowCount members and never holds an id twice.
  for (uint32_t c = 0; c < 4 * n; ++c) {
    for (uint32_t p = 0; p < k; ++p) tb.insert(p, static_cast<uint32_t>(rng.below(n)));
    tb.cycle(rng.chance(0.01));
  }
  for (uint32_t i = 0; i < n; ++i) {  // make sure every id got in
    tb.insert(0, i);
    tb.cycle(false);
  }
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == n);
  auto out = tb.drain();
  REQUIRE(out.size() == n);
  REQUIRE(std::set<uint32_t>(out.begin(), out.end()).size() == n);
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: reset empties the FIFO and clears membership",
                   "[flow_fifo][badinput]", Vflow_fifo_1024) {
  FlowFifoTb<TestType> tb;
  for (uint32_t i = 0; i < 64; ++i) {
    tb.insert(i % tb.ports(), i);
    if (i % tb.ports() == tb.ports() - 1) tb.cycle(false);
  }
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(peek(tb).count == 64);
  // Reset with inserts and ready held active: all ignored.
  tb.reset(true);
  auto o = peek(tb);
  REQUIRE_FALSE(o.valid);
  REQUIRE(o.count == 0);
  tb.insert(0, 5);  // was a member before the reset
  tb.cycle(false);
  tb.cycle(false);
  REQUIRE(tb.drain() == std::vector<uint32_t>{5});
  require_clean(tb);
}

TEMPLATE_TEST_CASE("flow_fifo: random traffic with back-pressure matches the reference",
                   "[flow_fifo][backpressure][stress]", ALL_CONFIGS) {
  TONIC_SEED(0x5eedf1f0);
  Rng rng(tonic_seed_);
  FlowFifoTb<TestType> tb;
  FlowTraffic traffic(rng, tb.flows(), tb.ports());
  const uint64_t cycles = 400000;
  uint64_t next_segment = 0;
  std::vector<FlowInsert>& ins = tb.staged();
  for (uint64_t c = 0; c < cycles && tb.errors() == 0; ++c) {
    if (c == 0) {  // start full: a fill segment long enough to reach FlowCount
      traffic.set_mode(FlowTraffic::Mode::kFill);
      next_segment = 4 * tb.flows() / tb.ports();
    } else if (c == next_segment) {
      traffic.new_segment();
      next_segment = c + rng.range(100, 6000);
    }
    const bool ready = traffic.ready();
    const bool pop = ready && tb.ref().out_valid();
    traffic.inserts(ins, pop, tb.ref().out_id());
    tb.cycle(ready);
  }
  tb.drain();
  require_clean(tb);
  const auto& st = tb.stats();
  const uint64_t ops = st.inserts + st.pops;
  std::fprintf(stderr,
               "[%s] %llu cycles: %llu inserts (%llu accepted), %llu pops, max occupancy %llu\n",
               FlowFifoParams<TestType>::kName, static_cast<unsigned long long>(tb.h().cycle()),
               static_cast<unsigned long long>(st.inserts),
               static_cast<unsigned long long>(st.accepted), static_cast<unsigned long long>(st.pops),
               static_cast<unsigned long long>(st.max_count));
  CHECK(st.max_count == tb.flows());  // the fill segments reach a full FIFO
  REQUIRE(ops >= 100000);
  REQUIRE(st.pops == st.accepted);
}
