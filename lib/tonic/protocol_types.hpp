// SPDX-License-Identifier: Apache-2.0
// The types of the protocol registry (tonic/protocol_registry.hpp, generated
// at configure time by scripts/registry.mjs from protocols/*/): what a tool
// may know about a protocol without naming it.
#pragma once

#include <cstdint>

namespace tonic::registry {

/// The credit scheme of user_configs.vh (CreditScheme).
enum class Credit : uint8_t { kWindow, kRate, kTokens };

/// The receiver mode a protocol pairs with (protocol.json "receiver").
enum class Receiver : uint8_t {
  kTcp,      // cumulative acks
  kTcpSack,  // cumulative acks + SACK blocks
  kRoce,     // go-back-N NACKs and DCQCN CNPs
  kIrn,      // NACKs carrying the SACK of the out-of-order segment
  kNdp,      // acks, NACKs of trimmed segments, pulls
};

/// One field of a protocol's user_t (first field most significant).
struct UserField {
  const char* name;
  int lsb;
  int width;
};

/// Where a probe role (protocol.json "probes") sits in user_t; lsb -1: the
/// protocol has no such field.
struct Probe {
  int lsb;
  int width;
  bool present() const { return lsb >= 0; }
  /// The field's value in a user-state word given as 32-bit chunks, LSB first.
  template <class Words>
  uint64_t read(const Words& w) const {
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) {
      const int b = lsb + i;
      v |= uint64_t((w[b / 32] >> (b % 32)) & 1u) << i;
    }
    return v;
  }
};

/// A protocol: its descriptor and the constants of its user_configs.vh.
struct Protocol {
  const char* name;
  Credit credit;
  Receiver receiver;
  bool host_restart;  // go-back-0: the host re-posts a message after a NACK or timeout
  uint64_t init_wnd, rto_init, rto_min, rto_max;
  uint64_t rate_init, burst_bytes, tokens_init;
  uint32_t small_flows, small_window;  // the size of its small (test, soak) builds
  int user_bits;
  const UserField* fields;
  int field_count;
  Probe ssthresh, in_recovery, dup_acks, rate;
  Probe partial_ack;  // RFC 6582 impatient: a partial ack already restarted the timer
};

/// A Verilated model class with its FlowCount and Window, for dispatching
/// over generated model lists (tonic/small_models.hpp).
template <class M, uint32_t F, uint32_t W>
struct ModelTag {
  using Model = M;
  static constexpr uint32_t kFlows = F;
  static constexpr uint32_t kWindow = W;
};

}  // namespace tonic::registry
