// SPDX-License-Identifier: Apache-2.0
// tonic_state_ram: per-flow state memory with one or two writers, any number
// of read ports and an optional clear port.
//
// The DD engine keeps every per-flow field in one of these
// (docs/cells/state_ram.md). One parameterized cell does the port plumbing,
// the live-value table and the read-after-write forwarding for all fields.
//
// Semantics. The memory holds Depth words S[0..Depth-1]. In each clock
// cycle t:
//   1. Writes: for every writer w with we_i[w], S[waddr_i[w]] = wdata_i[w].
//      Two writers to one address in one cycle: writer 1 wins.
//   2. Clear (Clear = 1): if clr_i, S[clr_addr_i] = Init. A clear beats a
//      write to the same address in the same cycle.
// Reads:
//   - RegRead = 0 (LUTRAM): rdata_o[r] = S[raddr_i[r]] as it stands at the
//     start of cycle t (before the writes of cycle t); combinational.
//   - RegRead = 1 (block RAM): rdata_o[r] in cycle t+1 = S[raddr_i[r] of
//     cycle t] AFTER the writes and the clear of cycle t. So a consumer that
//     presents in cycle t the address it will use in cycle t+1 sees exactly
//     what a combinational read in cycle t+1 would give: the engine moves a
//     read into block RAM without changing its behaviour, cycle for cycle.
// Words never written or cleared read as undefined data. No reset.
//
// Structure. One bank per writer; each bank is one copy per read port
// (tonic_ram_1w1r, block RAM, when RegRead = 1; a plain array read
// combinationally, LUTRAM, when RegRead = 0), so every copy has one write
// and one read port. A live-value table (tonic_mpmem_lvt, LUTRAM) records
// per word which port wrote it last: writer 0, writer 1 or the clear. It
// names the bank that holds the word, and a word whose last write was the
// clear ("fresh") reads as Init. For RegRead = 1 the read registers
// hold the block RAM word (read-first) plus a forwarding register that
// catches a write or clear of the same address in the same cycle; one
// 2:1 or 3:1 mux after the block RAM picks the result.
//
// SimModel = 1 replaces that structure by a behavioural model of the same
// semantics, cycle for cycle: one array written by writer 0, then writer 1,
// then the clear (so writer 1 beats writer 0 and the clear beats both),
// read combinationally; RegRead = 1 registers the read address instead of
// the data, so the read sees the array after the writes of the cycle the
// address was presented in. It is for Verilator models only (one array
// instead of Writers x Readers copies and a live-value table), NEVER for
// synthesis: it describes a memory with Writers + 1 write ports and Readers
// asynchronous read ports that no FPGA RAM provides. The tests check both
// forms against one reference (docs/cells/state_ram.md).
`default_nettype none

module tonic_state_ram #(
  /// Number of words (>= 2).
  parameter int unsigned Depth = 1024,
  /// Word width in bits (>= 1).
  parameter int unsigned Width = 32,
  /// Number of write ports: 1 or 2.
  parameter int unsigned Writers = 1,
  /// Number of read ports (>= 1).
  parameter int unsigned Readers = 1,
  /// 1: reads registered (block RAM), address one cycle ahead; 0:
  /// combinational reads (LUTRAM).
  parameter int unsigned RegRead = 1,
  /// 1: the clear port is used (one more live-value-table port).
  parameter int unsigned Clear = 0,
  /// The word a cleared address reads as.
  parameter logic [Width-1:0] Init = '0,
  /// 0: the structural form (banks, live-value table, forwarding), for
  /// synthesis and lint; 1: the behavioural form with the same cycle
  /// semantics, for Verilator models only (never synthesize it).
  parameter int unsigned SimModel = 0,
  /// Address width, derived; do not override.
  localparam int unsigned AddrW = $clog2(Depth)
) (
  input  wire logic                            clk_i,
  // Write ports.
  input  wire logic [Writers-1:0]              we_i,
  input  wire logic [Writers-1:0][AddrW-1:0]   waddr_i,
  input  wire logic [Writers-1:0][Width-1:0]   wdata_i,
  // Clear port (ignored when Clear = 0).
  input  wire logic                            clr_i,
  input  wire logic [AddrW-1:0]                clr_addr_i,
  // Read ports (see the semantics above for the timing).
  input  wire logic [Readers-1:0][AddrW-1:0]   raddr_i,
  output logic      [Readers-1:0][Width-1:0]   rdata_o
);
  if (Depth < 2) begin : g_check_depth
    $fatal(1, "tonic_state_ram: Depth must be >= 2");
  end
  if (Writers < 1 || Writers > 2) begin : g_check_writers
    $fatal(1, "tonic_state_ram: Writers must be 1 or 2");
  end
  if (Readers < 1) begin : g_check_readers
    $fatal(1, "tonic_state_ram: Readers must be >= 1");
  end
  if (SimModel > 1) begin : g_check_sim
    $fatal(1, "tonic_state_ram: SimModel must be 0 or 1");
  end

  typedef logic [AddrW-1:0] addr_t;
  typedef logic [Width-1:0] word_t;

  logic clr;  // the clear port, when the cell has one
  assign clr = (Clear != 0) && clr_i;
  if (Clear == 0) begin : g_no_clear
    logic  clr_unused;
    addr_t clr_addr_unused;
    assign clr_unused      = clr_i;
    assign clr_addr_unused = clr_addr_i;
  end

  if (SimModel != 0) begin : g_sim
    // Behavioural form, for Verilator models only (see the header). One
    // array; the nonblocking writes land in program order: writer 0, writer
    // 1, the clear.
    word_t mem_q [Depth];
    always_ff @(posedge clk_i) begin
      for (int w = 0; w < Writers; w++) begin
        if (we_i[w]) mem_q[waddr_i[w]] <= wdata_i[w];
      end
      if (clr) mem_q[clr_addr_i] <= Init;
    end

    // RegRead = 1: the address is registered and the array read after the
    // edge. In cycle t+1 the array holds the words after the writes and the
    // clear of cycle t, so the read gives S[raddr of cycle t] after them,
    // as the semantics ask: no forwarding needed. RegRead = 0: the array
    // read in cycle t, before that cycle's writes land.
    for (genvar r = 0; r < Readers; r++) begin : g_rd
      if (RegRead != 0) begin : g_reg
        addr_t raddr_q;
        always_ff @(posedge clk_i) begin
          raddr_q <= raddr_i[r];
        end
        assign rdata_o[r] = mem_q[raddr_q];
      end else begin : g_comb
        assign rdata_o[r] = mem_q[raddr_i[r]];
      end
    end
  end else begin : g_struct
    // Writes after masking, so that the ports of one cycle hit distinct
    // addresses: a writer 0 write to the address writer 1 writes is dropped
    // (writer 1 wins), and a write to the address being cleared is dropped
    // (the clear wins).
    localparam int unsigned Ports = Writers + ((Clear != 0) ? 1 : 0);  // LVT write ports
    localparam int unsigned LvtW  = (Ports > 2) ? 2 : 1;

    logic [Writers-1:0] we;
    if (Writers == 2) begin : g_win2
      assign we[1] = we_i[1] && !(clr && clr_addr_i == waddr_i[1]);
      assign we[0] = we_i[0] && !(we_i[1] && waddr_i[1] == waddr_i[0])
                             && !(clr && clr_addr_i == waddr_i[0]);
    end else begin : g_win1
      assign we[0] = we_i[0] && !(clr && clr_addr_i == waddr_i[0]);
    end

    // Live-value table: which port (writer 0, writer 1, or the clear, numbered
    // in that order) wrote each word last, read at every read address. It is
    // tonic_mpmem_lvt (XOR-encoded single-write banks, LUTRAM); one table
    // gives both the bank to read and the fresh bit.
    logic [Readers-1:0] lvt_rd;    // writer 1's bank holds the word
    logic [Readers-1:0] fresh_rd;  // the word was cleared and not written since
    if (Ports >= 2) begin : g_lvt
      logic [Ports-1:0]              lvt_we;
      logic [Ports-1:0][AddrW-1:0]   lvt_wa;
      logic [Ports-1:0][LvtW-1:0]    lvt_wd;
      logic [Readers-1:0][LvtW-1:0]  lvt_q;
      for (genvar w = 0; w < Writers; w++) begin : g_w
        assign lvt_we[w] = we[w];
        assign lvt_wa[w] = waddr_i[w];
        assign lvt_wd[w] = LvtW'(w);
      end
      if (Clear != 0) begin : g_c
        assign lvt_we[Writers] = clr;
        assign lvt_wa[Writers] = clr_addr_i;
        assign lvt_wd[Writers] = LvtW'(Writers);
      end

      tonic_mpmem_lvt #(
        .WritePorts(Ports),
        .ReadPorts (Readers),
        .Depth     (Depth),
        .Width     (LvtW)
      ) u_lvt (
        .clk_i    (clk_i),
        .wr_en_i  (lvt_we),
        .wr_addr_i(lvt_wa),
        .wr_data_i(lvt_wd),
        .rd_addr_i(raddr_i),
        .rd_data_o(lvt_q)
      );

      for (genvar r = 0; r < Readers; r++) begin : g_rd
        assign lvt_rd[r]   = (Writers == 2) && lvt_q[r] == LvtW'(1);
        assign fresh_rd[r] = (Clear != 0) && lvt_q[r] == LvtW'(Writers);
      end
    end else begin : g_no_lvt
      assign lvt_rd   = '0;
      assign fresh_rd = '0;
    end

    for (genvar r = 0; r < Readers; r++) begin : g_rd
      word_t [Writers-1:0] bank_rd;  // each bank's copy for this read port

      if (RegRead != 0) begin : g_reg
        // Block-RAM copies, read-first; the forwarding register covers the
        // same-cycle write or clear.
        for (genvar w = 0; w < Writers; w++) begin : g_bank
          tonic_ram_1w1r #(
            .Depth(Depth),
            .Width(Width)
          ) u_ram (
            .clk_i    (clk_i),
            .wr_en_i  (we[w]),
            .wr_addr_i(waddr_i[w]),
            .wr_data_i(wdata_i[w]),
            .rd_en_i  (1'b1),
            .rd_addr_i(raddr_i[r]),
            .rd_data_o(bank_rd[w])
          );
        end

        logic  hit0, hit1, hitc;
        logic  sel_q, fresh_rd_q, fwd_q;
        word_t fwd_data_q;
        assign hit0 = we[0] && waddr_i[0] == raddr_i[r];
        if (Writers == 2) begin : g_hit1
          assign hit1 = we[1] && waddr_i[1] == raddr_i[r];
        end else begin : g_nohit1
          assign hit1 = 1'b0;
        end
        assign hitc = clr && clr_addr_i == raddr_i[r];

        always_ff @(posedge clk_i) begin
          sel_q      <= lvt_rd[r];
          fresh_rd_q <= hitc || (!hit0 && !hit1 && fresh_rd[r]);
          fwd_q      <= hit0 || hit1;
          fwd_data_q <= hit1 ? wdata_i[Writers-1] : wdata_i[0];
        end

        always_comb begin
          if (fresh_rd_q) begin
            rdata_o[r] = Init;
          end else if (fwd_q) begin
            rdata_o[r] = fwd_data_q;
          end else begin
            rdata_o[r] = bank_rd[(Writers == 2) ? 32'(sel_q) : 32'd0];
          end
        end
      end else begin : g_comb
        // LUTRAM copies, read combinationally.
        for (genvar w = 0; w < Writers; w++) begin : g_bank
          word_t mem_q [Depth];
          always_ff @(posedge clk_i) begin
            if (we[w]) mem_q[waddr_i[w]] <= wdata_i[w];
          end
          assign bank_rd[w] = mem_q[raddr_i[r]];
        end

        assign rdata_o[r] = fresh_rd[r] ? Init : bank_rd[(Writers == 2) ? 32'(lvt_rd[r]) : 32'd0];
      end
    end
  end
`ifdef TONIC_ASSERT
  // Simulation-only check of the semantics above (docs/soak.md; the soak
  // models define TONIC_ASSERT): memory read-after-write. A shadow array
  // written by the rules (writer 0, writer 1, then the clear) and a valid
  // bit per word; every read port of a word written or cleared since time
  // 0 must return the shadow word: for RegRead = 0 the word before this
  // cycle's writes, for RegRead = 1 the word at last cycle's address after
  // last cycle's writes (both: the shadow as it stands in this cycle).
  if (1) begin : g_assert
    word_t              sh_q [Depth];
    logic [Depth-1:0]   shv_q = '0;
    addr_t [Readers-1:0] ra_q;
    always_ff @(posedge clk_i) begin
      for (int r = 0; r < Readers; r++) begin
        automatic addr_t a = (RegRead != 0) ? ra_q[r] : raddr_i[r];
        if (shv_q[a]) begin
          assert (rdata_o[r] == sh_q[a])
            else $error("state_ram_assert: read-after-write: port %0d address %0d reads %h, last written %h", r, a,
                        rdata_o[r], sh_q[a]);
        end
      end
      for (int w = 0; w < Writers; w++) begin
        if (we_i[w]) begin
          sh_q[waddr_i[w]]  <= wdata_i[w];
          shv_q[waddr_i[w]] <= 1'b1;
        end
      end
      if (clr) begin
        sh_q[clr_addr_i]  <= Init;
        shv_q[clr_addr_i] <= 1'b1;
      end
      ra_q <= raddr_i;
    end
  end : g_assert
`endif
endmodule

`default_nettype wire
