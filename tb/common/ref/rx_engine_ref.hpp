// SPDX-License-Identifier: Apache-2.0
// RxEngineRef: plain-C++ reference of tonic_rx_engine (rtl/rx/), cycle for
// cycle (docs/design/receiver.md).
//
// Plain C++ (no Verilator headers). Two layers:
//   - the rules (descriptor(), open(), close(), scan_visit(), the pacer):
//     what one descriptor, one OPEN / CLOSE or one timer visit does to a
//     flow, which control packets it makes (in order) and which counters it
//     bumps. These are the receive modes of the design doc, built like the
//     NDP, RoCE and IRN models (tcp_receiver.hpp, ndp_receiver.hpp, roce_receiver.hpp,
//     irn_receiver.hpp) with the RTL's choices where those differ (the
//     delayed-ack and WBASE timers fire at the scan's visit, the NDP pull
//     number is taken when the ack is made);
//   - the schedule (step()): the engine's pipeline, scan pointer, pacer and
//     control queue, so a testbench can compare every output of every cycle.
//     The packets and counter increments of stage 1 and of the scan pass a
//     stage-2 register: they enter the control queue (ahead of that cycle's
//     PULL) and stats_o one cycle after they are made; flow control counts
//     them as queued.
// Time is the engine's `now`: cycles since reset, 32 bits.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <vector>

#include "tonic/ack_fields.hpp"
#include "tonic/proto_io.hpp"
#include "tonic/rx_types.hpp"
#include "tonic/seq.hpp"

namespace tonic {

/// Inputs of one cycle.
struct RxEngineIn {
  bool cfg_valid = false;
  RxCfg cfg;
  bool data_valid = false;
  RxDesc data;
  bool ctl_ready = true;
};

/// Outputs of one cycle (before the clock edge).
struct RxEngineOut {
  bool cfg_ready = true;
  bool data_ready = false;
  bool dlv_valid = false;
  RxDlv dlv;
  bool ctl_valid = false;
  RxCtl ctl;
  bool done_valid = false;
  uint16_t done_flow = 0;
  RxEngineStats stats;
};

class RxEngineRef {
 public:
  /// Per-flow state (the RTL's flow_t plus the open bit).
  struct Flow {
    bool open = false;
    RxMode mode = RxMode::kTcp;
    bool delack = false, sack = false, done = false, bounded = false;
    uint32_t wbase = 0;
    std::vector<uint8_t> wvec;  // wvec[k]: index wbase + k held (k >= 1)
    uint32_t end_idx = 0;
    uint16_t node = 0, ctx = 0;
    uint32_t msgid = 0;
    bool unacked = false;
    bool tmr_on = false;
    uint32_t tmr_t = 0;
    bool nack_on = false;
    uint32_t nack_t = 0;
    bool cnp_on = false;
    uint32_t cnp_t = 0;
    uint16_t pull = 0;
    uint32_t tmo = 0;
    bool ce_acks = false;  // TCP: ecn = the CE state (cfg ce_state_acks)
    bool ce_st = false;    // the CE state: CE mark of the last segment
    Echo tsr;              // TCP: TS.Recent
    SackReport sacks;      // TCP with SACK: the runs reported (the RTL's SACK stage)
  };

  explicit RxEngineRef(RxEngineParams p) : p_(p), flows_(p.flows) {
    for (Flow& f : flows_) f.wvec.assign(p_.w, 0);
  }

  const RxEngineParams& params() const { return p_; }
  const Flow& flow(uint32_t f) const { return flows_.at(f); }
  uint32_t now() const { return now_; }

  // --------------------------------------------------------------------
  // Rules.

  /// The result of one descriptor: its decision, its control packets in
  /// order (at most two), a pull request (NDP), a completion.
  struct Result {
    RxDlv dlv;
    std::vector<RxCtl> ctl;
    bool pull = false;
    uint16_t pull_grant = 0;
    uint32_t pull_cum = 0;
    bool done = false;
  };

