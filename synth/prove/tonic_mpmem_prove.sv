// SPDX-License-Identifier: Apache-2.0
// tonic_mpmem_prove: formal wrapper of tonic_mpmem (proof-only, synth/prove/).
//
// Instantiates the memory at a small size and checks it, every cycle and for
// every input sequence, against a shadow memory written straight from the
// contract of rtl/common/tonic_mpmem.sv:
//   - write priority: the shadow applies the writes of a cycle in port order,
//     so when several ports write one address the HIGHEST port wins;
//   - read latency 1 and read-after-write: a read issued in cycle t returns
//     in cycle t + 1 the shadow's word at the start of cycle t, i.e. the
//     latest write of an earlier cycle (whichever port issued it), and the
//     OLD word when a port writes the address in cycle t itself;
//   - rd_valid_o is rd_en_i of the previous cycle (low in the cycle after
//     reset).
// Never-written addresses are undefined by contract: their reads are not
// compared (the shadow keeps a "written" bit per address).
// All ports are free inputs except rst_i, which the wrapper raises in the
// first cycle only (synth/prove/run.sh starts from an all-zero state).
// With TONIC_PROVE_MUTANT defined the shadow lets the LOWEST port win a
// same-address collision (a wrong property): the proof must then fail.
`default_nettype none

module tonic_mpmem_prove #(
  /// Write ports of the memory under proof.
  parameter int unsigned WritePorts = 3,
  /// Read ports of the memory under proof.
  parameter int unsigned ReadPorts = 2,
  /// Words (small: the proof enumerates nothing, but the state grows with it).
  parameter int unsigned Depth = 4,
  /// Word width.
  parameter int unsigned Width = 2,
  /// Banking scheme of tonic_mpmem (0 = LVT over 1W1R banks, 1 = steered TDP).
  parameter int unsigned TdpBanks = 0,
  /// Address width (do not override).
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic                             clk_i,
  input  wire logic [WritePorts-1:0]            wr_en_i,
  input  wire logic [WritePorts-1:0][AddrW-1:0] wr_addr_i,
  input  wire logic [WritePorts-1:0][Width-1:0] wr_data_i,
  input  wire logic [ReadPorts-1:0]             rd_en_i,
  input  wire logic [ReadPorts-1:0][AddrW-1:0]  rd_addr_i,
  output logic                                  ok_o       // every check holds this cycle
);
`ifdef TONIC_PROVE_MUTANT
  localparam bit Mutant = 1'b1;
