// SPDX-License-Identifier: Apache-2.0
// tonic_dd_transmit: the DD engine's transmit event, the protocol's optional
// tonic_proto_transmit and the per-flow transmit state it alone writes.
//
// A protocol whose folder has a transmit.v (the build then defines
// TONIC_PROTO_TRANSMIT, rtl/manifest via scripts/manifest.mjs) sees every
// segment as it leaves: its flow, index, retransmit flag, length and
// transmit stamp (the seg_ts_o the receiver echoes). It keeps a transmit
// state tx_t per flow (user_configs.vh: tx_t and TxInit) and is that
// state's only writer; incoming stage 2 and periodic read it as tx_i and
// cannot write it, so no merge rule is needed (docs/protocol-api.md).
//
// Timing. The CR engine reports a segment one cycle after it left (txn_*,
// cycle d + 1 for a departure in cycle d). This block presents the flow as
// the read address in that cycle, registers the event, and in cycle d + 2
// calls the protocol with the state the read returned and writes its
// result. The block-RAM read of cycle d + 1 already sees the write of a
// segment of the same flow handled in cycle d + 1, so one segment per
// cycle of one flow is counted without a gap or a double count. Incoming
// stage 2 and periodic in cycle c see the state after the writes of cycle
// c - 1: every segment that left in cycle c - 3 or earlier.
// A flow ADD clears the flow's transmit state to TxInit (a clear beats a
// write of the same cycle; ADD needs an idle flow). Without transmit.v the
// block is empty and tx_in2_o / tx_per_o read 0.
`default_nettype none

/// Transmit event and transmit state of the DD engine.
module tonic_dd_transmit #(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Width of the transmit state (the protocol's $bits(tx_t); 1 without).
  parameter int unsigned TxW = 1,
  /// The transmit state of a newly added flow.
  parameter logic [TxW-1:0] TxInit = '0,
  /// Width of segment lengths (bytes, <= 16).
  parameter int unsigned LenW = 16,
  /// tonic_state_ram's SimModel: 0 structural, 1 behavioural (Verilator only).
  parameter int unsigned SimRam = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  /// Clock.
  input  wire logic                   clk_i,
  /// Synchronous reset, active high.
  input  wire logic                   rst_i,
  /// The engine's time (the protocol's now_i).
  input  wire logic [31:0]            now_i,
  /// Flow ADD: clear this flow's transmit state ...
  input  wire logic                   clr_i,
  /// ... of this flow.
  input  wire logic [IdW-1:0]         clr_addr_i,
  /// Transmit notify (one cycle after the segment left) ...
  input  wire logic                   txn_valid_i,
  /// ... its flow ...
  input  wire logic [IdW-1:0]         txn_flow_i,
  /// ... segment index ...
  input  wire tonic_dd_pkg::seq_t     txn_idx_i,
  /// ... retransmission ...
  input  wire logic                   txn_rtx_i,
  /// ... length (bytes) ...
  input  wire logic [LenW-1:0]        txn_len_i,
  /// ... and transmit stamp.
  input  wire tonic_dd_pkg::ts_t      txn_ts_i,
  /// Incoming stage 2's read address (stage 2's flow of the next cycle).
  input  wire logic [IdW-1:0]         in2_ra_i,
  /// Periodic's read address (the flow it calls the protocol for next cycle).
  input  wire logic [IdW-1:0]         per_ra_i,
  /// Transmit state for incoming stage 2 (registered read).
  output logic [TxW-1:0]              tx_in2_o,
  /// Transmit state for periodic (registered read).
  output logic [TxW-1:0]              tx_per_o
);
`ifdef TONIC_PROTO_TRANSMIT
  localparam int unsigned RdTx = 0, RdIn2 = 1, RdPer = 2, Rd = 3;
  typedef logic [TxW-1:0] tx_w_t;

  logic                 q_valid, q_rtx;
  logic [IdW-1:0]       q_flow;
  tonic_dd_pkg::seq_t   q_idx;
  logic [LenW-1:0]      q_len;
  tonic_dd_pkg::ts_t    q_ts;
  always_ff @(posedge clk_i) begin
    if (rst_i) q_valid <= 1'b0;
    else       q_valid <= txn_valid_i;
  end
  always_ff @(posedge clk_i) begin
    q_flow <= txn_flow_i;
    q_idx  <= txn_idx_i;
    q_rtx  <= txn_rtx_i;
    q_len  <= txn_len_i;
    q_ts   <= txn_ts_i;
  end

  logic [Rd-1:0][IdW-1:0] ra;
  tx_w_t [Rd-1:0]         rd;
  tx_w_t                  p_tx;
  logic                   p_we;
  assign ra[RdTx]  = txn_flow_i;
  assign ra[RdIn2] = in2_ra_i;
  assign ra[RdPer] = per_ra_i;

  tonic_proto_transmit #(
    .TxW(TxW)
  ) u_proto_tx (
    .now_i  (now_i),
    .flow_i (tonic_dd_pkg::flow_id_t'(q_flow)),
    .idx_i  (q_idx),
    .rtx_i  (q_rtx),
    .len_i  (16'(q_len)),
    .ts_i   (q_ts),
    .tx_i   (rd[RdTx]),
    .tx_we_o(p_we),
    .tx_o   (p_tx)
  );

  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(TxW), .Writers(1), .Readers(Rd),
    .RegRead(1), .Clear(1), .Init(TxInit)
  ) u_tx (
    .clk_i     (clk_i),
    .we_i      (q_valid && p_we),
    .waddr_i   (q_flow),
    .wdata_i   (p_tx),
    .clr_i     (clr_i),
    .clr_addr_i(clr_addr_i),
    .raddr_i   (ra),
    .rdata_o   (rd)
  );
  assign tx_in2_o = rd[RdIn2];
  assign tx_per_o = rd[RdPer];
`else
  // No transmit.v: no state, nothing to call.
  assign tx_in2_o = '0;
  assign tx_per_o = '0;
  logic unused_ok;
  assign unused_ok = ^{clk_i, rst_i, now_i, clr_i, clr_addr_i, txn_valid_i, txn_flow_i, txn_idx_i,
                       txn_rtx_i, txn_len_i, txn_ts_i, in2_ra_i, per_ra_i, TxInit, 32'(SimRam)};
`endif
endmodule

`default_nettype wire
