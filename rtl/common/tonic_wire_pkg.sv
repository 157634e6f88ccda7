// SPDX-License-Identifier: Apache-2.0
// tonic_wire_pkg: the types that travel between a sender (tonic_top) and a
// receiver (tonic_rx_engine): the segment index, the flow id and the type
// code of a control packet. A receiver's ctl stream (tonic_rx_pkg::rx_ctl_t)
// drives a sender's rx input, so both ends must agree on these bits; they
// are written once, here.
//
// The receiver (tonic_rx_pkg, tonic_rx_engine) imports this package and not
// the sender's. tonic_dd_pkg imports and re-exports each item by name, so
// the sender and the protocol modules keep writing tonic_dd_pkg::seq_t,
// tonic_dd_pkg::RxNack and so on. (The export is by name, not
// `export tonic_wire_pkg::*`: a wildcard export carries only the names the
// exporting package itself uses, and strict front ends such as slang keep
// to that rule.) A new item here is added to that list in tonic_dd_pkg too.
`default_nettype none

package tonic_wire_pkg;
  /// A segment index (serial number, wraps at 2^32). Indices are compared
  /// with serial arithmetic (tonic_dd_pkg::seq_lt).
  typedef logic [31:0] seq_t;

  /// A flow id on the ctrl and rx inputs (the NIC's 16-bit flow-id field,
  /// whatever FlowCount is). Ids >= FlowCount are bad input: counted and
  /// ignored.
  typedef logic [15:0] flow_id_t;

  /// A transmit stamp: the sender's cycle count (low 32 bits) in the cycle
  /// a segment's address left it (tonic_top's seg_ts_o). The segment carries
  /// it to the receiver, whose acks echo it (echo_t); the sender's RTT
  /// sample is its cycle count minus the echo.
  typedef logic [31:0] ts_t;

  /// The echo an ack carries of one transmission (the TSecr of RFC 7323,
  /// plus the transmission's retransmit flag for Karn's rule): which
  /// transmission is echoed follows RFC 7323 (the earliest segment a
  /// delayed ack covers; for an out-of-order arrival, the last segment that
  /// advanced the cumulative ack; a hole-filling segment's own stamp).
  typedef struct packed {
    logic valid;  // the ack carries an echo (0: no RTT sample from it)
    logic rtx;    // the echoed transmission was a retransmission
    ts_t  ts;     // its transmit stamp
  } echo_t;

  /// SACK blocks one control packet carries at most (RFC 2018 / 6675: TCP
  /// carries three next to the timestamp option).
  localparam int unsigned SackBlocks = 3;

  /// One SACK block: the receiver holds every segment of [lo, hi) (hi is
  /// one past the block, as RFC 2018's right edge). Block 0 is the most
  /// recent (it holds the segment that triggered the ack), the others
  /// repeat the most recently reported ones (RFC 2018 section 4).
  typedef struct packed {
    logic valid;  // 0: the block is unused
    seq_t lo;
    seq_t hi;
  } sack_blk_t;

  /// The SACK blocks of one control packet ([0] the most recent).
  typedef sack_blk_t [SackBlocks-1:0] sack_blks_t;

  /// Type of a control packet (receiver -> sender: the sender's rx stream,
  /// the receiver's ctl stream).
  typedef enum logic [2:0] {
    RxAck    = 3'd0,  // cumulative ack
    RxSack   = 3'd1,  // cumulative ack + one selective ack (sack_idx)
    RxNack   = 3'd2,  // negative ack: cum_ack is the first missing segment
    RxPull   = 3'd3,  // receiver grant (tokens)
    RxCnp    = 3'd4,  // congestion notification packet
    RxResend = 3'd5   // receiver asks to resend from cum_ack
  } rx_type_e;
endpackage

`default_nettype wire
