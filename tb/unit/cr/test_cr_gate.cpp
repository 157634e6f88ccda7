// SPDX-License-Identifier: Apache-2.0
// Tests of tonic_cr_engine's wire gate (WireGate = 1, the rate scheme's
// credit checked where an address leaves): a flow without wire permits is
// held and a grant puts it back; a revocation reaches the wire within the
// addresses already past the gate; a gate fed like the DD engine feeds it
// (a permit with every address) never holds a flow and costs no throughput;
// random grants, revocations, adds and back-pressure against CrRef.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "cr_checks.hpp"

using namespace tonic;

#define CR_GATE_MODELS Vcr_gate_1024, Vcr_gate_small, Vcr_gate_init_small

namespace {

/// Enqueue addresses of `flow` while its ring has room, at most `n`.
template <class Model>
void fill(CrTb<Model>& tb, uint32_t flow, uint32_t n, Rng& rng) {
  for (uint32_t i = 0; i < n && tb.outstanding(flow) < CrParams<Model>::kRing; ++i) {
    typename CrTb<Model>::Cycle e;
    e.enq = true;
    e.seg = tb.make_seg(flow, rng);
    tb.step(e);
  }
}

/// Outputs of `flow` in `cycles` idle cycles (sink ready).
template <class Model>
uint64_t run_idle(CrTb<Model>& tb, uint32_t flow, uint64_t cycles) {
  const uint64_t before = tb.ref().sent()[flow];
  for (uint64_t i = 0; i < cycles; ++i) tb.step(typename CrTb<Model>::Cycle{});
  return tb.ref().sent()[flow] - before;
}

}  // namespace

TEMPLATE_TEST_CASE("cr_gate: a flow without wire permits is held, a grant releases exactly its count",
                   "[cr][cr_gate][smoke]", CR_GATE_MODELS) {
  CrTb<TestType> tb;
  Rng rng(3);
  const uint32_t n = CrParams<TestType>::kRing;
  tb.step(gate_cmd<TestType>(3, true, 0));  // W = 0 (as the rate cell's INIT sets it)
  for (uint32_t i = 0; i < n; ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(3, rng);
    tb.step(c);
  }
  CHECK(run_idle(tb, 3, 40) == 0);
  CHECK(tb.holds() == 1);  // held once, then out of the ready set (no spinning)
  tb.step(gate_cmd<TestType>(3, false, 2));
  CHECK(run_idle(tb, 3, 40) == 2);
  CHECK(tb.holds() == 2);
  tb.step(gate_cmd<TestType>(3, false, 100));
  CHECK(run_idle(tb, 3, 40) == n - 2);
  CHECK(tb.ref().total_queued() == 0);
  check_cr_clean(tb);
}

TEMPLATE_TEST_CASE("cr_gate: a cut's revocation hands back exactly the wire permits it voided",
                   "[cr][cr_gate][smoke]", CR_GATE_MODELS) {
  // Flow 5: 10 permits, 3 addresses (all released: 7 left), then a void
  // revocation: 7 come back. Flow 6: 2 permits, 4 addresses (2 released,
  // 2 held), then a void revocation: 0 come back, and the 2 held stay held.
  CrTb<TestType> tb;
  Rng rng(9);
  tb.step(gate_cmd<TestType>(5, true, 0));
  tb.step(gate_cmd<TestType>(6, true, 0));
  tb.step(gate_cmd<TestType>(5, false, 10));
  tb.step(gate_cmd<TestType>(6, false, 2));
  for (uint32_t i = 0; i < 3; ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(5, rng);
    tb.step(c);
  }
  for (uint32_t i = 0; i < std::min<uint32_t>(4, CrParams<TestType>::kRing); ++i) {
    typename CrTb<TestType>::Cycle c;
    c.enq = true;
    c.seg = tb.make_seg(6, rng);
    tb.step(c);
  }
  run_idle(tb, 5, 30);
  auto cut = [](uint32_t f) {
    auto c = gate_cmd<TestType>(f, true, 0);
    c.gate_void = true;
    return c;
  };
  tb.step(cut(5));
  tb.step(cut(6));
  run_idle(tb, 6, 40);
  REQUIRE(tb.voids().size() == 2);
  CHECK(tb.voids()[0] == std::make_pair(5u, 7u));
  CHECK(tb.voids()[1] == std::make_pair(6u, 0u));
  CHECK(tb.ref().sent()[5] == 3);
  CHECK(tb.ref().sent()[6] == 2);
  CHECK(tb.ref().queued(6) == 2);
  // A set without gate_void hands nothing back.
  tb.step(gate_cmd<TestType>(5, true, 0));
  run_idle(tb, 5, 4);
  CHECK(tb.voids().size() == 2);
  check_cr_clean(tb);
}

