// SPDX-License-Identifier: Apache-2.0
// The window-mode receiver (docs/design/receiver.md, "Window"
// mode and the window cell rules; docs/design/window-mode.md for the
// experiment): a receiver-side sliding window WBASE + WVEC for RDMA over
// unreliable, reordering interconnects, the sender that goes with it, and
// the whole-message-retransmission baseline the reference scheme compares against.
//
// Plain C++ (no Verilator headers). Indices are 32-bit packet (segment)
// indices compared in serial order (seq.hpp). Time is in cycles; every
// call takes a cycle no earlier than the previous call's.
//
// What is here (the API is small on purpose, for rx_engine_ref.hpp):
//   WindowCell  the WBASE + W-bit WVEC step of one flow (tonic_rx_window):
//               step(i) says duplicate / held / advance (by how much) /
//               beyond, and updates the state. Used by every mode.
//   WindowRx    one receive context in window mode: expected
//               {node, context, MSGID}, message range, the WBASE timer, the
//               RESENDs (take_ctl()), completion, counters.
//   CounterRx   the baseline: the receiver-counter scheme of the reference scheme
//               (count the packets of the current attempt; on a timeout ask
//               for the whole message again under a new attempt number).
//   Sender      sends a message of N packets at a set pace and recovers
//               by partial retransmission (RESEND single / go-back) or by
//               restarting the whole message (with CounterRx).
//
// Receiver rules (WindowRx), for packet i of tag g arriving in cycle t,
// window W (a power of two in 32..256), context open with tag E, first
// index F, packet count N (0 = unbounded), timeout T, GoBackAfter G. They
// are the RTL's (tonic_rx_engine window mode as rx_engine_ref.hpp models
// it; aligned in docs/design/window-mode.md "Alignment with the
// RTL"; tb/unit/window_mode/test_window_mode_rtl.cpp checks them against both):
//   - context closed: dropped (kClosed; the engine's "unknown flow");
//   - g != E: zombie, dropped silently, counted;
//   - message complete: duplicate (any index), dropped, no RESEND;
//   - N != 0 and i >= F + N: dropped, counted as beyond the message, no
//     RESEND (no sender of this message has it). The engine does the same
//     (counted in its `beyond` counter); before the fix it held such an
//     index and WBASE ran past F + N (test_window_mode_rtl.cpp, "past the message
//     end");
//   - i < WBASE: duplicate, dropped;
//   - WBASE < i < WBASE + W: WVEC[i - WBASE] set (already set: duplicate);
//     the timer restarts;
//   - i == WBASE: WBASE += 1 + run of ones in WVEC from bit 1, WVEC shifts
//     as much; the timer restarts and the timeout streak clears; WBASE ==
//     F + N completes the message: the timer stops and one completion ACK
//     (cum_ack = F + N, Ctl::complete) is sent;
//   - i >= WBASE + W: dropped, RESEND(WBASE) with sack_valid = 1,
//     sack_idx = i (the RTL; the reference scheme's "resend this packet"); with
//     WindowConfig::beyond_sack = false (the RTL's first build, kept for
//     the WBASE-only comparison) sack_valid = 0, sack_idx = 0. Does not
//     touch the timer;
//   - timer: armed while the context is open and incomplete (for N == 0:
//     while WVEC has a bit set); restarted by every delivered arrival (held
//     or in order) and by its own expiry; it expires T cycles after its
//     last restart. Each expiry is a RESEND(WBASE) and adds one to the
//     streak; the G-th expiry in a row (G != 0) carries the go-back flag
//     and clears the streak (so the 2G-th, 3G-th ... go back too; G = 0,
//     never, is model-only: the RTL takes 1..255). In one cycle an arrival
//     is handled before a timer expiring in that cycle (progress wins).
//     The RTL looks at a flow's timer when its scan visits the flow, so it
//     fires up to FlowCount (plus stall) cycles late and restarts from
//     there; WindowConfig::timer_by_visit makes the model do the same with
//     the visits given by visit().
#pragma once

#include <algorithm>
#include <bitset>
#include <deque>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tonic/proto_io.hpp"
#include "tonic/rx_common.hpp"
#include "tonic/seq.hpp"

