// SPDX-License-Identifier: Apache-2.0
// tonic_rx_window: one arrival step of a receive window (WBASE + WVEC).
//
// WBASE is the lowest index not received; bit k of WVEC (k = 1..W-1) says
// index WBASE + k is held (bit 0 is always 0 in a stored window). For an
// arriving index idx_i, d = idx_i - WBASE (serial, 32 bits):
//   - d < 0              : kind_o = WinBelow   (duplicate), window unchanged;
//   - d >= W             : kind_o = WinBeyond, window unchanged;
//   - 0 < d < W, bit set : kind_o = WinHeld    (duplicate), window unchanged;
//   - 0 < d < W, clear   : kind_o = WinNew, the bit is set;
//   - d = 0              : kind_o = WinInOrder, WBASE advances by 1 + the
//     run of set bits after it (tonic_ones_from_head at head 0 of
//     WVEC | 1) and WVEC shifts down by as much.
// off_o: the arrival's offset from WBASE (the low bits of d: the WVEC bit
// of a held arrival). hole_o: WVEC held something before the arrival.
// wbase_o / wvec_o are the window after the arrival. run_o: what an
// in-order arrival adds to WBASE (1..W, whatever the kind), so a caller
// can compare it with a distance it computed from WBASE in parallel
// instead of comparing wbase_o. left_o: wvec_o != 0, computed without
// waiting for the shift. Purely
// combinational; every receive mode uses it (RoCE with WVEC always 0).
//
// Depth (rx_1024x128 is the reference point, docs/design/receiver.md):
// the in-order test is an equality of idx_i and wbase_i (no carry chain);
// the WVEC offset is the low IdxW bits of the difference; the full
// 32-bit difference decides below / beyond (its top bits). left_o uses a prefix-AND
// thermometer of WVEC | 1 (the run, as a mask): some set bit outside it.
`default_nettype none

module tonic_rx_window #(
  /// Window size in bits; a power of two, 32..256.
  parameter int unsigned W = 128,
  /// Offset width (do not override).
  localparam int unsigned IdxW = $clog2(W)
) (
  input  wire logic [31:0]  wbase_i,  // WBASE before the arrival
  input  wire logic [W-1:0] wvec_i,   // WVEC before the arrival (bit 0 clear)
  input  wire logic [31:0]  idx_i,    // arriving index
  output logic [2:0]        kind_o,   // WinBelow .. WinInOrder (localparams below)
  output logic [IdxW-1:0]   off_o,    // idx_i - wbase_i, low IdxW bits
  output logic              hole_o,   // WVEC was not empty
  output logic [31:0]       wbase_o,  // WBASE after the arrival
  output logic [W-1:0]      wvec_o,   // WVEC after the arrival
  output logic [IdxW:0]     run_o,    // in-order advance: 1 + the run of set bits after WBASE
  output logic              left_o    // wvec_o != 0
);
  if (W < 32 || W > 256 || (W & (W - 1)) != 0) begin : g_check
    $fatal(1, "tonic_rx_window: W must be a power of two in 32..256");
  end

  // Arrival kinds (kind_o).
  localparam logic [2:0] WinBelow   = 3'd0;
  localparam logic [2:0] WinHeld    = 3'd1;
  localparam logic [2:0] WinBeyond  = 3'd2;
  localparam logic [2:0] WinNew     = 3'd3;
  localparam logic [2:0] WinInOrder = 3'd4;

  logic [31:0]     d;
  logic            below, beyond, zero;
  logic [IdxW-1:0] off;
  logic [W-1:0]    onehot, head_set, run_mask;
  logic [IdxW:0]   run;

  assign d      = idx_i - wbase_i;
  assign below  = d[31];
  assign beyond = !below && (d[30:IdxW] != '0);
  assign zero   = idx_i == wbase_i;                      // = (d == 0), no carry chain
  assign off    = d[IdxW-1:0];                            // the carry chain's first bits
  assign off_o  = off;
  assign onehot = W'(1) << off;
  assign hole_o = wvec_i != '0;

  // Advance at the head: the run of ones of WVEC | 1 from bit 0.
  assign head_set = wvec_i | W'(1);
  tonic_ones_from_head #(
    .W(W)
  ) u_run (
    .bits_i (head_set),
    .head_i ('0),
    .count_o(run)
  );
  assign run_o = run;

  // run_mask[k]: bits 0..k of WVEC | 1 are all set (the run as a
  // thermometer). After an in-order arrival WVEC keeps the bits outside it.
  for (genvar k = 0; k < W; k++) begin : g_run_mask
    assign run_mask[k] = &head_set[k:0];
  end

  always_comb begin
    kind_o  = WinBelow;
    wbase_o = wbase_i;
    wvec_o  = wvec_i;
    left_o  = hole_o;
    if (zero) begin
      kind_o  = WinInOrder;
      wbase_o = wbase_i + 32'(run);
      wvec_o  = (run == (IdxW + 1)'(W)) ? '0 : head_set >> run;
      left_o  = (head_set & ~run_mask) != '0;
    end else if (below) begin
      kind_o = WinBelow;
    end else if (beyond) begin
      kind_o = WinBeyond;
    end else if ((wvec_i & onehot) != '0) begin
      kind_o = WinHeld;
    end else begin
      kind_o = WinNew;
      wvec_o = wvec_i | onehot;
      left_o = 1'b1;
    end
  end
endmodule

`default_nettype wire
