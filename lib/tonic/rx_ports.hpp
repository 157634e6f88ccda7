// SPDX-License-Identifier: Apache-2.0
// Port packing of tonic_rx_engine for C++ testbenches (no Catch2): the
// packed structs of tonic_rx_pkg (rx_cfg_t, rx_desc_t, rx_dlv_t, rx_ctl_t,
// rx_stats_t) to and from Verilator's port words, at the bit positions
// generated from the packages (tonic/rx_layout.hpp), and printers. Used by
// rx_tb.hpp (the lockstep testbench), bench_rx.cpp and the loopback tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tonic/rx_layout.hpp"  // generated: the bit positions of the packed structs
#include "tonic/rx_types.hpp"
#include "tonic/top_drive.hpp"  // RxCmd

namespace tonic {

/// The engine configurations the tests and the benchmark build
/// (rtl/manifest/rx.json): rx_16x32 has RxEngineParams' defaults.
inline RxEngineParams rx_params_16x32() { return RxEngineParams{}; }
/// rx_1024x128.
inline RxEngineParams rx_params_1024x128() {
  RxEngineParams p;
  p.flows = 1024;
  p.w = 128;
  p.ack_delay = 2000;
  p.nack_gap = 1000;
  p.cnp_gap = 5000;
  p.pull_gap = 12;
  p.resend_timeout = 10000;
  p.go_back_after = 3;
  return p;
}

/// A bit vector packed LSB first in 32-bit words (Verilator's layout).
/// Fields are read and written a word at a time (the ports are wide: a
/// bit-by-bit loop cost a third of bench_rx's time).
struct RxBits {
  std::vector<uint32_t> w;
  explicit RxBits(unsigned width) : w((width + 31) / 32, 0) {}
  /// Bits [lsb, lsb + width) = v (width <= 64).
  void set(unsigned lsb, unsigned width, uint64_t v) {
    for (unsigned done = 0; done < width;) {
      const unsigned bit = lsb + done, off = bit % 32, n = std::min(32 - off, width - done);
      const uint32_t mask = (n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u) << off;
      uint32_t& word = w[bit / 32];
      word = (word & ~mask) | ((static_cast<uint32_t>(v >> done) << off) & mask);
      done += n;
    }
  }
  /// Bits [lsb, lsb + width) (width <= 64).
  uint64_t get(unsigned lsb, unsigned width) const {
    uint64_t v = 0;
    for (unsigned done = 0; done < width;) {
      const unsigned bit = lsb + done, off = bit % 32, n = std::min(32 - off, width - done);
      const uint32_t mask = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
      v |= static_cast<uint64_t>((w[bit / 32] >> off) & mask) << done;
      done += n;
    }
    return v;
  }
};

/// A field of a packed port word.
inline void put(RxBits& b, layout::PortField f, uint64_t v) { b.set(f.lsb, f.width, v); }
inline uint64_t get(const RxBits& b, layout::PortField f) { return b.get(f.lsb, f.width); }
/// A field inside a struct field (echo_t in rx_ctl_t.echo, ...).
constexpr layout::PortField inner(layout::PortField outer, layout::PortField f, unsigned off = 0) {
  return layout::PortField{outer.lsb + off + f.lsb, f.width};
}

template <class Port>
void rx_write_port(Port& port, const RxBits& b) {
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = b.w[0];
    if (b.w.size() > 1) v |= uint64_t{b.w[1]} << 32;
    port = static_cast<Port>(v);
  } else {
    for (size_t i = 0; i < b.w.size(); ++i) port[i] = b.w[i];
  }
}
template <class Port>
RxBits rx_read_port(const Port& port, unsigned width) {
  RxBits b(width);
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t v = port;
    b.w[0] = static_cast<uint32_t>(v);
    if (b.w.size() > 1) b.w[1] = static_cast<uint32_t>(v >> 32);
  } else {
    for (size_t i = 0; i < b.w.size(); ++i) b.w[i] = port[i];
  }
  return b;
}

// Widths and field positions: tonic/rx_layout.hpp, generated from
// tonic_rx_pkg and tonic_wire_pkg (scripts/rtl-types.mjs).
constexpr unsigned kCfgW = layout::rx_cfg::kWidth, kDescW = layout::rx_desc::kWidth,
                   kDlvW = layout::rx_dlv::kWidth, kCtlW = layout::rx_ctl::kWidth,
                   kStatsW = layout::rx_stats::kWidth;
static_assert(layout::rx_ctl::kBlks.width == kSackBlocks * layout::sack_blk::kWidth,
              "rx_ctl_t.blks: kSackBlocks sack_blk_t");

