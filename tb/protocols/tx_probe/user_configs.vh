// SPDX-License-Identifier: Apache-2.0
// tx_probe: a test-only protocol of the window scheme (not a transport
// protocol) with a transmit event (transmit.v). Its transmit state counts
// what left per flow; incoming and periodic copy that state into the user
// state on every call, so the trace shows what each saw. A NACK marks its
// segment for retransmission. Used by tb/unit/transmit.
//
// No include guard on purpose (see the reference protocol's user_configs.vh).
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditWindow;

// Transmit state (written by tonic_proto_transmit only).
typedef struct packed {
  logic [15:0] segs;      // segments that left (new + retransmitted), mod 2^16
  logic [15:0] rtx;       // retransmissions that left, mod 2^16
  logic [31:0] bytes;     // bytes that left, mod 2^32
  logic [31:0] last_ts;   // transmit stamp of the last one
  logic [31:0] last_idx;  // segment index of the last one
} tx_t;
localparam tx_t TxInit = '0;

// User state: the transmit state as the last incoming or periodic call saw it.
typedef struct packed {
  tx_t seen;
} user_t;
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
localparam user_t UserInit = '{seen: '0};

localparam int unsigned InitWnd  = 128;      // a fixed window, the whole ring
localparam int unsigned RtoInit  = 2000;     // cycles; acks come every 40
localparam int unsigned RtoMin   = 2000;
localparam int unsigned RtoMax   = 2000;
localparam int unsigned RateInit   = 0;
localparam int unsigned BurstBytes = 0;
localparam int unsigned TokensInit = 0;

/* verilator lint_off UNUSEDSIGNAL */
function automatic user_t user_merge(tonic_dd_pkg::rx_type_e typ, user_t merge_old,
                                     user_t merge_in, user_t merge_per);
  return merge_in;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
