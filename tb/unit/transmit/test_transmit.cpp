// SPDX-License-Identifier: Apache-2.0
// The transmit event in the whole sender: tb/protocols/tx_probe counts in its
// transmit state every segment that leaves (segments, retransmissions,
// bytes, the last stamp and index); its incoming and periodic modules copy
// the state they read into the user state, which the traces show. The test
// keeps its own log of the wire and checks every call: the state a call in
// cycle c reads covers exactly the segments that left in cycle c - 3 or
// earlier (docs/protocol-api.md, "Transmit event").
#include <catch2/catch.hpp>

#include <cstdio>
#include <vector>

#include "Vtonic_tx_probe_16x128.h"
#include "Vtonic_tx_probe_structural_16x128.h"
#include "tonic/sys_tb.hpp"

using namespace tonic;

namespace {

constexpr uint64_t kLag = 3;  // a departure in cycle d is visible to calls in cycle d + 3

struct Dep {
  uint64_t cycle;
  bool rtx;
  uint32_t len, ts, idx;
};

struct Seen {
  uint32_t segs, rtx, bytes, last_ts, last_idx;
};

Seen seen_of(const SysTrace& t) {
  return {t.user[3] >> 16, t.user[3] & 0xFFFFu, t.user[2], t.user[1], t.user[0]};
}

// What the transmit state holds after every departure of `deps` up to cycle `upto`.
Seen expected(const std::vector<Dep>& deps, uint64_t upto) {
  Seen e{0, 0, 0, 0, 0};
  for (const Dep& d : deps) {
    if (d.cycle > upto) break;
    e.segs = (e.segs + 1) & 0xFFFFu;
    e.rtx = (e.rtx + (d.rtx ? 1 : 0)) & 0xFFFFu;
    e.bytes += d.len;
    e.last_ts = d.ts;
    e.last_idx = d.idx;
  }
  return e;
}

bool same(const Seen& a, const Seen& b) {
  return a.segs == b.segs && a.rtx == b.rtx && a.bytes == b.bytes && a.last_ts == b.last_ts &&
         a.last_idx == b.last_idx;
}

template <class Model>
struct TxRig {
  static constexpr uint32_t kFlows = 16;
  SysTb<Model> tb{kFlows};
  std::vector<std::vector<Dep>> deps = std::vector<std::vector<Dep>>(kFlows);
  std::vector<uint32_t> rcv = std::vector<uint32_t>(kFlows, 0);  // receiver: next in-order index
  std::vector<std::vector<bool>> got = std::vector<std::vector<bool>>(kFlows);  // received, by index
  std::vector<bool> mute = std::vector<bool>(kFlows, false);      // the receiver stopped answering
  struct Due {
    uint64_t at;
    uint32_t flow, idx;
    bool nack;
  };
  std::vector<Due> due;
  uint64_t delay = 40;
  uint32_t nack_every = 0;  // NACK (instead of receiving) every n-th new segment of flow 1
  uint64_t checked_in = 0, checked_per = 0, mismatches = 0, merged = 0;

