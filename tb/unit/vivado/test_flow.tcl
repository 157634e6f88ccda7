# SPDX-License-Identifier: Apache-2.0
# test_flow.tcl — checks synth/vivado/ without Vivado (CTest label `vivado`).
#
# usage: tclsh test_flow.tcl syntax <root>
#        tclsh test_flow.tcl flow <root> <node> <work dir>
#
# syntax: every .tcl and .xdc file under <root>/synth/vivado is a complete
#   Tcl script (`info complete` on the whole text: balanced braces, brackets
#   and quotes).
# flow: for several runs, `node scripts/vivado.mjs --dry-run` writes
#   files.tcl, then synth/vivado/tonic.tcl runs in a fresh interpreter on
#   the stubs of stub_vivado.tcl (which also evaluate the XDC file against
#   the ports of rtl/tonic_top.sv). Checked per run:
#   - the flow runs to the end, with exactly this command order: read_verilog
#     per source, read_xdc, synth_design, the clock check, the synthesis
#     report and checkpoint, opt_design, place_design, phys_opt_design,
#     route_design, the reports, the routed checkpoint;
#   - the files given to read_verilog are, in order, the sources of the
#     manifest config files.tcl names, as `node scripts/manifest.mjs
#     --config <name>` prints them (the list the Verilator models, make lint
#     and make synth-estimate use); that config is a tonic_top one with
#     protocols/<protocol> in its include_dirs; synth_design gets its
#     include_dirs and top, and -generic FlowCount/Window as asked;
#   - the XDC of the clock is read and defines clock clk on clk_i with the
#     period; every other input has an input delay, every output an output
#     delay (0 ns, synth/vivado/README.md);
#   - the reports land in the run directory.
#   Every XDC under synth/vivado must be used by one of the runs. Then the
#   failures: no argument, a missing source, a run file without a variable,
#   an XDC whose period is not the run's, a parameter the top does not have:
#   each must be a Tcl error naming the problem.
# Prints one line per check and "N passed, N failed"; exits 1 on a failure.

set passed 0
set failed 0
# cond: an expression, evaluated in the caller.
proc check {what cond {detail ""}} {
  if {[uplevel 1 [list expr $cond]]} {
    incr ::passed
    puts "ok   $what"
  } else {
    incr ::failed
    puts "FAIL $what[expr {$detail ne "" ? "\n     $detail" : ""}]"
  }
}
proc finish {} {
  puts "$::passed passed, $::failed failed"
  exit [expr {$::failed ? 1 : 0}]
}
# Two lists with the same elements in the same order (whatever their layout).
proc same {a b} {
  return [expr {[lrange $a 0 end] eq [lrange $b 0 end]}]
}
proc slurp {f} {
  set fd [open $f r]
  set t [read $fd]
  close $fd
  return $t
}
proc spit {f text} {
  set fd [open $f w]
  puts -nonewline $fd $text
  close $fd
}

set here [file dirname [file normalize [info script]]]
lassign $argv mode root node work
if {$mode ni {syntax flow} || $root eq "" || ($mode eq "flow" && $work eq "")} {
  puts stderr "usage: tclsh test_flow.tcl syntax <root> | flow <root> <node> <work dir>"
  exit 2
}
set root [file normalize $root]
set vdir [file join $root synth vivado]

if {$mode eq "syntax"} {
  set files [lsort [concat [glob -nocomplain -directory $vdir *.tcl] [glob -nocomplain -directory $vdir *.xdc]]]
  check "synth/vivado has .tcl and .xdc files" {[llength $files] >= 3} $files
  foreach f $files {
    check "[file tail $f] is complete Tcl" {[info complete [slurp $f]]}
  }
  finish
}

# ---- flow --------------------------------------------------------------------

file mkdir $work

# Runs tonic.tcl on the stubs in a fresh interpreter; returns {rc result calls}.
proc stub_run {argl} {
  set i [interp create]
  $i eval [list source [file join $::here stub_vivado.tcl]]
  $i eval [list set ::argv $argl]
  $i eval [list set ::argc [llength $argl]]
  # tonic.tcl prints progress; keep the test output to the checks.
  $i eval {rename puts ::stub::real_puts; proc puts {args} {}}
  set rc [catch {$i eval [list source [file join $::vdir tonic.tcl]]} res]
  set calls [$i eval {set ::stub::calls}]
  interp delete $i
  return [list $rc $res $calls]
}

# A manifest config as `node scripts/manifest.mjs --config <name>` prints it.
proc manifest_config {name} {
  set out [exec $::node [file join $::root scripts manifest.mjs] --config $name]
  set lines [split [string trim $out \n] \n]
  if {[llength $lines] != 1} { return {} }
  lassign [split [lindex $lines 0] \t] n top sources params incdirs
  return [dict create name $n top $top sources $sources params $params include_dirs $incdirs]
}

