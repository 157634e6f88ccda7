// SPDX-License-Identifier: Apache-2.0
// DCTCP (RFC 8257 sender on NewReno's loss recovery, RFC 6582 / RFC 6298):
// configuration and user state.
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations.

// Credit scheme (tonic_dd_pkg::credit_e): a congestion window.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditWindow;

// User state: 121 bits (the window itself is the engine's wnd). The RTT
// estimator first, then DCTCP's five fields, then NewReno's recovery fields
// (protocols/newreno) in the low 31 bits, where they sit in NewReno too (the
// back-pressure rig reads the partial_ack probe from bits 31:0).
// rec_off is shared: it is `recover - wnd_start` while in_rec or rto_guard
// is set (RFC 6582), and the end of the congestion-window-reduced period
// (the sequence sent last when the ECE cut happened) while cwr is set. At
// most one of in_rec, rto_guard and cwr is set; rec_off is 0 when none is.
// The observation period of alpha is obs_left more acked segments; it began
// with 2^obs_k segments to go (2^obs_k = the largest power of two <= cwnd
// at its start), so F = obs_marked / 2^obs_k is a shift.
typedef struct packed {
  logic [27:0] srtt8;      // RFC 6298: 8 x SRTT (cycles); 0 = no RTT sample yet
  logic [27:0] rttvar4;    // RFC 6298: 4 x RTTVAR (cycles)
  logic [10:0] alpha;      // RFC 8257 alpha in 1/1024 (1024 = 1.0)
  logic [3:0]  obs_k;      // the period's length is 2^obs_k acked segments
  logic [8:0]  obs_left;   // acked segments still to come in this period (1..2^obs_k)
  logic [8:0]  obs_marked; // segments of this period acked under ECE so far
  logic        cwr;        // an ECE cut this window: no further cut, no growth until rec_off is passed
  logic [1:0]  dup_acks;   // duplicate acks in a row outside recovery, saturating at 3
  logic        in_rec;     // in fast recovery
  logic        rto_guard;  // an RTO set recover and no ack passed it yet: no fast retransmit
  logic        partial;    // a partial ack of this recovery already restarted the timer
  logic [8:0]  ssthresh;   // slow-start threshold (segments); 511 = not set yet (infinite)
  logic [8:0]  ca_cnt;     // segments acked in congestion avoidance since the last +1
  logic [7:0]  rec_off;    // recover - wnd_start (in_rec, rto_guard) or cwr end - wnd_start (cwr)
} user_t;

// The protocol modules take UserW as a parameter; their
// rtl/dd/tonic_proto_config.svh checks it against $bits(user_t) and defines
// TONIC_PROTO_MODULE around the include.
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
// alpha starts at 1.0 (RFC 8257 section 3.3); the first period is 8
// segments long, the largest power of two <= InitWnd (10).
localparam user_t UserInit = '{dup_acks: 2'd0, in_rec: 1'b0, rto_guard: 1'b0, partial: 1'b0,
                               ssthresh: 9'd511, ca_cnt: 9'd0, rec_off: 8'd0, srtt8: 28'd0,
                               rttvar4: 28'd0, cwr: 1'b0, alpha: 11'd1024, obs_k: 4'd3,
                               obs_left: 9'd8, obs_marked: 9'd0};

// Initial congestion window (segments) and retransmission timeout (cycles).
localparam int unsigned InitWnd  = 10;
// A deployment may set the RTO at build time: +define+TONIC_CFG_RTO_CYCLES=<n>
// (a "defines" build of protocol.json; this folder's network scenarios use
// the default, 2 ms at a 100 ns cycle). RtoMax stays RtoInit << 6.
`ifdef TONIC_CFG_RTO_CYCLES
localparam int unsigned RtoInit  = `TONIC_CFG_RTO_CYCLES;
localparam int unsigned RtoMin   = `TONIC_CFG_RTO_CYCLES;
localparam int unsigned RtoMax   = `TONIC_CFG_RTO_CYCLES << 6;
`else
localparam int unsigned RtoInit  = 20000;    // 200 us at 100 MHz: the RTO until the first RTT sample
localparam int unsigned RtoMin   = 20000;
localparam int unsigned RtoMax   = 1280000;  // exponential back-off stops here (RtoInit << 6)
`endif
// RTT samples (RFC 6298 section 3): 0 = every echo is a sample, as with
// TCP timestamps (RFC 7323; ns-3 and Linux by default): the echo carries
// the stamp of the very transmission it answers, a retransmission's too,
// so it is unambiguous; 1 = Karn's rule, an ack echoing a retransmission
// is no sample (a sender without per-transmission stamps).
localparam int unsigned RttKarn = 0;
// Window growth per new ack: ByteCounting = 0 (RFC 5681, the default):
// congestion avoidance adds one segment per cwnd acks (counted in ca_cnt)
// and slow start one segment per ack, whatever the ack covers; 1 =
// appropriate byte counting (RFC 3465): each ack counts its newly acked
// segments, slow start adds min(newly acked, SsAckCap).
localparam int unsigned ByteCounting = 0;
localparam int unsigned SsAckCap     = 2;  // RFC 3465's L (ByteCounting = 1 only)
// RFC 8257: the estimation gain g = 2^-AlphaShift (1/16) and the floor of
// the window after an ECE cut (segments; Linux keeps 2).
localparam int unsigned AlphaShift = 4;
localparam int unsigned CutFloor   = 2;
// Rate and token schemes only (docs/design/credit-schemes.md); unused by
// the window scheme.
localparam int unsigned RateInit   = 0;  // rate on ADD (RU)
localparam int unsigned BurstBytes = 0;  // burst D (bytes)
localparam int unsigned TokensInit = 0;  // tokens on ADD (segments)

// Same-flow merge (docs/protocol-api.md): the user state written when
// incoming stage 2 and a periodic call of the flow both write it in one
// cycle. This protocol's periodic call writes only on a timeout, and a
// merged call has none (the ack beats it), so the two never both write:
// incoming's.
/* verilator lint_off UNUSEDSIGNAL */
function automatic user_t user_merge(tonic_dd_pkg::rx_type_e typ, user_t merge_old,
                                     user_t merge_in, user_t merge_per);
  return merge_in;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
