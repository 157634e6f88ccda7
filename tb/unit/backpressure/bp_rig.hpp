// SPDX-License-Identifier: Apache-2.0
// BpRig: a closed loop around tonic_top (SysTb) whose DMA side drops
// seg_ready_i at random single cycles and holds it low for long pauses,
// with one of three receivers (TcpReceiver for the window scheme,
// RoceReceiver for the rate scheme, NdpReceiver for the token scheme),
// segment loss on the way, and the checks of docs/backpressure.md:
//   - every next-seg decision (trace_ns_o) leaves on seg_* once, in the
//     flow's decision order (nothing lost or duplicated under the stall);
//   - new segments of a flow leave in index order, each once (SysTb), and
//     all of them reach the receiver;
//   - a retransmission only where the protocol's rules call for it: of a
//     segment lost on the way or pointed at by a duplicate ack (window
//     scheme) or by a partial ack in fast recovery, or one covered by a
//     timeout or NACK that stage 2 / periodic processed (the range from the
//     trace); each such cause allows one;
//   - while seg_valid_o && !seg_ready_i, the next cycle shows the same
//     address (valid held, payload stable), every stalled cycle;
//   - after each long pause, every flow holding addresses sends within a
//     bound of ready cycles (measured);
//   - no flow holds more than RingN = 16 decided addresses not yet out;
//   - timers: a timeout never comes sooner than RtoMin after the stage-2
//     write of a new ack that restarts the timer; consecutive timeouts of
//     a flow are never earlier than the RTO the previous one wrote and at
//     most two scans late, and that RTO is min(2 RTO, RtoMax); a pause
//     longer than the flow's RTO + RTT holds a timeout for every flow with
//     addresses waiting; rate scheme: decisions after a release within the
//     bucket bound; token scheme: decisions within the tokens granted.
// The model is any tonic_top build (the ports SysTb drives and reads); the
// protocol constants of RigCfg come from the generated registry
// (test_backpressure.cpp, protocol_cfg).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tonic/ndp_receiver.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/seq.hpp"
#include "tonic/tcp_receiver.hpp"
#include "tonic/rng.hpp"
#include "tonic/rx_beat.hpp"
#include "tonic/sys_tb.hpp"

