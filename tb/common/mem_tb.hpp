// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the memory testbenches (tonic_mpmem, tonic_state_ram):
// - packed::  bit fields of Verilator packed ports;
// - MemWords: the word type of a Depth x Width memory and access to field i
//   of its packed [N-1:0][AddrW-1:0] address and [N-1:0][Width-1:0] data ports;
// - ReadCheck: error count and first message of a driver that compares
//   every read word with a reference model;
// - MemBenchStim: the cheap random stimulus of the simulation-speed benchmarks.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "tonic/rng.hpp"

namespace tonic {

// ---------------------------------------------------------------------------
// Bit fields of packed ports. Verilator holds a packed port in an integer
// (<= 64 bits) or a VlWide (array of 32-bit words); field i of a
// [N-1:0][W-1:0] port is bits [i*W +: W].
namespace packed {

inline void put_bits(uint32_t* dst, unsigned lsb, unsigned width, const uint64_t* src) {
  unsigned done = 0;
  while (done < width) {
    const unsigned pos = lsb + done;
    const unsigned off = pos % 32;
    const unsigned n = std::min({32u - off, width - done, 64u - done % 64});
    const uint64_t chunk = (src[done / 64] >> (done % 64)) & ((uint64_t{1} << n) - 1);
    const uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << n) - 1) << off);
    dst[pos / 32] = (dst[pos / 32] & ~mask) | (static_cast<uint32_t>(chunk << off) & mask);
    done += n;
  }
}

inline void get_bits(const uint32_t* src, unsigned lsb, unsigned width, uint64_t* dst) {
  for (unsigned i = 0; i < (width + 63) / 64; ++i) dst[i] = 0;
  unsigned done = 0;
  while (done < width) {
    const unsigned pos = lsb + done;
    const unsigned off = pos % 32;
    const unsigned n = std::min({32u - off, width - done, 64u - done % 64});
    const uint64_t chunk = (src[pos / 32] >> off) & ((uint64_t{1} << n) - 1);
    dst[done / 64] |= chunk << (done % 64);
    done += n;
  }
}

template <class T>
void set_field(T& sig, unsigned lsb, unsigned width, const uint64_t* src) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t v = sig;
    uint32_t w[2] = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
    put_bits(w, lsb, width, src);
    sig = static_cast<T>(w[0] | (static_cast<uint64_t>(w[1]) << 32));
  } else {
    put_bits(sig.data(), lsb, width, src);
  }
}

template <class T>
void get_field(const T& sig, unsigned lsb, unsigned width, uint64_t* dst) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t v = sig;
    const uint32_t w[2] = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
    get_bits(w, lsb, width, dst);
  } else {
    get_bits(sig.data(), lsb, width, dst);
  }
}

/// Sets a port of at most 64 bits (whatever integer type Verilator gave it).
template <class T>
void set_int(T& sig, uint64_t v) {
  sig = static_cast<T>(v);
}

}  // namespace packed

/// A word as hex digits, most significant 64-bit word first.
template <size_t N>
std::string word_hex(const std::array<uint64_t, N>& w) {
  std::string s;
  for (size_t i = N; i-- > 0;) s += fmt::format("{:016x}", w[i]);
  return s;
}

// ---------------------------------------------------------------------------
/// Words of a Depth x Width memory: little-endian arrays of 64-bit words
/// (bits above Width zero), and field i of its packed ports.
template <unsigned Depth, unsigned Width>
struct MemWords {
  static constexpr unsigned Words = (Width + 63) / 64;
  static constexpr unsigned AddrW = [] {
    unsigned w = 0;
    while ((1u << w) < Depth) ++w;
    return w;
  }();
  using Word = std::array<uint64_t, Words>;

  /// A word with every bit above Width cleared.
  static Word mask(Word w) {
    if (Width % 64) w[Words - 1] &= (uint64_t{1} << (Width % 64)) - 1;
    return w;
  }
  static Word random_word(Rng& rng) {
    Word w;
    for (auto& x : w) x = rng.bits64();
    return mask(w);
  }
  static std::string hex(const Word& w) { return word_hex(w); }

