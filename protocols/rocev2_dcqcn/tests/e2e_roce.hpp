// SPDX-License-Identifier: Apache-2.0
// The user state and constants of this protocol as its end-to-end tests
// (e2e_rdma.cpp) read them from the sender's traces.
#pragma once

#include <cstdint>
#include <deque>
#include <sstream>
#include <utility>
#include <string>

#include "protocols/rocev2_dcqcn/dcqcn_ref.hpp"
#include "tonic/sys_tb.hpp"

namespace tonic::e2e {

/// user_t of protocols/rocev2_dcqcn/user_configs.vh (128 bits, first field
/// most significant): fresh [127], rc [126:100], rt [99:73], alpha [72:62],
/// t_cnt [61:59], b_cnt [58:56], base [55:32], t_due [31:16], k_due [15:0].
struct RoceUser {
  bool fresh = false;
  uint32_t rc = 0, rt = 0, alpha = 0, t_cnt = 0, b_cnt = 0, base = 0, t_due = 0, k_due = 0;

  static RoceUser from(const SysTrace& t) {
    RoceUser u;
    u.k_due = t.user_bits(0, 16);
    u.t_due = t.user_bits(16, 16);
    u.base = t.user_bits(32, 24);
    u.b_cnt = t.user_bits(56, 3);
    u.t_cnt = t.user_bits(59, 3);
    u.alpha = t.user_bits(62, 11);
    u.rt = t.user_bits(73, 27);
    u.rc = t.user_bits(100, 27);
    u.fresh = t.user_bits(127, 1);
    return u;
  }
  std::string str() const {
    std::ostringstream os;
    os << "fresh=" << fresh << " rc=" << rc << " rt=" << rt << " alpha=" << alpha << " t_cnt=" << t_cnt
       << " b_cnt=" << b_cnt << " base=" << base << " t_due16=" << t_due << " k_due16=" << k_due;
    return os.str();
  }
};

/// The constants of protocols/rocev2_dcqcn/user_configs.vh that the tests
/// use (the dcqcn_rtl test checks them against the file).
struct RoceCfg {
  static constexpr uint32_t kC = 131'072'000;  // line rate (RU)
  static constexpr uint32_t kSegBytes = 1024;  // the segment size the tests add flows with
  static constexpr uint32_t kBurst = 16'384;   // D (bytes)
  static constexpr uint32_t kInitWnd = 120;
  static ref::dcqcn::Params params() {
    ref::dcqcn::Params p;  // the reference's defaults are the file's values
    p.c_ru = kC;
    p.rinit_ru = kC;
    return p;
  }
};

/// The bytes a flow's transmit event has counted by a cycle (the wire's
/// log): the protocol's transmit.v adds each segment's length as it leaves;
/// a call of incoming in cycle c reads the sum over the segments that left
/// in cycle c - 3 or earlier (docs/protocol-api.md, "Transmit event").
class TxBytes {
 public:
  static constexpr uint64_t kLag = 3;
  void on_seg(const SysSeg& s) { q_.push_back({s.cycle, s.len}); }
  /// Bytes sent in cycles <= c - kLag (calls in increasing cycles).
  uint64_t seen_by(uint64_t c) {
    while (!q_.empty() && q_.front().first + kLag <= c) {
      total_ += q_.front().second;
      q_.pop_front();
    }
    return total_;
  }

 private:
  std::deque<std::pair<uint64_t, uint32_t>> q_;
  uint64_t total_ = 0;
};

/// The module's byte counter: sent - base, mod 2^24, with sent = the bytes
/// its calls have consumed.
inline uint32_t byte_count(uint64_t consumed, const RoceUser& u) {
  return static_cast<uint32_t>(consumed - u.base) & 0xFFFFFFU;
}

}  // namespace tonic::e2e