TEMPLATE_TEST_CASE("cr_gate: a revocation reaches the wire within the addresses past the gate",
                   "[cr][cr_gate]", CR_GATE_MODELS) {
  // Flow 0 saturated with plenty of wire permits; a revocation (W = 0) in
  // cycle t; count what still leaves, then grant 7.
  for (const double p_ready : {1.0, 0.5}) {
    INFO("sink ready " << p_ready);
    CrTb<TestType> tb;
    Rng rng(7);
    SaturatingProducer<TestType> prod(tb, {0u});
    tb.step(gate_cmd<TestType>(0, true, 60000));
    for (int i = 0; i < 200; ++i) {
      typename CrTb<TestType>::Cycle c;
      prod.next(c, rng);
      c.ready = rng.chance(p_ready);
      tb.step(c);
    }
    const uint64_t before = tb.ref().sent()[0];
    const uint64_t t = tb.cycle();
    uint64_t last = t;
    bool revoked = false;
    for (int i = 0; i < 200; ++i) {
      typename CrTb<TestType>::Cycle c;
      if (!revoked) {
        c = gate_cmd<TestType>(0, true, 0);
        revoked = true;
      } else {
        prod.next(c, rng);
      }
      c.ready = rng.chance(p_ready);
      if (tb.step(c)) last = tb.cycle() - 1;
    }
    const uint64_t after = tb.ref().sent()[0] - before;
    std::printf("cr_gate (%u flows, sink ready %.1f): revocation in cycle t: %llu addresses left after it, "
                "the last in t + %llu\n",
                CrParams<TestType>::kFlows, p_ready, static_cast<unsigned long long>(after),
                static_cast<unsigned long long>(last - t));
    CHECK(after <= CrRef::kPastGate);
    CHECK(tb.holds() >= 1);
    // A grant of 7 releases exactly 7 more.
    const uint64_t mid = tb.ref().sent()[0];
    tb.step(gate_cmd<TestType>(0, false, 7));
    for (int i = 0; i < 200; ++i) {
      typename CrTb<TestType>::Cycle c;
      prod.next(c, rng);
      tb.step(c);
    }
    CHECK(tb.ref().sent()[0] - mid == 7);
    check_cr_clean(tb);
  }
}

TEST_CASE("cr_gate: fed like the DD engine (a permit with every address), the gate never holds and costs nothing",
          "[cr][cr_gate][stress]") {
  using M = Vcr_gate_1024;
  for (uint32_t nflows : {1u, 16u, 1024u}) {
    INFO("flows " << nflows);
    CrTb<M> tb;
    Rng rng(20 + nflows);
    for (uint32_t f = 0; f < nflows; ++f) tb.step(gate_cmd<M>(f, true, 0));
    SaturatingProducer<M> prod(tb, first_flows(nflows));
    const uint64_t warm = 20000, measure = 100000;
    uint64_t outs = 0;
    for (uint64_t i = 0; i < warm + measure; ++i) {
      typename CrTb<M>::Cycle c;
      prod.next(c, rng);
      permit_with_address<M>(c);
      const bool o = tb.step(c);
      if (i >= warm) outs += o;
    }
    const double rate = static_cast<double>(outs) / measure;
    INFO("addresses per cycle " << rate);
    CHECK(rate >= 0.99);
    CHECK(tb.holds() == 0);
    check_cr_clean(tb);
  }
}

