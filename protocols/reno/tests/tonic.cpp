// SPDX-License-Identifier: Apache-2.0
// TCP Reno in the whole sender (tonic_top, tonic_reno_1024x128): the
// system cases of tb/unit/tonic/tonic_cases.hpp that apply to it. Part of
// test_tonic, label tonic.
#include "unit/tonic/tonic_cases.hpp"

using namespace tonic;

TEMPLATE_TEST_CASE("tonic: one flow sends its posted segments in order and all are acked",
                   "[tonic][smoke]", Vtonic_reno_1024x128) {
  toptest::one_flow_in_order<TestType>();
}

TEMPLATE_TEST_CASE("tonic: saturated flows get >= 0.99 segments per cycle and equal shares",
                   "[tonic][stress]", Vtonic_reno_1024x128) {
  toptest::saturated_equal_shares<TestType>();
}

TEMPLATE_TEST_CASE("tonic: 3 duplicate acks give exactly one fast retransmit of the lost segment",
                   "[tonic][smoke]", Vtonic_reno_1024x128) {
  toptest::three_dup_acks_fast_retransmit<TestType>();
}

TEMPLATE_TEST_CASE("tonic: a tail loss is recovered by the retransmission timeout",
                   "[tonic]", Vtonic_reno_1024x128) {
  toptest::tail_loss_rto<TestType>();
}

TEMPLATE_TEST_CASE("tonic: random drops on many flows, everything is delivered",
                   "[tonic][stress]", Vtonic_reno_1024x128) {
  toptest::random_drops_delivered<TestType>();
}

TEMPLATE_TEST_CASE("tonic: slow start doubles the window every round trip",
                   "[tonic]", Vtonic_reno_1024x128) {
  toptest::slow_start_doubles<TestType>();
}
