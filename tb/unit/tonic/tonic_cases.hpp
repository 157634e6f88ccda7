// SPDX-License-Identifier: Apache-2.0
// The system tests of tonic_top with window credit (label tonic):
// delivery, throughput, fairness, retransmission latency, loss recovery,
// bad input, the checkers' mutation self-tests and the behavioural against
// the structural per-flow memories. Cycle-based and deterministic (fixed
// seeds, TONIC_SEED to change them). Not a header of declarations: each
// case is a function template over the model (a tonic_top build of the
// detailed run, tonic_models.hpp), and a protocol's test file
// (protocols/<name>/tests/tonic.cpp, part of test_tonic) registers the cases
// that apply to it with their Catch2 names, e.g.
//   TEMPLATE_TEST_CASE("tonic: a tail loss is ...", "[tonic]", V<build>) {
//     toptest::tail_loss_rto<TestType>();
//   }
// (Catch2 names a template case "<case> - <type as spelled>").
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tonic_models.hpp"

namespace tonic::toptest {

inline constexpr uint32_t kSegSize = 1000;
inline constexpr uint32_t kNearWrap = 0xFFFFFF00u;  // sequence numbers cross 2^32

inline RxConfig rx_for(bool sack) {
  RxConfig r;
  r.sack = sack;
  return r;
}

/// Whether the model's protocol acks with SACK blocks (its receiver, from
/// the registry): the testbench's receiver then sends them too.
template <class Model>
bool is_sack() {
  const registry::Protocol* p = registry::find(TonicParams<Model>::kProto);
  return p && p->receiver == registry::Receiver::kTcpSack;
}

template <class Model>
void require_clean(TonicTb<Model>& tb) {
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  auto& d = tb.dut();
  CHECK(stat(d, Stat::kRxUnknownFlow) == 0);
  CHECK(stat(d, Stat::kRxBadAck) == 0);
  CHECK(stat(d, Stat::kCtrlBad) == 0);
}

/// Records every port of tonic_top that the testbench does not drive
/// itself, plus the ready it drew, as 32-bit words (wide ports word by
/// word), with the port name of each word for the failure message.
struct PortRecord {
  std::vector<uint32_t> words;
  std::vector<const char*> names;
  void operator()(const char* name, uint64_t v) {
    words.push_back(static_cast<uint32_t>(v));
    words.push_back(static_cast<uint32_t>(v >> 32));
    names.push_back(name);
    names.push_back(name);
  }
  template <std::size_t N>
  void operator()(const char* name, const VlWide<N>& v) {
    for (std::size_t i = 0; i < N; ++i) {
      words.push_back(v.m_storage[i]);
      names.push_back(name);
    }
  }
};

template <class Model>
void record_ports(Model& d, PortRecord& r) {
  r.words.clear();
  r.names.clear();
  r("ctrl_ready_o", d.ctrl_ready_o);
  r("seg_valid_o", d.seg_valid_o);
  r("seg_ready_i", d.seg_ready_i);
  r("seg_flow_o", d.seg_flow_o);
  r("seg_idx_o", d.seg_idx_o);
  r("seg_rtx_o", d.seg_rtx_o);
  r("seg_len_o", d.seg_len_o);
  r("note_valid_o", d.note_valid_o);
  r("note_flow_o", d.note_flow_o);
  r("note_acked_o", d.note_acked_o);
  r("stats_o", d.stats_o);
  r("active_flows_o", d.active_flows_o);
  r("ready_flows_o", d.ready_flows_o);
  r("cr_enq_drop_o", d.cr_enq_drop_o);
  r("probe_wnd_o", d.probe_wnd_o);
  r("probe_start_o", d.probe_start_o);
  r("probe_next_o", d.probe_next_o);
  r("trace_in_o", d.trace_in_o);
  r("trace_per_o", d.trace_per_o);
  r("trace_ns_o", d.trace_ns_o);
}


template <class TestType>
void one_flow_in_order() {
  LinkConfig lc;
  lc.delay = 20;
  TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), 1);
  tb.add_flow(5, kNearWrap, kSegSize, 500);
  tb.post(5, kNearWrap + 501, 300);  // one more, short
  REQUIRE(tb.run_until_acked(20000));
  require_clean(tb);
  CHECK(tb.flow(5).sent == 501);
  CHECK(tb.flow(5).rtx == 0);
  CHECK(tb.notes() >= 1);  // burst complete
}

