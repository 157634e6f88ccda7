// SPDX-License-Identifier: Apache-2.0
// FuzzTop: one fuzz input -> a cycle-by-cycle stimulus of tonic_top, with
// the engine's invariants checked on every cycle (docs/fuzz.md).
//
// The input is a byte string read as a list of steps (format in
// docs/fuzz.md, decoder in run()). Steps queue control ops (ADD, POST,
// REMOVE with flow, seq and length), drive rx packets of any type (values
// relative to the flow's state, or raw 32-bit), set the back-pressure
// patterns of seg_ready_i / note_ready_i, or idle. Then a drain phase with
// every output ready must let the held control op through and every queued
// address out.
//
// A violated invariant prints the reason and the cycle to stderr and calls
// abort() (a libFuzzer crash; a failed replay). Verilator's `--assert`
// assertions abort by themselves (fatalOnError). Invariants:
//  - outputs carry flow ids < FlowCount; cr_enq_drop_o stays 0;
//  - the segment rules (SegmentScoreboard, tonic/segment_scoreboard.hpp,
//    applied to the decisions):
//    every next-seg decision (trace_ns_o) is for a present flow; a new
//    segment is exactly the flow's next never-sent index and below its
//    posted limit; a retransmission lies in [first, next never-sent) and
//    not below a window start seen earlier;
//  - every address that leaves (seg_*) is the oldest decision of its flow
//    not yet out (so nothing is invented, lost, reordered or duplicated),
//    with the right length; at most RingN of a flow are queued;
//  - ADD executes only once the flow's earlier addresses have all left;
//  - the probe of flow (cycle mod FlowCount): wnd_start <= next_new <=
//    wnd_start + Window, next_new equals the model's, wnd_start never
//    moves back and never before the flow's first index;
//  - every 32-bit word of stats_o and credit_stats_o is non-decreasing;
//  - drain: the held control op is accepted, and each address queued at
//    the start of the drain leaves, within a bound.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <utility>
#include <vector>

#include "tonic/harness.hpp"
#include "tonic/segment_scoreboard.hpp"
#include "tonic/seq.hpp"
#include "tonic/top_drive.hpp"

namespace tonic::fuzz {

/// The build under test: its sizes (parameters of the Verilated model).
struct FuzzConfig {
  const char* name;
  uint32_t flows;    // FlowCount (a power of two)
  uint32_t window;   // Window (W)
  uint32_t ring_n;   // RingN (the CR ring per flow)
};

/// Stimulus limits (per input).
constexpr uint64_t kMaxStimCycles = 6000;  // cycles of stimulus at most
constexpr size_t kMaxCtrlQueue = 8;        // control ops waiting for ready; more are dropped

/// Reads the input; past the end every read gives 0.
class ByteReader {
 public:
  ByteReader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool done() const { return i_ >= n_; }
  uint8_t u8() { return i_ < n_ ? p_[i_++] : 0; }
  uint16_t u16() {
    const uint16_t lo = u8();
    return static_cast<uint16_t>(lo | (u8() << 8));
  }
  uint32_t u32() {
    const uint32_t lo = u16();
    return lo | (static_cast<uint32_t>(u16()) << 16);
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t i_ = 0;
};

/// Whether the model's flow id inputs are 16 bits wide (ids >= FlowCount
/// are then counted bad input) or IdW bits (only ids < FlowCount exist).
/// The C++ type of a Verilated port says which: uint8_t up to 8 bits,
/// uint16_t for 9..16.
template <class Model>
constexpr bool kWideFlowIds = sizeof(std::declval<Model&>().ctrl_flow_i) >= 2;

/// The one place where an input byte becomes a flow id. Narrow ports: the
/// byte modulo FlowCount. Wide ports: bytes 0xF8..0xFF give ids just above
/// FlowCount or at the top of the 16-bit range (bad input), the rest the
/// byte modulo FlowCount.
template <class Model>
uint32_t flow_from_byte(uint8_t b, uint32_t flows) {
  if constexpr (kWideFlowIds<Model>) {
    if (b >= 0xF8) return (b & 1) ? 0xFFFFu - ((b >> 1) & 3) : flows + ((b >> 1) & 3);
  }
  return b & (flows - 1);
}

/// Faults the self-test injects into what the harness observes or expects
/// (fuzz_replay --self-test): each must make some seed input abort.
enum class Mutation : int {
  kNone = 0,
  kSegIdx,     // the 5th address out is seen with index + 1
  kRepeatNew,  // the model does not advance next never-sent after the 3rd new segment
  kLoseSeg,    // the 3rd address out is not seen
  kPosted,     // the model's posted limit is one lower
  kWindow,     // the model's Window is a quarter of the real one
  kRingN,      // the model's RingN is 2
  kCount
};
inline const char* mutation_name(Mutation m) {
  static const char* const names[] = {"none", "seg_idx", "repeat_new", "lose_seg", "posted", "window", "ring_n"};
  return names[static_cast<int>(m)];
}

template <class Model>
class FuzzTop {
 public:
  explicit FuzzTop(const FuzzConfig& cfg, bool verbose = false, Mutation mut = Mutation::kNone)
      : cfg_(cfg), verbose_(verbose), mut_(mut), flows_(cfg.flows) {
    if (mut_ == Mutation::kWindow) cfg_.window /= 4;
    if (mut_ == Mutation::kRingN) cfg_.ring_n = 2;
    sb_ = SegmentScoreboard(flows_, options(cfg_.ring_n));
  }