namespace tonic::window_mode {

/// The largest window the cell supports (the engine's W is 32..256).
constexpr uint32_t kMaxW = 256;

/// Who a packet belongs to: sender node, sender context, MSGID (20 bits in
/// the reference scheme; the model compares whatever values it is given).
struct MsgTag {
  uint32_t node = 0;
  uint32_t ctx = 0;
  uint32_t msgid = 0;
  bool operator==(const MsgTag& o) const { return node == o.node && ctx == o.ctx && msgid == o.msgid; }
  bool operator!=(const MsgTag& o) const { return !(*this == o); }
};

/// The window step of one flow: WBASE (every index below it received) and
/// WVEC, bit d = index WBASE + d, 0 <= d < W (bit 0 is always 0 between
/// steps: an arrival at WBASE advances over it).
class WindowCell {
 public:
  enum class Kind : uint8_t {
    kAdvance,    // i == WBASE: WBASE moved by `advance` (1 + run of ones)
    kHeld,       // WBASE < i < WBASE + W, newly set
    kDuplicate,  // i < WBASE, or its bit was already set
    kBeyond,     // i >= WBASE + W: not kept
  };
  struct Step {
    Kind kind;
    uint32_t advance = 0;  // kAdvance only
  };

  explicit WindowCell(uint32_t w = 128, uint32_t wbase = 0) : w_(w), wbase_(wbase) {
    if (w < 32 || w > kMaxW || (w & (w - 1)) != 0)
      throw std::invalid_argument("WindowCell: W must be a power of two in [32, 256]");
  }

  /// Index `i` arrives.
  Step step(uint32_t i) {
    if (seq_lt(i, wbase_)) return {Kind::kDuplicate};
    const uint32_t d = seq_dist(wbase_, i);
    if (d >= w_) return {Kind::kBeyond};
    if (d != 0) {
      if (vec_[d]) return {Kind::kDuplicate};
      vec_[d] = true;
      return {Kind::kHeld};
    }
    uint32_t n = 1;  // i itself, then the run of ones after it (LOC)
    while (n < w_ && vec_[n]) ++n;
    wbase_ += n;
    vec_ >>= n;
    return {Kind::kAdvance, n};
  }

  /// Whether index `i` has been received (below WBASE, or its bit set).
  bool received(uint32_t i) const {
    if (seq_lt(i, wbase_)) return true;
    const uint32_t d = seq_dist(wbase_, i);
    return d < w_ && vec_[d];
  }
  uint32_t wbase() const { return wbase_; }
  const std::bitset<kMaxW>& vec() const { return vec_; }
  uint32_t w() const { return w_; }

 private:
  uint32_t w_;
  uint32_t wbase_;
  std::bitset<kMaxW> vec_;
};

/// Settings of a window-mode receive context (the engine's W, ResendTimeout,
/// GoBackAfter).
struct WindowConfig {
  uint32_t w = 128;               // window bits: power of two in [32, 256]
  uint64_t resend_timeout = 1000; // T: cycles WBASE may stay unchanged (>= 1)
  uint32_t go_back_after = 3;     // G: every G-th timeout in a row goes back; 0: never (model only)
  bool beyond_sack = true;        // beyond-window RESEND names the index dropped (the RTL); false: old form
  bool timer_by_visit = false;    // the timer fires only in visit() (the RTL's scan), else on time
};

/// What happened to an arriving packet.
enum class Verdict : uint8_t {
  kDeliver,        // written: in the window (held, or at WBASE)
  kDuplicate,      // below WBASE or already held
  kBeyondWindow,   // at or beyond WBASE + W (RESEND sent)
  kBeyondMessage,  // at or beyond F + N (no RESEND)
  kZombie,         // {node, context, MSGID} is not the context's
  kStale,          // CounterRx: a packet of an earlier attempt
  kClosed,         // the context is not open
};

inline const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kDeliver: return "deliver";
    case Verdict::kDuplicate: return "duplicate";
    case Verdict::kBeyondWindow: return "beyond-window";
    case Verdict::kBeyondMessage: return "beyond-message";
    case Verdict::kZombie: return "zombie";
    case Verdict::kStale: return "stale";
    case Verdict::kClosed: return "closed";
  }
  return "?";
}

/// A RESEND from a receiver to the sender.
struct Ctl {
  uint64_t cycle = 0;       // generation cycle at the receiver
  uint32_t wbase = 0;       // RESEND(WBASE): the engine's cum_ack
  bool go_back = false;     // resend everything from WBASE (not only WBASE)
  bool timeout = false;     // sent by the timer (else: a beyond-window arrival)
  bool sack_valid = false;  // beyond-window: sack_idx is the index dropped
  uint32_t sack_idx = 0;
  uint32_t attempt = 0;     // CounterRx: the attempt the sender must start (WindowRx: 0)
  bool complete = false;    // WindowRx: the completion ACK (cum_ack = F + N), not a RESEND