  /// OPEN or CLOSE at `now`.
  void config(const RxCfg& c, uint32_t now) {
    if (c.flow >= p_.flows) return;
    Flow& f = flows_[c.flow];
    if (c.close) {
      f.open = false;
      return;
    }
    f = Flow{};
    f.wvec.assign(p_.w, 0);
    f.open = true;
    f.mode = c.mode;
    f.delack = c.delack;
    f.sack = c.sack;
    f.ce_acks = c.ce_state_acks;
    f.bounded = c.count != 0;
    f.wbase = c.first;
    f.end_idx = c.first + c.count;
    f.node = c.node;
    f.ctx = c.ctx;
    f.msgid = c.msgid & 0xFFFFF;
    f.tmr_on = c.mode == RxMode::kWindow && c.count != 0;
    f.tmr_t = now;
  }

  enum class Kind { kBelow, kHeld, kBeyond, kNew, kInOrder };

  /// One descriptor at `now` (stage 1).
  Result descriptor(const RxDesc& d, uint32_t now) {
    Result r;
    r.dlv.flow = d.flow;
    r.dlv.idx = d.idx;
    r.dlv.deliver = false;
    r.dlv.reason = RxReason::kUnknown;
    if (d.flow >= p_.flows || !flows_[d.flow].open) {
      ++st_.unknown;
      return r;
    }
    Flow& f = flows_[d.flow];
    RxCtl a;
    a.flow = d.flow;
    a.type = ref::kRxAck;
    a.cum_ack = f.wbase;
    if (f.mode == RxMode::kWindow &&
        (f.node != d.node || f.ctx != d.ctx || f.msgid != (d.msgid & 0xFFFFF))) {
      ++st_.zombie;
      r.dlv.reason = RxReason::kZombie;
      return r;
    }
    if (d.trimmed) {
      ++st_.trimmed;
      r.dlv.reason = RxReason::kTrimmed;
      if (f.mode == RxMode::kNdp) {
        a.type = ref::kRxNack;
        a.sack_idx = d.idx;
        a.echo = echo_of(d.ts, d.rtx);
        r.ctl.push_back(a);
        pull(f, r, a.cum_ack, d.flow);
      }
      return r;
    }
    if (f.mode == RxMode::kWindow && f.done) {
      ++st_.duplicate;
      r.dlv.reason = RxReason::kDuplicate;
      return r;
    }
    // Beyond the message end (bounded, idx >= first + count in serial
    // order): dropped before the window step, counted as beyond, nothing
    // else (every mode).
    if (f.bounded && !seq_lt(d.idx, f.end_idx)) {
      ++st_.beyond;
      r.dlv.reason = RxReason::kBeyond;
      return r;
    }
    // Window step.
    const bool hole = any(f.wvec);
    const uint32_t before = f.wbase;
    const Kind k = classify(f, d.idx);
    uint32_t new_base = f.wbase;
    std::vector<uint8_t> new_vec = f.wvec;
    if (k == Kind::kInOrder) {
      new_vec[0] = 1;
      uint32_t run = 0;
      while (run < p_.w && new_vec[run]) ++run;
      std::vector<uint8_t> shifted(p_.w, 0);
      for (uint32_t i = run; i < p_.w; ++i) shifted[i - run] = new_vec[i];
      new_vec = shifted;
      new_base = f.wbase + run;
    } else if (k == Kind::kNew) {
      new_vec[d.idx - f.wbase] = 1;
    }
    const bool moves = f.mode != RxMode::kRoce || k == Kind::kInOrder;
    if (moves) {
      f.wbase = new_base;
      f.wvec = new_vec;
    }
    a.cum_ack = moves ? new_base : before;
    r.dlv.deliver = k == Kind::kNew || k == Kind::kInOrder;
    r.dlv.reason = r.dlv.deliver ? RxReason::kOk
                   : k == Kind::kBeyond ? RxReason::kBeyond
                                        : RxReason::kDuplicate;
    if (k == Kind::kInOrder && f.bounded && !f.done && new_base == f.end_idx) {
      f.done = true;
      r.done = true;
      ++st_.completed;
    }
    const bool dup = k == Kind::kBelow || k == Kind::kHeld;
    const bool held = k == Kind::kHeld || k == Kind::kNew;
    bool push_a = false;
    switch (f.mode) {
      case RxMode::kTcp: {
        st_.duplicate += dup;
        st_.beyond += k == Kind::kBeyond;
        // CE state: a change first acks the pending segment under the old
        // state (that packet goes first), then flips.
        if (f.ce_acks && d.ecn != f.ce_st) {
          if (f.unacked) {
            RxCtl x;
            x.flow = d.flow;
            x.type = ref::kRxAck;
            x.cum_ack = before;
            x.ecn = f.ce_st;
            x.echo = f.tsr;
            r.ctl.push_back(x);
            f.unacked = false;
            f.tmr_on = false;
          }
          f.ce_st = d.ecn;
        }
        // TS.Recent: the in-order segment at the last ack sent, or the
        // first arrival.
        if ((k == Kind::kInOrder && !f.unacked) || !f.tsr.valid) f.tsr = echo_of(d.ts, d.rtx);
        a.ecn = f.ce_acks ? f.ce_st : d.ecn;
        a.echo = f.tsr;
        if (f.sack && held) {
          a.type = ref::kRxSack;
          a.sack_valid = true;
          a.sack_idx = d.idx;
        }
        if (f.sack) {
          a.blks = f.sacks.ack(f.wbase, held ? std::optional<uint32_t>(d.idx) : std::nullopt,
                               [&](uint32_t i) {
                                 const uint32_t o = i - f.wbase;
                                 return o > 0 && o < p_.w && f.wvec[o] != 0;
                               });
        }
        if (k == Kind::kInOrder && !hole && f.delack && !f.unacked && !r.done) {  // the last segment: at once
          f.unacked = true;
          if (!f.tmr_on) {
            f.tmr_on = true;
            f.tmr_t = now;
          }
        } else {
          push_a = true;
          f.unacked = false;
          f.tmr_on = false;
        }
        break;
      }
      case RxMode::kNdp:
        st_.duplicate += dup;
        st_.beyond += k == Kind::kBeyond;
        push_a = true;
        if (held) {
          a.type = ref::kRxSack;
          a.sack_valid = true;
          a.sack_idx = d.idx;
        }
        break;
      case RxMode::kRoce:
        if (k == Kind::kInOrder) {
          push_a = true;
          f.nack_on = false;
        } else if (k == Kind::kBelow) {
          ++st_.duplicate;
          push_a = true;
        } else {
          ++st_.gbn_drop;
          r.dlv.deliver = false;
          r.dlv.reason = RxReason::kGoBackN;
          a.type = ref::kRxNack;
          a.echo = echo_of(d.ts, d.rtx);
          if (!f.nack_on || now - f.nack_t >= p_.nack_gap) {
            push_a = true;
            f.nack_on = true;
            f.nack_t = now;
          } else {
            ++st_.nack_supp;
          }
        }
        break;
      case RxMode::kIrn:
        st_.duplicate += dup;
        st_.beyond += k == Kind::kBeyond;
        push_a = true;
        if (held) {
          a.type = ref::kRxNack;
          a.sack_valid = true;
          a.sack_idx = d.idx;
          a.echo = echo_of(d.ts, d.rtx);
        }
        break;
      case RxMode::kWindow:
        st_.duplicate += dup;
        st_.beyond += k == Kind::kBeyond;
        if (k == Kind::kBeyond) {
          push_a = true;
          a.type = ref::kRxResend;
          a.sack_valid = true;  // names the dropped index
          a.sack_idx = d.idx;
          ++st_.resends;
        } else if (r.dlv.deliver) {
          if (k == Kind::kInOrder) f.tmo = 0;
          if (k == Kind::kInOrder && f.bounded && new_base == f.end_idx) {
            push_a = true;  // completion ack
            f.tmr_on = false;
          } else {
            f.tmr_on = f.bounded || any(new_vec);
            f.tmr_t = now;
          }
        }
        break;
    }
    if (push_a) r.ctl.push_back(a);
    if (f.mode == RxMode::kNdp) pull(f, r, a.cum_ack, d.flow);
    if ((f.mode == RxMode::kRoce || f.mode == RxMode::kIrn) && d.ecn) {
      if (!f.cnp_on || now - f.cnp_t >= p_.cnp_gap) {
        RxCtl b;
        b.flow = d.flow;
        b.type = ref::kRxCnp;
        b.cum_ack = a.cum_ack;
        r.ctl.push_back(b);
        f.cnp_on = true;
        f.cnp_t = now;
      } else {
        ++st_.cnp_supp;
      }
    }
    return r;
  }

