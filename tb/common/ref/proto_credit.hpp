// SPDX-License-Identifier: Apache-2.0
// The outputs of a protocol module with a rate or token credit scheme
// (docs/design/credit-schemes.md, "Interfaces"): every ProtoOut output plus
// rate_we_o / rate_o and tokens_we_o / tokens_o, as the twins of those
// protocols (proto_ndp.hpp, proto_irn.hpp) return them. A ProtoCreditOut is
// a ProtoOut, so code that reads only the window outputs takes it as is.
// Plain C++, no Verilator.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "common/ref/proto_io.hpp"

namespace tonic::ref {

struct ProtoCreditOut : ProtoOut {
  bool rate_we = false;
  uint32_t rate = 0;    // RU (bytes per 2^20 cycles)
  bool tokens_we = false;
  uint32_t tokens = 0;  // 16 bits: tokens added

  bool operator==(const ProtoCreditOut& o) const {
    return ProtoOut::operator==(o) && rate_we == o.rate_we && rate == o.rate &&
           tokens_we == o.tokens_we && tokens == o.tokens;
  }
  bool operator!=(const ProtoCreditOut& o) const { return !(*this == o); }
  /// True if the module writes nothing at all (credit included).
  bool writes_nothing() const { return ProtoOut::writes_nothing() && !rate_we && !tokens_we; }
};

namespace proto {
/// TONIC_PROTO_DRIVE_CREDIT: rate_o / tokens_o from the module's values,
/// each 0 while its enable is 0 (tokens cut to 16 bits).
inline void drive_credit(ProtoCreditOut& o, uint32_t rate, uint32_t tokens) {
  o.rate = o.rate_we ? rate : 0;
  o.tokens = o.tokens_we ? (tokens & 0xffffU) : 0;
}
}  // namespace proto

inline std::string to_string(const ProtoCreditOut& o, unsigned user_w) {
  std::ostringstream s;
  s << to_string(static_cast<const ProtoOut&>(o), user_w) << " + {rate " << o.rate_we << ":"
    << o.rate << ", tokens " << o.tokens_we << ":" << o.tokens << "}";
  return s.str();
}

}  // namespace tonic::ref
