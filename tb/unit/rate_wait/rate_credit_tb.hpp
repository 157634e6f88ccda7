// SPDX-License-Identifier: Apache-2.0
// Driver of tonic_rate_credit (rate_credit_16) shared by its test and its
// benchmark. 16 flows are initialised with random segment sizes, then each
// one behaves like the DD engine's next-seg: it spends a permit per cycle
// (with a probability), asks for more when it holds <= 12, and its rate is
// changed at random times (log-uniform, 1 Mb/s .. 200 Gb/s). A spent permit
// is a segment queued for the wire, which takes one per cycle (random
// stalls with `stall_p`), round robin between flows, and tells the cell
// (sent_*), as the CR engine's transmit notify does. The wire checks
// credit as the CR engine's wire gate does: per flow W = wire permits
// (every grant adds to it, a revocation sets it to 0), and a segment leaves
// only with W > 0. A revocation (grant_set_o: INIT, and a cut with cut_o,
// i.e. an update below the flow's rate) sets W to 0; a cut subtracts the W
// it voided from the permits, as the CR engine and the DD engine do: they
// become a debt of the queued segments, paid by the next grants before a
// new one is spent.
//
// Checked on every grant and at the end, per flow, in credit units (bytes
// * 2^20), against the integral of the rate since INIT:
//   - never ahead: granted <= earned_hi, where earned_hi counts, for 24
//     cycles after an update was sent, the larger of the old and the new
//     rate (an update waits in the queue and the pipeline that long at most);
//   - never starved (flows that always ask): granted >= earned_lo - D -
//     44 L - 64 R_max, earned_lo counting the smaller rate in that time
//     (D: what the cap may discard while a flow holds permits; 44 L: the
//     permits it may hold; 64 cycles of wake-up lateness and pipeline);
//   - the burst bound: the wire permits W (the permits a flow holds plus
//     its paid segments not yet on the wire) never exceed floor(D / L)
//     (checked on every grant).
// A cut voids the credit: the accounts of that flow restart from the
// revocation (earned_hi from 8 cycles of the larger rate: the cell settles
// at the time its op started, C0, and the revocation is seen 5 cycles
// later).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "Vrate_credit_16.h"
#include "tonic/harness.hpp"
#include "tonic/rng.hpp"