  bool operator==(const Ctl& o) const {
    return cycle == o.cycle && wbase == o.wbase && go_back == o.go_back && timeout == o.timeout &&
           sack_valid == o.sack_valid && sack_idx == o.sack_idx && attempt == o.attempt &&
           complete == o.complete;
  }
  bool operator!=(const Ctl& o) const { return !(*this == o); }
};

/// A RESEND as an rx beat (the go-back flag has no RxEvent field; the
/// engine carries it in its own ctl payload).
inline RxEvent to_rx_event(uint32_t flow, const Ctl& c) {
  if (c.complete) return rx_event(flow, ref::kRxAck, c.wbase, c.cycle, RxCause::kInOrder);
  RxEvent e = rx_event(flow, ref::kRxResend, c.wbase, c.cycle,
                       c.timeout ? RxCause::kTimer : RxCause::kBeyondWindow);
  e.sack_valid = c.sack_valid;
  e.sack_idx = c.sack_idx;
  return e;
}

/// Counters of a receive context (the engine's stats_o names in brackets).
struct Counters {
  uint64_t arrivals = 0;
  uint64_t delivered = 0;       // kDeliver
  uint64_t duplicates = 0;      // [duplicate]
  uint64_t beyond_window = 0;   // [beyond window]
  uint64_t beyond_message = 0;  // (counted as beyond window by the engine)
  uint64_t zombies = 0;         // [zombie]
  uint64_t stale = 0;           // CounterRx only
  uint64_t closed = 0;          // [unknown flow]
  uint64_t resends = 0;         // [RESENDs], every kind
  uint64_t timeouts = 0;        // RESENDs sent by the timer
  uint64_t go_backs = 0;        // [go-backs]
  uint64_t completed = 0;       // [messages completed]
  uint64_t acks = 0;            // completion ACKs sent
};

/// One receive context in window mode. Rules: file comment.
class WindowRx {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  explicit WindowRx(WindowConfig cfg = {}) : cfg_(cfg), cell_(cfg.w, 0) {
    if (cfg_.resend_timeout == 0) throw std::invalid_argument("WindowRx: resend_timeout must be >= 1");
  }
  const WindowConfig& config() const { return cfg_; }