template <class TestType>
void saturated_equal_shares() {
  for (uint32_t nflows : {1u, 16u, 1024u}) {
    INFO("flows " << nflows);
    LinkConfig lc;
    lc.delay = 20;
    TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), 2);
    for (uint32_t f = 0; f < nflows; ++f) tb.add_flow(f, kNearWrap + f * 7, kSegSize, 1u << 24);
    const uint64_t warm = 5000 + 2 * nflows, measure = 100000;
    tb.run(warm);
    std::vector<uint64_t> before(nflows);
    for (uint32_t f = 0; f < nflows; ++f) before[f] = tb.flow(f).sent;
    const uint64_t o0 = tb.outs();
    tb.run(measure);
    require_clean(tb);
    const double rate = static_cast<double>(tb.outs() - o0) / measure;
    INFO("segments per cycle " << rate);
    CHECK(rate >= 0.99);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t f = 0; f < nflows; ++f) {
      const uint64_t n = tb.flow(f).sent - before[f];
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
    INFO("per-flow min " << lo << " max " << hi);
    std::printf("[tonic] %s: %u saturated flows: %.4f segments/cycle, per-flow segments %llu..%llu\n",
                TonicParams<TestType>::kProto, nflows, rate, static_cast<unsigned long long>(lo),
                static_cast<unsigned long long>(hi));
    CHECK(static_cast<double>(hi - lo) <= 0.01 * static_cast<double>(hi) + 1.0);
  }
}

template <class TestType>
void three_dup_acks_fast_retransmit() {
  LinkConfig lc;
  lc.delay = 30;
  TonicTb<TestType> tb(lc, rx_for(false), 3);
  tb.link().drops().drop_at(9, kNearWrap + 40);
  tb.add_flow(9, kNearWrap, kSegSize, 400);
  uint64_t rtx_cycle = 0, third_dup_cycle = 0;
  uint32_t dups = 0;
  tb.on_seg = [&](const SegOut& s) {
    if (s.rtx && rtx_cycle == 0) rtx_cycle = s.cycle;
  };
  for (uint64_t i = 0; i < 30000 && !tb.all_acked(); ++i) {
    auto& d = tb.dut();
    tb.step();
    // Count dup acks for the lost segment as the DUT receives them.
    if (d.rx_valid_i && d.rx_cum_ack_i == kNearWrap + 40 && ++dups == 3) third_dup_cycle = tb.cycle() - 1;
  }
  require_clean(tb);
  CHECK(tb.all_acked());
  CHECK(tb.flow(9).rtx == 1);
  CHECK(stat(tb.dut(), Stat::kTimeouts) == 0);
  REQUIRE(third_dup_cycle > 0);
  REQUIRE(rtx_cycle > third_dup_cycle);
  const uint64_t latency = rtx_cycle - third_dup_cycle;
  INFO("3rd dup ack in cycle " << third_dup_cycle << ", retransmission out in " << rtx_cycle);
  std::printf("[tonic] loss-to-retransmission latency: %llu cycles\n",
              static_cast<unsigned long long>(latency));
  CHECK(latency <= 12);
}

template <class TestType>
void tail_loss_rto() {
  LinkConfig lc;
  lc.delay = 30;
  TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), 4);
  tb.link().drops().drop_at(2, 99);  // the last segment
  tb.add_flow(2, 0, kSegSize, 100);
  REQUIRE(tb.run_until_acked(200000));
  require_clean(tb);
  CHECK(stat(tb.dut(), Stat::kTimeouts) >= 1);
  CHECK(tb.flow(2).rtx >= 1);
}

