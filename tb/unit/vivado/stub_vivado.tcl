# SPDX-License-Identifier: Apache-2.0
# stub_vivado.tcl — stand-ins for every Vivado command that
# synth/vivado/tonic.tcl and the XDC files use, so that plain tclsh runs the
# flow without Vivado (the `vivado` CTest label, tb/unit/vivado/).
#
# Each stub checks its arguments the way Vivado would refuse them (unknown
# options, missing files, a constraint on a port the top does not have, an
# unknown clock, a -generic that is not a parameter of the top, a step out
# of order) and the flow's own rules (-part xcku15p-ffve1517-2-e, -mode
# out_of_context, -top tonic_top, every source read with -sv), and appends
# {command arg...} to ::stub::calls. As in Vivado, read_xdc only records the
# file: the constraints are evaluated by synth_design, against the ports of
# the top module, which the stub reads from the port list of the source
# that defines it (one port declaration per line, as in rtl/tonic_top.sv).
#
# Two ways to use it:
#   - source it into a fresh interpreter, set ::argv, source tonic.tcl and
#     read ::stub::calls (tb/unit/vivado/test_flow.tcl);
#   - as a fake `vivado` executable: tclsh stub_vivado.tcl -mode batch
#     -nojournal -log vivado.log -source <tonic.tcl> -tclargs <files.tcl>
#     (the command line scripts/vivado.mjs gives Vivado); exit 1 on an error.
#     TONIC_STUB_FIXTURES (environment): a directory whose utilization.rpt,
#     timing_summary.rpt and timing_paths.rpt the report stubs copy to their
#     -file, so that scripts/vivado-parse.mjs has real-looking reports
#     (tb/unit/vivado/test_vivado_options.mjs).
# Other report files get one placeholder line.

namespace eval ::stub {
  variable part xcku15p-ffve1517-2-e
  variable calls {}
  variable sources {}
  variable xdcs {}
  variable state none      ;# none, synth, opt, place, phys_opt, route
  variable ports           ;# name -> IN / OUT (after synth_design)
  array set ports {}
  variable params {}       ;# parameters of the top (after synth_design)
  variable clocks          ;# name -> {period ports}
  array set clocks {}
  variable delays {}       ;# {input|output clock delay port...}
  variable checkpoints {}
}

proc ::stub::fail {cmd msg} {
  return -code error "ERROR: \[stub $cmd\] $msg"
}

proc ::stub::record {cmd args} {
  lappend ::stub::calls [list $cmd {*}$args]
}

# Parses args against a spec {-opt kind ...} (kind: flag, value, multi);
# returns a dict of options plus "positional". Unknown options are errors.
proc ::stub::options {cmd spec argl} {
  set out [dict create positional {}]
  for {set i 0} {$i < [llength $argl]} {incr i} {
    set a [lindex $argl $i]
    if {[string match -* $a] && ![string is double -strict $a]} {
      if {![dict exists $spec $a]} { ::stub::fail $cmd "unknown option '$a'" }
      switch -- [dict get $spec $a] {
        flag { dict set out $a 1 }
        value {
          if {$i + 1 >= [llength $argl]} { ::stub::fail $cmd "option '$a' needs a value" }
          dict set out $a [lindex $argl [incr i]]
        }
        multi {
          if {$i + 1 >= [llength $argl]} { ::stub::fail $cmd "option '$a' needs a value" }
          dict lappend out $a [lindex $argl [incr i]]
        }
      }
    } else {
      dict lappend out positional $a
    }
  }
  return $out
}

proc ::stub::need_design {cmd} {
  if {$::stub::state eq "none"} { ::stub::fail $cmd "no open design (run synth_design first)" }
}

# Steps after synth_design must come in this order (each at most once).
proc ::stub::step {cmd from to} {
  ::stub::need_design $cmd
  if {$::stub::state ni $from} {
    ::stub::fail $cmd "out of order: design state is '$::stub::state', needs one of: $from"
  }
  set ::stub::state $to
}

# ---- sources and constraints ------------------------------------------------

proc read_verilog {args} {
  set o [::stub::options read_verilog {-sv flag -library value} $args]
  set files [dict get $o positional]
  if {![dict exists $o -sv]} { ::stub::fail read_verilog "the flow reads every source as SystemVerilog (-sv): $files" }
  if {$::stub::state ne "none"} { ::stub::fail read_verilog "sources must be read before synth_design" }
  if {[llength $files] == 0} { ::stub::fail read_verilog "no file" }
  foreach f $files {
    if {![file isfile $f]} { ::stub::fail read_verilog "file '$f' does not exist" }
    lappend ::stub::sources $f
  }
  ::stub::record read_verilog {*}$args
}

