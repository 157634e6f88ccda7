// SPDX-License-Identifier: Apache-2.0
// Scoreboard: compares what the DUT produced with what a reference model
// expected, in order. Keeps the first mismatch for the failure message.
#pragma once

#include <cstdint>
#include <deque>
#include <sstream>
#include <string>

namespace tonic {

template <class T>
class Scoreboard {
 public:
  void expect(const T& item) { expected_.push_back(item); }

  /// Records one item the DUT produced at `cycle`; returns false on mismatch.
  bool observe(uint64_t cycle, const T& actual) {
    ++observed_;
    if (expected_.empty()) {
      note(cycle, "unexpected output", actual, nullptr);
      return false;
    }
    T exp = expected_.front();
    expected_.pop_front();
    if (!(exp == actual)) {
      note(cycle, "mismatch", actual, &exp);
      return false;
    }
    ++matched_;
    return true;
  }

  size_t pending() const { return expected_.size(); }
  uint64_t observed() const { return observed_; }
  uint64_t matched() const { return matched_; }
  uint64_t errors() const { return errors_; }
  bool clean() const { return errors_ == 0; }
  const std::string& first_error() const { return first_error_; }

 private:
  void note(uint64_t cycle, const char* what, const T& actual, const T* exp) {
    if (errors_++ == 0) {
      std::ostringstream os;
      os << what << " at cycle " << cycle << ": got " << actual;
      if (exp) os << ", expected " << *exp;
      first_error_ = os.str();
    }
  }

  std::deque<T> expected_;
  uint64_t observed_ = 0, matched_ = 0, errors_ = 0;
  std::string first_error_;
};

}  // namespace tonic
