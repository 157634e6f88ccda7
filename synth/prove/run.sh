#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formal proofs with Yosys 0.69 (sat): combinational equivalence of the
# bitmap cells with naive references, and sequential properties of the flow
# FIFO, the multi-port memory and the rate timer (docs/formal.md).
#
# usage: synth/prove/run.sh <name> [--mutant]
#        synth/prove/run.sh --list      one a line: <name> <quick|slow> <mutant|->
#   <kind>_w<W>   kind ffs | ones | popcount, any W (e.g. ffs_w64, ffs_w128):
#     ffs      rtl tonic_ffs_after_head  vs tonic_ffs_after_head_naive
#     ones     rtl tonic_ones_from_head  vs tonic_ones_from_head_naive
#     popcount rtl tonic_popcount_range  vs tonic_popcount_range_naive
#              (through tonic_popcount_range_gate: len_i <= W, Pipeline 0)
#     Reads both with read_slang at parameter W, names them gate and gold,
#     and runs synth/prove/equiv.ys (miter -equiv + sat -prove-asserts).
#   mark_w<W>     the DD engine's mark rule: mark_positions_words (the
#                 Verilated models') vs mark_positions_bits (synthesis'),
#                 synth/prove/tonic_mark_positions_prove.sv; equiv.ys.
#   mpmem_lvt     tonic_mpmem (TdpBanks 0, 3W2R, 4 x 2 bits) vs a shadow
#                 memory: read-after-write, same-cycle read-old, write
#                 priority, rd_valid_o. Temporal induction (closes at 2).
#   mpmem_tdp     the same for TdpBanks 1 (steered TDP banks), bounded.
#   flow_fifo     tonic_flow_fifo (FlowCount 4, 2 insert ports) vs a
#                 reference queue: no loss, no duplicate, FIFO order,
#                 latency, count_o, nxt_*. Bounded.
#   rate_timer    tonic_rate_timer (FlowCount 16, G = 4, 16 slots, 4 + 4
#                 nodes), one watched flow: never early, visibility, once,
#                 now_o + 1 per cycle. Bounded.
#   The sequential wrappers are synth/prove/tonic_<cell>_prove.sv; the
#   flow: read_slang, proc, flatten, memories to flip-flops, immediate
#   assert/assume -> $assert/$assume (async2sync + chformal -lower), then
#   sat -prove-asserts -set-assumes -set-init-zero with either -tempinduct
#   (unbounded) or -tempinduct-baseonly -maxsteps N (bounded: every
#   assertion holds in cycles 1..N from reset, for all inputs).
# Exit 0 iff proved. The Yosys log is in build/prove/<name>.log (or
# $TONIC_PROVE_LOG_DIR), and a one-line result in <name>.json beside it
# (name, cell, property, method, result, seconds; scripts/prove.mjs
# collects them into build/reports/prove.json).
# --mutant: sanity check of the proof itself. Defines TONIC_PROVE_MUTANT,
# which plants a bug in the reference / shadow model (a wrong property);
# exit 0 iff sat finds the counterexample (so a vacuous set-up cannot pass).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

# name, quick|slow, mutant|-: quick ones run in plain ctest (make test),
# slow ones only in make prove (scripts/prove.mjs) or with
# -DTONIC_PROVE_ALL=ON; "mutant": make prove also runs the --mutant check.
PROOFS="ffs_w64 quick mutant
mark_w16 quick mutant
mark_w128 slow -
ones_w64 quick mutant
popcount_w16 quick mutant
ffs_w128 slow -
mpmem_lvt quick mutant
mpmem_tdp slow mutant
flow_fifo slow mutant
rate_timer slow mutant"

usage() {
  echo "usage: synth/prove/run.sh <name> [--mutant] | --list   (names: synth/prove/run.sh --list)" >&2
  exit 2
}
name="${1:-}"
if [ "$name" = "--list" ]; then echo "$PROOFS"; exit 0; fi
mutant=0
defs=""
if [ "${2:-}" = "--mutant" ]; then
  mutant=1
  defs="-D TONIC_PROVE_MUTANT "
elif [ -n "${2:-}" ]; then
  usage
fi

c=rtl/common
seq_flow="hierarchy -top wrap; proc; flatten; memory -nomap; memory_map; opt -fast; async2sync; chformal -lower; opt_clean; stat"
sat_common="-prove-asserts -set-assumes -set-init-zero -verify"
if [[ "$name" =~ ^(ffs|ones|popcount)_w([0-9]+)$ ]]; then
  kind="${BASH_REMATCH[1]}"
  w="${BASH_REMATCH[2]}"
  case "$kind" in
    ffs)  gate=tonic_ffs_after_head
          srcs="$c/tonic_prio_tree.sv $c/tonic_ffs_after_head.sv"
          property="equals naive ring walk (found, index) for all inputs" ;;
    ones) gate=tonic_ones_from_head
          srcs="$c/tonic_prio_tree.sv $c/tonic_ffs_after_head.sv $c/tonic_ones_from_head.sv"
          property="equals naive ring walk for all inputs" ;;
    popcount) gate=tonic_popcount_range_gate
          srcs="$c/tonic_popcount_range.sv synth/prove/tonic_popcount_range_gate.sv"
          property="equals naive count for all inputs with len_i <= W" ;;
  esac
  gold="${gate%_gate}_naive"
  srcs="$srcs synth/prove/$gold.sv"
  cell="${gate%_gate} (W=$w)"
  method="equiv"
  script="read_slang -j 1 $defs$srcs --top $gate --top $gold -G W=$w; rename $gate gate; rename $gold gold; script synth/prove/equiv.ys"
  ok_pat="SAT proof finished - no model found: SUCCESS"
  cex_pat="SAT proof finished - model found: FAIL"
