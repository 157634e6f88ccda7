# SPDX-License-Identifier: Apache-2.0
# Smoke tests of tonic-run (registered by sim/run/CMakeLists.txt, label run).
#   cmake -DMODE=smoke|bad -DEXE=<tonic-run> [-DPROTOCOL=<name>] [-DBAD_WINDOW=<name>|<W>]
#         [-DBAD_FLOWS=<name>|<F>|<W>] [-DUNTRACED=<name>] -DOUT=<dir> -P smoke.cmake
# (sim/run/CMakeLists.txt derives them from the registry's builds)
# PROTOCOL: a protocol of the detailed run (the reference protocol);
# BAD_WINDOW: a protocol and a window it has no build of; BAD_FLOWS: a
# protocol, more flows than its builds of that window hold; UNTRACED: a
# protocol of the detailed run without a traced build. Each may be empty (a
# tree without such a case): its case is left out.
# smoke: a short detailed run (--protocol PROTOCOL) exits 0 and writes
#        cwnd.csv, tx.csv, summary.json, plot.gp (and cwnd.png when gnuplot
#        is installed); a short suite (the default, every protocol) exits 0
#        with two passing runs per protocol and their files.
# bad:   invalid options exit with status 2.

if(NOT EXE OR NOT OUT OR NOT MODE)
  message(FATAL_ERROR "usage: cmake -DMODE=smoke|bad -DEXE=<tonic-run> -DOUT=<dir> -P smoke.cmake")
endif()

if(MODE STREQUAL "smoke" AND NOT PROTOCOL)
  message("no protocol for the detailed run: the suite only")
  file(REMOVE_RECURSE ${OUT})
elseif(MODE STREQUAL "smoke")
  file(REMOVE_RECURSE ${OUT})
  execute_process(COMMAND ${EXE} --protocol ${PROTOCOL} --flows 16 --cycles 20000 --out ${OUT} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tonic-run exited with ${rc}")
  endif()
  foreach(f cwnd.csv tx.csv summary.json plot.gp)
    if(NOT EXISTS ${OUT}/${f})
      message(FATAL_ERROR "tonic-run did not write ${OUT}/${f}")
    endif()
  endforeach()
  file(READ ${OUT}/summary.json js)
  string(JSON segs GET "${js}" results segments)
  if(segs LESS 15000)
    message(FATAL_ERROR "only ${segs} segments in 20000 cycles")
  endif()
  file(STRINGS ${OUT}/tx.csv tx LIMIT_COUNT 2)
  list(GET tx 0 head)
  if(NOT head STREQUAL "cycle,idx,rtx")
    message(FATAL_ERROR "tx.csv header is '${head}'")
  endif()
  find_program(GNUPLOT gnuplot)
  if(GNUPLOT AND NOT EXISTS ${OUT}/cwnd.png)
    message(FATAL_ERROR "gnuplot is installed but ${OUT}/cwnd.png is missing")
  endif()
endif()
if(MODE STREQUAL "smoke")
  # The suite: every protocol of the registry, line rate and bottleneck.
  set(SUITE ${OUT}/suite)
  execute_process(COMMAND ${EXE} --flows 64 --cycles 20000 --out ${SUITE} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tonic-run (suite) exited with ${rc}")
  endif()
  file(READ ${SUITE}/summary.json js)
  string(JSON n LENGTH "${js}" runs)
  if(n LESS 2)
    message(FATAL_ERROR "the suite made ${n} runs")
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON p GET "${js}" runs ${i} protocol)
    string(JSON errs GET "${js}" runs ${i} check_errors)
    string(JSON segs GET "${js}" runs ${i} segments)
    string(JSON dir GET "${js}" runs ${i} dir)
    if(NOT errs EQUAL 0 OR segs LESS 100)
      message(FATAL_ERROR "suite run ${i} (${p}): ${errs} check errors, ${segs} segments")
    endif()
    foreach(f tx.csv state.csv plot.gp)
      if(NOT EXISTS ${dir}/${f})
        message(FATAL_ERROR "the suite did not write ${dir}/${f}")
      endif()
    endforeach()
  endforeach()
elseif(MODE STREQUAL "bad")
  set(detailed)
  if(BAD_WINDOW)
    string(REPLACE "|" ";" bw "${BAD_WINDOW}")
    list(GET bw 0 p)
    list(GET bw 1 w)
    list(APPEND detailed "--protocol|${p}|--window|${w}")
  endif()
  if(BAD_FLOWS)
    string(REPLACE "|" ";" bf "${BAD_FLOWS}")
    list(GET bf 0 p)
    list(GET bf 1 f)
    list(GET bf 2 w)
    list(APPEND detailed "--protocol|${p}|--flows|${f}|--window|${w}")
  endif()
  set(untraced)
  if(UNTRACED)
    set(untraced "--protocol|${UNTRACED}|--trace|x.fst")
  endif()
  set(cases
    "--flows|0"
    "--loss|1"
    "--loss|-0.1"
    "--protocol|no_such_protocol"
    "--drops|3:x"
    "--drops|1"
    "--flows|16|--drops|99:5"
    ${detailed}
    "--flows|2048|--window|128"
    "--flows|2048"
    "--bottleneck-flows|0"
    "--flows|8|--sample-flow|8"
    ${untraced}
    "--no-such-option")
  foreach(c IN LISTS cases)
    string(REPLACE "|" ";" args "${c}")
    execute_process(COMMAND ${EXE} ${args} --cycles 10 --quiet --out ${OUT}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "tonic-run ${args}: exit ${rc}, expected 2\n${out}${err}")
    endif()
    string(STRIP "${err}" err)
    message("tonic-run ${args} -> 2: ${err}")
  endforeach()
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
