// SPDX-License-Identifier: Apache-2.0
// WindowRef: segment-level reference of a flow's window state in the DD
// engine (wnd_start, SACK ring, cwnd, RTO, user state) for one protocol,
// checked after every event against tonic_top's trace ports.
//
// Plain C++ (no Verilator headers). For every rx event the testbench drove,
// it computes stage 1 itself (new window start, newly acked count,
// duplicate ack, SACK bit), runs the protocol's C++ twin on the result and
// applies the engine's rules: cwnd clamped to 1..W, RTO at least RtoMin,
// user state written when enabled. When the DUT's incoming stage 2 writes
// that flow two cycles later, cwnd, RTO and user state (ssthresh, dup acks,
// recovery state...) must be equal. Periodic calls are checked the same
// way, with the DUT's timeout flag as input. Two quantities are taken from
// the trace rather than modelled: next_new, which the generator advances
// cycle by cycle (the testbench checks it separately against the output
// stream), and the timer's expiry.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "tonic/port_fields.hpp"
#include "tonic/proto_io.hpp"
#include "tonic/seq.hpp"

namespace tonic {

/// A write of the window group, as read from a dd_trace_t port.
using WindowTrace = SysTrace;

/// The user state of a trace as the twins hold it (its low 128 bits: all of
/// it for a protocol of at most 16 B).
inline ref::ProtoUser user_state(const SysTrace& t) {
  ref::ProtoUser u;
  for (int i = 3; i >= 0; --i) {
    u <<= 32;
    u |= ref::ProtoUser(t.user[i]);
  }
  return u;
}

/// An rx event as driven (type codes of tonic_wire_pkg::rx_type_e).
struct WindowEvent {
  uint64_t cycle = 0;
  uint32_t flow = 0;
  uint8_t type = 0;
  uint32_t cum_ack = 0;
  bool sack_valid = false;
  uint32_t sack_idx = 0;
  bool must_accept = false;  // a valid ack: cum_ack <= highest segment sent
  // The echo it carries (rx_echo_*_i) and the DUT's now_o in `cycle`.
  bool echo_valid = false;
  bool echo_rtx = false;
  uint32_t echo_ts = 0;
  uint32_t now = 0;
  bool ecn = false;
};

/// A next-segment decision (tonic_dd_pkg::dd_ns_trace_t).
using NsTrace = SysNs;

template <class Twin>
class WindowRef {
 public:
  WindowRef(uint32_t flows, uint32_t w) : w_(w), flows_(flows) {}

  void add(uint32_t flow, uint32_t start, uint32_t seg_bytes = 0) {
    Flow& f = flows_[flow];
    f = Flow{};
    f.present = true;
    f.seg_bytes = seg_bytes;
    f.start = start;
    f.posted = start;
    f.next_new = start;
    f.wnd = Twin::kInitWnd;
    f.rto = Twin::kRtoInit;
    f.user = Twin::pack(typename Twin::User{});
  }
  void post(uint32_t flow, uint32_t posted) { flows_[flow].posted = posted; }
  void remove(uint32_t flow) { flows_[flow].present = false; }

  /// An rx event driven in `ev.cycle`; its stage 2 runs two cycles later.
  void rx(const WindowEvent& ev) { pending_.push_back(ev); }

  /// The next-segment decision of cycle `cycle`; call it before
  /// incoming() and periodic() of the same cycle (`ti`: this cycle's
  /// incoming trace). The engine's rule (docs/sender-core.md): the first
  /// pending retransmission at or after wnd_start if it lies below next_new
  /// and inside the window, else next_new if it is below the posted data
  /// and inside the window. It sees wnd_start after stage 1 of the event in
  /// stage 2 now, and cwnd, marks and posted as they were before this cycle.
  void next_seg(uint64_t cycle, const NsTrace& n, const WindowTrace& ti) {
    if (!n.valid) return;
    if (n.flow >= flows_.size()) return fail(cycle, "next-seg: flow id out of range", n.flow);
    Flow& f = flows_[n.flow];
    if (!f.present) return fail(cycle, "next-seg for a flow that is not present", n.flow);
    uint32_t start = f.start;
    if (ti.valid && ti.flow == n.flow && !pending_.empty() && pending_.front().cycle + 2 == cycle) {
      const WindowEvent& ev = pending_.front();
      if (ev.type <= 2 && seq_lt(start, ev.cum_ack)) start = ev.cum_ack;
    }
    bool found = false;
    uint32_t first = 0;
    for (uint32_t k = 0; k < w_ && !found; ++k) {
      if (f.pending[(start + k) % w_]) {
        found = true;
        first = start + k;
      }
    }
    const bool rtx_ok = found && seq_lt(first, f.next_new) && seq_lt(first, start + f.wnd);
    const bool new_ok = seq_lt(f.next_new, f.posted) && seq_lt(f.next_new, start + f.wnd);
    ++ns_checked_;
    if (!rtx_ok && !new_ok) return fail(cycle, "next-seg sent a segment while none was eligible", n.flow);
    const uint32_t want = rtx_ok ? first : f.next_new;
    if (n.rtx != rtx_ok || n.idx != want) {
      std::ostringstream os;
      os << "next-seg chose " << (n.rtx ? "retransmission " : "new segment ") << n.idx << ", ref "
         << (rtx_ok ? "retransmission " : "new segment ") << want;
      return fail(cycle, os.str(), n.flow);
    }
    // The retransmit count of the position: a new segment starts it at 0,
    // a retransmission adds 1 (saturating at 3).
    RtxCount& rc = f.rtx[want % w_];
    rc.prev = rc.now;
    rc.since = cycle;
    rc.now = rtx_ok ? std::min<uint8_t>(rc.now + 1, 3) : 0;
    if (rtx_ok) {
      f.pending[first % w_] = false;
      ns_rtx_ = {cycle, n.flow, first % w_};
    } else {
      ++f.next_new;
    }
  }