// The retransmit count stage 1 reads for the segment an ack names
// (info.rtx_cnt): the last segment lost on its first two transmissions is
// retransmitted twice, by two timeouts; the ack that finally covers it
// names it (cum_ack - 1) with count 2. The reference computes the count on
// its own and compares it with the trace for every event.
template <class TestType>
void rtx_count_named() {
  LinkConfig lc;
  lc.delay = 30;
  TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), 6);
  tb.link().drops().drop_at(2, 99, 0);
  tb.link().drops().drop_at(2, 99, 1);
  tb.add_flow(2, 0, kSegSize, 100);
  REQUIRE(tb.run_until_acked(400000));
  require_clean(tb);
  CHECK(stat(tb.dut(), Stat::kTimeouts) >= 2);
  CHECK(tb.flow(2).rtx == 2);
  CHECK(tb.rtx_named() >= 1);
  CHECK(tb.rtx_named_max() == 2);
}

template <class TestType>
void random_drops_delivered() {
  TONIC_SEED(77);
  LinkConfig lc;
  lc.delay = 50;
  TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), tonic_seed_);
  tb.link().drops().bernoulli(0.01, tonic_seed_ + 1);
  tb.set_ready_prob(0.9);
  for (uint32_t f = 0; f < 64; ++f) tb.add_flow(f * 16, kNearWrap - 100 + f * 13, kSegSize, 300 + f);
  REQUIRE(tb.run_until_acked(2000000));
  require_clean(tb);
  std::printf("[tonic] %s: random drops: %llu segments, %u retransmits, %u timeouts in %llu cycles; "
              "window state checked after %llu events\n",
              TonicParams<TestType>::kProto, static_cast<unsigned long long>(tb.outs()),
              stat(tb.dut(), Stat::kRetransmits), stat(tb.dut(), Stat::kTimeouts),
              static_cast<unsigned long long>(tb.cycle()),
              static_cast<unsigned long long>(tb.events_checked()));
  // Every ack delivered went through the reference (cwnd, ssthresh, ...),
  // and every next-segment decision was predicted by it.
  CHECK(tb.events_checked() >= tb.outs() * 9 / 10);
  CHECK(tb.decisions_checked() >= tb.outs());
}

template <class TestType>
void bad_input_counted() {
  LinkConfig lc;
  lc.delay = 20;
  TonicTb<TestType> tb(lc, rx_for(false), 5);
  tb.add_flow(1, 100, kSegSize, 50);
  tb.run(200);
  // An ack for an unknown flow, an ack beyond anything sent, an unknown type.
  tb.inject({7, RxType::kAck, 5, false, 0});
  tb.inject({1, RxType::kAck, 100000, false, 0});
  tb.inject({1, static_cast<RxType>(7), 120, false, 0});
  // ADD of a present flow, POST to an absent flow, POST backwards.
  tb.add_flow(1, 0, kSegSize, 0);
  tb.post(3, 10, kSegSize);
  tb.post(1, 120, kSegSize);
  REQUIRE(tb.run_until_acked(20000));
  INFO(tb.first_error());
  REQUIRE(tb.errors() == 0);
  auto& d = tb.dut();
  CHECK(stat(d, Stat::kRxUnknownFlow) == 1);
  CHECK(stat(d, Stat::kRxBadAck) == 1);
  CHECK(stat(d, Stat::kRxBadType) == 1);
  CHECK(stat(d, Stat::kCtrlBad) == 3);
  CHECK(tb.flow(1).sent == 50);
}

template <class TestType>
void all_flows_saturated() {
  const uint32_t nflows = TonicParams<TestType>::kFlows;
  LinkConfig lc;
  lc.delay = 20;
  TonicTb<TestType> tb(lc, rx_for(false), 6);
  for (uint32_t f = 0; f < nflows; ++f) tb.add_flow(f, f * 5, kSegSize, 1u << 24);
  tb.run(3 * nflows + 5000);
  std::vector<uint64_t> before(nflows);
  for (uint32_t f = 0; f < nflows; ++f) before[f] = tb.flow(f).sent;
  const uint64_t o0 = tb.outs(), measure = 100000;
  tb.run(measure);
  require_clean(tb);
  const double rate = static_cast<double>(tb.outs() - o0) / measure;
  INFO("segments per cycle " << rate);
  CHECK(rate >= 0.99);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint32_t f = 0; f < nflows; ++f) {
    lo = std::min(lo, tb.flow(f).sent - before[f]);
    hi = std::max(hi, tb.flow(f).sent - before[f]);
  }
  INFO("per-flow min " << lo << " max " << hi);
  std::printf("[tonic] %s %ux%u: all %u flows saturated: %.4f segments/cycle, per-flow segments %llu..%llu\n",
              TonicParams<TestType>::kProto, nflows, TonicParams<TestType>::kWindow, nflows, rate,
              static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi));
  CHECK(hi - lo <= 1 + hi / 100);
}