namespace tonic::bp {

enum class Scheme { kWindow, kRate, kToken };

inline const char* to_string(Scheme s) {
  switch (s) {
    case Scheme::kWindow: return "window";
    case Scheme::kRate: return "rate";
    case Scheme::kToken: return "token";
  }
  return "?";
}

/// One stretch of the DMA side: `len` cycles with ready drawn with
/// probability `p` each cycle, or a pause (ready low throughout).
struct Phase {
  uint64_t len = 0;
  double p = 1.0;
  bool pause = false;
};

/// The pauses of a schedule: `n` lengths drawn log-uniformly in [lo, hi].
struct PauseBand {
  uint32_t n = 0;
  double lo = 100, hi = 1e4;
};

/// Active stretches (random single-cycle drops, p uniform in [p_lo, p_hi],
/// length uniform in [active_lo, active_hi]) alternating with the pauses
/// of every band, in a random order.
inline std::vector<Phase> make_schedule(Rng& rng, const std::vector<PauseBand>& bands, uint64_t active_lo,
                                        uint64_t active_hi, double p_lo, double p_hi) {
  std::vector<uint64_t> pauses;
  for (const PauseBand& b : bands)
    for (uint32_t i = 0; i < b.n; ++i) {
      const double u = static_cast<double>(rng.below(1u << 30)) / double(1u << 30);
      pauses.push_back(static_cast<uint64_t>(std::llround(b.lo * std::pow(b.hi / b.lo, u))));
    }
  std::shuffle(pauses.begin(), pauses.end(), rng.engine());
  auto active = [&] {
    Phase a;
    a.len = rng.range(active_lo, active_hi);
    a.p = p_lo + (p_hi - p_lo) * static_cast<double>(rng.below(1001)) / 1000.0;
    return a;
  };
  std::vector<Phase> s;
  for (uint64_t len : pauses) {
    s.push_back(active());
    Phase p;
    p.len = len;
    p.p = 0.0;
    p.pause = true;
    s.push_back(p);
  }
  s.push_back(active());
  return s;
}

/// The scenario.
struct RigCfg {
  Scheme scheme = Scheme::kWindow;
  uint32_t flows = 16;           // active flows 0 .. flows-1
  uint32_t segs = 1000;          // segments posted per flow
  uint32_t seg_bytes = 1024;     // L
  double loss = 0.0;             // window, rate: drop; token: trim (header NACKed)
  uint64_t delay = 100;          // one way, each direction
  std::vector<Phase> schedule;   // then the last active stretch's p until done
  uint64_t max_cycles = 40'000'000;
  // Protocol constants (user_configs.vh).
  uint32_t rto_init = 20000;
  uint32_t rto_max = 1280000;
  bool rto_doubles = true;       // every timeout writes min(2 * rto, rto_max)
  uint32_t tokens_init = 0;      // token scheme
  uint32_t burst_bytes = 0;      // rate scheme: D
  uint64_t rate_ru = 0;          // rate scheme: R (RU, bytes per 2^20 cycles) the flows keep
  uint64_t burst_window = 2000;  // rate scheme: cycles after a release whose decisions are bounded
  uint64_t starve_min_pause = 1000;  // pauses at least this long are followed by the starvation check
  int partial_bit = -1;          // window scheme: bit "a partial ack already restarted the timer" (-1: none)
  int in_rec_bit = -1;           // window scheme: bit of the user state that says "in fast recovery" (-1: none)
  uint64_t drain_frozen = 0;
  // Self-test of the checks: 1 = the rig forgets the 100th address that
  // leaves (a lost address), 2 = the 100th stalled cycle compares with a
  // changed address, 3 = no cause is recorded for retransmissions.
  int mutate = 0;     // > 0: after the schedule, this many cycles with the return path cut, then stop
};

/// What a run measured.
struct RigResult {
  uint64_t cycles = 0, ready_cycles = 0, stalled_checked = 0;
  uint64_t pauses = 0, pause_cycles = 0, longest_pause = 0;
  uint64_t pauses_by_decade[6] = {0, 0, 0, 0, 0, 0};  // 1e2.., 1e3.., .. 1e7..
  uint64_t decisions = 0, outs = 0, news = 0, rtx = 0, drops = 0;
  uint64_t timeouts = 0, timeouts_in_pause = 0, stat_timeouts = 0, stat_rtx = 0, stat_segments = 0;
  uint64_t timeout_chain_gaps = 0;
  int64_t worst_timeout_late = 0;        // cycles after the RTO the previous timeout wrote
  uint64_t long_pauses_timed = 0;        // pauses longer than RtoInit + RTT + two scans
  uint64_t flows_timed = 0;              // (flow, pause) pairs where a timeout was required
  uint64_t releases_checked = 0, flows_released = 0;
  uint64_t worst_release_cycles = 0, worst_release_ready = 0, worst_release_waiting = 0;
  uint64_t release_bound_ready = 0;      // the bound checked (ready cycles), for the worst case
  uint64_t worst_burst = 0, burst_bound = 0, bursts_checked = 0;
  uint64_t grants_in = 0, grants_in_pause = 0, tokens_max_total = 0;
  uint64_t delivered = 0;
  uint64_t max_new_ack_gap = 0;          // longest stretch a flow with data in flight saw no new ack
  uint64_t min_ack_to_timeout = UINT64_MAX;  // shortest time from a new ack to a timeout of its flow
};

template <class Model>
class BpRig {
 public:
  BpRig(uint32_t flow_count, RigCfg cfg, uint64_t seed)
      : cfg_(std::move(cfg)), tb_(flow_count, seed), rng_(seed * 0x9E3779B97F4A7C15ull + 7), fs_(flow_count) {
    RxConfig tc;
    tc.window = 128;
    tcp_ = std::make_unique<TcpReceiver>(tc);
    RoceRxConfig rc;
    rc.cnp.enabled = false;  // no ECN: the rate stays at its initial value
    roce_ = std::make_unique<RoceReceiver>(rc);
    ndp_ = std::make_unique<NdpReceiver>();
    for (uint32_t f = 0; f < cfg_.flows; ++f) {
      tb_.add(f, 0, cfg_.seg_bytes);
      tb_.post(f, cfg_.segs, cfg_.seg_bytes);
      tcp_->open(f, 0);
      roce_->open(f, 0);
      ndp_->open(f, 0);
    }
    tb_.on_seg = [this](const SysSeg& s) { on_seg(s); };
    tb_.on_cycle = [this](Model& d) { on_cycle(d); };
  }