  /// The incoming stage-2 trace of cycle `cycle` (valid or not), with the
  /// periodic trace of the same cycle: a call merged into stage 2's write
  /// (tp.merged, same flow) is computed from the same state and merged by
  /// the engine's rules (docs/protocol-api.md).
  void incoming(uint64_t cycle, const WindowTrace& t, const WindowTrace& tp = WindowTrace{}) {
    // The event driven two cycles ago, if any.
    while (!pending_.empty() && pending_.front().cycle + 2 < cycle) pending_.pop_front();
    const bool have = !pending_.empty() && pending_.front().cycle + 2 == cycle;
    WindowEvent ev;
    if (have) {
      ev = pending_.front();
      pending_.pop_front();
    }
    const bool expect = have && accepted(ev, t.next_new1, t.valid);
    if (!have || !expect) {
      if (t.valid) fail(cycle, "incoming stage 2 ran without an accepted event", t.flow);
      return;
    }
    if (!t.valid) return fail(cycle, "an accepted event did not reach incoming stage 2", ev.flow);
    if (t.flow != ev.flow) return fail(cycle, "incoming stage 2 ran for another flow", t.flow);
    Flow& f = flows_[ev.flow];
    const bool acks = ev.type <= 2;  // ACK, SACK, NACK
    const uint32_t old = f.start;
    const uint32_t nn1 = t.next_new1;
    const uint32_t nstart = (acks && seq_lt(old, ev.cum_ack)) ? ev.cum_ack : old;
    const uint32_t slide = nstart - old;
    // The protocol's pending_i is the state at the start of the cycle: a
    // retransmission next-seg made in this cycle still shows as pending.
    // (A periodic call merged into the event sees it after that
    // retransmission, as a call on its own does.)
    const ref::ProtoRing pending_after_ns = f.pending;
    ref::ProtoRing pending_before = f.pending;
    if (ns_rtx_.cycle == cycle && ns_rtx_.flow == ev.flow) pending_before[ns_rtx_.pos] = true;
    uint32_t prev = 0;
    for (uint32_t k = 0; k < slide && k < w_; ++k) {
      const uint32_t pos = (old + k) % w_;
      prev += f.acked[pos];
      f.acked[pos] = false;
      f.pending[pos] = false;  // slid positions stop being pending
    }
    const bool sack_ok = ev.sack_valid && seq_le(nstart, ev.sack_idx) && seq_lt(ev.sack_idx, nn1);
    const bool sack_new = sack_ok && !f.acked[ev.sack_idx % w_];
    if (sack_ok) f.acked[ev.sack_idx % w_] = true;

    ref::ProtoIn in;
    in.w = w_;
    in.wnd_start = nstart;
    in.wnd = f.wnd;
    in.next_new = t.next_new;
    in.posted = f.posted;
    in.flight = (t.next_new - nstart) & cnt_mask();
    in.acked = f.acked;
    in.pending = pending_before;
    in.rto = f.rto;
    in.user = f.user;
    in.type = ev.type;
    in.cum_ack = ev.cum_ack;
    in.sack_valid = ev.sack_valid;
    in.sack_idx = ev.sack_idx;
    in.old_start = old;
    in.newly_acked = (slide - prev + (sack_new ? 1 : 0)) & cnt_mask();
    in.dup = (ev.type == 0 || ev.type == 1) && ev.cum_ack == old && nn1 != old;
    in.ecn = ev.ecn;
    // info_i (ev_info_t): stage 2 runs two cycles after the event entered.
    in.info.flow = static_cast<uint16_t>(ev.flow);
    in.info.seg_bytes = static_cast<uint16_t>(f.seg_bytes);
    in.info.rtt_valid = ev.echo_valid;
    in.info.echo_rtx = ev.echo_rtx;
    in.info.echo_ts = ev.echo_ts;
    in.info.rtt = ev.now + 2 - ev.echo_ts;
    in.info.ecn_segs = ev.ecn ? static_cast<uint16_t>(in.newly_acked) : uint16_t{0};
    in.info.acked_bytes = in.newly_acked * f.seg_bytes;
    in.info.rtx_cnt = rtx_count(f, ev, nn1);
    if (t.rtx_cnt != in.info.rtx_cnt) {
      std::ostringstream os;
      os << "incoming: info.rtx_cnt " << t.rtx_cnt << " (ref " << unsigned{in.info.rtx_cnt} << ")";
      fail(cycle, os.str(), ev.flow);
    }
    rtx_named_ += in.info.rtx_cnt != 0;
    rtx_named_max_ = std::max<uint32_t>(rtx_named_max_, in.info.rtx_cnt);
    f.start = nstart;
    const ref::ProtoOut o = Twin::incoming(in);
    const bool merged = tp.valid && tp.merged;
    if (merged && tp.flow != ev.flow) return fail(cycle, "a periodic call merged into another flow's event", tp.flow);
    ref::ProtoOut p;
    if (merged) {
      // The call sees the state stage 2 sees (the event's stage-1 effects
      // included, none of its outputs); an ack beats a timeout.
      ref::ProtoIn pin = in;
      pin.pending = pending_after_ns;
      pin.timeout = false;
      p = Twin::periodic(pin);
      ++merged_;
    }
    if (o.mark_we) mark(f, o.mark_lo, o.mark_hi, nstart, t.next_new);
    if (merged && p.mark_we) mark(f, p.mark_lo, p.mark_hi, nstart, t.next_new);
    if (!merged) {
      apply(f, o);
    } else {
      // cwnd and RTO: stage 2's where it writes them, else the call's; the
      // user state: the protocol's merge when both write it.
      const ref::ProtoUser old_user = f.user;
      if (!o.wnd_we) apply_wnd(f, p);
      if (!o.rto_we) apply_rto(f, p);
      apply(f, o);
      if (o.user_we && p.user_we) {
        f.user = Twin::merge(ev.type, old_user, o.user, p.user);
      } else if (p.user_we) {
        f.user = p.user;
      }
    }
    compare(cycle, merged ? "incoming (merged with a periodic call)" : "incoming", ev.flow, f, t);
  }