template <class TestType>
void slow_start_doubles() {
  LinkConfig lc;
  lc.delay = 200;  // RTT about 400 cycles, far above the window's send time
  TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), 7);
  tb.add_flow(0, kNearWrap, kSegSize, 1u << 20);
  // cwnd sampled just before each round trip's acks return: first ack at
  // about 2 * delay + pipeline; sample at the middle of each round trip.
  std::vector<uint32_t> cwnd;
  for (int rtt = 0; rtt < 4; ++rtt) {
    tb.run(rtt == 0 ? 200 : 410);
    tb.h().eval();
    cwnd.push_back(tb.dut().probe_wnd_o);
  }
  require_clean(tb);
  INFO("cwnd per round trip: " << cwnd[0] << " " << cwnd[1] << " " << cwnd[2] << " " << cwnd[3]);
  CHECK(cwnd[0] == 10);   // InitWnd, no ack back yet
  CHECK(cwnd[1] == 20);
  CHECK(cwnd[2] == 40);
  CHECK(cwnd[3] == 80);
}

template <class TestType>
void several_losses_one_window() {
  LinkConfig lc;
  lc.delay = 100;
  TonicTb<TestType> tb(lc, rx_for(is_sack<TestType>()), 8);
  const uint32_t s0 = 1000;
  for (uint32_t k : {60u, 64u, 70u, 75u}) tb.link().drops().drop_at(3, s0 + k);
  tb.add_flow(3, s0, kSegSize, 400);
  uint64_t first_rtx = 0, last_rtx = 0;
  tb.on_seg = [&](const SegOut& s) {
    if (!s.rtx) return;
    if (first_rtx == 0) first_rtx = s.cycle;
    last_rtx = s.cycle;
  };
  REQUIRE(tb.run_until_acked(100000));
  require_clean(tb);
  CHECK(stat(tb.dut(), Stat::kTimeouts) == 0);
  CHECK(tb.flow(3).rtx == 4);
  const uint64_t rtt = 2 * lc.delay;
  std::printf("[tonic] %s: 4 losses in one window recovered, retransmissions over %llu cycles (RTT %llu)\n",
              TonicParams<TestType>::kProto, static_cast<unsigned long long>(last_rtx - first_rtx),
              static_cast<unsigned long long>(rtt));
  if (is_sack<TestType>()) {
    CHECK(last_rtx - first_rtx <= rtt + rtt / 2);  // about one round trip
  } else {
    CHECK(last_rtx - first_rtx <= 4 * rtt + rtt);  // cumulative acks alone: one hole per round trip
  }
}

template <class M>
void mutation_segment_address() {
  LinkConfig lc;
  lc.delay = 20;
  for (int mutation = 0; mutation < 3; ++mutation) {
    INFO("mutation " << mutation);
    TonicTb<M> tb(lc, rx_for(false), 9);
    tb.set_mutation(mutation, 50);
    tb.add_flow(4, 0, kSegSize, 200);
    tb.run_until_acked(20000);
    CHECK(tb.errors() > 0);
  }
}

template <class M>
void mutation_cwnd() {
  LinkConfig lc;
  lc.delay = 20;
  // One model alive at a time (two live Verilated models of the same class
  // are not supported by this harness).
  for (const bool mutate : {false, true}) {
    INFO("mutated " << mutate);
    TonicTb<M> tb(lc, rx_for(false), 10);
    if (mutate) tb.set_trace_mutation(30);
    tb.add_flow(4, 0, kSegSize, 200);
    tb.run_until_acked(20000);
    INFO(tb.first_error());
    CHECK(tb.events_checked() >= (mutate ? 30u : 100u));
    CHECK((tb.errors() > 0) == mutate);
  }
}

