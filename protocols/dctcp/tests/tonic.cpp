// SPDX-License-Identifier: Apache-2.0
// DCTCP in the whole sender (tonic_top): a few cheap system cases of
// tb/unit/tonic/tonic_cases.hpp on tonic_dctcp_1024x128, every ack checked
// against the twin through the segment-level reference (window_ref.hpp).
// Part of test_tonic, label tonic.
#include "unit/tonic/tonic_cases.hpp"

using namespace tonic;

TEMPLATE_TEST_CASE("tonic: one flow sends its posted segments in order and all are acked",
                   "[tonic][smoke]", Vtonic_dctcp_1024x128) {
  toptest::one_flow_in_order<TestType>();
}

TEMPLATE_TEST_CASE("tonic: 3 duplicate acks give exactly one fast retransmit of the lost segment",
                   "[tonic][smoke]", Vtonic_dctcp_1024x128) {
  toptest::three_dup_acks_fast_retransmit<TestType>();
}

TEMPLATE_TEST_CASE("tonic: a tail loss is recovered by the retransmission timeout",
                   "[tonic]", Vtonic_dctcp_1024x128) {
  toptest::tail_loss_rto<TestType>();
}

TEMPLATE_TEST_CASE("tonic: random drops on many flows, everything is delivered",
                   "[tonic][stress]", Vtonic_dctcp_1024x128) {
  toptest::random_drops_delivered<TestType>();
}