  /// The harness's segment rules: applied to every decision, each address
  /// the oldest decision of its flow, at most RingN queued, a removed
  /// flow's queued addresses leave (ADD executes only once they have).
  static ScoreboardOptions options(uint32_t ring_n) {
    ScoreboardOptions o;
    o.after_remove = ScoreboardOptions::AfterRemove::kDrain;
    o.check_posted = true;
    o.check_len = true;
    o.generation_order = true;
    o.rules_at_generation = true;
    o.ring_n = ring_n;
    return o;
  }

  /// Runs one input from reset; aborts on a violated invariant. Returns the
  /// number of cycles simulated.
  uint64_t run(const uint8_t* data, size_t size) {
    Harness<Model> h;
    h_ = &h;
    reset_and_wait_init(h, cfg_.flows + 64, cfg_.name);
    prev_stats_.assign(kStatWords + kCreditWords, 0);
    read_stats(prev_stats_);
    ByteReader in(data, size);
    uint64_t stim = 0;
    while (!in.done() && stim < kMaxStimCycles) stim += step(in);
    drain();
    if (verbose_) {
      uint64_t segs = 0;
      for (uint32_t f = 0; f < flows_; ++f) segs += sb_.flow(f).total_out;
      std::fprintf(stderr, "run: %llu stimulus cycles, %llu in all, %llu addresses out; stats_o words (segments first):",
                   static_cast<unsigned long long>(stim), static_cast<unsigned long long>(h.cycle()),
                   static_cast<unsigned long long>(segs));
      for (uint32_t v : prev_stats_) std::fprintf(stderr, " %u", v);
      std::fprintf(stderr, "\n");
    }
    h_ = nullptr;
    return stim;
  }

 private:
  // The engine's view of a flow (present, first, next never-sent =
  // snd_max, posted, lengths, decisions queued, addresses out) is
  // sb_.flow(f) / sb_.queued(f); what only the harness needs is here.
  struct Flow {
    uint32_t start_lb = 0;      // a lower bound of wnd_start (probe)
    bool start_seen = false;
    uint64_t added_at = 0;      // cycle the ADD executed
    uint32_t ack_hint = 0;      // highest cumulative ack driven, <= next (stimulus only)
  };
  struct Held {  // the op in the engine's register, accepted, not executed
    bool valid = false;
    CtrlCmd op;
    uint64_t at = 0;
  };

  static constexpr uint32_t kNoProbe = 0xFFFFFFFFu;
  static constexpr size_t kStatWords = sizeof(Model::stats_o) / sizeof(uint32_t);
  static constexpr size_t kCreditWords = sizeof(Model::credit_stats_o) / sizeof(uint32_t);

  Model& d() { return h_->dut(); }

