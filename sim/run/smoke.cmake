# SPDX-License-Identifier: Apache-2.0
# Smoke tests of tonic-run (registered by sim/run/CMakeLists.txt, label run).
#   cmake -DMODE=smoke|bad -DEXE=<tonic-run> -DOUT=<dir> -P smoke.cmake
# smoke: a short run exits 0 and writes cwnd.csv, tx.csv, summary.json,
#        plot.gp (and cwnd.png when gnuplot is installed).
# bad:   invalid options exit with status 2.

if(NOT EXE OR NOT OUT OR NOT MODE)
  message(FATAL_ERROR "usage: cmake -DMODE=smoke|bad -DEXE=<tonic-run> -DOUT=<dir> -P smoke.cmake")
endif()

if(MODE STREQUAL "smoke")
  file(REMOVE_RECURSE ${OUT})
  execute_process(COMMAND ${EXE} --flows 16 --cycles 20000 --out ${OUT} --quiet
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
elseif(MODE STREQUAL "bad")
  set(cases
    "--flows|0"
    "--loss|1"
    "--loss|-0.1"
    "--protocol|cubic"
    "--drops|3:x"
    "--drops|1"
    "--flows|16|--drops|99:5"
    "--protocol|reno|--window|256"
    "--flows|2048|--window|128"
    "--flows|8|--sample-flow|8"
    "--protocol|sack|--trace|x.fst"
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
