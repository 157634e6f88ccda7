// SPDX-License-Identifier: Apache-2.0
// CUBIC's constant tables (protocols/cubic): elaboration-time functions of
// the constants of user_configs.vh, included in the body of both protocol
// modules after tonic_proto_config.svh. Each table is indexed by a register
// value (cwnd or a time difference), so on the data path it is a ROM, a
// few LUT levels, never a multiplier. twin.hpp computes the same integers
// (protocols/cubic/README.md has the formulas).
//
// Time unit: UnitNs = CycleNs * 2^TimeShift nanoseconds. C = CubicCNum /
// CubicCDen segments per s^3 = CubicCNum * UnitNs^3 / (CubicCDen * 10^27)
// segments per unit^3.

localparam logic [127:0] CubicUnitNs = 128'(CycleNs) << TimeShift;
localparam logic [127:0] CubicNsPerS3 = 128'd1000000000000000000000000000;  // 10^27 ns^3 per s^3

// ssthresh after a congestion event: max(floor(cwnd * beta), 2).
function automatic logic [8:0] cubic_beta(int unsigned w);
  int unsigned b;
  b = (w * BetaNum) >> 10;
  return 9'((b < 2) ? 2 : b);
endfunction

// W_max under fast convergence: floor(cwnd * (1 + beta) / 2).
function automatic logic [8:0] cubic_fc(int unsigned w);
  return 9'((w * (1024 + BetaNum)) >> 11);
endfunction

// The radicand of K in units^3: floor(dw / C), dw = W_max - cwnd_epoch
// (segments, cwnd_epoch = ssthresh), saturating at 30 bits.
function automatic logic [29:0] cubic_rad_dw(int unsigned dw);
  logic [127:0] q;
  q = (128'(dw) * 128'(CubicCDen) * CubicNsPerS3) / (128'(CubicCNum) * CubicUnitNs * CubicUnitNs * CubicUnitNs);
  return (q > 128'h3fff_ffff) ? 30'h3fff_ffff : 30'(q);
endfunction

// The radicand of K at a congestion event of window w: with fast
// convergence (fc, w < W_max) W_max = cubic_fc(w), else w.
function automatic logic [29:0] cubic_rad(int unsigned w, logic fc);
  int unsigned wmax, ss;
  wmax = fc ? int'(cubic_fc(w)) : w;
  ss   = int'(cubic_beta(w));
  return cubic_rad_dw((wmax > ss) ? wmax - ss : 0);
endfunction

// W_cubic - W_max = C (t - K)^3 for a time difference d = t - K (units),
// an 11-bit two's-complement value: sign(d) floor(C |d|^3), saturating at
// +-511 segments; 12-bit two's complement.
function automatic logic [11:0] cubic_off(int unsigned d11);
  logic [127:0] m, c;
  logic         neg;
  int unsigned  mag;
  neg = d11 >= 1024;
  mag = neg ? 2048 - d11 : d11;
  m   = 128'(mag);
  c   = (128'(CubicCNum) * m * m * m * CubicUnitNs * CubicUnitNs * CubicUnitNs)
        / (128'(CubicCDen) * CubicNsPerS3);
  if (c > 128'd511) c = 128'd511;
  return neg ? 12'(-int'(c[8:0])) : 12'(c);
endfunction

// Segments acked per +1 of W_est: ceil(cwnd / alpha_cubic), at least 1.
function automatic logic [8:0] cubic_est_thr(int unsigned w);
  int unsigned t;
  t = (w * EstNum + EstDen - 1) / EstDen;
  return 9'((t < 1) ? 1 : ((t > 511) ? 511 : t));
endfunction