`else
  localparam bit Mutant = 1'b0;
`endif

  // Reset in the first cycle only (all state starts at zero).
  logic started_q = 1'b0;
  logic rst;
  assign rst = !started_q;
  always_ff @(posedge clk_i) started_q <= 1'b1;

  logic [ReadPorts-1:0]             rd_valid;
  logic [ReadPorts-1:0][Width-1:0]  rd_data;

  tonic_mpmem #(
    .WritePorts (WritePorts),
    .ReadPorts  (ReadPorts),
    .Depth      (Depth),
    .Width      (Width),
    .TdpBanks   (TdpBanks)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_i      (rst),
    .wr_en_i    (wr_en_i),
    .wr_addr_i  (wr_addr_i),
    .wr_data_i  (wr_data_i),
    .rd_en_i    (rd_en_i),
    .rd_addr_i  (rd_addr_i),
    .rd_valid_o (rd_valid),
    .rd_data_o  (rd_data)
  );

  // Addresses >= Depth are outside the contract.
  always_comb begin
    for (int unsigned p = 0; p < WritePorts; p++) begin
      assume (!wr_en_i[p] || 32'(wr_addr_i[p]) < Depth);
    end
    for (int unsigned r = 0; r < ReadPorts; r++) begin
      assume (!rd_en_i[r] || 32'(rd_addr_i[r]) < Depth);
    end
  end

  // Shadow memory (flip-flops, start at zero) and its "written" bits.
  logic [Width-1:0]     sh_mem_q [Depth];
  logic [Width-1:0]     sh_mem_d [Depth];
  logic [Depth-1:0]     sh_wr_q, sh_wr_d;
  // Expected read result per port, for the next cycle.
  logic [ReadPorts-1:0]            exp_en_q, exp_chk_q;
  logic [ReadPorts-1:0][Width-1:0] exp_data_q;

  always_comb begin
    sh_mem_d = sh_mem_q;
    sh_wr_d  = sh_wr_q;
    if (Mutant) begin
      for (int p = int'(WritePorts) - 1; p >= 0; p--) begin
        if (wr_en_i[p]) begin
          sh_mem_d[wr_addr_i[p]] = wr_data_i[p];
          sh_wr_d[wr_addr_i[p]]  = 1'b1;
        end
      end
    end else begin
      for (int unsigned p = 0; p < WritePorts; p++) begin
        if (wr_en_i[p]) begin
          sh_mem_d[wr_addr_i[p]] = wr_data_i[p];
          sh_wr_d[wr_addr_i[p]]  = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    sh_mem_q <= sh_mem_d;
    sh_wr_q  <= sh_wr_d;
    for (int unsigned r = 0; r < ReadPorts; r++) begin
      exp_en_q[r]   <= rd_en_i[r] && !rst;
      exp_chk_q[r]  <= rd_en_i[r] && sh_wr_q[rd_addr_i[r]];
      exp_data_q[r] <= sh_mem_q[rd_addr_i[r]];  // contents before this cycle's writes
    end
  end

  // The checks (combinational: each holds in every cycle of the proof).
  logic [ReadPorts-1:0] ok_valid, ok_data;
  always_comb begin
    for (int unsigned r = 0; r < ReadPorts; r++) begin
      ok_valid[r] = rst || (rd_valid[r] == exp_en_q[r]);
      ok_data[r]  = rst || !exp_chk_q[r] || (rd_data[r] == exp_data_q[r]);
      assert (ok_valid[r]);
      assert (ok_data[r]);
    end
  end
  assign ok_o = &{ok_valid, ok_data};

  // Auxiliary invariants for the induction step (TdpBanks = 0), stated on
  // the cell's internal state through hierarchical references, so they
  // break loudly if the internals are renamed. For every written address a:
  // the LVT (XOR of its banks) names a write port p < WritePorts, and bank
  // [p][r] holds the shadow's word at a for every read port r. They are
  // asserted too, so they are proved, not assumed. Without them the
  // induction step fails at every length (an unreachable state can hold a
  // wrong word at an address nobody reads for any number of cycles).
  if (TdpBanks == 0) begin : g_inv_lvt
    localparam int unsigned SelW = (WritePorts > 1) ? $clog2(WritePorts) : 1;
    for (genvar a = 0; a < Depth; a++) begin : g_addr
      logic [WritePorts-1:0][SelW-1:0]      part;  // LVT bank p at a
      logic [SelW-1:0]                      live;  // the LVT entry: XOR of the parts
      logic [WritePorts-1:0][ReadPorts-1:0] bank_ok;
      for (genvar p = 0; p < WritePorts; p++) begin : g_wr
        assign part[p] = u_dut.g_lvt.u_lvt.g_bank[p].mem_q[a];
        for (genvar r = 0; r < ReadPorts; r++) begin : g_rd
          assign bank_ok[p][r] = (live != SelW'(p))
                              || (u_dut.g_lvt.g_wr[p].g_rd[r].u_bank.mem_q[a] == sh_mem_q[a]);
        end
      end
      always_comb begin
        live = '0;
        for (int unsigned p = 0; p < WritePorts; p++) begin
          live = live ^ part[p];
        end
        assert (!sh_wr_q[a] || rst || (32'(live) < WritePorts && (&bank_ok)));
      end
    end
  end
endmodule

`default_nettype wire
