// SPDX-License-Identifier: Apache-2.0
// tonic_dd_control: the DD engine's host control processor (ADD / POST / REMOVE) and the init sweep.
//
// The op is registered at the input and executes from that register, so no
// input feeds the state reads: present, posted, wnd_start and the
// outstanding counters of the held op's flow are registered reads addressed
// with flow_d_o, the flow held in the next cycle. An ADD of a flow that is
// being re-added waits until its ring is drained and no rx event of it is
// in flight (a registered and conservative compare). An op also waits while
// periodic's registered active-set insert uses the shared insert port.
// Bad ops are ignored and reported (err_o, one cause per op).
//
// After reset the init sweep writes present = 0 for every flow id
// (FlowCount cycles, ctrl_ready_o low; LUTRAM has no reset); init_ptr_o is
// the id being swept, for the outstanding counters' writers.
`default_nettype none

/// Host control ops of the DD engine, and the init sweep.
module tonic_dd_control
  import tonic_dd_pkg::*;
#(
  /// Number of flows (a power of two >= 4).
  parameter int unsigned FlowCount = 1024,
  /// Width of segment lengths (bytes).
  parameter int unsigned LenW = 16,
  /// Width of the outstanding counters (mod 2 RingN).
  parameter int unsigned PtrW = 5,
  /// 1: rate credit scheme (ADD waits for the rate cell's init port).
  parameter bit RateOn = 1'b0,
  /// Flow id width (do not override).
  localparam int unsigned IdW = $clog2(FlowCount)
) (
  /// Clock.
  input  wire logic            clk_i,
  /// Synchronous reset, active high.
  input  wire logic            rst_i,
  /// Host op valid.
  input  wire logic            ctrl_valid_i,
  /// Host op accepted.
  output logic                 ctrl_ready_o,
  /// Host op code.
  input  wire ctrl_op_e        ctrl_op_i,
  /// Host op's flow id (ids >= FlowCount: counted, ignored).
  input  wire flow_id_t        ctrl_flow_i,
  /// ADD: first segment; POST: one past the last posted.
  input  wire seq_t            ctrl_seq_i,
  /// ADD: segment size; POST: length of the last posted.
  input  wire logic [LenW-1:0] ctrl_len_i,
  /// The rx input is valid (for the in-flight check of an ADD).
  input  wire logic            rx_valid_i,
  /// The rx input's flow id.
  input  wire flow_id_t        rx_flow_i,
  /// Incoming stage 1 holds a valid event ...
  input  wire logic            in1_valid_i,
  /// ... of this flow.
  input  wire logic [IdW-1:0]  in1_flow_i,
  /// Periodic's registered active-set insert takes the shared port this cycle.
  input  wire logic            per_ins_i,
  /// Rate scheme: the rate cell takes an init (ADD).
  input  wire logic            rc_init_ready_i,
  /// present of the held op's flow (state bank, registered read).
  input  wire logic            present_i,
  /// posted of the held op's flow.
  input  wire seq_t            posted_i,
  /// wnd_start of the held op's flow.
  input  wire seq_t            start_i,
  /// Generated counter of the held op's flow.
  input  wire logic [PtrW-1:0] gen_i,
  /// Transmitted counter of the held op's flow.
  input  wire logic [PtrW-1:0] tx_i,
  /// The init sweep runs (no op executes, LUTRAM words undefined).
  output logic                 init_o,
  /// The flow id the init sweep writes this cycle.
  output logic [IdW-1:0]       init_ptr_o,
  /// An op is held (valid, executing or not).
  output logic                 held_o,
  /// The held op's flow (its low bits if out of range).
  output logic [IdW-1:0]       flow_o,
  /// The flow held in the next cycle (the state bank's read address).
  output logic [IdW-1:0]       flow_d_o,
  /// The held op's flow id as given (status only).
  output flow_id_t             id_o,
  /// The held op's sequence number.
  output seq_t                 seq_o,
  /// The held op's length.
  output logic [LenW-1:0]      len_o,
  /// An in-range ADD is held: next-seg waits and lends its ports.
  output logic                 add_held_o,
  /// ADD executes this cycle (flow flow_o).
  output logic                 add_o,
  /// POST executes this cycle.
  output logic                 post_o,
  /// REMOVE executes this cycle.
  output logic                 remove_o,
  /// The op executes and is ignored (counted).
  output logic                 bad_o,
  /// The cause of an ignored op (and REMOVE with unacked data, executed).
  output ctrl_err_e            err_o,
  /// present write enable (ADD, REMOVE, init sweep).
  output logic                 present_we_o,
  /// present write address.
  output logic [IdW-1:0]       present_wa_o,
  /// present write data.
  output logic                 present_wd_o,
  /// posted / last-length write enable (ADD, POST).
  output logic                 posted_we_o,
  /// Segment-size write enable (ADD).
  output logic                 seg_size_we_o
);
  typedef logic [IdW-1:0] flow_t;

  // A flow id of the ctrl / rx inputs names a flow of this engine.
  function automatic logic id_ok(flow_id_t id);
    return 32'(id) < FlowCount;
  endfunction

  // The held op (registered at the input).
  typedef struct packed {
    logic            valid;
    logic            range_bad;  // the flow id was >= FlowCount (flow: its low bits)
    ctrl_op_e        op;
    flow_t           flow;
    seq_t            seq;
    logic [LenW-1:0] len;
  } ctrl_ev_t;
  ctrl_ev_t ctrl_q, ctrl_d;
  flow_id_t ctrl_id_q, ctrl_id_d;
  logic     busy_q, busy_d;     // an rx event of the held op's flow may be in flight
  logic     init_q, init_d;
  flow_t    init_ptr_q, init_ptr_d;

  logic  fire, stall;
  flow_t cf, cf_d, rx_fid;
  assign cf     = ctrl_q.flow;
  assign rx_fid = flow_t'(rx_flow_i);

  // Init sweep after reset (LUTRAM has no reset).
  always_comb begin
    init_d     = init_q;
    init_ptr_d = init_ptr_q;
    if (init_q) begin
      init_d     = init_ptr_q != flow_t'(FlowCount - 1);
      init_ptr_d = init_ptr_q + flow_t'(1);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      init_q     <= 1'b1;
      init_ptr_q <= '0;
    end else begin
      init_q     <= init_d;
      init_ptr_q <= init_ptr_d;
    end
  end

  // The op register loads whenever an op may be accepted.
  always_comb begin
    ctrl_d    = ctrl_q;
    ctrl_id_d = ctrl_id_q;
    if (ctrl_ready_o) begin
      ctrl_d.valid     = ctrl_valid_i;
      ctrl_d.range_bad = !id_ok(ctrl_flow_i);
      ctrl_id_d        = ctrl_flow_i;
      ctrl_d.op        = ctrl_op_i;
      ctrl_d.flow      = flow_t'(ctrl_flow_i);
      ctrl_d.seq       = ctrl_seq_i;
      ctrl_d.len       = ctrl_len_i;
    end
    busy_d = (in1_valid_i && in1_flow_i == cf_d) || (rx_valid_i && id_ok(rx_flow_i) && rx_fid == cf_d);
  end
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ctrl_q.valid <= 1'b0;
    end else begin
      ctrl_q.valid <= ctrl_d.valid;
    end
    ctrl_q.range_bad <= ctrl_d.range_bad;
    ctrl_q.op        <= ctrl_d.op;
    ctrl_q.flow      <= ctrl_d.flow;
    ctrl_q.seq       <= ctrl_d.seq;
    ctrl_q.len       <= ctrl_d.len;
    ctrl_id_q        <= ctrl_id_d;
    busy_q           <= busy_d;
  end

  assign cf_d         = (ctrl_q.valid && !fire) ? ctrl_q.flow : flow_t'(ctrl_flow_i);
  assign add_held_o   = ctrl_q.valid && ctrl_q.op == CtrlAdd && !ctrl_q.range_bad;
  assign stall        = add_held_o && !present_i && ((gen_i != tx_i) || busy_q
                                                   || (RateOn && !rc_init_ready_i));
  assign fire         = ctrl_q.valid && !init_q && !per_ins_i && !stall;
  assign ctrl_ready_o = !init_q && (!ctrl_q.valid || fire);
  assign add_o        = fire && !ctrl_q.range_bad && ctrl_q.op == CtrlAdd && !present_i;
  assign post_o       = fire && !ctrl_q.range_bad && ctrl_q.op == CtrlPost && present_i
                     && seq_le(posted_i, ctrl_q.seq)
                     && seq_le(ctrl_q.seq, start_i + 32'h4000_0000);
  assign remove_o     = fire && !ctrl_q.range_bad && ctrl_q.op == CtrlRemove && present_i;
  assign bad_o        = fire && !add_o && !post_o && !remove_o;

  always_comb begin
    err_o = CtrlErrNone;
    if (fire) begin
      if (ctrl_q.range_bad)                                      err_o = CtrlErrRange;
      else if (!(ctrl_q.op inside {CtrlAdd, CtrlPost, CtrlRemove})) err_o = CtrlErrBadOp;
      else if (ctrl_q.op == CtrlAdd && present_i)                err_o = CtrlErrAddPresent;
      else if (ctrl_q.op != CtrlAdd && !present_i)               err_o = CtrlErrAbsent;
      else if (ctrl_q.op == CtrlPost && !post_o)                 err_o = CtrlErrPostRange;
      else if (remove_o && posted_i != start_i)                  err_o = CtrlErrRemoveUnacked;
    end
  end

  assign init_o     = init_q;
  assign init_ptr_o = init_ptr_q;
  assign held_o     = ctrl_q.valid;
  assign flow_o     = cf;
  assign flow_d_o   = cf_d;
  assign id_o       = ctrl_id_q;
  assign seq_o      = ctrl_q.seq;
  assign len_o      = ctrl_q.len;

  // Writes: present (and the init sweep), posted and last length, segment size.
  assign present_we_o  = init_q || add_o || remove_o;
  assign present_wa_o  = init_q ? init_ptr_q : cf;
  assign present_wd_o  = !init_q && add_o;
  assign posted_we_o   = add_o || post_o;
  assign seg_size_we_o = add_o;
endmodule

`default_nettype wire