  TxRig() {
    tb.on_seg = [this](const SysSeg& s) {
      deps[s.flow].push_back({s.cycle, s.rtx, s.len, s.ts, s.idx});
      const bool nack = s.flow == 1 && nack_every != 0 && !s.rtx && s.idx % nack_every == 5;
      due.push_back({s.cycle + delay, s.flow, s.idx, nack});
    };
    tb.on_cycle = [this](Model& d) {
      const uint64_t c = tb.cycle();
      check(sys_trace(d.trace_in_o), c, checked_in);
      const SysTrace p = sys_trace(d.trace_per_o);
      if (p.valid && p.merged) ++merged;
      check(p, c, checked_per);
    };
  }
  void check(const SysTrace& t, uint64_t c, uint64_t& n) {
    if (!t.valid) return;
    ++n;
    const Seen got = seen_of(t);
    const Seen want = expected(deps[t.flow], c - kLag);
    if (!same(got, want)) {
      if (mismatches++ < 5) {
        std::printf("cycle %llu flow %u: saw segs %u rtx %u bytes %u ts %u idx %u, want %u %u %u %u %u\n",
                    static_cast<unsigned long long>(c), t.flow, got.segs, got.rtx, got.bytes, got.last_ts,
                    got.last_idx, want.segs, want.rtx, want.bytes, want.last_ts, want.last_idx);
      }
    }
  }
  void start(uint32_t f, uint32_t seg, uint32_t segments) {
    tb.add(f, 0, seg);
    tb.post(f, segments, seg);
    rcv[f] = 0;
    got[f].clear();
    deps[f].clear();
  }
  void step() {
    const uint64_t c = tb.cycle();
    for (size_t i = 0; i < due.size();) {
      if (due[i].at > c) {
        ++i;
        continue;
      }
      const Due a = due[i];
      due.erase(due.begin() + static_cast<long>(i));
      if (mute[a.flow]) continue;
      SysRxCmd r;
      r.flow = a.flow;
      if (a.nack) {
        r.type = SysRx::kNack;
        r.sack_idx = a.idx;
      } else {
        r.type = SysRx::kAck;
        auto& g = got[a.flow];
        if (g.size() <= a.idx) g.resize(a.idx + 1, false);
        g[a.idx] = true;
        while (rcv[a.flow] < g.size() && g[rcv[a.flow]]) ++rcv[a.flow];
      }
      r.cum_ack = rcv[a.flow];
      tb.send_rx(r);
    }
    tb.step();
  }
  void run(uint64_t n) {
    for (uint64_t i = 0; i < n && tb.errors() == 0; ++i) step();
  }
};

template <class Model>
void every_segment_counted(const char* name) {
  TxRig<Model> rig;
  rig.nack_every = 16;
  // One flow alone first: one segment per cycle, back to back, of one flow.
  rig.start(0, 1000, 3000);
  rig.run(1500);
  const uint64_t alone = rig.deps[0].size();
  // Then three more with other sizes, flow 1 with a NACK every 16 segments.
  rig.start(1, 64, 4000);
  rig.start(2, 1500, 2500);
  rig.start(3, 9000, 2000);
  rig.run(6000);
  REQUIRE(rig.tb.errors() == 0);
  uint64_t rtx = 0;
  for (const Dep& d : rig.deps[1]) rtx += d.rtx ? 1 : 0;
  std::printf("%s: %llu segments of flow 0 alone in 1500 cycles; %llu incoming calls and %llu periodic calls "
              "checked, %llu retransmissions of flow 1, %llu mismatches\n",
              name, static_cast<unsigned long long>(alone), static_cast<unsigned long long>(rig.checked_in),
              static_cast<unsigned long long>(rig.checked_per), static_cast<unsigned long long>(rtx),
              static_cast<unsigned long long>(rig.mismatches));
  CHECK(alone >= 1400);
  CHECK(rtx >= 50);
  CHECK(rig.checked_in >= 5000);
  CHECK(rig.mismatches == 0);
}

template <class Model>
void periodic_and_readd(const char* name) {
  TxRig<Model> rig;
  rig.start(2, 500, 400);
  rig.start(5, 700, 100000);
  rig.run(600);
  // The receiver of flow 5 goes silent: its timer expires (RTO 2000 cycles),
  // periodic's timeout call reads the transmit state and marks the window,
  // and the retransmissions count as such.
  rig.mute[5] = true;
  rig.run(5000);
  REQUIRE(rig.tb.errors() == 0);
  uint64_t rtx5 = 0;
  for (const Dep& d : rig.deps[5]) rtx5 += d.rtx ? 1 : 0;
  // Flow 2 is done: remove it and add it again; its transmit state starts from 0.
  REQUIRE(rig.rcv[2] == 400);
  rig.tb.remove(2);
  rig.run(50);
  rig.start(2, 256, 300);
  rig.run(2000);
  REQUIRE(rig.tb.errors() == 0);
  std::printf("%s: %llu periodic calls checked, %llu retransmissions of the silent flow, flow 2 re-added: "
              "%zu segments, %llu incoming calls checked, %llu mismatches\n",
              name, static_cast<unsigned long long>(rig.checked_per), static_cast<unsigned long long>(rtx5),
              rig.deps[2].size(), static_cast<unsigned long long>(rig.checked_in),
              static_cast<unsigned long long>(rig.mismatches));
  CHECK(rig.checked_per >= 1);
  CHECK(rtx5 >= 1);
  CHECK(rig.rcv[2] == 300);
  CHECK(rig.mismatches == 0);
}

}  // namespace

TEST_CASE("transmit: every segment that left is in the state a call reads 3 cycles later (behavioural memories)",
          "[transmit]") {
  every_segment_counted<Vtonic_tx_probe_16x128>("behavioural");
}

TEST_CASE("transmit: every segment that left is in the state a call reads 3 cycles later (structural memories)",
          "[transmit]") {
  every_segment_counted<Vtonic_tx_probe_structural_16x128>("structural");
}

TEST_CASE("transmit: a timeout call reads the state, a re-added flow starts from TxInit", "[transmit]") {
  periodic_and_readd<Vtonic_tx_probe_16x128>("behavioural");
  periodic_and_readd<Vtonic_tx_probe_structural_16x128>("structural");
}
