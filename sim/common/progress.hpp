// SPDX-License-Identifier: Apache-2.0
// Progress on stderr for the long-running programs (tonic-run, tonic-netsim):
// a bar redrawn in place on a terminal, otherwise a line every 10 %.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace tonic::sim {

/// 1234567 -> "1,234,567".
inline std::string grp(uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

/// Progress of `total` units (e.g. "cycles", "us simulated") of program `who`.
class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  Progress(uint64_t total, bool quiet, std::string who = "tonic-run", std::string unit = "cycles")
      : total_(total), quiet_(quiet), tty_(isatty(fileno(stderr)) != 0), t0_(Clock::now()),
        stride_(std::max<uint64_t>(1, total / 1000)), who_(std::move(who)), unit_(std::move(unit)) {}

  void update(uint64_t done) {
    if (quiet_ || (done < next_ && done != total_)) return;
    next_ = (done / stride_ + 1) * stride_;
    const double el = seconds();
    if (tty_) {
      if (done != total_ && el - last_draw_ < 0.1) return;
      last_draw_ = el;
      draw(done, el);
    } else {
      while (last_decile_ < 10 && done >= total_ * (last_decile_ + 1) / 10) {
        ++last_decile_;
        fmt::print(stderr, "[{}] {:3}%  {} / {} {}  {:.1f} s\n", who_, last_decile_ * 10, grp(done), grp(total_),
                   unit_, el);
      }
    }
  }

  void finish(uint64_t done) {
    if (quiet_) return;
    if (tty_) {
      draw(done, seconds());
      fmt::print(stderr, "\n");
    } else if (done < total_) {
      fmt::print(stderr, "[{}] stopped at {} / {} {}\n", who_, grp(done), grp(total_), unit_);
    }
  }

 private:
  double seconds() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  void draw(uint64_t done, double el) {
    constexpr int kWidth = 32;
    const double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
    const int fill = static_cast<int>(std::min(1.0, frac) * kWidth);
    std::string bar(static_cast<size_t>(fill), '#');
    bar.append(static_cast<size_t>(kWidth - fill), '.');
    const double rate = el > 0 ? static_cast<double>(done) / el : 0.0;
    const double eta = rate > 0 && total_ > done ? static_cast<double>(total_ - done) / rate : 0.0;
    fmt::print(stderr, "\r[{}] {:5.1f}%  {} / {} {}  {:.0f} k/s  ETA {:.0f} s   ", bar, 100.0 * frac, grp(done),
               grp(total_), unit_, rate / 1000.0, eta);
    std::fflush(stderr);
  }

  uint64_t total_;
  bool quiet_, tty_;
  Clock::time_point t0_;
  uint64_t stride_, next_ = 0, last_decile_ = 0;
  double last_draw_ = -1.0;
  std::string who_, unit_;
};

}  // namespace tonic::sim
