#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formal equivalence of a bitmap cell and its naive reference (Yosys sat).
#
# usage: synth/prove/run.sh <kind>_w<W> [--mutant]   e.g. ffs_w64, ones_w128, popcount_w16
#   kind: ffs      rtl tonic_ffs_after_head  vs tonic_ffs_after_head_naive
#         ones     rtl tonic_ones_from_head  vs tonic_ones_from_head_naive
#         popcount rtl tonic_popcount_range  vs tonic_popcount_range_naive
#                  (through tonic_popcount_range_gate: len_i <= W, Pipeline 0)
# Reads both with read_slang at parameter W, names them gate and gold, and
# runs synth/prove/equiv.ys (miter -equiv + sat -prove-asserts). Exit 0 iff
# proved; the Yosys log is in build/prove/<name>.log (or $TONIC_PROVE_LOG_DIR).
# --mutant: sanity check of the flow itself. Defines TONIC_PROVE_MUTANT, which
# plants a corner-case bug in the naive reference; exit 0 iff sat finds the
# counterexample (so a vacuous proof set-up cannot pass unnoticed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
name="${1:-}"
mutant=0
defs=""
if [ "${2:-}" = "--mutant" ]; then
  mutant=1
  defs="-D TONIC_PROVE_MUTANT "
elif [ -n "${2:-}" ]; then
  echo "usage: synth/prove/run.sh {ffs|ones|popcount}_w<W> [--mutant]" >&2; exit 2
fi
[[ "$name" =~ ^(ffs|ones|popcount)_w([0-9]+)$ ]] || {
  echo "usage: synth/prove/run.sh {ffs|ones|popcount}_w<W> [--mutant]" >&2; exit 2; }
kind="${BASH_REMATCH[1]}"
w="${BASH_REMATCH[2]}"
c=rtl/common
case "$kind" in
  ffs)  gate=tonic_ffs_after_head
        srcs="$c/tonic_prio_tree.sv $c/tonic_ffs_after_head.sv" ;;
  ones) gate=tonic_ones_from_head
        srcs="$c/tonic_prio_tree.sv $c/tonic_ffs_after_head.sv $c/tonic_ones_from_head.sv" ;;
  popcount) gate=tonic_popcount_range_gate
        srcs="$c/tonic_popcount_range.sv synth/prove/tonic_popcount_range_gate.sv" ;;
esac
gold="${gate%_gate}_naive"
srcs="$srcs synth/prove/$gold.sv"

logdir="${TONIC_PROVE_LOG_DIR:-$ROOT/build/prove}"
mkdir -p "$logdir"
log="$logdir/$name.log"
[ "$mutant" -eq 0 ] || log="$logdir/${name}_mutant.log"
t0=$(date +%s)
set +e
scripts/yosys --mount rtl --mount synth -- -p \
  "read_slang -j 1 $defs$srcs --top $gate --top $gold -G W=$w; rename $gate gate; rename $gold gold; script synth/prove/equiv.ys" \
  > "$log" 2>&1
rc=$?
set -e
t1=$(date +%s)
if [ "$mutant" -eq 1 ]; then
  if grep -q "SAT proof finished - model found: FAIL" "$log"; then
    echo "prove: $name --mutant: planted bug found (counterexample) in $((t1 - t0)) s"
    exit 0
  fi
  echo "prove: $name --mutant: planted bug NOT found (exit $rc); log: $log"
  exit 1
fi
if [ "$rc" -eq 0 ] && grep -q "SAT proof finished - no model found: SUCCESS" "$log"; then
  echo "prove: $name: $gate == $gold (W=$w) proved in $((t1 - t0)) s"
  exit 0
fi
echo "prove: $name: FAILED (exit $rc) after $((t1 - t0)) s; log: $log"
grep -E -A40 "ERROR|FAIL|model found|Signal Name" "$log" | head -80
exit 1
