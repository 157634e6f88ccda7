# SPDX-License-Identifier: Apache-2.0
# tonic_100mhz.xdc — out-of-context constraints for tonic_top at 100 MHz
# (10.000 ns) on the XCKU15P; read by synth/vivado/tonic.tcl (scripts/vivado.mjs
# --clock 100). tonic_100mhz.xdc and tonic_150mhz.xdc differ only in the period.
#
# One clock, on the top's clock port clk_i. No HD.CLK_SRC: it needs the site
# of the global buffer that will drive clk_i in the NIC design, which this
# block does not know; without it Vivado treats the clock as ideal (no
# insertion delay, no skew), which is slightly optimistic: the skew between
# distant registers of the real clock tree is not counted.
#
# I/O: the block sits between registers of the surrounding NIC logic, so
# every input is driven by, and every output feeds, a flip-flop on the same
# clock. Input and output delays of 0 ns model exactly that: a path through
# a port gets the whole period for Tonic's own logic and routing, the same
# budget as a register-to-register path inside the block. An I/O path then
# shows up among the worst paths only if Tonic's logic on it is as deep as
# the deepest internal path, never because of an invented external budget;
# leaving the ports unconstrained instead would leave the port-to-register
# logic (e.g. the rx_* inputs into the incoming pipeline) untimed.
# (synth/vivado/README.md, "Out of context".)
create_clock -period 10.000 -name clk [get_ports clk_i]
set_input_delay -clock [get_clocks clk] 0.000 [get_ports -filter {DIRECTION == IN && NAME != clk_i}]
set_output_delay -clock [get_clocks clk] 0.000 [get_ports -filter {DIRECTION == OUT}]