# The value of `set <var> ...` in a generated files.tcl.
proc run_var {files_tcl var} {
  set i [interp create -safe]
  $i eval [slurp $files_tcl]
  set v [$i eval [list set $var]]
  interp delete $i
  return $v
}

# The input / output ports of tonic_top, read straight from the RTL.
proc top_ports {} {
  set in {}
  set out {}
  foreach line [split [slurp [file join $::root rtl tonic_top.sv]] \n] {
    regsub {//.*$} $line {} line
    if {[regexp {^\s*input\M.*?(\w+)\s*,?\s*$} $line -> n]} { lappend in $n }
    if {[regexp {^\s*output\M.*?(\w+)\s*,?\s*$} $line -> n]} { lappend out $n }
  }
  return [list [lsort $in] [lsort $out]]
}
lassign [top_ports] top_in top_out
check "rtl/tonic_top.sv: ports found (clk_i among the inputs)" {"clk_i" in $top_in && [llength $top_out] > 5}

# The protocols of the runs come from the registry: the reference protocol
# (a window one) at 100 MHz, a rate protocol at its largest size and
# 150 MHz, a token protocol at the default clock (the reference protocol
# again where the tree has no protocol of a credit scheme).
set ref [string trim [exec $node [file join $root scripts registry.mjs] --reference]]
set by_credit [dict create]
foreach line [split [exec $node [file join $root scripts registry.mjs] --list] \n] {
  lassign [split $line \t] name credit
  if {$name ne "" && ![dict exists $by_credit $credit]} { dict set by_credit $credit $name }
}
if {$ref eq ""} { set ref [lindex [dict values $by_credit] 0] }
check "the registry names a protocol for the runs" {$ref ne ""}
proc of_credit {credit} {
  return [expr {[dict exists $::by_credit $credit] ? [dict get $::by_credit $credit] : $::ref}]
}
set runs [list \
  [list $ref                1024 128 100 10.000] \
  [list [of_credit rate]   4096 256 150 6.667] \
  [list [of_credit tokens] 1024 128 {}  10.000]]
set used_xdcs {}
foreach r $runs {
  lassign $r proto flows window clock period
  set mhz [expr {$clock eq "" ? 100 : $clock}]
  set tag "${proto}_${flows}x${window}_${mhz}mhz"
  set cmd [list $node [file join $root scripts vivado.mjs] --protocol $proto --flows $flows --window $window --dry-run --out $work]
  if {$clock ne ""} { lappend cmd --clock $clock }
  set rc [catch {exec {*}$cmd} out]
  set files_tcl [file join $work $tag files.tcl]
  check "$tag: vivado.mjs --dry-run writes files.tcl" {$rc == 0 && [file isfile $files_tcl]} $out
  if {![file isfile $files_tcl]} continue
  set run_dir [file join $work $tag]
  foreach f [glob -nocomplain -directory $run_dir *.rpt *.dcp] { file delete $f }

  lassign [stub_run [list $files_tcl]] rc res calls
  check "$tag: tonic.tcl runs to the end on the stubs" {$rc == 0} $res
  if {$rc != 0} continue

  # Command order (queries left out).
  set steps {}
  foreach c $calls {
    set name [lindex $c 0]
    if {![string match get_* $name] && $name ni {create_clock set_input_delay set_output_delay}} {
      lappend steps $name
    }
  }
  set config [run_var $files_tcl tonic_config]
  set m [manifest_config $config]
  check "$tag: manifest config $config exists" {[dict size $m] > 0}
  if {[dict size $m] == 0} continue
  set want_sources {}
  foreach s [dict get $m sources] { lappend want_sources [file join $root $s] }
  set want_steps [concat [lrepeat [llength $want_sources] read_verilog] {read_xdc synth_design
    report_utilization write_checkpoint opt_design place_design phys_opt_design route_design
    report_utilization report_timing_summary report_timing report_design_analysis report_route_status
    write_checkpoint}]
  check "$tag: command order read -> synth -> opt -> place -> phys_opt -> route -> reports" {[same $steps $want_steps]} \
    "got: $steps"

  # The sources: those of the manifest, in order, each with -sv.
  set read {}
  set sv 1
  foreach c $calls {
    if {[lindex $c 0] eq "read_verilog"} {
      if {[lindex $c 1] ne "-sv"} { set sv 0 }
      lappend read [lindex $c end]
    }
  }
  check "$tag: read_verilog files == the sources of $config (manifest.mjs), in order" {[same $read $want_sources]} \
    "read:     $read\n     manifest: $want_sources"
  check "$tag: every source read with -sv" {$sv}
  check "$tag: $config is a tonic_top config of protocols/$proto" \
    {[dict get $m top] eq "tonic_top" && "protocols/$proto" in [dict get $m include_dirs]}

  # synth_design's arguments.
  set synth [lsearch -inline -index 0 $calls synth_design]
  set sargs [lrange $synth 1 end]
  set opt [dict create]
  set generics {}
  foreach {k v} $sargs {
    if {$k eq "-generic"} { lappend generics $v } else { dict set opt $k $v }
  }
  set want_inc {}
  foreach d [dict get $m include_dirs] { lappend want_inc [file join $root $d] }
  check "$tag: synth_design -include_dirs == the config's include_dirs" {[same [dict get $opt -include_dirs] $want_inc]} \
    "got [dict get $opt -include_dirs]"
  check "$tag: synth_design -top [dict get $m top] -part xcku15p-ffve1517-2-e -mode out_of_context" \
    {[dict get $opt -top] eq [dict get $m top] && [dict get $opt -part] eq "xcku15p-ffve1517-2-e"
     && [dict get $opt -mode] eq "out_of_context"}
  check "$tag: -generic FlowCount=$flows and Window=$window" \
    {"FlowCount=$flows" in $generics && "Window=$window" in $generics && [llength $generics] == 2} "got $generics"

  # Constraints.
  set xdc [lindex [lsearch -inline -index 0 $calls read_xdc] end]
  lappend used_xdcs [file normalize $xdc]
  check "$tag: reads synth/vivado/tonic_${mhz}mhz.xdc" {[file tail $xdc] eq "tonic_${mhz}mhz.xdc"} "got $xdc"
  set clk [lsearch -inline -index 0 $calls create_clock]
  check "$tag: create_clock -period $period -name clk on clk_i" \
    {[same [lrange $clk 1 end] [list -period $period -name clk clk_i]]} "got $clk"
  set din [lindex [lsearch -inline -index 0 $calls set_input_delay] end]
  set dout [lindex [lsearch -inline -index 0 $calls set_output_delay] end]
  check "$tag: input delay on every input but clk_i" \
    {[same [lsort $din] [lsearch -all -inline -not -exact $top_in clk_i]]} "got $din"
  check "$tag: output delay on every output" {[same [lsort $dout] $top_out]} "got $dout"

  set missing {}
  foreach f {utilization_synth.rpt utilization.rpt timing_summary.rpt timing_paths.rpt logic_levels.rpt
             route_status.rpt synth.dcp routed.dcp} {
    if {![file isfile [file join $run_dir $f]]} { lappend missing $f }
  }
  check "$tag: reports and checkpoints in the run directory" {[llength $missing] == 0} "missing: $missing"
}
foreach x [lsort [glob -directory $vdir *.xdc]] {
  check "[file tail $x] is used by a run above" {[file normalize $x] in $used_xdcs}
}

# ---- failures are loud -------------------------------------------------------

set good [file join $work ${ref}_1024x128_100mhz files.tcl]
proc expect_error {what files_tcl pattern} {
  lassign [stub_run [list $files_tcl]] rc res
  check "fails: $what" {$rc != 0 && [regexp -- $pattern $res]} "rc $rc: $res"
}
lassign [stub_run {}] rc res
check "fails: no run file argument (usage)" {$rc != 0 && [string match *usage* $res]} $res
expect_error "run file does not exist" [file join $work nothing.tcl] {no run file}
if {[file isfile $good]} {
  set text [slurp $good]
  set bad [file join $work bad_files.tcl]
  spit $bad [string map [list tonic_rate_wait.sv tonic_rate_wait_gone.sv] $text]
  expect_error "a source file is missing" $bad {no source file .*tonic_rate_wait_gone\.sv}
  spit $bad [regsub -line {^set tonic_part .*$} $text {}]
  expect_error "files.tcl lacks tonic_part" $bad {does not set tonic_part}
  spit $bad [regsub -line {^set tonic_period_ns .*$} $text {set tonic_period_ns 6.667}]
  expect_error "the XDC's period is not the run's" $bad {clock period 10\.000 ns, but the run asks for 6\.667}
  spit $bad [string map [list "Window 128" "Window 128 Depth 4"] $text]
  expect_error "a generic the top does not have" $bad {no parameter Depth}
  spit $bad [regsub -line {^set tonic_xdc .*$} $text "set tonic_xdc [file join $work none.xdc]"]
  expect_error "the XDC is missing" $bad {no constraints file}
  file delete $bad
}
finish
