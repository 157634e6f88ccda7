// SPDX-License-Identifier: Apache-2.0
// tonic_top: Tonic sender — data-delivery engine + credit engine, one
// segment address per cycle; with the rate scheme also the rate credit cell
// (tonic_rate_credit) that grants the DD engine's permits. The credit
// scheme is the protocol's (docs/design/credit-schemes.md).
//
// Streams (docs/sender-core.md):
//   ctrl  (valid/ready)  host driver: ADD / POST / REMOVE a flow
//   rx    (valid only)   incoming control packets, one per cycle
//   seg   (valid/ready)  segment addresses to the DMA pipeline
//   note  (valid/ready)  burst-complete notifications to the host
//   status (valid only)  bad-input and watchdog events (docs/robustness.md)
// The protocol is chosen at build time: protocols/<name>/ on the include
// path provides user_configs.vh, incoming.v and periodic_updates.v.
`default_nettype none

module tonic_top
  import tonic_dd_pkg::*;
#(
  /// Number of flows (1024; also builds at 2048 and 4096).
  parameter int unsigned FlowCount = 1024,
  /// Window ring size in segments (128, also 256).
  parameter int unsigned Window = 128,
  /// Addresses per flow generated ahead of credit (N).
  parameter int unsigned RingN = 16,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// 1: the per-flow memories use tonic_state_ram's behavioural form
  /// (SimModel = 1), for fast Verilator models only; 0 (default): the
  /// structural form, the one to synthesize.
  parameter int unsigned SimRam = 0,
  /// Rate scheme: the largest rate a protocol may set (RU, bytes per 2^20
  /// cycles); the default is 100 Gb/s at 100 MHz (125 B per cycle). A rate
  /// of 0 or above it is clamped to 1..RateMax, counted and reported.
  parameter int unsigned RateMax = 131072000,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_i,
  // Control.
  input  wire logic            ctrl_valid_i,
  output logic                 ctrl_ready_o,
  input  wire ctrl_op_e        ctrl_op_i,
  input  wire flow_id_t        ctrl_flow_i,  // ids >= FlowCount: counted, ignored
  input  wire seq_t            ctrl_seq_i,
  input  wire logic [LenW-1:0] ctrl_len_i,
  // Incoming control packets (no ready).
  input  wire logic            rx_valid_i,
  input  wire flow_id_t        rx_flow_i,    // ids >= FlowCount: counted, ignored
  input  wire rx_type_e        rx_type_i,
  input  wire seq_t            rx_cum_ack_i,
  input  wire logic            rx_sack_valid_i,
  input  wire seq_t            rx_sack_idx_i,
  input  wire logic            rx_ecn_i,
  input  wire logic [15:0]     rx_grant_i,
  // The ack's echo of a transmission (echo_t): a receiver echoes the
  // seg_ts_o (and seg_rtx_o) of the segment RFC 7323 names; 0 when none.
  input  wire logic            rx_echo_valid_i,
  input  wire logic            rx_echo_rtx_i,
  input  wire ts_t             rx_echo_ts_i,
  // Segment addresses.
  output logic                 seg_valid_o,
  input  wire logic            seg_ready_i,
  output logic      [IdW-1:0]  seg_flow_o,
  output seq_t                 seg_idx_o,
  output logic                 seg_rtx_o,
  output logic      [LenW-1:0] seg_len_o,
  // Transmit stamp: the engine's cycle (now) in which this address was
  // first presented on seg_*; stable while seg_valid_o && !seg_ready_i.
  // The receiver echoes it (rx_echo_*_i); the protocol's RTT sample is the
  // cycle of the echo's incoming stage 2 minus it.
  output ts_t                  seg_ts_o,
  // The engine's cycle count (since reset, wraps): the clock of seg_ts_o and
  // of the RTT samples, for a host that stamps or checks them.
  output logic      [31:0]     now_o,
  // Notifications.
  output logic                 note_valid_o,
  input  wire logic            note_ready_i,
  output logic      [IdW-1:0]  note_flow_o,
  output seq_t                 note_acked_o,
  // Counters.
  output dd_stats_t            stats_o,
  // Bad-input and watchdog events, one word per cycle (status_t).
  output status_t              status_o,
  // Watchdog: seg_valid_o held while seg_ready_i is low for this many
  // consecutive cycles raises status_o.watchdog once per stall and counts
  // stats_o.wdog_trips. 0: off.
  input  wire logic [31:0]     wdog_limit_i,
  output logic      [IdW:0]    active_flows_o,
  output logic      [IdW:0]    ready_flows_o,
  output logic                 cr_enq_drop_o,
  // Probe (traces, debug): current state of flow probe_flow_i.
  input  wire logic [IdW-1:0]  probe_flow_i,
  output logic [$clog2(Window):0] probe_wnd_o,    // cwnd (segments)
  output seq_t                 probe_start_o,     // wnd_start
  output seq_t                 probe_next_o,      // next_new
  // Trace of the window-group writes (reference-model checks, debugging).
  output dd_trace_t            trace_in_o,
  output dd_trace_t            trace_per_o,
  output dd_ns_trace_t         trace_ns_o,
  // Credit counters (rate and token schemes; 0 with the window scheme).
  output credit_stats_t        credit_stats_o
);
  // The protocol's configuration: the credit scheme, the initial rate and
  // the burst (docs/design/credit-schemes.md).
  `include "user_configs.vh"
  localparam bit RateOn = CreditScheme == CreditRate;
  // A protocol of the rate scheme whose user_configs.vh defines
  // TONIC_RATE_CUT_VOIDS: a rate cut voids the credit in hand and reaches
  // the addresses already queued (docs/design/credit-schemes.md).
