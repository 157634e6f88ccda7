// SPDX-License-Identifier: Apache-2.0
// token_probe: a test-only protocol of the token scheme (not a transport
// protocol). Pulls (RxPull, cumulative numbers) grant tokens through the
// engine; an RxCnp adds the number of tokens in cum_ack[15:0] (the
// protocol's tokens_o; with ecn set it sets the flow's credit to that many
// instead, a revocation) and, with cum_ack[31:16] != 0, sets the window to
// that many segments: window and token credit on one flow. Used by
// tb/unit/credit_rtl.
//
// No include guard on purpose (see the reference protocol's user_configs.vh).
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditToken;

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
// Unused by the token scheme; 4 tokens on ADD.
localparam int unsigned RateInit   = 0;
localparam int unsigned BurstBytes = 0;
localparam int unsigned TokensInit = 4;
// A token write with tokens_set_o revokes the flow's credit, the addresses
// already queued included (docs/design/credit-schemes.md, "Token sets";
// tb/unit/credit_rtl measures it).
`ifndef TONIC_TOKEN_SET
`define TONIC_TOKEN_SET
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