  /// The scan's visit of flow `id` at `now`: its timer packet, if due.
  std::optional<RxCtl> scan_visit(uint32_t id, uint32_t now) {
    Flow& f = flows_[id];
    if (!f.open || !f.tmr_on) return std::nullopt;
    RxCtl c;
    c.flow = static_cast<uint16_t>(id);
    c.cum_ack = f.wbase;
    if (f.mode == RxMode::kTcp && now - f.tmr_t >= p_.ack_delay) {
      c.type = ref::kRxAck;
      c.ecn = f.ce_acks && f.ce_st;
      c.echo = f.tsr;  // no blocks: a pending delayed ack means nothing is held
      f.unacked = false;
      f.tmr_on = false;
      return c;
    }
    if (f.mode == RxMode::kWindow && now - f.tmr_t >= p_.resend_timeout) {
      c.type = ref::kRxResend;
      ++st_.resends;
      f.tmr_t = now;
      const uint32_t n = (f.tmo + 1) & 0xFF;
      if (n >= p_.go_back_after) {
        c.go_back = true;
        ++st_.gobacks;
        f.tmo = 0;
      } else {
        f.tmo = n;
      }
      return c;
    }
    return std::nullopt;
  }

  // --------------------------------------------------------------------
  // Schedule.

  /// Outputs of the current cycle for inputs `in` (no state change).
  RxEngineOut outputs(const RxEngineIn& in) const {
    RxEngineOut o;
    o.cfg_ready = true;
    o.data_ready = !in.cfg_valid && ctl_.size() + pend_.size() + 8 <= p_.ctl_depth &&
                   pace_.size() + 2 <= p_.pull_depth;
    o.dlv_valid = dlv_valid_;
    o.dlv = dlv_;
    o.ctl_valid = !ctl_.empty();
    if (o.ctl_valid) o.ctl = ctl_.front();
    o.done_valid = done_valid_;
    o.done_flow = done_flow_;
    o.stats = st_lag_;  // stage 1's and the scan's counters one cycle late
    o.stats.ctl_sent = st_.ctl_sent;
    return o;
  }

