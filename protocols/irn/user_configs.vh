// SPDX-License-Identifier: Apache-2.0
// IRN (Mittal et al., SIGCOMM 2018) loss recovery with BDP flow control,
// without congestion control: configuration and user state.
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations.

// Credit scheme (tonic_dd_pkg::credit_e): a fixed rate (RateInit, set on
// ADD and never written by the protocol) under a fixed window (InitWnd, the
// BDP cap, never written either).
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditRate;

// User state: 18 bits. Positions are distances from wnd_start ("offsets"),
// which every new ack moves down (to 0 at the least). rec_off is live while
// in_rec is set (0 otherwise); high_off outlives a recovery until the window
// passes it, so that no NACK marks a segment twice.
typedef struct packed {
`ifdef TONIC_CFG_USER_BYTES
  // Only in the builds that measure what user state costs (protocol.json
  // "builds" *_user<N>, make synth-estimate): padding to
  // TONIC_CFG_USER_BYTES bytes in all, rotated by one bit on every write
  // (incoming.v, periodic_updates.v) so that synthesis keeps it.
  logic [`TONIC_CFG_USER_BYTES * 8 - 19:0] pad;
`endif
  logic       in_rec;    // in loss recovery (a NACK or a timeout marked segments)
  logic [7:0] rec_off;   // recovery point - wnd_start (recovery point = next_new - 1 on entry)
  logic [8:0] high_off;  // end of the last range marked - wnd_start (0..W; 0 = at or below wnd_start)
} user_t;

// The protocol modules take UserW as a parameter; their
// rtl/dd/tonic_proto_config.svh checks it against $bits(user_t) and defines
// TONIC_PROTO_MODULE around the include.
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
localparam user_t UserInit = '{in_rec: 1'b0, rec_off: 8'd0, high_off: 9'd0, default: '0};

// BDP flow control: at most ceil(C * RTT / MTU) segments outstanding. For
// 100 Gb/s, an 8 us base RTT and 1 KB segments: 100 KB / 1 KB -> 98. The
// module never writes the window.
localparam int unsigned InitWnd  = 98;
// Retransmission timeout (cycles at 100 MHz): RtoLow while at most
// RtoLowFlight segments are in flight, RtoHigh otherwise, chosen on every
// new ack and on every timeout (no exponential back-off).
localparam int unsigned RtoLow       = 10000;  // 100 us
localparam int unsigned RtoHigh      = 32000;  // 320 us
localparam int unsigned RtoLowFlight = 3;      // N
localparam int unsigned RtoInit  = 32000;  // RtoHigh: a flow starts with a full window to send
localparam int unsigned RtoMin   = 10000;  // RtoLow
localparam int unsigned RtoMax   = 32000;  // RtoHigh
// Rate and token schemes (docs/design/credit-schemes.md).
localparam int unsigned RateInit   = 131072000;  // 100 Gb/s in RU (bytes per 2^20 cycles)
localparam int unsigned BurstBytes = 65536;      // D = 64 KB (README: the lateness it tolerates)
localparam int unsigned TokensInit = 0;          // token scheme only: unused

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