  /// The periodic trace of cycle `cycle` (a call of the protocol module).
  void periodic(uint64_t cycle, const WindowTrace& t) {
    if (!t.valid || t.merged) return;  // a merged call was checked with its event (incoming())
    Flow& f = flows_[t.flow];
    if (!f.present) return fail(cycle, "periodic call for a flow that is not present", t.flow);
    ref::ProtoIn in;
    in.w = w_;
    in.wnd_start = f.start;
    in.wnd = f.wnd;
    in.next_new = t.next_new;
    in.posted = f.posted;
    in.flight = (t.next_new - f.start) & cnt_mask();
    if (in.flight == 0) return fail(cycle, "periodic call with nothing in flight", t.flow);
    in.acked = f.acked;
    in.pending = f.pending;
    in.rto = f.rto;
    in.user = f.user;
    in.timeout = t.timeout;
    const ref::ProtoOut o = Twin::periodic(in);
    if (o.mark_we) mark(f, o.mark_lo, o.mark_hi, f.start, t.next_new);
    apply(f, o);
    timeouts_ += t.timeout;
    compare(cycle, "periodic", t.flow, f, t);
  }

  uint64_t checked() const { return checked_; }
  uint64_t ns_checked() const { return ns_checked_; }
  uint64_t timeouts() const { return timeouts_; }
  uint64_t merged() const { return merged_; }
  /// Checked events whose info.rtx_cnt was not 0 (the rule was exercised).
  uint64_t rtx_named() const { return rtx_named_; }
  /// The largest info.rtx_cnt checked.
  uint32_t rtx_named_max() const { return rtx_named_max_; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }

 private:
  // A ring position's retransmit count, with the one before its last change
  // (stage 1 reads the counts as they were two cycles before stage 2).
  struct RtxCount {
    uint8_t now = 0, prev = 0;
    uint64_t since = 0;  // the cycle of the last change
  };
  struct Flow {
    std::vector<RtxCount> rtx = std::vector<RtxCount>(ref::kProtoMaxW);
    bool present = false;
    uint32_t start = 0, posted = 0, wnd = 0, rto = 0, next_new = 0, seg_bytes = 0;
    ref::ProtoRing acked;
    ref::ProtoRing pending;  // ring positions pending retransmission
    ref::ProtoUser user;
  };

  uint32_t cnt_mask() const { return (2 * w_) - 1; }