  SysTb<Model>& tb() { return tb_; }
  uint64_t errors() const { return n_err_ + tb_.errors(); }
  std::string first_error() const { return tb_.errors() ? tb_.first_error() : first_; }
  const RigResult& result() const { return r_; }

  /// Runs the schedule, then the last stretch until every segment is
  /// delivered and every decision has left (or max_cycles, or an error).
  /// Returns whether everything was delivered.
  bool run() {
    size_t ph = 0;
    uint64_t left = cfg_.schedule.empty() ? 0 : cfg_.schedule[0].len;
    Phase cur = cfg_.schedule.empty() ? Phase{} : cfg_.schedule[0];
    bool in_pause = false;
    for (uint64_t i = 0; i < cfg_.max_cycles && errors() == 0; ++i) {
      while (ph < cfg_.schedule.size() && left == 0) {
        if (++ph < cfg_.schedule.size()) {
          cur = cfg_.schedule[ph];
          left = cur.len;
        }
      }
      const bool pause = ph < cfg_.schedule.size() && cur.pause;
      if (pause && !in_pause) pause_start();
      if (!pause && in_pause) pause_end();
      in_pause = pause;
      tb_.set_ready_prob(cur.p);
      if (left) --left;
      if (ph >= cfg_.schedule.size() && cfg_.drain_frozen > 0) {
        if (frozen_++ == cfg_.drain_frozen) break;
      }
      cycle();
      if (ph >= cfg_.schedule.size() && (i & 255) == 0 && done()) break;
    }
    if (in_pause) pause_end();
    finish();
    return done();
  }

 private:
  struct Trig {
    uint32_t lo, hi;  // covers [lo, hi) (serial)
  };
  struct Flow {
    std::deque<std::pair<uint32_t, bool>> order;  // decided, not left yet
    uint32_t next_new = 0;
    uint64_t gen = 0, news = 0, rtx = 0;
    std::unordered_map<uint32_t, uint32_t> drops, used;
    std::vector<Trig> trigs;
    uint32_t cum_safe = 0;  // highest cumulative ack that entered >= 4 cycles ago
    uint32_t cum = 0;       // highest cumulative ack that entered
    uint64_t last_new_ack = 0;
    uint64_t last_restart = 0;  // stage 2 of the latest new ack that restarts the timer
    bool restart_seen = false;
    uint32_t user0 = 0;         // user state bits [31:0] of the latest stage-2 trace
    // Timeout chain (no stage-2 write of the flow since the last timeout).
    bool chain = false;
    uint64_t to_cycle = 0;
    uint32_t to_rto = 0;
    uint64_t timeouts = 0, last_to = UINT64_MAX;
    uint32_t rto_cur = 0, rto_pause_max = 0;  // RTO of the latest trace; its maximum in this pause
    // Starvation check.
    uint64_t wait_since = UINT64_MAX, wait_ready = 0;
    bool queued_at_pause = false;
    // Token scheme.
    uint16_t grant = 0;
    uint64_t pulls = 0;
    // Rate scheme.
    uint64_t gen_at_release = 0;
  };
  struct Pkt {
    SysSeg s;
    bool trimmed;
  };

  void fail(uint64_t c, const std::string& what) {
    if (n_err_++ == 0) first_ = "cycle " + std::to_string(c) + ": " + what;
  }
  static std::string fl(uint32_t f) { return "flow " + std::to_string(f) + ": "; }

  bool covered(const Flow& st, uint32_t idx) const {
    if (cfg_.mutate == 3) return false;
    uint32_t n = 0;
    if (cfg_.scheme == Scheme::kWindow) {
      auto it = st.drops.find(idx);
      if (it != st.drops.end()) n += it->second;
    }
    for (const Trig& t : st.trigs)
      if (!seq_lt(idx, t.lo) && seq_lt(idx, t.hi)) ++n;
    auto u = st.used.find(idx);
    return (u == st.used.end() ? 0 : u->second) < n;
  }

