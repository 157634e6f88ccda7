// SPDX-License-Identifier: Apache-2.0
// Port types and drivers of tonic_top shared by its testbenches
// (TonicTb and SysTb (tonic/tonic_tb.hpp, tonic/sys_tb.hpp), the live-lock
// rig): the control and rx beats, a segment address that left, the reset
// and the wait for the DD engine's init sweep.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "tonic/harness.hpp"
#include "tonic/stats_layout.hpp"  // DdStat, CreditStat: generated from tonic_dd_pkg
#include "tonic/wire_codes.hpp"    // RxType, CtrlOp: generated from tonic_wire_pkg, tonic_dd_pkg

namespace tonic {

/// The bad-input counters of stats_o with their dd_stats_t names
/// (docs/robustness.md), for reports.
inline constexpr std::pair<const char*, DdStat> kDdBadInputStats[] = {
    {name_of(DdStat::kRxUnknownFlow), DdStat::kRxUnknownFlow},
    {name_of(DdStat::kRxFlowRange), DdStat::kRxFlowRange},
    {name_of(DdStat::kRxBadType), DdStat::kRxBadType},
    {name_of(DdStat::kRxBadAck), DdStat::kRxBadAck},
    {name_of(DdStat::kRxStaleAck), DdStat::kRxStaleAck},
    {name_of(DdStat::kRxBadSack), DdStat::kRxBadSack},
    {name_of(DdStat::kCtrlAddPresent), DdStat::kCtrlAddPresent},
    {name_of(DdStat::kCtrlAbsent), DdStat::kCtrlAbsent},
    {name_of(DdStat::kCtrlPostRange), DdStat::kCtrlPostRange},
    {name_of(DdStat::kCtrlBadOp), DdStat::kCtrlBadOp},
    {name_of(DdStat::kCtrlFlowRange), DdStat::kCtrlFlowRange},
    {name_of(DdStat::kCtrlRemoveUnacked), DdStat::kCtrlRemoveUnacked},
    {name_of(DdStat::kNoteDrops), DdStat::kNoteDrops},
    {name_of(DdStat::kWdogTrips), DdStat::kWdogTrips},
};

/// One counter of a tonic_top model's stats_o.
template <class Model>
uint32_t dd_stat(const Model& d, DdStat s) {
  return d.stats_o[static_cast<int>(s)];
}


/// One control command (ctrl_* port).
struct CtrlCmd {
  CtrlOp op = CtrlOp::kAdd;
  uint32_t flow = 0;
  uint32_t seq = 0;
  uint32_t len = 0;
};

/// One incoming control packet (rx_* port).
struct RxCmd {
  uint32_t flow = 0;
  RxType type = RxType::kAck;
  uint32_t cum_ack = 0;
  bool sack_valid = false;
  uint32_t sack_idx = 0;
  bool ecn = false;
  uint16_t grant = 0;
  // The echo of a transmission (tonic_wire_pkg::echo_t): a transmit stamp
  // (seg_ts_o) and its retransmit flag.
  bool echo_valid = false;
  bool echo_rtx = false;
  uint32_t echo_ts = 0;
};

/// Whether a command type carries an echo (echo_valid, echo_rtx, echo_ts).
template <class T, class = void>
struct HasEcho : std::false_type {};
template <class T>
struct HasEcho<T, std::void_t<decltype(std::declval<const T&>().echo_ts)>> : std::true_type {};

/// A segment address that left (seg_* port) and the cycle it left in.
struct SegOut {
  uint64_t cycle = 0;
  uint32_t flow = 0;
  uint32_t idx = 0;
  bool rtx = false;
  uint32_t len = 0;
  uint32_t ts = 0;  // transmit stamp (seg_ts_o)
};

/// Idle inputs, reset, then the DD engine's init sweep: FlowCount cycles
/// with ctrl_ready_o low (docs/sender-core.md), so that cycle counts in
/// tests start with an engine that takes control. Throws when ctrl_ready_o
/// is still low after `max_cycles`.
template <class Model>
void reset_and_wait_init(Harness<Model>& h, uint64_t max_cycles, const char* who) {
  auto& d = h.dut();
  d.ctrl_valid_i = 0;
  d.rx_valid_i = 0;
  d.seg_ready_i = 1;
  d.note_ready_i = 1;
  d.probe_flow_i = 0;
  h.reset();
  h.eval();
  for (uint64_t i = 0; i < max_cycles && !d.ctrl_ready_o; ++i) {
    h.tick();
    h.eval();
  }
  if (!d.ctrl_ready_o) throw std::runtime_error(std::string(who) + ": ctrl_ready_o still low after the init sweep");
}

/// Drives the control port from the head of a queue of commands with fields
/// op, flow, seq, len (valid iff the queue is not empty).
template <class Model, class Queue>
void drive_ctrl(Model& d, const Queue& q) {
  d.ctrl_valid_i = !q.empty();
  if (q.empty()) return;
  const auto& k = q.front();
  d.ctrl_op_i = static_cast<uint8_t>(k.op);
  d.ctrl_flow_i = k.flow;
  d.ctrl_seq_i = k.seq;
  d.ctrl_len_i = k.len;
}

/// Drives one rx beat (valid) from a command with fields flow, type,
/// cum_ack, sack_valid, sack_idx, and the ECN echo and grant given.
template <class Model, class Cmd>
void drive_rx_beat(Model& d, const Cmd& r, bool ecn, uint16_t grant) {
  d.rx_valid_i = 1;
  d.rx_flow_i = r.flow;
  d.rx_type_i = static_cast<uint8_t>(r.type);
  d.rx_cum_ack_i = r.cum_ack;
  d.rx_sack_valid_i = r.sack_valid;
  d.rx_sack_idx_i = r.sack_idx;
  d.rx_ecn_i = ecn;
  d.rx_grant_i = grant;
  if constexpr (HasEcho<Cmd>::value) {
    d.rx_echo_valid_i = r.echo_valid;
    d.rx_echo_rtx_i = r.echo_rtx;
    d.rx_echo_ts_i = r.echo_ts;
  } else {
    d.rx_echo_valid_i = 0;
    d.rx_echo_rtx_i = 0;
    d.rx_echo_ts_i = 0;
  }
}

}  // namespace tonic
