// SPDX-License-Identifier: Apache-2.0
// tonic_mpmem: multi-port memory (WritePorts writes + ReadPorts reads per
// cycle) built from 2-port block RAMs plus a live-value table.
//
// Semantics (both schemes below behave identically, cycle for cycle):
// - Writes: on the clock edge, for every write port p with wr_en_i[p],
//   mem[wr_addr_i[p]] <= wr_data_i[p]. Several ports writing the same
//   address in one cycle: the HIGHEST port index wins; the others are lost.
// - Reads: latency 1 cycle, like a block RAM. A read issued in cycle t
//   (rd_en_i[r] with rd_addr_i[r]) presents its word on rd_data_o[r] in
//   cycle t+1, flagged by rd_valid_o[r]. In cycles where rd_valid_o[r] is
//   low, rd_data_o[r] is undefined (it may change).
// - Read after write: a read issued in the cycle after a write returns
//   the new word. A read issued in the SAME cycle as a write to the same
//   address returns the OLD word (the contents before that cycle's
//   writes). This needs the block RAMs' cross-port collision to be
//   read-first: UltraScale(+) RAMB18E2/RAMB36E2 with WRITE_MODE READ_FIRST
//   and a common clock (UG573, "Address Collision"). The LVT is read with
//   the same read-old rule, so the rule holds through it too.
// - Never-written addresses read as undefined data. Addresses must be
//   < Depth. No reset of the contents; rst_i clears rd_valid_o only.
//
// Two schemes, chosen by TdpBanks (docs/cells/mpmem.md has the cost
// analysis); both use a live-value table (LVT, tonic_mpmem_lvt: XOR-encoded
// single-write banks that map to LUTRAM, read combinationally):
// - TdpBanks = 0, "LVT": WritePorts x ReadPorts simple dual-port banks
//   (tonic_ram_1w1r); bank[p][r] is written by write port p and read by
//   read port r, so it holds every write of port p. The LVT records, per
//   address, the write port that wrote it last (clog2(WritePorts) bits).
//   Read port r reads banks [*][r] and the LVT in parallel; both land in
//   registers (block-RAM output, sel_q), then a WritePorts:1 mux picks the
//   live bank's word (one LUT level for <= 4 write ports). The read
//   address goes straight to the block-RAM pins.
// - TdpBanks = 1, "steered TDP": ceil(ReadPorts/2) groups, each of
//   ceil(WritePorts/2)+1 true dual-port banks (tonic_ram_2rw). The live
//   word of an address sits in exactly one bank per group, named by that
//   group's LVT. Read ports 2g and 2g+1 own side A and side B of group g:
//   each cycle the group's LVT is read at the two read addresses (banks xa,
//   xb); read port 2g uses port A of bank xa, read port 2g+1 port B of
//   bank xb. Even write ports go to side A, odd ones to side B: writer j of
//   a side takes the j-th bank other than the one that side's reader uses
//   (bank j + (j >= x)), and the LVT records that bank. Fewer block RAMs
//   (6 instead of 16 copies for 4W4R), but the LVT read sits in front of
//   the block-RAM address pins instead of beside them.
// In both, writes to one address in one cycle are first masked down to the
// highest port (wr_win), so the LVT never sees two writes to one address
// and no bank port pair ever writes one address twice.
`default_nettype none

module tonic_mpmem #(
  /// Write ports per cycle (>= 1).
  parameter int unsigned WritePorts = 2,
  /// Read ports per cycle (>= 1).
  parameter int unsigned ReadPorts = 2,
  /// Number of words (>= 2; need not be a power of two).
  parameter int unsigned Depth = 1024,
  /// Word width in bits (>= 1).
  parameter int unsigned Width = 64,
  /// Banking scheme (0 or 1; same behaviour, different cost): 1 = steered
  /// TDP banks, ceil(ReadPorts/2) x (ceil(WritePorts/2)+1) block-RAM copies
  /// (default: fewest block RAMs); 0 = LVT over WritePorts x ReadPorts
  /// simple dual-port copies (read address straight to the block RAMs).
  parameter int unsigned TdpBanks = 1,
  /// Address width, derived; do not override.
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic                                clk_i,
  input  wire logic                                rst_i,      // synchronous, active high; clears rd_valid_o
  // Write ports (no ready: every write is accepted). Port p is slice [p].
  input  wire logic [WritePorts-1:0]               wr_en_i,
  input  wire logic [WritePorts-1:0][AddrW-1:0]    wr_addr_i,  // < Depth
  input  wire logic [WritePorts-1:0][Width-1:0]    wr_data_i,
  // Read requests (no ready: every read is accepted). Port r is slice [r].
  input  wire logic [ReadPorts-1:0]                rd_en_i,
  input  wire logic [ReadPorts-1:0][AddrW-1:0]     rd_addr_i,  // < Depth
  // Read responses, one cycle after the request.
  output logic      [ReadPorts-1:0]                rd_valid_o, // rd_en_i of the previous cycle
  output logic      [ReadPorts-1:0][Width-1:0]     rd_data_o   // valid only while rd_valid_o
);
  if (WritePorts == 0) begin : g_check_write_ports
    $fatal(1, "tonic_mpmem: WritePorts must be >= 1");
  end
  if (ReadPorts == 0) begin : g_check_read_ports
    $fatal(1, "tonic_mpmem: ReadPorts must be >= 1");
  end
  if (Depth < 2) begin : g_check_depth
    $fatal(1, "tonic_mpmem: Depth must be >= 2");
  end
  if (Width == 0) begin : g_check_width
    $fatal(1, "tonic_mpmem: Width must be > 0");
  end
  if (TdpBanks > 1) begin : g_check_tdp_banks
    $fatal(1, "tonic_mpmem: TdpBanks must be 0 or 1");
  end

  // rd_valid_o: the read enables, one cycle later (control state: reset).
  logic [ReadPorts-1:0] rd_valid_q;

  assign rd_valid_o = rd_valid_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_valid_q <= '0;
    end else begin
      rd_valid_q <= rd_en_i;
    end
  end

  // Same-address writes in one cycle: only the highest port index keeps
  // its enable (wr_win). The LVT needs distinct write addresses per cycle,
  // and in the TDP scheme two ports must never write one address of one
  // bank. (In the LVT scheme the banks take the unmasked enables: a losing
  // write lands in its own banks, which the LVT then does not point at.)
  logic [WritePorts-1:0] wr_win;

  always_comb begin
    for (int unsigned p = 0; p < WritePorts; p++) begin
      wr_win[p] = wr_en_i[p];
      for (int unsigned q = p + 1; q < WritePorts; q++) begin
        if (wr_en_i[q] && (wr_addr_i[q] == wr_addr_i[p])) begin
          wr_win[p] = 1'b0;
        end
      end
    end
  end

  if (TdpBanks == 0) begin : g_lvt
    // ---------------------------------------------------------------------
    // LVT over WritePorts x ReadPorts simple dual-port banks.
    // ---------------------------------------------------------------------
    /// LVT entry width (a write port index), derived; do not override.
    localparam int unsigned SelW = (WritePorts > 1) ? $clog2(WritePorts) : 1;

    logic [WritePorts-1:0][SelW-1:0] lvt_wdata;
    logic [ReadPorts-1:0][SelW-1:0]  lvt_rdata;
    // Per read port: the LVT entry, registered alongside the bank reads.
    logic [SelW-1:0]  sel_d [ReadPorts], sel_q [ReadPorts];
    logic [Width-1:0] bank_rdata [WritePorts][ReadPorts];

    always_comb begin
      for (int unsigned p = 0; p < WritePorts; p++) begin
        lvt_wdata[p] = SelW'(p);
      end
    end

    // Live-value table: lvt[a] = the write port that wrote address a last.
    tonic_mpmem_lvt #(
      .WritePorts (WritePorts),
      .ReadPorts  (ReadPorts),
      .Depth      (Depth),
      .Width      (SelW)
    ) u_lvt (
      .clk_i     (clk_i),
      .wr_en_i   (wr_win),
      .wr_addr_i (wr_addr_i),
      .wr_data_i (lvt_wdata),
      .rd_addr_i (rd_addr_i),
      .rd_data_o (lvt_rdata)
    );

    // Read-old like the banks: lvt_rdata is the table before this edge.
    always_comb begin
      for (int unsigned r = 0; r < ReadPorts; r++) begin
        sel_d[r] = rd_en_i[r] ? lvt_rdata[r] : sel_q[r];
      end
    end

    always_ff @(posedge clk_i) begin
      sel_q <= sel_d;
    end

    for (genvar p = 0; p < WritePorts; p++) begin : g_wr
      for (genvar r = 0; r < ReadPorts; r++) begin : g_rd
        tonic_ram_1w1r #(
          .Depth (Depth),
          .Width (Width)
        ) u_bank (
          .clk_i     (clk_i),
          .wr_en_i   (wr_en_i[p]),
          .wr_addr_i (wr_addr_i[p]),
          .wr_data_i (wr_data_i[p]),
          .rd_en_i   (rd_en_i[r]),
          .rd_addr_i (rd_addr_i[r]),
          .rd_data_o (bank_rdata[p][r])
        );
      end
    end

    // Final bank select: registered select, one WritePorts:1 mux.
    always_comb begin
      for (int unsigned r = 0; r < ReadPorts; r++) begin
        rd_data_o[r] = bank_rdata[sel_q[r]][r];
      end
    end
  end else begin : g_tdp
    // ---------------------------------------------------------------------
    // Steered LVT over ceil(ReadPorts/2) groups of true dual-port banks.
    // ---------------------------------------------------------------------
    /// Read-port groups (two read ports each), derived; do not override.
    localparam int unsigned Groups = (ReadPorts + 1) / 2;
    /// Write ports on side A (even indices), derived; do not override.
    localparam int unsigned WrA = (WritePorts + 1) / 2;
    /// Banks per group, derived; do not override.
    localparam int unsigned Banks = WrA + 1;
    /// LVT entry width (a bank index), derived; do not override.
    localparam int unsigned BankW = $clog2(Banks);

    for (genvar g = 0; g < Groups; g++) begin : g_group
      /// Side B has a read port (else ReadPorts is odd and this is the
      /// last group), derived; do not override.
      localparam bit HasRdB = (2 * g + 1 < ReadPorts);

      // Bank read by each side's read port this cycle, and registered.
      logic [1:0][BankW-1:0] x;
      logic [BankW-1:0]      x_d [2], x_q [2];
      logic [HasRdB:0][AddrW-1:0] lvt_raddr;
      logic [HasRdB:0][BankW-1:0] lvt_rdata;
      // Bank each write port is steered to this cycle (the LVT's new value).
      logic [WritePorts-1:0][BankW-1:0] wr_bank;
      // Bank port signals, [bank][side] (side 0 = port A, 1 = port B).
      logic             bk_en    [Banks][2];
      logic             bk_we    [Banks][2];
      logic [AddrW-1:0] bk_addr  [Banks][2];
      logic [Width-1:0] bk_wdata [Banks][2];
      logic [Width-1:0] bk_rdata [Banks][2];

      // Live-value table of this group: lvt[a] = the bank holding address a.
      // Read combinationally at the group's two read addresses (read-old).
      // A side without a read port parks on the last bank, whose port on
      // that side no writer of that side needs.
      assign lvt_raddr[0] = rd_addr_i[2*g];
      assign x[0]         = lvt_rdata[0];
      if (HasRdB) begin : g_rd_b_lvt
        assign lvt_raddr[1] = rd_addr_i[2*g+1];
        assign x[1]         = lvt_rdata[1];
      end else begin : g_rd_b_park
        assign x[1] = BankW'(Banks - 1);
      end

      tonic_mpmem_lvt #(
        .WritePorts (WritePorts),
        .ReadPorts  (HasRdB ? 2 : 1),
        .Depth      (Depth),
        .Width      (BankW)
      ) u_lvt (
        .clk_i     (clk_i),
        .wr_en_i   (wr_win),
        .wr_addr_i (wr_addr_i),
        .wr_data_i (wr_bank),
        .rd_addr_i (lvt_raddr),
        .rd_data_o (lvt_rdata)
      );

      // Writer j of side s goes to the j-th bank other than x[s].
      always_comb begin
        for (int unsigned p = 0; p < WritePorts; p++) begin
          wr_bank[p] = BankW'(p / 2);
          if (BankW'(p / 2) >= x[p%2]) begin
            wr_bank[p] = BankW'(p / 2 + 1);
          end
        end
      end

      // Bank k, side s: the side's reader if x[s] == k, else writer
      // j = k (k < x[s]) or j = k - 1 (k > x[s]) of that side, i.e. write
      // port 2j + s, if it exists. Only the candidates that exist feed the
      // address/data muxes (banks 0 and Banks-1 have one writer each).
      always_comb begin
        for (int unsigned k = 0; k < Banks; k++) begin
          for (int unsigned s = 0; s < 2; s++) begin
            // Candidate writers: lo = port 2k+s (used when x[s] > k),
            // hi = port 2(k-1)+s (used when x[s] < k).
            automatic bit          has_lo = (2 * k + s < WritePorts);
            automatic bit          has_hi = (k > 0) && (2 * k + s < WritePorts + 2);
            automatic int unsigned lo     = (2 * k + s) % WritePorts;
            automatic int unsigned hi     = (2 * k + s + WritePorts - 2) % WritePorts;
            automatic bit          use_lo = has_lo && (!has_hi || (x[s] > BankW'(k)));

            bk_en[k][s]    = 1'b0;
            bk_we[k][s]    = 1'b0;
            bk_addr[k][s]  = use_lo ? wr_addr_i[lo] : wr_addr_i[hi];
            bk_wdata[k][s] = use_lo ? wr_data_i[lo] : wr_data_i[hi];
            if (x[s] == BankW'(k)) begin
              if (s == 0 || HasRdB) begin
                bk_en[k][s]   = rd_en_i[(2 * g + s) % ReadPorts];
                bk_addr[k][s] = rd_addr_i[(2 * g + s) % ReadPorts];
              end
            end else if (x[s] > BankW'(k)) begin
              if (has_lo) begin
                bk_en[k][s] = wr_win[lo];
                bk_we[k][s] = 1'b1;
              end
            end else if (has_hi) begin
              bk_en[k][s] = wr_win[hi];
              bk_we[k][s] = 1'b1;
            end
          end
        end
      end

      for (genvar k = 0; k < Banks; k++) begin : g_bank
        tonic_ram_2rw #(
          .Depth (Depth),
          .Width (Width)
        ) u_bank (
          .clk_i     (clk_i),
          .a_en_i    (bk_en[k][0]),
          .a_we_i    (bk_we[k][0]),
          .a_addr_i  (bk_addr[k][0]),
          .a_wdata_i (bk_wdata[k][0]),
          .a_rdata_o (bk_rdata[k][0]),
          .b_en_i    (bk_en[k][1]),
          .b_we_i    (bk_we[k][1]),
          .b_addr_i  (bk_addr[k][1]),
          .b_wdata_i (bk_wdata[k][1]),
          .b_rdata_o (bk_rdata[k][1])
        );
      end

      // Registered bank choice, then one Banks:1 mux per read port.
      always_comb begin
        for (int unsigned s = 0; s < 2; s++) begin
          x_d[s] = x_q[s];
          if ((s == 0 || HasRdB) && rd_en_i[(2 * g + s) % ReadPorts]) begin
            x_d[s] = x[s];
          end
        end
      end

      always_ff @(posedge clk_i) begin
        x_q <= x_d;
      end

      assign rd_data_o[2*g] = bk_rdata[x_q[0]][0];
      if (HasRdB) begin : g_rd_b
        assign rd_data_o[2*g+1] = bk_rdata[x_q[1]][1];
      end
    end
  end
endmodule

`default_nettype wire
