// SPDX-License-Identifier: Apache-2.0
// tonic_ram_2rw: true dual-port RAM, two read/write ports on one clock.
//
// The inference template Vivado documents for a single-clock true dual-port
// block RAM in read-first mode: a plain array, each port in its own
// always_ff, read data registered, no reset on the storage or the read
// registers. Vivado maps it to RAMB18E2/RAMB36E2 in TDP mode with
// WRITE_MODE_A = WRITE_MODE_B = READ_FIRST and a common clock; Yosys
// synth_xilinx maps it to the same primitives ($__XILINX_BLOCKRAM_TDP_,
// WRITE_MODE READ_FIRST).
//
// Timing, per port: on a clock edge with <x>_en_i high the port reads
// mem[<x>_addr_i] into <x>_rdata_o (latency 1 cycle) and, if <x>_we_i, then
// writes <x>_wdata_i there (read-first: a write also loads the OLD contents
// into <x>_rdata_o). <x>_rdata_o holds while <x>_en_i is low.
// Collisions (same address, same edge):
// - one port writes, the other reads: the reader gets the OLD contents.
//   This is the UltraScale behaviour for READ_FIRST with a common clock
//   (UG573, "Address Collision"); WRITE_FIRST or NO_CHANGE would give an
//   undefined value instead.
// - both ports write: the stored value is undefined in hardware; callers
//   must never do this (tonic_mpmem masks such writes). The simulation
//   model flags it with an assertion.
`default_nettype none

module tonic_ram_2rw #(
  /// Number of words (>= 2).
  parameter int unsigned Depth = 1024,
  /// Word width in bits (>= 1).
  parameter int unsigned Width = 32,
  /// Address width, derived; do not override.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  // Port A.
  input  wire logic             a_en_i,     // access this cycle
  input  wire logic             a_we_i,     // the access is a write (with a_en_i)
  input  wire logic [AddrW-1:0] a_addr_i,   // < Depth
  input  wire logic [Width-1:0] a_wdata_i,
  output logic      [Width-1:0] a_rdata_o,  // mem[a_addr_i] of the last access
  // Port B.
  input  wire logic             b_en_i,
  input  wire logic             b_we_i,
  input  wire logic [AddrW-1:0] b_addr_i,
  input  wire logic [Width-1:0] b_wdata_i,
  output logic      [Width-1:0] b_rdata_o
);
  if (Depth < 2) begin : g_check_depth
    $fatal(1, "tonic_ram_2rw: Depth must be >= 2");
  end
  if (Width == 0) begin : g_check_width
    $fatal(1, "tonic_ram_2rw: Width must be > 0");
  end

  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] a_rdata_q, b_rdata_q;

  assign a_rdata_o = a_rdata_q;
  assign b_rdata_o = b_rdata_q;

  // Port A: read-first.
  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      if (a_we_i) begin
        mem_q[a_addr_i] <= a_wdata_i;
      end
      a_rdata_q <= mem_q[a_addr_i];
    end
  end

  // Port B: read-first.
  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      if (b_we_i) begin
        mem_q[b_addr_i] <= b_wdata_i;
      end
      b_rdata_q <= mem_q[b_addr_i];
    end
  end

`ifndef SYNTHESIS
  // Two writes to one address in one cycle leave it undefined in hardware.
  always_ff @(posedge clk_i) begin
    assert (!(a_en_i && a_we_i && b_en_i && b_we_i && (a_addr_i == b_addr_i)))
      else $error("tonic_ram_2rw: both ports write address %0d", a_addr_i);
  end
`endif
endmodule

`default_nettype wire