  /// OPEN in `cycle`: expect packets of `tag`, indices [first, first +
  /// count) (count 0: unbounded). Counters are kept across opens.
  void open(uint64_t cycle, const MsgTag& tag, uint32_t first, uint32_t count) {
    if (count >= 0x8000'0000u) throw std::invalid_argument("WindowRx: count must be < 2^31");
    move_time(cycle);
    open_ = true;
    tag_ = tag;
    first_ = first;
    count_ = count;
    cell_ = WindowCell(cfg_.w, first);
    complete_ = false;
    done_cycle_ = 0;
    streak_ = 0;
    deadline_ = armed() ? cycle + cfg_.resend_timeout : kNever;
  }
  /// CLOSE: later packets are kClosed.
  void close() {
    open_ = false;
    deadline_ = kNever;
  }

  /// Packet `i` of `tag` arrives in `cycle`. Timers due before `cycle`
  /// fire first; one due in `cycle` fires in advance(cycle) unless this
  /// arrival moved WBASE.
  Verdict arrive(uint64_t cycle, const MsgTag& tag, uint32_t i) {
    if (cycle > 0) fire_until(cycle - 1);
    move_time(cycle);
    ++c_.arrivals;
    if (!open_) return count(Verdict::kClosed);
    if (tag != tag_) return count(Verdict::kZombie);
    if (complete_) return count(Verdict::kDuplicate);
    if (count_ != 0 && !seq_lt(i, first_ + count_)) return count(Verdict::kBeyondMessage);

    const WindowCell::Step s = cell_.step(i);
    switch (s.kind) {
      case WindowCell::Kind::kDuplicate: return count(Verdict::kDuplicate);
      case WindowCell::Kind::kBeyond: {
        Ctl c;
        c.cycle = cycle;
        c.wbase = cell_.wbase();
        c.sack_valid = cfg_.beyond_sack;
        c.sack_idx = cfg_.beyond_sack ? i : 0;
        emit(c);
        return count(Verdict::kBeyondWindow);
      }
      case WindowCell::Kind::kHeld:
        deadline_ = armed() ? cycle + cfg_.resend_timeout : kNever;  // every delivery restarts it
        return count(Verdict::kDeliver);
      case WindowCell::Kind::kAdvance:
        streak_ = 0;
        if (count_ != 0 && cell_.wbase() == first_ + count_) {
          complete_ = true;
          done_cycle_ = cycle;
          ++c_.completed;
          Ctl c;
          c.cycle = cycle;
          c.wbase = cell_.wbase();
          c.complete = true;
          emit(c);
        }
        deadline_ = armed() ? cycle + cfg_.resend_timeout : kNever;
        return count(Verdict::kDeliver);
    }
    return Verdict::kDeliver;  // unreachable
  }

  /// Time passes up to and including `cycle`: timers due fire (each
  /// RESEND stamped with its own expiry cycle; with timer_by_visit, none).
  void advance(uint64_t cycle) {
    fire_until(cycle);
    move_time(cycle);
  }
  /// timer_by_visit: the RTL's scan looks at this context in `cycle`
  /// (after any arrival of that cycle): a timer due by then fires once,
  /// stamped `cycle`, and restarts from `cycle`.
  void visit(uint64_t cycle) {
    move_time(cycle);
    if (cfg_.timer_by_visit && deadline_ <= cycle) expire(cycle);
  }
  /// The cycle the timer expires next (kNever when stopped).
  uint64_t next_timer() const { return deadline_; }

  /// The RESENDs generated so far, oldest first; the queue is emptied.
  std::vector<Ctl> take_ctl() {
    std::vector<Ctl> out;
    out.swap(out_);
    return out;
  }

  bool is_open() const { return open_; }
  bool complete() const { return complete_; }
  uint64_t done_cycle() const { return done_cycle_; }  // arrival cycle that completed it
  uint32_t wbase() const { return cell_.wbase(); }
  const WindowCell& cell() const { return cell_; }
  uint32_t timeout_streak() const { return streak_; }
  const MsgTag& tag() const { return tag_; }
  const Counters& counters() const { return c_; }

 private:
  bool armed() const { return open_ && !complete_ && (count_ != 0 || cell_.vec().any()); }
  Verdict count(Verdict v) {
    switch (v) {
      case Verdict::kDeliver: ++c_.delivered; break;
      case Verdict::kDuplicate: ++c_.duplicates; break;
      case Verdict::kBeyondWindow: ++c_.beyond_window; break;
      case Verdict::kBeyondMessage: ++c_.beyond_message; break;
      case Verdict::kZombie: ++c_.zombies; break;
      case Verdict::kStale: ++c_.stale; break;
      case Verdict::kClosed: ++c_.closed; break;
    }
    return v;
  }
  void emit(const Ctl& c) {
    out_.push_back(c);
    if (c.complete) return void(++c_.acks);
    ++c_.resends;
    if (c.timeout) ++c_.timeouts;
    if (c.go_back) ++c_.go_backs;
  }
  void fire_until(uint64_t cycle) {
    if (cfg_.timer_by_visit) return;
    while (deadline_ <= cycle) expire(deadline_);
  }
  /// The timer fires at `at` (>= the deadline) and restarts from there.
  void expire(uint64_t at) {
    ++streak_;
    Ctl c;
    c.cycle = at;
    c.wbase = cell_.wbase();
    c.timeout = true;
    c.go_back = cfg_.go_back_after != 0 && streak_ >= cfg_.go_back_after;
    if (c.go_back) streak_ = 0;
    emit(c);
    deadline_ = at + cfg_.resend_timeout;
  }
  void move_time(uint64_t cycle) {
    if (cycle < now_) throw std::invalid_argument("WindowRx: time went backwards");
    now_ = cycle;
  }

  WindowConfig cfg_;
  WindowCell cell_;
  bool open_ = false;
  MsgTag tag_;
  uint32_t first_ = 0, count_ = 0;
  bool complete_ = false;
  uint64_t done_cycle_ = 0;
  uint32_t streak_ = 0;
  uint64_t deadline_ = kNever;
  uint64_t now_ = 0;
  std::vector<Ctl> out_;
  Counters c_;
};

/// The reference scheme's whole-message baseline (the "receiver counter" scheme): the
/// receiver counts the packets of the current attempt (a packet of another
/// attempt is stale, dropped; a repeat within the attempt is a duplicate -
/// a generous counter, a plain one could not tell); the message completes
/// when all N of one attempt have arrived. T cycles after the attempt began
/// or its last packet arrived, an incomplete message starts attempt + 1:
/// progress is discarded and a RESEND with the go-back flag, wbase = F and
/// the new attempt number asks for the whole message again (repeated every
/// T while nothing of the new attempt arrives). T must exceed the RTT plus
/// the channel's jitter, or a restart is overtaken by the next.
class CounterRx {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  explicit CounterRx(uint64_t timeout) : timeout_(timeout) {
    if (timeout == 0) throw std::invalid_argument("CounterRx: timeout must be >= 1");
  }
  void open(uint64_t cycle, const MsgTag& tag, uint32_t first, uint32_t count) {
    if (count == 0) throw std::invalid_argument("CounterRx: needs a packet count");
    now_ = cycle;
    tag_ = tag;
    first_ = first;
    got_.assign(count, 0);
    have_ = 0;
    attempt_ = 0;
    complete_ = false;
    deadline_ = cycle + timeout_;
  }
  Verdict arrive(uint64_t cycle, const MsgTag& tag, uint32_t i, uint32_t attempt) {
    if (cycle > 0) fire_until(cycle - 1);
    now_ = cycle;
    ++c_.arrivals;
    if (tag != tag_) return ++c_.zombies, Verdict::kZombie;
    if (attempt != attempt_) return ++c_.stale, Verdict::kStale;
    const uint32_t d = seq_dist(first_, i);
    if (d >= got_.size()) return ++c_.beyond_message, Verdict::kBeyondMessage;
    if (complete_ || got_[d]) return ++c_.duplicates, Verdict::kDuplicate;
    got_[d] = 1;
    ++c_.delivered;
    if (++have_ == got_.size()) {
      complete_ = true;
      done_cycle_ = cycle;
      ++c_.completed;
      deadline_ = kNever;
    } else {
      deadline_ = cycle + timeout_;
    }
    return Verdict::kDeliver;
  }
  void advance(uint64_t cycle) {
    fire_until(cycle);
    now_ = cycle;
  }
  uint64_t next_timer() const { return deadline_; }
  std::vector<Ctl> take_ctl() {
    std::vector<Ctl> out;
    out.swap(out_);
    return out;
  }
  bool complete() const { return complete_; }
  uint64_t done_cycle() const { return done_cycle_; }
  uint32_t attempt() const { return attempt_; }
  const Counters& counters() const { return c_; }

