// SPDX-License-Identifier: Apache-2.0
// RoCEv2 with DCQCN, go-back-0 (protocols/rocev2_gb0): its modules are
// rocev2_dcqcn's, included unchanged, so every case of
// protocols/rocev2_dcqcn/tests/dcqcn_rtl_cases.hpp runs on them too (the
// Gb0Flow variants), and its user_configs.vh must be rocev2_dcqcn's.
// Label dcqcn_rtl.
#include <catch2/catch.hpp>

#include <string>

#include "Vrocev2_gb0_incoming.h"
#include "Vrocev2_gb0_periodic.h"
#include "common/vh_constants.hpp"
#include "protocols/rocev2_dcqcn/tests/roce_flow.hpp"

using Gb0Flow = tonic::dcqcntb::RoceFlow<Vrocev2_gb0_incoming, Vrocev2_gb0_periodic>;
#define DCQCN_RTL_FLOWS Gb0Flow
#include "protocols/rocev2_dcqcn/tests/dcqcn_rtl_cases.hpp"

TEST_CASE("dcqcn_rtl: rocev2_gb0's user_configs.vh includes rocev2_dcqcn's unchanged",
          "[dcqcn_rtl][smoke]") {
  const std::string gb0 = read_text(std::string(TONIC_SOURCE_DIR) + "/protocols/rocev2_gb0/user_configs.vh");
  CHECK(gb0.find("`include \"../rocev2_dcqcn/user_configs.vh\"") != std::string::npos);
}
