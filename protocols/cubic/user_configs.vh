// SPDX-License-Identifier: Apache-2.0
// TCP CUBIC (RFC 9438) on NewReno's loss recovery (RFC 6582) and the RFC 6298
// RTO: configuration and user state. protocols/cubic/README.md has the
// rules, the fixed-point forms and the deviations from the RFC.
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations.

// Credit scheme (tonic_dd_pkg::credit_e): a congestion window.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditWindow;

// User state: 126 bits (the window itself is the engine's wnd; the
// engine takes at most tonic_dd_pkg::UserWMax = 128): NewReno's 87 bits
// (the RTT estimator first, the recovery state last) around CUBIC's 39.
// Times are in units of 2^TimeShift cycles (below), 11 bits, wrapping.
typedef struct packed {
  logic [27:0] srtt8;     // RFC 6298: 8 x SRTT (cycles); 0 = no RTT sample yet
  logic [27:0] rttvar4;   // RFC 6298: 4 x RTTVAR (cycles)
  logic [8:0] w_max;      // RFC 9438 W_max (segments); 0 before the first congestion event
  logic [8:0] w_est;      // RFC 9438 W_est, the Reno-friendly window (segments)
  logic [8:0] est_cnt;    // segments acked since W_est last grew by one
  logic       pending;    // a congestion event set K, the epoch starts with the next ack in CA
  logic [10:0] t_org;     // pending: K; else the epoch's origin, epoch start + K - SRTT (time units)
  // NewReno's fields last, at NewReno's bit positions (the back-pressure
  // rig reads the partial_ack probe in bits 31:0).
  logic [1:0] dup_acks;   // duplicate acks in a row outside recovery, saturating at 3
  logic       in_rec;     // in fast recovery
  logic       rto_guard;  // an RTO set recover and no ack passed it yet: no fast retransmit
  logic       partial;    // a partial ack of this recovery already restarted the timer
  logic [8:0] ssthresh;   // slow-start threshold (segments); 511 = not set yet (infinite)
  logic [8:0] ca_cnt;     // congestion avoidance: sum of (target - cwnd) over acks since the last +1
  logic [7:0] rec_off;    // recover - wnd_start (recover = next_new - 1 when set)
} user_t;

// The protocol modules take UserW as a parameter; their
// rtl/dd/tonic_proto_config.svh checks it against $bits(user_t) and defines
// TONIC_PROTO_MODULE around the include.
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
localparam user_t UserInit = '{dup_acks: 2'd0, in_rec: 1'b0, rto_guard: 1'b0, partial: 1'b0,
                               ssthresh: 9'd511, ca_cnt: 9'd0, rec_off: 8'd0, srtt8: 28'd0,
                               rttvar4: 28'd0, w_max: 9'd0, w_est: 9'd0, est_cnt: 9'd0,
                               pending: 1'b0, t_org: 11'd0};

// Initial congestion window (segments) and retransmission timeout (cycles).
localparam int unsigned InitWnd  = 10;
// A deployment may set the RTO at build time: +define+TONIC_CFG_RTO_CYCLES=<n>
// (the network variants of protocol.json). RtoMax stays RtoInit << 6.
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
// so it is unambiguous, and after an RTO the first ack collapses the
// backed-off RTO; 1 = Karn's rule, an ack echoing a retransmission is no
// sample (a sender without per-transmission stamps).
localparam int unsigned RttKarn = 0;
// Window growth per new ack: ByteCounting = 0 (RFC 5681, the default):
// slow start adds one segment per ack and W_est counts one segment per ack,
// whatever the ack covers, as ns-3 and most stacks; 1 = appropriate byte
// counting (RFC 3465): each ack counts its newly acked segments, slow start
// adds min(newly acked, SsAckCap) (L = 2) and W_est counts them all (RFC
// 9438's segments_acked). The cubic increase is per ack either way (RFC
// 9438 section 4.4).
localparam int unsigned ByteCounting = 0;
localparam int unsigned SsAckCap     = 2;  // RFC 3465's L (ByteCounting = 1 only)

// CUBIC's clock: the cycle time and the time unit of t, K and the origin.
// A build for another clock sets both: +define+TONIC_CFG_CYCLE_NS=<ns> and
// +define+TONIC_CFG_CUBIC_TIME_SHIFT=<s> (the 100 ns network variants use
// 100 and 17: a unit of 13.1 ms). With 11-bit times the unit must cover
// K (up to 5.8 s at a window of 256) and the convex region up to the
// 1.5 cwnd clamp: +-1024 units = +-10.7 s at 10 ns and shift 20 (10.5 ms).
`ifdef TONIC_CFG_CYCLE_NS
localparam int unsigned CycleNs   = `TONIC_CFG_CYCLE_NS;
localparam int unsigned TimeShift = `TONIC_CFG_CUBIC_TIME_SHIFT;
`else
localparam int unsigned CycleNs   = 10;   // 100 MHz
localparam int unsigned TimeShift = 20;   // unit = 2^20 cycles = 10.49 ms
`endif
// RFC 9438 constants in fixed point: C = CubicCNum / CubicCDen segments per
// s^3 (0.4); beta_cubic = BetaNum / 1024 (717: 0.7002, Linux's); fast
// convergence W_max = cwnd (1 + beta) / 2 = cwnd * (1024 + BetaNum) / 2048;
// 1 / alpha_cubic = (1 + beta) / (3 (1 - beta)) = EstNum / EstDen (17 / 9).
localparam int unsigned CubicCNum = 2;
localparam int unsigned CubicCDen = 5;
localparam int unsigned BetaNum   = 717;
localparam int unsigned EstNum    = 17;
localparam int unsigned EstDen    = 9;
// tonic_cbrt's SigBits for K (docs/cells/cbrt.md): 6 = a root short by
// less than 3.1 %, 9 levels (8: 0.8 %, 10 levels; the module measured one
// level more with it, README.md).
localparam int unsigned KSigBits  = 6;
// A running epoch whose t - K reaches OrgHold units keeps it there (the
// origin moves up with time), so that 11-bit times do not wrap; the cube at
// OrgHold already puts the target at its 1.5 cwnd clamp.
localparam int unsigned OrgHold   = 960;

// Rate and token schemes only (docs/design/credit-schemes.md); unused by
// the window scheme.
localparam int unsigned RateInit   = 0;  // rate on ADD (RU)
localparam int unsigned BurstBytes = 0;  // burst D (bytes)
localparam int unsigned TokensInit = 0;  // tokens on ADD (segments)

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
