// SPDX-License-Identifier: Apache-2.0
// Tests of tonic_cr_engine (window credit): latency, per-flow order,
// throughput and fairness at 1, 16 and 1024 flows, back-pressure, adds,
// and the dropped enqueue to a full ring.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "cr_checks.hpp"

using namespace tonic;

#define CR_MODELS Vcr_1024, Vcr_small

TEMPLATE_TEST_CASE("cr: one address into an idle engine leaves after 4 cycles, notify one later",
                   "[cr][smoke]", CR_MODELS) {
  CrTb<TestType> tb;
  Rng rng(1);
  typename CrTb<TestType>::Cycle c;
  c.enq = true;
  c.seg = tb.make_seg(3, rng);
  const uint64_t t0 = tb.cycle();
  tb.step(c);
  uint64_t out_cycle = 0;
  for (int i = 0; i < 10; ++i) {
    if (tb.step(typename CrTb<TestType>::Cycle{})) out_cycle = tb.cycle() - 1;
  }
  CHECK(out_cycle - t0 == 4);
  CHECK(tb.ref().outs() == 1);
  CHECK(tb.outstanding(3) == 0);  // the notify came back
  check_cr_clean(tb);
}

TEMPLATE_TEST_CASE("cr: addresses of a flow leave in enqueue order, flows interleave round robin",
                   "[cr][smoke]", CR_MODELS) {
  CrTb<TestType> tb;
  Rng rng(2);
  const uint32_t n = CrParams<TestType>::kRing;
  // Three flows, n addresses each, enqueued flow by flow.
  for (uint32_t f : {1u, 2u, 3u}) {
    for (uint32_t i = 0; i < n; ++i) {
      typename CrTb<TestType>::Cycle c;
      c.enq = true;
      c.seg = tb.make_seg(f, rng);
      c.ready = false;  // hold the output so all three are queued
      tb.step(c);
    }
  }
  std::vector<uint32_t> order;
  for (int i = 0; i < 200 && tb.ref().total_queued() > 0; ++i) {
    auto& d = tb.h().dut();
    const bool v = d.seg_valid_o;
    const uint32_t f = d.seg_flow_o;
    if (tb.step(typename CrTb<TestType>::Cycle{}) && v) order.push_back(f);
  }
  CHECK(order.size() == 3 * n);
  check_cr_clean(tb);
  // After the first few (the output queue filled while held), flows rotate.
  int rotations = 0;
  for (size_t i = 8; i + 1 < order.size(); ++i) rotations += order[i] != order[i + 1];
  CHECK(rotations >= static_cast<int>(order.size()) - 8 - 4);
}

TEMPLATE_TEST_CASE("cr: an add re-initialises an idle flow, other flows are untouched", "[cr][smoke]",
                   CR_MODELS) {
  CrTb<TestType> tb;
  Rng rng(3);
  const uint32_t n = CrParams<TestType>::kRing;
  // Flow 5 sends a few, drains; flow 6 keeps addresses queued (output held).
  for (uint32_t i = 0; i < n / 2; ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(5, rng);
    tb.step(c);
  }
  tb.drain();
  for (uint32_t i = 0; i < n; ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(6, rng);
    c.ready = false;
    tb.step(c);
    if (i == 0) {
      typename CrTb<TestType>::Cycle a;  // add of idle flow 5 between enqueues of 6
      a.add = true;
      a.add_flow = 5;
      a.ready = false;
      tb.step(a);
    }
  }
  // Flow 5 works again after the add, flow 6 lost nothing.
  for (uint32_t i = 0; i < n; ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(5, rng);
    tb.step(c);
  }
  tb.drain();
  CHECK(tb.ref().sent()[5] == n / 2 + n);
  CHECK(tb.ref().sent()[6] == n);
  check_cr_clean(tb);
}

