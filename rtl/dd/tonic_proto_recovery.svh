// SPDX-License-Identifier: Apache-2.0
// tonic_proto_recovery.svh: fast recovery with partial acks (RFC 6582) and the RFC 6298 estimator on an ack, for window protocols.
//
// For a protocol's incoming stage whose user_t has the fields dup_acks
// (2 bits), in_rec, rto_guard, partial, ssthresh (9), ca_cnt (9), rec_off
// (8: RecoveryPoint - wnd_start), srtt8 and rttvar4, and the parameters
// RttKarn, RtoInit and RtoMax in its user_configs.vh. The C++ twins share
// the same rules in lib/tonic/proto_common.hpp (ack_view, recovery_ack,
// dup_ack). Each protocol keeps its own growth outside recovery and its own
// congestion event; docs/protocol-api.md, "Shared library".
//
// `include it in a module body after tonic_proto_config.svh. In
// tonic_proto_incoming, after the declarations of `u` (the user state read),
// `u_n` (written) and `wnd_n` (tonic_proto_pkg::cnt_t), `TONIC_REC_SIGNALS
// declares and drives:
//   new_ack, passed    the window start moved; the ack covers RecoveryPoint
//   rec_left           RecoveryPoint - the new window start
//   sample, unsampled  an RTT sample (Karn's rule with RttKarn); no sample
//                      yet, so RtoInit on this ack
//   est_n              the estimator after the sample
//   wnd, flight, newly, ssthresh  the counts as tonic_proto_pkg::cnt_t
//   full_wnd, part_wnd the window after a full / a partial ack
//   third_dup          a duplicate ack that is the fast retransmit (with dup_i)
// and defines the statements the module's always_comb uses:
//   `TONIC_REC_NEW_ACK       a new ack's common writes (user state, window,
//                            the RTO on a sample, the estimator, dup_acks 0)
//   `TONIC_REC_IN_RECOVERY   inside `if (u.in_rec)` of a new ack: a full ack
//                            leaves recovery with min(ssthresh, max(FlightSize,
//                            1) + 1); a partial ack deflates, marks the next
//                            hole, restarts the timer on the first one only
//   `TONIC_REC_DUP_ACK(SS)   a duplicate ack: inflate by one in recovery; else
//                            count it, and on third_dup enter recovery with
//                            ssthresh = SS, cwnd = SS + 3, mark wnd_start
//   `TONIC_REC_RTO           the RTO value: of the estimate before this
//                            sample (one sample of lag), or RtoInit
// and in tonic_proto_periodic, with `u_n` declared:
//   `TONIC_REC_TIMEOUT(SS)   an RTO's user state: recovery left, RecoveryPoint
//                            = next_new - 1 with rto_guard (no fast
//                            retransmit until an ack passes it), ssthresh = SS
// Within the signals: rec_adv = wnd_start - old_start; passed =
// wnd_start > old_start + rec_off; unsampled holds without an RTT sample so
// far (a receiver that echoes nothing), but not on a later partial ack;
// third_dup = the 3rd duplicate ack outside recovery, no RTO's
// RecoveryPoint pending.

`ifndef TONIC_PROTO_RECOVERY_MACROS
`define TONIC_PROTO_RECOVERY_MACROS
`define TONIC_REC_SIGNALS \
  logic                      new_ack, passed, sample, unsampled, third_dup; \
  tonic_dd_pkg::seq_t        rec_adv; \
  logic [7:0]                rec_left; \
  tonic_proto_pkg::rtt_est_t est_n; \
  tonic_proto_pkg::cnt_t     wnd, flight, newly, ssthresh, full_wnd, part_wnd; \
  assign new_ack   = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i); \
  assign rec_adv   = wnd_start_i - old_start_i; \
  assign passed    = new_ack && (rec_adv > 32'(u.rec_off)); \
  assign rec_left  = u.rec_off - rec_adv[7:0]; \
  assign wnd       = 10'(wnd_i); \
  assign flight    = 10'(flight_i); \
  assign newly     = 10'(newly_acked_i); \
  assign ssthresh  = 10'(u.ssthresh); \
  assign sample    = new_ack && info_i.rtt_valid && !(RttKarn != 0 && info_i.echo_rtx); \
  assign unsampled = new_ack && u.srtt8 == '0 && !(u.in_rec && !passed && u.partial); \
  assign est_n     = tonic_proto_pkg::rtt_sample('{srtt8: u.srtt8, rttvar4: u.rttvar4}, info_i.rtt); \
  assign full_wnd  = (ssthresh < ((flight == '0) ? 10'd2 : flight + 10'd1)) ? ssthresh \
                   : (flight == '0) ? 10'd2 : flight + 10'd1; \
  assign part_wnd  = ((wnd > newly) ? wnd - newly : 10'd0) + 10'd1; \
  assign third_dup = !u.in_rec && u.dup_acks == 2'd2 && !u.rto_guard;
`define TONIC_REC_NEW_ACK \
  user_we_o    = 1'b1; \
  wnd_we_o     = 1'b1; \
  rto_we_o     = sample || unsampled; \
  u_n.dup_acks = 2'd0; \
  if (sample) {u_n.srtt8, u_n.rttvar4} = est_n;
`define TONIC_REC_IN_RECOVERY \
  if (passed) begin \
    wnd_n           = full_wnd; \
    u_n.in_rec      = 1'b0; \
    u_n.rto_guard   = 1'b0; \
    u_n.partial     = 1'b0; \
    u_n.ca_cnt      = 9'd0; \
    u_n.rec_off     = 8'd0; \
    timer_restart_o = flight_i != '0; \
  end else begin \
    mark_we_o       = 1'b1; \
    wnd_n           = part_wnd; \
    u_n.rec_off     = rec_left; \
    u_n.partial     = 1'b1; \
    timer_restart_o = !u.partial && flight_i != '0; \
  end
`define TONIC_REC_DUP_ACK(SS) \
  if (u.in_rec) begin \
    wnd_we_o = 1'b1; \
    wnd_n    = wnd + 10'd1; \
  end else begin \
    user_we_o    = 1'b1; \
    u_n.dup_acks = (u.dup_acks == 2'd3) ? 2'd3 : u.dup_acks + 2'd1; \
    if (third_dup) begin \
      wnd_we_o     = 1'b1; \
      mark_we_o    = 1'b1; \
      u_n.in_rec   = 1'b1; \
      u_n.partial  = 1'b0; \
      u_n.ssthresh = 9'(SS); \
      u_n.ca_cnt   = 9'd0; \
      u_n.rec_off  = tonic_proto_pkg::rec_offset(flight); \
      wnd_n        = 10'(SS) + 10'd3; \
    end \
  end
`define TONIC_REC_RTO \
  ((sample && u.srtt8 != '0) ? tonic_proto_pkg::rto_of('{srtt8: u.srtt8, rttvar4: u.rttvar4}, 32'(RtoMax)) \
                             : 32'(RtoInit))
`define TONIC_REC_TIMEOUT(SS) \
  u_n.dup_acks  = 2'd0; \
  u_n.in_rec    = 1'b0; \
  u_n.rto_guard = 1'b1; \
  u_n.partial   = 1'b0; \
  u_n.ssthresh  = 9'(SS); \
  u_n.ca_cnt    = 9'd0; \
  u_n.rec_off   = tonic_proto_pkg::rec_offset(10'(flight_i));
`endif
