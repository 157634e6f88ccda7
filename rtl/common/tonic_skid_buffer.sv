// SPDX-License-Identifier: Apache-2.0
// tonic_skid_buffer: fully registered valid/ready stage (two entries).
//
// Both the forward path (valid, payload) and the backward path (ready) are
// registered, so neither crosses the stage combinationally. Sustains one
// transfer per cycle; latency 1 cycle; holds up to two items. in_ready_o
// depends only on state, never on in_valid_i or out_ready_i this cycle.
`default_nettype none

module tonic_skid_buffer #(
  /// Payload width in bits.
  parameter int unsigned Width = 32
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,        // synchronous, active high
  // Input stream.
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [Width-1:0] in_data_i,
  // Output stream.
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic [Width-1:0]      out_data_o
);
  if (Width == 0) begin : g_check
    $fatal(1, "tonic_skid_buffer: Width must be > 0");
  end

  // Main output register and the skid register behind it.
  logic             out_valid_q, out_valid_d;
  logic             skid_valid_q, skid_valid_d;
  logic [Width-1:0] out_data_q, out_data_d;
  logic [Width-1:0] skid_data_q, skid_data_d;

  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;

  always_comb begin
    out_valid_d  = out_valid_q;
    skid_valid_d = skid_valid_q;
    out_data_d   = out_data_q;
    skid_data_d  = skid_data_q;
    if (out_ready_i || !out_valid_q) begin
      // Output register frees up: refill from skid first, else from input.
      if (skid_valid_q) begin
        out_valid_d  = 1'b1;
        out_data_d   = skid_data_q;
        skid_valid_d = 1'b0;
      end else begin
        out_valid_d = in_valid_i;
        out_data_d  = in_data_i;
      end
    end else if (in_valid_i && in_ready_o) begin
      // Output stalled while an input arrives: park it in the skid register.
      skid_valid_d = 1'b1;
      skid_data_d  = in_data_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      out_valid_q  <= 1'b0;
      skid_valid_q <= 1'b0;
    end else begin
      out_valid_q  <= out_valid_d;
      skid_valid_q <= skid_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    out_data_q  <= out_data_d;
    skid_data_q <= skid_data_d;
  end
endmodule

`default_nettype wire