TEMPLATE_TEST_CASE("cr_gate: random grants, revocations, adds and back-pressure match the reference",
                   "[cr][cr_gate][stress][backpressure]", CR_GATE_MODELS) {
  TONIC_SEED(0x6A7E);
  Rng rng(tonic_seed_);
  CrTb<TestType> tb;
  const uint32_t flows = CrParams<TestType>::kFlows;
  const uint32_t hot_max = std::min<uint32_t>(flows, 64);
  for (uint32_t f = 0; f < hot_max; ++f) tb.step(gate_cmd<TestType>(f, true, 0));
  double p_enq = 0.5, p_ready = 0.8, p_grant = 0.3, p_revoke = 0.01;
  uint32_t hot = 4;
  bool ready = true;
  for (uint64_t i = 0; i < 100000; ++i) {
    if (i % 2000 == 0) {
      p_enq = 0.1 + 0.9 * rng.chance(0.7);
      p_ready = rng.chance(0.3) ? 0.2 : 0.95;
      p_grant = rng.chance(0.5) ? 0.1 : 0.6;
      p_revoke = rng.chance(0.5) ? 0.0 : 0.02;
      hot = static_cast<uint32_t>(rng.range(1, hot_max));
    }
    if (rng.chance(0.2)) ready = rng.chance(p_ready);
    typename CrTb<TestType>::Cycle c = tb.random_cycle(rng, ready, 0.002, hot, p_enq, hot);
    if (rng.chance(p_revoke)) {
      c.gate = true;
      c.gate_set = true;
      c.gate_flow = static_cast<uint32_t>(rng.below(hot));
      c.gate_cnt = static_cast<uint32_t>(rng.below(3));
    } else if (rng.chance(p_grant)) {
      c.gate = true;
      c.gate_flow = static_cast<uint32_t>(rng.below(hot));
      c.gate_cnt = static_cast<uint32_t>(rng.range(1, 8));
    }
    // The contract of WireGate = 2: no gate write to a flow in its init cycle
    // (a flow is initialised only while absent; only present flows get grants).
    if (CrParams<TestType>::kGateInit >= 0 && c.add && c.gate && c.gate_flow == c.add_flow) c.gate = false;
    tb.step(c);
    if (tb.ref().errors() != 0) break;
  }
  const uint64_t holds = tb.holds();
  // Every flow gets permits for all it has queued: the held ones come back.
  for (uint32_t f = 0; f < hot_max; ++f) tb.step(gate_cmd<TestType>(f, false, 1000));
  tb.drain();
  check_cr_clean(tb);
  CHECK(tb.drops() == 0);
  CHECK(tb.ref().total_queued() == 0);  // nothing lost, every held flow came back
  CHECK(holds > 100);
  CHECK(tb.ref().outs() > 20000);
}

TEST_CASE("cr_gate: with WireGate 2 a ring init sets the wire permits, beside a gate write in the same cycle",
          "[cr][cr_gate][smoke]") {
  using M = Vcr_gate_init_small;  // GateInit 3
  CrTb<M> tb;
  Rng rng(5);
  tb.step(gate_cmd<M>(2, true, 0));  // flow 2 revoked: W = 0
  tb.step(gate_cmd<M>(6, true, 9));  // flow 6: W = 9
  // Init flow 2 and grant flow 6 in one cycle: both writes land.
  typename CrTb<M>::Cycle c = gate_cmd<M>(6, false, 1);
  c.add = true;
  c.add_flow = 2;
  tb.step(c);
  CHECK(tb.ref().wire_permits(2) == 3);
  CHECK(tb.ref().wire_permits(6) == 10);
  // Flow 2 sends exactly GateInit, flow 6 exactly its 10.
  fill(tb, 2, 4, rng);
  CHECK(run_idle(tb, 2, 40) == 3);
  for (uint32_t k = 0; k < 3; ++k) {
    fill(tb, 6, 4, rng);
    run_idle(tb, 6, 40);
  }
  CHECK(tb.ref().sent()[6] == 10);
  CHECK(tb.ref().errors() == 0);
  // A second init of flow 2 (idle: its last address waits for a permit, so
  // grant it first) starts it again at 3.
  tb.step(gate_cmd<M>(2, false, 1));
  CHECK(run_idle(tb, 2, 40) == 1);
  typename CrTb<M>::Cycle a;
  a.add = true;
  a.add_flow = 2;
  tb.step(a);
  fill(tb, 2, 4, rng);
  CHECK(run_idle(tb, 2, 40) == 3);
  CHECK(tb.ref().errors() == 0);
}
