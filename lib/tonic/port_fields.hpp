// SPDX-License-Identifier: Apache-2.0
// The one parser of tonic_top's packed-struct output ports: status_o
// (tonic_dd_pkg::status_t, docs/robustness.md), trace_in_o / trace_per_o
// (dd_trace_t) and trace_ns_o (dd_ns_trace_t). The bit positions come from
// tonic/port_layout.hpp and the cause codes from tonic/wire_codes.hpp, both
// generated from the package by scripts/rtl-types.mjs, so nothing here
// restates the layout.
#pragma once

#include <cstdint>

#include "tonic/port_layout.hpp"
#include "tonic/wire_codes.hpp"

namespace tonic {

/// A field (width <= 32) of a Verilated wide port (an array of 32-bit words).
template <class Wide>
uint32_t port_field(const Wide& w, layout::PortField f) {
  uint64_t v = w[f.lsb / 32] >> (f.lsb % 32);
  if (f.lsb % 32 + f.width > 32) v |= static_cast<uint64_t>(w[f.lsb / 32 + 1]) << (32 - f.lsb % 32);
  return static_cast<uint32_t>(v & (f.width >= 32 ? 0xFFFFFFFFull : ((1ull << f.width) - 1)));
}

/// A field (width <= 32) of a port of at most 64 bits.
inline uint32_t port_field(uint64_t w, layout::PortField f) {
  return static_cast<uint32_t>((w >> f.lsb) & (f.width >= 32 ? 0xFFFFFFFFull : ((1ull << f.width) - 1)));
}

/// One word of status_o: rx and ctrl causes, credit, note and watchdog events.
struct SysStatus {
  bool valid = false;
  RxErr rx = RxErr::kNone;
  uint32_t rx_flow = 0;
  CtrlErr ctrl = CtrlErr::kNone;
  uint32_t ctrl_flow = 0;
  bool pull_stale = false, tok_excess = false;
  uint32_t cred_flow = 0;
  bool rate_clamp = false;
  uint32_t rate_flow = 0;
  bool note_drop = false;
  uint32_t note_flow = 0;
  bool watchdog = false;
};

/// A dd_trace_t port (trace_in_o, trace_per_o): one write of incoming
/// stage 2 or one periodic call, with the values after it.
struct SysTrace {
  bool valid = false;
  bool merged = false;  // periodic: the call was merged into stage 2's write (trace_in_o)
  bool timeout = false;
  uint32_t flow = 0;
  uint32_t next_new = 0;
  uint32_t next_new1 = 0;
  uint32_t wnd = 0;
  uint32_t rto = 0;
  uint32_t rtx_cnt = 0;  // incoming: info_i.rtx_cnt of the event
  uint32_t user[4] = {0, 0, 0, 0};  // user state, least significant word first

  /// Bits [lo, lo + n) of the user state (n <= 32).
  uint32_t user_bits(unsigned lo, unsigned n) const {
    uint64_t v = user[lo / 32] >> (lo % 32);
    if (lo % 32 + n > 32 && lo / 32 < 3) v |= static_cast<uint64_t>(user[lo / 32 + 1]) << (32 - lo % 32);
    return static_cast<uint32_t>(v & (n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1)));
  }
};

/// One next-seg decision (dd_ns_trace_t on trace_ns_o).
struct SysNs {
  bool valid = false;
  bool rtx = false;
  uint32_t flow = 0;
  uint32_t idx = 0;
};

/// Parses a dd_trace_t port.
template <class Wide>
SysTrace sys_trace(const Wide& w) {
  namespace L = layout::dd_trace;
  static_assert(L::kUser.lsb == 0 && L::kUser.width == 128, "dd_trace_t.user: the 128 low bits");
  SysTrace t;
  t.valid = port_field(w, L::kValid);
  if (!t.valid) return t;
  t.merged = port_field(w, L::kMerged);
  t.timeout = port_field(w, L::kTimeout);
  t.flow = port_field(w, L::kFlow);
  t.next_new = port_field(w, L::kNextNew);
  t.next_new1 = port_field(w, L::kNextNew1);
  t.wnd = port_field(w, L::kWnd);
  t.rto = port_field(w, L::kRto);
  t.rtx_cnt = port_field(w, L::kRtxCnt);
  for (int i = 0; i < 4; ++i) t.user[i] = w[i];
  return t;
}

/// Parses status_o.
template <class Wide>
SysStatus sys_status(const Wide& w) {
  namespace L = layout::status;
  SysStatus t;
  t.valid = port_field(w, L::kValid);
  if (!t.valid) return t;
  t.watchdog = port_field(w, L::kWatchdog);
  t.note_flow = port_field(w, L::kNoteFlow);
  t.note_drop = port_field(w, L::kNoteDrop);
  t.rate_flow = port_field(w, L::kRateFlow);
  t.rate_clamp = port_field(w, L::kRateClamp);
  t.cred_flow = port_field(w, L::kCredFlow);
  t.tok_excess = port_field(w, L::kTokExcess);
  t.pull_stale = port_field(w, L::kPullStale);
  t.ctrl_flow = port_field(w, L::kCtrlFlow);
  t.ctrl = static_cast<CtrlErr>(port_field(w, L::kCtrl));
  t.rx_flow = port_field(w, L::kRxFlow);
  t.rx = static_cast<RxErr>(port_field(w, L::kRx));
  return t;
}

/// Parses trace_ns_o.
inline SysNs sys_ns(uint64_t w) {
  namespace L = layout::ns_trace;
  static_assert(L::kWidth <= 64, "dd_ns_trace_t fits a 64-bit port");
  SysNs n;
  n.valid = port_field(w, L::kValid);
  n.rtx = port_field(w, L::kRtx);
  n.flow = port_field(w, L::kFlow);
  n.idx = port_field(w, L::kIdx);
  return n;
}

}  // namespace tonic