namespace tonic {

struct RateCreditRun {
  uint64_t cycles = 0, grants = 0, permits = 0, updates = 0, checks = 0, errors = 0, cuts = 0;
  uint64_t held_max_pct = 0;  // the largest (permits + unsent) * L as a percentage of D
  std::string first_error;
};

inline uint32_t rc_log_rate(Rng& rng) {
  // 1311 RU (1 Mb/s) .. 2^28 RU (about 205 Gb/s), log-uniform.
  const unsigned k = 10 + static_cast<unsigned>(rng.below(18));
  return static_cast<uint32_t>((uint64_t{1} << k) + rng.below(uint64_t{1} << k));
}

/// Runs `cycles` cycles after the timer's init; `spend_p`: probability that
/// a flow holding a permit spends one in a cycle; `account`: the checker
/// counts each permit as `account` segments (1; the self-test makes it
/// larger so that the "never ahead" check must fire).
inline RateCreditRun run_rate_credit(Harness<Vrate_credit_16>& h, uint64_t cycles, Rng& rng,
                                     double spend_p = 0.5, uint64_t burst = 65536, double account = 1.0,
                                     double stall_p = 0.0) {
  constexpr uint32_t kFlows = 16;
  constexpr uint64_t kLag = 24;
  constexpr double kCu = 1048576.0;
  auto& d = h.dut();
  RateCreditRun r;
  auto fail = [&](const std::string& what) {
    if (r.errors++ == 0) r.first_error = "cycle " + std::to_string(h.cycle()) + ": " + what;
  };
  d.init_valid_i = 0;
  d.upd_valid_i = 0;
  d.req_valid_i = 0;
  d.sent_valid_i = 0;
  d.hold_valid_i = 0;
  h.reset();
  // The timer clears its state first (FlowCount cycles).
  for (int i = 0; i < 64; ++i) h.tick();
  uint32_t wire_rr = 0;  // the wire's round-robin pointer
  struct Flow {
    uint32_t len = 0, rate = 0, old_rate = 0, unsent = 0, w = 0;
    int64_t permits = 0;  // signed: a debt after a revocation
    uint64_t changed_at = 0;
    double granted = 0, earned_hi = 0, earned_lo = 0;  // credit units
  };
  std::vector<Flow> fl(kFlows);
  // INIT every flow (RateInit = 0: no rate until the first update).
  for (uint32_t f = 0; f < kFlows; ++f) {
    fl[f].len = 64 + static_cast<uint32_t>(rng.below(9000 - 64 + 1));
    d.init_valid_i = 1;
    d.init_flow_i = f;
    d.init_len_i = fl[f].len;
    h.eval();
    while (!d.init_ready_o) {
      h.tick();
      h.eval();
    }
    h.tick();
  }
  d.init_valid_i = 0;
  for (int i = 0; i < 16; ++i) h.tick();
  uint32_t rmax = 0;
  for (uint64_t c = 0; c < cycles && r.errors == 0; ++c) {
    // One rate update now and then, one request per cycle at most (the DD
    // engine sends one of each per cycle).
    d.upd_valid_i = 0;
    if (rng.chance(0.002) || c < kFlows) {
      const uint32_t f = c < kFlows ? static_cast<uint32_t>(c) : static_cast<uint32_t>(rng.below(kFlows));
      Flow& x = fl[f];
      x.old_rate = std::max<uint32_t>(x.rate, x.old_rate * (c < x.changed_at + kLag));
      x.rate = rc_log_rate(rng);
      // Flows that spend every cycle are kept below L/32 bytes per cycle
      // (all 16 together below half of the wire's segment per cycle), so
      // they spend faster than they earn and keep asking.
      if (spend_p >= 1.0) x.rate = std::min<uint32_t>(x.rate, x.len << 15);
      x.changed_at = c;
      rmax = std::max(rmax, x.rate);
      d.upd_valid_i = 1;
      d.upd_flow_i = f;
      d.upd_rate_i = x.rate;
      ++r.updates;
    }
    d.req_valid_i = 0;
    const uint32_t asker = static_cast<uint32_t>(rng.below(kFlows));
    if (fl[asker].permits <= 12) {
      d.req_valid_i = 1;
      d.req_flow_i = asker;
    }
    h.eval();
    if (d.grant_valid_o && d.grant_set_o) {
      // A revocation: INIT's (the flows are set up before the loop) or a cut.
      Flow& x = fl[d.grant_flow_o];
      if (d.grant_cnt_o != 0) fail("a revocation with " + std::to_string(d.grant_cnt_o) + " permits");
      // A cut: the gate's permits are voided and handed back (the debt is
      // exactly the segments still queued); INIT only clears the gate.
      if (d.cut_o) x.permits -= x.w;
      x.w = 0;
      if (d.cut_o && x.permits != -int64_t{x.unsent}) {
        fail("flow " + std::to_string(d.grant_flow_o) + ": a cut leaves " + std::to_string(x.permits) +
             " permits with " + std::to_string(x.unsent) + " segments queued");
      }
      x.granted = 0;
      x.earned_hi = 8.0 * std::max(x.rate, x.old_rate);
      x.earned_lo = 0;
      ++r.cuts;
    } else if (d.grant_valid_o) {
      Flow& x = fl[d.grant_flow_o];
      const uint32_t k = d.grant_cnt_o;
      if (k != 1 && k != 2 && k != 4 && k != 8 && k != 16) fail("grant of " + std::to_string(k) + " permits");
      x.permits += k;
      x.w += k;
      x.granted += double(k) * x.len * kCu * account;
      r.permits += k;
      ++r.grants;
      if (x.granted > x.earned_hi + 1.0) fail("flow " + std::to_string(d.grant_flow_o) + " granted beyond its rate");
      const uint64_t held = x.w;
      if (held * x.len > burst) {
        fail("flow " + std::to_string(d.grant_flow_o) + " holds " + std::to_string(held) + " segments of " +
             std::to_string(x.len) + " B, beyond D = " + std::to_string(burst) + " B");
      }
      r.held_max_pct = std::max<uint64_t>(r.held_max_pct, held * x.len * 100 / burst);
    }
    for (uint32_t f = 0; f < kFlows; ++f) {
      Flow& x = fl[f];
      const bool fresh = c < x.changed_at + kLag;
      x.earned_hi += fresh ? std::max(x.rate, x.old_rate) : x.rate;
      x.earned_lo += fresh ? std::min(x.rate, x.old_rate) : x.rate;
      if (x.permits > 0 && rng.chance(spend_p)) {
        --x.permits;
        ++x.unsent;
      }
    }
    // The wire: one segment per cycle, of a flow with a wire permit (its
    // notify reaches the cell now).
    d.sent_valid_i = 0;
    if (!(stall_p > 0.0 && rng.chance(stall_p))) {
      for (uint32_t i = 0; i < kFlows; ++i) {
        const uint32_t f = (wire_rr + i) % kFlows;
        if (fl[f].unsent > 0 && fl[f].w > 0) {
          d.sent_valid_i = 1;
          d.sent_flow_i = f;
          --fl[f].unsent;
          --fl[f].w;
          wire_rr = f + 1;
          break;
        }
      }
    }
    h.tick();
    ++r.cycles;
  }
  d.upd_valid_i = 0;
  d.req_valid_i = 0;
  d.sent_valid_i = 0;
  for (uint32_t f = 0; f < kFlows && r.errors == 0; ++f) {
    const Flow& x = fl[f];
    ++r.checks;
    const double floor = x.earned_lo - double(burst) * kCu - 44.0 * x.len * kCu - 64.0 * rmax;
    // A flow that spends slower than it earns holds credit: the cap takes
    // the rest, so the floor applies only to flows that kept asking.
    if (spend_p >= 1.0 && x.granted < floor) fail("flow " + std::to_string(f) + " starved");
  }
  return r;
}

}  // namespace tonic