  [[noreturn]] void fail(const char* what, uint32_t flow = 0, uint32_t a = 0, uint32_t b = 0) {
    std::fprintf(stderr, "FUZZ INVARIANT [%s] cycle %llu: %s (flow %u, values %u %u)\n", cfg_.name,
                 static_cast<unsigned long long>(h_->cycle()), what, flow, a, b);
    std::fflush(stderr);
    std::abort();
  }
  /// Aborts if the scoreboard found a violation.
  void check_sb() {
    if (sb_.errors() == 0) return;
    std::fprintf(stderr, "FUZZ INVARIANT [%s] %s\n", cfg_.name, sb_.first_error().c_str());
    std::fflush(stderr);
    std::abort();
  }

  // ---------------------------------------------------------------- decoding
  /// One step of the input; returns the cycles it took.
  uint64_t step(ByteReader& in) {
    const uint8_t op = in.u8();
    switch (op & 0x0F) {
      case 0: case 1: {  // ADD: flow, first index (small or raw), segment size
        const uint32_t f = flow_from_byte<Model>(in.u8(), flows_);
        const uint8_t k = in.u8();
        const uint32_t seq = (op & 0x10) ? in.u32() : (0xFFFFFF00u + k * 3u);  // near the wrap
        const uint32_t len = (op & 0x20) ? in.u16() : 64u + k;
        push_ctrl({CtrlOp::kAdd, f, seq, len});
        return cycle();
      }
      case 2: case 3: case 4: {  // POST: flow, delta, last length
        const uint32_t f = flow_from_byte<Model>(in.u8(), flows_);
        const uint8_t k = in.u8();
        const ScoreFlow* fl = f < flows_ ? &sb_.flow(f) : nullptr;
        const uint32_t base = fl ? fl->posted : 0;
        uint32_t seq = base + 1 + (k & 0x3F);
        if ((op & 0x30) == 0x30) seq = base - 1 - (k & 7);                        // backwards
        else if ((op & 0x30) == 0x20 && (k & 0xC0) == 0xC0) seq = base + 0x40000001u + k;  // > 2^30 ahead
        else if ((op & 0x30) == 0x10) seq = base;                                // no new data
        else if (k & 0x40) seq = base + 1 + (k & 0x3F) * 4u;
        const uint32_t last = (op & 0x40) ? 1u + (in.u8() & 0x3F) : (fl ? fl->seg_size : 64u);
        push_ctrl({CtrlOp::kPost, f, seq, last});
        return cycle();
      }
      case 5: {  // REMOVE
        push_ctrl({CtrlOp::kRemove, flow_from_byte<Model>(in.u8(), flows_), 0, 0});
        return cycle();
      }
      case 6: case 7: case 8: {  // rx relative to the flow's state
        const uint32_t f = flow_from_byte<Model>(in.u8(), flows_);
        const uint8_t k = in.u8();
        const uint8_t m = in.u8();
        RxCmd r;
        r.flow = f;
        r.type = static_cast<RxType>((op >> 4) & 7);  // 6, 7: unknown types
        Flow& fl = st_[f & (flows_ - 1)];
        const uint32_t next = sb_.flow(f & (flows_ - 1)).snd_max;
        const uint32_t lo = fl.ack_hint;
        const uint32_t span = (next - lo) <= 0x10000u ? next - lo : 0u;
        switch (k & 3) {
          case 0: r.cum_ack = next; break;                          // everything sent
          case 1: r.cum_ack = lo + ((k >> 2) % (span + 1)); break;  // inside
          case 2: r.cum_ack = lo; break;                                // duplicate
          default: r.cum_ack = next + 1 + (k >> 2); break;          // beyond next_new
        }
        r.sack_valid = m & 1;
        r.sack_idx = lo + (m >> 1) - ((m & 0x80) ? 0x50 : 0);
        r.ecn = (m >> 7) & 1;
        r.grant = (op & 0x80) ? in.u16() : static_cast<uint16_t>(m & 0x1F);
        note_ack(fl, next, r.cum_ack);
        return cycle(&r);
      }
      case 9: {  // rx, raw fields
        RxCmd r;
        r.flow = flow_from_byte<Model>(in.u8(), flows_);
        r.type = static_cast<RxType>((op >> 4) & 7);
        r.cum_ack = in.u32();
        r.sack_valid = op & 0x80;
        r.sack_idx = in.u32();
        r.ecn = in.u8() & 1;
        r.grant = in.u16();
        return cycle(&r);
      }
      case 10: {  // back-pressure patterns (a bit per cycle, 16-cycle period)
        seg_ready_pat_ = in.u16();
        note_ready_pat_ = (op & 0x10) ? in.u16() : 0xFFFF;
        return cycle();
      }
      case 11: case 12: {  // idle run
        const uint32_t n = (op & 0x10) ? 8u * (in.u8() + 1u) : 1u + (op >> 5);
        uint64_t c = 0;
        for (uint32_t i = 0; i < n; ++i) c += cycle();
        return c;
      }
      case 13: {  // ack everything sent of one flow, then idle a little
        const uint32_t f = flow_from_byte<Model>(in.u8(), flows_);
        RxCmd r;
        r.flow = f;
        r.type = RxType::kAck;
        r.cum_ack = sb_.flow(f & (flows_ - 1)).snd_max;
        r.grant = static_cast<uint16_t>(op >> 4);
        note_ack(st_[f & (flows_ - 1)], r.cum_ack, r.cum_ack);
        return cycle(&r);
      }
      default: {  // 14, 15: ADD + POST of a fresh flow in one step
        const uint32_t f = flow_from_byte<Model>(in.u8(), flows_);
        const uint32_t seq = (op & 0x10) ? 0x7FFFFFF0u : 1000u * (f + 1);
        push_ctrl({CtrlOp::kAdd, f, seq, 128});
        push_ctrl({CtrlOp::kPost, f, seq + 1 + (op >> 5) * 9u, 128});
        return cycle();
      }
    }
  }