proc read_xdc {args} {
  set o [::stub::options read_xdc {-unmanaged flag} $args]
  set files [dict get $o positional]
  if {[llength $files] != 1} { ::stub::fail read_xdc "expects one file, got '$files'" }
  set f [lindex $files 0]
  if {![file isfile $f]} { ::stub::fail read_xdc "file '$f' does not exist" }
  if {$::stub::state ne "none"} { ::stub::fail read_xdc "constraints must be read before synth_design here" }
  lappend ::stub::xdcs $f
  ::stub::record read_xdc {*}$args
}

# The ports (name -> IN/OUT) and parameters of module $top in $file.
proc ::stub::parse_top {file top} {
  set fd [open $file r]
  set text [read $fd]
  close $fd
  if {![regexp -indices "(?n)^\\s*module\\s+$top\\M" $text m]} { return 0 }
  set rest [string range $text [lindex $m 1] end]
  # The header ends at the first ");" at the start of a line.
  if {![regexp -indices {(?n)^\s*\);} $rest e]} { return 0 }
  set head [string range $rest 0 [lindex $e 0]]
  foreach line [split $head \n] {
    regsub {//.*$} $line {} line
    if {[regexp {^\s*(input|output|inout)\M.*?([A-Za-z_][A-Za-z0-9_]*)\s*,?\s*$} $line -> dir name]} {
      set ::stub::ports($name) [expr {$dir eq "input" ? "IN" : "OUT"}]
    }
    if {[regexp {^\s*parameter\M.*?([A-Za-z_][A-Za-z0-9_]*)\s*=} $line -> name]} {
      lappend ::stub::params $name
    }
  }
  return 1
}

