// SPDX-License-Identifier: Apache-2.0
// tonic_dd_pkg: types shared by the data-delivery engine and the protocol
// modules (protocols/<name>/incoming.v, periodic_updates.v).
//
// The wire types (seq_t, flow_id_t, ts_t, echo_t, sack_blk_t, rx_type_e and
// its codes) are those of tonic_wire_pkg, which the receiver shares; they
// are imported and re-exported here by name, so tonic_dd_pkg::seq_t,
// tonic_dd_pkg::RxNack and a wildcard import of this package still reach
// them.
//
// Sequence numbers are 32-bit segment indices compared with serial
// arithmetic (seq_lt): a < b iff the signed difference a - b is negative,
// which is correct while the two are less than 2^31 apart.
`default_nettype none

package tonic_dd_pkg;
  // The wire types (tonic_wire_pkg), one import and one export per name.
  import tonic_wire_pkg::seq_t;      export tonic_wire_pkg::seq_t;
  import tonic_wire_pkg::flow_id_t;  export tonic_wire_pkg::flow_id_t;
  import tonic_wire_pkg::ts_t;       export tonic_wire_pkg::ts_t;
  import tonic_wire_pkg::echo_t;     export tonic_wire_pkg::echo_t;
  import tonic_wire_pkg::SackBlocks; export tonic_wire_pkg::SackBlocks;
  import tonic_wire_pkg::sack_blk_t; export tonic_wire_pkg::sack_blk_t;
  import tonic_wire_pkg::sack_blks_t; export tonic_wire_pkg::sack_blks_t;
  import tonic_wire_pkg::rx_type_e;  export tonic_wire_pkg::rx_type_e;
  import tonic_wire_pkg::RxAck;      export tonic_wire_pkg::RxAck;
  import tonic_wire_pkg::RxSack;     export tonic_wire_pkg::RxSack;
  import tonic_wire_pkg::RxNack;     export tonic_wire_pkg::RxNack;
  import tonic_wire_pkg::RxPull;     export tonic_wire_pkg::RxPull;
  import tonic_wire_pkg::RxCnp;      export tonic_wire_pkg::RxCnp;
  import tonic_wire_pkg::RxResend;   export tonic_wire_pkg::RxResend;

  /// The largest user state (bits per flow) the engine takes: 448 B, the
  /// Tonic paper's maximum per flow with window credit at 1024 flows x 128
  /// (its table 4; 340 B with rate and 256 B with token credit, which
  /// scripts/check-protocol enforces per scheme). A protocol's $bits(user_t)
  /// above it stops elaboration; scripts/check-protocol reads it from here.
  /// The user state lives in the engine's cold per-flow memory at its own
  /// width; the trace port (dd_trace_t.user) shows its low 128 bits only,
  /// so it does not limit the width.
  localparam int unsigned UserWMax = 3584;

  /// Credit scheme a protocol selects in user_configs.vh.
  typedef enum logic [1:0] {
    CreditWindow = 2'd0,  // congestion window, enforced in the DD engine
    CreditRate   = 2'd1,  // rate + burst (docs/design/credit-schemes.md)
    CreditToken  = 2'd2   // receiver-granted tokens (docs/design/credit-schemes.md)
  } credit_e;

  /// Control operation (host driver -> Tonic).
  typedef enum logic [1:0] {
    CtrlAdd    = 2'd0,  // add flow: first segment index, segment size
    CtrlPost   = 2'd1,  // post data: one past the last ready segment, its length
    CtrlRemove = 2'd2   // remove flow
  } ctrl_op_e;

  /// Event counters of the DD engine (wrap at 2^32). The fields above
  /// rx_unknown_flow were added later; the order of the older ones (from
  /// segments, bits 31:0, upwards) is kept. ctrl_bad is the sum of the five
  /// ctrl_* causes below it in the list.
  typedef struct packed {
    logic [31:0] wdog_trips;       // seg output stalled wdog_limit_i cycles (tonic_top fills it)
    logic [31:0] ctrl_remove_unacked; // REMOVE of a flow with posted data not yet acked (executed)
    logic [31:0] ctrl_flow_range;  // ctrl op with a flow id >= FlowCount (ignored)
    logic [31:0] ctrl_bad_op;      // ctrl op with an undefined code (ignored)
    logic [31:0] ctrl_post_range;  // POST backwards or more than 2^30 past wnd_start (ignored)
    logic [31:0] ctrl_absent;      // POST or REMOVE of a flow that is not present (ignored)
    logic [31:0] ctrl_add_present; // ADD of a flow that is present (ignored)
    logic [31:0] rx_stale_ack;     // ACK/SACK/NACK with cum_ack before wnd_start (cumulative part ignored)
    logic [31:0] rx_flow_range;    // rx with a flow id >= FlowCount (ignored)
    logic [31:0] rx_unknown_flow;  // rx for a flow that is not present (ignored)
    logic [31:0] rx_bad_type;      // rx with an unknown type (ignored)
    logic [31:0] rx_bad_ack;       // cumulative ack beyond next_new (ignored)
    logic [31:0] rx_bad_sack;      // SACK outside [wnd_start, next_new) (SACK part ignored)
    logic [31:0] ctrl_bad;         // ADD of a present flow, POST/REMOVE of an absent one, POST backwards
    logic [31:0] note_drops;       // notifications the host did not take in time
    logic [31:0] timeouts;         // retransmission timeouts
    logic [31:0] retransmits;      // retransmitted segments generated
    logic [31:0] segments;         // segments generated (new + retransmitted)
  } dd_stats_t;

  /// Event counters of the credit schemes (rate, token; wrap at 2^32).
  typedef struct packed {
    logic [31:0] rate_cuts;      // rate: a new rate below the old one: the credit in hand revoked
    logic [31:0] wire_holds;     // rate: the CR engine's wire gate held a flow without a wire permit
    logic [31:0] rate_clamped;   // rate: a protocol rate of 0 or above RateMax, clamped to 1..RateMax
    logic [31:0] pull_stale;     // token: a pull number not after the last one (ignored)
    logic [31:0] tok_excess;     // token: an add cut short so permits stay <= 65535
    logic [31:0] per_cancelled;  // a periodic call cancelled: its credit write met stage 2's
    logic [31:0] parks;          // next-seg found a flow without a permit
    logic [31:0] rate_updates;   // rate: updates sent to the rate cell (merged per flow there, none lost)
    logic [31:0] rate_waits;     // rate: a flow armed to wait for credit
    logic [31:0] permits;        // permits granted (rate) or tokens added (token)
  } credit_stats_t;

  /// Cause of an rx event on the status stream (at most one per cycle:
  /// one rx event is examined per cycle).
  typedef enum logic [2:0] {
    RxErrNone     = 3'd0,
    RxErrUnknown  = 3'd1,  // flow not present (never added, or removed)
    RxErrRange    = 3'd2,  // flow id >= FlowCount
    RxErrType     = 3'd3,  // undefined rx type
    RxErrAck      = 3'd4,  // cumulative ack beyond next_new (never sent)
    RxErrStale    = 3'd5,  // cumulative ack before wnd_start (old)
    RxErrSack     = 3'd6   // selective ack outside [wnd_start, next_new)
  } rx_err_e;

  /// Cause of a ctrl event on the status stream (one op executes per cycle).
  typedef enum logic [2:0] {
    CtrlErrNone          = 3'd0,
    CtrlErrAddPresent    = 3'd1,  // ADD of a present flow
    CtrlErrAbsent        = 3'd2,  // POST / REMOVE of an absent flow
    CtrlErrPostRange     = 3'd3,  // POST backwards or > 2^30 ahead of wnd_start
    CtrlErrBadOp         = 3'd4,  // undefined op code
    CtrlErrRange         = 3'd5,  // flow id >= FlowCount
    CtrlErrRemoveUnacked = 3'd6   // REMOVE with posted data not yet acked (executed)
  } ctrl_err_e;

  /// The status stream (valid only, one word per cycle, no back-pressure:
  /// the host samples it every cycle; nothing is queued, so nothing is lost
  /// at the port). Each field reports the event of its source in the cycle
  /// before; several sources can report in one word. The counters in
  /// dd_stats_t / credit_stats_t count the same events.
  typedef struct packed {
    logic        valid;       // any field below is set
    rx_err_e     rx;          // rx event cause, of flow rx_flow
    logic [15:0] rx_flow;
    ctrl_err_e   ctrl;        // ctrl op cause, of flow ctrl_flow
    logic [15:0] ctrl_flow;
    logic        pull_stale;  // token: stale pull number, flow cred_flow
    logic        tok_excess;  // token: grant cut at 65535 permits, flow cred_flow
    logic [15:0] cred_flow;
    logic        rate_clamp;  // rate: protocol rate clamped, flow rate_flow
    logic [15:0] rate_flow;
    logic        note_drop;   // a burst-complete note dropped (queue full), flow note_flow
    logic [15:0] note_flow;
    logic        watchdog;    // seg output stalled for wdog_limit_i cycles
  } status_t;

  /// One write of the window group by incoming stage 2 or by the periodic
  /// processor, with the values after it (trace port, for reference-model
  /// checks and debugging; no effect on the engine).
  typedef struct packed {
    logic         valid;
    logic         merged;     // periodic: the call was merged into stage 2's write (trace_in_o)
    logic         timeout;    // periodic: the visit had timeout_i set
    logic [15:0]  flow;
    seq_t         next_new;   // next_new seen by the write (stage 2 / periodic)
    seq_t         next_new1;  // incoming: next_new seen by stage 1
    logic [15:0]  wnd;        // cwnd after the write
    logic [31:0]  rto;        // RTO after the write
    logic [1:0]   rtx_cnt;    // incoming: info_i.rtx_cnt of the event
    logic [127:0] user;       // user state after the write: its low 128 bits (zero-extended)
  } dd_trace_t;

  /// A periodic call merged into incoming stage 2's write of the same flow
  /// in the same cycle (tonic_dd_periodic -> tonic_dd_incoming2; W- and
  /// UserW-wide parts travel beside it): its enables and values, after the
  /// engine's rules (cwnd clamped, RTO raised to RtoMin).
  typedef struct packed {
    logic        valid;      // a call of stage 2's flow this cycle: merge it
    logic        mark_we;    // the call marks a range (the positions travel beside it)
    logic        wnd_we;
    logic [15:0] wnd;        // clamped to 1..W (CntW bits used)
    logic        rto_we;
    logic [31:0] rto;        // at least RtoMin
    logic        restart;
    logic        user_we;
    logic        rate_we;
    logic [31:0] rate;
    logic        tokens_we;
    logic [15:0] tokens;
    logic        tokens_set; // the call sets the credit (TONIC_TOKEN_SET)
  } per_merge_t;

  /// What incoming stage 2 tells the protocol about an event beyond the
  /// paper's inputs (its `info_i` port; docs/protocol-api.md). Every field
  /// is computed by stage 1 and registered, so none lengthens the
  /// protocol's path.
  typedef struct packed {
    logic [15:0] flow;         // the event's flow id
    logic [15:0] seg_bytes;    // the flow's segment size (bytes, from its ADD)
    logic        rtt_valid;    // the event echoes a transmission: rtt is a sample
    logic        echo_rtx;     // the echoed transmission was a retransmission (Karn's rule)
    ts_t         echo_ts;      // the echoed transmit stamp (the transmission's id)
    logic [31:0] rtt;          // RTT sample (cycles): stage 2's cycle minus echo_ts
    logic [15:0] ecn_segs;     // segments this event newly acks under an ECN echo (ecn ? newly : 0)
    logic [31:0] acked_bytes;  // bytes this event newly acks (newly acked segments x seg_bytes)
    logic [1:0]  rtx_cnt;      // retransmissions of the segment the event names (0..3, 3 = three or more)
  } ev_info_t;

  /// One decision of the next-segment processor (trace port): the segment
  /// address it hands to the CR engine this cycle.
  typedef struct packed {
    logic         valid;
    logic         rtx;        // a retransmission
    logic [15:0]  flow;
    seq_t         idx;        // segment index
  } dd_ns_trace_t;

  /// Serial-number compare: a < b (RFC 1982 style, 32 bits).
  function automatic logic seq_lt(seq_t a, seq_t b);
    return $signed(a - b) < 0;
  endfunction

  /// Serial-number compare: a <= b.
  function automatic logic seq_le(seq_t a, seq_t b);
    return !seq_lt(b, a);
  endfunction

  /// Serial max.
  function automatic seq_t seq_max(seq_t a, seq_t b);
    return seq_lt(a, b) ? b : a;
  endfunction
  /// Bits of a UserW-bit user state that the trace shows (dd_trace_t.user:
  /// the low 128; fewer for a narrower state, zero-extended there).
  function automatic int unsigned trace_user_bits(int unsigned user_w);
    return (user_w < 128) ? user_w : 128;
  endfunction
endpackage

`default_nettype wire
