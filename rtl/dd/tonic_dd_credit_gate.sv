// SPDX-License-Identifier: Apache-2.0
// tonic_dd_credit_gate: the DD engine's credit gate (permits per segment for the rate and token schemes).
//
// permits = granted - used (mod 2^16, always 0..65535): used has one
// writer, next-seg (+1 per segment); granted one, the grant stage. ADD
// clears both (granted reads TokensInit, used 0).
// Grant stage (g_q, one per cycle): rate: permits from tonic_rate_credit;
// token: incoming stage 2 (an RxPull adds P - pull when P is after pull,
// serial 16 bits, plus the protocol's tokens) or periodic (its tokens),
// stage 2 first (a periodic call that would collide is cancelled by
// tonic_dd_periodic). An add is cut so that permits stay <= 65535
// (counted). The flow goes back to the active set with every grant (a flow
// with nothing to send is dropped again at its pop).
// Rate scheme: ADD initialises the flow's credit in the rate cell (ADD
// waits while its queue is full, in tonic_dd_control); new rates and
// permit requests leave registered. Every grant is passed on to the CR
// engine's wire gate (gate_*_o, registered), so the permits there equal
// this flow's permits plus its addresses not yet released. A grant with
// rc_grant_set_i (the rate cell's INIT, or a rate cut with rc_grant_cut_i)
// is a revocation: passed on, it sets the gate's permits to 0; for a cut
// the gate hands the permits it voided back (void_*_i), and they are
// subtracted here (`voided`, one writer: the void port), which leaves the
// permits at minus the addresses still queued: a debt that the next grants
// pay first. With WireGate the permits are a signed count,
// granted - used - voided; a flow generates only with permits > 0.
// Token scheme with WireGate (TONIC_TOKEN_SET): a protocol's token write
// with tokens_set is a revocation too: the grant stage passes it on as a
// set to its count (the gate sets W to it and hands the old W back), adds
// the count to granted, and the handback is subtracted: the permits become
// the count minus the addresses still queued. The permit counters are
// then 17 bits (a signed count; the cap stays 65535, a set's count too; a
// cut is counted, tok_excess). Without WireGate a set is an add. With the window scheme the gate is empty:
// every segment has a permit.
`default_nettype none

/// Credit gate of the DD engine.
module tonic_dd_credit_gate
  import tonic_dd_pkg::*;
#(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// The protocol's credit scheme.
  parameter credit_e CreditScheme = CreditWindow,
  /// Permits of a newly added flow (token scheme; <= 65535).
  parameter int unsigned TokensInit = 0,
  /// Not 0: the CR engine's wire gate is on (voided permits are kept; token
  /// sets are revocations). tonic_top sets it.
  parameter int unsigned WireGate = 0,
  /// tonic_state_ram's SimModel: 0 structural, 1 behavioural (Verilator only).
  parameter int unsigned SimRam = 0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  /// Clock.
  input  wire logic            clk_i,
  /// Synchronous reset, active high.
  input  wire logic            rst_i,
  /// Control adds ...
  input  wire logic            ctrl_add_i,
  /// ... this flow ...
  input  wire logic [IdW-1:0]  ctrl_flow_i,
  /// ... with this segment size.
  input  wire logic [LenW-1:0] ctrl_len_i,
  /// Next-seg's flow of this cycle.
  input  wire logic [IdW-1:0]  ns_flow_i,
  /// Next-seg's flow of the next cycle (read address).
  input  wire logic [IdW-1:0]  ns_flow_d_i,
  /// Next-seg generates a segment (uses a permit).
  input  wire logic            ns_fire_i,
  /// Next-seg could send but for the permit.
  input  wire logic            ns_want_i,
  /// Incoming stage 2 writes rate or tokens this cycle.
  input  wire logic            in2_cred_i,
  /// Incoming stage 2's flow.
  input  wire logic [IdW-1:0]  in2_flow_i,
  /// Incoming stage 2 writes a new rate ...
  input  wire logic            in2_rate_we_i,
  /// ... this one.
  input  wire logic [31:0]     in2_rate_i,
  /// Stage 2's protocol tokens.
  input  wire logic [15:0]     in2_tokens_i,
  /// ... which set the flow's credit (token revocation, with WireGate).
  input  wire logic            in2_tokens_set_i,
  /// Stage 2's event is an RxPull ...
  input  wire logic            in2_pull_i,
  /// ... with this cumulative pull number.
  input  wire logic [15:0]     in2_grant_i,
  /// Periodic calls the protocol this cycle ...
  input  wire logic            per_call_i,
  /// ... for this flow.
  input  wire logic [IdW-1:0]  per_flow_i,
  /// Periodic's protocol writes a new rate ...
  input  wire logic            per_rate_we_i,
  /// ... this one.
  input  wire logic [31:0]     per_rate_i,
  /// Periodic's protocol adds tokens ...
  input  wire logic            per_tokens_we_i,
  /// ... this many.
  input  wire logic [15:0]     per_tokens_i,
  /// ... which set the flow's credit (token revocation, with WireGate).
  input  wire logic            per_tokens_set_i,
  /// A periodic call was cancelled by a credit clash (counted).
  input  wire logic            per_cancelled_i,
  /// Next-seg's flow holds a permit.
  output logic                 credit_ok_o,
  /// ... and another one after this segment.
  output logic                 credit_more_o,
  /// Active-set insert: a grant ...
  output logic                 ins_o,
  /// ... for this flow (also the status flow of pull_stale_o / tok_excess_o).
  output logic [IdW-1:0]       ins_flow_o,
  /// A stale pull number (token; counted, reported).
  output logic                 pull_stale_o,
  /// An add cut at 65535 permits (counted, reported).
  output logic                 tok_excess_o,
  /// Rate: ADD initialises the flow's credit.
  output logic                 rc_init_valid_o,
  /// Its flow.
  output logic [IdW-1:0]       rc_init_flow_o,
  /// The flow's segment size.
  output logic [LenW-1:0]      rc_init_len_o,
  /// Rate: a protocol's new rate (registered).
  output logic                 rc_upd_valid_o,
  /// Its flow.
  output logic [IdW-1:0]       rc_upd_flow_o,
  /// The rate.
  output logic [31:0]          rc_upd_rate_o,
  /// Rate: the flow asks for permits (registered).
  output logic                 rc_req_valid_o,
  /// Its flow.
  output logic [IdW-1:0]       rc_req_flow_o,
  /// Rate: permits granted ...
  input  wire logic            rc_grant_valid_i,
  /// ... to this flow ...
  input  wire logic [IdW-1:0]  rc_grant_flow_i,
  /// ... this many ...
  input  wire logic [4:0]      rc_grant_cnt_i,
  /// ... or a revocation (the count is 0) ...
  input  wire logic            rc_grant_set_i,
  /// ... for a cut (the wire gate hands the voided permits back).
  input  wire logic            rc_grant_cut_i,
  /// The wire gate voided permits of a flow (a rate cut, a token set) ...
  input  wire logic            void_valid_i,
  /// ... of this flow ...
  input  wire logic [IdW-1:0]  void_flow_i,
  /// ... this many.
  input  wire logic [16:0]     void_cnt_i,
  /// Wire gate (CR engine): this cycle's grant or revocation ...
  output logic                 gate_valid_o,
  /// ... sets instead of adding ...
  output logic                 gate_set_o,
  /// ... and hands the voided permits back (void_*_i) ...
  output logic                 gate_void_o,
  /// ... for this flow ...
  output logic [IdW-1:0]       gate_flow_o,
  /// ... this many permits.
  output logic [15:0]          gate_cnt_o,
  /// Credit counters (rate_* fields are the rate cell's, filled in by the top).
  output credit_stats_t        credit_stats_o
);
  localparam bit CreditOn = CreditScheme != CreditWindow;
  localparam bit RateOn   = CreditScheme == CreditRate;
  /// Voided permits are kept (the gate hands them back).
  localparam bit VoidOn   = CreditOn && WireGate != 0;
  /// Token sets are revocations.
  localparam bit TokSet   = CreditScheme == CreditToken && WireGate != 0;
  /// Permits are a signed count (a revocation leaves a debt).
  localparam bit SignedOn = RateOn || VoidOn;
  /// Width of the permit counters: 17 with token sets (a signed count up to
  /// the token cap, 65535), 16 otherwise.
  localparam int unsigned PW = TokSet ? 17 : 16;
  /// Rate: a fire that leaves at most LowMark permits asks for more.
  localparam int unsigned LowMark = 12;

  typedef logic [IdW-1:0] flow_t;
  typedef logic [PW-1:0]  perm_t;
  typedef struct packed {
    logic        valid;
    flow_t       flow;
    logic [16:0] add;       // tokens or permits to add (before the cut)
    logic        revoke;    // a revocation (passed on to the wire gate)
    logic        cut;       // ... which hands the voided permits back (a rate cut, a token set)
    logic        pull_we;   // an RxPull: pull carries its cumulative number
    logic [15:0] pull;
  } grant_t;
  grant_t g_q, g_d;
  credit_stats_t cstats_q, cstats_d;
  logic   n_park;           // next-seg found the flow without a permit
  logic   n_perm_high;      // ... more than LowMark permits after this segment
  logic   g_stale, g_excess;

  if (CreditOn) begin : g_credit
    perm_t granted_n, used_n, granted_g, used_g, n_perm;
    logic [15:0] pull_g, g_delta, g_add;
    perm_t g_wd;            // granted after the grant stage's write (both copies)
    perm_t voided_n, voided_v, voided_g;  // permits voided by revocations
    logic  g_after, g_cut;
    logic [16:0] g_total, g_room;
    logic  used_we;
    // granted: next-seg's copy (registered, ns_flow_d_i) and the grant
    // stage's (combinational, g_q.flow).
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(1),
                      .Clear(1), .Init(PW'(TokensInit))) u_granted_n (
      .clk_i(clk_i), .we_i(g_q.valid), .waddr_i(g_q.flow), .wdata_i(g_wd),
      .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(ns_flow_d_i), .rdata_o(granted_n));
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(0),
                      .Clear(1), .Init(PW'(TokensInit))) u_granted_g (
      .clk_i(clk_i), .we_i(g_q.valid), .waddr_i(g_q.flow), .wdata_i(g_wd),
      .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(g_q.flow), .rdata_o(granted_g));
    assign used_we = ns_fire_i;
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(1),
                      .Clear(1)) u_used_n (
      .clk_i(clk_i), .we_i(used_we), .waddr_i(ns_flow_i), .wdata_i(used_n + PW'(1)),
      .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(ns_flow_d_i), .rdata_o(used_n));
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(0),
                      .Clear(1)) u_used_g (
      .clk_i(clk_i), .we_i(used_we), .waddr_i(ns_flow_i), .wdata_i(used_n + PW'(1)),
      .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(g_q.flow), .rdata_o(used_g));
    // The last cumulative pull number (token scheme).
    tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(16), .Readers(1), .RegRead(0),
                      .Clear(1)) u_pull (
      .clk_i(clk_i), .we_i(g_q.valid && g_q.pull_we && g_after), .waddr_i(g_q.flow),
      .wdata_i(g_q.pull), .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(g_q.flow),
      .rdata_o(pull_g));

    // Permits voided by the wire gate's revocations (one writer, the void
    // port; 0 without the gate).
    if (VoidOn) begin : g_voided
      perm_t voided_wd;
      assign voided_wd = voided_v + PW'(void_cnt_i);
      if (PW < 17) begin : g_void_top
        // W < 2^16 with the rate scheme (at most 44 permits and RingN queued).
        logic unused_void_top;
        assign unused_void_top = void_cnt_i[16];
      end
      tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(1),
                        .Clear(1)) u_voided_n (
        .clk_i(clk_i), .we_i(void_valid_i), .waddr_i(void_flow_i), .wdata_i(voided_wd),
        .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(ns_flow_d_i), .rdata_o(voided_n));
      tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(0),
                        .Clear(1)) u_voided_v (
        .clk_i(clk_i), .we_i(void_valid_i), .waddr_i(void_flow_i), .wdata_i(voided_wd),
        .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(void_flow_i), .rdata_o(voided_v));
      if (TokSet) begin : g_voided_g
        // The grant stage's copy (the token cap reads the permits).
        tonic_state_ram #(.SimModel(SimRam), .Depth(FlowCount), .Width(PW), .Readers(1), .RegRead(0),
                          .Clear(1)) u_voided_g (
          .clk_i(clk_i), .we_i(void_valid_i), .waddr_i(void_flow_i), .wdata_i(voided_wd),
          .clr_i(ctrl_add_i), .clr_addr_i(ctrl_flow_i), .raddr_i(g_q.flow), .rdata_o(voided_g));
      end else begin : g_no_voided_g
        assign voided_g = '0;
      end
    end else begin : g_no_voided
      assign voided_n = '0;
      assign voided_v = '0;
      assign voided_g = '0;
      logic unused_void;
      assign unused_void = ^{void_valid_i, void_flow_i, void_cnt_i, voided_v};
    end
    assign n_perm        = granted_n - used_n - voided_n;
    if (SignedOn) begin : g_signed
      // A signed count (a revocation leaves a debt; |permits| < 2^(PW-1):
      // rate holds at most 44 and 16 bits do, tokens are capped at 65535
      // with 17; at most the addresses generated and not released are owed).
      assign credit_ok_o   = !n_perm[PW-1] && n_perm != '0;
      assign credit_more_o = !n_perm[PW-1] && n_perm > PW'(1);
      assign n_perm_high   = !n_perm[PW-1] && n_perm > perm_t'(LowMark + 1);
    end else begin : g_unsigned
      assign credit_ok_o   = n_perm != '0;
      assign credit_more_o = n_perm != PW'(1);
      assign n_perm_high   = n_perm > perm_t'(LowMark + 1);
    end
    assign n_park        = ns_want_i && !credit_ok_o;

    // Grant stage.
    assign g_delta  = g_q.pull - pull_g;
    assign g_after  = g_q.pull_we && !g_delta[15] && g_delta != '0;
    assign g_total  = g_q.add + (g_after ? 17'(g_delta) : 17'd0);
    assign g_wd     = granted_g + PW'(g_add);
    // Rate: grants are <= 16 and permits stay far below 2^15 (a signed
    // count): no cut. Token: permits <= 65535, a set's count too (with
    // sets the permits read here may still lack a handback in flight: the
    // cut is then conservative, and counted).
    if (TokSet) begin : g_room_signed
      perm_t p_g;
      assign p_g    = granted_g - used_g - voided_g;
      assign g_room = (g_q.revoke || p_g[PW-1]) ? 17'h0ffff : 17'h0ffff - 17'(p_g);
    end else begin : g_room_unsigned
      assign g_room = 17'(16'hffff - (granted_g - used_g));
      logic unused_vg;
      assign unused_vg = ^voided_g;
    end
    assign g_cut    = !RateOn && g_total > g_room;
    assign g_stale  = g_q.valid && g_q.pull_we && !g_after;
    assign g_excess = g_q.valid && g_cut;
    assign g_add    = g_cut ? 16'(g_room) : 16'(g_total);

    if (RateOn) begin : g_rate
      always_comb begin
        g_d       = '0;
        g_d.valid = rc_grant_valid_i;
        g_d.flow  = rc_grant_flow_i;
        g_d.add   = 17'(rc_grant_cnt_i);
        g_d.revoke   = rc_grant_set_i;
        g_d.cut      = rc_grant_cut_i;
      end
      logic unused_tok;
      assign unused_tok = ^{in2_tokens_i, in2_pull_i, in2_grant_i, per_tokens_we_i, per_tokens_i,
                            in2_cred_i, in2_tokens_set_i, per_tokens_set_i};
    end else begin : g_token
      always_comb begin
        g_d = '0;
        if (in2_cred_i) begin
          g_d.valid   = 1'b1;
          g_d.flow    = in2_flow_i;
          g_d.add     = 17'(in2_tokens_i);
          g_d.revoke  = TokSet && in2_tokens_set_i;
          g_d.cut     = TokSet && in2_tokens_set_i;
          g_d.pull_we = in2_pull_i;
          g_d.pull    = in2_grant_i;
        end else if (per_call_i && per_tokens_we_i) begin
          g_d.valid   = 1'b1;
          g_d.flow    = per_flow_i;
          g_d.add     = 17'(per_tokens_i);
          g_d.revoke  = TokSet && per_tokens_set_i;
          g_d.cut     = TokSet && per_tokens_set_i;
        end
      end
      logic unused_rate;
      assign unused_rate = ^{rc_grant_valid_i, rc_grant_flow_i, rc_grant_cnt_i, rc_grant_set_i,
                             rc_grant_cut_i};
    end

    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        g_q.valid <= 1'b0;
      end else begin
        g_q.valid <= g_d.valid;
      end
      g_q.flow    <= g_d.flow;
      g_q.add     <= g_d.add;
      g_q.revoke     <= g_d.revoke;
      g_q.cut        <= g_d.cut;
      g_q.pull_we <= g_d.pull_we;
      g_q.pull    <= g_d.pull;
    end

    // The wire gate sees every grant and revocation one cycle later
    // (nothing without it).
    always_ff @(posedge clk_i) begin
      if (rst_i) begin
        gate_valid_o <= 1'b0;
      end else begin
        gate_valid_o <= g_q.valid && WireGate != 0;
      end
      gate_set_o  <= g_q.revoke;
      gate_void_o <= g_q.revoke && g_q.cut;
      gate_flow_o <= g_q.flow;
      gate_cnt_o  <= g_add;
    end

    always_comb begin
      cstats_d = cstats_q;
      if (g_stale)         cstats_d.pull_stale += 1;
      if (g_excess)        cstats_d.tok_excess += 1;
      if (per_cancelled_i) cstats_d.per_cancelled += 1;
      if (n_park)          cstats_d.parks += 1;
      if (g_q.valid)       cstats_d.permits += 32'(g_add);
    end
  end else begin : g_no_credit
    assign credit_ok_o   = 1'b1;
    assign credit_more_o = 1'b1;
    assign n_perm_high   = 1'b1;
    assign n_park        = 1'b0;
    assign g_d           = '0;
    assign g_q           = '0;
    assign cstats_d      = cstats_q;
    assign g_stale       = 1'b0;
    assign g_excess      = 1'b0;
    assign gate_valid_o  = 1'b0;
    assign gate_set_o    = 1'b0;
    assign gate_void_o   = 1'b0;
    assign gate_flow_o   = '0;
    assign gate_cnt_o    = '0;
    logic unused_credit;
    assign unused_credit = ^{in2_cred_i, in2_tokens_i, in2_pull_i, in2_grant_i, per_tokens_we_i,
                             per_tokens_i, in2_tokens_set_i, per_tokens_set_i, per_cancelled_i, ns_flow_d_i, ns_want_i, rc_grant_valid_i,
                             rc_grant_flow_i, rc_grant_cnt_i, rc_grant_set_i, rc_grant_cut_i,
                             void_valid_i, void_flow_i, void_cnt_i, g_d, g_q};
  end

  assign ins_o        = g_q.valid;
  assign ins_flow_o   = g_q.flow;
  assign pull_stale_o = g_stale;
  assign tok_excess_o = g_excess;

  // Rate scheme: ADD initialises the flow's credit; new rates and permit
  // requests leave registered.
  logic        rc_upd_d, rc_req_d;
  flow_t       rc_upd_flow_d, rc_req_flow_d;
  logic [31:0] rc_upd_rate_d;
  assign rc_init_valid_o = RateOn && ctrl_add_i;
  assign rc_init_flow_o  = ctrl_flow_i;
  assign rc_init_len_o   = ctrl_len_i;
  assign rc_upd_d        = RateOn && (in2_rate_we_i || (per_call_i && per_rate_we_i));
  assign rc_upd_flow_d   = in2_rate_we_i ? in2_flow_i : per_flow_i;
  assign rc_upd_rate_d   = in2_rate_we_i ? in2_rate_i : per_rate_i;
  // A park, or a segment that leaves at most LowMark permits.
  assign rc_req_d        = RateOn && (n_park || (ns_fire_i && !n_perm_high));
  assign rc_req_flow_d   = ns_flow_i;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rc_upd_valid_o <= 1'b0;
      rc_req_valid_o <= 1'b0;
      cstats_q       <= '0;
    end else begin
      rc_upd_valid_o <= rc_upd_d;
      rc_req_valid_o <= rc_req_d;
      cstats_q       <= cstats_d;
    end
    rc_upd_flow_o <= rc_upd_flow_d;
    rc_upd_rate_o <= rc_upd_rate_d;
    rc_req_flow_o <= rc_req_flow_d;
  end
  assign credit_stats_o = cstats_q;
endmodule

`default_nettype wire
