// SPDX-License-Identifier: Apache-2.0
// tonic_rate_credit: the rate scheme's credit state, turned into permits.
//
// Per flow it keeps the rate credit of docs/design/credit-schemes.md: c0
// (credit units, CU = bytes * 2^20) at time t0, the rate R (RU = bytes per
// 2^20 cycles) and the flow's segment size L (bytes), so that the credit at
// time t is
//
//   c(t) = min(c0 + R * min(t - t0, 2^28), (D - H * L) << 20),   D = BurstBytes,
//
// where H is the number of permits the flow holds plus the segments it
// generated that have not left yet: the permits granted (`given`, kept in
// the state word) minus the segments that left (`sent`, counted from the
// CR engine's transmit notify, sent_*). Credit in hand counts against the
// bucket, so a flow never holds more than D bytes of credit in all and no
// burst on the wire exceeds D (before: D plus up to 44 permits and queued
// addresses). H is read in C1 and segments only leave after that, so the
// cell may see H too large (never too small): conservative. A re-added
// flow whose old permits' segments leave after its INIT read `sent` finds
// given - sent below 0 (its 17 bits' top bit set: H is below 2^16 + 32):
// H counts as 0 and the op sets given = sent again.
//
// The DD engine's next-segment processor sends only with a permit (one per
// segment); this cell grants them.
//
// Ops, one per cycle, each on one flow:
//   - INIT (flow add; init_* port, with ready): c0 = 0, t0 = now,
//     R = RateInit, L = init_len_i, given = sent (H = 0: the DD engine adds
//     only an idle flow); a pending wake-up is cancelled.
//   - CHECK (req_* port: the DD engine asks; or the timer's wake-up): the
//     credit is settled at t = now and k permits are granted, k the largest
//     of 16, 8, 4, 2, 1 with k * L bytes <= c(t), else 0; then
//     c0 = c(t) - (k * L << 20), t0 = t, given += k. With k = 0 the flow waits: the
//     wait T >= need / R for need = (L << 20) - c(t) comes from
//     tonic_rate_wait (no divider) and tonic_rate_timer wakes the flow at
//     t + T for another CHECK.
//   - SET RATE (upd_* port: a protocol's rate_o): c0 = c(t), t0 = t at the
//     old rate, then R = the new rate, so credit earned before is neither
//     lost nor counted twice. A flow that is waiting is checked at once with
//     the new rate (granted, or re-armed).
//   - With CutVoids (the protocol's choice, TONIC_RATE_CUT_VOIDS in its
//     user_configs.vh), a cut (SET RATE with a rate below the flow's)
//     revokes the credit in hand instead: c0 = 0, given = sent (H = 0), and a revocation goes out
//     on the grant port (grant_set_o with cut_o, count 0): the CR engine's
//     wire gate sets the flow's permits to 0 and hands the ones it voided
//     back to the DD engine, whose permits become minus the addresses the
//     flow has queued (a debt), so the next segment on the wire waits
//     L / R_new and the queued ones are paid before new ones are made.
//     INIT sends a revocation without cut_o (the wire gate starts at 0
//     permits; nothing to hand back).
// Op priority: INIT, SET RATE, wake-up, request. Requests (the DD
// engine's, and with CutVoids the CR wire gate's holds) form a set (a flow asks at most
// once until it is served: tonic_flow_fifo). Rate updates
// are merged per flow: the latest rate waits in a per-flow register
// (LUTRAM) and the flow in a set like the requests', so none is lost and
// the last one a protocol wrote is the one applied (an update that arrives
// in the cycle its flow's op starts re-queues the flow: the set puts a flow
// popped and inserted in one cycle back at the tail).
//
// Pipeline (5 stages, one op per cycle): C0 select, state read (block RAM);
// C1 t - t0, capped at 2^28, and H = given - sent; C2 R * dt and H * L
// (DSPs); C3 c0 + product, capped at D << 20, and the cap D - H * L in
// bytes; C4 permits (each candidate k checked against both caps side by
// side), state write, grant (grant_* registered, one cycle later), wait
// computation; then 4 cycles of tonic_rate_wait and the arm.
// An op never starts while an op of the same flow is in C1..C4, so each op
// reads the state its predecessor wrote.
//
// Time: now_o, tonic_rate_timer's counter (0 after reset). Ops start once
// the timer has cleared its state (FlowCount cycles after reset; the DD
// engine's own sweep takes as long).
`default_nettype none

module tonic_rate_credit #(
  /// Number of flows; a power of two, 16..65536.
  parameter int unsigned FlowCount = 1024,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// Maximum burst D in bytes (< 2^27).
  parameter int unsigned BurstBytes = 65536,
  /// Rate of a newly added flow (RU).
  parameter int unsigned RateInit = 0,
  /// tonic_rate_timer's slot width 2^SlotShift (cycles).
  parameter int unsigned SlotShift = 2,
  /// 1: a rate cut voids the credit in hand (revocation); 0: a cut settles
  /// like any update (token-bucket semantics: up to D may still leave).
  parameter int unsigned CutVoids = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_i,        // synchronous, active high
  // INIT: flow add (ready low while the queue is full).
  input  wire logic            init_valid_i,
  output logic                 init_ready_o,
  input  wire logic [IdW-1:0]  init_flow_i,
  input  wire logic [LenW-1:0] init_len_i,   // the flow's segment size
  // SET RATE (no ready: merged per flow, the latest rate is applied).
  input  wire logic            upd_valid_i,
  input  wire logic [IdW-1:0]  upd_flow_i,
  input  wire logic [31:0]     upd_rate_i,   // RU
  // CHECK requests (no ready; a request of a flow already asking is merged).
  input  wire logic            req_valid_i,
  input  wire logic [IdW-1:0]  req_flow_i,
  // ... and from the CR engine's wire gate (a flow held there; merged too;
  // only with CutVoids: without it there is no gate and these are unused).
  input  wire logic            hold_valid_i,
  input  wire logic [IdW-1:0]  hold_flow_i,
  // A segment of this flow left the sender (the CR engine's transmit
  // notify, one per cycle at most).
  input  wire logic            sent_valid_i,
  input  wire logic [IdW-1:0]  sent_flow_i,
  // Grants (no ready): grant_cnt_o permits for flow grant_flow_o.
  output logic                 grant_valid_o,
  output logic      [IdW-1:0]  grant_flow_o,
  output logic      [4:0]      grant_cnt_o,
  output logic                 grant_set_o,  // a revocation (INIT, or a cut with cut_o): grant_cnt_o = 0
  // Time and statistics.
  output logic      [31:0]     now_o,
  output logic                 wait_o,       // a flow was armed to wait (pulse)
  output logic                 cut_o         // a cut revoked a flow's credit (with its grant_set_o)
);
  if (BurstBytes == 0 || BurstBytes >= (1 << 27)) begin : g_check_burst
    $fatal(1, "tonic_rate_credit: BurstBytes must be in 1..2^27-1");
  end
  if (LenW < 1 || LenW > 20) begin : g_check_len
    $fatal(1, "tonic_rate_credit: LenW must be in 1..20");
  end

  // Sizes (do not override).
  localparam int unsigned CW = 48;                       // credit (CU)
  localparam logic [CW-1:0] DCap = CW'(BurstBytes) << 20;
  localparam int unsigned DtW = 29;                      // t - t0, capped at 2^28
  localparam int unsigned ProdW = 32 + DtW;
  // given and sent count modulo 2^HW: H never reaches 2^16 + 32 (the DD
  // engine keeps permits <= 65535, its ring holds the rest).
  localparam int unsigned HW = 17;
  localparam int unsigned HlW = HW + LenW;               // H * L (bytes)
  localparam int unsigned DB = 27;                       // bytes of D (< 2^27)

  typedef logic [IdW-1:0] flow_t;
  typedef enum logic [1:0] {
    OpInit  = 2'd0,
    OpCheck = 2'd1,
    OpRate  = 2'd2
  } op_e;

  // Per-flow state (one block-RAM word).
  typedef struct packed {
    logic [CW-1:0]   c0;
    logic [31:0]     t0;
    logic [31:0]     rate;
    logic [LenW-1:0] len;
    logic [HW-1:0]   given;     // permits granted since INIT (mod 2^HW, from sent at INIT)
    logic            waiting;   // armed in the timer (a CHECK found too little)
  } st_t;

  // An op in flight.
  typedef struct packed {
    logic        valid;
    op_e         op;
    flow_t       flow;
    logic [31:0] arg;       // OpRate: the new rate; OpInit: the length
    logic [31:0] now;       // the time the credit is settled at (C0's now)
  } op_t;

  // ---------------------------------------------------------------------
  // Timer (time base and wake-ups).
  logic        tm_init_done;
  logic        tm_arm_valid, tm_arm_cancel;
  flow_t       tm_arm_flow;
  logic [31:0] tm_arm_time;
  logic        tm_rel_valid, tm_rel_ready;
  flow_t       tm_rel_flow;
  logic        tm_hint_drop_unused;

  // The fewest slots the timer accepts: SlotCount * 2^SlotShift >=
  // 2 * FlowCount + 4 * 2^SlotShift + 16.
  localparam int unsigned SlotCount = 1 << $clog2(((2 * FlowCount + 16) >> SlotShift) + 4);
  tonic_rate_timer #(
    .FlowCount(FlowCount),
    .SlotShift(SlotShift),
    .SlotCount(SlotCount),
    .NearNodes(FlowCount),
    .FarNodes (FlowCount)
  ) u_timer (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .now_init_i  ('0),
    .now_o       (now_o),
    .init_done_o (tm_init_done),
    .arm_valid_i (tm_arm_valid),
    .arm_cancel_i(tm_arm_cancel),
    .arm_flow_i  (tm_arm_flow),
    .arm_time_i  (tm_arm_time),
    .rel_valid_o (tm_rel_valid),
    .rel_ready_i (tm_rel_ready),
    .rel_flow_o  (tm_rel_flow),
    .hint_drop_o (tm_hint_drop_unused)
  );

  // ---------------------------------------------------------------------
  // Input queues.
  logic              in_valid, in_pop;
  flow_t             in_flow;
  logic [LenW-1:0]   in_len;
  logic [2:0]        in_cnt;
  logic              in_push_ok_unused;
  tonic_small_fifo #(
    .Width(IdW + LenW),
    .Depth(4)
  ) u_init_q (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .push_i     (init_valid_i && init_ready_o),
    .data_i     ({init_flow_i, init_len_i}),
    .push_ok_o  (in_push_ok_unused),
    .out_valid_o(in_valid),
    .out_ready_i(in_pop),
    .out_data_o ({in_flow, in_len}),
    .count_o    (in_cnt)
  );
  assign init_ready_o = in_cnt != 3'd4;

  // Rate updates: the latest rate per flow, and the set of flows with one
  // pending.
  logic [31:0]  pend_rate [FlowCount];
  logic         up_valid, up_pop;
  flow_t        up_flow;
  logic [31:0]  up_rate;
  logic         up_nxt_valid_unused;
  flow_t        up_nxt_id_unused;
  logic [IdW:0] up_count_unused;
  always_ff @(posedge clk_i) begin
    if (upd_valid_i) begin
      pend_rate[upd_flow_i] <= upd_rate_i;
    end
  end
  tonic_flow_fifo #(
    .FlowCount (FlowCount),
    .WritePorts(2)
  ) u_upd_set (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .ins_valid_i({1'b0, upd_valid_i}),
    .ins_id_i   ({upd_flow_i, upd_flow_i}),
    .out_valid_o(up_valid),
    .out_ready_i(up_pop),
    .out_id_o   (up_flow),
    .nxt_valid_o(up_nxt_valid_unused),
    .nxt_id_o   (up_nxt_id_unused),
    .count_o    (up_count_unused)
  );
  assign up_rate = pend_rate[up_flow];

  logic           rq_valid, rq_pop;
  flow_t          rq_flow;
  logic           rq_nxt_valid_unused;
  flow_t          rq_nxt_id_unused;
  logic [IdW:0]   rq_count_unused;
  // The wire gate's holds take the second insert port (there is a gate
  // only with CutVoids).
  tonic_flow_fifo #(
    .FlowCount (FlowCount),
    .WritePorts(2)
  ) u_req (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .ins_valid_i({hold_valid_i && CutVoids != 0, req_valid_i}),
    .ins_id_i   ({hold_flow_i, req_flow_i}),
    .out_valid_o(rq_valid),
    .out_ready_i(rq_pop),
    .out_id_o   (rq_flow),
    .nxt_valid_o(rq_nxt_valid_unused),
    .nxt_id_o   (rq_nxt_id_unused),
    .count_o    (rq_count_unused)
  );

  // ---------------------------------------------------------------------
  // C0: pick the op. An op whose flow is in C1..C4 waits.
  op_t c1_q, c2_q, c3_q, c4_q, c0;
  function automatic logic busy(flow_t g);
    return (c1_q.valid && c1_q.flow == g) || (c2_q.valid && c2_q.flow == g)
        || (c3_q.valid && c3_q.flow == g) || (c4_q.valid && c4_q.flow == g);
  endfunction

  logic go_in, go_up, go_tm, go_rq;
  assign go_in = tm_init_done && in_valid && !busy(in_flow);
  assign go_up = tm_init_done && !go_in && up_valid && !busy(up_flow);
  assign go_tm = tm_init_done && !go_in && !go_up && tm_rel_valid && !busy(tm_rel_flow);
  assign go_rq = tm_init_done && !go_in && !go_up && !go_tm && rq_valid && !busy(rq_flow);
  assign in_pop       = go_in;
  assign up_pop       = go_up;
  assign tm_rel_ready = go_tm;
  assign rq_pop       = go_rq;

  always_comb begin
    c0       = '0;
    c0.valid = go_in || go_up || go_tm || go_rq;
    c0.now   = now_o;
    if (go_in) begin
      c0.op   = OpInit;
      c0.flow = in_flow;
      c0.arg  = 32'(in_len);
    end else if (go_up) begin
      c0.op   = OpRate;
      c0.flow = up_flow;
      c0.arg  = up_rate;
    end else begin
      c0.op   = OpCheck;
      c0.flow = go_tm ? tm_rel_flow : rq_flow;
    end
  end

  // State memory: read in C0 (data in C1), written in C4.
  st_t  st1, st_wd;
  logic st_we;
  tonic_ram_1w1r #(
    .Depth(FlowCount),
    .Width($bits(st_t))
  ) u_state (
    .clk_i    (clk_i),
    .wr_en_i  (st_we),
    .wr_addr_i(c4_q.flow),
    .wr_data_i(st_wd),
    .rd_en_i  (1'b1),
    .rd_addr_i(c0.flow),
    .rd_data_o(st1)
  );

  // Segments that left, per flow (one writer: the transmit notify; LUTRAM,
  // no reset: INIT sets given from it, so H starts at 0).
  logic [HW-1:0] sent_cnt [FlowCount];
  always_ff @(posedge clk_i) begin
    if (sent_valid_i) begin
      sent_cnt[sent_flow_i] <= sent_cnt[sent_flow_i] + 1'b1;
    end
  end

  // C1: elapsed time, capped; H.
  logic [31:0]    dt1;
  logic [DtW-1:0] dt1_cap;
  logic [HW-1:0]  sent1, diff1, held1;
  logic           behind1;
  assign dt1     = c1_q.now - st1.t0;
  assign dt1_cap = (dt1[31:28] != '0) ? DtW'(1 << 28) : DtW'(dt1);
  assign sent1   = sent_cnt[c1_q.flow];
  // given - sent below 0: segments of permits granted before the flow's
  // last INIT left after INIT read sent (a re-added flow). H is then 0 and
  // C4 sets given = sent again.
  assign diff1   = st1.given - sent1;
  assign behind1 = diff1[HW-1];
  assign held1   = behind1 ? '0 : diff1;

  st_t            st2_q, st3_q, st4_q;
  logic [DtW-1:0] dt2_q;
  logic [ProdW-1:0] prod3_q;
  logic [CW:0]    room3_q;  // (D << 20) - c0, in parallel with the multiply
  logic [CW-1:0]  c4c_q;    // c(t), capped
  logic [HW-1:0]  held2_q, sent2_q, sent3_q, sent4_q;
  logic           behind2_q, behind3_q, behind4_q;
  logic [HlW-1:0] hl3_q;    // H * L bytes
  logic [DB-1:0]  capb4_q;  // D - H * L bytes, 0 when H * L >= D
  logic           cut3_q, cut4_q;  // a SET RATE below the old rate (C2's compare)

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      c1_q.valid <= 1'b0;
      c2_q.valid <= 1'b0;
      c3_q.valid <= 1'b0;
      c4_q.valid <= 1'b0;
    end else begin
      c1_q.valid <= c0.valid;
      c2_q.valid <= c1_q.valid;
      c3_q.valid <= c2_q.valid;
      c4_q.valid <= c3_q.valid;
    end
    {c1_q.op, c1_q.flow, c1_q.arg, c1_q.now} <= {c0.op, c0.flow, c0.arg, c0.now};
    {c2_q.op, c2_q.flow, c2_q.arg, c2_q.now} <= {c1_q.op, c1_q.flow, c1_q.arg, c1_q.now};
    {c3_q.op, c3_q.flow, c3_q.arg, c3_q.now} <= {c2_q.op, c2_q.flow, c2_q.arg, c2_q.now};
    {c4_q.op, c4_q.flow, c4_q.arg, c4_q.now} <= {c3_q.op, c3_q.flow, c3_q.arg, c3_q.now};
    st2_q   <= st1;
    dt2_q   <= dt1_cap;
    // C2: the product (a DSP multiply).
    st3_q   <= st2_q;
    prod3_q <= ProdW'(st2_q.rate) * ProdW'(dt2_q);
    held2_q <= held1;
    sent2_q <= sent1;
    behind2_q <= behind1;
    behind3_q <= behind2_q;
    behind4_q <= behind3_q;
    cut3_q  <= (CutVoids != 0) && c2_q.op == OpRate && c2_q.arg < st2_q.rate;
    cut4_q  <= cut3_q;
    hl3_q   <= HlW'(held2_q) * HlW'(st2_q.len);
    sent3_q <= sent2_q;
    sent4_q <= sent3_q;
    // A cut: no credit, nothing held (H = 0).
    capb4_q <= cut3_q ? DB'(BurstBytes)
             : (hl3_q >= HlW'(BurstBytes)) ? '0 : DB'(HlW'(BurstBytes) - hl3_q);
    room3_q <= {1'b0, DCap} - {1'b0, st2_q.c0};
    // C3: the credit, capped at D: c0 + product >= D << 20 iff the product
    // reaches the room left (two carry chains side by side, not in a row).
    // A c0 above the cap (only from an older, larger D) caps too.
    st4_q   <= st3_q;
    c4c_q   <= cut3_q ? '0
             : (room3_q[CW] || prod3_q >= ProdW'(room3_q)) ? DCap : st3_q.c0 + CW'(prod3_q);
  end

  // C4: permits; the state write. The whole bytes of credit minus L << j
  // for the five candidates side by side: the borrow says whether k = 2^j
  // fits, and the difference is the new c0's byte part (its low 20 bits,
  // the fraction, do not change).
  localparam int unsigned CbW = CW - 20;
  logic [CbW-1:0]  cb;          // whole bytes of credit
  logic [4:0]      fits;        // fits[j]: (L << j) bytes fit, under both caps
  logic [CbW:0]    left [5];    // cb - (L << j), with the borrow on top
  logic [DB:0]     leftb [5];   // capb - (L << j), with the borrow on top
  logic            by_held;     // the cap D - H * L is below c(t): it binds
  logic [CW-1:0]   ceff;        // c(t) under both caps
  logic [4:0]      k;
  logic            grant_ok;    // this op may grant
  logic            k_zero;
  logic [31:0]     rate4;       // the rate after this op
  assign cb      = c4c_q[CW-1:20];
  assign by_held = CbW'(capb4_q) < cb;
  assign ceff    = by_held ? CW'(capb4_q) << 20 : c4c_q;
  for (genvar j = 0; j < 5; j++) begin : g_fits
    assign left[j]  = {1'b0, cb} - ((CbW + 1)'(st4_q.len) << j);
    assign leftb[j] = {1'b0, capb4_q} - ((DB + 1)'(st4_q.len) << j);
    assign fits[j]  = !left[j][CbW] && !leftb[j][DB];
  end
  logic [2:0] jsel;            // k = 2^jsel unless k_zero
  always_comb begin
    jsel = '0;
    for (int unsigned j = 0; j < 5; j++) begin
      if (fits[j]) jsel = 3'(j);
    end
  end
  assign k = fits[0] ? 5'(1 << jsel) : '0;
  assign grant_ok = c4_q.op == OpCheck || (c4_q.op == OpRate && st4_q.waiting);
  assign k_zero   = !fits[0];        // not even one segment fits
  assign rate4    = (c4_q.op == OpRate) ? c4_q.arg : st4_q.rate;

  // given + k for the five candidates side by side (an adder after the
  // choice of k cost two levels).
  logic [HW-1:0] given4, given4_k [5];
  assign given4 = (behind4_q || cut4_q) ? sent4_q : st4_q.given;
  for (genvar j = 0; j < 5; j++) begin : g_given
    assign given4_k[j] = given4 + HW'(1 << j);
  end

  assign st_we = c4_q.valid;
  always_comb begin
    st_wd = st4_q;
    if (c4_q.op == OpInit) begin
      st_wd.c0      = '0;
      st_wd.t0      = c4_q.now;
      st_wd.rate    = 32'(RateInit);
      st_wd.len     = LenW'(c4_q.arg);
      st_wd.given   = sent4_q;
      st_wd.waiting = 1'b0;
    end else begin
      // Capped by H: the credit is exactly D - H * L bytes (no fraction).
      st_wd.c0      = !(grant_ok && !k_zero) ? ceff
                    : by_held ? CW'(leftb[jsel][DB-1:0]) << 20
                    : {left[jsel][CbW-1:0], c4c_q[19:0]};
      st_wd.t0      = c4_q.now;
      st_wd.rate    = rate4;
      st_wd.given   = (grant_ok && !k_zero) ? given4_k[jsel] : given4;
      st_wd.waiting = grant_ok ? k_zero : st4_q.waiting;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      grant_valid_o <= 1'b0;
      cut_o         <= 1'b0;
    end else begin
      grant_valid_o <= c4_q.valid && ((grant_ok && !k_zero) || cut4_q || c4_q.op == OpInit);
      cut_o         <= c4_q.valid && cut4_q;
    end
    grant_flow_o <= c4_q.flow;
    grant_cnt_o  <= (c4_q.op == OpInit) ? '0 : k;
    grant_set_o  <= cut4_q || c4_q.op == OpInit;
  end

  // The wait: need = (L << 20) - c(t) under both caps (< L << 20 when
  // k = 0; with H binding, about the time one held segment takes at R), in
  // tonic_rate_wait; a grant to a waiting flow and an INIT cancel the
  // wake-up instead. Both reach the timer through the same 4-cycle delay,
  // so its commands stay in op order.
  logic        w_arm, w_cancel;
  logic [CW-1:0] need4, need4_c, need4_h;
  logic [CbW-1:0] needb4_h;   // bytes: L - (D - H * L) when that cap binds
  // Both needs side by side; the compare that says which cap binds only
  // chooses (a subtraction after the choice cost two levels).
  assign need4_c  = (CW'(st4_q.len) << 20) - c4c_q;
  assign needb4_h = CbW'(st4_q.len) - CbW'(capb4_q);
  assign need4_h  = {needb4_h, 20'd0};
  assign need4    = by_held ? need4_h : need4_c;
  assign w_arm    = c4_q.valid && grant_ok && k_zero;
  assign w_cancel = c4_q.valid && st4_q.waiting && (c4_q.op == OpInit || (grant_ok && !k_zero));
  assign wait_o   = w_arm;

  logic        rw_valid_unused;
  logic [31:0] rw_wait;
  tonic_rate_wait #(
    .NeedW(CW),
    .TimeW(32)
  ) u_wait (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .valid_i(w_arm),
    .need_i (need4),
    .rate_i (rate4),
    .valid_o(rw_valid_unused),
    .wait_o (rw_wait)
  );

  typedef struct packed {
    logic        valid;
    logic        cancel;
    flow_t       flow;
    logic [31:0] now;
  } cmd_t;
  cmd_t [3:0] cmd_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cmd_q <= '0;
    end else begin
      cmd_q[0] <= '{valid: w_arm || w_cancel, cancel: !w_arm, flow: c4_q.flow, now: c4_q.now};
      cmd_q[3:1] <= cmd_q[2:0];
    end
  end
  assign tm_arm_valid  = cmd_q[3].valid;
  assign tm_arm_cancel = cmd_q[3].cancel;
  assign tm_arm_flow   = cmd_q[3].flow;
  assign tm_arm_time   = cmd_q[3].now + rw_wait;
endmodule

`default_nettype wire
