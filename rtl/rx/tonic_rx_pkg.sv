// SPDX-License-Identifier: Apache-2.0
// tonic_rx_pkg: modes, decision reasons, the descriptor, configuration,
// decision and control-packet types of the receiver (docs/design/receiver.md).
//
// Segment indices, flow ids and control-packet types are the wire types of
// tonic_wire_pkg, which the sender shares, so a receiver's ctl stream can
// drive a sender's rx input.
`default_nettype none

package tonic_rx_pkg;
  /// Receive mode of a flow, chosen on OPEN.
  typedef enum logic [2:0] {
    ModeTcp    = 3'd0,  // cumulative acks (per segment or delayed), optional SACK
    ModeNdp    = 3'd1,  // ack / NACK every packet, paced pulls
    ModeRoce   = 3'd2,  // go-back-N, NACK rate limit, DCQCN notification point
    ModeIrn    = 3'd3,  // selective: NACK with SACK, DCQCN notification point
    ModeWindow = 3'd4   // window mode: sliding receive window (WBASE, WVEC), RESEND, zombie filter
  } rx_mode_e;

  /// Why a descriptor was delivered or dropped.
  typedef enum logic [2:0] {
    RsnOk        = 3'd0,  // delivered (new data, in the window)
    RsnUnknown   = 3'd1,  // flow id out of range or flow not open
    RsnZombie    = 3'd2,  // window mode: {node, context, MSGID} not the expected one
    RsnDuplicate = 3'd3,  // below WBASE, already held, or the message is complete
    RsnBeyond    = 3'd4,  // at or beyond WBASE + W
    RsnTrimmed   = 3'd5,  // a trimmed header (no payload)
    RsnGoBackN   = 3'd6   // RoCE: above the expected index (go-back-N keeps nothing)
  } rx_reason_e;

  /// Configuration operation.
  typedef enum logic {
    CfgOpen  = 1'b0,  // (re)start a flow: every field below
    CfgClose = 1'b1   // stop a flow: only `flow` is used
  } rx_cfg_op_e;

  /// One configuration command (cfg stream).
  typedef struct packed {
    rx_cfg_op_e            op;
    logic [15:0]           flow;     // context id
    rx_mode_e              mode;
    tonic_wire_pkg::seq_t  first;    // first expected index (initial WBASE)
    logic [31:0]           count;    // message segment count; 0 = unbounded
    logic [15:0]           node;     // expected sender node (window mode)
    logic [15:0]           ctx;      // expected sender context (window mode)
    logic [19:0]           msgid;    // expected MSGID (window mode)
    logic                  delack;   // TCP: delayed acks
    logic                  sack;     // TCP: SACK the arriving segment and SACK blocks
    logic                  ce_state_acks;  // TCP: ecn = the flow's CE state; a CE change acks pending segments first
  } rx_cfg_t;

  /// One arriving data-packet descriptor (data stream).
  typedef struct packed {
    logic [15:0]           flow;     // context id
    tonic_wire_pkg::seq_t  idx;      // segment index
    logic [1:0]            txid;     // transmit id (carried, not used)
    logic                  ecn;      // CE mark
    logic                  trimmed;  // header of a trimmed packet
    logic [15:0]           node;     // sender node
    logic [15:0]           ctx;      // sender context
    logic [19:0]           msgid;    // MSGID
    logic                  last;     // last segment of the message (carried, not used)
    tonic_wire_pkg::ts_t   ts;       // transmit stamp (echoed by acks and NACKs)
    logic                  rtx;      // a retransmission (echoed with the stamp)
  } rx_desc_t;

  /// The decision on one descriptor (dlv stream).
  typedef struct packed {
    logic [15:0]           flow;
    tonic_wire_pkg::seq_t  idx;
    logic                  deliver;  // 1: hand the payload on; 0: drop it
    rx_reason_e            reason;
  } rx_dlv_t;

  /// One control packet (ctl stream), in the sender's rx format plus go_back,
  /// the echo and the SACK blocks (docs/design/receiver.md, "Echo, SACK
  /// blocks and the CE state").
  typedef struct packed {
    tonic_wire_pkg::flow_id_t  flow;
    tonic_wire_pkg::rx_type_e  typ;
    tonic_wire_pkg::seq_t      cum_ack;     // WBASE (every index below it received)
    logic                      sack_valid;  // sack_idx names a received index
    tonic_wire_pkg::seq_t      sack_idx;    // SACK index, or the NACKed index (NDP)
    logic                      ecn;         // ECN echo (TCP)
    logic [15:0]               grant;       // PULL: the flow's cumulative pull number
    logic                      go_back;     // RESEND: go back from cum_ack
    tonic_wire_pkg::echo_t     echo;        // TCP: TS.Recent; NACK: the triggering packet's stamp
    tonic_wire_pkg::sack_blks_t blks;       // TCP with SACK: held runs above cum_ack, [0] the most recent
  } rx_ctl_t;

  /// Event counters of the receiver (wrap at 2^32).
  typedef struct packed {
    logic [31:0] unknown;     // descriptors for a flow out of range or not open
    logic [31:0] zombie;      // window mode: wrong {node, context, MSGID}
    logic [31:0] duplicate;   // below WBASE, already held, or after completion
    logic [31:0] beyond;      // at or beyond WBASE + W
    logic [31:0] trimmed;     // trimmed headers
    logic [31:0] gbn_drop;    // RoCE: above the expected index, dropped
    logic [31:0] nack_supp;   // NACKs suppressed by NackGap (RoCE)
    logic [31:0] cnp_supp;    // CNPs suppressed by CnpGap (RoCE, IRN)
    logic [31:0] resends;     // RESENDs generated (window mode)
    logic [31:0] gobacks;     // of which with the go-back flag
    logic [31:0] completed;   // messages completed
    logic [31:0] ctl_sent;    // control packets sent (ctl transfers)
  } rx_stats_t;
endpackage

`default_nettype wire