proc synth_design {args} {
  set o [::stub::options synth_design {-mode value -top value -part value -include_dirs value
    -generic multi -flatten_hierarchy value -directive value} $args]
  if {[llength [dict get $o positional]]} { ::stub::fail synth_design "unexpected arguments: [dict get $o positional]" }
  foreach {opt want} [list -part $::stub::part -mode out_of_context -top tonic_top] {
    if {![dict exists $o $opt] || [dict get $o $opt] ne $want} {
      ::stub::fail synth_design "the flow needs $opt $want, got '[expr {[dict exists $o $opt] ? [dict get $o $opt] : {}}]'"
    }
  }
  if {$::stub::state ne "none"} { ::stub::fail synth_design "the design is already synthesized" }
  if {[llength $::stub::sources] == 0} { ::stub::fail synth_design "no sources read" }
  if {[llength $::stub::xdcs] == 0} { ::stub::fail synth_design "no constraints read (the flow needs the clock)" }
  if {[dict exists $o -include_dirs]} {
    foreach d [dict get $o -include_dirs] {
      if {![file isdirectory $d]} { ::stub::fail synth_design "include directory '$d' does not exist" }
    }
  }
  set top [dict get $o -top]
  set found 0
  foreach f $::stub::sources {
    if {[::stub::parse_top $f $top]} { set found 1; break }
  }
  if {!$found} { ::stub::fail synth_design "module '$top' not found in the sources read" }
  if {[dict exists $o -generic]} {
    foreach g [dict get $o -generic] {
      if {![regexp {^([A-Za-z_][A-Za-z0-9_]*)=(.+)$} $g -> name value]} {
        ::stub::fail synth_design "-generic '$g' is not Name=value"
      }
      if {$name ni $::stub::params} {
        ::stub::fail synth_design "-generic $name: $top has no parameter $name (has: $::stub::params)"
      }
    }
  }
  set ::stub::state synth
  ::stub::record synth_design {*}$args
  # Vivado applies the constraints read before synth_design now.
  foreach x $::stub::xdcs {
    if {[catch {uplevel #0 [list source $x]} err]} {
      set ::stub::state none
      ::stub::fail synth_design "constraints $x: $err"
    }
  }
}

# A tiny Vivado -filter: terms "PROP op value" joined by &&; PROP NAME or
# DIRECTION; op ==, !=, =~ (glob), !~.
# 1 if name matches one of the glob patterns pats, else 0.
proc ::stub::matches {pats name} {
  foreach p $pats { if {[string match $p $name]} { return 1 } }
  return 0
}

proc ::stub::filter_ok {expr name dir} {
  foreach term [split [string map {&& \x01} $expr] \x01] {
    if {![regexp {^\s*(\w+)\s*(==|!=|=~|!~)\s*"?([^"]*?)"?\s*$} $term -> prop op value]} {
      ::stub::fail get_ports "cannot read filter term '$term'"
    }
    switch -- $prop {
      NAME { set have $name }
      DIRECTION { set have $dir }
      default { ::stub::fail get_ports "filter property '$prop' is not stubbed (NAME, DIRECTION)" }
    }
    switch -- $op {
      == { set ok [expr {$have eq $value}] }
      != { set ok [expr {$have ne $value}] }
      =~ { set ok [string match $value $have] }
      !~ { set ok [expr {![string match $value $have]}] }
    }
    if {!$ok} { return 0 }
  }
  return 1
}

proc get_ports {args} {
  ::stub::need_design get_ports
  set o [::stub::options get_ports {-quiet flag -filter value -regexp flag -nocase flag} $args]
  set pats [dict get $o positional]
  if {[llength $pats] == 0} { set pats * }
  set out {}
  foreach name [lsort [array names ::stub::ports]] {
    set hit [::stub::matches $pats $name]
    if {$hit && [dict exists $o -filter]} {
      set hit [::stub::filter_ok [dict get $o -filter] $name $::stub::ports($name)]
    }
    if {$hit} { lappend out $name }
  }
  if {[llength $out] == 0 && ![dict exists $o -quiet]} {
    ::stub::fail get_ports "no port matches '$pats'[expr {[dict exists $o -filter] ? " with -filter {[dict get $o -filter]}" : ""}]"
  }
  ::stub::record get_ports {*}$args
  return $out
}

proc create_clock {args} {
  ::stub::need_design create_clock
  set o [::stub::options create_clock {-period value -name value -waveform value -add flag} $args]
  if {![dict exists $o -period] || ![string is double -strict [dict get $o -period]] || [dict get $o -period] <= 0} {
    ::stub::fail create_clock "needs -period <positive ns>"
  }
  set objs [concat {*}[dict get $o positional]]
  if {[llength $objs] == 0} { ::stub::fail create_clock "no source objects (a virtual clock is not what the flow wants)" }
  foreach p $objs {
    if {![info exists ::stub::ports($p)] || $::stub::ports($p) ne "IN"} { ::stub::fail create_clock "'$p' is not an input port" }
  }
  set name [expr {[dict exists $o -name] ? [dict get $o -name] : [lindex $objs 0]}]
  set ::stub::clocks($name) [list [dict get $o -period] $objs]
  ::stub::record create_clock {*}$args
}

proc get_clocks {args} {
  ::stub::need_design get_clocks
  set o [::stub::options get_clocks {-quiet flag -of_objects value} $args]
  set pats [dict get $o positional]
  if {[llength $pats] == 0} { set pats * }
  set out {}
  foreach name [lsort [array names ::stub::clocks]] {
    set hit [::stub::matches $pats $name]
    if {$hit && [dict exists $o -of_objects]} {
      set on [lindex $::stub::clocks($name) 1]
      set hit 0
      foreach obj [dict get $o -of_objects] { if {$obj in $on} { set hit 1 } }
    }
    if {$hit} { lappend out $name }
  }
  if {[llength $out] == 0 && ![dict exists $o -quiet]} { ::stub::fail get_clocks "no clock matches '$pats'" }
  ::stub::record get_clocks {*}$args
  return $out
}

proc ::stub::io_delay {cmd kind dir argl} {
  ::stub::need_design $cmd
  set o [::stub::options $cmd {-clock value -max flag -min flag -add_delay flag -clock_fall flag} $argl]
  set pos [dict get $o positional]
  if {[llength $pos] != 2} { ::stub::fail $cmd "expects <delay> <ports>, got '$pos'" }
  lassign $pos delay objs
  if {![string is double -strict $delay]} { ::stub::fail $cmd "delay '$delay' is not a number" }
  if {![dict exists $o -clock] || ![info exists ::stub::clocks([dict get $o -clock])]} {
    ::stub::fail $cmd "needs -clock <a defined clock>"
  }
  if {[llength $objs] == 0} { ::stub::fail $cmd "no ports" }
  foreach p $objs {
    if {![info exists ::stub::ports($p)] || $::stub::ports($p) ne $dir} { ::stub::fail $cmd "'$p' is not an $kind port" }
    foreach c [array names ::stub::clocks] {
      if {$p in [lindex $::stub::clocks($c) 1]} { ::stub::fail $cmd "'$p' is the source of clock $c" }
    }
  }
  lappend ::stub::delays [list $kind [dict get $o -clock] $delay {*}$objs]
  ::stub::record $cmd {*}$argl
}
proc set_input_delay {args} { ::stub::io_delay set_input_delay input IN $args }
proc set_output_delay {args} { ::stub::io_delay set_output_delay output OUT $args }

proc get_property {args} {
  ::stub::need_design get_property
  set o [::stub::options get_property {-quiet flag} $args]
  lassign [dict get $o positional] prop objs
  if {$prop ne "PERIOD"} { ::stub::fail get_property "property '$prop' is not stubbed (PERIOD)" }
  if {[llength $objs] != 1 || ![info exists ::stub::clocks([lindex $objs 0])]} {
    ::stub::fail get_property "PERIOD needs one clock, got '$objs'"
  }
  ::stub::record get_property {*}$args
  return [lindex $::stub::clocks([lindex $objs 0]) 0]
}

# ---- implementation ---------------------------------------------------------

proc ::stub::impl {cmd from to argl} {
  set o [::stub::options $cmd {-directive value} $argl]
  if {[llength [dict get $o positional]]} { ::stub::fail $cmd "unexpected arguments: [dict get $o positional]" }
  ::stub::step $cmd $from $to
  ::stub::record $cmd {*}$argl
}
proc opt_design {args} { ::stub::impl opt_design synth opt $args }
proc place_design {args} { ::stub::impl place_design opt place $args }
proc phys_opt_design {args} { ::stub::impl phys_opt_design place phys_opt $args }
proc route_design {args} { ::stub::impl route_design {place phys_opt} route $args }

# ---- reports and checkpoints -------------------------------------------------

proc ::stub::write_report {cmd file} {
  set dir [file dirname $file]
  if {![file isdirectory $dir]} { ::stub::fail $cmd "directory '$dir' does not exist" }
  set fixture ""
  if {[info exists ::env(TONIC_STUB_FIXTURES)]} {
    set fixture [file join $::env(TONIC_STUB_FIXTURES) [file tail $file]]
  }
  if {$fixture ne "" && [file isfile $fixture]} {
    file copy -force $fixture $file
  } else {
    set fd [open $file w]
    puts $fd "stub $cmd ($::stub::state)"
    close $fd
  }
}

proc ::stub::report {cmd spec argl} {
  ::stub::need_design $cmd
  set o [::stub::options $cmd [concat {-file value} $spec] $argl]
  if {[llength [dict get $o positional]]} { ::stub::fail $cmd "unexpected arguments: [dict get $o positional]" }
  if {![dict exists $o -file]} { ::stub::fail $cmd "the flow writes every report to a file (-file)" }
  ::stub::write_report $cmd [dict get $o -file]
  ::stub::record $cmd {*}$argl
}
proc report_utilization {args} { ::stub::report report_utilization {} $args }
proc report_timing_summary {args} { ::stub::report report_timing_summary {-max_paths value} $args }
proc report_timing {args} {
  ::stub::report report_timing {-delay_type value -sort_by value -max_paths value} $args
}
proc report_design_analysis {args} {
  ::stub::report report_design_analysis {-logic_level_distribution flag} $args
}
proc report_route_status {args} {
  if {$::stub::state ne "route"} { ::stub::fail report_route_status "the design is not routed" }
  ::stub::report report_route_status {} $args
}

proc write_checkpoint {args} {
  ::stub::need_design write_checkpoint
  set o [::stub::options write_checkpoint {-force flag} $args]
  set pos [dict get $o positional]
  if {[llength $pos] != 1} { ::stub::fail write_checkpoint "expects one file, got '$pos'" }
  set f [lindex $pos 0]
  if {[file exists $f] && ![dict exists $o -force]} { ::stub::fail write_checkpoint "'$f' exists (use -force)" }
  ::stub::write_report write_checkpoint $f
  lappend ::stub::checkpoints $f
  ::stub::record write_checkpoint {*}$args
}

# ---- as a fake `vivado` executable -------------------------------------------

if {[info exists ::argv0] && [file normalize $::argv0] eq [file normalize [info script]]} {
  set source ""
  set log vivado.log
  set tclargs {}
  for {set i 0} {$i < [llength $::argv]} {incr i} {
    switch -- [lindex $::argv $i] {
      -mode { incr i }
      -nojournal {}
      -log { set log [lindex $::argv [incr i]] }
      -source { set source [lindex $::argv [incr i]] }
      -tclargs { set tclargs [lrange $::argv [incr i] end]; break }
      default { puts stderr "stub vivado: unknown argument '[lindex $::argv $i]'"; exit 1 }
    }
  }
  if {$source eq ""} { puts stderr "stub vivado: no -source"; exit 1 }
  set ::argv $tclargs
  set ::argc [llength $tclargs]
  set rc [catch {uplevel #0 [list source $source]} err]
  set fd [open $log w]
  foreach c $::stub::calls { puts $fd $c }
  if {$rc} { puts $fd $err }
  close $fd
  if {$rc} { puts stderr $err; exit 1 }
  exit 0
}
