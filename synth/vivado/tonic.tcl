# SPDX-License-Identifier: Apache-2.0
# tonic.tcl — Vivado non-project flow for one Tonic top on the Kintex
# UltraScale+ XCKU15P: out-of-context synthesis, implementation and reports.
#
# Usage (what `make vivado` / scripts/vivado.mjs runs, in the run directory):
#   vivado -mode batch -nojournal -log vivado.log \
#          -source synth/vivado/tonic.tcl -tclargs <run dir>/files.tcl
#
# files.tcl is generated per run by scripts/vivado.mjs from the manifest
# (rtl/manifest/*.json, the one list of sources that Verilator/CMake,
# `make lint` and `make synth-estimate` use too), so no file list is written
# by hand here. It sets, with absolute paths:
#   tonic_config        the manifest config the sources come from (for logs)
#   tonic_sources       the RTL files in compile order (packages first)
#   tonic_include_dirs  the `include search path (rtl/dd, protocols/<name>)
#   tonic_top           the top module (tonic_top)
#   tonic_generics      {Name value ...}: top-level parameter overrides
#   tonic_part          the device (xcku15p-ffve1517-2-e)
#   tonic_period_ns     the clock period the XDC must define on clk_i
#   tonic_xdc           the constraints (synth/vivado/tonic_<clock>mhz.xdc)
#   tonic_out_dir       where the reports and checkpoints go
#
# Steps: read_verilog -sv of every source (the protocol files are named *.v
# but are SystemVerilog), read_xdc, synth_design -mode out_of_context (no I/O
# buffers: the top is a block of a larger NIC design), a check that the XDC's
# clock on clk_i has tonic_period_ns, opt_design, place_design,
# phys_opt_design, route_design. Output in tonic_out_dir:
#   utilization_synth.rpt  report_utilization after synthesis
#   synth.dcp              checkpoint after synthesis
#   utilization.rpt        report_utilization after routing
#   timing_summary.rpt     report_timing_summary (WNS, TNS, WHS, clocks)
#   timing_paths.rpt       report_timing, the 10 worst setup paths (each
#                          header has "Logic Levels:")
#   logic_levels.rpt       report_design_analysis -logic_level_distribution
#   route_status.rpt       report_route_status
#   routed.dcp             checkpoint after routing
# scripts/vivado-parse.mjs turns the reports into a row of
# build/reports/vivado.json. See synth/vivado/README.md.
#
# Every missing or inconsistent input is a Tcl error (Vivado exits non-zero).
# Written for the Tcl 8.5 inside Vivado (no lmap, no try).

proc tonic_fail {msg} {
  return -code error "tonic.tcl: $msg"
}

# Reads files.tcl into the caller's array `run` and checks every entry.
proc tonic_load_run {files_tcl} {
  upvar 1 run run
  if {![file isfile $files_tcl]} {
    tonic_fail "no run file '$files_tcl' (generate it with scripts/vivado.mjs)"
  }
  # Sourced inside this procedure: its variables stay local.
  if {[catch {source $files_tcl} err]} {
    tonic_fail "$files_tcl: $err"
  }
  foreach key {config sources include_dirs top generics part period_ns xdc out_dir} {
    if {![info exists tonic_$key]} {
      tonic_fail "$files_tcl does not set tonic_$key"
    }
    set run($key) [set tonic_$key]
  }
  if {[llength $run(sources)] == 0} {
    tonic_fail "$files_tcl: tonic_sources is empty"
  }
  foreach f $run(sources) {
    if {![file isfile $f]} { tonic_fail "$files_tcl: no source file '$f'" }
  }
  foreach d $run(include_dirs) {
    if {![file isdirectory $d]} { tonic_fail "$files_tcl: no include directory '$d'" }
  }
  if {![file isfile $run(xdc)]} { tonic_fail "$files_tcl: no constraints file '$run(xdc)'" }
  if {[llength $run(generics)] % 2 != 0} {
    tonic_fail "$files_tcl: tonic_generics must be {Name value ...}"
  }
  foreach {name value} $run(generics) {
    if {![regexp {^[A-Za-z_][A-Za-z0-9_]*$} $name] || ![string is integer -strict $value]} {
      tonic_fail "$files_tcl: bad generic '$name=$value' (integer parameters only)"
    }
  }
  if {![string is double -strict $run(period_ns)] || $run(period_ns) <= 0} {
    tonic_fail "$files_tcl: tonic_period_ns '$run(period_ns)' is not a positive number"
  }
  foreach key {top part out_dir} {
    if {$run($key) eq ""} { tonic_fail "$files_tcl: tonic_$key is empty" }
  }
}

proc tonic_main {argv} {
  if {[llength $argv] != 1} {
    tonic_fail "usage: vivado -mode batch -source tonic.tcl -tclargs <run dir>/files.tcl (got [llength $argv] arguments)"
  }
  tonic_load_run [lindex $argv 0]
  set out $run(out_dir)
  file mkdir $out
  puts "tonic.tcl: $run(config) ($run(top) $run(generics)) on $run(part) at $run(period_ns) ns -> $out"

  foreach f $run(sources) {
    read_verilog -sv $f
  }
  read_xdc $run(xdc)

  set synth_args [list -mode out_of_context -top $run(top) -part $run(part) \
                      -include_dirs $run(include_dirs)]
  foreach {name value} $run(generics) {
    lappend synth_args -generic "$name=$value"
  }
  synth_design {*}$synth_args

  # The XDC must constrain clk_i with the period this run was generated for.
  set clk [get_clocks -quiet -of_objects [get_ports clk_i]]
  if {[llength $clk] != 1} {
    tonic_fail "$run(xdc) defines [llength $clk] clocks on clk_i (need 1)"
  }
  set period [get_property PERIOD $clk]
  if {abs($period - $run(period_ns)) > 0.001} {
    tonic_fail "$run(xdc): clock period $period ns, but the run asks for $run(period_ns) ns"
  }
  report_utilization -file [file join $out utilization_synth.rpt]
  write_checkpoint -force [file join $out synth.dcp]

  opt_design
  place_design
  phys_opt_design
  route_design

  report_utilization -file [file join $out utilization.rpt]
  report_timing_summary -max_paths 10 -file [file join $out timing_summary.rpt]
  report_timing -delay_type max -sort_by slack -max_paths 10 -file [file join $out timing_paths.rpt]
  report_design_analysis -logic_level_distribution -file [file join $out logic_levels.rpt]
  report_route_status -file [file join $out route_status.rpt]
  write_checkpoint -force [file join $out routed.dcp]
  puts "tonic.tcl: done, reports in $out"
}

tonic_main $argv
