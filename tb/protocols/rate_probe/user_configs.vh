// SPDX-License-Identifier: Apache-2.0
// rate_probe: a test-only protocol of the rate scheme (not a transport
// protocol). The testbench sets a flow's rate with an RxCnp whose cum_ack
// field carries the rate in RU; everything else is plain cumulative acks.
// Used by tb/unit/credit_rtl (rate accuracy, rate updates).
//
// No include guard on purpose (see the reference protocol's user_configs.vh).
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditRate;

typedef struct packed {
  logic pad;  // no state
} user_t;
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
localparam user_t UserInit = '{pad: 1'b0};

localparam int unsigned InitWnd  = 128;      // no window: the engine's W caps the flight
localparam int unsigned RtoInit  = 1000000;  // 10 ms: timeouts are not under test
localparam int unsigned RtoMin   = 1000000;
localparam int unsigned RtoMax   = 1000000;
// No rate until the first update (a flow waits); a burst of 256 KB (the bound of
// docs/design/credit-schemes.md for 9000-B segments and a late wake-up).
localparam int unsigned RateInit   = 0;
localparam int unsigned BurstBytes = 262144;
localparam int unsigned TokensInit = 0;
// A rate cut voids the credit in hand: the next segment after the cut waits
// for the new rate (docs/design/credit-schemes.md, "Rate cuts and the wire
// gate"; tb/unit/credit_rtl measures it).
`ifndef TONIC_RATE_CUT_VOIDS
`define TONIC_RATE_CUT_VOIDS
`endif

// Same-flow merge (docs/protocol-api.md): the user state written when
// incoming stage 2 and a periodic call of the flow both write it in one
// cycle (the engine evaluates this; typ is the incoming event's type).
// The periodic call of this probe writes no user state: incoming's.
/* verilator lint_off UNUSEDSIGNAL */
function automatic user_t user_merge(tonic_dd_pkg::rx_type_e typ, user_t merge_old,
                                     user_t merge_in, user_t merge_per);
  return merge_in;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