 private:
  void fire_until(uint64_t cycle) {
    while (deadline_ <= cycle) {
      ++attempt_;
      std::fill(got_.begin(), got_.end(), 0);
      have_ = 0;
      Ctl c;
      c.cycle = deadline_;
      c.wbase = first_;
      c.go_back = true;
      c.timeout = true;
      c.attempt = attempt_;
      out_.push_back(c);
      ++c_.resends;
      ++c_.timeouts;
      ++c_.go_backs;
      deadline_ += timeout_;
    }
  }

  uint64_t timeout_;
  MsgTag tag_;
  uint32_t first_ = 0;
  std::vector<uint8_t> got_;
  std::size_t have_ = 0;
  uint32_t attempt_ = 0;
  bool complete_ = false;
  uint64_t done_cycle_ = 0;
  uint64_t deadline_ = kNever;
  uint64_t now_ = 0;
  std::vector<Ctl> out_;
  Counters c_;
};

/// How the sender recovers.
enum class Recovery : uint8_t {
  kPartial,       // RESEND: the packet(s) named; go-back flag: from WBASE on
  kWholeMessage,  // a RESEND naming a newer attempt restarts the message (CounterRx)
};

/// Which packet a beyond-window RESEND (sack_valid) makes a partial sender
/// retransmit. receiver.md names WBASE; the reference scheme asks for the
/// packet dropped; the receiver sends both, the sender picks.
enum class BeyondAction : uint8_t { kBase, kDropped, kBoth };

struct TxConfig {
  MsgTag tag;
  uint32_t first = 0;
  uint32_t count = 1024;    // N packets (>= 1)
  uint32_t pace = 1;        // cycles per packet sent (1: line rate)
  Recovery recovery = Recovery::kPartial;
  BeyondAction beyond = BeyondAction::kBase;
  uint64_t holdoff = 0;     // a single RESEND of a packet sent less than this many cycles ago is ignored
};

/// A packet on the wire.
struct TxPkt {
  MsgTag tag;
  uint32_t idx = 0;
  uint32_t attempt = 0;     // whole-message attempt (0 in partial mode)
  bool retransmit = false;  // sent before (in any attempt)
};

struct TxCounters {
  uint64_t sent = 0;
  uint64_t retransmits = 0;   // packets sent again (single, go-back or restart)
  uint64_t singles = 0;       // RESENDs that queued one packet
  uint64_t ignored = 0;       // RESENDs held off or naming nothing to send
  uint64_t go_backs = 0;
  uint64_t restarts = 0;      // whole-message restarts
};

/// Sends [first, first + count) in order at one packet per `pace` cycles;
/// retransmissions queued by single RESENDs go before the next packet of
/// the stream. Go-back sets the stream pointer back to WBASE (everything
/// from there is sent again, in order). Whole-message mode restarts the
/// stream at `first` under the RESEND's attempt number.
class Sender {
 public:
  explicit Sender(TxConfig cfg) : cfg_(cfg), last_sent_(cfg.count, kUnsent), queued_(cfg.count, 0) {
    if (cfg.count == 0 || cfg.count >= 0x8000'0000u || cfg.pace == 0)
      throw std::invalid_argument("Sender: count in [1, 2^31) and pace >= 1");
    ptr_ = 0;
  }

  /// The packet that leaves in `cycle`, if any (call at most once per
  /// cycle, cycles non-decreasing).
  std::optional<TxPkt> poll(uint64_t cycle) {
    if (sent_any_ && cycle < last_tx_ + cfg_.pace) return std::nullopt;
    uint32_t d;
    if (!queue_.empty()) {
      d = queue_.front();
      queue_.pop_front();
      queued_[d] = 0;
    } else if (ptr_ < cfg_.count) {
      d = ptr_++;
    } else {
      return std::nullopt;
    }
    TxPkt p;
    p.tag = cfg_.tag;
    p.idx = cfg_.first + d;
    p.attempt = attempt_;
    p.retransmit = last_sent_[d] != kUnsent;
    if (p.retransmit) ++c_.retransmits;
    ++c_.sent;
    last_sent_[d] = cycle;
    last_tx_ = cycle;
    sent_any_ = true;
    return p;
  }

  /// A RESEND reaches the sender in `cycle`.
  void on_ctl(uint64_t cycle, const Ctl& c) {
    if (c.complete) return;  // the completion ACK: nothing to send
    if (cfg_.recovery == Recovery::kWholeMessage) {
      if (c.attempt <= attempt_) return void(++c_.ignored);
      attempt_ = c.attempt;
      ++c_.restarts;
      restart_from(0);
      return;
    }
    const uint32_t base = seq_dist(cfg_.first, c.wbase);
    if (c.go_back) {
      if (base >= cfg_.count) return void(++c_.ignored);
      ++c_.go_backs;
      restart_from(base);
      return;
    }
    bool any = false;
    if (!c.sack_valid || cfg_.beyond != BeyondAction::kDropped) any |= single(cycle, base);
    if (c.sack_valid && cfg_.beyond != BeyondAction::kBase)
      any |= single(cycle, seq_dist(cfg_.first, c.sack_idx));
    if (!any) ++c_.ignored;
  }

  /// Nothing left to send (until another RESEND).
  bool idle() const { return queue_.empty() && ptr_ >= cfg_.count; }
  uint32_t attempt() const { return attempt_; }
  const TxCounters& counters() const { return c_; }
  const TxConfig& config() const { return cfg_; }

 private:
  static constexpr uint64_t kUnsent = UINT64_MAX;

  /// Queues packet d (offset from first) unless it is out of range, already
  /// queued, never sent yet, or sent less than holdoff cycles ago.
  bool single(uint64_t cycle, uint32_t d) {
    if (d >= cfg_.count || queued_[d] || last_sent_[d] == kUnsent) return false;
    if (cycle - last_sent_[d] < cfg_.holdoff) return false;
    if (d >= ptr_) return false;  // a go-back will send it anyway
    queue_.push_back(d);
    queued_[d] = 1;
    ++c_.singles;
    return true;
  }
  void restart_from(uint32_t d) {
    for (uint32_t q : queue_) queued_[q] = 0;
    queue_.clear();
    ptr_ = d;
  }

  TxConfig cfg_;
  std::vector<uint64_t> last_sent_;  // per offset: cycle of its last send
  std::vector<uint8_t> queued_;
  std::deque<uint32_t> queue_;       // single retransmissions, oldest first
  uint32_t ptr_ = 0;                 // next offset of the in-order stream
  uint32_t attempt_ = 0;
  uint64_t last_tx_ = 0;
  bool sent_any_ = false;
  TxCounters c_;
};

}  // namespace tonic::window_mode
