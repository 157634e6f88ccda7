// SPDX-License-Identifier: Apache-2.0
// WindowModeSenderNic: the sender of the window mode as a host
// NIC of tonic-netsim (docs/netsim.md, docs/design/window-mode.md). No Tonic
// sender protocol drives the receiver's window mode (WBASE + WVEC with
// RESEND), so this NIC runs the window-mode sender model, window_mode::Sender
// (lib/tonic/window_mode.hpp), one per flow: each sends its message in
// order, at most one packet per cycle over all flows (round robin),
// back-pressured by the host link like SenderNic; a RESEND queues WBASE
// and, for a beyond-window drop, the index dropped (BeyondAction::kBoth); a
// go-back RESEND restarts the stream at WBASE; the completion ACK ends the
// flow. The receiver is the RTL (RtlReceiverNic in window mode).
#pragma once

#include "systemc.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "tonic/window_mode.hpp"
#include "nic.hpp"

namespace tonic::netsim {

class WindowModeSenderNic : public SenderNicBase {
 public:
  SC_HAS_PROCESS(WindowModeSenderNic);
  sc_core::sc_in<bool> clk;

  /// cfg.holdoff_cycles: a single RESEND of a packet sent this recently is
  /// ignored (about one round trip).
  WindowModeSenderNic(sc_core::sc_module_name n, const SenderConfig& cfg, Link* egress)
      : SenderNicBase(n, cfg, egress) {
    if (cfg_.segments == 0 || cfg_.segments >= (1ull << 31))
      throw std::invalid_argument("window_mode: needs bounded messages of fewer than 2^31 segments");
    for (uint32_t f = 0; f < cfg_.flows; ++f) {
      window_mode::TxConfig tc;
      tc.tag = window_mode::MsgTag{cfg_.host, f, 1};
      tc.first = 0;
      tc.count = static_cast<uint32_t>(cfg_.segments);
      tc.pace = 1;
      tc.recovery = window_mode::Recovery::kPartial;
      tc.beyond = window_mode::BeyondAction::kBoth;
      tc.holdoff = cfg.holdoff_cycles;
      tx_.emplace_back(tc);
    }
    SC_METHOD(cycle);
    sensitive << clk.pos();
    dont_initialize();
  }

  uint64_t cycles() const override { return cycle_; }

 private:
  void cycle() {
    while (!ingress_.empty()) {
      const Packet p = ingress_.front();
      ingress_.pop_front();
      const uint32_t f = p.key - cfg_.key_base;
      if (f >= fl_.size()) {
        fail("control packet of an unknown flow key " + std::to_string(p.key));
        continue;
      }
      window_mode::Ctl w;
      w.cycle = cycle_;
      w.wbase = p.ctl.cum_ack;
      w.go_back = p.ctl.go_back;
      w.complete = p.ctl.type == ref::kRxAck;
      w.timeout = p.ctl.type == ref::kRxResend && !p.ctl.sack_valid;
      w.sack_valid = p.ctl.sack_valid;
      w.sack_idx = p.ctl.sack_idx;
      SenderFlow& s = fl_[f];
      if (w.complete) {
        if (s.done_us < 0) s.done_us = t_us();
        s.acked = cfg_.segments;
        continue;
      }
      ++s.fr_episodes;  // RESENDs received
      if (w.timeout) ++s.timeouts;
      tx_[f].on_ctl(cycle_, w);
    }
    if (egress_->backlog_packets() < cfg_.dma_packets && now_us() >= cfg_.start_us) {
      for (uint32_t k = 0; k < cfg_.flows; ++k) {
        const uint32_t f = (rr_ + k) % cfg_.flows;
        if (auto pk = tx_[f].poll(cycle_)) {
          SenderFlow& s = fl_[f];
          ++s.sent;
          if (pk->retransmit) ++s.rtx;
          if (s.first_tx_us < 0) s.first_tx_us = t_us();
          Packet p;
          p.src = cfg_.host;
          p.dst = cfg_.receiver;
          p.key = cfg_.key_base + f;
          p.flow = f;
          p.idx = pk->idx;
          p.rtx = pk->retransmit;
          p.bytes = cfg_.seg_bytes + cfg_.header_bytes;
          p.node = static_cast<uint16_t>(pk->tag.node);
          p.ctx = static_cast<uint16_t>(pk->tag.ctx);
          p.msgid = pk->tag.msgid;
          egress_->push(p);
          if (static_cast<int>(f) == cfg_.trace_flow && traces.tx) traces.tx(t_us(), pk->idx, pk->retransmit);
          rr_ = (f + 1) % cfg_.flows;
          break;
        }
      }
    }
    ++cycle_;
  }

  std::vector<window_mode::Sender> tx_;
  uint32_t rr_ = 0;
  uint64_t cycle_ = 0;
};

}  // namespace tonic::netsim
