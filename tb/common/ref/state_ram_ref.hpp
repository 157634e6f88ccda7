// SPDX-License-Identifier: Apache-2.0
// StateRamRef: cycle-accurate reference model of tonic_state_ram (plain C++,
// no Verilator headers).
//
// Use it like the hardware: stage this cycle's inputs with set_write(),
// set_clear() and set_read(); rd_data(r) / rd_defined(r) are then what the
// DUT shows on rdata_o[r] in this cycle; clock() applies the rising edge.
// Rules (rtl/common/tonic_state_ram.sv header): the memory holds Depth
// words S[0..Depth-1]; in each cycle
//   1. every enabled writer w stores S[waddr[w]] = wdata[w], writer 0 first,
//      so writer 1 wins two writes to one address;
//   2. then, with Clear, an enabled clear stores S[clr_addr] = Init (a clear
//      beats a write of the same address in the same cycle). Without Clear
//      the clear port is ignored.
// Reads:
//   - RegRead = 0: rd_data(r) = S[raddr[r]] at the start of the cycle
//     (before its writes), for the address staged in this cycle;
//   - RegRead = 1: rd_data(r) in cycle t+1 = S[raddr[r] of cycle t] after
//     the writes and the clear of cycle t (the address is presented one
//     cycle ahead; a same-cycle write is forwarded).
// Words never written or cleared are undefined: rd_defined(r) is false and
// rd_data(r) meaningless. Staged write and clear enables are cleared by
// clock(); read addresses are levels and stay until set again. Words are
// little-endian arrays of 64-bit words, bits above `width` ignored on input
// and zero on output.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tonic {

class StateRamRef {
 public:
  /// `init` holds words() words (the Init parameter; used only with Clear).
  StateRamRef(unsigned writers, unsigned readers, unsigned depth, unsigned width, bool reg_read,
              bool clear, const uint64_t* init)
      : writers_(writers),
        readers_(readers),
        depth_(depth),
        width_(width),
        reg_read_(reg_read),
        clear_(clear),
        words_((width + 63) / 64),
        top_mask_(width % 64 ? (uint64_t{1} << (width % 64)) - 1 : ~uint64_t{0}),
        init_(init, init + words_),
        mem_(static_cast<size_t>(depth) * words_, 0),
        defined_(depth, 0),
        we_(writers, 0),
        waddr_(writers, 0),
        wdata_(static_cast<size_t>(writers) * words_, 0),
        raddr_(readers, 0),
        out_defined_(readers, 0),
        out_addr_(readers, 0),
        out_data_(static_cast<size_t>(readers) * words_, 0) {
    if (writers < 1 || writers > 2 || readers == 0 || depth < 2 || width == 0) {
      throw std::invalid_argument("StateRamRef: bad geometry");
    }
    init_.back() &= top_mask_;
  }

  unsigned writers() const { return writers_; }
  unsigned readers() const { return readers_; }
  unsigned depth() const { return depth_; }
  unsigned width() const { return width_; }
  bool reg_read() const { return reg_read_; }
  bool has_clear() const { return clear_; }
  /// 64-bit words per memory word.
  unsigned words() const { return words_; }
  const uint64_t* init() const { return init_.data(); }

  /// Stages writer `w` for this cycle; `data` holds words() words.
  void set_write(unsigned w, bool en, uint32_t addr, const uint64_t* data) {
    check_port(w, writers_, "write");
    if (en) check_addr(addr);
    we_[w] = en;
    waddr_[w] = addr;
    uint64_t* dst = &wdata_[static_cast<size_t>(w) * words_];
    std::copy(data, data + words_, dst);
    dst[words_ - 1] &= top_mask_;
  }

  /// Stages the clear port for this cycle (ignored without Clear).
  void set_clear(bool en, uint32_t addr) {
    if (en) check_addr(addr);
    clr_ = en;
    clr_addr_ = addr;
  }

  /// Sets read address `r` (kept until set again).
  void set_read(unsigned r, uint32_t addr) {
    check_port(r, readers_, "read");
    check_addr(addr);
    raddr_[r] = addr;
  }

  /// rdata_o[r] in this cycle is defined (its word was written or cleared).
  bool rd_defined(unsigned r) const {
    check_port(r, readers_, "read");
    return reg_read_ ? out_defined_[r] != 0 : defined_[raddr_[r]] != 0;
  }
  /// The address whose word rdata_o[r] shows in this cycle.
  uint32_t rd_addr(unsigned r) const {
    check_port(r, readers_, "read");
    return reg_read_ ? out_addr_[r] : raddr_[r];
  }
  /// rdata_o[r] in this cycle (words() words; meaningful if rd_defined(r)).
  const uint64_t* rd_data(unsigned r) const {
    check_port(r, readers_, "read");
    return reg_read_ ? &out_data_[static_cast<size_t>(r) * words_]
                     : &mem_[static_cast<size_t>(raddr_[r]) * words_];
  }

  /// Rising clock edge: writes in writer order, then the clear; with
  /// RegRead the read registers capture the new state at the staged read
  /// addresses. Clears the staged write and clear enables.
  void clock() {
    for (unsigned w = 0; w < writers_; ++w) {
      if (!we_[w]) continue;
      const uint64_t* src = &wdata_[static_cast<size_t>(w) * words_];
      std::copy(src, src + words_, &mem_[static_cast<size_t>(waddr_[w]) * words_]);
      defined_[waddr_[w]] = 1;
    }
    if (clear_ && clr_) {
      std::copy(init_.begin(), init_.end(), &mem_[static_cast<size_t>(clr_addr_) * words_]);
      defined_[clr_addr_] = 1;
    }
    if (reg_read_) {
      for (unsigned r = 0; r < readers_; ++r) {
        const uint32_t a = raddr_[r];
        out_addr_[r] = a;
        out_defined_[r] = defined_[a];
        std::copy(&mem_[static_cast<size_t>(a) * words_], &mem_[static_cast<size_t>(a) * words_] + words_,
                  &out_data_[static_cast<size_t>(r) * words_]);
      }
    }
    std::fill(we_.begin(), we_.end(), 0);
    clr_ = false;
  }

  /// Current contents of `addr` (the state S between two edges); nullptr if
  /// never written or cleared.
  const uint64_t* peek(uint32_t addr) const {
    check_addr(addr);
    return defined_[addr] ? &mem_[static_cast<size_t>(addr) * words_] : nullptr;
  }

 private:
  static void check_port(unsigned i, unsigned n, const char* what) {
    if (i >= n) throw std::out_of_range(std::string("StateRamRef: no ") + what + " port " + std::to_string(i));
  }
  void check_addr(uint32_t a) const {
    if (a >= depth_) throw std::out_of_range("StateRamRef: address " + std::to_string(a) + " >= depth");
  }

  unsigned writers_, readers_, depth_, width_;
  bool reg_read_, clear_;
  unsigned words_;
  uint64_t top_mask_;
  std::vector<uint64_t> init_;
  std::vector<uint64_t> mem_;
  std::vector<uint8_t> defined_;
  std::vector<uint8_t> we_;
  std::vector<uint32_t> waddr_;
  std::vector<uint64_t> wdata_;
  bool clr_ = false;
  uint32_t clr_addr_ = 0;
  std::vector<uint32_t> raddr_;
  std::vector<uint8_t> out_defined_;
  std::vector<uint32_t> out_addr_;
  std::vector<uint64_t> out_data_;
};

}  // namespace tonic