  void on_seg(const SysSeg& s) {
    Flow& st = fs_[s.flow];
    ++r_.outs;
    if (st.order.empty() || st.order.front().first != s.idx || st.order.front().second != s.rtx) {
      std::ostringstream m;
      m << fl(s.flow) << "address " << s.idx << (s.rtx ? "r" : "") << " left, next decided "
        << (st.order.empty() ? std::string("none") : std::to_string(st.order.front().first));
      return fail(s.cycle, m.str());
    }
    if (cfg_.mutate == 1 && r_.outs == 100) return;
    st.order.pop_front();
    if (s.len != cfg_.seg_bytes) fail(s.cycle, fl(s.flow) + "length " + std::to_string(s.len));
    if (st.wait_since != UINT64_MAX) {
      const uint64_t lat = s.cycle - st.wait_since, rdy = ready_cnt_ - st.wait_ready;
      ++r_.flows_released;
      if (rdy > r_.worst_release_ready || (rdy == r_.worst_release_ready && lat > r_.worst_release_cycles)) {
        r_.worst_release_ready = rdy;
        r_.worst_release_waiting = waiting_at_release_;
        r_.release_bound_ready = release_bound_;
      }
      r_.worst_release_cycles = std::max(r_.worst_release_cycles, lat);
      if (rdy > release_bound_) {
        std::ostringstream m;
        m << fl(s.flow) << "first address after the release " << rdy << " ready cycles (" << lat
          << " cycles) late; bound " << release_bound_ << " (" << waiting_at_release_ << " flows waiting)";
        fail(s.cycle, m.str());
      }
      st.wait_since = UINT64_MAX;
      --still_waiting_;
    }
    bool lost = false, trimmed = false;
    if (cfg_.loss > 0 && rng_.chance(cfg_.loss)) {
      ++r_.drops;
      if (cfg_.scheme == Scheme::kToken) {
        trimmed = true;
      } else {
        lost = true;
        ++st.drops[s.idx];
      }
    }
    if (dbg_ >= 0 && s.flow == uint32_t(dbg_) && lost) std::fprintf(stderr, "%llu lost %u\n", (unsigned long long)s.cycle, s.idx);
    if (!lost) fwd_.push_back({s.cycle + cfg_.delay, Pkt{s, trimmed}});
  }

