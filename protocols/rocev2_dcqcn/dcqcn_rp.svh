// SPDX-License-Identifier: Apache-2.0
// dcqcn_rp.svh: the DCQCN reaction-point arithmetic shared by
// tonic_proto_incoming (CNP, byte events) and tonic_proto_periodic (timers)
// of protocols/rocev2_dcqcn and protocols/rocev2_gb0. Integer rules of
// docs/design/dcqcn.md, value for value with dcqcn_ref.hpp (this folder).
//
// Included in the module body after tonic_proto_config.svh (it reads the
// Dcqcn* localparams and user_t of user_configs.vh). No include guard on
// purpose: each of the two modules includes it once.

// Configuration ranges the user-state fields and the one-event-per-call
// arithmetic rely on.
if (DcqcnC < 1 || DcqcnC >= (1 << 27) || DcqcnRmin > DcqcnC
    || RateInit < DcqcnRmin || RateInit > DcqcnC) begin : g_check_rates
  $fatal(1, "rocev2: need 1 <= C < 2^27 and Rmin <= RateInit <= C");
end
if (DcqcnRai >= (1 << 27) || DcqcnRhai >= (1 << 27)) begin : g_check_steps
  $fatal(1, "rocev2: R_AI and R_HAI must be below 2^27");
end
if (DcqcnK < 1 || DcqcnK >= (1 << 15) || DcqcnT < 1 || DcqcnT >= (1 << 15)) begin : g_check_timers
  $fatal(1, "rocev2: K and T must be in 1..2^15-1 (16-bit serial due times)");
end
if (DcqcnF < 1 || DcqcnF > 7 || DcqcnGShift < 1 || DcqcnGShift > 10) begin : g_check_stages
  $fatal(1, "rocev2: F must be in 1..7 and the g shift in 1..10");
end
// The byte counter is sent - base mod 2^24 (incoming.v): it holds B - 1
// plus what a flow sends between two incoming calls, up to 4 W segments of
// 4096 B (RoCE's largest MTU) leaving room for go-back-N resends; then one
// call sees at most one byte event.
if (DcqcnB < 1 || 64'(DcqcnB) + 64'(4 * W * 4096) > 64'(1 << 24)) begin : g_check_bytes
  $fatal(1, "rocev2: need 1 <= B and B + 4 * W * 4096 <= 2^24");
end

typedef logic [26:0] dcqcn_rate_t;
typedef logic [10:0] dcqcn_alpha_t;
typedef logic [2:0]  dcqcn_stage_t;

/// Rc and Rt after an increase step, and whether Rc changed.
typedef struct packed {
  dcqcn_rate_t rc;
  dcqcn_rate_t rt;
  logic        changed;
} dcqcn_rates_t;

/// Rt + step: Rt and Rc after a step that adds `step` to Rt, min(Rt +
/// step, C), and Rc = (Rt' + Rc) >> 1. For depth, the unclamped average
/// comes from one three-operand sum and the clamped one from Rc + C, both
/// in parallel with the compare Rt > C - step (a constant); the compare
/// only selects. Rc changes iff Rt' - Rc is not 0 or 1.
function automatic dcqcn_rates_t dcqcn_step(dcqcn_rate_t rc, dcqcn_rate_t rt, int unsigned step);
  logic         clamp;
  dcqcn_rate_t  open_avg, clamp_avg;
  logic [27:0]  open_gap, clamp_gap;  // (Rt' - Rc) >> 1, 29-bit difference
  dcqcn_rates_t r;
  clamp     = (step > DcqcnC) || (rt > 27'(DcqcnC - step));
  open_avg  = 27'((29'(rt) + 29'(rc) + 29'(step)) >> 1);
  clamp_avg = 27'((29'(rc) + 29'(DcqcnC)) >> 1);
  open_gap  = 28'((29'(rt) + 29'(step) - 29'(rc)) >> 1);
  clamp_gap = 28'((29'(DcqcnC) - 29'(rc)) >> 1);
  r.rt      = clamp ? 27'(DcqcnC) : 27'(29'(rt) + 29'(step));
  r.rc      = clamp ? clamp_avg : open_avg;
  r.changed = clamp ? (clamp_gap != '0) : (open_gap != '0);
  return r;
endfunction

/// One increase step with the stage counts after the event's increment:
/// fast recovery while both are below F, hyper once both reach F, else
/// additive. The three candidates are formed in parallel; the counts only
/// select.
function automatic dcqcn_rates_t dcqcn_increase(dcqcn_rate_t rc, dcqcn_rate_t rt,
                                                dcqcn_stage_t t_cnt, dcqcn_stage_t b_cnt);
  logic t_f, b_f;
  t_f = t_cnt >= 3'(DcqcnF);
  b_f = b_cnt >= 3'(DcqcnF);
  if (t_f && b_f) return dcqcn_step(rc, rt, DcqcnRhai);
  if (t_f || b_f) return dcqcn_step(rc, rt, DcqcnRai);
  return dcqcn_step(rc, rt, 0);
endfunction

/// min(count + 1, F).
function automatic dcqcn_stage_t dcqcn_stage_inc(dcqcn_stage_t cnt);
  return (cnt >= 3'(DcqcnF)) ? 3'(DcqcnF) : cnt + 3'd1;
endfunction

/// Alpha-timer expiry: alpha - (alpha >> 8) (stays at 255 from there).
function automatic dcqcn_alpha_t dcqcn_alpha_decay(dcqcn_alpha_t alpha);
  return alpha - (alpha >> DcqcnGShift);
endfunction

/// An expiry due at `due` has come by cycle `now` (16-bit serial: correct
/// while now is within 2^15 cycles either side of due).
function automatic logic dcqcn_due(logic [15:0] now, logic [15:0] due);
  return $signed(16'(now - due)) >= 16'sd0;
endfunction
