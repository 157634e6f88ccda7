#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks scripts/check-primitives.sh on a made-up tree: primitives
# instantiated in rtl/ and protocols/ are listed as file:line (a parameter
# list on the next line, after `;`, after `begin : label`, with an attribute,
# an instance array, an xpm_ macro); primitives named in // and /* */
# comments, in rtl/tech/, in files of other types and the project's own
# modules are not; the tree passes once the offending lines are gone; and
# the project itself passes.
# usage: test_check_primitives.sh <work dir>
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
CHECK="$ROOT/scripts/check-primitives.sh"
work="${1:?usage: test_check_primitives.sh <work dir>}"
rm -rf "$work"
mkdir -p "$work/rtl/common" "$work/rtl/tech/xilinx" "$work/protocols/p" "$work/tb"
pass=0
fail=0
check() {  # what, command...
  local what="$1"; shift
  if "$@"; then echo "ok   $what"; pass=$((pass + 1)); else echo "FAIL $what"; fail=$((fail + 1)); fi
}

cat > "$work/rtl/common/a.sv" <<'SV'
// the old form; RAMB36E2 u_comment (.CLKARDCLK(clk_i));   a comment only
/* Before:
   DSP48E2 #(
     .AREG(1)) u_block ( */
module a (input wire logic clk_i);
  RAMB36E2 #(
    .DOA_REG(0)
  ) u_ram (.CLKARDCLK(clk_i));
  logic q; FDRE u_ff (.C(clk_i), .D(1'b0), .Q(q), .CE(1'b1), .R(1'b0));
  if (1) begin : g_x xpm_memory_sdpram #(.MEMORY_SIZE(64)) u_xpm (.clka(clk_i)); end
  (* keep *) LUT6 u_lut [3:0] (.I0(clk_i));
  tonic_ram_1w1r #(.Depth(64)) u_ok (.clk_i(clk_i));  // RAMB18E2 named in a comment
endmodule
SV
cat > "$work/protocols/p/incoming.v" <<'SV'
module tonic_proto_incoming;
  BUFGCE
    u_bufg (.I(1'b0));
endmodule
SV
printf 'module w; RAMB18E2 u (.CLKARDCLK(1'"'"'b0)); endmodule\n' > "$work/rtl/tech/xilinx/tonic_ram_1w1r.sv"
printf 'RAMB36E2 u_x (.CLKARDCLK(1));\n' > "$work/rtl/common/notes.txt"
printf 'RAMB36E2 u_x (.CLKARDCLK(1));\n' > "$work/tb/x.sv"

set +e
out=$(bash "$CHECK" --root "$work" 2>&1)
rc=$?
set -e
want="  rtl/common/a.sv:6: RAMB36E2
  rtl/common/a.sv:9: FDRE
  rtl/common/a.sv:10: xpm_memory_sdpram
  rtl/common/a.sv:11: LUT6
  protocols/p/incoming.v:2: BUFGCE"
got=$(printf '%s\n' "$out" | grep '^  ' | sort)
check "exit 1 on instantiated primitives" [ "$rc" -eq 1 ]
check "lists exactly the instantiations, as file:line" [ "$got" = "$(printf '%s\n' "$want" | sort)" ]
[ "$got" = "$(printf '%s\n' "$want" | sort)" ] || printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"

sed -i '6,11d' "$work/rtl/common/a.sv"
rm "$work/protocols/p/incoming.v"
check "a clean tree passes" bash "$CHECK" --root "$work"
check "the project passes" bash "$CHECK"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
