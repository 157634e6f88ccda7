// SPDX-License-Identifier: Apache-2.0
// TCP NewReno (RFC 6582 on RFC 5681, RFC 6298 back-off): configuration and
// user state.
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations.

// Credit scheme (tonic_dd_pkg::credit_e): a congestion window.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditWindow;

// User state: 87 bits (the window itself is the engine's wnd).
// `recover` (RFC 6582) is kept as its distance from wnd_start, rec_off =
// recover - wnd_start, which every new ack moves down; it is live only
// while in_rec or rto_guard is set (it is 0 otherwise).
typedef struct packed {
`ifdef TONIC_CFG_USER_BYTES
  // Only in the builds that measure what user state costs (protocol.json
  // "builds" *_user<N>, make synth-estimate): padding to
  // TONIC_CFG_USER_BYTES bytes in all, rotated by one bit on every write
  // (incoming.v, periodic_updates.v) so that synthesis keeps it.
  logic [`TONIC_CFG_USER_BYTES * 8 - 88:0] pad;
`endif
  logic [27:0] srtt8;     // RFC 6298: 8 x SRTT (cycles); 0 = no RTT sample yet
  logic [27:0] rttvar4;   // RFC 6298: 4 x RTTVAR (cycles)
  logic [1:0] dup_acks;   // duplicate acks in a row outside recovery, saturating at 3
  logic       in_rec;     // in fast recovery
  logic       rto_guard;  // an RTO set recover and no ack passed it yet: no fast retransmit
  logic       partial;    // a partial ack of this recovery already restarted the timer
  logic [8:0] ssthresh;   // slow-start threshold (segments); 511 = not set yet (infinite)
  logic [8:0] ca_cnt;     // segments acked in congestion avoidance since the last +1
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
                               rttvar4: 28'd0, default: '0};

// Initial congestion window (segments) and retransmission timeout (cycles).
localparam int unsigned InitWnd  = 10;
// A deployment may set the RTO at build time: +define+TONIC_CFG_RTO_CYCLES=<n>
// (rtl/manifest "model_defines"; the 10 Gb/s network runs of sim/netsim use
// 2,000,000 = 200 ms at a 100 ns cycle). RtoMax stays RtoInit << 6.
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
// congestion avoidance adds SMSS*SMSS/cwnd per ack (one segment per cwnd
// acks, counted in ca_cnt) and slow start one segment per ack, whatever
// the ack covers, as ns-3 and most stacks; 1 = appropriate byte counting
// (RFC 3465): each ack counts its newly acked segments, slow start adds
// min(newly acked, SsAckCap) (L = 2), so under delayed acks cwnd grows
// about twice as fast per RTT.
localparam int unsigned ByteCounting = 0;
localparam int unsigned SsAckCap     = 2;  // RFC 3465's L (ByteCounting = 1 only)
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
