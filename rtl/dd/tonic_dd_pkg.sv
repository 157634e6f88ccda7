// SPDX-License-Identifier: Apache-2.0
// tonic_dd_pkg: types shared by the data-delivery engine and the protocol
// modules (protocols/<name>/incoming.v, periodic_updates.v).
//
// Sequence numbers are 32-bit segment indices compared with serial
// arithmetic (seq_lt): a < b iff the signed difference a - b is negative,
// which is correct while the two are less than 2^31 apart.
`default_nettype none

package tonic_dd_pkg;
  /// A segment index (serial number, wraps at 2^32).
  typedef logic [31:0] seq_t;

  /// Type of an incoming control packet (rx stream).
  typedef enum logic [2:0] {
    RxAck    = 3'd0,  // cumulative ack
    RxSack   = 3'd1,  // cumulative ack + one selective ack (sack_idx)
    RxNack   = 3'd2,  // negative ack: cum_ack is the first missing segment
    RxPull   = 3'd3,  // receiver grant (tokens)
    RxCnp    = 3'd4,  // congestion notification packet
    RxResend = 3'd5   // receiver asks to resend from cum_ack
  } rx_type_e;

  /// Credit scheme a protocol selects in user_configs.vh.
  typedef enum logic [1:0] {
    CreditWindow = 2'd0,  // congestion window, enforced in the DD engine
    CreditRate   = 2'd1,  // rate + burst (CR engine, next issue)
    CreditToken  = 2'd2   // receiver-granted tokens (CR engine, next issue)
  } credit_e;

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
endpackage

`default_nettype wire