  // info.rtx_cnt (tonic_dd_incoming1): the retransmit count of the segment
  // the event names (a SACKed one, else a NACK's cum_ack, else cum_ack - 1)
  // while its position still holds it (next_new - W <= s < next_new at
  // stage 1), as next-seg had left it by the cycle the event was driven.
  uint8_t rtx_count(const Flow& f, const WindowEvent& ev, uint32_t nn1) const {
    if (ev.type > ref::kRxNack) return 0;
    const uint32_t s = ev.sack_valid ? ev.sack_idx : ev.type == ref::kRxNack ? ev.cum_ack : ev.cum_ack - 1;
    const uint32_t d = nn1 - s;
    if (d == 0 || d > w_) return 0;
    const RtxCount& rc = f.rtx[s % w_];
    return rc.since <= ev.cycle ? rc.now : rc.prev;
  }

  // Stage 1's acceptance rules (the DUT counts the others as bad input).
  // next_new at stage 1 is known only when the DUT traced the event; an ack
  // that the testbench knows to be valid must be accepted in any case.
  bool accepted(const WindowEvent& ev, uint32_t nn1, bool traced) const {
    const Flow& f = flows_[ev.flow];
    if (!f.present || ev.type > 5) return false;
    if (ev.type > 2 || ev.must_accept) return true;
    return traced && seq_le(ev.cum_ack, nn1);
  }

  // The engine's mark rule (tonic_dd_proto_rules.svh): the unacked
  // positions of [lo, hi) clipped to [from, to) become pending. Each end is
  // placed by serial compares before the window, beyond it (from + W or
  // later) or inside it; lo before the window wins over beyond it, hi
  // beyond it over before it (they differ only 2^31 away).
  void mark(Flow& f, uint32_t lo, uint32_t hi, uint32_t from, uint32_t to) const {
    const uint32_t fw = from + w_;
    const bool lo_before = seq_lt(lo, from), lo_beyond = !seq_lt(lo, fw);
    const bool hi_before = !seq_lt(from, hi), hi_beyond = !seq_lt(hi, fw);
    const uint32_t span = to - from;
    for (uint32_t off = 0; off < span && off < w_; ++off) {
      const bool ge_lo = lo_before || (!lo_beyond && off >= lo - from);
      const bool lt_hi = hi_beyond || (!hi_before && off < hi - from);
      const uint32_t pos = (from + off) % w_;
      if (ge_lo && lt_hi && !f.acked[pos]) f.pending[pos] = true;
    }
  }

  void apply_wnd(Flow& f, const ref::ProtoOut& o) const {
    if (o.wnd_we) f.wnd = o.wnd == 0 ? 1 : (o.wnd > w_ ? w_ : o.wnd);
  }
  void apply_rto(Flow& f, const ref::ProtoOut& o) const {
    if (o.rto_we) f.rto = o.rto < Twin::kRtoMin ? Twin::kRtoMin : o.rto;
  }
  void apply(Flow& f, const ref::ProtoOut& o) const {
    apply_wnd(f, o);
    apply_rto(f, o);
    if (o.user_we) f.user = o.user;
  }

  void compare(uint64_t cycle, const char* what, uint32_t flow, const Flow& f, const WindowTrace& t) {
    ++checked_;
    // The trace shows the low 128 bits of the user state (dd_trace_t.user).
    const ref::ProtoUser tu = user_state(t);
    ref::ProtoUser low = f.user;
    if constexpr (Twin::kUserW > 128) low = (low << (ref::kProtoMaxUserW - 128)) >> (ref::kProtoMaxUserW - 128);
    if (t.wnd == f.wnd && t.rto == f.rto && tu == low) return;
    std::ostringstream os;
    os << what << ": cwnd " << t.wnd << " (ref " << f.wnd << "), rto " << t.rto << " (ref " << f.rto
       << "), user " << ref::to_hex(tu, Twin::kUserW) << " (ref " << ref::to_hex(low, Twin::kUserW)
       << ")";
    fail(cycle, os.str(), flow);
  }

  void fail(uint64_t cycle, const std::string& what, uint32_t flow) {
    if (errors_++ == 0) {
      first_error_ = "cycle " + std::to_string(cycle) + ", flow " + std::to_string(flow) + ": " + what;
    }
  }

  uint32_t w_;
  std::vector<Flow> flows_;
  std::deque<WindowEvent> pending_;
  uint64_t checked_ = 0, ns_checked_ = 0, timeouts_ = 0, errors_ = 0, merged_ = 0, rtx_named_ = 0;
  uint32_t rtx_named_max_ = 0;
  // The last retransmission next-seg made (cycle, flow, ring position).
  struct NsRtx {
    uint64_t cycle = ~uint64_t{0};
    uint32_t flow = 0, pos = 0;
  } ns_rtx_;
  std::string first_error_;
};

}  // namespace tonic
