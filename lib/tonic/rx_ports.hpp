// SPDX-License-Identifier: Apache-2.0
// Port packing of tonic_rx_engine for C++ testbenches (no Catch2): the
// packed structs of tonic_rx_pkg (rx_cfg_t, rx_desc_t, rx_dlv_t, rx_ctl_t,
// rx_stats_t) to and from Verilator's port words, and printers. Used by
// rx_tb.hpp (the lockstep testbench), bench_rx.cpp and the loopback tests.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

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
struct RxBits {
  std::vector<uint32_t> w;
  explicit RxBits(unsigned width) : w((width + 31) / 32, 0) {}
  void set(unsigned lsb, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; ++i)
      if ((v >> i) & 1) w[(lsb + i) / 32] |= 1u << ((lsb + i) % 32);
  }
  uint64_t get(unsigned lsb, unsigned width) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i)
      if ((w[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1) v |= uint64_t{1} << i;
    return v;
  }
};

/// Fields of a packed struct written from the MSB down.
class RxPacker {
 public:
  explicit RxPacker(unsigned width) : bits_(width), top_(width) {}
  RxPacker& put(unsigned width, uint64_t v) {
    top_ -= width;
    bits_.set(top_, width, v);
    return *this;
  }
  const RxBits& bits() const { return bits_; }

 private:
  RxBits bits_;
  unsigned top_;
};

/// Reads fields of a packed struct from the MSB down.
class RxUnpacker {
 public:
  RxUnpacker(RxBits b, unsigned width) : bits_(std::move(b)), top_(width) {}
  uint64_t take(unsigned width) {
    top_ -= width;
    return bits_.get(top_, width);
  }

 private:
  RxBits bits_;
  unsigned top_;
};

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

constexpr unsigned kCfgW = 138, kDescW = 105, kDlvW = 52, kCtlW = 102, kStatsW = 384;

inline RxBits pack_cfg(const RxCfg& c) {
  RxPacker p(kCfgW);
  p.put(1, c.close).put(16, c.flow).put(3, static_cast<uint8_t>(c.mode)).put(32, c.first)
      .put(32, c.count).put(16, c.node).put(16, c.ctx).put(20, c.msgid).put(1, c.delack).put(1, c.sack);
  return p.bits();
}
inline RxBits pack_desc(const RxDesc& d) {
  RxPacker p(kDescW);
  p.put(16, d.flow).put(32, d.idx).put(2, d.txid).put(1, d.ecn).put(1, d.trimmed).put(16, d.node)
      .put(16, d.ctx).put(20, d.msgid).put(1, d.last);
  return p.bits();
}
inline RxDlv unpack_dlv(const RxBits& b) {
  RxUnpacker u(b, kDlvW);
  RxDlv d;
  d.flow = static_cast<uint16_t>(u.take(16));
  d.idx = static_cast<uint32_t>(u.take(32));
  d.deliver = u.take(1) != 0;
  d.reason = static_cast<RxReason>(u.take(3));
  return d;
}
inline RxCtl unpack_ctl(const RxBits& b) {
  RxUnpacker u(b, kCtlW);
  RxCtl c;
  c.flow = static_cast<uint16_t>(u.take(16));
  c.type = static_cast<ref::RxType>(u.take(3));
  c.cum_ack = static_cast<uint32_t>(u.take(32));
  c.sack_valid = u.take(1) != 0;
  c.sack_idx = static_cast<uint32_t>(u.take(32));
  c.ecn = u.take(1) != 0;
  c.grant = static_cast<uint16_t>(u.take(16));
  c.go_back = u.take(1) != 0;
  return c;
}
inline RxEngineStats unpack_stats(const RxBits& b) {
  RxUnpacker u(b, kStatsW);
  RxEngineStats s;
  for (uint32_t* f : {&s.unknown, &s.zombie, &s.duplicate, &s.beyond, &s.trimmed, &s.gbn_drop,
                      &s.nack_supp, &s.cnp_supp, &s.resends, &s.gobacks, &s.completed, &s.ctl_sent})
    *f = static_cast<uint32_t>(u.take(32));
  return s;
}

inline std::string str(const RxCtl& c) {
  std::ostringstream o;
  o << "{flow " << c.flow << " type " << int(c.type) << " cum " << c.cum_ack << " sack " << c.sack_valid
    << ":" << c.sack_idx << " ecn " << c.ecn << " grant " << c.grant << " gb " << c.go_back << "}";
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
/// rx_* port): the loopback test and tonic-netsim's sender NIC.
inline RxCmd rx_cmd_of(const RxCtl& x) {
  RxCmd r;
  r.flow = x.flow;
  r.type = static_cast<RxType>(x.type);
  r.cum_ack = x.cum_ack;
  r.sack_valid = x.sack_valid;
  r.sack_idx = x.sack_idx;
  r.ecn = x.ecn;
  r.grant = x.grant;
  return r;
}

}  // namespace tonic
