// SPDX-License-Identifier: Apache-2.0
// The user state and constants of this protocol as its end-to-end tests
// (e2e_rdma.cpp) read them from the sender's traces.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "protocols/rocev2_dcqcn/dcqcn_ref.hpp"
#include "tonic/sys_tb.hpp"

namespace tonic::e2e {

/// user_t of protocols/rocev2_dcqcn/user_configs.vh (128 bits, first field
/// most significant): fresh [127], rc [126:100], rt [99:73], alpha [72:62],
/// t_cnt [61:59], b_cnt [58:56], bytes [55:32], t_due [31:16], k_due [15:0].
struct RoceUser {
  bool fresh = false;
  uint32_t rc = 0, rt = 0, alpha = 0, t_cnt = 0, b_cnt = 0, bytes = 0, t_due = 0, k_due = 0;

  static RoceUser from(const SysTrace& t) {
    RoceUser u;
    u.k_due = t.user_bits(0, 16);
    u.t_due = t.user_bits(16, 16);
    u.bytes = t.user_bits(32, 24);
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
       << " b_cnt=" << b_cnt << " bytes=" << bytes << " t_due16=" << t_due << " k_due16=" << k_due;
    return os.str();
  }
};

/// The constants of protocols/rocev2_dcqcn/user_configs.vh that the tests
/// use (the dcqcn_rtl test checks them against the file).
struct RoceCfg {
  static constexpr uint32_t kC = 131'072'000;  // line rate (RU)
  static constexpr uint32_t kSegBytes = 1024;  // bytes per newly acked segment
  static constexpr uint32_t kBurst = 16'384;   // D (bytes)
  static constexpr uint32_t kInitWnd = 120;
  static ref::dcqcn::Params params() {
    ref::dcqcn::Params p;  // the reference's defaults are the file's values
    p.c_ru = kC;
    p.rinit_ru = kC;
    return p;
  }
};

}  // namespace tonic::e2e
