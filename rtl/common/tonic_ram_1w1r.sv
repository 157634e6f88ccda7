// SPDX-License-Identifier: Apache-2.0
// tonic_ram_1w1r: simple dual-port RAM, one write port and one registered read port.
//
// The inference template Vivado documents for simple dual-port block RAM
// (one clock): a plain array written in one always_ff, a read address
// sampled on the clock, no reset on the storage or on the read register.
// Vivado maps it to RAMB18E2/RAMB36E2 (or LUTRAM/URAM by size and
// attributes); Yosys synth_xilinx maps it to RAMB18E2/RAMB36E2.
//
// Timing: read latency 1 cycle. rd_data_o is updated on the clock edge
// where rd_en_i is high with mem[rd_addr_i] and holds while rd_en_i is low.
// Read during write to the same address in the same cycle returns the OLD
// contents (read-first), which is what the BRAM gives in simple dual-port
// mode with a common clock and WRITE_MODE = READ_FIRST (the mode Vivado
// chooses for this template). Callers that need another behaviour must
// not rely on the collision result.
`default_nettype none

module tonic_ram_1w1r #(
  /// Number of words (>= 2).
  parameter int unsigned Depth = 1024,
  /// Word width in bits (>= 1).
  parameter int unsigned Width = 32,
  /// Address width, derived; do not override.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  // Write port: mem[wr_addr_i] <= wr_data_i at the edge when wr_en_i.
  input  wire logic             wr_en_i,
  input  wire logic [AddrW-1:0] wr_addr_i,
  input  wire logic [Width-1:0] wr_data_i,
  // Read port: rd_data_o <= mem[rd_addr_i] at the edge when rd_en_i.
  input  wire logic             rd_en_i,
  input  wire logic [AddrW-1:0] rd_addr_i,
  output logic      [Width-1:0] rd_data_o
);
  if (Depth < 2) begin : g_check_depth
    $fatal(1, "tonic_ram_1w1r: Depth must be >= 2");
  end
  if (Width == 0) begin : g_check_width
    $fatal(1, "tonic_ram_1w1r: Width must be > 0");
  end

  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rd_data_q;

  assign rd_data_o = rd_data_q;

  // Write port. Addresses must be < Depth.
  always_ff @(posedge clk_i) begin
    if (wr_en_i) begin
      mem_q[wr_addr_i] <= wr_data_i;
    end
  end

  // Registered read; read-first on a same-address collision.
  always_ff @(posedge clk_i) begin
    if (rd_en_i) begin
      rd_data_q <= mem_q[rd_addr_i];
    end
  end
endmodule

`default_nettype wire