template <class M>
void mutation_next_segment() {
  LinkConfig lc;
  lc.delay = 20;
  for (const bool mutate : {false, true}) {
    INFO("mutated " << mutate);
    TonicTb<M> tb(lc, rx_for(true), 11);
    for (uint32_t k : {20u, 21u, 40u}) tb.link().drops().drop_at(4, k);
    if (mutate) tb.set_ns_mutation(150);
    tb.add_flow(4, 0, kSegSize, 200);
    tb.run_until_acked(20000);
    INFO(tb.first_error());
    CHECK(tb.decisions_checked() >= (mutate ? 150u : 200u));
    CHECK((tb.errors() > 0) == mutate);
    if (mutate) CHECK(tb.first_error().find("next-seg chose") != std::string::npos);
  }
}

// The behavioural per-flow memories (SimRam = 1, every other model of
// test_tonic) against the structural ones (what synthesis sees): one scenario on
// both, in lock step, with every output port (segment stream,
// notifications, counters, traces, a probe sweeping the flows) equal in
// every cycle, payloads included whether valid or not. Scenarios: the
// random-drop test's (64 flows, 1 % loss, back-pressure, until all is
// acked), and all 1024 flows saturated with loss (writer collisions in the
// window group, every memory busy every cycle).
template <class Fast, class Structural>
void fast_matches_structural() {
  TONIC_SEED(79);
  uint32_t flows = 64, stride = 16;
  uint64_t max_cycles = 2000000;
  bool until_acked = true;
  LinkConfig lc;
  lc.delay = 50;
  SECTION("random drops on 64 flows, until everything is acked") {}
  SECTION("1024 saturated flows with drops, 200 000 cycles") {
    flows = 1024;
    stride = 1;
    max_cycles = 200000;
    until_acked = false;
    lc.delay = 20;
  }
  TonicTb<Fast> fast(lc, rx_for(false), tonic_seed_);
  TonicTb<Structural> structural(lc, rx_for(false), tonic_seed_);
  PortRecord pf, ps;
  fast.on_cycle = [&](Fast& d) { record_ports(d, pf); };
  structural.on_cycle = [&](Structural& d) { record_ports(d, ps); };
  auto setup = [&](auto& tb) {
    tb.link().drops().bernoulli(0.01, tonic_seed_ + 1);
    tb.set_ready_prob(0.9);
    for (uint32_t f = 0; f < flows; ++f) {
      tb.add_flow(f * stride, kNearWrap - 100 + f * 13, kSegSize, until_acked ? 300 + f : 1u << 24);
    }
  };
  setup(fast);
  setup(structural);
  uint64_t compared = 0;
  for (uint64_t i = 0; i < max_cycles && !(until_acked && fast.all_acked() && structural.all_acked()); ++i) {
    const uint32_t probe = (i / 4 % flows) * stride;  // each flow in turn, 4 cycles each
    fast.dut().probe_flow_i = probe;
    structural.dut().probe_flow_i = probe;
    fast.step();
    structural.step();
    if (pf.words != ps.words) {
      std::size_t k = 0;
      while (k < pf.words.size() && pf.words[k] == ps.words[k]) ++k;
      FAIL("cycle " << fast.cycle() - 1 << ": " << pf.names[k] << " differs (word " << k << "): fast "
                    << pf.words[k] << ", structural " << ps.words[k]);
    }
    ++compared;
  }
  require_clean(fast);
  require_clean(structural);
  if (until_acked) CHECK(fast.all_acked());
  CHECK(fast.outs() == structural.outs());
  std::printf("[tonic] fast vs structural memories, %u flows: %llu cycles identical (%llu segments, "
              "%u retransmits, %u timeouts)\n",
              flows, static_cast<unsigned long long>(compared), static_cast<unsigned long long>(fast.outs()),
              stat(fast.dut(), Stat::kRetransmits), stat(fast.dut(), Stat::kTimeouts));
  // The scenario reaches the loss paths (incoming and periodic writers).
  CHECK(stat(fast.dut(), Stat::kRetransmits) > 0);
  if (until_acked) CHECK(stat(fast.dut(), Stat::kTimeouts) > 0);
}

}  // namespace tonic::toptest
