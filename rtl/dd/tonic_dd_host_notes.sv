// SPDX-License-Identifier: Apache-2.0
// tonic_dd_host_notes: the DD engine's burst-complete notifications to the host.
//
// When incoming stage 2 advances a flow's window start to posted (everything
// posted is acked), a note {flow, wnd_start} goes into a 4-entry queue to
// the host. A note that finds the queue full is dropped and reported
// (drop_o, counted by the engine).
`default_nettype none

/// Burst-complete notes of the DD engine.
module tonic_dd_host_notes #(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  /// Clock.
  input  wire logic               clk_i,
  /// Synchronous reset, active high.
  input  wire logic               rst_i,
  /// Incoming stage 2 writes this cycle ...
  input  wire logic               in2_go_i,
  /// ... and its event advanced wnd_start ...
  input  wire logic               in2_advanced_i,
  /// ... of this flow ...
  input  wire logic [IdW-1:0]     in2_flow_i,
  /// ... to this value ...
  input  wire tonic_dd_pkg::seq_t in2_start_i,
  /// ... and the flow's posted is this.
  input  wire tonic_dd_pkg::seq_t in2_posted_i,
  /// A note for the host.
  output logic                    note_valid_o,
  /// The host takes it.
  input  wire logic               note_ready_i,
  /// The note's flow.
  output logic [IdW-1:0]          note_flow_o,
  /// The note's wnd_start (= posted).
  output tonic_dd_pkg::seq_t      note_acked_o,
  /// A note was dropped (queue full).
  output logic                    drop_o
);
  logic       push, push_ok;
  logic [2:0] cnt_unused;
  assign push = in2_go_i && in2_advanced_i && in2_start_i == in2_posted_i;

  tonic_small_fifo #(
    .Width(IdW + 32),
    .Depth(4)
  ) u_notes (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .push_i     (push),
    .data_i     ({in2_flow_i, in2_start_i}),
    .push_ok_o  (push_ok),
    .out_valid_o(note_valid_o),
    .out_ready_i(note_ready_i),
    .out_data_o ({note_flow_o, note_acked_o}),
    .count_o    (cnt_unused)
  );

  assign drop_o = push && !push_ok;
endmodule

`default_nettype wire