  /// Address field i of a packed address port.
  template <class T>
  static void put_addr(T& sig, unsigned i, uint64_t addr) {
    packed::set_field(sig, i * AddrW, AddrW, &addr);
  }
  /// Data field i of a packed data port (bits above Width of `w` unused).
  template <class T>
  static void put_word(T& sig, unsigned i, const Word& w) {
    packed::set_field(sig, i * Width, Width, w.data());
  }
  template <class T>
  static Word get_word(const T& sig, unsigned i) {
    Word w{};
    packed::get_field(sig, i * Width, Width, w.data());
    return w;
  }

  /// Drives the staged write ports 0..N-1 (enable, address, data) onto the
  /// packed address and data pins and into the reference model's
  /// set_write(p, en, addr, data); returns the enables as bits.
  template <size_t N, class A, class D, class Ref>
  static uint64_t drive_writes(A& addr_sig, D& data_sig, Ref& ref, const std::array<uint8_t, N>& en,
                               const std::array<uint32_t, N>& addr, const std::array<Word, N>& data) {
    uint64_t bits = 0;
    for (unsigned p = 0; p < N; ++p) {
      bits |= static_cast<uint64_t>(en[p]) << p;
      put_addr(addr_sig, p, addr[p]);
      put_word(data_sig, p, data[p]);
      ref.set_write(p, en[p], addr[p], data[p].data());
    }
    return bits;
  }
};

// ---------------------------------------------------------------------------
/// Errors of a driver that checks read words against a reference model:
/// how many reads were compared, how many failed, and the first message.
class ReadCheck {
 public:
  uint64_t errors() const { return errors_; }
  uint64_t checked() const { return checked_; }
  const std::string& first_error() const { return first_error_; }

 protected:
  void fail(std::string msg) {
    if (errors_++ == 0) first_error_ = std::move(msg);
  }
  /// Counts one checked read: `got` against the reference's words at `exp`.
  /// On a mismatch records "<where()>: got <hex>, expected <hex>"; where()
  /// is only called then.
  template <size_t N, class Where>
  void check_word(const std::array<uint64_t, N>& got, const uint64_t* exp, Where&& where) {
    ++checked_;
    if (std::equal(got.begin(), got.end(), exp)) return;
    std::array<uint64_t, N> e;
    std::copy(exp, exp + N, e.begin());
    fail(fmt::format("{}: got {}, expected {}", where(), word_hex(got), word_hex(e)));
  }

 private:
  uint64_t errors_ = 0, checked_ = 0;
  std::string first_error_;
};

// ---------------------------------------------------------------------------
/// Stimulus of the memory benchmarks, cheap so that the figure is dominated
/// by the model: xorshift64*; per port one draw x gives the address (x & 1:
/// one of a hot set of 8 addresses, else (x >> 8) % Depth) and an enable
/// that is on 70 % of the time ((x >> 4) % 10 < 7).
template <unsigned Depth, unsigned Width>
class MemBenchStim {
 public:
  using Mem = MemWords<Depth, Width>;

  explicit MemBenchStim(uint64_t seed) : s_(seed * 0x9e3779b97f4a7c15ull + 1) {
    for (auto& a : hot_) a = static_cast<uint32_t>(next() % Depth);
  }

  uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545f4914f6cdd1dull;
  }
  uint64_t addr(uint64_t x) const { return (x & 1) ? hot_[(x >> 1) & 7] : (x >> 8) % Depth; }
  static bool busy(uint64_t x) { return (x >> 4) % 10 < 7; }

  /// Random address and data on write ports 0..n-1; returns their enables.
  template <class A, class D>
  uint64_t writes(unsigned n, A& addr_sig, D& data_sig) {
    uint64_t en = 0;
    for (unsigned p = 0; p < n; ++p) {
      const uint64_t x = next();
      en |= static_cast<uint64_t>(busy(x)) << p;
      for (auto& word : w_) word = next();
      Mem::put_addr(addr_sig, p, addr(x));
      Mem::put_word(data_sig, p, w_);
    }
    return en;
  }
  /// Random addresses on read ports 0..n-1; returns their enables.
  template <class A>
  uint64_t reads(unsigned n, A& addr_sig) {
    uint64_t en = 0;
    for (unsigned r = 0; r < n; ++r) {
      const uint64_t x = next();
      en |= static_cast<uint64_t>(busy(x)) << r;
      Mem::put_addr(addr_sig, r, addr(x));
    }
    return en;
  }

 private:
  uint64_t s_;
  uint32_t hot_[8];
  typename Mem::Word w_{};
};

}  // namespace tonic