elif [[ "$name" =~ ^mark_w([0-9]+)$ ]]; then
  w="${BASH_REMATCH[1]}"
  cell="the DD engine's mark rule (W=$w)"
  property="word form (Verilator) equals per-position form (synthesis) for all inputs"
  method="equiv"
  srcs="rtl/common/tonic_wire_pkg.sv rtl/dd/tonic_dd_pkg.sv synth/prove/tonic_mark_positions_prove.sv"
  script="read_slang -j 1 $defs-I rtl/dd $srcs --top tonic_mark_words_gate --top tonic_mark_bits_gold -G W=$w; rename tonic_mark_words_gate gate; rename tonic_mark_bits_gold gold; script synth/prove/equiv.ys"
  ok_pat="SAT proof finished - no model found: SUCCESS"
  cex_pat="SAT proof finished - model found: FAIL"
else
  case "$name" in
    mpmem_lvt|mpmem_tdp)
      top=tonic_mpmem_prove
      srcs="$c/tonic_ram_1w1r.sv $c/tonic_ram_2rw.sv $c/tonic_mpmem_lvt.sv $c/tonic_mpmem.sv"
      params="-G WritePorts=3 -G ReadPorts=2 -G Depth=4 -G Width=2"
      property="read-after-write (next-cycle read sees the latest write of any port, same-cycle read sees the old word), highest write port wins, rd_valid_o"
      if [ "$name" = mpmem_lvt ]; then
        cell="tonic_mpmem TdpBanks=0, 3W2R, Depth 4, Width 2"
        params="$params -G TdpBanks=0"
        method="tempinduct"; sat="-tempinduct -maxsteps 6"
      else
        cell="tonic_mpmem TdpBanks=1, 3W2R, Depth 4, Width 2"
        params="$params -G TdpBanks=1"
        method="bounded 12"; sat="-tempinduct -tempinduct-baseonly -maxsteps 12"
      fi ;;
    flow_fifo)
      top=tonic_flow_fifo_prove
      srcs="$c/tonic_ram_1w1r.sv $c/tonic_flow_fifo.sv"
      params="-G FlowCount=4 -G WritePorts=2"
      cell="tonic_flow_fifo FlowCount 4, WritePorts 2"
      property="equals reference queue every cycle (out_valid/out_id/count/nxt): no loss, no duplicate, FIFO order, latency 2"
      method="bounded 10"; sat="-tempinduct -tempinduct-baseonly -maxsteps 10" ;;
    rate_timer)
      top=tonic_rate_timer_prove
      srcs="$c/tonic_ram_1w1r.sv $c/tonic_skid_buffer.sv $c/tonic_rate_timer_bank.sv $c/tonic_rate_timer.sv"
      params="-G FlowCount=16 -G SlotShift=2 -G SlotCount=16 -G NearNodes=4 -G FarNodes=4"
      cell="tonic_rate_timer FlowCount 16, SlotShift 2, SlotCount 16, 4+4 nodes"
      property="watched flow: release in cycle r only for a pending arming with e <= r-2 (commands of cycles <= r-2), once per arming; now_o +1 per cycle"
      method="bounded 28"; sat="-tempinduct -tempinduct-baseonly -maxsteps 28" ;;
    *) usage ;;
  esac
  srcs="$srcs synth/prove/$top.sv"
  script="read_slang -j 1 $defs$srcs --top $top $params; rename $top wrap; $seq_flow; sat $sat $sat_common wrap"
  if [ "$method" = tempinduct ]; then
    ok_pat="Induction step proven: SUCCESS"
  else
    ok_pat="proved base case for ${method#bounded } steps: SUCCESS"
  fi
  cex_pat="model found for base case: FAIL"
fi

logdir="${TONIC_PROVE_LOG_DIR:-$ROOT/build/prove}"
mkdir -p "$logdir"
base="$name"
[ "$mutant" -eq 0 ] || base="${name}_mutant"
log="$logdir/$base.log"
t0=$(date +%s)
set +e
scripts/yosys --mount rtl --mount synth -- -p "$script" > "$log" 2>&1
rc=$?
set -e
t1=$(date +%s)
secs=$((t1 - t0))

result() {  # result <pass|fail> : the JSON line beside the log
  printf '{"name":"%s","mutant":%s,"cell":"%s","property":"%s","method":"%s","result":"%s","seconds":%d}\n' \
    "$name" "$([ "$mutant" -eq 1 ] && echo true || echo false)" "$cell" "$property" \
    "$method" "$1" "$secs" > "$logdir/$base.json"
}

if [ "$mutant" -eq 1 ]; then
  if grep -q "$cex_pat" "$log"; then
    result pass
    echo "prove: $name --mutant: planted bug found (counterexample) in $secs s"
    exit 0
  fi
  result fail
  echo "prove: $name --mutant: planted bug NOT found (exit $rc); log: $log"
  exit 1
fi
if [ "$rc" -eq 0 ] && grep -q "$ok_pat" "$log"; then
  result pass
  echo "prove: $name: $cell: proved ($method) in $secs s"
  exit 0
fi
result fail
echo "prove: $name: FAILED (exit $rc) after $secs s; log: $log"
grep -E -A40 "ERROR|FAIL|model found|Signal Name" "$log" | head -80
exit 1