  /// The highest cumulative ack driven that the engine may take (not
  /// beyond next_new): the base of the relative rx values.
  static void note_ack(Flow& fl, uint32_t next, uint32_t cum) {
    if (seq_lt(fl.ack_hint, cum) && seq_le(cum, next)) fl.ack_hint = cum;
  }

  void push_ctrl(const CtrlCmd& c) {
    if (ctrl_q_.size() < kMaxCtrlQueue) ctrl_q_.push_back(c);
  }

  // ------------------------------------------------------------- one cycle
  /// Drives one cycle (with an rx beat if given) and checks it.
  uint64_t cycle(const RxCmd* rx = nullptr, bool drain = false) {
    Model& m = d();
    const uint64_t c = h_->cycle();
    drive_ctrl(m, ctrl_q_);
    m.rx_valid_i = 0;
    if (rx) drive_rx_beat(m, *rx, rx->ecn, rx->grant);
    m.seg_ready_i = drain || ((seg_ready_pat_ >> (c & 15)) & 1);
    m.note_ready_i = drain || ((note_ready_pat_ >> (c & 15)) & 1);
    // The probe reads through a registered port: hold each flow for two
    // cycles and check in the second (its value then is the state at the
    // start of that cycle, docs/sender-core.md).
    const uint32_t probe = static_cast<uint32_t>((c >> 1) & (flows_ - 1));
    m.probe_flow_i = probe;
    h_->eval();
    if (verbose_) trace_cycle(probe);
    check_cycle((c & 1) ? probe : kNoProbe);
    if (m.ctrl_valid_i && m.ctrl_ready_o) {
      held_ = {true, ctrl_q_.front(), c};
      ctrl_q_.pop_front();
    }
    h_->tick();
    return 1;
  }

  /// One line per cycle with what happened on the ports (fuzz_replay -v).
  void trace_cycle(uint32_t probe) {
    Model& m = d();
    std::fprintf(stderr, "%5llu", static_cast<unsigned long long>(h_->cycle()));
    if (m.ctrl_valid_i)
      std::fprintf(stderr, " ctrl%s op%u f%u seq%u len%u", m.ctrl_ready_o ? "+" : "-", unsigned(m.ctrl_op_i),
                   unsigned(m.ctrl_flow_i), unsigned(m.ctrl_seq_i), unsigned(m.ctrl_len_i));
    if (m.rx_valid_i)
      std::fprintf(stderr, " rx f%u t%u cum%u sack%u:%u", unsigned(m.rx_flow_i), unsigned(m.rx_type_i),
                   unsigned(m.rx_cum_ack_i), unsigned(m.rx_sack_valid_i), unsigned(m.rx_sack_idx_i));
    const uint64_t ns = m.trace_ns_o;
    if ((ns >> 49) & 1)
      std::fprintf(stderr, " ns f%u idx%u%s", unsigned((ns >> 32) & 0xFFFF), unsigned(ns), ((ns >> 48) & 1) ? " rtx" : "");
    if (m.seg_valid_o)
      std::fprintf(stderr, " seg%s f%u idx%u%s len%u", m.seg_ready_i ? "+" : "-", unsigned(m.seg_flow_o),
                   unsigned(m.seg_idx_o), m.seg_rtx_o ? " rtx" : "", unsigned(m.seg_len_o));
    std::fprintf(stderr, " probe f%u ws%u nn%u wnd%u\n", probe, unsigned(m.probe_start_o), unsigned(m.probe_next_o),
                 unsigned(m.probe_wnd_o));
  }

