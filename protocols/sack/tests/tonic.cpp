// SPDX-License-Identifier: Apache-2.0
// TCP SACK in the whole sender (tonic_top, tonic_sack_1024x128): the system
// cases of tb/unit/tonic/tonic_cases.hpp that apply to it and the
// next-segment reference's mutation self-test. Part of test_tonic, label
// tonic.
#include "unit/tonic/tonic_cases.hpp"

using namespace tonic;

TEMPLATE_TEST_CASE("tonic: one flow sends its posted segments in order and all are acked",
                   "[tonic][smoke]", Vtonic_sack_1024x128) {
  toptest::one_flow_in_order<TestType>();
}

TEMPLATE_TEST_CASE("tonic: saturated flows get >= 0.99 segments per cycle and equal shares",
                   "[tonic][stress]", Vtonic_sack_1024x128) {
  toptest::saturated_equal_shares<TestType>();
}

TEMPLATE_TEST_CASE("tonic: a tail loss is recovered by the retransmission timeout",
                   "[tonic]", Vtonic_sack_1024x128) {
  toptest::tail_loss_rto<TestType>();
}

TEMPLATE_TEST_CASE("tonic: an ack names a twice-retransmitted segment with retransmit count 2",
                   "[tonic]", Vtonic_sack_1024x128) {
  toptest::rtx_count_named<TestType>();
}

TEMPLATE_TEST_CASE("tonic: random drops on many flows, everything is delivered",
                   "[tonic][stress]", Vtonic_sack_1024x128) {
  toptest::random_drops_delivered<TestType>();
}

TEMPLATE_TEST_CASE("tonic: slow start doubles the window every round trip",
                   "[tonic]", Vtonic_sack_1024x128) {
  toptest::slow_start_doubles<TestType>();
}

TEMPLATE_TEST_CASE("tonic: NewReno and SACK recover several losses of one window without a timeout",
                   "[tonic]", Vtonic_sack_1024x128) {
  toptest::several_losses_one_window<TestType>();
}

TEST_CASE("tonic: the next-segment reference catches a wrong segment index (mutation self-test)",
          "[tonic][smoke]") {
  toptest::mutation_next_segment<Vtonic_sack_1024x128>();
}