`ifdef TONIC_RATE_CUT_VOIDS
  localparam int unsigned CutVoids = 1;
`else
  localparam int unsigned CutVoids = 0;
`endif
  // A protocol of the token scheme whose user_configs.vh defines
  // TONIC_TOKEN_SET: a token write with tokens_set_o revokes the flow's
  // credit, queued addresses included (docs/design/credit-schemes.md).
`ifdef TONIC_TOKEN_SET
  localparam int unsigned TokenSet = 1;
`else
  localparam int unsigned TokenSet = 0;
`endif
  // The CR engine's wire gate (a second credit check where a segment
  // leaves) exists only for those two opt-ins: 1 for rate cuts (W set by
  // the rate cell's revocations), 2 for token sets (W also set to
  // TokensInit at a flow's ADD); 0 otherwise.
  localparam int unsigned WireGate = (RateOn && CutVoids != 0) ? 1
                                   : (CreditScheme == CreditToken && TokenSet != 0) ? 2 : 0;

  logic            enq_valid, enq_init, enq_rtx;
  logic [IdW-1:0]  enq_flow;
  seq_t            enq_idx;
  logic [LenW-1:0] enq_len;
  logic            txn_valid, txn_rtx;
  logic [IdW-1:0]  txn_flow;
  seq_t            txn_idx;
  logic [LenW-1:0] txn_len;
  ts_t             txn_ts;
  logic            rc_init_valid, rc_init_ready, rc_upd_valid, rc_req_valid, rc_grant_valid;
  logic [IdW-1:0]  rc_init_flow, rc_upd_flow, rc_req_flow, rc_grant_flow;
  logic [LenW-1:0] rc_init_len;
  logic [31:0]     rc_upd_rate;
  logic [4:0]      rc_grant_cnt;
  credit_stats_t   dd_credit_stats;
  dd_stats_t       dd_stats;
  status_t         dd_status;
  logic            rc_wait, rc_cut, rc_grant_set;
  logic            gate_void, void_valid;
  logic [IdW-1:0]  void_flow;
  logic [16:0]     void_cnt;
  logic            gate_valid, gate_set, gate_hold;
  logic [IdW-1:0]  gate_flow, gate_hold_flow;
  logic [15:0]     gate_cnt;
  logic [31:0]     wire_holds_q;   // the wire gate's holds (counted)
  echo_t           rx_echo;
  logic [31:0]     dd_now;
  ts_t             seg_ts_q;
  assign rx_echo = '{valid: rx_echo_valid_i, rtx: rx_echo_rtx_i, ts: rx_echo_ts_i};

  // The transmit stamp: taken in every cycle the output is not holding a
  // stalled address (the next cycle's now), held while it is, so an address
  // carries the cycle it was first presented.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      seg_ts_q <= '0;
    end else if (!(seg_valid_o && !seg_ready_i)) begin
      seg_ts_q <= dd_now + 32'd1;
    end
  end
  assign seg_ts_o = seg_ts_q;
  // The stamp of the address that left, beside the CR engine's transmit
  // notify (both one cycle after the handshake).
  always_ff @(posedge clk_i) txn_ts <= seg_ts_q;
  assign now_o    = dd_now;

  tonic_dd_engine #(
    .FlowCount(FlowCount),
    .W        (Window),
    .RingN    (RingN),
    .LenW     (LenW),
    .SimRam   (SimRam),
    .WireGate (WireGate)
  ) u_dd (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .ctrl_valid_i   (ctrl_valid_i),
    .ctrl_ready_o   (ctrl_ready_o),
    .ctrl_op_i      (ctrl_op_i),
    .ctrl_flow_i    (ctrl_flow_i),
    .ctrl_seq_i     (ctrl_seq_i),
    .ctrl_len_i     (ctrl_len_i),
    .rx_valid_i     (rx_valid_i),
    .rx_flow_i      (rx_flow_i),
    .rx_type_i      (rx_type_i),
    .rx_cum_ack_i   (rx_cum_ack_i),
    .rx_sack_valid_i(rx_sack_valid_i),
    .rx_sack_idx_i  (rx_sack_idx_i),
    .rx_ecn_i       (rx_ecn_i),
    .rx_grant_i     (rx_grant_i),
    .rx_echo_i      (rx_echo),
    .now_o          (dd_now),
    .enq_valid_o    (enq_valid),
    .enq_init_o     (enq_init),
    .enq_flow_o     (enq_flow),
    .enq_idx_o      (enq_idx),
    .enq_rtx_o      (enq_rtx),
    .enq_len_o      (enq_len),
    .txn_valid_i    (txn_valid),
    .txn_flow_i     (txn_flow),
    .txn_idx_i      (txn_idx),
    .txn_rtx_i      (txn_rtx),
    .txn_len_i      (txn_len),
    .txn_ts_i       (txn_ts),
    .note_valid_o   (note_valid_o),
    .note_ready_i   (note_ready_i),
    .note_flow_o    (note_flow_o),
    .note_acked_o   (note_acked_o),
    .stats_o        (dd_stats),
    .status_o       (dd_status),
    .active_flows_o (active_flows_o),
    .probe_flow_i   (probe_flow_i),
    .probe_wnd_o    (probe_wnd_o),
    .probe_start_o  (probe_start_o),
    .probe_next_o   (probe_next_o),
    .trace_in_o     (trace_in_o),
    .trace_per_o    (trace_per_o),
    .trace_ns_o     (trace_ns_o),
    .rc_init_valid_o (rc_init_valid),
    .rc_init_ready_i (rc_init_ready),
    .rc_init_flow_o  (rc_init_flow),
    .rc_init_len_o   (rc_init_len),
    .rc_upd_valid_o  (rc_upd_valid),
    .rc_upd_flow_o   (rc_upd_flow),
    .rc_upd_rate_o   (rc_upd_rate),
    .rc_req_valid_o  (rc_req_valid),
    .rc_req_flow_o   (rc_req_flow),
    .rc_grant_valid_i(rc_grant_valid),
    .rc_grant_flow_i (rc_grant_flow),
    .rc_grant_cnt_i  (rc_grant_cnt),
    .rc_grant_set_i  (rc_grant_set),
    .rc_grant_cut_i  (rc_cut),
    .void_valid_i    (void_valid),
    .void_flow_i     (void_flow),
    .void_cnt_i      (void_cnt),
    .gate_valid_o    (gate_valid),
    .gate_set_o      (gate_set),
    .gate_void_o     (gate_void),
    .gate_flow_o     (gate_flow),
    .gate_cnt_o      (gate_cnt),
    .credit_stats_o  (dd_credit_stats)
  );

  // Rate credit: permits for the DD engine's next-seg processor. A
  // protocol's rate of 0 or above RateMax is clamped to 1..RateMax, counted
  // and reported (docs/robustness.md).
  logic        rate_clamp_q;
  logic [15:0] rate_clamp_flow_q;
  if (RateOn) begin : g_rate
    logic [31:0] rc_now_unused;
    logic        rc_rate_bad;
    logic [31:0] rc_rate_ok, rc_clamped_q;
    assign rc_rate_bad = rc_upd_rate == '0 || rc_upd_rate > 32'(RateMax);
    assign rc_rate_ok  = (rc_upd_rate == '0) ? 32'd1
                       : (rc_upd_rate > 32'(RateMax)) ? 32'(RateMax) : rc_upd_rate;
    tonic_rate_credit #(
      .FlowCount (FlowCount),
      .LenW      (LenW),
      .BurstBytes(BurstBytes),
      .RateInit  (RateInit),
      .CutVoids  (CutVoids)
    ) u_rate (
      .clk_i        (clk_i),
      .rst_i        (rst_i),
      .init_valid_i (rc_init_valid),
      .init_ready_o (rc_init_ready),
      .init_flow_i  (rc_init_flow),
      .init_len_i   (rc_init_len),
      .upd_valid_i  (rc_upd_valid),
      .upd_flow_i   (rc_upd_flow),
      .upd_rate_i   (rc_rate_ok),
      .req_valid_i  (rc_req_valid),
      .req_flow_i   (rc_req_flow),
      .hold_valid_i (gate_hold),
      .hold_flow_i  (gate_hold_flow),
      .sent_valid_i (txn_valid),
      .sent_flow_i  (txn_flow),
      .grant_valid_o(rc_grant_valid),
      .grant_flow_o (rc_grant_flow),
      .grant_cnt_o  (rc_grant_cnt),
      .grant_set_o  (rc_grant_set),
      .now_o        (rc_now_unused),
      .wait_o       (rc_wait),
      .cut_o        (rc_cut)
    );
    logic [31:0] rc_updates_q, rc_waits_q, rc_cuts_q;
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        rc_updates_q <= '0;
        rc_waits_q   <= '0;
        rc_cuts_q    <= '0;
        rc_clamped_q <= '0;
        rate_clamp_q <= 1'b0;
      end else begin
        rc_updates_q <= rc_updates_q + 32'(rc_upd_valid);
        rc_waits_q   <= rc_waits_q + 32'(rc_wait);
        rc_cuts_q    <= rc_cuts_q + 32'(rc_cut);
        rc_clamped_q <= rc_clamped_q + 32'(rc_upd_valid && rc_rate_bad);
        rate_clamp_q <= rc_upd_valid && rc_rate_bad;
      end
      rate_clamp_flow_q <= 16'(rc_upd_flow);
    end
    always_comb begin
      credit_stats_o                = dd_credit_stats;
      credit_stats_o.wire_holds     = wire_holds_q;
      credit_stats_o.rate_updates   = rc_updates_q;
      credit_stats_o.rate_waits     = rc_waits_q;
      credit_stats_o.rate_clamped   = rc_clamped_q;
      credit_stats_o.rate_cuts      = rc_cuts_q;
    end
  end else begin : g_no_rate
    assign rc_init_ready  = 1'b1;
    assign rc_grant_valid = 1'b0;
    assign rc_grant_flow  = '0;
    assign rc_grant_cnt   = '0;
    assign rc_grant_set   = 1'b0;
    assign rc_wait        = 1'b0;
    assign rc_cut         = 1'b0;
    always_comb begin
      credit_stats_o            = dd_credit_stats;
      credit_stats_o.wire_holds = wire_holds_q;
    end
    assign rate_clamp_q      = 1'b0;
    assign rate_clamp_flow_q = '0;
    logic unused_rate;
    assign unused_rate = ^{rc_init_valid, rc_init_flow, rc_init_len, rc_upd_valid, rc_upd_flow,
                           rc_upd_rate, rc_req_valid, rc_req_flow, rc_wait, rc_cut, gate_hold_flow,
                           32'(BurstBytes), 32'(RateInit), 32'(RateMax), CutVoids};
  end

  // The wire gate (WireGate above): credit is checked again where a segment
  // leaves (a rate cut or a token set reaches addresses already queued).
  // Its holds are counted (the rate cell is asked for credit; tokens wait).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wire_holds_q <= '0;
    end else begin
      wire_holds_q <= wire_holds_q + 32'(gate_hold);
    end
  end
  tonic_cr_engine #(
    .FlowCount(FlowCount),
    .RingN    (RingN),
    .LenW     (LenW),
    .WireGate (WireGate),
    .GateInit (TokensInit)
  ) u_cr (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .enq_valid_i  (enq_valid),
    .enq_init_i   (enq_init),
    .enq_flow_i   (enq_flow),
    .enq_idx_i    (enq_idx),
    .enq_rtx_i    (enq_rtx),
    .enq_len_i    (enq_len),
    .seg_valid_o  (seg_valid_o),
    .seg_ready_i  (seg_ready_i),
    .seg_flow_o   (seg_flow_o),
    .seg_idx_o    (seg_idx_o),
    .seg_rtx_o    (seg_rtx_o),
    .seg_len_o    (seg_len_o),
    .txn_valid_o  (txn_valid),
    .txn_flow_o   (txn_flow),
    .txn_idx_o    (txn_idx),
    .txn_rtx_o    (txn_rtx),
    .txn_len_o    (txn_len),
    .gate_valid_i (gate_valid),
    .gate_set_i   (gate_set),
    .gate_void_i  (gate_void),
    .gate_flow_i  (gate_flow),
    .gate_cnt_i   (gate_cnt),
    .gate_hold_o  (gate_hold),
    .gate_hold_flow_o(gate_hold_flow),
    .void_valid_o (void_valid),
    .void_flow_o  (void_flow),
    .void_cnt_o   (void_cnt),
    .enq_drop_o   (cr_enq_drop_o),
    .ready_flows_o(ready_flows_o)
  );

  // Watchdog (a stuck DMA side, as a NIC's pipeline watchdog): counts the
  // consecutive cycles the seg stream is held (valid, not ready); at
  // wdog_limit_i it trips once, until a cycle with the stream not held.
  logic [31:0] wdog_cnt_q, wdog_trips_q;
  logic        wdog_fired_q, wdog_trip, wdog_event_q;
  assign wdog_trip = wdog_limit_i != '0 && seg_valid_o && !seg_ready_i && !wdog_fired_q
                  && wdog_cnt_q + 32'd1 >= wdog_limit_i;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wdog_cnt_q   <= '0;
      wdog_fired_q <= 1'b0;
      wdog_trips_q <= '0;
      wdog_event_q <= 1'b0;
    end else begin
      wdog_event_q <= wdog_trip;
      if (seg_valid_o && !seg_ready_i) begin
        wdog_cnt_q   <= (wdog_cnt_q == '1) ? wdog_cnt_q : wdog_cnt_q + 32'd1;
        wdog_fired_q <= wdog_fired_q || wdog_trip;
      end else begin
        wdog_cnt_q   <= '0;
        wdog_fired_q <= 1'b0;
      end
      wdog_trips_q <= wdog_trips_q + 32'(wdog_trip);
    end
  end

  always_comb begin
    stats_o              = dd_stats;
    stats_o.wdog_trips   = wdog_trips_q;
    status_o             = dd_status;
    status_o.rate_clamp  = rate_clamp_q;
    status_o.rate_flow   = rate_clamp_flow_q;
    status_o.watchdog    = wdog_event_q;
    status_o.valid       = dd_status.valid || rate_clamp_q || wdog_event_q;
  end
endmodule

`default_nettype wire
