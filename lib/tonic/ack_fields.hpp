// SPDX-License-Identifier: Apache-2.0
// What an ack carries besides its cumulative ack: the echo of one
// transmission's stamp (tonic_wire_pkg::echo_t) and the SACK blocks
// (sack_blk_t, sack_blks_t), in C++; and SackReport, the rule that picks a
// TCP receiver's blocks (RFC 2018 section 4), shared by the receiver
// models (tcp_receiver.hpp) and the receiver engine's reference
// (tb/common/ref/rx_engine_ref.hpp). docs/design/receiver.md, "Echo, SACK
// blocks and the CE state", states the rules.
//
// Plain C++ (no Verilator headers). The number of blocks is the package's
// (kSackBlocks, generated from tonic_wire_pkg::SackBlocks).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "tonic/seq.hpp"
#include "tonic/wire_codes.hpp"  // kSackBlocks

namespace tonic {

/// tonic_wire_pkg::echo_t: the echo of one transmission. A model leaves
/// every field 0 when valid is 0 (the RTL does), so == compares all of it.
struct Echo {
  bool valid = false;  // the ack carries an echo
  bool rtx = false;    // the echoed transmission was a retransmission
  uint32_t ts = 0;     // its transmit stamp
  bool operator==(const Echo& o) const { return valid == o.valid && rtx == o.rtx && ts == o.ts; }
  bool operator!=(const Echo& o) const { return !(*this == o); }
};

/// The echo of a transmission with stamp `ts` and retransmit flag `rtx`.
inline Echo echo_of(uint32_t ts, bool rtx) { return Echo{true, rtx, ts}; }

/// tonic_wire_pkg::sack_blk_t: every index of [lo, hi) is held (hi one past
/// the block). Unused blocks are all 0.
struct SackBlock {
  bool valid = false;
  uint32_t lo = 0, hi = 0;
  bool operator==(const SackBlock& o) const { return valid == o.valid && lo == o.lo && hi == o.hi; }
  bool operator!=(const SackBlock& o) const { return !(*this == o); }
};

/// tonic_wire_pkg::sack_blks_t: [0] the most recent.
using SackBlocks = std::array<SackBlock, kSackBlocks>;

inline std::string str(const Echo& e) {
  if (!e.valid) return "-";
  std::ostringstream o;
  o << e.ts << (e.rtx ? "r" : "");
  return o.str();
}
inline std::string str(const SackBlocks& b) {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i) o << " ";
    if (b[i].valid) o << b[i].lo << "-" << b[i].hi;
    else o << "-";
  }
  o << "]";
  return o.str();
}

/// The SACK blocks of one TCP receiver flow's acks (RFC 2018 section 4, at
/// segment granularity, at most kSackBlocks per ack):
///   - block 0 is the run of held segments containing the segment that
///     triggered the ack, when that segment is held above the cumulative
///     ack (an out-of-order arrival or a duplicate of a held one);
///   - the other blocks repeat the runs reported before (each ack's blocks,
///     most recent first), skipping a run no longer held (the cumulative
///     ack passed it) or covered by block 0; the list is what the ack
///     reported, so the next ack repeats them in that order;
///   - no block holds an index below the cumulative ack.
/// A run is reported as it stands now: the runs remembered are looked up
/// again in the held set (the RTL keeps each run's ends instead, which is
/// the same while a run only grows through arrivals that are reported:
/// every held arrival of a SACK flow is acked at once, so the tests that
/// compare the two check that too).
class SackReport {
 public:
  /// Forgets every run (a flow opened again).
  void clear() { runs_ = SackBlocks{}; }

  /// The blocks of an ack sent now, remembered for the next one. `cum`:
  /// the cumulative ack; `held(i)`: index i (above cum) is held, false at
  /// and beyond the end of the window; `trigger`: the index of the segment
  /// that triggered the ack, when it is held above cum.
  template <class Held>
  SackBlocks ack(uint32_t cum, std::optional<uint32_t> trigger, const Held& held) {
    SackBlocks out{};
    std::size_t n = 0;
    if (trigger) out[n++] = run(cum, *trigger, held);
    for (const SackBlock& r : runs_) {
      if (n == out.size()) break;
      if (!r.valid || !seq_lt(cum, r.lo) || !held(r.lo)) continue;  // below the cumulative ack now
      if (trigger && seq_le(out[0].lo, r.lo) && seq_lt(r.lo, out[0].hi)) continue;  // inside block 0
      out[n++] = run(cum, r.lo, held);
    }
    runs_ = out;
    return out;
  }

  /// The runs the last ack reported (most recent first).
  const SackBlocks& runs() const { return runs_; }

 private:
  template <class Held>
  static SackBlock run(uint32_t cum, uint32_t i, const Held& held) {
    uint32_t lo = i, hi = i + 1;
    while (lo - 1 != cum && held(lo - 1)) --lo;
    while (held(hi)) ++hi;
    return SackBlock{true, lo, hi};
  }

  SackBlocks runs_{};
};

}  // namespace tonic
