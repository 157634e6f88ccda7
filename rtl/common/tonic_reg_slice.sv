// SPDX-License-Identifier: Apache-2.0
// tonic_reg_slice: forward register slice on a valid/ready stream.
//
// Registers valid and payload (breaks the forward timing path); ready passes
// through combinationally (in_ready_o = !out_valid_o || out_ready_i), so the
// slice sustains one transfer per cycle. Latency: 1 cycle.
`default_nettype none

module tonic_reg_slice #(
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
    $fatal(1, "tonic_reg_slice: Width must be > 0");
  end

  logic             valid_q;
  logic [Width-1:0] data_q;

  assign in_ready_o  = !valid_q || out_ready_i;
  assign out_valid_o = valid_q;
  assign out_data_o  = data_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      valid_q <= 1'b0;
    end else if (in_ready_o) begin
      valid_q <= in_valid_i;
    end
  end

  // Datapath register: no reset.
  always_ff @(posedge clk_i) begin
    if (in_ready_o && in_valid_i) begin
      data_q <= in_data_i;
    end
  end
endmodule

`default_nettype wire
