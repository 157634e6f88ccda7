// SPDX-License-Identifier: Apache-2.0
// tonic_rate_wait: how long a flow short of rate credit must wait, without
// a divider (docs/design/credit-schemes.md, "T without a divider").
//
// A flow at rate R (RU: bytes per 2^20 cycles) that lacks `need` credit
// units (CU: bytes * 2^20) has enough after need / R cycles. The cell
// returns a wait T that is never short of that and overshoots by little:
//
//   ceil(need / R) <= T < need / R * (1 + 1/128 + 2^-16) + 3.
//
// Method. R in short float form: e = max(msb(R) - 7, 0), m = R >> e, so
// m * 2^e <= R < (m + 1) * 2^e with m in 128..255 when e > 0 (and m = R,
// exact, when e = 0). RECIP[m] = ceil(2^24 / m) is a 255-entry ROM. Then
//
//   T = ((((need >> e) + 1) * RECIP[m]) >> 24) + 1
//
// Lower bound: need / R <= need / (m 2^e) < ((need >> e) + 1) / m
// <= ((need >> e) + 1) * RECIP[m] / 2^24 < T. Upper bound: RECIP[m] <
// 2^24 / m + 1, (need >> e) + 1 <= need / 2^e + 1 and R < (m + 1) 2^e with
// m >= 128 when e > 0. T saturates at 2^(TimeW-1) - 1 (the serial timers'
// reach); R = 0 (no rate) gives that maximum too, and so does need = 0
// with R = 0. need = 0 with R > 0 gives 1, or 2 when R = 1 (a flow that is
// not short should not ask). A tighter upper bound, need / R * (1 + 1/128)
// + 2, is proved and tested in tb/common/ref/credit_ref.hpp.
//
// Pipeline (Latency = 4, one request per cycle, no stall):
//   0: leading-one detector of R and the shift need >> e;
//   1: ROM read and the + 1;
//   2: the multiply (a DSP multiply in synthesis);
//   3: >> 24, + 1 and saturation into the output register.
// valid_o follows valid_i by Latency cycles; the data path has no reset.
`default_nettype none

module tonic_rate_wait #(
  /// Width of need_i (credit units).
  parameter int unsigned NeedW = 48,
  /// Width of wait_o; the wait saturates at 2^(TimeW-1) - 1.
  parameter int unsigned TimeW = 32
) (
  input  wire logic             clk_i,
  input  wire logic             rst_i,     // synchronous, active high (valid only)
  input  wire logic             valid_i,
  input  wire logic [NeedW-1:0] need_i,    // credit units (bytes * 2^20)
  input  wire logic [31:0]      rate_i,    // bytes per 2^20 cycles
  output logic                  valid_o,
  output logic [TimeW-1:0]      wait_o     // cycles
);
  if (NeedW < 8 || NeedW > 64) begin : g_check_need
    $fatal(1, "tonic_rate_wait: NeedW must be in 8..64");
  end
  if (TimeW < 8 || TimeW > 40) begin : g_check_time
    $fatal(1, "tonic_rate_wait: TimeW must be in 8..40");
  end

  // Sizes (do not override).
  localparam int unsigned QW   = NeedW + 1;         // (need >> e) + 1
  localparam int unsigned RecW = 25;                // RECIP[1] = 2^24
  localparam int unsigned PW   = QW + RecW;         // product
  localparam logic [TimeW-1:0] TMax = {1'b0, {(TimeW - 1){1'b1}}};

  typedef logic [RecW-1:0] recip_t;
  typedef logic [255:0][RecW-1:0] recip_tab_t;

  // RECIP[m] = ceil(2^24 / m), m in 1..255 (entry 0 unused): a ROM built
  // at elaboration (the division is a constant function, not hardware).
  function automatic recip_tab_t make_recip();
    recip_tab_t t;
    t[0] = '0;
    for (int unsigned m = 1; m < 256; m++) begin
      t[m] = recip_t'(((32'd1 << 24) + m - 1) / m);
    end
    return t;
  endfunction
  localparam recip_tab_t Recip = make_recip();

  // Stage 0: short float of R, need >> e.
  logic [4:0]       e_d;
  logic [7:0]       m_d;
  logic [NeedW-1:0] nsh_d;
  always_comb begin
    e_d = '0;
    for (int unsigned b = 8; b < 32; b++) begin
      if (rate_i[b]) e_d = 5'(b - 7);
    end
  end
  assign m_d   = 8'(rate_i >> e_d);
  assign nsh_d = need_i >> e_d;

  logic [7:0]       m_q;
  logic [NeedW-1:0] nsh_q;
  // Stage 1.
  logic [QW-1:0]    q_q;
  recip_t           r_q;
  logic             zero1_q;
  // Stage 2.
  logic [PW-1:0]    p_q;
  logic             zero2_q;
  logic [3:0]       valid_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      valid_q <= '0;
    end else begin
      valid_q <= {valid_q[2:0], valid_i};
    end
  end

  always_ff @(posedge clk_i) begin
    m_q     <= m_d;
    nsh_q   <= nsh_d;
    q_q     <= QW'(nsh_q) + QW'(1);
    r_q     <= Recip[m_q];
    zero1_q <= m_q == '0;
    p_q     <= PW'(q_q) * PW'(r_q);
    zero2_q <= zero1_q;
  end

  // Stage 3: T = (p >> 24) + 1, saturated.
  logic [PW-1:0] t_full;
  assign t_full = (p_q >> 24) + PW'(1);
  always_ff @(posedge clk_i) begin
    wait_o <= (zero2_q || t_full > PW'(TMax)) ? TMax : TimeW'(t_full);
  end
  assign valid_o = valid_q[3];
`ifdef TONIC_ASSERT
  // Simulation-only invariant (docs/soak.md; the soak models define
  // TONIC_ASSERT): credit never negative. A flow that waits T cycles at
  // rate R earns T * R >= need credit units, so it never resumes short:
  // need <= T * R unless T saturated. The request is carried beside the
  // pipeline and checked when its wait comes out.
  if (1) begin : g_assert
    logic [3:0][NeedW-1:0] a_need_q;
    logic [3:0][31:0]      a_rate_q;
    always_ff @(posedge clk_i) begin
      a_need_q <= {a_need_q[2:0], need_i};
      a_rate_q <= {a_rate_q[2:0], rate_i};
      if (!rst_i && valid_o) begin
        assert (wait_o != '0)
          else $error("rate_wait_assert: credit never negative: a wait of 0 cycles");
        assert (wait_o == TMax || 96'(a_need_q[3]) <= 96'(wait_o) * 96'(a_rate_q[3]))
          else $error("rate_wait_assert: credit never negative: need %0d > wait %0d * rate %0d", a_need_q[3],
                      wait_o, a_rate_q[3]);
      end
    end
  end : g_assert
`endif
endmodule

`default_nettype wire
