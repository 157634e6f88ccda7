// SPDX-License-Identifier: Apache-2.0
// SystemC for tonic-netsim. <systemc> (not <systemc.h>: nothing is dumped
// into the global namespace) plus the one name Verilator's headers need:
// with SystemC present (SYSTEMC_VERSION defined), verilated_funcs.h calls
// sc_time_stamp() unqualified. Include this before any Verilator header.
#pragma once

#include <systemc>

using sc_core::sc_time_stamp;