  void check_cycle(uint32_t probe) {
    Model& m = d();
    const uint64_t c = h_->cycle();
    if (m.cr_enq_drop_o) fail("cr_enq_drop_o: a CR ring overflowed");
    if (m.active_flows_o > flows_ || m.ready_flows_o > flows_) fail("flow count output above FlowCount", 0, m.active_flows_o, m.ready_flows_o);

    // The probe (before this cycle's writes).
    if (probe < flows_ && sb_.flow(probe).added) {
      Flow& fl = st_[probe];
      const ScoreFlow& e = sb_.flow(probe);
      const uint32_t ws = m.probe_start_o, nn = m.probe_next_o;
      if (nn != e.snd_max) fail("probe: next_new differs from the addresses generated", probe, nn, e.snd_max);
      if (!seq_le(ws, nn)) fail("probe: wnd_start beyond next_new", probe, ws, nn);
      if (nn - ws > cfg_.window) fail("probe: more than Window segments outstanding", probe, ws, nn);
      if (!seq_le(e.start, ws)) fail("probe: wnd_start before the flow's first index", probe, ws, e.start);
      if (fl.start_seen && seq_lt(ws, fl.start_lb)) fail("probe: wnd_start moved back", probe, ws, fl.start_lb);
      if (c >= fl.added_at + 4 && (m.probe_wnd_o < 1 || m.probe_wnd_o > cfg_.window))
        fail("probe: cwnd outside 1..Window", probe, m.probe_wnd_o);
    }

    // The next-seg decision of this cycle (checked against the state before it).
    const uint64_t ns = m.trace_ns_o;
    if ((ns >> 49) & 1) {
      const bool rtx = (ns >> 48) & 1;
      const uint32_t f = static_cast<uint32_t>((ns >> 32) & 0xFFFF);
      const uint32_t idx = static_cast<uint32_t>(ns);
      if (mut_ == Mutation::kPosted && !rtx && f < flows_ && sb_.flow(f).added && sb_.flow(f).posted_known &&
          idx + 1 == sb_.flow(f).posted)  // self-test: the posted limit one lower
        fail("next-seg: new segment at or beyond posted", f, idx, sb_.flow(f).posted - 1);
      sb_.generated(c, f, idx, rtx);
      check_sb();
      if (!rtx && mut_ == Mutation::kRepeatNew && ++news_ == 3) sb_.mutable_flow(f).snd_max = idx;  // self-test
      // Beyond the scoreboard: not below a window start seen earlier.
      const Flow& fl = st_[f];
      if (rtx && fl.start_seen && seq_lt(idx, fl.start_lb)) fail("next-seg: retransmission below wnd_start", f, idx, fl.start_lb);
    }

    // An address leaving.
    if (m.seg_valid_o && m.seg_ready_i && !(mut_ == Mutation::kLoseSeg && ++outs_ == 3)) {
      const uint32_t seg_idx = m.seg_idx_o + (mut_ == Mutation::kSegIdx && ++outs_ == 5 ? 1 : 0);
      sb_.segment(c, m.seg_flow_o, seg_idx, m.seg_rtx_o, m.seg_len_o);
      check_sb();
    }
    if (m.note_valid_o && m.note_ready_i && m.note_flow_o >= flows_) fail("note: flow id >= FlowCount", m.note_flow_o);

    // Counters only grow.
    std::vector<uint32_t>& now = stats_scratch_;
    now.resize(prev_stats_.size());
    read_stats(now);
    for (size_t i = 0; i < now.size(); ++i)
      if (now[i] < prev_stats_[i]) fail("a counter of stats_o/credit_stats_o went down", static_cast<uint32_t>(i), now[i], prev_stats_[i]);
    prev_stats_.swap(now);

    // wnd_start lower bound from this cycle's probe (for later cycles; before an op of
    // this cycle changes the flow).
    if (probe < flows_ && sb_.flow(probe).added) {
      st_[probe].start_lb = m.probe_start_o;
      st_[probe].start_seen = true;
    }

    // The held op executes in this cycle iff ctrl_ready_o is high (the
    // engine's rule: ready = !op held || op fires). Its effect is seen from
    // the next cycle on.
    if (held_.valid && held_.at < c && m.ctrl_ready_o) {
      execute(held_.op);
      held_.valid = false;
    }

  }

