// SPDX-License-Identifier: Apache-2.0
// tonic_rx_sack: the SACK blocks of a TCP receiver's acks (RFC 2018
// section 4, at most tonic_wire_pkg::SackBlocks per ack) and the runs each
// flow reported (docs/design/receiver.md, "Echo, SACK blocks and the CE
// state").
//
// Rules, for an arrival of a TCP flow with SACK on (upd_i), with WBASE and
// WVEC after the arrival (base_i, vec_i: bit k held = index base_i + k,
// bit 0 clear):
//   - block 0 is the run of held segments containing the arriving segment
//     when it is held above WBASE (trig_i, at offset toff_i);
//   - then the runs the flow's previous ack reported, in its order, each
//     unless WBASE passed it or block 0 covers it;
//   - at most SackBlocks of them; they are the ack's blocks and the runs
//     remembered for the next ack.
// blks_o are the blocks with their ends as offsets from base_i (the ack's
// cum_ack): lo in 1..W-1, hi in 2..W (the caller adds cum_ack).
//
// Why the remembered runs are not looked up again: a run of a SACK flow
// changes only by an arrival next to it, which is held and therefore
// reported as block 0 (every held arrival is acked at once) and covers the
// runs it joins, or by WBASE reaching it, which takes the whole run below
// WBASE. So a remembered run is either unchanged or dropped, and its ends
// [lo, lo + len) are stored. Only block 0 is searched in WVEC: the first
// clear bit at or after toff_i (hi) and the last clear bit below it (lo),
// two tonic_ffs_after_head over W bits (the second on WVEC reversed, with
// the head mirrored). The C++ rule (lib/tonic/ack_fields.hpp, SackReport)
// looks every run up again, so the lockstep tests check this argument.
//
// Timing. rd_addr_i (cycle t) is the flow stage 2 works on in cycle t + 1
// (addr_i): the runs are in a tonic_state_ram word per flow (block RAM,
// registered read, address one cycle ahead, the writes of a cycle
// forwarded to the next cycle's read), read and written back in that
// cycle, so back-to-back arrivals of one flow see each other's runs. Every
// input of cycle t + 1 comes from registers; the deepest path is the
// search for block 0 -> the offset compares that drop covered runs -> the
// blocks' compaction (the packet and the word written back).
// Purely combinational besides the memory.
`default_nettype none

module tonic_rx_sack
  import tonic_wire_pkg::*;
#(
  /// Number of flows (a power of two, >= 2).
  parameter int unsigned FlowCount = 1024,
  /// Window size in segments; a power of two, 32..256.
  parameter int unsigned W = 128,
  /// tonic_state_ram SimModel (0 structural, 1 behavioural for Verilator).
  parameter int unsigned SimRam = 0,
  /// Flow address width (do not override).
  localparam int unsigned AddrW = $clog2(FlowCount),
  /// Offset width (do not override).
  localparam int unsigned IdxW = $clog2(W)
) (
  input  wire logic             clk_i,
  input  wire logic [AddrW-1:0] rd_addr_i,  // the flow of the next cycle's addr_i
  input  wire logic             clr_i,      // OPEN of addr_i: forget its runs
  input  wire logic             upd_i,      // an arrival of addr_i (TCP, SACK on)
  input  wire logic [AddrW-1:0] addr_i,
  input  wire logic             trig_i,     // the arrival is held above WBASE
  input  wire logic [IdxW-1:0]  toff_i,     // its offset from WBASE (1..W-1)
  input  wire seq_t             base_i,     // WBASE after the arrival
  input  wire logic [W-1:0]     vec_i,      // WVEC after the arrival
  output sack_blks_t            blks_o      // upd_i: the blocks, ends as offsets from base_i
);
  if (W < 32 || W > 256 || (W & (W - 1)) != 0) begin : g_check_w
    $fatal(1, "tonic_rx_sack: W must be a power of two in 32..256");
  end
  if (FlowCount < 2 || (FlowCount & (FlowCount - 1)) != 0) begin : g_check_flows
    $fatal(1, "tonic_rx_sack: FlowCount must be a power of two >= 2");
  end

  localparam int unsigned OffW = IdxW + 1;  // an offset 0..W
  localparam int unsigned Cands = SackBlocks + 1;  // block 0 and the runs remembered

  typedef logic [OffW-1:0] off_t;

  /// A run reported: every index of [lo, lo + len) held.
  typedef struct packed {
    logic            valid;
    seq_t            lo;
    logic [IdxW-1:0] len;
  } run_t;
  typedef run_t [SackBlocks-1:0] runs_t;  // [0] the most recent

  // ---------------------------------------------------------------------
  // The runs remembered, per flow.
  runs_t rd, wd;
  logic  we;

  tonic_state_ram #(
    .Depth   (FlowCount),
    .Width   ($bits(runs_t)),
    .Writers (1),
    .Readers (1),
    .RegRead (1),
    .Clear   (0),
    .SimModel(SimRam)
  ) u_runs (
    .clk_i     (clk_i),
    .we_i      (we),
    .waddr_i   (addr_i),
    .wdata_i   (wd),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (rd_addr_i),
    .rdata_o   (rd)
  );

  // ---------------------------------------------------------------------
  // Block 0: the run around toff_i. hi = the first clear bit at or after
  // it (bit 0 is clear, so a search that wraps ends at 0: hi = W); lo = 1 +
  // the last clear bit below it, found as the first clear bit of the
  // reversed vector at or after W-1-toff_i (never wraps: bit 0 is clear).
  logic [W-1:0]    clear_fwd, clear_rev;
  logic [IdxW-1:0] z_hi, z_lo;
  logic            f_hi, f_lo;  // always 1 (bit 0 of vec_i is clear)
  off_t            t_lo, t_hi;

  assign clear_fwd = ~vec_i;
  for (genvar k = 0; k < W; k++) begin : g_rev
    assign clear_rev[k] = ~vec_i[W-1-k];
  end

  tonic_ffs_after_head #(
    .W(W)
  ) u_hi (
    .bits_i (clear_fwd),
    .head_i (toff_i),
    .found_o(f_hi),
    .index_o(z_hi)
  );
  tonic_ffs_after_head #(
    .W(W)
  ) u_lo (
    .bits_i (clear_rev),
    .head_i (~toff_i),
    .found_o(f_lo),
    .index_o(z_lo)
  );

  assign t_hi = (z_hi == '0) ? off_t'(W) : {1'b0, z_hi};
  assign t_lo = off_t'(W) - {1'b0, z_lo};

  // ---------------------------------------------------------------------
  // Candidates: block 0, then the remembered runs that are still above
  // WBASE and not inside block 0.
  logic [Cands-1:0]            c_v;
  off_t [Cands-1:0]            c_lo, c_hi;  // offsets from base_i
  seq_t [Cands-1:0]            c_abs;       // lo as an index
  logic [Cands-1:0][IdxW-1:0]  c_len;

  assign c_v[0]   = trig_i;
  assign c_lo[0]  = t_lo;
  assign c_hi[0]  = t_hi;
  assign c_abs[0] = base_i + 32'(t_lo);
  assign c_len[0] = IdxW'(t_hi - t_lo);

  for (genvar i = 0; i < SackBlocks; i++) begin : g_old
    seq_t d;
    logic above, covered;
    assign d      = rd[i].lo - base_i;
    assign above  = d[31:IdxW] == '0 && d[IdxW-1:0] != '0;
    assign covered = trig_i && {1'b0, d[IdxW-1:0]} >= t_lo && {1'b0, d[IdxW-1:0]} < t_hi;
    assign c_v[i+1]   = rd[i].valid && above && !covered;
    assign c_lo[i+1]  = {1'b0, d[IdxW-1:0]};
    assign c_hi[i+1]  = {1'b0, d[IdxW-1:0]} + {1'b0, rd[i].len};
    assign c_abs[i+1] = rd[i].lo;
    assign c_len[i+1] = rd[i].len;
  end

  // ---------------------------------------------------------------------
  // Compaction: output j is the j-th valid candidate.
  always_comb begin
    logic [$clog2(Cands + 1)-1:0] rank;
    blks_o = '0;
    wd     = '0;
    rank   = '0;
    for (int k = 0; k < Cands; k++) begin
      if (c_v[k] && 32'(rank) < SackBlocks) begin
        blks_o[rank].valid = 1'b1;
        blks_o[rank].lo    = 32'(c_lo[k]);
        blks_o[rank].hi    = 32'(c_hi[k]);
        wd[rank].valid     = 1'b1;
        wd[rank].lo        = c_abs[k];
        wd[rank].len       = c_len[k];
      end
      rank = rank + ($clog2(Cands + 1))'(c_v[k]);
    end
    if (clr_i) wd = '0;
  end

  assign we = clr_i || upd_i;

  logic unused;
  assign unused = f_hi ^ f_lo;
endmodule

`default_nettype wire
