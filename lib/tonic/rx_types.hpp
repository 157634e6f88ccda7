// SPDX-License-Identifier: Apache-2.0
// The receiver engine's port types (rtl/rx/tonic_rx_pkg.sv: rx_cfg_t,
// rx_desc_t, rx_dlv_t, rx_ctl_t, rx_stats_t and the enums) and its
// parameters, in C++: what the simulators and the tests exchange with the
// Verilated tonic_rx_engine (tonic/rx_ports.hpp packs them into its ports).
#pragma once

#include <cstdint>

#include "tonic/ack_fields.hpp"  // Echo, SackBlocks
#include "tonic/proto_io.hpp"

namespace tonic {

/// tonic_rx_pkg::rx_mode_e
enum class RxMode : uint8_t { kTcp = 0, kNdp = 1, kRoce = 2, kIrn = 3, kWindow = 4 };
/// tonic_rx_pkg::rx_reason_e
enum class RxReason : uint8_t {
  kOk = 0, kUnknown = 1, kZombie = 2, kDuplicate = 3, kBeyond = 4, kTrimmed = 5, kGoBackN = 6
};

inline const char* to_string(RxMode m) {
  switch (m) {
    case RxMode::kTcp: return "tcp";
    case RxMode::kNdp: return "ndp";
    case RxMode::kRoce: return "roce";
    case RxMode::kIrn: return "irn";
    case RxMode::kWindow: return "window";
  }
  return "?";
}

/// Engine parameters (rtl/manifest/rx.json).
struct RxEngineParams {
  uint32_t flows = 16;
  uint32_t w = 32;
  uint32_t ack_delay = 40;
  uint32_t nack_gap = 30;
  uint32_t cnp_gap = 50;
  uint32_t pull_gap = 3;
  uint32_t resend_timeout = 60;
  uint32_t go_back_after = 3;
  uint32_t ctl_depth = 16;
  uint32_t pull_depth = 16;
};

/// rx_cfg_t
struct RxCfg {
  bool close = false;  // op: false OPEN, true CLOSE
  uint16_t flow = 0;
  RxMode mode = RxMode::kTcp;
  uint32_t first = 0;
  uint32_t count = 0;
  uint16_t node = 0, ctx = 0;
  uint32_t msgid = 0;  // 20 bits
  bool delack = false, sack = false;
  bool ce_state_acks = false;  // TCP: ecn = the CE state, a CE change acks pending segments first
};

/// rx_desc_t
struct RxDesc {
  uint16_t flow = 0;
  uint32_t idx = 0;
  uint8_t txid = 0;
  bool ecn = false, trimmed = false;
  uint16_t node = 0, ctx = 0;
  uint32_t msgid = 0;
  bool last = false;
  uint32_t ts = 0;   // transmit stamp
  bool rtx = false;  // a retransmission
};

/// rx_dlv_t
struct RxDlv {
  uint16_t flow = 0;
  uint32_t idx = 0;
  bool deliver = false;
  RxReason reason = RxReason::kUnknown;
  bool operator==(const RxDlv& o) const {
    return flow == o.flow && idx == o.idx && deliver == o.deliver && reason == o.reason;
  }
};

/// rx_ctl_t
struct RxCtl {
  uint16_t flow = 0;
  ref::RxType type = ref::kRxAck;
  uint32_t cum_ack = 0;
  bool sack_valid = false;
  uint32_t sack_idx = 0;
  bool ecn = false;
  uint16_t grant = 0;
  bool go_back = false;
  Echo echo;
  SackBlocks blks{};
  bool operator==(const RxCtl& o) const {
    return flow == o.flow && type == o.type && cum_ack == o.cum_ack && sack_valid == o.sack_valid &&
           sack_idx == o.sack_idx && ecn == o.ecn && grant == o.grant && go_back == o.go_back &&
           echo == o.echo && blks == o.blks;
  }
  bool operator!=(const RxCtl& o) const { return !(*this == o); }
};

/// rx_stats_t
struct RxEngineStats {
  uint32_t unknown = 0, zombie = 0, duplicate = 0, beyond = 0, trimmed = 0, gbn_drop = 0,
           nack_supp = 0, cnp_supp = 0, resends = 0, gobacks = 0, completed = 0, ctl_sent = 0;
  bool operator==(const RxEngineStats& o) const {
    return unknown == o.unknown && zombie == o.zombie && duplicate == o.duplicate &&
           beyond == o.beyond && trimmed == o.trimmed && gbn_drop == o.gbn_drop &&
           nack_supp == o.nack_supp && cnp_supp == o.cnp_supp && resends == o.resends &&
           gobacks == o.gobacks && completed == o.completed && ctl_sent == o.ctl_sent;
  }
};

}  // namespace tonic
