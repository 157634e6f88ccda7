// SPDX-License-Identifier: Apache-2.0
// NDP sender (Handley et al., SIGCOMM 2017): configuration and user state.
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations.

// Credit scheme (tonic_dd_pkg::credit_e): receiver-granted tokens. A PULL
// (cumulative pull number in grant_i) becomes tokens in the fixed function;
// this protocol never converts pulls itself.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditToken;

// User state: 1 bit, as the paper reports for NDP.
typedef struct packed {
`ifdef TONIC_CFG_USER_BYTES
  // Only in the builds that measure what user state costs (protocol.json
  // "builds" *_user<N>, make synth-estimate): padding to
  // TONIC_CFG_USER_BYTES bytes in all, rotated by one bit on every write
  // (incoming.v, periodic_updates.v) so that synthesis keeps it.
  logic [`TONIC_CFG_USER_BYTES * 8 - 2:0] pad;
`endif
  logic backoff;  // a timeout backed the RTO off and no new ack has reset it yet
} user_t;

// The protocol modules take UserW as a parameter; their
// rtl/dd/tonic_proto_config.svh checks it against $bits(user_t) and defines
// TONIC_PROTO_MODULE around the include.
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
localparam user_t UserInit = '{backoff: 1'b0, default: '0};

// Window (segments): NDP has no congestion window, tokens limit it. InitWnd
// is only the engine's cap on segments in flight, set just under the
// W = 128 ring (the 120 usable segments of the authors' code); the module
// never writes it.
localparam int unsigned InitWnd  = 120;
// Retransmission timeout (cycles at 100 MHz). NDP's timeout is rare (a
// trimmed packet comes back as a NACK), so it is set well above the time a
// NACKed segment may wait for its pull in an incast: 1 ms.
localparam int unsigned RtoInit  = 100000;
localparam int unsigned RtoMin   = 100000;
localparam int unsigned RtoMax   = 6400000;  // exponential back-off stops here (RtoInit << 6)
// Tokens one timeout adds (enough for the first marked segment; the
// acks it earns bring pulls for the rest).
localparam int unsigned RtoTokens = 1;
// Rate and token schemes (docs/design/credit-schemes.md).
localparam int unsigned RateInit   = 0;   // rate scheme only: unused
localparam int unsigned BurstBytes = 0;   // rate scheme only: unused
localparam int unsigned TokensInit = 15;  // first window at line rate without pulls (htsim: 15)

// Same-flow merge (docs/protocol-api.md): the user state written when
// incoming stage 2 and a periodic call of the flow both write it in one
// cycle (the engine evaluates this; typ is the incoming event's type).
// This protocol's periodic call writes only on a timeout, and a merged
// call has none (the ack beats it), so the two never both write: incoming's.
/* verilator lint_off UNUSEDSIGNAL */
function automatic user_t user_merge(tonic_dd_pkg::rx_type_e typ, user_t merge_old,
                                     user_t merge_in, user_t merge_per);
  return merge_in;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
