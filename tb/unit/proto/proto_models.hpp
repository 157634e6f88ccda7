// SPDX-License-Identifier: Apache-2.0
// The Verilated protocol models (<name>_incoming, <name>_periodic, derived from the protocol folders) as test configs.
#pragma once

#include "Vnewreno_incoming.h"
#include "Vnewreno_incoming_w256.h"
#include "Vnewreno_periodic.h"
#include "Vreno_incoming.h"
#include "Vreno_incoming_w256.h"
#include "Vreno_periodic.h"
#include "Vsack_incoming.h"
#include "Vsack_incoming_w256.h"
#include "Vsack_periodic.h"
#include "proto_tb.hpp"

namespace tonic::prototb {

using RenoIncoming = Cfg<Vreno_incoming, RenoTwin, 128, true>;
using RenoPeriodic = Cfg<Vreno_periodic, RenoTwin, 128, false>;
using RenoIncoming256 = Cfg<Vreno_incoming_w256, RenoTwin, 256, true>;
using NewRenoIncoming = Cfg<Vnewreno_incoming, NewRenoTwin, 128, true>;
using NewRenoPeriodic = Cfg<Vnewreno_periodic, NewRenoTwin, 128, false>;
using NewRenoIncoming256 = Cfg<Vnewreno_incoming_w256, NewRenoTwin, 256, true>;
using SackIncoming = Cfg<Vsack_incoming, SackTwin, 128, true>;
using SackPeriodic = Cfg<Vsack_periodic, SackTwin, 128, false>;
using SackIncoming256 = Cfg<Vsack_incoming_w256, SackTwin, 256, true>;

/// One flow through the W = 128 incoming and periodic models of a protocol.
using RenoFlow = FlowSim<Vreno_incoming, Vreno_periodic, RenoTwin, 128>;
using NewRenoFlow = FlowSim<Vnewreno_incoming, Vnewreno_periodic, NewRenoTwin, 128>;
using SackFlow = FlowSim<Vsack_incoming, Vsack_periodic, SackTwin, 128>;

}  // namespace tonic::prototb

#define PROTO_CONFIGS                                                                            \
  tonic::prototb::RenoIncoming, tonic::prototb::RenoPeriodic, tonic::prototb::RenoIncoming256,   \
      tonic::prototb::NewRenoIncoming, tonic::prototb::NewRenoPeriodic,                          \
      tonic::prototb::NewRenoIncoming256, tonic::prototb::SackIncoming,                          \
      tonic::prototb::SackPeriodic, tonic::prototb::SackIncoming256
