// SPDX-License-Identifier: Apache-2.0
// The Verilated protocol models (<name>_incoming, <name>_periodic, derived from the protocol folders) as test configs.
#pragma once

#include "Virn_incoming.h"
#include "Virn_incoming_w256.h"
#include "Virn_periodic.h"
#include "Virn_periodic_w256.h"
#include "Vndp_incoming.h"
#include "Vndp_periodic.h"
#include "proto_rx_tb.hpp"

namespace tonic::prototb {

using NdpIncoming = Cfg<Vndp_incoming, NdpTwin, 128, true>;
using NdpPeriodic = Cfg<Vndp_periodic, NdpTwin, 128, false>;
using IrnIncoming = Cfg<Virn_incoming, IrnTwin, 128, true>;
using IrnPeriodic = Cfg<Virn_periodic, IrnTwin, 128, false>;
using IrnIncoming256 = Cfg<Virn_incoming_w256, IrnTwin, 256, true>;
using IrnPeriodic256 = Cfg<Virn_periodic_w256, IrnTwin, 256, false>;

/// One flow through the incoming and periodic models of a protocol.
using NdpFlow = FlowSim<Vndp_incoming, Vndp_periodic, NdpTwin, 128>;
using IrnFlow = FlowSim<Virn_incoming, Virn_periodic, IrnTwin, 128>;
using IrnFlow256 = FlowSim<Virn_incoming_w256, Virn_periodic_w256, IrnTwin, 256>;

}  // namespace tonic::prototb

#define PROTO_RX_CONFIGS                                                                       \
  tonic::prototb::NdpIncoming, tonic::prototb::NdpPeriodic, tonic::prototb::IrnIncoming,       \
      tonic::prototb::IrnPeriodic, tonic::prototb::IrnIncoming256, tonic::prototb::IrnPeriodic256
