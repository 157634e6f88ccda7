// SPDX-License-Identifier: Apache-2.0
// TCP SACK loss recovery (RFC 6675, one SACK block per ack, on RFC 5681
// congestion control and RFC 6298 back-off): configuration and user state.
//
// Included inside the body of tonic_proto_incoming, tonic_proto_periodic
// and the DD engine. No include guard on purpose: every module that
// includes it needs its own copy of the declarations.

// Credit scheme (tonic_dd_pkg::credit_e): a congestion window.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::CreditWindow;

// User state: 129 bits (the window itself is the engine's wnd).
// Positions are kept as distances from wnd_start ("offsets", 0..255), which
// every new ack moves down; an offset that would go below 0 has been
// cumulatively acked. sack_off holds the three highest SACKed segments, so
// the 3rd-highest one bounds the lost segments (RFC 6675 IsLost with
// DupThresh = 3): every unacked segment below it is lost. rtx_off and
// rescued serve the lost-retransmission check and the rescue
// retransmission (NextSeg rule 4) of protocols/sack/README.md.
typedef struct packed {
  logic [27:0]     srtt8;      // RFC 6298: 8 x SRTT (cycles); 0 = no RTT sample yet
  logic [27:0]     rttvar4;    // RFC 6298: 4 x RTTVAR (cycles)
  logic [1:0]      dup_acks;   // duplicate acks in a row outside recovery, saturating at 3
  logic            in_rec;     // in loss recovery
  logic            rto_guard;  // an RTO set RecoveryPoint and no ack passed it yet: no recovery
  logic [8:0]      ssthresh;   // slow-start threshold (segments); 511 = not set yet (infinite)
  logic [8:0]      ca_cnt;     // segments acked in congestion avoidance since the last +1
  logic [7:0]      rec_off;    // RecoveryPoint - wnd_start (RecoveryPoint = next_new - 1 when set)
  logic [7:0]      high_off;   // end of the range marked lost in this recovery - wnd_start
  logic [1:0]      sack_cnt;   // valid entries of sack_off, 0..3
  logic [2:0][7:0] sack_off;   // highest SACKed segments - wnd_start: [0] > [1] > [2]; invalid = 0
  logic [7:0]      rtx_off;    // next_new - 1 - wnd_start at this recovery's latest loss mark; 0 outside recovery
  logic            rescued;    // this recovery made its rescue retransmission; 0 outside recovery
} user_t;

// The protocol modules take UserW as a parameter; their
// rtl/dd/tonic_proto_config.svh checks it against $bits(user_t) and defines
// TONIC_PROTO_MODULE around the include.
`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
`endif
localparam user_t UserInit = '{dup_acks: 2'd0, in_rec: 1'b0, rto_guard: 1'b0, ssthresh: 9'd511,
                               ca_cnt: 9'd0, rec_off: 8'd0, high_off: 8'd0, sack_cnt: 2'd0,
                               sack_off: '0, rtx_off: 8'd0, rescued: 1'b0, srtt8: 28'd0, rttvar4: 28'd0};

// Initial congestion window (segments) and retransmission timeout (cycles).
localparam int unsigned InitWnd  = 10;
localparam int unsigned RtoInit  = 20000;    // 200 us at 100 MHz: the RTO until the first RTT sample
localparam int unsigned RtoMin   = 20000;
localparam int unsigned RtoMax   = 1280000;  // exponential back-off stops here (RtoInit << 6)
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