inline RxBits pack_cfg(const RxCfg& c) {
  namespace L = layout::rx_cfg;
  RxBits b(kCfgW);
  put(b, L::kOp, c.close);
  put(b, L::kFlow, c.flow);
  put(b, L::kMode, static_cast<uint8_t>(c.mode));
  put(b, L::kFirst, c.first);
  put(b, L::kCount, c.count);
  put(b, L::kNode, c.node);
  put(b, L::kCtx, c.ctx);
  put(b, L::kMsgid, c.msgid);
  put(b, L::kDelack, c.delack);
  put(b, L::kSack, c.sack);
  put(b, L::kCeStateAcks, c.ce_state_acks);
  return b;
}
inline RxBits pack_desc(const RxDesc& d) {
  namespace L = layout::rx_desc;
  RxBits b(kDescW);
  put(b, L::kFlow, d.flow);
  put(b, L::kIdx, d.idx);
  put(b, L::kTxid, d.txid);
  put(b, L::kEcn, d.ecn);
  put(b, L::kTrimmed, d.trimmed);
  put(b, L::kNode, d.node);
  put(b, L::kCtx, d.ctx);
  put(b, L::kMsgid, d.msgid);
  put(b, L::kLast, d.last);
  put(b, L::kTs, d.ts);
  put(b, L::kRtx, d.rtx);
  return b;
}
inline RxDlv unpack_dlv(const RxBits& b) {
  namespace L = layout::rx_dlv;
  RxDlv d;
  d.flow = static_cast<uint16_t>(get(b, L::kFlow));
  d.idx = static_cast<uint32_t>(get(b, L::kIdx));
  d.deliver = get(b, L::kDeliver) != 0;
  d.reason = static_cast<RxReason>(get(b, L::kReason));
  return d;
}
inline RxCtl unpack_ctl(const RxBits& b) {
  namespace L = layout::rx_ctl;
  namespace E = layout::echo;
  namespace K = layout::sack_blk;
  RxCtl c;
  c.flow = static_cast<uint16_t>(get(b, L::kFlow));
  c.type = static_cast<ref::RxType>(get(b, L::kTyp));
  c.cum_ack = static_cast<uint32_t>(get(b, L::kCumAck));
  c.sack_valid = get(b, L::kSackValid) != 0;
  c.sack_idx = static_cast<uint32_t>(get(b, L::kSackIdx));
  c.ecn = get(b, L::kEcn) != 0;
  c.grant = static_cast<uint16_t>(get(b, L::kGrant));
  c.go_back = get(b, L::kGoBack) != 0;
  c.echo.valid = get(b, inner(L::kEcho, E::kValid)) != 0;
  c.echo.rtx = get(b, inner(L::kEcho, E::kRtx)) != 0;
  c.echo.ts = static_cast<uint32_t>(get(b, inner(L::kEcho, E::kTs)));
  for (unsigned i = 0; i < kSackBlocks; ++i) {  // sack_blks_t [SackBlocks-1:0]: [0] least significant
    c.blks[i].valid = get(b, inner(L::kBlks, K::kValid, i * K::kWidth)) != 0;
    c.blks[i].lo = static_cast<uint32_t>(get(b, inner(L::kBlks, K::kLo, i * K::kWidth)));
    c.blks[i].hi = static_cast<uint32_t>(get(b, inner(L::kBlks, K::kHi, i * K::kWidth)));
  }
  return c;
}
inline RxEngineStats unpack_stats(const RxBits& b) {
  namespace L = layout::rx_stats;
  RxEngineStats s;
  auto w = [&](layout::PortField f) { return static_cast<uint32_t>(get(b, f)); };
  s.unknown = w(L::kUnknown);
  s.zombie = w(L::kZombie);
  s.duplicate = w(L::kDuplicate);
  s.beyond = w(L::kBeyond);
  s.trimmed = w(L::kTrimmed);
  s.gbn_drop = w(L::kGbnDrop);
  s.nack_supp = w(L::kNackSupp);
  s.cnp_supp = w(L::kCnpSupp);
  s.resends = w(L::kResends);
  s.gobacks = w(L::kGobacks);
  s.completed = w(L::kCompleted);
  s.ctl_sent = w(L::kCtlSent);
  return s;
}

inline std::string str(const RxCtl& c) {
  std::ostringstream o;
  o << "{flow " << c.flow << " type " << int(c.type) << " cum " << c.cum_ack << " sack " << c.sack_valid
    << ":" << c.sack_idx << " ecn " << c.ecn << " grant " << c.grant << " gb " << c.go_back << " echo "
    << str(c.echo) << " blks " << str(c.blks) << "}";
  return o.str();
}
inline std::string str(const RxDlv& d) {
  std::ostringstream o;
  o << "{flow " << d.flow << " idx " << d.idx << " deliver " << d.deliver << " reason " << int(d.reason)
    << "}";
  return o.str();
}
inline std::string str(const RxEngineStats& s) {
  std::ostringstream o;
  o << "{unk " << s.unknown << " zom " << s.zombie << " dup " << s.duplicate << " bey " << s.beyond
    << " trim " << s.trimmed << " gbn " << s.gbn_drop << " nsup " << s.nack_supp << " csup "
    << s.cnp_supp << " res " << s.resends << " gb " << s.gobacks << " done " << s.completed
    << " sent " << s.ctl_sent << "}";
  return o.str();
}

/// A receiver control packet as the sender's rx input beat (tonic_top's
/// rx_* port): the loopback test and tonic-netsim's sender NIC. The echo
/// goes to rx_echo_*_i; the SACK blocks are not carried: the rx input has
/// no port for them yet.
inline RxCmd rx_cmd_of(const RxCtl& x) {
  RxCmd r;
  r.flow = x.flow;
  r.type = static_cast<RxType>(x.type);
  r.cum_ack = x.cum_ack;
  r.sack_valid = x.sack_valid;
  r.sack_idx = x.sack_idx;
  r.ecn = x.ecn;
  r.grant = x.grant;
  r.echo_valid = x.echo.valid;
  r.echo_rtx = x.echo.rtx;
  r.echo_ts = x.echo.ts;
  return r;
}

}  // namespace tonic
