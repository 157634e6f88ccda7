// SPDX-License-Identifier: Apache-2.0
// MpmemRef: cycle-accurate reference model of tonic_mpmem (plain C++, no
// Verilator headers).
//
// Use it like the hardware: stage this cycle's inputs with set_write() /
// set_read(), then clock() applies the rising edge. After clock(), the
// outputs rd_valid(r) / rd_data(r) are what the DUT shows in the next
// cycle. Rules (see rtl/common/tonic_mpmem.sv):
// - read latency 1 cycle; rd_valid(r) = rd_en of the previous cycle;
// - a read sees the contents BEFORE the writes of its own cycle (a read in
//   the same cycle as a write to that address returns the old word; a read
//   in a later cycle returns the new one);
// - several writes to one address in one cycle: the highest port wins;
// - never-written addresses read as undefined: rd_defined(r) is false.
// Staged inputs are cleared by clock(); words are little-endian arrays of
// 64-bit words, bits above `width` ignored on input and zero on output.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tonic {

class MpmemRef {
 public:
  MpmemRef(unsigned write_ports, unsigned read_ports, unsigned depth, unsigned width)
      : wp_(write_ports),
        rp_(read_ports),
        depth_(depth),
        width_(width),
        words_((width + 63) / 64),
        top_mask_(width % 64 ? (uint64_t{1} << (width % 64)) - 1 : ~uint64_t{0}),
        mem_(static_cast<size_t>(depth) * words_, 0),
        written_(depth, 0),
        wr_en_(write_ports, 0),
        wr_addr_(write_ports, 0),
        wr_data_(static_cast<size_t>(write_ports) * words_, 0),
        rd_en_(read_ports, 0),
        rd_addr_(read_ports, 0),
        out_valid_(read_ports, 0),
        out_defined_(read_ports, 0),
        out_addr_(read_ports, 0),
        out_data_(static_cast<size_t>(read_ports) * words_, 0) {
    if (write_ports == 0 || read_ports == 0 || depth < 2 || width == 0) {
      throw std::invalid_argument("MpmemRef: bad geometry");
    }
  }

  unsigned write_ports() const { return wp_; }
  unsigned read_ports() const { return rp_; }
  unsigned depth() const { return depth_; }
  unsigned width() const { return width_; }
  /// 64-bit words per memory word.
  unsigned words() const { return words_; }

  /// Synchronous reset: clears rd_valid and the staged inputs (not the
  /// contents, like the hardware).
  void reset() {
    std::fill(out_valid_.begin(), out_valid_.end(), 0);
    clear_inputs();
  }

  /// Stages write port `p` for this cycle; `data` holds words() words.
  void set_write(unsigned p, bool en, uint32_t addr, const uint64_t* data) {
    check_port(p, wp_, "write");
    if (en) check_addr(addr);
    wr_en_[p] = en;
    wr_addr_[p] = addr;
    std::copy(data, data + words_, &wr_data_[static_cast<size_t>(p) * words_]);
    wr_data_[static_cast<size_t>(p) * words_ + words_ - 1] &= top_mask_;
  }

  /// Stages read port `r` for this cycle.
  void set_read(unsigned r, bool en, uint32_t addr) {
    check_port(r, rp_, "read");
    if (en) check_addr(addr);
    rd_en_[r] = en;
    rd_addr_[r] = addr;
  }

  /// Rising clock edge: reads capture the old contents, then writes apply
  /// in port order (so the highest port index wins), then inputs clear.
  void clock() {
    for (unsigned r = 0; r < rp_; ++r) {
      out_valid_[r] = rd_en_[r];
      if (!rd_en_[r]) continue;
      const uint32_t a = rd_addr_[r];
      out_addr_[r] = a;
      out_defined_[r] = written_[a];
      std::copy(&mem_[static_cast<size_t>(a) * words_], &mem_[static_cast<size_t>(a) * words_] + words_,
                &out_data_[static_cast<size_t>(r) * words_]);
    }
    for (unsigned p = 0; p < wp_; ++p) {
      if (!wr_en_[p]) continue;
      const uint32_t a = wr_addr_[p];
      std::copy(&wr_data_[static_cast<size_t>(p) * words_], &wr_data_[static_cast<size_t>(p) * words_] + words_,
                &mem_[static_cast<size_t>(a) * words_]);
      written_[a] = 1;
    }
    clear_inputs();
  }

  /// Outputs after clock(): what the DUT presents in the following cycle.
  bool rd_valid(unsigned r) const { return out_valid_.at(r) != 0; }
  /// The word read is defined (its address had been written before).
  bool rd_defined(unsigned r) const { return out_valid_.at(r) && out_defined_.at(r); }
  uint32_t rd_addr(unsigned r) const { return out_addr_.at(r); }
  const uint64_t* rd_data(unsigned r) const { return &out_data_.at(static_cast<size_t>(r) * words_); }

  /// Current contents of `addr` (for directed tests); nullptr if never written.
  const uint64_t* peek(uint32_t addr) const {
    check_addr(addr);
    return written_[addr] ? &mem_[static_cast<size_t>(addr) * words_] : nullptr;
  }

 private:
  void clear_inputs() {
    std::fill(wr_en_.begin(), wr_en_.end(), 0);
    std::fill(rd_en_.begin(), rd_en_.end(), 0);
  }
  static void check_port(unsigned i, unsigned n, const char* what) {
    if (i >= n) throw std::out_of_range(std::string("MpmemRef: no ") + what + " port " + std::to_string(i));
  }
  void check_addr(uint32_t a) const {
    if (a >= depth_) throw std::out_of_range("MpmemRef: address " + std::to_string(a) + " >= depth");
  }

  unsigned wp_, rp_, depth_, width_, words_;
  uint64_t top_mask_;
  std::vector<uint64_t> mem_;
  std::vector<uint8_t> written_;
  std::vector<uint8_t> wr_en_;
  std::vector<uint32_t> wr_addr_;
  std::vector<uint64_t> wr_data_;
  std::vector<uint8_t> rd_en_;
  std::vector<uint32_t> rd_addr_;
  std::vector<uint8_t> out_valid_, out_defined_;
  std::vector<uint32_t> out_addr_;
  std::vector<uint64_t> out_data_;
};

}  // namespace tonic
