// SPDX-License-Identifier: Apache-2.0
// tonic_rx_engine: the receiver (docs/design/receiver.md).
//
// Turns one data-packet descriptor per cycle into a deliver/drop decision
// (dlv) and the control packets the sender's protocols need (ctl: acks,
// SACKs, NACKs, pulls, CNPs, RESENDs), per flow in one of five modes
// (tonic_rx_pkg::rx_mode_e).
//
// Pipeline. Cycle t: a cfg command or a descriptor is accepted (cfg wins:
// data_ready_o is low while cfg_valid_i is high) and its flow is presented
// to the state memory. Cycle t+1 (stage 1): the flow's state is read, the
// window cell (tonic_rx_window) and the mode's rules run, the state is
// written back, and the decision is registered: dlv_valid_o /
// done_valid_o in cycle t+2. Stage 1's control packets (at most two) and
// counter increments go into the stage-2 register; cycle t+2 (stage 2):
// they enter the control queue and stats_o (visible from cycle t+3). The
// state memory (tonic_state_ram, registered reads, address one cycle
// ahead) forwards the writes of a cycle to the next cycle's read, so
// back-to-back descriptors of one flow see each other's effect: the
// read-modify-write of a flow's word stays within stage 1, and only what
// leaves the flow (packets, counters) is pipelined.
//
// Depth (rx_1024x128 against its levels target, docs/timing-model.md;
// figures in build/reports/synth.json): stage 1 ends at flip-flops and the
// state memory's write port, not at the queue's write decode or the
// counters' 32-bit adders; completion is `end - WBASE == run` (the difference from
// the state word, computed in parallel with the run; low bits compared
// when the high ones are zero) instead of `WBASE + run == end`; the
// window cell's in-order test is an equality and its "window still holds
// something" a thermometer (no OR after the shift); a timer's start
// (tmr_t) is written whenever the timer is off or restarted, so its write
// enable does not wait for the completion test. The critical path left:
// state read -> run of ones (tonic_ones_from_head) -> WBASE + run ->
// state write / pacer FIFO.
//
// Scan. A pointer visits flow ids 0, 1, ... one per cycle through a second
// read port and the second write port, and fires the flow's timer when it
// is due (`now - start >= timeout`): the TCP delayed ack (AckDelay) and
// the window-mode WBASE timeout (ResendTimeout); its packet and counters
// also pass the stage-2 register. The pointer stays on its flow (no
// action) in a cycle when stage 1 works on that same flow, or when the
// control queue and the stage-2 register hold more than CtlDepth - 4
// packets.
//
// Pull pacer (NDP). Every NDP ack / NACK increments the flow's pull
// number and queues {flow, pull number, WBASE} in a FIFO shared by all
// flows; the FIFO head leaves as a PULL (straight into the queue) when
// PullGap cycles have passed since the previous pull and the control
// queue and the stage-2 register hold at most CtlDepth - 4 packets.
//
// Control queue. Per cycle at most four packets enter, in this order: the
// stage-2 register's (stage 1's packet, stage 1's CNP, the scan's packet,
// all made in the cycle before), then this cycle's PULL. data_ready_o is
// low while the queue and the stage-2 register hold more than
// CtlDepth - 8 packets or the pacer more than PullDepth - 2 requests, so
// no control packet is ever lost to back-pressure.
//
// Echo, SACK blocks, CE state (docs/design/receiver.md, "Echo, SACK
// blocks and the CE state"). A TCP flow keeps TS.Recent (the stamp and
// retransmit flag of the in-order segment that arrived with no ack
// pending, or of its first arrival) and every TCP ack echoes it; a NACK
// (NDP, RoCE, IRN) echoes the packet that triggered it; other packets
// carry no echo. A TCP flow opened with ce_state_acks keeps a CE state
// (the last segment's mark): a segment whose mark differs first acks the
// pending delayed segment with the old state (that ack goes in the first
// packet slot, the segment's own ack in the second), and every ack's ecn
// is the state. A TCP flow with SACK gets its blocks in stage 2
// (tonic_rx_sack): the stage-2 register also holds WBASE and WVEC after the
// arrival and the arriving offset; tonic_rx_sack finds block 0's ends in
// WVEC, keeps each flow's reported runs in a block-RAM word of its own
// and hands back the blocks as offsets from cum_ack. The control queue
// stores a packet as rx_ctl_t without its blocks (the struct's last field)
// plus each block as {valid, two offsets}, and ctl_o adds cum_ack back:
// 2 x (log2(W) + 1) bits per block and queue entry instead of 64.
//
// Bad input is counted in stats_o and dropped without any other state
// change: a flow id out of range or not open, a zombie (window mode).
// So is an index at or past the end of a bounded message (first + count,
// serial order; counted in `beyond`, reason RsnBeyond, every mode): it is
// dropped before the window step, so WBASE never runs past the end.
// The open bits are flip-flops (reset); the rest of a flow's state is
// block RAM, written on OPEN, never reset.
`default_nettype none

module tonic_rx_engine
  import tonic_wire_pkg::*;
  import tonic_rx_pkg::*;
#(
  /// Number of flows; ids 0..FlowCount-1. A power of two >= 16.
  parameter int unsigned FlowCount = 1024,
  /// Window size in segments; a power of two, 32..256.
  parameter int unsigned W = 128,
  /// TCP delayed ack: cycles from the first unacked segment (>= 1).
  parameter int unsigned AckDelay = 2000,
  /// RoCE: at least this many cycles between two NACKs of a flow until the
  /// expected index arrives (>= 1).
  parameter int unsigned NackGap = 1000,
  /// DCQCN NP: at least this many cycles between two CNPs of a flow (>= 1).
  parameter int unsigned CnpGap = 5000,
  /// NDP: cycles between two pulls of the receiver (>= 1).
  parameter int unsigned PullGap = 12,
  /// Window mode: WBASE timeout in cycles (>= 1).
  parameter int unsigned ResendTimeout = 10000,
  /// Window mode: the go-back flag on this many timeouts in a row (1..255).
  parameter int unsigned GoBackAfter = 3,
  /// Control queue entries, 16..64 (a power of two).
  parameter int unsigned CtlDepth = 16,
  /// Pull pacer FIFO entries, 4..16.
  parameter int unsigned PullDepth = 16,
  /// tonic_state_ram SimModel: 0 structural (synthesis), 1 behavioural
  /// (Verilator models only).
  parameter int unsigned SimRam = 0,
  /// Flow address width (do not override).
  localparam int unsigned AddrW = $clog2(FlowCount)
) (
  input  wire logic      clk_i,
  input  wire logic      rst_i,          // synchronous, active high
  // Configuration: OPEN / CLOSE.
  input  wire logic      cfg_valid_i,
  output logic           cfg_ready_o,    // always 1
  input  wire rx_cfg_t   cfg_i,
  // Data-packet descriptors.
  input  wire logic      data_valid_i,
  output logic           data_ready_o,
  input  wire rx_desc_t  data_i,
  // Decisions: one per accepted descriptor, two cycles later; no ready.
  output logic           dlv_valid_o,
  output rx_dlv_t        dlv_o,
  // Control packets.
  output logic           ctl_valid_o,
  input  wire logic      ctl_ready_i,
  output rx_ctl_t        ctl_o,
  // Message completions (WBASE reached the segment count); no ready.
  output logic           done_valid_o,
  output logic [15:0]    done_flow_o,
  // Counters.
  output rx_stats_t      stats_o
);
  if (FlowCount < 16 || FlowCount > 65536 || (FlowCount & (FlowCount - 1)) != 0) begin : g_check_flows
    $fatal(1, "tonic_rx_engine: FlowCount must be a power of two in 16..65536");
  end
  if (W < 32 || W > 256 || (W & (W - 1)) != 0) begin : g_check_w
    $fatal(1, "tonic_rx_engine: W must be a power of two in 32..256");
  end
  if (AckDelay < 1 || NackGap < 1 || CnpGap < 1 || PullGap < 1 || ResendTimeout < 1) begin : g_check_times
    $fatal(1, "tonic_rx_engine: timing parameters must be >= 1");
  end
  if (GoBackAfter < 1 || GoBackAfter > 255) begin : g_check_goback
    $fatal(1, "tonic_rx_engine: GoBackAfter must be in 1..255");
  end
  if (CtlDepth < 16 || CtlDepth > 64 || (CtlDepth & (CtlDepth - 1)) != 0) begin : g_check_ctl
    $fatal(1, "tonic_rx_engine: CtlDepth must be a power of two in 16..64");
  end
  if (PullDepth < 4 || PullDepth > 16) begin : g_check_pull
    $fatal(1, "tonic_rx_engine: PullDepth must be in 4..16");
  end

  // Window cell kinds (tonic_rx_window).
  localparam logic [2:0] WinBelow   = 3'd0;
  localparam logic [2:0] WinHeld    = 3'd1;
  localparam logic [2:0] WinBeyond  = 3'd2;
  localparam logic [2:0] WinNew     = 3'd3;
  localparam logic [2:0] WinInOrder = 3'd4;

  localparam int unsigned CtlW  = $clog2(CtlDepth);
  localparam int unsigned PullW = $clog2(PullDepth + 1);

  typedef logic [AddrW-1:0] addr_t;

  /// Per-flow state (one block-RAM word; `open` lives in flip-flops). The
  /// fields added for the echo and the CE state come first, so the older
  /// fields keep their bit positions: with them appended last, the
  /// Verilator 5.006 model of rx_16x32 computed WVEC's run of ones wrong
  /// (28 for 30 set bits; the lockstep test caught it), the same RTL
  /// with WVEC at its old offset is right. Not reduced to a Verilator
  /// test case; synthesis does not care about the order.
  typedef struct packed {
    logic         ce_acks;   // TCP: ecn = the CE state (cfg ce_state_acks)
    logic         ce_st;     // TCP: the CE state, the mark of the last segment
    echo_t        tsr;       // TCP: TS.Recent (valid from the first arrival)
    rx_mode_e     mode;
    logic         delack;
    logic         sack;
    logic         done;      // the message completed
    logic         bounded;   // count != 0
    seq_t         wbase;
    logic [W-1:0] wvec;
    seq_t         end_idx;   // first + count
    logic [15:0]  node;
    logic [15:0]  ctx;
    logic [19:0]  msgid;
    logic         unacked;   // TCP delayed: one in-order segment not acked
    logic         tmr_on;    // timer armed (TCP delayed ack, window WBASE)
    logic [31:0]  tmr_t;     // its start cycle
    logic         nack_on;   // RoCE: a NACK was sent since epsn last arrived
    logic [31:0]  nack_t;
    logic         cnp_on;    // a CNP was sent
    logic [31:0]  cnp_t;
    logic [15:0]  pull;      // NDP: cumulative pull number
    logic [7:0]   tmo;       // window: timeouts in a row
  } flow_t;

  /// A pull request in the pacer.
  typedef struct packed {
    logic [15:0] flow;
    logic [15:0] grant;
    seq_t        cum;
  } pull_t;

  // ---------------------------------------------------------------------
  // Free-running cycle count.
  logic [31:0] now_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) now_q <= '0;
    else       now_q <= now_q + 32'd1;
  end

  // ---------------------------------------------------------------------
  // Acceptance (cycle t) and the stage-1 register.
  logic [CtlW:0]  ctl_cnt_q;   // control queue entries
  logic [CtlW:0]  ctl_room;    // entries + packets in the stage-2 register
  logic [PullW-1:0] pace_cnt;
  logic           take_cfg, take_data;

  assign cfg_ready_o  = 1'b1;
  assign data_ready_o = !cfg_valid_i && ctl_room <= (CtlW + 1)'(CtlDepth - 8)
                        && pace_cnt <= PullW'(PullDepth - 2);
  assign take_cfg     = cfg_valid_i;
  assign take_data    = data_valid_i && data_ready_o;

  logic      s1_valid_q, s1_cfg_q, s1_open_q, s1_inrange_q;
  rx_cfg_t   s1_c_q;
  rx_desc_t  s1_d_q;
  addr_t     s1_addr_q;
  logic [15:0] in_flow;
  addr_t     in_addr;

  assign in_flow = take_cfg ? cfg_i.flow : data_i.flow;
  assign in_addr = in_flow[AddrW-1:0];

  // Open bits: flip-flops, written by stage 1's cfg; read one cycle ahead
  // (after this cycle's write) for stage 1 and the scan.
  logic [FlowCount-1:0] open_q, open_d;
  always_comb begin
    open_d = open_q;
    if (s1_valid_q && s1_cfg_q && s1_inrange_q) open_d[s1_addr_q] = s1_c_q.op == CfgOpen;
  end

  addr_t sp_q, sp_d;  // scan pointer: the flow the scan stage works on
  logic  sc_open_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      open_q     <= '0;
      s1_valid_q <= 1'b0;
      sp_q       <= '0;
    end else begin
      open_q     <= open_d;
      s1_valid_q <= take_cfg || take_data;
      sp_q       <= sp_d;
    end
  end

  always_ff @(posedge clk_i) begin
    s1_cfg_q     <= take_cfg;
    s1_c_q       <= cfg_i;
    s1_d_q       <= data_i;
    s1_addr_q    <= in_addr;
    s1_inrange_q <= (AddrW == 16) || in_flow[15:AddrW] == '0;
    s1_open_q    <= open_d[in_addr];
    sc_open_q    <= open_d[sp_d];
  end

  // ---------------------------------------------------------------------
  // State memory: writer 0 = stage 1, writer 1 = scan; reader 0 = stage 1,
  // reader 1 = scan.
  logic [1:0]              st_we;
  logic [1:0][AddrW-1:0]   st_wa;
  flow_t [1:0]             st_wd;
  logic [1:0][AddrW-1:0]   st_ra;
  flow_t [1:0]             st_rd;

  assign st_ra[0] = in_addr;
  assign st_ra[1] = sp_d;

  tonic_state_ram #(
    .Depth   (FlowCount),
    .Width   ($bits(flow_t)),
    .Writers (2),
    .Readers (2),
    .RegRead (1),
    .Clear   (0),
    .SimModel(SimRam)
  ) u_state (
    .clk_i     (clk_i),
    .we_i      (st_we),
    .waddr_i   (st_wa),
    .wdata_i   (st_wd),
    .clr_i     (1'b0),
    .clr_addr_i('0),
    .raddr_i   (st_ra),
    .rdata_o   (st_rd)
  );

  // ---------------------------------------------------------------------
  // Stage 1: the window step and the mode's rules.
  flow_t       s;       // state read
  flow_t       sn;      // state written
  logic [2:0]  kind;
  logic [$clog2(W)-1:0] w_off;
  logic        hole, w_left;
  seq_t        w_base;
  logic [W-1:0] w_vec;
  logic [$clog2(W):0] w_run;

  assign s = st_rd[0];

  tonic_rx_window #(
    .W(W)
  ) u_window (
    .wbase_i(s.wbase),
    .wvec_i (s.wvec),
    .idx_i  (s1_d_q.idx),
    .kind_o (kind),
    .off_o  (w_off),
    .hole_o (hole),
    .wbase_o(w_base),
    .wvec_o (w_vec),
    .run_o  (w_run),
    .left_o (w_left)
  );

  // An in-order arrival completes the message: WBASE + run = end, i.e.
  // end - WBASE = run, with the difference computed from the state read in
  // parallel with the run (no add, then compare, on the path).
  seq_t        to_end;
  logic        fin;
  assign to_end = s.end_idx - s.wbase;
  assign fin    = s.bounded && to_end[31:$clog2(W) + 1] == '0
                  && to_end[$clog2(W):0] == w_run;

  // Beyond the message (bounded): idx at or past end_idx in serial order.
  // Such an index is no packet of the message; it is dropped before the
  // window step (a held one would carry WBASE past the end, which then
  // never completes).
  seq_t        from_end;
  logic        past_end;
  assign from_end = s1_d_q.idx - s.end_idx;
  assign past_end = s.bounded && !from_end[31];

  // TCP: the CE state changes with a delayed segment pending (flush: ack
  // it first, with the old state); TS.Recent after the arrival.
  logic        flip, flush, unacked_e;
  echo_t       own, tsr_n;
  assign flip      = s.ce_acks && s1_d_q.ecn != s.ce_st;
  assign flush     = flip && s.unacked;
  assign unacked_e = s.unacked && !flush;
  assign own       = '{valid: 1'b1, rtx: s1_d_q.rtx, ts: s1_d_q.ts};
  assign tsr_n     = ((kind == WinInOrder && !unacked_e) || !s.tsr.valid) ? own : s.tsr;

  logic        nack_ok, cnp_ok, zombie;
  assign nack_ok = !s.nack_on || (now_q - s.nack_t) >= 32'(NackGap);
  assign cnp_ok  = !s.cnp_on  || (now_q - s.cnp_t)  >= 32'(CnpGap);
  assign zombie  = s.node != s1_d_q.node || s.ctx != s1_d_q.ctx || s.msgid != s1_d_q.msgid;

  // Stage 1 outputs.
  logic        a_push, b_push, pull_push;
  rx_ctl_t     a_pkt, b_pkt;
  logic        sk_upd, sk_b;   // the SACK stage: report (TCP with SACK); the ack is in slot b
  rx_dlv_t     dlv_d;
  logic        dlv_v_d, done_d;
  // Counter increments of stage 1.
  logic        i_unknown, i_zombie, i_dup, i_beyond, i_trim, i_gbn, i_nsupp, i_csupp,
               i_resend1, i_done;

  always_comb begin
    sn        = s;
    st_we[0]  = 1'b0;
    st_wa[0]  = s1_addr_q;
    a_push    = 1'b0;
    b_push    = 1'b0;
    pull_push = 1'b0;
    a_pkt     = '0;
    a_pkt.flow    = s1_d_q.flow;
    a_pkt.typ     = RxAck;
    a_pkt.cum_ack = s.wbase;
    b_pkt         = '0;
    b_pkt.flow    = s1_d_q.flow;
    b_pkt.typ     = RxCnp;
    sk_upd    = 1'b0;
    sk_b      = 1'b0;
    dlv_v_d   = s1_valid_q && !s1_cfg_q;
    dlv_d.flow    = s1_d_q.flow;
    dlv_d.idx     = s1_d_q.idx;
    dlv_d.deliver = 1'b0;
    dlv_d.reason  = RsnUnknown;
    done_d    = 1'b0;
    i_unknown = 1'b0;
    i_zombie  = 1'b0;
    i_dup     = 1'b0;
    i_beyond  = 1'b0;
    i_trim    = 1'b0;
    i_gbn     = 1'b0;
    i_nsupp   = 1'b0;
    i_csupp   = 1'b0;
    i_resend1 = 1'b0;
    i_done    = 1'b0;

    if (s1_valid_q && s1_cfg_q) begin
      // OPEN writes a fresh word; CLOSE only clears the open bit.
      if (s1_inrange_q && s1_c_q.op == CfgOpen) begin
        st_we[0]   = 1'b1;
        sn         = '0;
        sn.mode    = s1_c_q.mode;
        sn.delack  = s1_c_q.delack;
        sn.sack    = s1_c_q.sack;
        sn.ce_acks = s1_c_q.ce_state_acks;
        sn.bounded = s1_c_q.count != '0;
        sn.wbase   = s1_c_q.first;
        sn.end_idx = s1_c_q.first + s1_c_q.count;
        sn.node    = s1_c_q.node;
        sn.ctx     = s1_c_q.ctx;
        sn.msgid   = s1_c_q.msgid;
        sn.tmr_on  = s1_c_q.mode == ModeWindow && s1_c_q.count != '0;
        sn.tmr_t   = now_q;
      end
    end else if (s1_valid_q) begin
      if (!s1_inrange_q || !s1_open_q) begin
        i_unknown = 1'b1;
      end else if (s.mode == ModeWindow && zombie) begin
        i_zombie     = 1'b1;
        dlv_d.reason = RsnZombie;
      end else if (s1_d_q.trimmed) begin
        i_trim       = 1'b1;
        dlv_d.reason = RsnTrimmed;
        if (s.mode == ModeNdp) begin
          // NACK the trimmed index (sack_valid = 0: not received).
          st_we[0]       = 1'b1;
          a_push         = 1'b1;
          a_pkt.typ      = RxNack;
          a_pkt.sack_idx = s1_d_q.idx;
          a_pkt.echo     = own;
          pull_push      = 1'b1;
          sn.pull        = s.pull + 16'd1;
        end
      end else if (s.mode == ModeWindow && s.done) begin
        i_dup        = 1'b1;
        dlv_d.reason = RsnDuplicate;
      end else if (past_end) begin
        // Beyond the message end: dropped, counted as beyond, no control
        // packet, no state change (every mode).
        i_beyond     = 1'b1;
        dlv_d.reason = RsnBeyond;
      end else begin
        st_we[0] = 1'b1;
        // Window step (RoCE: only an in-order arrival moves the window).
        if (s.mode != ModeRoce || kind == WinInOrder) begin
          sn.wbase = w_base;
          sn.wvec  = w_vec;
        end
        a_pkt.cum_ack = (s.mode != ModeRoce || kind == WinInOrder) ? w_base : s.wbase;
        unique case (kind)
          WinNew, WinInOrder: begin
            dlv_d.deliver = 1'b1;
            dlv_d.reason  = RsnOk;
          end
          WinBeyond: begin
            dlv_d.reason = RsnBeyond;
          end
          default: begin
            dlv_d.reason = RsnDuplicate;
          end
        endcase
        // Completion (every mode): WBASE reaches the message end.
        if (kind == WinInOrder && !s.done && fin) begin
          sn.done = 1'b1;
          done_d  = 1'b1;
          i_done  = 1'b1;
        end

        unique case (s.mode)
          ModeTcp: begin
            i_dup    = kind == WinBelow || kind == WinHeld;
            i_beyond = kind == WinBeyond;
            a_pkt.ecn  = s1_d_q.ecn;  // with ce_state_acks too: the state after the arrival
            a_pkt.echo = tsr_n;
            sn.ce_st   = s1_d_q.ecn;
            sn.tsr     = tsr_n;
            sk_upd     = s.sack;
            if (s.sack && (kind == WinHeld || kind == WinNew)) begin
              a_pkt.typ        = RxSack;
              a_pkt.sack_valid = 1'b1;
              a_pkt.sack_idx   = s1_d_q.idx;
            end
            // A stopped timer's start is not read: restart it whether or
            // not the branch below arms it (a flush stops it).
            if (!s.tmr_on || flush) sn.tmr_t = now_q;
            if (kind == WinInOrder && !hole && s.delack && !unacked_e && !i_done) begin
              // Delayed: wait for the second segment or AckDelay. The
              // segment that completes a bounded message is acked at once
              // (no second segment will come).
              sn.unacked = 1'b1;
              sn.tmr_on  = 1'b1;
            end else begin
              a_push     = 1'b1;
              sn.unacked = 1'b0;
              sn.tmr_on  = 1'b0;
            end
            if (flush) begin
              // The pending segment's ack, with the old state, goes first
              // (slot a); this arrival's ack, if any, second (slot b).
              b_pkt         = a_pkt;
              b_push        = a_push;
              sk_b          = 1'b1;
              a_pkt         = '0;
              a_pkt.flow    = s1_d_q.flow;
              a_pkt.typ     = RxAck;
              a_pkt.cum_ack = s.wbase;
              a_pkt.ecn     = s.ce_st;
              a_pkt.echo    = s.tsr;
              a_push        = 1'b1;
            end
          end
          ModeNdp: begin
            i_dup     = kind == WinBelow || kind == WinHeld;
            i_beyond  = kind == WinBeyond;
            a_push    = 1'b1;
            pull_push = 1'b1;
            sn.pull   = s.pull + 16'd1;
            if (kind == WinHeld || kind == WinNew) begin
              a_pkt.typ        = RxSack;
              a_pkt.sack_valid = 1'b1;
              a_pkt.sack_idx   = s1_d_q.idx;
            end
          end
          ModeRoce: begin
            if (kind == WinInOrder) begin
              a_push     = 1'b1;
              sn.nack_on = 1'b0;
            end else if (kind == WinBelow) begin
              i_dup  = 1'b1;
              a_push = 1'b1;
            end else begin
              // Above the expected index: dropped, NACK(expected) unless
              // one went less than NackGap cycles ago.
              i_gbn         = 1'b1;
              dlv_d.deliver = 1'b0;
              dlv_d.reason  = RsnGoBackN;
              a_pkt.typ     = RxNack;
              a_pkt.echo    = own;
              if (nack_ok) begin
                a_push     = 1'b1;
                sn.nack_on = 1'b1;
                sn.nack_t  = now_q;
              end else begin
                i_nsupp = 1'b1;
              end
            end
          end
          ModeIrn: begin
            i_dup    = kind == WinBelow || kind == WinHeld;
            i_beyond = kind == WinBeyond;
            a_push   = 1'b1;
            if (kind == WinHeld || kind == WinNew) begin
              a_pkt.typ        = RxNack;
              a_pkt.sack_valid = 1'b1;
              a_pkt.sack_idx   = s1_d_q.idx;
              a_pkt.echo       = own;
            end
          end
          ModeWindow: begin
            i_dup    = kind == WinBelow || kind == WinHeld;
            i_beyond = kind == WinBeyond;
            if (kind == WinBeyond) begin
              // RESEND(WBASE) naming the dropped index, like the IRN NACK.
              a_push           = 1'b1;
              a_pkt.typ        = RxResend;
              a_pkt.sack_valid = 1'b1;
              a_pkt.sack_idx   = s1_d_q.idx;
              i_resend1        = 1'b1;
            end else if (kind == WinNew || kind == WinInOrder) begin
              if (kind == WinInOrder) sn.tmo = '0;
              // tmr_t restarts on every delivered arrival; when the timer
              // stops it is not read (kept off the completion test's path).
              sn.tmr_t = now_q;
              if (kind == WinInOrder && fin) begin
                a_push    = 1'b1;  // completion ack
                sn.tmr_on = 1'b0;
              end else begin
                sn.tmr_on = s.bounded || w_left;
              end
            end
          end
          default: begin
            // Not a mode OPEN accepts; handled as TCP without options.
            a_push = 1'b1;
          end
        endcase

        // DCQCN notification point (RoCE, IRN): a CE-marked arrival.
        if ((s.mode == ModeRoce || s.mode == ModeIrn) && s1_d_q.ecn) begin
          b_pkt.cum_ack = a_pkt.cum_ack;
          if (cnp_ok) begin
            b_push    = 1'b1;
            sn.cnp_on = 1'b1;
            sn.cnp_t  = now_q;
          end else begin
            i_csupp = 1'b1;
          end
        end
      end
    end
    st_wd[0] = sn;
  end


  // ---------------------------------------------------------------------
  // Scan stage: flow sp_q's timer.
  flow_t   t;   // state read by the scan
  flow_t   tn;
  logic    sc_go, sc_push, i_resend2, i_goback;
  rx_ctl_t sc_pkt;
  logic [7:0] tmo_n;

  assign t = st_rd[1];

  always_comb begin
    tn        = t;
    sc_go     = ctl_room <= (CtlW + 1)'(CtlDepth - 4) && !(s1_valid_q && s1_addr_q == sp_q);
    sp_d      = sc_go ? sp_q + addr_t'(1) : sp_q;
    sc_push   = 1'b0;
    st_we[1]  = 1'b0;
    st_wa[1]  = sp_q;
    i_resend2 = 1'b0;
    i_goback  = 1'b0;
    tmo_n     = t.tmo + 8'd1;
    sc_pkt         = '0;
    sc_pkt.flow    = 16'(sp_q);
    sc_pkt.cum_ack = t.wbase;
    if (sc_go && sc_open_q && t.tmr_on) begin
      if (t.mode == ModeTcp && (now_q - t.tmr_t) >= 32'(AckDelay)) begin
        // The pending segment's ack: its echo and the CE state; no
        // blocks (a pending delayed ack means nothing is held).
        sc_push     = 1'b1;
        sc_pkt.typ  = RxAck;
        sc_pkt.ecn  = t.ce_acks && t.ce_st;
        sc_pkt.echo = t.tsr;
        st_we[1]   = 1'b1;
        tn.unacked = 1'b0;
        tn.tmr_on  = 1'b0;
      end else if (t.mode == ModeWindow && (now_q - t.tmr_t) >= 32'(ResendTimeout)) begin
        sc_push    = 1'b1;
        sc_pkt.typ = RxResend;
        i_resend2  = 1'b1;
        st_we[1]   = 1'b1;
        tn.tmr_t   = now_q;
        if (tmo_n >= 8'(GoBackAfter)) begin
          sc_pkt.go_back = 1'b1;
          i_goback       = 1'b1;
          tn.tmo         = '0;
        end else begin
          tn.tmo = tmo_n;
        end
      end
    end
    st_wd[1] = tn;
  end

  // ---------------------------------------------------------------------
  // Pull pacer.
  pull_t   pace_in, pace_head;
  logic    pace_valid, pace_pop, pace_push_ok;
  logic [$clog2(PullGap + 1)-1:0] pace_wait_q;
  rx_ctl_t pl_pkt;

  assign pace_in.flow  = s1_d_q.flow;
  assign pace_in.grant = sn.pull;
  assign pace_in.cum   = a_pkt.cum_ack;

  tonic_small_fifo #(
    .Width($bits(pull_t)),
    .Depth(PullDepth)
  ) u_pacer (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .push_i     (pull_push),
    .data_i     (pace_in),
    .push_ok_o  (pace_push_ok),
    .out_valid_o(pace_valid),
    .out_ready_i(pace_pop),
    .out_data_o (pace_head),
    .count_o    (pace_cnt)
  );

  assign pace_pop = pace_valid && pace_wait_q == '0 && ctl_room <= (CtlW + 1)'(CtlDepth - 4);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      pace_wait_q <= '0;
    end else if (pace_pop) begin
      pace_wait_q <= $bits(pace_wait_q)'(PullGap - 1);
    end else if (pace_wait_q != '0) begin
      pace_wait_q <= pace_wait_q - 1'b1;
    end
  end

  always_comb begin
    pl_pkt         = '0;
    pl_pkt.flow    = pace_head.flow;
    pl_pkt.typ     = RxPull;
    pl_pkt.cum_ack = pace_head.cum;
    pl_pkt.grant   = pace_head.grant;
  end

  // ---------------------------------------------------------------------
  // Stage 2: the packets of stage 1 (its packet and CNP) and of the scan,
  // and the counter increments of both, registered; in the next cycle they
  // enter the control queue (with the pacer's PULL of that cycle, last)
  // and the counters. Stage 1's and the scan's decisions end at flip-flops,
  // not at the queue's write decode or the 32-bit counter adders.
  logic    p_a_q, p_b_q, p_sc_q;
  rx_ctl_t p_a_pkt_q, p_b_pkt_q, p_sc_pkt_q;
  // The SACK stage's inputs: the arrival's flow, whether it is held above
  // WBASE and its offset, WBASE and WVEC after it; an OPEN clears the
  // flow's runs.
  logic    p_sk_upd_q, p_sk_clr_q, p_sk_b_q, p_sk_trig_q;
  addr_t   p_sk_addr_q;
  logic [$clog2(W)-1:0] p_sk_off_q;
  seq_t    p_sk_base_q;
  logic [W-1:0] p_sk_vec_q;
  logic    p_unknown_q, p_zombie_q, p_dup_q, p_beyond_q, p_trim_q, p_gbn_q, p_nsupp_q,
           p_csupp_q, p_resend1_q, p_resend2_q, p_goback_q, p_done_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      p_a_q       <= 1'b0;
      p_b_q       <= 1'b0;
      p_sc_q      <= 1'b0;
      p_sk_upd_q  <= 1'b0;
      p_sk_clr_q  <= 1'b0;
      p_unknown_q <= 1'b0;
      p_zombie_q  <= 1'b0;
      p_dup_q     <= 1'b0;
      p_beyond_q  <= 1'b0;
      p_trim_q    <= 1'b0;
      p_gbn_q     <= 1'b0;
      p_nsupp_q   <= 1'b0;
      p_csupp_q   <= 1'b0;
      p_resend1_q <= 1'b0;
      p_resend2_q <= 1'b0;
      p_goback_q  <= 1'b0;
      p_done_q    <= 1'b0;
    end else begin
      p_a_q       <= a_push;
      p_b_q       <= b_push;
      p_sc_q      <= sc_push;
      p_sk_upd_q  <= sk_upd;
      p_sk_clr_q  <= s1_valid_q && s1_cfg_q && s1_inrange_q && s1_c_q.op == CfgOpen;
      p_unknown_q <= i_unknown;
      p_zombie_q  <= i_zombie;
      p_dup_q     <= i_dup;
      p_beyond_q  <= i_beyond;
      p_trim_q    <= i_trim;
      p_gbn_q     <= i_gbn;
      p_nsupp_q   <= i_nsupp;
      p_csupp_q   <= i_csupp;
      p_resend1_q <= i_resend1;
      p_resend2_q <= i_resend2;
      p_goback_q  <= i_goback;
      p_done_q    <= i_done;
    end
  end
  always_ff @(posedge clk_i) begin
    p_a_pkt_q   <= a_pkt;
    p_b_pkt_q   <= b_pkt;
    p_sc_pkt_q  <= sc_pkt;
    p_sk_b_q    <= sk_b;
    p_sk_trig_q <= kind == WinHeld || kind == WinNew;
    p_sk_addr_q <= s1_addr_q;
    p_sk_off_q  <= w_off;
    p_sk_base_q <= w_base;
    p_sk_vec_q  <= w_vec;
  end

  // The SACK stage (TCP with SACK): the blocks of the ack in slot a or b,
  // ends as offsets from its cum_ack.
  sack_blks_t sk_blks;
  rx_ctl_t    q_a_pkt, q_b_pkt;  // the stage-2 packets as they enter the queue

  tonic_rx_sack #(
    .FlowCount(FlowCount),
    .W        (W),
    .SimRam   (SimRam)
  ) u_sack (
    .clk_i    (clk_i),
    .rd_addr_i(s1_addr_q),
    .clr_i    (p_sk_clr_q),
    .upd_i    (p_sk_upd_q),
    .addr_i   (p_sk_addr_q),
    .trig_i   (p_sk_trig_q),
    .toff_i   (p_sk_off_q),
    .base_i   (p_sk_base_q),
    .vec_i    (p_sk_vec_q),
    .blks_o   (sk_blks)
  );

  always_comb begin
    q_a_pkt = p_a_pkt_q;
    q_b_pkt = p_b_pkt_q;
    if (p_sk_upd_q && !p_sk_b_q) q_a_pkt.blks = sk_blks;
    if (p_sk_upd_q && p_sk_b_q)  q_b_pkt.blks = sk_blks;
  end

  // ---------------------------------------------------------------------
  // Control queue: up to four pushes per cycle (stage 2's three, the
  // pacer's PULL), one pop. Flow control counts the stage-2 packets as
  // queued (ctl_room), so the bounds of the header hold unchanged.
  // An entry: rx_ctl_t above its blocks, and the blocks as offsets.
  localparam int unsigned BlksW = $bits(sack_blks_t);
  localparam int unsigned HeadW = $bits(rx_ctl_t) - BlksW;
  localparam int unsigned OffW  = $clog2(W) + 1;
  typedef struct packed {
    logic            valid;
    logic [OffW-1:0] lo, hi;  // offsets from cum_ack
  } blk_off_t;
  typedef struct packed {
    logic [HeadW-1:0]                head;  // rx_ctl_t's bits above blks
    blk_off_t [SackBlocks-1:0]       blks;
  } cq_ent_t;

  // blks must be rx_ctl_t's last field (its low bits) for the split above.
  function automatic logic blks_last();
    rx_ctl_t probe;
    probe      = '0;
    probe.blks = '1;
    return probe[BlksW-1:0] == '1 && probe[$bits(rx_ctl_t)-1:BlksW] == '0;
  endfunction
  if (!blks_last()) begin : g_check_blks
    $fatal(1, "tonic_rx_engine: rx_ctl_t.blks must be the struct's last field");
  end

  function automatic cq_ent_t to_ent(rx_ctl_t c);
    to_ent.head = c[$bits(rx_ctl_t)-1:BlksW];
    for (int i = 0; i < SackBlocks; i++) begin
      to_ent.blks[i].valid = c.blks[i].valid;
      to_ent.blks[i].lo    = c.blks[i].lo[OffW-1:0];
      to_ent.blks[i].hi    = c.blks[i].hi[OffW-1:0];
    end
  endfunction

  cq_ent_t [CtlDepth-1:0] cq_q;
  logic [CtlW-1:0] cq_rd_q, cq_wr_q;
  logic            ctl_pop;
  logic [2:0]      n_push;
  logic [CtlW-1:0] wa_b, wa_s, wa_p;  // write slots of the CNP, scan and pull packets

  assign ctl_room    = ctl_cnt_q + (CtlW + 1)'(p_a_q) + (CtlW + 1)'(p_b_q) + (CtlW + 1)'(p_sc_q);
  assign ctl_valid_o = ctl_cnt_q != '0;
  // Block ends are queued as offsets from cum_ack: add it back.
  always_comb begin
    cq_ent_t e;
    e     = cq_q[cq_rd_q];
    ctl_o = rx_ctl_t'({e.head, BlksW'(0)});
    for (int i = 0; i < SackBlocks; i++) begin
      if (e.blks[i].valid) begin
        ctl_o.blks[i].valid = 1'b1;
        ctl_o.blks[i].lo    = ctl_o.cum_ack + 32'(e.blks[i].lo);
        ctl_o.blks[i].hi    = ctl_o.cum_ack + 32'(e.blks[i].hi);
      end
    end
  end
  assign ctl_pop     = ctl_valid_o && ctl_ready_i;
  assign wa_b   = cq_wr_q + CtlW'(p_a_q);
  assign wa_s   = wa_b + CtlW'(p_b_q);
  assign wa_p   = wa_s + CtlW'(p_sc_q);
  assign n_push = 3'(p_a_q) + 3'(p_b_q) + 3'(p_sc_q) + 3'(pace_pop);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cq_rd_q   <= '0;
      cq_wr_q   <= '0;
      ctl_cnt_q <= '0;
    end else begin
      cq_rd_q   <= cq_rd_q + CtlW'(ctl_pop);
      cq_wr_q   <= cq_wr_q + CtlW'(n_push);
      ctl_cnt_q <= ctl_cnt_q + (CtlW + 1)'(n_push) - (CtlW + 1)'(ctl_pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (p_a_q)    cq_q[cq_wr_q] <= to_ent(q_a_pkt);
    if (p_b_q)    cq_q[wa_b]    <= to_ent(q_b_pkt);
    if (p_sc_q)   cq_q[wa_s]    <= to_ent(p_sc_pkt_q);
    if (pace_pop) cq_q[wa_p]    <= to_ent(pl_pkt);
  end

  // ---------------------------------------------------------------------
  // Registered decision and completion outputs (from stage 1); counters
  // (from stage 2, ctl_sent from the pop).
  rx_stats_t st_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      dlv_valid_o  <= 1'b0;
      done_valid_o <= 1'b0;
      st_q         <= '0;
    end else begin
      dlv_valid_o  <= dlv_v_d;
      done_valid_o <= done_d;
      st_q.unknown   <= st_q.unknown   + 32'(p_unknown_q);
      st_q.zombie    <= st_q.zombie    + 32'(p_zombie_q);
      st_q.duplicate <= st_q.duplicate + 32'(p_dup_q);
      st_q.beyond    <= st_q.beyond    + 32'(p_beyond_q);
      st_q.trimmed   <= st_q.trimmed   + 32'(p_trim_q);
      st_q.gbn_drop  <= st_q.gbn_drop  + 32'(p_gbn_q);
      st_q.nack_supp <= st_q.nack_supp + 32'(p_nsupp_q);
      st_q.cnp_supp  <= st_q.cnp_supp  + 32'(p_csupp_q);
      st_q.resends   <= st_q.resends   + 32'(p_resend1_q) + 32'(p_resend2_q);
      st_q.gobacks   <= st_q.gobacks   + 32'(p_goback_q);
      st_q.completed <= st_q.completed + 32'(p_done_q);
      st_q.ctl_sent  <= st_q.ctl_sent  + 32'(ctl_pop);
    end
  end
  always_ff @(posedge clk_i) begin
    dlv_o       <= dlv_d;
    done_flow_o <= s1_d_q.flow;
  end
  assign stats_o = st_q;

  // The pacer never refuses a push (data_ready_o keeps room); past_end
  // needs only the sign of idx - end_idx.
  logic unused;
  assign unused = pace_push_ok ^ (^s1_c_q.flow) ^ (^s1_d_q.txid) ^ s1_d_q.last ^ (^from_end[30:0]);
endmodule

`default_nettype wire
