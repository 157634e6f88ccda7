// SPDX-License-Identifier: Apache-2.0
// tonic_small_fifo: a few-entry FIFO in flip-flops, pushed without ready.
//
// push_i in cycle t enters the FIFO at the edge if there is room or an entry
// leaves in the same cycle (push_ok_o says so; a refused push is the
// caller's to count or to prevent). The head is out_data_o, valid while the
// FIFO holds an entry; it leaves on out_valid_o && out_ready_i. An entry
// pushed in cycle t is visible in cycle t + 1. count_o is the number of
// entries (registered). Entries shift towards the head on a pop, so the
// head is always entry 0 (a register): no read mux on the output path.
// Use: output queues behind a registered block-RAM read (the CR engine),
// notification queues.
`default_nettype none

module tonic_small_fifo #(
  /// Entry width in bits.
  parameter int unsigned Width = 32,
  /// Number of entries, 2..16.
  parameter int unsigned Depth = 4,
  /// Width of count_o, holds 0..Depth (do not override).
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,        // synchronous, active high
  input  wire logic             push_i,
  input  wire logic [Width-1:0] data_i,
  output logic                  push_ok_o,    // push_i is taken this cycle
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic      [Width-1:0] out_data_o,
  output logic      [CntW-1:0]  count_o
);
  if (Depth < 2 || Depth > 16) begin : g_check
    $fatal(1, "tonic_small_fifo: Depth must be in 2..16");
  end

  logic [Depth-1:0][Width-1:0] q_q;
  logic [CntW-1:0]             cnt_q;
  logic                        pop, push;

  assign out_valid_o = cnt_q != '0;
  assign out_data_o  = q_q[0];
  assign count_o     = cnt_q;
  assign pop         = out_valid_o && out_ready_i;
  assign push_ok_o   = cnt_q != CntW'(Depth) || pop;
  assign push        = push_i && push_ok_o;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cnt_q <= '0;
    end else begin
      cnt_q <= cnt_q + CntW'(push) - CntW'(pop);
    end
  end

  // Shift on a pop, then write the pushed entry at the first free place.
  always_ff @(posedge clk_i) begin
    for (int unsigned i = 0; i < Depth; i++) begin
      if (push && CntW'(i) == cnt_q - CntW'(pop)) begin
        q_q[i] <= data_i;
      end else if (pop && i + 1 < Depth) begin
        q_q[i] <= q_q[i+1];
      end
    end
  end
endmodule

`default_nettype wire
