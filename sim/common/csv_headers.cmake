# SPDX-License-Identifier: Apache-2.0
# tonic_check_csv_headers(<what> <dir> <file|header>...): each file exists
# in <dir> and its first line is exactly the header given (comma-separated
# columns), else FATAL_ERROR naming <what>. For the simulators' script tests
# (sim/ns3/smoke.cmake, sim/common/incast_marking.cmake), run with cmake -P.
function(tonic_check_csv_headers what dir)
  foreach(pair ${ARGN})
    string(REPLACE "|" ";" pair "${pair}")
    list(GET pair 0 f)
    list(GET pair 1 want)
    if(NOT EXISTS ${dir}/${f})
      message(FATAL_ERROR "${what}: no ${dir}/${f}")
    endif()
    file(STRINGS ${dir}/${f} lines LIMIT_COUNT 1)
    if(NOT lines STREQUAL want)
      message(FATAL_ERROR "${what}: ${f} header is '${lines}', expected '${want}'")
    endif()
  endforeach()
endfunction()
