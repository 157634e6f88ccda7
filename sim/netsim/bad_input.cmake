# SPDX-License-Identifier: Apache-2.0
# tonic-netsim's answers to bad input (ctest -L netsim): every case must exit
# with status 2 and say on stderr what is wrong (the expected words below),
# without writing a summary.
#   cmake -DEXE=<tonic-netsim> -DCONFIG=<scenario.json> -DPROTOCOL=<its protocol> -DOUT=<dir> -P bad_input.cmake
# CONFIG: a good single-flow scenario of a window protocol (with a tcp
# section and no switch.reorder): sim/netsim/CMakeLists.txt gives the
# reference protocol's netsim/single.json.
if(NOT EXE OR NOT CONFIG OR NOT PROTOCOL OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DEXE=<tonic-netsim> -DCONFIG=<scenario.json> -DPROTOCOL=<name> -DOUT=<dir> -P bad_input.cmake")
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(READ ${CONFIG} good)

# Broken scenarios, written next to the outputs: name|json edit|expected words.
function(write_variant name member value)
  string(JSON doc SET "${good}" ${member} "${value}")
  file(WRITE ${OUT}/${name}.json "${doc}")
endfunction()
file(WRITE ${OUT}/not_json.json "{ \"name\": ")
write_variant(unknown_key typo 1)
string(JSON doc REMOVE "${good}" protocol)
file(WRITE ${OUT}/missing_key.json "${doc}")
write_variant(bad_type segment_bytes "\"big\"")
write_variant(bad_protocol protocol "\"no_such_protocol\"")
string(JSON doc SET "${good}" tcp min_rto_us 1000)
file(WRITE ${OUT}/bad_rto.json "${doc}")
string(JSON doc SET "${good}" receiver ack_delay_us 40)
file(WRITE ${OUT}/bad_ack_delay.json "${doc}")
string(JSON doc SET "${good}" topology "{\"kind\": \"ring\"}")
file(WRITE ${OUT}/bad_topology.json "${doc}")
write_variant(negative message_bytes -5)

set(cfg ${CONFIG})
set(cases
  "--config|${OUT}/nope.json@does not exist"
  "--config|${OUT}/not_json.json@not valid JSON"
  "--config|${OUT}/unknown_key.json@unknown key \"typo\""
  "--config|${OUT}/missing_key.json@missing key \"protocol\""
  "--config|${OUT}/bad_type.json@segment_bytes: must be an integer"
  "--config|${OUT}/bad_protocol.json@no build of \"no_such_protocol\""
  "--config|${OUT}/bad_rto.json@no ${PROTOCOL} build matches"
  "--config|${OUT}/bad_ack_delay.json@ack_delay_us"
  "--config|${OUT}/bad_topology.json@topology.kind"
  "--config|${OUT}/negative.json@message_bytes: must be >= 0"
  "--config|${cfg}|--loss|1@--loss"
  "--config|${cfg}|--drops|5,x@'x' is not a segment index"
  "--config|${cfg}|--drops|5,,6@empty item"
  "--config|${cfg}|--trace-flow|3@--trace-flow"
  "--config|${cfg}|--reorder|0.1@no switch.reorder"
  "--config|${cfg}|--bogus@bogus"
)
foreach(c ${cases})
  string(FIND "${c}" "@" at)
  string(SUBSTRING "${c}" 0 ${at} argstr)
  math(EXPR at1 "${at} + 1")
  string(SUBSTRING "${c}" ${at1} -1 want)
  string(REPLACE "|" ";" args "${argstr}")
  execute_process(COMMAND ${EXE} ${args} --out ${OUT}/run --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "tonic-netsim ${args}: exit ${rc}, expected 2\n${out}${err}")
  endif()
  string(FIND "${err}" "${want}" pos)
  if(pos LESS 0)
    message(FATAL_ERROR "tonic-netsim ${args}: stderr does not say '${want}':\n${err}")
  endif()
  if(EXISTS ${OUT}/run/summary.json)
    message(FATAL_ERROR "tonic-netsim ${args}: wrote a summary despite the error")
  endif()
  message("ok: ${args} -> exit 2: ${err}")
endforeach()
