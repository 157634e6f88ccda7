// SPDX-License-Identifier: Apache-2.0
// A participant of the live-lock experiment (tb/unit/livelock): its small
// build; its role comes from ../protocol.json (livelock_runs.hpp). Part of
// test_livelock and livelock_run.
#include "Vtonic_rocev2_gb0_16x128.h"
#include "unit/livelock/livelock_runs.hpp"

TONIC_LIVELOCK_PARTICIPANT(Vtonic_rocev2_gb0_16x128);