  void on_cycle(Model& d) {
    const uint64_t c = tb_.cycle();
    if (dbg_ >= 0) debug(d, c);
    if (d.seg_ready_i) ++ready_cnt_;
    // Valid/ready: an address offered and not taken is offered again,
    // unchanged, in the next cycle.
    if (held_) {
      ++r_.stalled_checked;
      if (cfg_.mutate == 2 && r_.stalled_checked == 100) held_seg_.idx ^= 1;
      if (!d.seg_valid_o || d.seg_flow_o != held_seg_.flow || d.seg_idx_o != held_seg_.idx ||
          bool(d.seg_rtx_o) != held_seg_.rtx || d.seg_len_o != held_seg_.len || d.seg_ts_o != held_seg_.ts)
        fail(c, "seg_* changed or dropped valid while not accepted");
    }
    held_ = d.seg_valid_o && !d.seg_ready_i;
    if (held_) held_seg_ = SysSeg{c, d.seg_flow_o, d.seg_idx_o, bool(d.seg_rtx_o), d.seg_len_o, d.seg_ts_o};

    // rx beats entering now.
    while (!cum_q_.empty() && cum_q_.front().c + 4 <= c) {
      Flow& st = fs_[cum_q_.front().flow];
      if (seq_lt(st.cum_safe, cum_q_.front().cum)) st.cum_safe = cum_q_.front().cum;
      cum_q_.pop_front();
    }
    if (d.rx_valid_i && d.rx_flow_i < cfg_.flows) {
      Flow& st = fs_[d.rx_flow_i];
      bool new_ack = false;
      const auto type = static_cast<SysRx>(d.rx_type_i);
      if (type == SysRx::kPull) {
        ++st.pulls;
        ++r_.grants_in;
        if (in_pause_) ++r_.grants_in_pause;
        if (seq_lt(uint32_t(st.grant) << 16, uint32_t(d.rx_grant_i) << 16)) st.grant = d.rx_grant_i;
      } else if (type == SysRx::kAck || type == SysRx::kSack || type == SysRx::kNack) {
        // Window scheme: a duplicate ack points at the segment fast
        // retransmit resends (RFC 5681/6582: the third one in a row, also
        // when the duplicates came from a timeout's go-back).
        if (cfg_.scheme == Scheme::kWindow && d.rx_cum_ack_i == st.cum && st.cum != st.next_new)
          st.trigs.push_back({st.cum, st.cum + 1});
        new_ack = seq_lt(st.cum, d.rx_cum_ack_i);
        if (new_ack) {
          r_.max_new_ack_gap = std::max(r_.max_new_ack_gap, c - st.last_new_ack);
          st.cum = d.rx_cum_ack_i;
          st.last_new_ack = c;
        }
        cum_q_.push_back({c, d.rx_flow_i, d.rx_cum_ack_i});
      }
      log_.push_back({c, d.rx_flow_i, type, d.rx_cum_ack_i, d.rx_sack_idx_i, new_ack});
    }
    while (!log_.empty() && log_.front().c + 2 < c) log_.pop_front();

    // The next-seg decision of this cycle.
    const SysNs ns = sys_ns(d.trace_ns_o);
    if (ns.valid) {
      if (ns.flow >= cfg_.flows) return fail(c, "decision for a flow not added");
      Flow& st = fs_[ns.flow];
      ++r_.decisions;
      ++st.gen;
      st.order.push_back({ns.idx, ns.rtx});
      if (st.order.size() > 16) fail(c, fl(ns.flow) + "more than RingN = 16 addresses decided and not out");
      if (!ns.rtx) {
        if (ns.idx != st.next_new) fail(c, fl(ns.flow) + "new segment " + std::to_string(ns.idx) + " decided, expected " +
                                               std::to_string(st.next_new));
        st.next_new = ns.idx + 1;
        ++st.news;
        ++r_.news;
      } else {
        ++st.rtx;
        ++r_.rtx;
        if (!seq_lt(ns.idx, st.next_new)) fail(c, fl(ns.flow) + "retransmission of an index never sent");
        if (seq_lt(ns.idx, st.cum_safe))
          fail(c, fl(ns.flow) + "retransmission of " + std::to_string(ns.idx) + " below the ack " +
                      std::to_string(st.cum_safe));
        if (!covered(st, ns.idx))
          fail(c, fl(ns.flow) + "retransmission of " + std::to_string(ns.idx) +
                      " that no loss, NACK or timeout called for");
        ++st.used[ns.idx];
      }
      if (cfg_.scheme == Scheme::kToken && st.gen > uint64_t(cfg_.tokens_init) + st.grant + st.timeouts)
        fail(c, fl(ns.flow) + "decision " + std::to_string(st.gen) + " beyond the tokens granted");
    }

    // Incoming stage 2: a NACK's range; any write breaks a timeout chain.
    const SysTrace ti = sys_trace(d.trace_in_o);
    if (ti.valid && ti.flow < cfg_.flows) {
      Flow& st = fs_[ti.flow];
      st.chain = false;
      st.rto_cur = ti.rto;
      st.rto_pause_max = std::max(st.rto_pause_max, ti.rto);
      const Beat* ev = beat_at(c - 2, ti.flow);
      const uint32_t user0 = st.user0;
      st.user0 = ti.user[0];
      if (ev && ev->new_ack) {
        // A new ack restarts the timer, except an impatient NewReno's later
        // partial acks of one recovery (RFC 6582: only the first partial
        // ack restarts it; the partial_ack probe set before, still in
        // recovery by the in_recovery probe).
        const bool later_partial = cfg_.partial_bit >= 0 && ((user0 >> cfg_.partial_bit) & 1) &&
                                   ti.user_bits(unsigned(cfg_.in_rec_bit), 1);
        if (!later_partial) {
          st.last_restart = c;
          st.restart_seen = true;
        }
      }
      if (!ev) {
        fail(c, fl(ti.flow) + "stage-2 trace without its rx beat two cycles earlier");
      } else if (cfg_.in_rec_bit >= 0 && ev->type == SysRx::kAck && ti.user_bits(unsigned(cfg_.in_rec_bit), 1)) {
        // NewReno: an ack that leaves the flow in fast recovery (a partial
        // ack, RFC 6582) resends the first unacked segment.
        st.trigs.push_back({ev->cum, ev->cum + 1});
      } else if (ev->type == SysRx::kNack) {
        if (cfg_.scheme == Scheme::kToken)
          st.trigs.push_back({ev->sack, ev->sack + 1});
        else if (cfg_.scheme == Scheme::kRate)
          st.trigs.push_back({ev->cum, ti.next_new});
      }
      prune(st);
    }

    // Periodic: timeouts.
    const SysTrace tp = sys_trace(d.trace_per_o);
    if (tp.valid && tp.flow < cfg_.flows) fs_[tp.flow].user0 = tp.user[0];
    if (tp.valid && tp.timeout && tp.flow < cfg_.flows) {
      Flow& st = fs_[tp.flow];
      st.rto_cur = tp.rto;
      st.rto_pause_max = std::max(st.rto_pause_max, tp.rto);
      ++st.timeouts;
      ++r_.timeouts;
      if (in_pause_) ++r_.timeouts_in_pause;
      st.last_to = c;
      // Where acks arrive no timeout: a new ack restarts the timer with at
      // least RtoMin (= RtoInit in the three protocols), in stage 2, two
      // cycles after it entered.
      if (st.restart_seen && c - st.last_restart < uint64_t(cfg_.rto_init)) {
        std::ostringstream m;
        m << fl(tp.flow) << "timeout " << (c - st.last_restart) << " cycles after a new ack restarted the timer (RTO "
          << cfg_.rto_init << ")";
        fail(c, m.str());
      }
      if (st.restart_seen) r_.min_ack_to_timeout = std::min<uint64_t>(r_.min_ack_to_timeout, c - st.last_restart);
      st.trigs.push_back({tp.next_new - 0x8000'0000u, tp.next_new});
      if (st.chain) {
        const int64_t late = int64_t(c - st.to_cycle) - int64_t(st.to_rto);
        ++r_.timeout_chain_gaps;
        r_.worst_timeout_late = std::max(r_.worst_timeout_late, late);
        // Never early; at most two scans (P = flows present, >= 3) and the
        // pipeline late (docs/sender-core.md, "Periodic").
        const int64_t slack = 2 * int64_t(std::max<uint32_t>(cfg_.flows, 3)) + 16;
        if (late < 0 || late > slack) {
          std::ostringstream m;
          m << fl(tp.flow) << "timeout " << (c - st.to_cycle) << " cycles after the previous one, whose RTO was "
            << st.to_rto << " (allowed lateness 0.." << slack << ")";
          fail(c, m.str());
        }
        const uint32_t want = cfg_.rto_doubles ? std::min<uint64_t>(2ull * st.to_rto, cfg_.rto_max) : tp.rto;
        if (tp.rto != want || tp.rto > cfg_.rto_max)
          fail(c, fl(tp.flow) + "RTO after a timeout " + std::to_string(tp.rto) + ", expected " + std::to_string(want));
      }
      st.chain = true;
      st.to_cycle = c;
      st.to_rto = tp.rto;
      prune(st);
    }

    // Rate scheme: decisions within burst_window cycles of a release.
    if (burst_check_at_ && c == burst_check_at_) {
      burst_check_at_ = 0;
      for (uint32_t f = 0; f < cfg_.flows; ++f) {
        const uint64_t n = fs_[f].gen - fs_[f].gen_at_release;
        ++r_.bursts_checked;
        r_.worst_burst = std::max(r_.worst_burst, n);
        if (n > burst_bound_)
          fail(c, fl(f) + std::to_string(n) + " decisions in the " + std::to_string(cfg_.burst_window) +
                      " cycles after a release, bound " + std::to_string(burst_bound_));
      }
    }
  }

  // TONIC_BP_DEBUG_FLOW=<flow>: every event of that flow on stderr.
  void debug(Model& d, uint64_t c) {
    const uint32_t f = uint32_t(dbg_);
    if (d.rx_valid_i && d.rx_flow_i == f)
      std::fprintf(stderr, "%llu rx type %u cum %u sack %u/%u grant %u\n", (unsigned long long)c, d.rx_type_i,
                   d.rx_cum_ack_i, d.rx_sack_valid_i, d.rx_sack_idx_i, d.rx_grant_i);
    const SysNs ns = sys_ns(d.trace_ns_o);
    if (ns.valid && ns.flow == f) std::fprintf(stderr, "%llu decide %u%s\n", (unsigned long long)c, ns.idx, ns.rtx ? " rtx" : "");
    if (d.seg_valid_o && d.seg_ready_i && d.seg_flow_o == f)
      std::fprintf(stderr, "%llu out %u%s\n", (unsigned long long)c, d.seg_idx_o, d.seg_rtx_o ? " rtx" : "");
    for (int k = 0; k < 2; ++k) {
      const SysTrace t = sys_trace(k ? d.trace_per_o : d.trace_in_o);
      if (t.valid && t.flow == f)
        std::fprintf(stderr, "%llu %s wnd %u rto %u next_new %u timeout %d user %08x\n", (unsigned long long)c,
                     k ? "per" : "in", t.wnd, t.rto, t.next_new, t.timeout, t.user[0]);
    }
  }

  void prune(Flow& st) {
    // Triggers wholly below the acked point cover nothing that may go again.
    st.trigs.erase(std::remove_if(st.trigs.begin(), st.trigs.end(),
                                  [&](const Trig& t) { return !seq_lt(st.cum_safe, t.hi); }),
                   st.trigs.end());
  }

  struct Beat {
    uint64_t c;
    uint32_t flow;
    SysRx type;
    uint32_t cum, sack;
    bool new_ack;  // the cumulative ack moved forward
  };
  const Beat* beat_at(uint64_t c, uint32_t flow) const {
    for (const Beat& b : log_)
      if (b.c == c && b.flow == flow) return &b;
    return nullptr;
  }

  void pause_start() {
    in_pause_ = true;
    pause_begin_ = tb_.cycle();
    if (still_waiting_ > 0)
      fail(pause_begin_, std::to_string(still_waiting_) + " flows still unserved since the last release");
    for (uint32_t f = 0; f < cfg_.flows; ++f) {
      fs_[f].queued_at_pause = !fs_[f].order.empty();
      fs_[f].wait_since = UINT64_MAX;
      fs_[f].rto_pause_max = std::max(fs_[f].rto_cur, cfg_.rto_init);
    }
    still_waiting_ = 0;
  }

  void pause_end() {
    in_pause_ = false;
    const uint64_t c = tb_.cycle(), len = c - pause_begin_;
    ++r_.pauses;
    r_.pause_cycles += len;
    r_.longest_pause = std::max(r_.longest_pause, len);
    int dec = 0;
    for (uint64_t x = len; x >= 1000 && dec < 5; x /= 10) ++dec;
    ++r_.pauses_by_decade[dec];
    // A pause longer than the flow's RTO + RTT (+ two scans): every flow
    // that held addresses all through it timed out in it.
    const uint64_t slack = 2 * cfg_.delay + 2 * std::max<uint32_t>(cfg_.flows, 3) + 64;
    if (len > uint64_t(cfg_.rto_init) + slack) ++r_.long_pauses_timed;
    for (uint32_t f = 0; f < cfg_.flows; ++f) {
      const Flow& st = fs_[f];
      if (len > uint64_t(st.rto_pause_max) + slack && st.queued_at_pause && !st.order.empty() &&
          (st.last_to == UINT64_MAX || st.last_to < pause_begin_)) {
        ++r_.flows_timed;
        fail(c, fl(f) + "held addresses through a pause of " + std::to_string(len) + " cycles without a timeout");
      } else if (len > uint64_t(st.rto_pause_max) + slack && st.queued_at_pause) {
        ++r_.flows_timed;
      }
    }
    if (len >= cfg_.starve_min_pause) {
      ++r_.releases_checked;
      waiting_at_release_ = 0;
      for (uint32_t f = 0; f < cfg_.flows; ++f)
        if (!fs_[f].order.empty()) {
          fs_[f].wait_since = c;
          fs_[f].wait_ready = ready_cnt_;
          ++waiting_at_release_;
        }
      still_waiting_ = waiting_at_release_;
      // Round robin over the waiting flows, one address each, behind the
      // output queue (4) and the read pipeline: see docs/backpressure.md.
      release_bound_ = waiting_at_release_ + 8;
    }
    if (cfg_.scheme == Scheme::kRate) {
      for (uint32_t f = 0; f < cfg_.flows; ++f) fs_[f].gen_at_release = fs_[f].gen;
      burst_check_at_ = c + cfg_.burst_window;
      // D / L (credit-schemes.md: the permits a flow holds and its segments
      // not yet sent count against the bucket, so all its credit stays
      // within D) + one for rounding + what R earns in the window.
      const uint64_t earn = (cfg_.rate_ru * (cfg_.burst_window + 2) + (uint64_t(cfg_.seg_bytes) << 20) - 1) /
                            (uint64_t(cfg_.seg_bytes) << 20);
      burst_bound_ = cfg_.burst_bytes / cfg_.seg_bytes + 1 + earn;
      r_.burst_bound = burst_bound_;
    }
  }

  void cycle() {
    const uint64_t c = tb_.cycle();
    while (!fwd_.empty() && fwd_.front().first <= c) {
      const Pkt p = fwd_.front().second;
      fwd_.pop_front();
      switch (cfg_.scheme) {
        case Scheme::kWindow: tcp_->segment(c, p.s.flow, p.s.idx); break;
        case Scheme::kRate: roce_->segment(c, p.s.flow, p.s.idx); break;
        case Scheme::kToken: ndp_->segment(c, p.s.flow, p.s.idx, p.trimmed); break;
      }
    }
    switch (cfg_.scheme) {
      case Scheme::kWindow:
        tcp_->advance(c);
        for (const AckEvent& a : tcp_->take_acks()) {
          SysRxCmd r;
          r.flow = a.flow;
          r.type = a.sack_valid ? SysRx::kSack : SysRx::kAck;
          r.cum_ack = a.cum_ack;
          r.sack_valid = a.sack_valid;
          r.sack_idx = a.sack_idx;
          ret_.push_back({c + cfg_.delay, r});
        }
        break;
      case Scheme::kRate:
        roce_->advance(c);
        for (const RxEvent& e : roce_->take_acks()) ret_.push_back({c + cfg_.delay, to_cmd(e)});
        break;
      case Scheme::kToken:
        ndp_->advance(c);
        for (const RxEvent& e : ndp_->take_acks()) ret_.push_back({c + cfg_.delay, to_cmd(e)});
        break;
    }
    while (!ret_.empty() && ret_.front().first <= c) {
      if (!frozen_) tb_.send_rx(ret_.front().second);
      ret_.pop_front();
    }
    tb_.step();
    ++r_.cycles;
  }

  uint32_t delivered(uint32_t f) const {
    switch (cfg_.scheme) {
      case Scheme::kWindow: return tcp_->rcv_nxt(f);
      case Scheme::kRate: return roce_->expected(f);
      case Scheme::kToken: return ndp_->rcv_nxt(f);
    }
    return 0;
  }

  bool done() const {
    for (uint32_t f = 0; f < cfg_.flows; ++f)
      if (delivered(f) != cfg_.segs || !fs_[f].order.empty()) return false;
    return true;
  }

  void finish() {
    r_.ready_cycles = ready_cnt_;
    r_.stat_timeouts = tb_.stat(DdStat::kTimeouts);
    r_.stat_rtx = tb_.stat(DdStat::kRetransmits);
    r_.stat_segments = tb_.stat(DdStat::kSegments);
    r_.delivered = 0;
    for (uint32_t f = 0; f < cfg_.flows; ++f) {
      r_.delivered += delivered(f);
      if (cfg_.scheme == Scheme::kToken)
        r_.tokens_max_total += uint64_t(cfg_.tokens_init) + fs_[f].grant + fs_[f].timeouts;
    }
  }

 public:
  /// Per-flow figures for the tests' final checks.
  uint64_t flow_gen(uint32_t f) const { return fs_[f].gen; }
  uint64_t flow_news(uint32_t f) const { return fs_[f].news; }
  uint64_t flow_timeouts(uint32_t f) const { return fs_[f].timeouts; }
  uint16_t flow_grant(uint32_t f) const { return fs_[f].grant; }
  size_t flow_queued(uint32_t f) const { return fs_[f].order.size(); }
  uint32_t flow_delivered(uint32_t f) const { return delivered(f); }

 private:
  RigCfg cfg_;
  SysTb<Model> tb_;
  Rng rng_;
  std::vector<Flow> fs_;
  std::unique_ptr<TcpReceiver> tcp_;
  std::unique_ptr<RoceReceiver> roce_;
  std::unique_ptr<NdpReceiver> ndp_;
  std::deque<std::pair<uint64_t, Pkt>> fwd_;
  std::deque<std::pair<uint64_t, SysRxCmd>> ret_;
  struct CumEntry {
    uint64_t c;
    uint32_t flow, cum;
  };
  std::deque<CumEntry> cum_q_;
  std::deque<Beat> log_;
  bool held_ = false;
  uint64_t frozen_ = 0;
  int dbg_ = std::getenv("TONIC_BP_DEBUG_FLOW") ? std::atoi(std::getenv("TONIC_BP_DEBUG_FLOW")) : -1;
  SysSeg held_seg_;
  bool in_pause_ = false;
  uint64_t pause_begin_ = 0, ready_cnt_ = 0;
  uint64_t waiting_at_release_ = 0, still_waiting_ = 0, release_bound_ = 0;
  uint64_t burst_check_at_ = 0, burst_bound_ = 0;
  RigResult r_;
  uint64_t n_err_ = 0;
  std::string first_;
};

}  // namespace tonic::bp
