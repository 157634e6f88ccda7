// SPDX-License-Identifier: Apache-2.0
// Shared driver loop for the two stream cells (same ports, same contract).
#pragma once

#include <cstdint>
#include <deque>

#include "tonic/harness.hpp"
#include "tonic/rng.hpp"
#include "common/stream.hpp"

namespace tonic {

struct StreamStats {
  uint64_t sent = 0, received = 0, errors = 0, cycles = 0;
  bool ready_depends_on_input = false;  // skid buffer: must stay false
};

/// Pushes `items` random words through a stream cell with random idle input
/// and random back-pressure; the reference model is a FIFO of sent words.
template <class Model>
StreamStats run_stream_cell(Harness<Model>& h, Rng& rng, uint64_t items, double idle,
                            double stall, uint32_t stall_max) {
  StreamStats st;
  Source<uint32_t> src(rng, idle);
  Sink sink(rng, stall, stall_max);
  for (uint64_t i = 0; i < items; ++i) src.push(static_cast<uint32_t>(rng.bits64()));
  std::deque<uint32_t> ref;
  h.reset();
  const uint64_t limit = items * 50 + 1000;
  while ((st.received < items) && st.cycles < limit) {
    const uint32_t* in = src.present();
    h->in_valid_i = in != nullptr;
    h->in_data_i = in ? *in : 0xdeadbeefu;
    h->out_ready_i = sink.ready();
    h.eval();
    if (h->out_valid_o && h->out_ready_i) {
      if (ref.empty() || ref.front() != h->out_data_o) ++st.errors;
      if (!ref.empty()) ref.pop_front();
      ++st.received;
    }
    if (h->in_valid_i && h->in_ready_o) {
      ref.push_back(src.accept());
      ++st.sent;
    }
    h.tick();
    ++st.cycles;
  }
  return st;
}

}  // namespace tonic
