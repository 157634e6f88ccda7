#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-primitives.sh — the vendor-primitive rule (rtl/tech/xilinx/README.md):
# portable RTL (every .sv/.v/.svh/.vh under rtl/, except rtl/tech/, and under
# protocols/) instantiates no Xilinx primitive (RAMB*, URAM*, DSP48*/DSP58*,
# FD*/LD*, LUT*, CARRY4/8, MUXF*, SRL*, RAM32M/RAM64X1D-style LUTRAM,
# BUFG*/BUFH*/BUFR/BUFIO, MMCM*/PLLE*, I/O buffers, FIFO18E2/FIFO36E2,
# xpm_*); memories are inferred from the templates in rtl/common/, and a
# primitive may only appear behind a generic module in rtl/tech/xilinx/.
#
# An instantiation is a statement that starts with one of those names (at
# the start of a line, after `begin [: label]` or `;`, attributes (* *)
# allowed) followed by a parameter list `#`, or an instance name and `(` or
# `[`, or the end of the line. Comments (// and /* */) are removed first, so
# a primitive named in a comment is fine.
#
# usage: scripts/check-primitives.sh [--root DIR]   (default: the project)
# Prints every offending file:line and exits 1; exits 0 when clean.
# Run first by scripts/lint.sh (`make lint`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = "--root" ] && [ -n "${2:-}" ]; then
  ROOT="$(cd "$2" && pwd)"
elif [ $# -gt 0 ]; then
  echo "usage: scripts/check-primitives.sh [--root DIR]" >&2
  exit 2
fi
cd "$ROOT"

PRIM='(RAMB[0-9A-Z_]*|URAM[0-9A-Z_]*|DSP(48|58)[0-9A-Z_]*|FD[CPRS]E?(_1)?|LD[CP]E?|LUT[1-6](_2|_L|_D)?|CFGLUT5'
PRIM+='|CARRY[48]|MUXF[789]|SRLC?(16|32)E?|RAM(32|64|128|256|512)[XM][0-9A-Z_]*'
PRIM+='|BUFG[0-9A-Z_]*|BUFH[0-9A-Z_]*|BUFR|BUFIO|MMCM[0-9A-Z_]*|PLLE[0-9A-Z_]*'
PRIM+='|IBUF[0-9A-Z_]*|OBUF[0-9A-Z_]*|IOBUF[0-9A-Z_]*|FIFO(18|36)E[0-9]|xpm_[a-z0-9_]+)'

files=()
for d in rtl protocols; do
  [ -d "$d" ] || continue
  while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find "$d" -path rtl/tech -prune -o -type f \( -name '*.sv' -o -name '*.v' -o -name '*.svh' -o -name '*.vh' \) \
      -print0 | sort -z)
done
if [ "${#files[@]}" -eq 0 ]; then
  echo "check-primitives: no RTL files under $ROOT/rtl or $ROOT/protocols" >&2
  exit 2
fi

hits=$(awk -v prim="$PRIM" '
  FNR == 1 { inblock = 0 }
  {
    line = $0
    code = ""
    # Drop /* */ (across lines) and // comments, keep the code.
    while (length(line) > 0) {
      if (inblock) {
        i = index(line, "*/")
        if (i == 0) { line = "" } else { line = substr(line, i + 2); inblock = 0 }
      } else {
        b = index(line, "/*")
        c = index(line, "//")
        if (c > 0 && (b == 0 || c < b)) { code = code substr(line, 1, c - 1); line = "" }
        else if (b > 0) { code = code substr(line, 1, b - 1); line = substr(line, b + 2); inblock = 1 }
        else { code = code line; line = "" }
      }
    }
    gsub(/\(\*[^*]*\*\)/, " ", code)
    re = "(^|;|begin([ \t]*:[ \t]*[A-Za-z_][A-Za-z0-9_]*)?)[ \t]*" prim \
         "[ \t]*(#|[A-Za-z_][A-Za-z0-9_$]*[ \t]*[([]|$)"
    if (match(code, re)) {
      s = substr(code, RSTART, RLENGTH)
      sub(/^(;|begin([ \t]*:[ \t]*[A-Za-z_][A-Za-z0-9_]*)?)?[ \t]*/, "", s)
      match(s, /^[A-Za-z0-9_]+/)
      printf "%s:%d: %s\n", FILENAME, FNR, substr(s, 1, RLENGTH)
    }
  }' "${files[@]}")

if [ -n "$hits" ]; then
  echo "check-primitives: vendor primitives instantiated outside rtl/tech/xilinx/ (rtl/tech/xilinx/README.md):"
  echo "$hits" | sed 's/^/  /'
  exit 1
fi
echo "check-primitives: ${#files[@]} file(s) under rtl/ (outside rtl/tech/) and protocols/: no vendor primitive instantiated"
