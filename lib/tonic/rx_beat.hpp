// SPDX-License-Identifier: Apache-2.0
// rx beats for tonic_top's testbenches: one built from its fields, one from
// a receiver model's event (tonic/rx_common.hpp).
#pragma once

#include <cstdint>

#include "tonic/rx_common.hpp"
#include "tonic/top_drive.hpp"

namespace tonic {

/// An rx beat from its fields (ECN off).
inline RxCmd rx_cmd(uint32_t flow, RxType type, uint32_t cum_ack = 0, bool sack_valid = false,
                    uint32_t sack_idx = 0, uint16_t grant = 0) {
  RxCmd r;
  r.flow = flow;
  r.type = type;
  r.cum_ack = cum_ack;
  r.sack_valid = sack_valid;
  r.sack_idx = sack_idx;
  r.grant = grant;
  return r;
}

/// A receiver model's event as one beat of the rx stream.
inline RxCmd to_cmd(const RxEvent& e) {
  RxCmd r = rx_cmd(e.flow, static_cast<RxType>(e.type), e.cum_ack, e.sack_valid, e.sack_idx, e.grant);
  r.ecn = e.ecn;
  r.echo_valid = e.echo.valid;
  r.echo_rtx = e.echo.rtx;
  r.echo_ts = e.echo.ts;
  return r;
}

}  // namespace tonic