TEMPLATE_TEST_CASE("cr: an enqueue to a full ring is dropped and flagged, nothing else changes",
                   "[cr][badinput]", CR_MODELS) {
  CrTb<TestType> tb;
  Rng rng(4);
  const uint32_t cap = CrParams<TestType>::kRing + kCrOutputSlots;
  // Output held: the DUT takes cap addresses of flow 7 (RingN in the ring,
  // kCrOutputSlots read into the output queue); the rest are dropped.
  uint64_t drops = 0;
  for (uint32_t i = 0; i < cap + 6; ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(7, rng);
    c.ready = false;
    // Give the output queue time to fill before the ring does.
    if (i == 0) {
      tb.step(c);
      for (int k = 0; k < 8; ++k) {
        typename CrTb<TestType>::Cycle idle;
        idle.ready = false;
        tb.step(idle);
      }
      continue;
    }
    tb.step(c);
    drops += tb.last_drop();
  }
  CHECK(drops == 6);
  // Another flow is unaffected, and everything accepted comes out in order.
  typename CrTb<TestType>::Cycle c;
  c.enq = true;
  c.seg = tb.make_seg(8, rng);
  tb.step(c);
  tb.drain();
  CHECK(tb.ref().sent()[7] == cap);
  CHECK(tb.ref().sent()[8] == 1);
  check_cr_clean(tb);
}

TEST_CASE("cr: saturated flows get >= 0.99 addresses per cycle and equal shares", "[cr][stress]") {
  using M = Vcr_1024;
  for (uint32_t nflows : {1u, 16u, 1024u}) {
    INFO("flows " << nflows);
    {
      CrTb<M> tb;
      Rng rng(10 + nflows);
      SaturatingProducer<M> prod(tb, first_flows(nflows));
      const uint64_t warm = 20000, measure = 100000;
      uint64_t outs = 0;
      std::vector<uint64_t> before;
      for (uint64_t i = 0; i < warm + measure; ++i) {
        if (i == warm) before = tb.ref().sent();
        typename CrTb<M>::Cycle c;
        prod.next(c, rng);
        const bool o = tb.step(c);
        if (i >= warm) outs += o;
      }
      const double rate = static_cast<double>(outs) / measure;
      INFO("addresses per cycle " << rate);
      CHECK(rate >= 0.99);
      uint64_t lo = UINT64_MAX, hi = 0;
      for (uint32_t f = 0; f < nflows; ++f) {
        const uint64_t n = tb.ref().sent()[f] - before[f];
        lo = std::min(lo, n);
        hi = std::max(hi, n);
      }
      INFO("per-flow min " << lo << " max " << hi);
      CHECK(static_cast<double>(hi - lo) <= 0.01 * static_cast<double>(hi) + 1.0);
      check_cr_clean(tb);
      CHECK(tb.drops() == 0);
    }
  }
}

TEMPLATE_TEST_CASE("cr: random enqueues, adds and back-pressure match the reference",
                   "[cr][stress][backpressure]", CR_MODELS) {
  TONIC_SEED(0xC0FFEE);
  Rng rng(tonic_seed_);
  CrTb<TestType> tb;
  const uint32_t flows = CrParams<TestType>::kFlows;
  // Knobs redrawn every 2000 cycles: enqueue probability, hot-set size,
  // sink readiness, add probability.
  double p_enq = 0.5, p_ready = 0.8, p_add = 0.0;
  uint32_t hot = 4;
  bool ready = true;
  for (uint64_t i = 0; i < 200000; ++i) {
    if (i % 2000 == 0) {
      p_enq = 0.1 + 0.9 * rng.chance(0.7);
      p_ready = rng.chance(0.3) ? 0.2 : 0.95;
      p_add = rng.chance(0.2) ? 0.01 : 0.0;
      hot = static_cast<uint32_t>(rng.range(1, flows));
    }
    if (rng.chance(0.2)) ready = rng.chance(p_ready);  // bursty back-pressure
    tb.step(tb.random_cycle(rng, ready, p_add, flows, p_enq, hot));
    if (tb.ref().errors() != 0) break;
  }
  tb.drain();
  check_cr_clean(tb);
  CHECK(tb.drops() == 0);
  CHECK(tb.ref().total_queued() == 0);  // nothing lost
  CHECK(tb.ref().outs() > 50000);
}
