// SPDX-License-Identifier: Apache-2.0
// AnyReceiver: the receiver model a protocol pairs with (its registry
// receiver mode: TCP with or without SACK, RoCE (go-back-N, or on request
// the go-back-0 responder), IRN, NDP; the models of lib/tonic), behind
// one interface that turns arriving segments into rx
// beats for tonic_top. Shared by the soak rig (tb/unit/soak) and tonic-run
// (sim/run), so neither restates which model answers which protocol.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tonic/gb0_receiver.hpp"
#include "tonic/irn_receiver.hpp"
#include "tonic/ndp_receiver.hpp"
#include "tonic/roce_receiver.hpp"
#include "tonic/rx_common.hpp"
#include "tonic/tcp_receiver.hpp"
#include "tonic/protocol_registry.hpp"

namespace tonic {

/// Options of the receiver models that a run may change.
struct AnyReceiverOptions {
  uint32_t window = 128;     // W of the receiver (the sender build's Window)
  bool delayed_ack = false;  // TCP: ack every 2nd in-order segment
  int sack = -1;             // TCP: -1 per the receiver mode (tcp_sack), 0 off, 1 on
  uint64_t pull_gap = 0;     // NDP: cycles between two pulls (0: the model's default)
  uint32_t go_back_0 = 0;    // RoCE: > 0 the go-back-0 responder with messages of this many segments
};

/// The protocol's receiver model behind one interface. Flow keys are the
/// caller's (e.g. flow id and incarnation), opened before their first segment.
class AnyReceiver {
 public:
  AnyReceiver(registry::Receiver r, const AnyReceiverOptions& o) : mode_(r) {
    switch (r) {
      case registry::Receiver::kTcp:
      case registry::Receiver::kTcpSack: {
        RxConfig c;
        c.window = o.window;
        c.delayed_ack = o.delayed_ack;
        c.sack = o.sack < 0 ? r == registry::Receiver::kTcpSack : o.sack != 0;
        tcp_ = std::make_unique<TcpReceiver>(c);
        break;
      }
      case registry::Receiver::kRoce:
        // go-back-0 (host_restart): the responder that discards a message's
        // progress on a gap; otherwise go-back-N.
        if (o.go_back_0) {
          Gb0RxConfig g;
          g.msg_segments = o.go_back_0;
          gb0_ = std::make_unique<Gb0Receiver>(g);
        } else {
          roce_ = std::make_unique<RoceReceiver>();
        }
        break;
      case registry::Receiver::kIrn: {
        IrnRxConfig c;
        c.window = o.window;
        irn_ = std::make_unique<IrnReceiver>(c);
        break;
      }
      case registry::Receiver::kNdp: {
        NdpRxConfig c;
        c.window = o.window;
        if (o.pull_gap) c.pull_gap = o.pull_gap;
        ndp_ = std::make_unique<NdpReceiver>(c);
        break;
      }
    }
  }
  /// The receiver of protocol p with window W and its defaults.
  AnyReceiver(registry::ProtocolId p, uint32_t window)
      : AnyReceiver(registry::get(p).receiver, AnyReceiverOptions{window, false, -1, 0, 0}) {}

  registry::Receiver mode() const { return mode_; }
  /// TCP: whether acks carry SACK blocks.
  bool sack() const { return tcp_ && tcp_->config().sack; }

  /// (Re)starts flow `key` expecting segment `first`.
  void open(uint32_t key, uint32_t first) {
    if (tcp_) tcp_->open(key, first);
    if (roce_) roce_->open(key, first);
    if (gb0_) gb0_->open(key, first);
    if (irn_) irn_->open(key, first);
    if (ndp_) ndp_->open(key, first, 0);
  }
  /// A segment arrives in cycle c (ce: ECN-marked; trimmed: only its
  /// header; ts, rtx: its transmit stamp and retransmit flag, echoed by the
  /// acks). The TCP models are not given the CE mark (their acks' ecn stays
  /// 0, as before the mark was a parameter).
  void segment(uint64_t c, uint32_t key, uint32_t idx, bool ce, bool trimmed, uint32_t ts = 0,
               bool rtx = false) {
    if (tcp_) tcp_->segment(c, key, idx, ts, rtx);
    if (roce_) roce_->segment(c, key, idx, ce, ts, rtx);
    if (gb0_) gb0_->segment(c, key, idx, ts, rtx);
    if (irn_) irn_->segment(c, key, idx, ce, ts, rtx);
    if (ndp_) ndp_->segment(c, key, idx, trimmed, ts, rtx);
  }
  /// Advances the receiver's timers to cycle c; `out` gets its events.
  void advance(uint64_t c, std::vector<RxEvent>& out) {
    out.clear();
    if (tcp_) {
      tcp_->advance(c);
      for (const AckEvent& a : tcp_->take_acks()) out.push_back(to_rx_event(a));
    }
    if (roce_) {
      roce_->advance(c);
      out = roce_->take_acks();
    }
    if (gb0_) {
      gb0_->advance(c);
      out = gb0_->take_acks();
    }
    if (irn_) {
      irn_->advance(c);
      out = irn_->take_acks();
    }
    if (ndp_) {
      ndp_->advance(c);
      out = ndp_->take_acks();
    }
  }

 private:
  registry::Receiver mode_;
  std::unique_ptr<TcpReceiver> tcp_;
  std::unique_ptr<RoceReceiver> roce_;
  std::unique_ptr<Gb0Receiver> gb0_;
  std::unique_ptr<IrnReceiver> irn_;
  std::unique_ptr<NdpReceiver> ndp_;
};

}  // namespace tonic
