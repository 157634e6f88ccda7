// SPDX-License-Identifier: Apache-2.0
// The drop options of the network simulations (tonic-netsim and the ns-3
// side, tonic-ns3), in one place so that both drop exactly the same data
// segments: a drop is a function of (flow key, segment index, arrival
// number at the receiver NIC) and the options, never of timing or of a
// random stream shared with anything else.
//
//   --drops=5,37,38   these segment indices, on their first arrival only
//   --drop-every=K    every K-th segment (indices K-1, 2K-1, ...), first arrival only
//   --loss=p --seed=s each arrival (first or a retransmission) with probability p,
//                     decided by a hash of (s, flow key, index, arrival number)
//
// Segment index: 0-based position of the segment in its flow's message
// (ns-3: (sequence number - 1) / segment bytes). Flow key: sender host
// index * flows per sender + the flow's number on that host. The list and
// K apply to every flow (single-flow experiments use them); a list entry
// names an index, not a (flow, index) pair.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tonic::sim {

/// SplitMix64 finaliser (a bijection on 64-bit words).
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct DropRule {
  std::set<uint64_t> list;  // --drops
  uint64_t every = 0;       // --drop-every (0: off)
  double loss = 0;          // --loss, in [0, 1)
  uint64_t seed = 1;        // --seed

  bool any() const { return !list.empty() || every != 0 || loss > 0; }

  /// Whether arrival number `arrival` (0 = the first time this index
  /// reaches the receiver NIC) of segment `idx` of flow `key` is dropped.
  bool drop(uint64_t key, uint64_t idx, uint64_t arrival) const {
    if (arrival == 0) {
      if (list.count(idx)) return true;
      if (every != 0 && (idx + 1) % every == 0) return true;
    }
    if (loss <= 0) return false;
    const uint64_t a = std::min<uint64_t>(arrival, 255);
    const uint64_t h = splitmix64(seed ^ splitmix64((key << 32) ^ (idx << 8) ^ a));
    return static_cast<double>(h >> 11) * 0x1.0p-53 < loss;
  }

  /// Parses "5,37,38" (empty: no list). Throws std::invalid_argument with
  /// the offending item.
  static std::set<uint64_t> parse_list(const std::string& s) {
    std::set<uint64_t> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
      if (item.empty()) throw std::invalid_argument("--drops: empty item in '" + s + "'");
      size_t used = 0;
      unsigned long long v = 0;
      try {
        if (item[0] == '-' || item[0] == '+') throw std::invalid_argument(item);
        v = std::stoull(item, &used, 10);
      } catch (const std::exception&) {
        throw std::invalid_argument("--drops: '" + item + "' is not a segment index");
      }
      if (used != item.size()) throw std::invalid_argument("--drops: '" + item + "' is not a segment index");
      out.insert(v);
    }
    return out;
  }

  /// The options, checked: loss in [0, 1). Throws std::invalid_argument.
  void check() const {
    if (!(loss >= 0 && loss < 1)) throw std::invalid_argument("--loss must be in [0, 1)");
  }
};

}  // namespace tonic::sim
