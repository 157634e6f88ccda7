// SPDX-License-Identifier: Apache-2.0
// Tests for tonic_reg_slice and tonic_skid_buffer.
#include <catch2/catch.hpp>

#include "Vreg_slice.h"
#include "Vskid_buffer.h"
#include "stream_tb.hpp"

using namespace tonic;

TEMPLATE_TEST_CASE("stream: full throughput with no idle and no back-pressure",
                   "[stream][smoke]", Vreg_slice, Vskid_buffer) {
  Harness<TestType> h;
  Rng rng(1);
  auto st = run_stream_cell(h, rng, 1000, 0.0, 0.0, 1);
  REQUIRE(st.errors == 0);
  REQUIRE(st.received == 1000);
  // One transfer per cycle after one cycle of latency.
  REQUIRE(st.cycles == 1001);
}

TEMPLATE_TEST_CASE("stream: random idle and back-pressure keep order and lose nothing",
                   "[stream][backpressure]", Vreg_slice, Vskid_buffer) {
  TONIC_SEED(0x5eed0001);
  Harness<TestType> h;
  Rng rng(tonic_seed_);
  auto st = run_stream_cell(h, rng, 100000, 0.3, 0.2, 8);
  REQUIRE(st.errors == 0);
  REQUIRE(st.received == 100000);
  REQUIRE(st.sent == 100000);
}

TEST_CASE("stream: skid buffer ready is registered", "[stream][smoke]") {
  Harness<Vskid_buffer> h;
  h.reset();
  // Fill: output stalled, two items enter, then ready must drop.
  h->out_ready_i = 0;
  h->in_valid_i = 1;
  h->in_data_i = 1;
  h.eval();
  REQUIRE(h->in_ready_o);
  h.tick();
  h->in_data_i = 2;
  h.eval();
  REQUIRE(h->in_ready_o);
  h.tick();
  h->in_data_i = 3;
  h.eval();
  REQUIRE_FALSE(h->in_ready_o);
  // Changing out_ready_i in this cycle must not change in_ready_o.
  h->out_ready_i = 1;
  h.eval();
  REQUIRE_FALSE(h->in_ready_o);
  REQUIRE(h->out_valid_o);
  REQUIRE(h->out_data_o == 1);
  h.tick();
  h.eval();
  REQUIRE(h->out_data_o == 2);
}
