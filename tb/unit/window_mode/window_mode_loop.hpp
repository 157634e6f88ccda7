// SPDX-License-Identifier: Apache-2.0
// The window-mode closed loop (docs/design/window-mode.md): window_mode::Sender ->
// data channel (delay, jitter = reordering, loss, duplication, zombie
// packets of an earlier message) -> window_mode::WindowRx (or the baseline
// window_mode::CounterRx) -> control channel (delay, jitter, loss) -> Sender,
// stepped one cycle at a time until the message completes.
//
// Per cycle t, in this order: the data channel hands the receiver at most
// one packet (the one with the earliest target cycle <= t; ties broken by
// a random key), the receiver's timers due at t fire, its RESENDs enter
// the control channel, RESENDs due at t reach the sender, the sender sends
// at most one packet. A packet sent in cycle t has target cycle
// t + delay + U[0, jitter]; since the channel releases in target order, a
// packet is overtaken by at most `jitter` packets sent after it (at one
// packet per cycle): "reordering distance" = jitter.
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "tonic/window_mode.hpp"
#include "tonic/rng.hpp"

namespace tonic::window_mode {

struct LoopConfig {
  // Message, window and sender.
  uint32_t count = 1024;     // packets in the message
  uint32_t first = 0;        // its first index
  uint32_t w = 128;          // window bits
  uint32_t pace = 1;         // cycles per packet at the sender
  uint64_t timeout = 48;     // ResendTimeout (WindowRx) / restart timeout (CounterRx)
  uint32_t go_back_after = 3;
  Recovery recovery = Recovery::kPartial;  // kWholeMessage runs CounterRx
  BeyondAction beyond = BeyondAction::kBase;
  bool beyond_sack = true;   // WindowRx names the dropped index (the RTL; needed by kDropped / kBoth)
  uint64_t holdoff = UINT64_MAX;  // UINT64_MAX: the round trip (2 x delay)
  // Data channel.
  uint64_t delay = 16;       // cycles, one way
  uint64_t jitter = 0;       // extra delay U[0, jitter]: the reordering distance
  double loss = 0;           // per packet sent
  double dup = 0;            // per packet sent: a second copy with its own jitter
  uint32_t zombies = 0;      // packets of the previous MSGID injected during the run
  // Control channel.
  uint64_t ctl_delay = 16;
  uint64_t ctl_jitter = 0;
  double ctl_loss = 0;
  // Run.
  uint64_t seed = 1;
  uint64_t max_cycles = 20'000'000;
  bool trace = false;        // record every arrival and RESEND (for cross-checks)
};

struct ArrivalRec {
  uint64_t cycle;
  MsgTag tag;
  uint32_t idx;
  Verdict verdict;
  uint32_t wbase_after;
};

struct LoopResult {
  bool complete = false;
  uint64_t done_cycle = 0;  // cycle the message completed at the receiver
  uint64_t end_cycle = 0;   // last cycle simulated
  Counters rx;
  TxCounters tx;
  uint64_t lost = 0, duplicated = 0, ctl_lost = 0, zombies_sent = 0;
  std::vector<uint32_t> deliveries;  // per index offset: kDeliver verdicts
  std::vector<ArrivalRec> arrivals;  // with cfg.trace
  std::vector<Ctl> ctls;             // with cfg.trace: every RESEND generated
};

inline LoopResult run_loop(const LoopConfig& cfg) {
  LoopResult r;
  Rng rng(cfg.seed);
  const MsgTag tag{3, 7, 0x5a5a5};
  const MsgTag old_tag{3, 7, 0x5a5a4};  // the context's previous message
  const bool whole = cfg.recovery == Recovery::kWholeMessage;

  TxConfig tc;
  tc.tag = tag;
  tc.first = cfg.first;
  tc.count = cfg.count;
  tc.pace = cfg.pace;
  tc.recovery = cfg.recovery;
  tc.beyond = cfg.beyond;
  tc.holdoff = cfg.holdoff == UINT64_MAX ? 2 * cfg.delay : cfg.holdoff;
  Sender tx(tc);

  WindowConfig rc;
  rc.w = cfg.w;
  rc.resend_timeout = cfg.timeout;
  rc.go_back_after = cfg.go_back_after;
  rc.beyond_sack = cfg.beyond_sack;
  WindowRx wrx(rc);
  CounterRx crx(cfg.timeout);
  if (whole)
    crx.open(0, tag, cfg.first, cfg.count);
  else
    wrx.open(0, tag, cfg.first, cfg.count);
  r.deliveries.assign(cfg.count, 0);

  // Data channel: (target cycle, random tie key, packet), earliest first.
  using Item = std::tuple<uint64_t, uint64_t, TxPkt>;
  auto later = [](const Item& a, const Item& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
  };
  std::priority_queue<Item, std::vector<Item>, decltype(later)> data(later);
  using CItem = std::tuple<uint64_t, uint64_t, Ctl>;
  auto clater = [](const CItem& a, const CItem& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
  };
  std::priority_queue<CItem, std::vector<CItem>, decltype(clater)> ctl(clater);
  uint64_t ctl_seq = 0;

  // Zombie injection cycles: spread over the loss-free duration.
  std::vector<uint64_t> zombie_at;
  for (uint32_t z = 0; z < cfg.zombies; ++z)
    zombie_at.push_back(rng.below(uint64_t{cfg.count} * cfg.pace + cfg.delay));
  std::sort(zombie_at.begin(), zombie_at.end());
  std::size_t next_zombie = 0;

  auto jit = [&](uint64_t j) { return j == 0 ? 0 : rng.below(j + 1); };
  auto push_data = [&](uint64_t t, const TxPkt& p) {
    data.emplace(t + cfg.delay + jit(cfg.jitter), rng.bits64(), p);
  };

  uint64_t t = 0;
  for (; t < cfg.max_cycles; ++t) {
    // 1. At most one data packet reaches the receiver.
    if (!data.empty() && std::get<0>(data.top()) <= t) {
      const TxPkt p = std::get<2>(data.top());
      data.pop();
      if (whole) {
        const Verdict v = crx.arrive(t, p.tag, p.idx, p.attempt);
        if (cfg.trace) r.arrivals.push_back({t, p.tag, p.idx, v, 0});
      } else {
        const Verdict v = wrx.arrive(t, p.tag, p.idx);
        if (v == Verdict::kDeliver) ++r.deliveries[seq_dist(cfg.first, p.idx)];
        if (cfg.trace) r.arrivals.push_back({t, p.tag, p.idx, v, wrx.wbase()});
      }
    }
    // 2. Timers; RESENDs into the control channel.
    std::vector<Ctl> out;
    if (whole) {
      crx.advance(t);
      out = crx.take_ctl();
    } else {
      wrx.advance(t);
      out = wrx.take_ctl();
    }
    for (const Ctl& c : out) {
      if (cfg.trace) r.ctls.push_back(c);
      if (cfg.ctl_loss > 0 && rng.chance(cfg.ctl_loss)) {
        ++r.ctl_lost;
        continue;
      }
      ctl.emplace(c.cycle + cfg.ctl_delay + jit(cfg.ctl_jitter), ctl_seq++, c);
    }
    if (whole ? crx.complete() : wrx.complete()) {
      r.complete = true;
      r.done_cycle = whole ? crx.done_cycle() : wrx.done_cycle();
      break;
    }
    // 3. RESENDs reach the sender.
    while (!ctl.empty() && std::get<0>(ctl.top()) <= t) {
      tx.on_ctl(t, std::get<2>(ctl.top()));
      ctl.pop();
    }
    // 4. The sender sends; the channel loses or duplicates.
    if (auto p = tx.poll(t)) {
      if (cfg.loss > 0 && rng.chance(cfg.loss)) {
        ++r.lost;
      } else {
        push_data(t, *p);
        if (cfg.dup > 0 && rng.chance(cfg.dup)) {
          ++r.duplicated;
          push_data(t, *p);
        }
      }
    }
    // 5. Zombies: a stale packet of the previous message on this context.
    while (next_zombie < zombie_at.size() && zombie_at[next_zombie] <= t) {
      ++next_zombie;
      TxPkt z;
      z.tag = old_tag;
      z.idx = cfg.first + static_cast<uint32_t>(rng.below(cfg.count));
      ++r.zombies_sent;
      push_data(t, z);
    }
  }
  r.end_cycle = t;
  r.rx = whole ? crx.counters() : wrx.counters();
  r.tx = tx.counters();
  return r;
}

}  // namespace tonic::window_mode