  /// The engine's control rules (docs/sender-core.md, bad input).
  void execute(const CtrlCmd& k) {
    if (k.flow >= flows_) return;  // bad input (wide ids only)
    const ScoreFlow& e = sb_.flow(k.flow);
    switch (k.op) {
      case CtrlOp::kAdd:
        if (e.added) return;
        sb_.add(h_->cycle(), k.flow, k.seq, k.len & 0xFFFF);  // a violation if addresses are still queued
        check_sb();
        st_[k.flow] = Flow{};
        st_[k.flow].added_at = h_->cycle();
        st_[k.flow].ack_hint = k.seq;
        return;
      case CtrlOp::kPost: {
        if (!e.added || seq_lt(k.seq, e.posted)) return;
        // Accepted iff seq <= wnd_start + 2^30, wnd_start in [first, next].
        const bool surely = seq_le(k.seq, e.start + 0x40000000u);
        const bool never = seq_lt(e.snd_max + 0x40000000u, k.seq);
        if (never) return;
        sb_.post(k.flow, k.seq, k.len & 0xFFFF, surely);
        return;
      }
      case CtrlOp::kRemove:
        sb_.remove(k.flow);
        return;
    }
  }

  /// Every output ready, no new input: the held op must be accepted and
  /// every address queued now must leave, within a bound.
  void drain() {
    while (ctrl_q_.size() > 1) ctrl_q_.pop_back();
    std::vector<uint64_t> target(flows_);
    for (uint32_t f = 0; f < flows_; ++f) target[f] = sb_.flow(f).total_out + sb_.queued(f).size();
    const uint64_t bound = 256 + 2ull * flows_ * cfg_.ring_n;
    for (uint64_t i = 0; i < bound; ++i) {
      bool done = ctrl_q_.empty() && !held_.valid;
      for (uint32_t f = 0; f < flows_ && done; ++f) done = sb_.flow(f).total_out >= target[f];
      if (done) return;
      cycle(nullptr, true);
    }
    if (!ctrl_q_.empty() || held_.valid)
      fail("drain: a control op is still waiting", ctrl_q_.empty() ? held_.op.flow : ctrl_q_.front().flow);
    for (uint32_t f = 0; f < flows_; ++f)
      if (sb_.flow(f).total_out < target[f])
        fail("drain: addresses queued at the start of the drain did not leave", f, static_cast<uint32_t>(target[f] - sb_.flow(f).total_out));
  }

  void read_stats(std::vector<uint32_t>& out) {
    Model& m = d();
    for (size_t i = 0; i < kStatWords; ++i) out[i] = m.stats_o[i];
    for (size_t i = 0; i < kCreditWords; ++i) out[kStatWords + i] = m.credit_stats_o[i];
  }

  FuzzConfig cfg_;
  bool verbose_;
  Mutation mut_;
  uint64_t news_ = 0, outs_ = 0;  // counts for the mutations
  uint32_t flows_;
  Harness<Model>* h_ = nullptr;
  std::vector<Flow> st_ = std::vector<Flow>(flows_);
  SegmentScoreboard sb_{flows_};  // set in the constructor (after the mutations of cfg_)
  std::deque<CtrlCmd> ctrl_q_;
  Held held_;
  uint16_t seg_ready_pat_ = 0xFFFF, note_ready_pat_ = 0xFFFF;
  std::vector<uint32_t> prev_stats_, stats_scratch_;
};

}  // namespace tonic::fuzz
