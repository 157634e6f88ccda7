// SPDX-License-Identifier: Apache-2.0
// tonic_cbrt: integer cube root, floor(cbrt(x)), in one combinational stage.
//
// root_o = floor(cbrt(x_i)) for every x_i, exactly, with the default
// SigBits = OutW. A protocol module uses it inside its one cycle, e.g. for
// RFC 9438's K = cbrt((W_max - cwnd_epoch) / C) (docs/cells/cbrt.md).
//
// With SigBits < OutW the cell returns the same root with every bit below
// its SigBits most significant ones cleared: root_o <= floor(cbrt(x_i)) <
// root_o + 2^(msb - SigBits + 1), msb being the top set bit of the root, so
// the result is never above the exact root and short of it by less than a
// fraction 2^(1 - SigBits) of it (exact whenever the root has at most
// SigBits significant bits, in particular below 2^SigBits).
//
// Method: a thermometer of comparisons with constants, no arithmetic on the
// data path. For every k in 1..RMax (RMax = floor(cbrt(2^InW - 1))),
//   ge[k] = x_i >= up(k)^3,
// where up(k) is k rounded up to SigBits significant bits (up(k) = k when
// exact). The comparisons are independent of one another, so they sit side
// by side rather than in series. ge is a thermometer code: ge[k] = 1 exactly
// for k <= the result. Bit b of the result is set on the runs of values
// whose bit b is 1, k in [(2m + 1) 2^b, (2m + 2) 2^b), so
//   root_o[b] = OR over m of (ge[(2m + 1) 2^b] & !ge[(2m + 2) 2^b]),
// an OR of about RMax / 2^(b+1) terms (no one-hot code in between). With
// SigBits < OutW, up() merges neighbouring constants: equal comparisons are
// shared by synthesis and the terms of the low bits cancel (ge[a] & !ge[a]).
//
// Cost grows with RMax, about 2^(InW/3) comparisons: the cell is meant for
// InW up to the low thirties (1625 comparisons at InW = 32; at InW = 35,
// 3250, Verilator 5.006 no longer unrolls the generate loop, hence the
// limit 34). Verilator evaluates every comparison every cycle, so the model
// is slow next to the other cells (bench_cbrt). Measured levels, LUTs and
// carry cells: make synth-estimate (docs/results.md, docs/cells/cbrt.md).
`default_nettype none

module tonic_cbrt #(
  /// Width of the radicand x_i (unsigned), 1..34.
  parameter int unsigned InW = 32,
  /// Significant bits kept in the root, 1..OutW. OutW (the default) gives
  /// floor(cbrt(x_i)) exactly; fewer give a cheaper cell whose root is
  /// rounded down to SigBits significant bits.
  parameter int unsigned SigBits = (InW + 2) / 3,
  /// Width of root_o: ceil(InW / 3) (do not override).
  localparam int unsigned OutW = (InW + 2) / 3
) (
  input  wire logic [InW-1:0] x_i,    // radicand, unsigned
  output logic      [OutW-1:0] root_o  // floor(cbrt(x_i)), rounded down to SigBits significant bits
);
  if (InW < 1 || InW > 34) begin : g_check_inw
    $fatal(1, "tonic_cbrt: InW must be in 1..34");
  end
  if (SigBits < 1 || SigBits > OutW) begin : g_check_sigbits
    $fatal(1, "tonic_cbrt: SigBits must be in 1..ceil(InW / 3)");
  end

  // floor(cbrt(v)) of a constant (elaboration only), bit by bit from the top.
  function automatic longint unsigned cbrt_floor(longint unsigned v);
    longint unsigned r;
    r = 0;
    for (int b = int'(OutW) - 1; b >= 0; b--) begin
      longint unsigned y;
      y = r | (64'd1 << b);
      if (y * y * y <= v) r = y;
    end
    return r;
  endfunction

  // k rounded up to SigBits significant bits (may carry into a new bit).
  function automatic longint unsigned round_up(longint unsigned k);
    int unsigned msb;
    longint unsigned step;
    msb = 0;
    for (int unsigned b = 0; b < 64; b++) begin
      if (k >> b != 0) msb = b;
    end
    if (msb < SigBits) return k;
    step = 64'd1 << (msb - SigBits + 1);
    return (k + step - 1) / step * step;
  endfunction

  // Largest root (do not override).
  localparam int unsigned RMax = int'(cbrt_floor((64'd1 << InW) - 1));
  localparam longint unsigned XMax = (64'd1 << InW) - 1;

  // Run starts of bit b: k = (2m + 1) 2^b, i.e. bit b of k set, bits below clear.
  function automatic logic [RMax:0] run_starts(int unsigned b);
    logic [RMax:0] s;
    for (int unsigned k = 0; k <= RMax; k++) begin
      s[k] = ((k >> b) & 1) == 1 && (k & ((1 << b) - 1)) == 0;
    end
    return s;
  endfunction

  // The thermometer: ge[k] = x_i >= up(k)^3; ge[0] = 1 (x_i >= 0).
  logic [RMax:0] ge;
  assign ge[0] = 1'b1;
  for (genvar k = 1; k <= RMax; k++) begin : g_ge
    localparam longint unsigned Up = round_up(longint'(k));
    localparam longint unsigned Cube = Up * Up * Up;
    if (Cube > XMax) begin : g_never
      assign ge[k] = 1'b0;
    end else begin : g_cmp
      assign ge[k] = x_i >= InW'(Cube);
    end
  end

  // root_o[b]: OR of ge[a] & !ge[a + 2^b] over the run starts a of bit b
  // (ge shifted down by 2^b brings ge[a + 2^b] to position a; zero beyond RMax).
  for (genvar b = 0; b < OutW; b++) begin : g_bit
    localparam logic [RMax:0] Starts = run_starts(b);
    assign root_o[b] = |(ge & ~(ge >> (1 << b)) & Starts);
  end
endmodule

`default_nettype wire
