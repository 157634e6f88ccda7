// SPDX-License-Identifier: Apache-2.0
// TCP NewReno in the whole sender (tonic_top): the system cases of
// tb/unit/tonic/tonic_cases.hpp on tonic_newreno_1024x128, the checkers'
// mutation self-tests, the scaling builds 2048x256 and 4096x256 (../protocol.json)
// and the structural-memory build tonic_newreno_1024x128_structural (what
// synthesis sees) against the behavioural one, cycle for cycle. Part of
// test_tonic, label tonic.
#include "Vtonic_newreno_1024x128_structural.h"
#include "unit/tonic/tonic_cases.hpp"

// The structural per-flow memories (SimRam = 0, what synthesis sees); the
// builds of tonic_models.hpp use the behavioural form.
namespace tonic {
template <>
struct TonicParams<Vtonic_newreno_1024x128_structural> : TonicParams<Vtonic_newreno_1024x128> {};
}  // namespace tonic

using namespace tonic;

TEMPLATE_TEST_CASE("tonic: one flow sends its posted segments in order and all are acked",
                   "[tonic][smoke]", Vtonic_newreno_1024x128) {
  toptest::one_flow_in_order<TestType>();
}

TEMPLATE_TEST_CASE("tonic: saturated flows get >= 0.99 segments per cycle and equal shares",
                   "[tonic][stress]", Vtonic_newreno_1024x128) {
  toptest::saturated_equal_shares<TestType>();
}

TEMPLATE_TEST_CASE("tonic: 3 duplicate acks give exactly one fast retransmit of the lost segment",
                   "[tonic][smoke]", Vtonic_newreno_1024x128) {
  toptest::three_dup_acks_fast_retransmit<TestType>();
}

TEMPLATE_TEST_CASE("tonic: a tail loss is recovered by the retransmission timeout",
                   "[tonic]", Vtonic_newreno_1024x128) {
  toptest::tail_loss_rto<TestType>();
}

TEMPLATE_TEST_CASE("tonic: an ack names a twice-retransmitted segment with retransmit count 2",
                   "[tonic]", Vtonic_newreno_1024x128) {
  toptest::rtx_count_named<TestType>();
}

TEMPLATE_TEST_CASE("tonic: random drops on many flows, everything is delivered",
                   "[tonic][stress]", Vtonic_newreno_1024x128) {
  toptest::random_drops_delivered<TestType>();
}

TEMPLATE_TEST_CASE("tonic: bad input is counted and ignored",
                   "[tonic][badinput]", Vtonic_newreno_1024x128) {
  toptest::bad_input_counted<TestType>();
}

TEMPLATE_TEST_CASE("tonic: all flows of the 2048/4096 builds saturated get >= 0.99 segments per cycle",
                   "[tonic][stress]", Vtonic_newreno_2048x256, Vtonic_newreno_4096x256) {
  toptest::all_flows_saturated<TestType>();
}

TEMPLATE_TEST_CASE("tonic: slow start doubles the window every round trip",
                   "[tonic]", Vtonic_newreno_1024x128) {
  toptest::slow_start_doubles<TestType>();
}

TEMPLATE_TEST_CASE("tonic: NewReno and SACK recover several losses of one window without a timeout",
                   "[tonic]", Vtonic_newreno_1024x128) {
  toptest::several_losses_one_window<TestType>();
}

TEST_CASE("tonic: the checker catches a wrong segment address (mutation self-test)",
          "[tonic][smoke]") {
  toptest::mutation_segment_address<Vtonic_newreno_1024x128>();
}

TEST_CASE("tonic: the window reference catches a wrong cwnd (mutation self-test)",
          "[tonic][smoke]") {
  toptest::mutation_cwnd<Vtonic_newreno_1024x128>();
}

TEST_CASE("tonic: the fast model (SimRam=1) matches the structural model cycle for cycle",
          "[tonic][equiv]") {
  toptest::fast_matches_structural<Vtonic_newreno_1024x128, Vtonic_newreno_1024x128_structural>();
}