  /// One clock cycle with inputs `in`; returns the outputs before the edge.
  RxEngineOut step(const RxEngineIn& in) {
    const RxEngineOut o = outputs(in);
    const RxEngineStats st_start = st_;
    const size_t cnt = ctl_.size() + pend_.size();  // the RTL's ctl_room
    std::vector<RxCtl> pushes;  // into the stage-2 register
    std::optional<RxCtl> pull_out;
    // Stage 1.
    bool next_dlv = false, next_done = false;
    RxDlv next_dlv_v = dlv_;
    uint16_t next_done_flow = done_flow_;
    std::optional<std::pair<uint16_t, uint16_t>> pace_push;
    uint32_t pace_cum = 0;
    if (s1_valid_) {
      if (s1_cfg_) {
        config(s1_c_, now_);
      } else {
        Result r = descriptor(s1_d_, now_);
        next_dlv = true;
        next_dlv_v = r.dlv;
        next_done = r.done;
        for (const RxCtl& c : r.ctl) pushes.push_back(c);
        if (r.pull) {
          pace_push = std::make_pair(s1_d_.flow, r.pull_grant);
          pace_cum = r.pull_cum;
        }
      }
      next_done_flow = s1_d_.flow;  // the RTL registers stage 1's descriptor flow
    } else {
      next_done_flow = s1_d_.flow;
    }
    // Scan.
    const uint32_t s1_addr = s1_flow_ & (p_.flows - 1);
    const bool sc_go = cnt + 4 <= p_.ctl_depth && !(s1_valid_ && s1_addr == sp_);
    if (sc_go) {
      if (auto c = scan_visit(sp_, now_)) pushes.push_back(*c);
      sp_ = (sp_ + 1) & (p_.flows - 1);
    }
    // Pacer.
    if (!pace_.empty() && pace_wait_ == 0 && cnt + 4 <= p_.ctl_depth) {
      pull_out = pace_.front();
      pace_.pop_front();
      pace_wait_ = p_.pull_gap - 1;
    } else if (pace_wait_ != 0) {
      --pace_wait_;
    }
    if (pace_push) {
      RxCtl pl;
      pl.flow = pace_push->first;
      pl.type = ref::kRxPull;
      pl.cum_ack = pace_cum;
      pl.grant = pace_push->second;
      pace_.push_back(pl);
      if (pace_.size() > p_.pull_depth) throw std::logic_error("RxEngineRef: pacer overflow");
    }
    // Control queue.
    if (o.ctl_valid && in.ctl_ready) {
      ctl_.pop_front();
      ++st_.ctl_sent;
    }
    for (const RxCtl& c : pend_) ctl_.push_back(c);  // stage 2, then the PULL
    if (pull_out) ctl_.push_back(*pull_out);
    pend_ = std::move(pushes);
    st_lag_ = st_start;
    if (ctl_.size() > p_.ctl_depth) throw std::logic_error("RxEngineRef: control queue overflow");
    // Outputs register, acceptance.
    dlv_valid_ = next_dlv;
    dlv_ = next_dlv_v;
    done_valid_ = next_done;
    done_flow_ = next_done_flow;
    s1_valid_ = in.cfg_valid || (in.data_valid && o.data_ready);
    s1_cfg_ = in.cfg_valid;
    s1_c_ = in.cfg;
    s1_d_ = in.data;
    s1_flow_ = in.cfg_valid ? in.cfg.flow : in.data.flow;
    ++now_;
    return o;
  }

