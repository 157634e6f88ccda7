// SPDX-License-Identifier: Apache-2.0
// tonic_mpmem_lvt: live-value table of tonic_mpmem — a small multi-port
// memory (WritePorts writes, ReadPorts combinational reads per cycle) made of
// single-write banks with XOR encoding, so it maps to LUTRAM.
//
// Bank p is written only by write port p. The value of address a is the XOR
// of all banks at a; write port p stores its value XOR the other banks'
// current words at a, so after the write the XOR of all banks is exactly
// that value, whatever the banks held before. Each bank is a plain array
// with one write port and WritePorts-1+ReadPorts asynchronous reads: the
// form Vivado and Yosys map to distributed RAM (RAM64M8: one write, seven
// reads per 64 x 1 bit). A flip-flop table with WritePorts indexed writes
// costs several LUTs per entry for the write decode instead.
//
// Timing: rd_data_o is combinational from rd_addr_i and shows the contents
// before this cycle's writes (writes land on the clock edge). Writes must
// have distinct addresses within a cycle (the caller masks collisions);
// two writes to one address in one cycle leave it undefined. Never-written
// addresses read as undefined values. No reset.
`default_nettype none

module tonic_mpmem_lvt #(
  /// Write ports (>= 1).
  parameter int unsigned WritePorts = 2,
  /// Read ports (>= 1).
  parameter int unsigned ReadPorts = 2,
  /// Entries (>= 2).
  parameter int unsigned Depth = 1024,
  /// Entry width in bits (>= 1).
  parameter int unsigned Width = 1,
  /// Address width, derived; do not override.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic                             clk_i,
  // Writes: distinct addresses within one cycle.
  input  wire logic [WritePorts-1:0]            wr_en_i,
  input  wire logic [WritePorts-1:0][AddrW-1:0] wr_addr_i,
  input  wire logic [WritePorts-1:0][Width-1:0] wr_data_i,
  // Reads: combinational, old contents on a same-cycle write.
  input  wire logic [ReadPorts-1:0][AddrW-1:0]  rd_addr_i,
  output logic      [ReadPorts-1:0][Width-1:0]  rd_data_o
);
  if (WritePorts == 0 || ReadPorts == 0) begin : g_check_ports
    $fatal(1, "tonic_mpmem_lvt: WritePorts and ReadPorts must be >= 1");
  end
  if (Depth < 2) begin : g_check_depth
    $fatal(1, "tonic_mpmem_lvt: Depth must be >= 2");
  end
  if (Width == 0) begin : g_check_width
    $fatal(1, "tonic_mpmem_lvt: Width must be > 0");
  end

  // fb[p][q]: bank p at write port q's address (q != p); rv[p][r]: bank p
  // at read port r's address; wr_word[p]: what write port p stores.
  logic [Width-1:0] fb      [WritePorts][WritePorts];
  logic [Width-1:0] rv      [WritePorts][ReadPorts];
  logic [Width-1:0] wr_word [WritePorts];

  for (genvar p = 0; p < WritePorts; p++) begin : g_bank
    (* ram_style = "distributed" *)
    logic [Width-1:0] mem_q [Depth];

    always_ff @(posedge clk_i) begin
      if (wr_en_i[p]) begin
        mem_q[wr_addr_i[p]] <= wr_word[p];
      end
    end

    for (genvar q = 0; q < WritePorts; q++) begin : g_fb
      if (q != p) begin : g_other
        assign fb[p][q] = mem_q[wr_addr_i[q]];
      end else begin : g_self
        assign fb[p][q] = '0;  // not used
      end
    end
    for (genvar r = 0; r < ReadPorts; r++) begin : g_rd
      assign rv[p][r] = mem_q[rd_addr_i[r]];
    end
  end

  always_comb begin
    for (int unsigned p = 0; p < WritePorts; p++) begin
      wr_word[p] = wr_data_i[p];
      for (int unsigned q = 0; q < WritePorts; q++) begin
        if (q != p) begin
          wr_word[p] = wr_word[p] ^ fb[q][p];
        end
      end
    end
  end

  always_comb begin
    for (int unsigned r = 0; r < ReadPorts; r++) begin
      rd_data_o[r] = '0;
      for (int unsigned p = 0; p < WritePorts; p++) begin
        rd_data_o[r] = rd_data_o[r] ^ rv[p][r];
      end
    end
  end
endmodule

`default_nettype wire
