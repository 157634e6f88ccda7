// SPDX-License-Identifier: Apache-2.0
// tonic_dd_state_bank: the DD engine's per-flow state memories, with one named port per reader and writer.
//
// Every per-flow field of tonic_dd_engine except the credit gate's own
// counters lives here, each in a tonic_state_ram (docs/dd-pipeline.md has
// which processor reads and writes which field in which cycle). Each
// processor presents ONE read address (its *_ra_i port) and gets every
// field it reads back on ports named <field>_<reader>_o; each write port
// is named <field>_<writer>_{we,wa,wd}_i. Inside, the cells' packed port
// vectors are indexed only through the localparams Rd*/Wr* below, never
// bound by position in a concatenation.
//
// Timing (tonic_state_ram): LUTRAM fields read by transmit notify
// (gen_t, the transmitted counter) are combinational, addressed in the same cycle; every other
// read is registered (RegRead 1): the address presented in cycle t gives
// in cycle t + 1 the word after the writes and the clear of cycle t, i.e.
// what a combinational read in cycle t + 1 would return. A clear (flow ADD)
// sets the block-RAM fields to their initial value.
`default_nettype none

/// Per-flow state memories of the DD engine (named read and write ports).
module tonic_dd_state_bank #(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Window ring size in segments (bits of the acked / sent / mark bitmaps).
  parameter int unsigned W = 128,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// Width of the outstanding counters (mod 2 RingN).
  parameter int unsigned PtrW = 5,
  /// Width of the cold word {rto, armed, user}.
  parameter int unsigned ColdW = 33,
  /// cwnd of a cleared (newly added) flow.
  parameter int unsigned InitWnd = 10,
  /// Cold word of a cleared (newly added) flow.
  parameter logic [ColdW-1:0] ColdInit = '0,
  /// tonic_state_ram's SimModel: 0 structural, 1 behavioural (Verilator only).
  parameter int unsigned SimRam = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount),
  /// cwnd width, 0..W (do not override).
  localparam int unsigned CntW = $clog2(W) + 1
) (
  /// Clock.
  input  wire logic                 clk_i,
  // ---- Read addresses, one per reader.
  /// Control: the flow it holds in the next cycle (registered reads).
  input  wire logic [IdW-1:0]       ctrl_ra_i,
  /// Incoming stage 1: the rx input's flow (stage 1's flow of the next cycle).
  input  wire logic [IdW-1:0]       in1_ra_i,
  /// Incoming stage 2: stage 1's flow (stage 2's flow of the next cycle).
  input  wire logic [IdW-1:0]       in2_ra_i,
  /// Periodic P1: the flow it visits in the next cycle.
  input  wire logic [IdW-1:0]       per_ra_i,
  /// Periodic P0: the scan set's next head (deadline compare).
  input  wire logic [IdW-1:0]       scan_ra_i,
  /// Next-seg: the flow it looks at in the next cycle.
  input  wire logic [IdW-1:0]       ns_ra_i,
  /// Transmit notify: this cycle's flow (combinational reads).
  input  wire logic [IdW-1:0]       txn_ra_i,
  /// Probe: the flow to show on the probe outputs (registered).
  input  wire logic [IdW-1:0]       probe_ra_i,
  // ---- Read data of control.
  /// present of control's flow.
  output logic                      present_ctrl_o,
  /// posted of control's flow.
  output tonic_dd_pkg::seq_t        posted_ctrl_o,
  /// wnd_start of control's flow.
  output tonic_dd_pkg::seq_t        start_ctrl_o,
  /// Generated-addresses counter of control's flow.
  output logic [PtrW-1:0]           gen_ctrl_o,
  /// Transmitted-addresses counter of control's flow.
  output logic [PtrW-1:0]           tx_ctrl_o,
  // ---- Read data of incoming stage 1.
  /// present of stage 1's flow.
  output logic                      present_in1_o,
  /// wnd_start of stage 1's flow.
  output tonic_dd_pkg::seq_t        start_in1_o,
  /// next_new of stage 1's flow.
  output tonic_dd_pkg::seq_t        next_in1_o,
  /// acked bitmap of stage 1's flow.
  output logic [W-1:0]              acked_in1_o,
  /// Retransmit counts of stage 1's flow (2 bits per ring position: bit W+p
  /// and bit p of position p).
  output logic [2*W-1:0]            rcnt_in1_o,
  // ---- Read data of incoming stage 2.
  /// present of stage 2's flow.
  output logic                      present_in2_o,
  /// posted of stage 2's flow.
  output tonic_dd_pkg::seq_t        posted_in2_o,
  /// next_new of stage 2's flow.
  output tonic_dd_pkg::seq_t        next_in2_o,
  /// acked bitmap of stage 2's flow (after stage 1's write of the last cycle).
  output logic [W-1:0]              acked_in2_o,
  /// sent bitmap of stage 2's flow.
  output logic [W-1:0]              sent_in2_o,
  /// cwnd of stage 2's flow.
  output logic [CntW-1:0]           wnd_in2_o,
  /// mark bitmap of stage 2's flow.
  output logic [W-1:0]              mark_in2_o,
  /// Cold word of stage 2's flow.
  output logic [ColdW-1:0]          cold_in2_o,
  // ---- Read data of periodic.
  /// present of periodic's flow.
  output logic                      present_per_o,
  /// posted of periodic's flow.
  output tonic_dd_pkg::seq_t        posted_per_o,
  /// wnd_start of periodic's flow.
  output tonic_dd_pkg::seq_t        start_per_o,
  /// next_new of periodic's flow.
  output tonic_dd_pkg::seq_t        next_per_o,
  /// acked bitmap of periodic's flow.
  output logic [W-1:0]              acked_per_o,
  /// sent bitmap of periodic's flow.
  output logic [W-1:0]              sent_per_o,
  /// cwnd of periodic's flow.
  output logic [CntW-1:0]           wnd_per_o,
  /// mark bitmap of periodic's flow.
  output logic [W-1:0]              mark_per_o,
  /// Cold word of periodic's flow.
  output logic [ColdW-1:0]          cold_per_o,
  /// Retransmission deadline of the scan head (periodic P0).
  output logic [31:0]               deadline_scan_o,
  // ---- Read data of next-seg.
  /// present of next-seg's flow.
  output logic                      present_ns_o,
  /// posted of next-seg's flow.
  output tonic_dd_pkg::seq_t        posted_ns_o,
  /// Segment size of next-seg's flow.
  output logic [LenW-1:0]           seg_size_ns_o,
  /// Segment size of stage 1's flow (ev_info_t.seg_bytes).
  output logic [LenW-1:0]           seg_size_in1_o,
  /// Length of the last posted segment of next-seg's flow.
  output logic [LenW-1:0]           last_len_ns_o,
  /// wnd_start of next-seg's flow.
  output tonic_dd_pkg::seq_t        start_ns_o,
  /// next_new of next-seg's flow.
  output tonic_dd_pkg::seq_t        next_ns_o,
  /// Generated-addresses counter of next-seg's flow.
  output logic [PtrW-1:0]           gen_ns_o,
  /// Transmitted-addresses counter of next-seg's flow.
  output logic [PtrW-1:0]           tx_ns_o,
  /// sent bitmap of next-seg's flow.
  output logic [W-1:0]              sent_ns_o,
  /// Retransmit counts of next-seg's flow.
  output logic [2*W-1:0]            rcnt_ns_o,
  /// cwnd of next-seg's flow.
  output logic [CntW-1:0]           wnd_ns_o,
  /// mark bitmap of next-seg's flow.
  output logic [W-1:0]              mark_ns_o,
  // ---- Read data of transmit notify (combinational).
  /// Generated-addresses counter of notify's flow.
  output logic [PtrW-1:0]           gen_txn_o,
  /// Transmitted-addresses counter of notify's flow.
  output logic [PtrW-1:0]           tx_txn_o,
  // ---- Read data of the probe.
  /// cwnd of the probed flow.
  output logic [CntW-1:0]           wnd_probe_o,
  /// wnd_start of the probed flow.
  output tonic_dd_pkg::seq_t        start_probe_o,
  /// next_new of the probed flow.
  output tonic_dd_pkg::seq_t        next_probe_o,
  // ---- Write ports.
  /// present: control (ADD, REMOVE) and the init sweep.
  input  wire logic                 present_ctrl_we_i,
  /// present write address.
  input  wire logic [IdW-1:0]       present_ctrl_wa_i,
  /// present write data.
  input  wire logic                 present_ctrl_wd_i,
  /// posted: control (ADD, POST).
  input  wire logic                 posted_ctrl_we_i,
  /// posted write address.
  input  wire logic [IdW-1:0]       posted_ctrl_wa_i,
  /// posted write data.
  input  wire tonic_dd_pkg::seq_t   posted_ctrl_wd_i,
  /// Segment size: control (ADD).
  input  wire logic                 seg_size_ctrl_we_i,
  /// Last-length: control (ADD, POST).
  input  wire logic                 last_len_ctrl_we_i,
  /// Segment size / last-length write address (control's flow).
  input  wire logic [IdW-1:0]       len_ctrl_wa_i,
  /// Segment size / last-length write data.
  input  wire logic [LenW-1:0]      len_ctrl_wd_i,
  /// wnd_start: incoming stage 1.
  input  wire logic                 start_in1_we_i,
  /// wnd_start write address of stage 1.
  input  wire logic [IdW-1:0]       start_in1_wa_i,
  /// wnd_start write data of stage 1.
  input  wire tonic_dd_pkg::seq_t   start_in1_wd_i,
  /// wnd_start: control (ADD); beats stage 1 on the same flow.
  input  wire logic                 start_ctrl_we_i,
  /// wnd_start write address of control.
  input  wire logic [IdW-1:0]       start_ctrl_wa_i,
  /// wnd_start write data of control.
  input  wire tonic_dd_pkg::seq_t   start_ctrl_wd_i,
  /// next_new: next-seg (new segment) or control's ADD (next-seg waits then).
  input  wire logic                 next_ns_we_i,
  /// next_new write address.
  input  wire logic [IdW-1:0]       next_ns_wa_i,
  /// next_new write data.
  input  wire tonic_dd_pkg::seq_t   next_ns_wd_i,
  /// Generated counter: next-seg (and the init sweep).
  input  wire logic                 gen_ns_we_i,
  /// Generated counter write address.
  input  wire logic [IdW-1:0]       gen_ns_wa_i,
  /// Generated counter write data.
  input  wire logic [PtrW-1:0]      gen_ns_wd_i,
  /// Transmitted counter: transmit notify (and the init sweep).
  input  wire logic                 tx_txn_we_i,
  /// Transmitted counter write address.
  input  wire logic [IdW-1:0]       tx_txn_wa_i,
  /// Transmitted counter write data.
  input  wire logic [PtrW-1:0]      tx_txn_wd_i,
  /// acked bitmap: incoming stage 1.
  input  wire logic                 acked_in1_we_i,
  /// acked write address.
  input  wire logic [IdW-1:0]       acked_in1_wa_i,
  /// acked write data.
  input  wire logic [W-1:0]         acked_in1_wd_i,
  /// sent bitmap: next-seg (retransmission) or control's ADD.
  input  wire logic                 sent_ns_we_i,
  /// sent write address.
  input  wire logic [IdW-1:0]       sent_ns_wa_i,
  /// sent write data.
  input  wire logic [W-1:0]         sent_ns_wd_i,
  /// Retransmit counts: next-seg (every segment) or control's ADD.
  input  wire logic                 rcnt_ns_we_i,
  /// Retransmit counts write address.
  input  wire logic [IdW-1:0]       rcnt_ns_wa_i,
  /// Retransmit counts write data.
  input  wire logic [2*W-1:0]       rcnt_ns_wd_i,
  /// Window group (cwnd, mark, cold, deadline): incoming stage 2's flow.
  input  wire logic [IdW-1:0]       win_in2_wa_i,
  /// cwnd write enable of stage 2.
  input  wire logic                 wnd_in2_we_i,
  /// cwnd write data of stage 2.
  input  wire logic [CntW-1:0]      wnd_in2_wd_i,
  /// mark write enable of stage 2.
  input  wire logic                 mark_in2_we_i,
  /// mark write data of stage 2.
  input  wire logic [W-1:0]         mark_in2_wd_i,
  /// Cold word write enable of stage 2.
  input  wire logic                 cold_in2_we_i,
  /// Cold word write data of stage 2.
  input  wire logic [ColdW-1:0]     cold_in2_wd_i,
  /// Deadline write enable of stage 2.
  input  wire logic                 deadline_in2_we_i,
  /// Deadline write data of stage 2.
  input  wire logic [31:0]          deadline_in2_wd_i,
  /// Window group: periodic's flow (never stage 2's flow when both write).
  input  wire logic [IdW-1:0]       win_per_wa_i,
  /// cwnd write enable of periodic.
  input  wire logic                 wnd_per_we_i,
  /// cwnd write data of periodic.
  input  wire logic [CntW-1:0]      wnd_per_wd_i,
  /// mark write enable of periodic.
  input  wire logic                 mark_per_we_i,
  /// mark write data of periodic.
  input  wire logic [W-1:0]         mark_per_wd_i,
  /// Cold word write enable of periodic.
  input  wire logic                 cold_per_we_i,
  /// Cold word write data of periodic.
  input  wire logic [ColdW-1:0]     cold_per_wd_i,
  /// Deadline write enable of periodic.
  input  wire logic                 deadline_per_we_i,
  /// Deadline write data of periodic.
  input  wire logic [31:0]          deadline_per_wd_i,
  /// Clear (control's ADD): acked and the window group of clr_addr_i read as initial.
  input  wire logic                 clr_i,
  /// The flow to clear.
  input  wire logic [IdW-1:0]       clr_addr_i
);
  typedef logic [IdW-1:0] flow_t;
  typedef tonic_dd_pkg::seq_t seq_t;

  // ---------------------------------------------------------------------
  // LUTRAM fields. Notify's counters are read combinationally (u_gen_txn,
  // u_tx_txn); every other reader, control included, reads a registered
  // copy addressed one cycle ahead. (Separate instances rather than mixed
  // ports: a packed read-address vector that mixes both kinds would look
  // like a combinational loop to Verilator's scheduler.)

  // present: read ports.
  localparam int unsigned PresentRdIn1 = 0, PresentRdIn2 = 1, PresentRdPer = 2,
                          PresentRdNs = 3, PresentRdCtrl = 4, PresentRd = 5;
  flow_t [PresentRd-1:0]         present_ra;
  logic  [PresentRd-1:0][0:0]    present_rd;
  assign present_ra[PresentRdIn1] = in1_ra_i;
  assign present_ra[PresentRdIn2] = in2_ra_i;
  assign present_ra[PresentRdPer] = per_ra_i;
  assign present_ra[PresentRdNs]  = ns_ra_i;
  assign present_ra[PresentRdCtrl] = ctrl_ra_i;
  assign present_in1_o  = present_rd[PresentRdIn1];
  assign present_in2_o  = present_rd[PresentRdIn2];
  assign present_per_o  = present_rd[PresentRdPer];
  assign present_ns_o   = present_rd[PresentRdNs];
  assign present_ctrl_o = present_rd[PresentRdCtrl];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(1), .Readers(PresentRd), .RegRead(1)
  ) u_present (
    .clk_i     (clk_i),
    .we_i      (present_ctrl_we_i),
    .waddr_i   (present_ctrl_wa_i),
    .wdata_i   (present_ctrl_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (present_ra),
    .rdata_o   (present_rd)
  );

  // posted: read ports.
  localparam int unsigned PostedRdIn2 = 0, PostedRdPer = 1, PostedRdNs = 2, PostedRdCtrl = 3,
                          PostedRd = 4;
  flow_t [PostedRd-1:0] posted_ra;
  seq_t  [PostedRd-1:0] posted_rd;
  assign posted_ra[PostedRdIn2]  = in2_ra_i;
  assign posted_ra[PostedRdPer]  = per_ra_i;
  assign posted_ra[PostedRdNs]   = ns_ra_i;
  assign posted_ra[PostedRdCtrl] = ctrl_ra_i;
  assign posted_in2_o  = posted_rd[PostedRdIn2];
  assign posted_per_o  = posted_rd[PostedRdPer];
  assign posted_ns_o   = posted_rd[PostedRdNs];
  assign posted_ctrl_o = posted_rd[PostedRdCtrl];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(32), .Readers(PostedRd), .RegRead(1)
  ) u_posted (
    .clk_i     (clk_i),
    .we_i      (posted_ctrl_we_i),
    .waddr_i   (posted_ctrl_wa_i),
    .wdata_i   (posted_ctrl_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (posted_ra),
    .rdata_o   (posted_rd)
  );

  // Segment size: next-seg and stage 1 (the protocol's ev_info_t); last
  // length: next-seg only.
  localparam int unsigned SizeRdNs = 0, SizeRdIn1 = 1, SizeRd = 2;
  flow_t               [SizeRd-1:0] size_ra;
  logic [SizeRd-1:0][LenW-1:0]      size_rd;
  assign size_ra[SizeRdNs]  = ns_ra_i;
  assign size_ra[SizeRdIn1] = in1_ra_i;
  assign seg_size_ns_o  = size_rd[SizeRdNs];
  assign seg_size_in1_o = size_rd[SizeRdIn1];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(LenW), .Readers(SizeRd), .RegRead(1)
  ) u_seg_size (
    .clk_i     (clk_i),
    .we_i      (seg_size_ctrl_we_i),
    .waddr_i   (len_ctrl_wa_i),
    .wdata_i   (len_ctrl_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (size_ra),
    .rdata_o   (size_rd)
  );
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(LenW), .Readers(1), .RegRead(1)
  ) u_last_len (
    .clk_i     (clk_i),
    .we_i      (last_len_ctrl_we_i),
    .waddr_i   (len_ctrl_wa_i),
    .wdata_i   (len_ctrl_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (ns_ra_i),
    .rdata_o   (last_len_ns_o)
  );

  // wnd_start: writers stage 1 and control's ADD (which wins on one flow).
  localparam int unsigned StartWrIn1 = 0, StartWrCtrl = 1, StartWr = 2;
  localparam int unsigned StartRdIn1 = 0, StartRdPer = 1, StartRdNs = 2, StartRdCtrl = 3,
                          StartRdProbe = 4, StartRd = 5;
  logic  [StartWr-1:0] start_we;
  flow_t [StartWr-1:0] start_wa;
  seq_t  [StartWr-1:0] start_wd;
  flow_t [StartRd-1:0] start_ra;
  seq_t  [StartRd-1:0] start_rd;
  assign start_we[StartWrIn1]  = start_in1_we_i;
  assign start_wa[StartWrIn1]  = start_in1_wa_i;
  assign start_wd[StartWrIn1]  = start_in1_wd_i;
  assign start_we[StartWrCtrl] = start_ctrl_we_i;
  assign start_wa[StartWrCtrl] = start_ctrl_wa_i;
  assign start_wd[StartWrCtrl] = start_ctrl_wd_i;
  assign start_ra[StartRdIn1]   = in1_ra_i;
  assign start_ra[StartRdPer]   = per_ra_i;
  assign start_ra[StartRdNs]    = ns_ra_i;
  assign start_ra[StartRdCtrl]  = ctrl_ra_i;
  assign start_ra[StartRdProbe] = probe_ra_i;
  assign start_in1_o   = start_rd[StartRdIn1];
  assign start_per_o   = start_rd[StartRdPer];
  assign start_ns_o    = start_rd[StartRdNs];
  assign start_ctrl_o  = start_rd[StartRdCtrl];
  assign start_probe_o = start_rd[StartRdProbe];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(32), .Writers(StartWr), .Readers(StartRd),
    .RegRead(1)
  ) u_start (
    .clk_i     (clk_i),
    .we_i      (start_we),
    .waddr_i   (start_wa),
    .wdata_i   (start_wd),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (start_ra),
    .rdata_o   (start_rd)
  );

  // next_new: one writer port (next-seg, lent to control's ADD).
  localparam int unsigned NextRdIn1 = 0, NextRdIn2 = 1, NextRdPer = 2, NextRdNs = 3,
                          NextRdProbe = 4, NextRd = 5;
  flow_t [NextRd-1:0] next_ra;
  seq_t  [NextRd-1:0] next_rd;
  assign next_ra[NextRdIn1]   = in1_ra_i;
  assign next_ra[NextRdIn2]   = in2_ra_i;
  assign next_ra[NextRdPer]   = per_ra_i;
  assign next_ra[NextRdNs]    = ns_ra_i;
  assign next_ra[NextRdProbe] = probe_ra_i;
  assign next_in1_o   = next_rd[NextRdIn1];
  assign next_in2_o   = next_rd[NextRdIn2];
  assign next_per_o   = next_rd[NextRdPer];
  assign next_ns_o    = next_rd[NextRdNs];
  assign next_probe_o = next_rd[NextRdProbe];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(32), .Readers(NextRd), .RegRead(1)
  ) u_next (
    .clk_i     (clk_i),
    .we_i      (next_ns_we_i),
    .waddr_i   (next_ns_wa_i),
    .wdata_i   (next_ns_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (next_ra),
    .rdata_o   (next_rd)
  );

  // Outstanding counters (mod 2 RingN): registered copies for control and
  // next-seg, combinational ones for notify.
  localparam int unsigned CntRdNs = 0, CntRdCtrl = 1, CntRd = 2;
  typedef logic [PtrW-1:0] ptr_t;
  flow_t [CntRd-1:0] cnt_ra;
  ptr_t  [CntRd-1:0] gen_rd, tx_rd;
  assign cnt_ra[CntRdNs]   = ns_ra_i;
  assign cnt_ra[CntRdCtrl] = ctrl_ra_i;
  assign gen_ns_o   = gen_rd[CntRdNs];
  assign gen_ctrl_o = gen_rd[CntRdCtrl];
  assign tx_ns_o    = tx_rd[CntRdNs];
  assign tx_ctrl_o  = tx_rd[CntRdCtrl];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(PtrW), .Readers(CntRd), .RegRead(1)
  ) u_gen (
    .clk_i     (clk_i),
    .we_i      (gen_ns_we_i),
    .waddr_i   (gen_ns_wa_i),
    .wdata_i   (gen_ns_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (cnt_ra),
    .rdata_o   (gen_rd)
  );
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(PtrW), .Readers(1), .RegRead(0)
  ) u_gen_txn (
    .clk_i     (clk_i),
    .we_i      (gen_ns_we_i),
    .waddr_i   (gen_ns_wa_i),
    .wdata_i   (gen_ns_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (txn_ra_i),
    .rdata_o   (gen_txn_o)
  );
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(PtrW), .Readers(CntRd), .RegRead(1)
  ) u_tx (
    .clk_i     (clk_i),
    .we_i      (tx_txn_we_i),
    .waddr_i   (tx_txn_wa_i),
    .wdata_i   (tx_txn_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (cnt_ra),
    .rdata_o   (tx_rd)
  );
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(PtrW), .Readers(1), .RegRead(0)
  ) u_tx_txn (
    .clk_i     (clk_i),
    .we_i      (tx_txn_we_i),
    .waddr_i   (tx_txn_wa_i),
    .wdata_i   (tx_txn_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (txn_ra_i),
    .rdata_o   (tx_txn_o)
  );

  // ---------------------------------------------------------------------
  // Block RAM.
  typedef logic [W-1:0] ring_t;

  // acked: stage 1 writes; ADD clears.
  localparam int unsigned AckedRdIn1 = 0, AckedRdIn2 = 1, AckedRdPer = 2, AckedRd = 3;
  flow_t [AckedRd-1:0] acked_ra;
  ring_t [AckedRd-1:0] acked_rd;
  assign acked_ra[AckedRdIn1] = in1_ra_i;
  assign acked_ra[AckedRdIn2] = in2_ra_i;
  assign acked_ra[AckedRdPer] = per_ra_i;
  assign acked_in1_o = acked_rd[AckedRdIn1];
  assign acked_in2_o = acked_rd[AckedRdIn2];
  assign acked_per_o = acked_rd[AckedRdPer];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(W), .Readers(AckedRd), .RegRead(1), .Clear(1)
  ) u_acked (
    .clk_i     (clk_i),
    .we_i      (acked_in1_we_i),
    .waddr_i   (acked_in1_wa_i),
    .wdata_i   (acked_in1_wd_i),
    .clr_i     (clr_i),
    .clr_addr_i(clr_addr_i),
    .raddr_i   (acked_ra),
    .rdata_o   (acked_rd)
  );

  // sent: next-seg writes (ADD through its port).
  localparam int unsigned SentRdIn2 = 0, SentRdPer = 1, SentRdNs = 2, SentRd = 3;
  flow_t [SentRd-1:0] sent_ra;
  ring_t [SentRd-1:0] sent_rd;
  assign sent_ra[SentRdIn2] = in2_ra_i;
  assign sent_ra[SentRdPer] = per_ra_i;
  assign sent_ra[SentRdNs]  = ns_ra_i;
  assign sent_in2_o = sent_rd[SentRdIn2];
  assign sent_per_o = sent_rd[SentRdPer];
  assign sent_ns_o  = sent_rd[SentRdNs];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(W), .Readers(SentRd), .RegRead(1)
  ) u_sent (
    .clk_i     (clk_i),
    .we_i      (sent_ns_we_i),
    .waddr_i   (sent_ns_wa_i),
    .wdata_i   (sent_ns_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (sent_ra),
    .rdata_o   (sent_rd)
  );

  // Retransmit counts per ring position: next-seg writes (ADD through its
  // port); stage 1 reads the count of the segment its event names.
  localparam int unsigned RcntRdIn1 = 0, RcntRdNs = 1, RcntRd = 2;
  typedef logic [2*W-1:0] rcnt_t;
  flow_t [RcntRd-1:0] rcnt_ra;
  rcnt_t [RcntRd-1:0] rcnt_rd;
  assign rcnt_ra[RcntRdIn1] = in1_ra_i;
  assign rcnt_ra[RcntRdNs]  = ns_ra_i;
  assign rcnt_in1_o = rcnt_rd[RcntRdIn1];
  assign rcnt_ns_o  = rcnt_rd[RcntRdNs];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(2 * W), .Readers(RcntRd), .RegRead(1)
  ) u_rcnt (
    .clk_i     (clk_i),
    .we_i      (rcnt_ns_we_i),
    .waddr_i   (rcnt_ns_wa_i),
    .wdata_i   (rcnt_ns_wd_i),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (rcnt_ra),
    .rdata_o   (rcnt_rd)
  );

  // Window group: writers incoming stage 2 and periodic (periodic wins on
  // one flow, but the engine never lets both write one flow in a cycle).
  localparam int unsigned WinWrIn2 = 0, WinWrPer = 1, WinWr = 2;
  flow_t [WinWr-1:0] win_wa;
  assign win_wa[WinWrIn2] = win_in2_wa_i;
  assign win_wa[WinWrPer] = win_per_wa_i;

  // cwnd.
  typedef logic [CntW-1:0] cnt_t;
  localparam int unsigned WndRdIn2 = 0, WndRdPer = 1, WndRdNs = 2, WndRdProbe = 3, WndRd = 4;
  logic  [WinWr-1:0] wnd_we;
  cnt_t  [WinWr-1:0] wnd_wd;
  flow_t [WndRd-1:0] wnd_ra;
  cnt_t  [WndRd-1:0] wnd_rd;
  assign wnd_we[WinWrIn2] = wnd_in2_we_i;
  assign wnd_wd[WinWrIn2] = wnd_in2_wd_i;
  assign wnd_we[WinWrPer] = wnd_per_we_i;
  assign wnd_wd[WinWrPer] = wnd_per_wd_i;
  assign wnd_ra[WndRdIn2]   = in2_ra_i;
  assign wnd_ra[WndRdPer]   = per_ra_i;
  assign wnd_ra[WndRdNs]    = ns_ra_i;
  assign wnd_ra[WndRdProbe] = probe_ra_i;
  assign wnd_in2_o   = wnd_rd[WndRdIn2];
  assign wnd_per_o   = wnd_rd[WndRdPer];
  assign wnd_ns_o    = wnd_rd[WndRdNs];
  assign wnd_probe_o = wnd_rd[WndRdProbe];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(CntW), .Writers(WinWr), .Readers(WndRd),
    .RegRead(1), .Clear(1), .Init(CntW'(InitWnd))
  ) u_wnd (
    .clk_i     (clk_i),
    .we_i      (wnd_we),
    .waddr_i   (win_wa),
    .wdata_i   (wnd_wd),
    .clr_i     (clr_i),
    .clr_addr_i(clr_addr_i),
    .raddr_i   (wnd_ra),
    .rdata_o   (wnd_rd)
  );

  // mark.
  localparam int unsigned MarkRdIn2 = 0, MarkRdPer = 1, MarkRdNs = 2, MarkRd = 3;
  logic  [WinWr-1:0] mark_we;
  ring_t [WinWr-1:0] mark_wd;
  flow_t [MarkRd-1:0] mark_ra;
  ring_t [MarkRd-1:0] mark_rd;
  assign mark_we[WinWrIn2] = mark_in2_we_i;
  assign mark_wd[WinWrIn2] = mark_in2_wd_i;
  assign mark_we[WinWrPer] = mark_per_we_i;
  assign mark_wd[WinWrPer] = mark_per_wd_i;
  assign mark_ra[MarkRdIn2] = in2_ra_i;
  assign mark_ra[MarkRdPer] = per_ra_i;
  assign mark_ra[MarkRdNs]  = ns_ra_i;
  assign mark_in2_o = mark_rd[MarkRdIn2];
  assign mark_per_o = mark_rd[MarkRdPer];
  assign mark_ns_o  = mark_rd[MarkRdNs];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(W), .Writers(WinWr), .Readers(MarkRd),
    .RegRead(1), .Clear(1)
  ) u_mark (
    .clk_i     (clk_i),
    .we_i      (mark_we),
    .waddr_i   (win_wa),
    .wdata_i   (mark_wd),
    .clr_i     (clr_i),
    .clr_addr_i(clr_addr_i),
    .raddr_i   (mark_ra),
    .rdata_o   (mark_rd)
  );

  // Cold word {rto, armed, user}.
  typedef logic [ColdW-1:0] cold_w_t;
  localparam int unsigned ColdRdIn2 = 0, ColdRdPer = 1, ColdRd = 2;
  logic    [WinWr-1:0]  cold_we;
  cold_w_t [WinWr-1:0]  cold_wd;
  flow_t   [ColdRd-1:0] cold_ra;
  cold_w_t [ColdRd-1:0] cold_rd;
  assign cold_we[WinWrIn2] = cold_in2_we_i;
  assign cold_wd[WinWrIn2] = cold_in2_wd_i;
  assign cold_we[WinWrPer] = cold_per_we_i;
  assign cold_wd[WinWrPer] = cold_per_wd_i;
  assign cold_ra[ColdRdIn2] = in2_ra_i;
  assign cold_ra[ColdRdPer] = per_ra_i;
  assign cold_in2_o = cold_rd[ColdRdIn2];
  assign cold_per_o = cold_rd[ColdRdPer];
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(ColdW), .Writers(WinWr), .Readers(ColdRd),
    .RegRead(1), .Clear(1), .Init(ColdInit)
  ) u_cold (
    .clk_i     (clk_i),
    .we_i      (cold_we),
    .waddr_i   (win_wa),
    .wdata_i   (cold_wd),
    .clr_i     (clr_i),
    .clr_addr_i(clr_addr_i),
    .raddr_i   (cold_ra),
    .rdata_o   (cold_rd)
  );

  // Retransmission deadline: read by periodic's first stage (P0) only.
  logic        [WinWr-1:0] dl_we;
  logic [WinWr-1:0][31:0]  dl_wd;
  assign dl_we[WinWrIn2] = deadline_in2_we_i;
  assign dl_wd[WinWrIn2] = deadline_in2_wd_i;
  assign dl_we[WinWrPer] = deadline_per_we_i;
  assign dl_wd[WinWrPer] = deadline_per_wd_i;
  tonic_state_ram #(
    .SimModel(SimRam), .Depth(FlowCount), .Width(32), .Writers(WinWr), .Readers(1),
    .RegRead(1), .Clear(1)
  ) u_deadline (
    .clk_i     (clk_i),
    .we_i      (dl_we),
    .waddr_i   (win_wa),
    .wdata_i   (dl_wd),
    .clr_i     (clr_i),
    .clr_addr_i(clr_addr_i),
    .raddr_i   (scan_ra_i),
    .rdata_o   (deadline_scan_o)
  );
endmodule

`default_nettype wire
