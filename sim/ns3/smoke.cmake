# SPDX-License-Identifier: Apache-2.0
# Smoke tests of tonic-ns3 (registered by sim/ns3/CMakeLists.txt, label ns3).
#   cmake -DMODE=smoke|bad -DEXE=<tonic-ns3> -DCONFIG=<single.json> [-DNO_NS3_PROTOCOL=<name>] -DOUT=<dir> -P smoke.cmake
# CONFIG: the single-flow scenario of a protocol that an ns-3 TCP models
# (its protocol.json "ns3"); NO_NS3_PROTOCOL: a protocol of the registry
# that names none (bad: tonic-ns3 must refuse it).
# smoke: the single-flow config with --drops=5,37,38 exits 0, writes the four
#        files with their headers, completes, recovers by fast retransmit
#        and never times out; started at topology.start_us [100] it runs the
#        same, 100 us later.
# bad:   invalid options and configs exit with status 2 and a message.

if(NOT EXE OR NOT OUT OR NOT MODE OR NOT CONFIG)
  message(FATAL_ERROR "usage: cmake -DMODE=smoke|bad -DEXE=<tonic-ns3> -DCONFIG=<json> -DOUT=<dir> -P smoke.cmake")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/../common/csv_headers.cmake)

if(MODE STREQUAL "smoke")
  file(REMOVE_RECURSE ${OUT})
  execute_process(COMMAND ${EXE} --config ${CONFIG} --out ${OUT} --drops=5,37,38 --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tonic-ns3 exited with ${rc}")
  endif()
  tonic_check_csv_headers(tonic-ns3 ${OUT}
    "cwnd.csv|time_us,cwnd_segments,ssthresh_segments"
    "tx.csv|time_us,segment,retransmit"
    "flows.csv|sender,flow,throughput_mbps,retransmits")
  if(NOT EXISTS ${OUT}/summary.json)
    message(FATAL_ERROR "tonic-ns3 did not write ${OUT}/summary.json")
  endif()
  file(READ ${OUT}/summary.json js)
  string(JSON sim GET "${js}" simulator)
  string(JSON ct GET "${js}" completion_time_us)
  string(JSON to GET "${js}" timeouts)
  string(JSON fr GET "${js}" fast_retransmit_episodes)
  if(NOT sim STREQUAL "ns3")
    message(FATAL_ERROR "summary.json: simulator is '${sim}'")
  endif()
  if(NOT ct GREATER 0)
    message(FATAL_ERROR "summary.json: completion_time_us is ${ct} (the flow did not complete)")
  endif()
  if(NOT to EQUAL 0)
    message(FATAL_ERROR "summary.json: ${to} timeouts, expected none")
  endif()
  if(fr LESS 1)
    message(FATAL_ERROR "summary.json: ${fr} fast-retransmit episodes, expected at least one")
  endif()
  message("completion ${ct} us, ${fr} fast-retransmit episodes, ${to} timeouts")

  # The same run with the sender starting at 100 us.
  file(READ ${CONFIG} good)
  string(JSON c SET "${good}" topology start_us "[100]")
  file(WRITE ${OUT}-start.json "${c}")
  file(REMOVE_RECURSE ${OUT}/start)
  execute_process(COMMAND ${EXE} --config ${OUT}-start.json --out ${OUT}/start --drops=5,37,38 --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tonic-ns3 with start_us [100] exited with ${rc}\n${out}${err}")
  endif()
  file(READ ${OUT}/start/summary.json js)
  string(JSON ct2 GET "${js}" completion_time_us)
  file(STRINGS ${OUT}/start/cwnd.csv lines LIMIT_COUNT 2)
  list(GET lines 1 first)
  if(NOT ct2 STREQUAL ct OR NOT first STREQUAL "100.000,10,-1")
    message(FATAL_ERROR "start_us [100]: completion ${ct2} us (expected ${ct}), first cwnd row '${first}'")
  endif()
  message("start_us [100]: completion ${ct2} us, first cwnd row ${first}")
elseif(MODE STREQUAL "bad")
  # Broken configs, written next to the outputs.
  file(MAKE_DIRECTORY ${OUT})
  file(READ ${CONFIG} good)
  file(WRITE ${OUT}/malformed.json "{ \"name\": ")
  string(JSON c SET "${good}" protocol "\"no_such_protocol\"")
  file(WRITE ${OUT}/protocol.json "${c}")
  set(no_ns3)
  if(NO_NS3_PROTOCOL)
    string(JSON c SET "${good}" protocol "\"${NO_NS3_PROTOCOL}\"")
    file(WRITE ${OUT}/no_ns3.json "${c}")
    set(no_ns3 "--config|${OUT}/no_ns3.json")
  endif()
  string(JSON c SET "${good}" segmnet_bytes 1000)
  file(WRITE ${OUT}/unknown.json "${c}")
  string(JSON c SET "${good}" segment_bytes "\"1000\"")
  file(WRITE ${OUT}/type.json "${c}")
  string(JSON c SET "${good}" tcp init_cwnd 0)
  file(WRITE ${OUT}/range.json "${c}")
  string(JSON c SET "${good}" receiver sack true)
  file(WRITE ${OUT}/sack.json "${c}")
  string(JSON c REMOVE "${good}" segment_bytes)
  file(WRITE ${OUT}/missing.json "${c}")
  # Valid for tonic-netsim, not modelled by ns-3.
  string(JSON c SET "${good}" header_bytes 40)
  file(WRITE ${OUT}/header.json "${c}")
  string(JSON c SET "${good}" messages 2)
  file(WRITE ${OUT}/messages.json "${c}")
  string(JSON c SET "${good}" switch ecn "{\"kmin_bytes\": 5000, \"kmax_bytes\": 200000, \"pmax\": 0.01}")
  file(WRITE ${OUT}/ecn.json "${c}")
  string(JSON c SET "${good}" switch trim true)
  file(WRITE ${OUT}/trim.json "${c}")
  string(JSON c REMOVE "${good}" tcp)
  file(WRITE ${OUT}/notcp.json "${c}")
  set(cases
    "--config|${CONFIG}|--loss=2"
    "--config|${CONFIG}|--loss=-0.1"
    "--config|${CONFIG}|--drops=5,x"
    "--config|${CONFIG}|--trace-flow=1"
    "--config|${CONFIG}|--no-such-option"
    "--config|${OUT}/no-such-config.json"
    "--config|${OUT}/malformed.json"
    "--config|${OUT}/protocol.json"
    "--config|${OUT}/unknown.json"
    "--config|${OUT}/type.json"
    "--config|${OUT}/range.json"
    "--config|${OUT}/sack.json"
    "--config|${OUT}/missing.json"
    "--config|${OUT}/header.json"
    "--config|${OUT}/messages.json"
    "--config|${OUT}/ecn.json"
    "--config|${OUT}/trim.json"
    "--config|${OUT}/notcp.json"
    ${no_ns3})
  foreach(c IN LISTS cases)
    string(REPLACE "|" ";" args "${c}")
    execute_process(COMMAND ${EXE} ${args} --quiet --out ${OUT}/run
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(STRIP "${err}" err)
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "tonic-ns3 ${args}: exit ${rc}, expected 2\n${out}${err}")
    endif()
    if(err STREQUAL "")
      message(FATAL_ERROR "tonic-ns3 ${args}: exit 2 but nothing on stderr")
    endif()
    message("tonic-ns3 ${args} -> 2: ${err}")
  endforeach()
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
