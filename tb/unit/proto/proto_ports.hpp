// SPDX-License-Identifier: Apache-2.0
// The ports of a Verilated tonic_proto_incoming / tonic_proto_periodic model
// (rtl/dd/tonic_proto_ports.svh) from and to ProtoIn / ProtoOut
// (tb/common/ref/proto_io.hpp): every input driven, every output read,
// the credit outputs included. Shared by the protocols' tests
// (protocols/<name>/tests/: the twin tests through proto_tb.hpp, and the
// protocols' own flow models, e.g. a rate protocol's tests/roce_flow.hpp).
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <verilated.h>

#include "tonic/port_layout.hpp"
#include "tonic/proto_io.hpp"

namespace tonic::prototb {

using ref::ProtoIn;
using ref::ProtoOut;
namespace proto = ref::proto;

// Scalar ports are CData/SData/IData/QData, wider ones VlWide.

template <class P, std::size_t M>
void put_bits(P& port, const std::bitset<M>& b, unsigned width) {
  static_assert(std::is_integral_v<P>, "scalar Verilator port");
  uint64_t v = 0;
  for (unsigned i = 0; i < width && i < 64; ++i) v |= static_cast<uint64_t>(b[i]) << i;
  port = static_cast<P>(v);
}
template <std::size_t N, std::size_t M>
void put_bits(VlWide<N>& port, const std::bitset<M>& b, unsigned width) {
  for (std::size_t k = 0; k < N; ++k) {
    uint32_t v = 0;
    for (unsigned j = 0; j < 32; ++j) {
      const std::size_t i = k * 32 + j;
      if (i < width && i < M && b[i]) v |= uint32_t{1} << j;
    }
    port[k] = v;
  }
}
/// A count port (CntW bits: wnd_i, flight_i, newly_acked_i): the value cut
/// to the port's width, as the twins cut it (proto::counts).
template <class P>
void put_count(P& port, uint32_t v, unsigned cnt_w) {
  static_assert(std::is_integral_v<P>, "scalar Verilator port");
  port = static_cast<P>(proto::low_bits(v, cnt_w));
}
template <std::size_t M, class P>
std::bitset<M> get_bits(const P& port, unsigned width) {
  static_assert(std::is_integral_v<P>, "scalar Verilator port");
  std::bitset<M> b;
  for (unsigned i = 0; i < width && i < 64; ++i) b[i] = (static_cast<uint64_t>(port) >> i) & 1U;
  return b;
}
template <std::size_t M, std::size_t N>
std::bitset<M> get_bits(const VlWide<N>& port, unsigned width) {
  std::bitset<M> b;
  for (unsigned i = 0; i < width && i < M; ++i) b[i] = (port[i / 32] >> (i % 32)) & 1U;
  return b;
}

/// The info_i word of `info` (tonic_dd_pkg::ev_info_t, by the generated
/// layout).
inline std::bitset<layout::ev_info::kWidth> pack_info(const ref::EvInfo& info) {
  std::bitset<layout::ev_info::kWidth> b;
  const auto put = [&b](layout::PortField f, uint64_t v) {
    for (unsigned i = 0; i < f.width; ++i) b[f.lsb + i] = (v >> i) & 1U;
  };
  put(layout::ev_info::kFlow, info.flow);
  put(layout::ev_info::kSegBytes, info.seg_bytes);
  put(layout::ev_info::kRttValid, info.rtt_valid);
  put(layout::ev_info::kEchoRtx, info.echo_rtx);
  put(layout::ev_info::kEchoTs, info.echo_ts);
  put(layout::ev_info::kRtt, info.rtt);
  put(layout::ev_info::kEcnSegs, info.ecn_segs);
  put(layout::ev_info::kAckedBytes, info.acked_bytes);
  put(layout::ev_info::kRtxCnt, info.rtx_cnt);
  return b;
}

/// Drive every input port of an incoming (Incoming) or periodic model
/// from `in` (user state of `user_w` bits); the caller evaluates.
template <bool Incoming, class Model>
void drive_inputs(Model& m, const ProtoIn& in, unsigned user_w) {
  const unsigned cw = proto::cnt_w(in.w);
  m.now_i = in.now;
  m.wnd_start_i = in.wnd_start;
  put_count(m.wnd_i, in.wnd, cw);
  m.next_new_i = in.next_new;
  m.posted_i = in.posted;
  put_count(m.flight_i, in.flight, cw);
  put_bits(m.acked_i, in.acked, in.w);
  put_bits(m.pending_i, in.pending, in.w);
  m.rto_i = in.rto;
  put_bits(m.user_i, in.user, user_w);
  // tx_i: TxW bits (1 without a transmit.v); a scalar port up to 64 bits.
  using TxPort = std::remove_reference_t<decltype(m.tx_i)>;
  static_assert(sizeof(TxPort) <= sizeof(uint64_t), "tx_i wider than 64 bits: not driven by this harness");
  m.tx_i = static_cast<TxPort>(in.tx);
  if constexpr (Incoming) {
    m.type_i = in.type & 7U;
    m.cum_ack_i = in.cum_ack;
    m.sack_valid_i = in.sack_valid;
    m.sack_idx_i = in.sack_idx;
    m.ecn_i = in.ecn;
    m.grant_i = in.grant;
    m.old_start_i = in.old_start;
    put_count(m.newly_acked_i, in.newly_acked, cw);
    m.dup_i = in.dup;
    put_bits(m.info_i, pack_info(in.info), layout::ev_info::kWidth);
  } else {
    m.timeout_i = in.timeout;
  }
}

/// Every output port of an evaluated model (user state of `user_w` bits).
template <class Model>
ProtoOut read_outputs(const Model& m, unsigned user_w) {
  ProtoOut o;
  o.wnd_we = m.wnd_we_o;
  o.wnd = m.wnd_o;
  o.mark_we = m.mark_we_o;
  o.mark_lo = m.mark_lo_o;
  o.mark_hi = m.mark_hi_o;
  o.rto_we = m.rto_we_o;
  o.rto = m.rto_o;
  o.timer_restart = m.timer_restart_o;
  o.user_we = m.user_we_o;
  o.user = get_bits<ref::kProtoMaxUserW>(m.user_o, user_w);
  o.rate_we = m.rate_we_o;
  o.rate = m.rate_o;
  o.tokens_we = m.tokens_we_o;
  o.tokens = m.tokens_o;
  o.tokens_set = m.tokens_set_o;
  return o;
}

/// Drive, evaluate, read: one combinational call of the model.
template <bool Incoming, class Model>
ProtoOut eval_model(Model& m, const ProtoIn& in, unsigned user_w) {
  drive_inputs<Incoming>(m, in, user_w);
  m.eval();
  return read_outputs(m, user_w);
}

}  // namespace tonic::prototb