  const RxEngineStats& stats() const { return st_; }
  size_t ctl_queued() const { return ctl_.size() + pend_.size(); }
  size_t pulls_queued() const { return pace_.size(); }

 private:
  static bool any(const std::vector<uint8_t>& v) {
    for (uint8_t b : v)
      if (b) return true;
    return false;
  }

  Kind classify(const Flow& f, uint32_t idx) const {
    const uint32_t d = idx - f.wbase;
    if (d & 0x8000'0000u) return Kind::kBelow;
    if (d >= p_.w) return Kind::kBeyond;
    if (d == 0) return Kind::kInOrder;
    return f.wvec[d] ? Kind::kHeld : Kind::kNew;
  }

  void pull(Flow& f, Result& r, uint32_t cum, uint16_t) {
    ++f.pull;
    r.pull = true;
    r.pull_grant = f.pull;
    r.pull_cum = cum;
  }

  RxEngineParams p_;
  std::vector<Flow> flows_;
  RxEngineStats st_;
  // Schedule state.
  uint32_t now_ = 0;
  bool s1_valid_ = false, s1_cfg_ = false;
  RxCfg s1_c_;
  RxDesc s1_d_;
  uint16_t s1_flow_ = 0;
  uint32_t sp_ = 0;
  std::deque<RxCtl> ctl_;
  std::vector<RxCtl> pend_;  // stage-2 register: enter ctl_ next cycle
  RxEngineStats st_lag_;     // st_ one cycle ago (stats_o but ctl_sent)
  std::deque<RxCtl> pace_;
  uint32_t pace_wait_ = 0;
  bool dlv_valid_ = false, done_valid_ = false;
  RxDlv dlv_;
  uint16_t done_flow_ = 0;
};

}  // namespace tonic
