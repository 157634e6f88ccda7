// SPDX-License-Identifier: Apache-2.0
// RoCEv2 with DCQCN (protocols/rocev2_dcqcn): its modules against the DCQCN
// reaction-point reference (../dcqcn_ref.hpp), every case of
// dcqcn_rtl_cases.hpp, and the constants of user_configs.vh against the
// reference's defaults and RoceCfg. Label dcqcn_rtl.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "Vrocev2_dcqcn_incoming.h"
#include "Vrocev2_dcqcn_periodic.h"
#include "common/vh_constants.hpp"
#include "protocols/rocev2_dcqcn/tests/roce_flow.hpp"

using DcqcnFlow = tonic::dcqcntb::RoceFlow<Vrocev2_dcqcn_incoming, Vrocev2_dcqcn_periodic>;
#define DCQCN_RTL_FLOWS DcqcnFlow
#include "protocols/rocev2_dcqcn/tests/dcqcn_rtl_cases.hpp"

TEST_CASE("dcqcn_rtl: the constants of user_configs.vh are the reference's defaults",
          "[dcqcn_rtl][smoke]") {
  auto c = vh_constants(read_text(std::string(TONIC_SOURCE_DIR) + "/protocols/rocev2_dcqcn/user_configs.vh"));
  const ref::dcqcn::Params d;  // dcqcn.md defaults
  CHECK(c.at("DcqcnC") == d.c_ru);
  CHECK(c.at("DcqcnRmin") == d.rmin_ru);
  CHECK(c.at("DcqcnRai") == d.rai_ru);
  CHECK(c.at("DcqcnRhai") == d.rhai_ru);
  CHECK(c.at("DcqcnK") == d.k_cycles);
  CHECK(c.at("DcqcnT") == d.t_cycles);
  CHECK(c.at("DcqcnB") == d.b_bytes);
  CHECK(c.at("DcqcnF") == d.f_stages);
  CHECK(c.at("DcqcnGShift") == ref::dcqcn::kGShift);
  // The test's copy (RoceCfg) equals the file.
  CHECK(c.at("DcqcnC") == RoceCfg::kC);
  CHECK(c.at("DcqcnRmin") == RoceCfg::kRmin);
  CHECK(c.at("DcqcnRai") == RoceCfg::kRai);
  CHECK(c.at("DcqcnRhai") == RoceCfg::kRhai);
  CHECK(c.at("DcqcnK") == RoceCfg::kK);
  CHECK(c.at("DcqcnT") == RoceCfg::kT);
  CHECK(c.at("DcqcnB") == RoceCfg::kB);
  CHECK(c.at("DcqcnF") == RoceCfg::kF);
  CHECK(c.at("SegBytes") == RoceCfg::kSegBytes);
  CHECK(c.at("BurstBytes") == RoceCfg::kBurstBytes);
  CHECK(c.at("TokensInit") == RoceCfg::kTokensInit);
  CHECK(c.at("InitWnd") == RoceCfg::kInitWnd);
  CHECK(c.at("RtoInit") == RoceCfg::kRtoInit);
  CHECK(c.at("RtoMin") == RoceCfg::kRtoMin);
  CHECK(c.at("RtoMax") == RoceCfg::kRtoMax);
  CHECK(c.count("UserIncomingWins") == 0);  // not programmable (docs/dd-pipeline.md)
  CHECK(RoceCfg::kRateInit == RoceCfg::kC);  // RateInit = DcqcnC in the file
  // The burst bound of docs/design/credit-schemes.md at R = C for L = 4096
  // and a wake-up 96 cycles late.
  CHECK(RoceCfg::kBurstBytes >= 4096 + 4096 / 128 + (uint64_t{kC} * (96 + 2) >> 20));
}
