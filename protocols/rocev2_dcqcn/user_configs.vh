// SPDX-License-Identifier: Apache-2.0
// RoCEv2 with the DCQCN reaction point and go-back-N loss recovery:
// configuration and user state (protocols/rocev2_dcqcn/README.md).
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations. protocols/rocev2_gb0
// includes this file unchanged.

// Credit scheme (tonic_dd_pkg::credit_e): a rate, Rc of DCQCN.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditRate;

// DCQCN reaction point (docs/design/dcqcn.md; the defaults of Params in
// protocols/rocev2_dcqcn/dcqcn_ref.hpp). Rates in RU (bytes per 2^20 cycles), times
// in cycles of the 100 MHz clock. Ranges are checked with $fatal in
// dcqcn_rp.svh.
// C may be set at build time (rtl/manifest "model_defines"):
// +define+TONIC_CFG_DCQCN_C=<RU> (sim/netsim's 40 Gb/s runs: 52428800).
`ifdef TONIC_CFG_DCQCN_C
localparam int unsigned DcqcnC      = `TONIC_CFG_DCQCN_C;
`else
localparam int unsigned DcqcnC      = 131072000;  // C: line rate, ceiling of Rc and Rt (100 Gb/s)
`endif
localparam int unsigned DcqcnRmin   = 13107;      // Rmin: floor of a cut (10 Mb/s)
localparam int unsigned DcqcnRai    = 52429;      // R_AI: additive step of Rt (40 Mb/s)
localparam int unsigned DcqcnRhai   = 262144;     // R_HAI: hyper step of Rt (200 Mb/s)
localparam int unsigned DcqcnK      = 5500;       // K: alpha-timer period (55 us), < 2^15
localparam int unsigned DcqcnT      = 5500;       // T: rate-increase timer period (55 us), < 2^15
localparam int unsigned DcqcnB      = 10000000;   // B: byte-counter period (bytes), <= 2^24
localparam int unsigned DcqcnF      = 5;          // F: stage count that ends fast recovery, <= 7
localparam int unsigned DcqcnGShift = 8;          // g = 2^-8 = 1/256
// The segment size L the flows of the tests and of sim/netsim's RoCE
// scenarios are added with (the modules do not read it: the byte counter
// counts the lengths of the segments that leave, transmit.v).
// +define+TONIC_CFG_DCQCN_SEG_BYTES=<n> sets it at build time.
`ifdef TONIC_CFG_DCQCN_SEG_BYTES
localparam int unsigned SegBytes    = `TONIC_CFG_DCQCN_SEG_BYTES;
`else
localparam int unsigned SegBytes    = 1024;
`endif

// Transmit state (transmit.v, its only writer; incoming reads it): the
// bytes that left, every segment's length counted when it leaves,
// retransmissions too, mod 2^24.
typedef struct packed {
  logic [23:0] sent;  // bytes sent, mod 2^24
} tx_t;
localparam tx_t TxInit = '{sent: 24'd0};

// User state: 128 bits, the engine's trace limit (first field most
// significant). Due times are the low 16 bits of the cycle of the next
// unprocessed expiry, compared serially with now_i[15:0].
typedef struct packed {
  logic        fresh;  // timers not started yet: the first periodic call starts them
  logic [26:0] rc;     // current rate Rc (RU); C < 2^27
  logic [26:0] rt;     // target rate Rt (RU)
  logic [10:0] alpha;  // alpha, Q10 (1024 = 1.0)
  logic [2:0]  t_cnt;  // timer stage count, 0..F
  logic [2:0]  b_cnt;  // byte stage count, 0..F
  logic [23:0] base;   // tx sent at the last byte event or CNP (mod 2^24): sent - base bytes count toward the next
  logic [15:0] t_due;  // rate-timer due cycle (low 16 bits)
  logic [15:0] k_due;  // alpha-timer due cycle (low 16 bits)
} user_t;

// The protocol modules take UserW as a parameter; their
// rtl/dd/tonic_proto_config.svh checks it against $bits(user_t) and defines
// TONIC_PROTO_MODULE around the include.
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif

// Rate on ADD (RU): line rate, as DCQCN starts. Rc = Rt start there too.
localparam int unsigned RateInit   = DcqcnC;
// Burst D (bytes) of the rate credit: the bound of
// docs/design/credit-schemes.md, D >= L + L / 128 + R * (lateness + 2) / 2^20,
// holds at R = C (125 B per cycle) for L <= 4096 B (RoCE's largest MTU) and a
// wake-up up to 96 cycles late (1024 B segments: 113 cycles).
localparam int unsigned BurstBytes = 16384;
localparam int unsigned TokensInit = 0;      // token scheme only

localparam user_t UserInit = '{fresh: 1'b1, rc: 27'(RateInit), rt: 27'(RateInit), alpha: 11'd1024,
                               t_cnt: 3'd0, b_cnt: 3'd0, base: 24'd0, t_due: 16'd0, k_due: 16'd0};

// RoCE has no congestion window: the rate alone limits the flow. The window
// stays at InitWnd (never written), 128 - 8 as the usable part of a 128-slot
// ring; it bounds the segments in flight.
localparam int unsigned InitWnd  = 120;
// Retransmission timeout (cycles); new acks and NACKs reset it to RtoInit,
// each timeout doubles it up to RtoMax.
localparam int unsigned RtoInit  = 20000;    // 200 us at 100 MHz
localparam int unsigned RtoMin   = 20000;
localparam int unsigned RtoMax   = 1280000;  // RtoInit << 6

// Same-flow merge (docs/protocol-api.md): the user state written when
// incoming stage 2 and a periodic call of the flow both write it in one
// cycle (the engine evaluates this; typ is the incoming event's type).
//  - a CNP's cut restarts both timers and clears the stage counts: it wins
//    whole (the timer expiries it overlaps are dropped, as on any CNP);
//  - otherwise the timers are the periodic call's (fresh, alpha, t_cnt,
//    t_due, k_due), the byte counter is incoming's (base, b_cnt), and
//    Rc / Rt are incoming's if its byte event changed Rc, else the call's.
//    When a byte event and a rate-timer expiry meet, the byte event's
//    increase is the one applied (the timer's stage count still advances);
//    applying both would need a second increase in series. The engine's
//    rate write follows the same rule (stage 2's rate where it writes one;
//    a CNP always writes it, so its Rc holds against a merged call's).
/* verilator lint_off UNUSEDSIGNAL */
function automatic user_t user_merge(tonic_dd_pkg::rx_type_e typ, user_t merge_old,
                                     user_t merge_in, user_t merge_per);
  user_t m;
  if (typ == tonic_dd_pkg::RxCnp) return merge_in;
  m       = merge_per;
  m.base  = merge_in.base;
  m.b_cnt = merge_in.b_cnt;
  if (merge_in.rc != merge_old.rc) begin
    m.rc = merge_in.rc;
    m.rt = merge_in.rt;
  end
  return m;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
