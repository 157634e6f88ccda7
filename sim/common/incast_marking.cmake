# SPDX-License-Identifier: Apache-2.0
# Threshold marking and the network figures on a tiny incast, the same test
# for tonic-netsim (ctest -L netsim) and tonic-ns3 (ctest -L ns3):
#   cmake -DEXE=<simulator> -DSIM=tonic|ns3 -DCONFIG=<single.json> -DOUT=<dir> -P incast_marking.cmake
# CONFIG: a single-flow scenario of a window protocol (a protocol's
# netsim/single.json; for ns3 one whose protocol.json names an ns-3 TCP).
# It becomes an incast of 4 senders x 1 flow of 200 kB into a port that
# marks CE above K = 20 packets (then K = 20,840 bytes), with a buffer no
# window can fill and samples every 5 us. Checked: exit 0; queue.csv,
# cwnd_flows.csv and flow_stats.csv with their headers; summary.json's
# "network" block with every field compare reads; every flow complete;
# the queue never above the buffer; packets marked, every marked one found
# more than K queued and every unmarked one at most K. Then bad
# "switch.ecn" values exit 2 naming the key.

if(NOT EXE OR NOT SIM OR NOT CONFIG OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DEXE=<simulator> -DSIM=tonic|ns3 -DCONFIG=<single.json> -DOUT=<dir> -P incast_marking.cmake")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/csv_headers.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(READ ${CONFIG} good)

set(k_packets 20)
set(frame 1042)  # segment_bytes 1000 + header_bytes 42
math(EXPR k_bytes "${k_packets} * ${frame}")
set(buffer 600000)
string(JSON c SET "${good}" name "\"incast_marking\"")
string(JSON c SET "${c}" topology "{\"kind\": \"incast\", \"senders\": 4}")
string(JSON c SET "${c}" segment_bytes 1000)
string(JSON c SET "${c}" header_bytes 42)
string(JSON c SET "${c}" message_bytes 200000)
string(JSON c SET "${c}" switch "{\"buffer_bytes\": ${buffer}, \"ecn\": {\"k_packets\": ${k_packets}}}")
string(JSON c SET "${c}" samples "{\"us\": 5}")
file(WRITE ${OUT}/packets.json "${c}")
string(JSON c SET "${c}" switch ecn "{\"k_bytes\": ${k_bytes}}")
file(WRITE ${OUT}/bytes.json "${c}")

function(check_run unit k)
  set(dir ${OUT}/${unit})
  execute_process(COMMAND ${EXE} --config ${OUT}/${unit}.json --out ${dir} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${EXE} (${unit}) exited with ${rc}")
  endif()
  tonic_check_csv_headers(${unit} ${dir}
    "queue.csv|time_us,queue_bytes,queue_packets"
    "cwnd_flows.csv|time_us,flow_0,flow_1,flow_2,flow_3"
    "flow_stats.csv|key,sender,flow,first_tx_us,completion_us,throughput_mbps,fast_retransmits,timeouts,retransmits")
  file(READ ${dir}/summary.json js)
  string(JSON sim GET "${js}" simulator)
  if(NOT sim STREQUAL SIM)
    message(FATAL_ERROR "${unit}: summary.json says simulator '${sim}', expected '${SIM}'")
  endif()
  # Every field compare-suite.mjs reads (a missing one fails GET).
  foreach(path "jain_index" "queue_drops" "fast_retransmit_episodes" "timeouts" "retransmitted_segments"
               "queue samples" "queue packets mean" "queue packets p99" "queue bytes mean" "queue bytes max"
               "completion_us complete" "completion_us mean" "completion_us max" "marking mode"
               "arrivals marked" "arrivals data_arrivals")
    string(REPLACE " " ";" path "${path}")
    string(JSON v ERROR_VARIABLE e GET "${js}" network ${path})
    if(e)
      message(FATAL_ERROR "${unit}: summary.json has no network.${path}: ${e}")
    endif()
  endforeach()
  string(JSON done GET "${js}" network completion_us complete)
  string(JSON qmax GET "${js}" network queue bytes max)
  string(JSON mode GET "${js}" network marking mode)
  string(JSON marked GET "${js}" network arrivals marked)
  string(JSON lo GET "${js}" network arrivals min_queue_when_marked ${unit})
  string(JSON hi GET "${js}" network arrivals max_queue_when_unmarked ${unit})
  string(JSON jain GET "${js}" network jain_index)
  if(NOT done EQUAL 4)
    message(FATAL_ERROR "${unit}: ${done} of 4 flows complete")
  endif()
  if(qmax GREATER ${buffer})
    message(FATAL_ERROR "${unit}: the queue reached ${qmax} bytes, above the buffer of ${buffer}")
  endif()
  if(NOT mode STREQUAL "threshold")
    message(FATAL_ERROR "${unit}: marking mode '${mode}', expected 'threshold'")
  endif()
  if(NOT marked GREATER 0)
    message(FATAL_ERROR "${unit}: no packet marked (K = ${k} ${unit})")
  endif()
  if(NOT lo GREATER ${k} OR hi GREATER ${k})
    message(FATAL_ERROR "${unit}: marked packets found >= ${lo} queued, unmarked ones <= ${hi}: expected > ${k} and <= ${k}")
  endif()
  message("${unit}: K ${k}, ${marked} marked (found ${lo} or more queued), unmarked found at most ${hi}; "
          "queue max ${qmax} B; Jain ${jain}")
endfunction()
check_run(packets ${k_packets})
check_run(bytes ${k_bytes})

# Bad threshold settings: exit 2, stderr naming the key.
set(bad_cases
  "both_units|{\"k_packets\": 20, \"k_bytes\": 20000}|k_bytes and k_packets"
  "mixed|{\"k_packets\": 20, \"pmax\": 0.1}|not both"
  "zero|{\"k_packets\": 0}|switch.ecn.k_packets"
  "above_buffer|{\"k_bytes\": ${buffer}}|switch.ecn.k_bytes"
  "not_integer|{\"k_packets\": 2.5}|must be an integer")
if(SIM STREQUAL "ns3")
  list(APPEND bad_cases
    "red|{\"kmin_bytes\": 5000, \"kmax_bytes\": 200000, \"pmax\": 0.01}|threshold marking only"
    "inside_device|{\"k_packets\": 2}|switch.ecn.k_packets")
endif()
foreach(case IN LISTS bad_cases)
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 name)
  list(GET case 1 ecn)
  list(GET case 2 want)
  string(JSON c SET "${good}" switch ecn "${ecn}")
  string(JSON c SET "${c}" switch buffer_bytes ${buffer})
  file(WRITE ${OUT}/bad_${name}.json "${c}")
  execute_process(COMMAND ${EXE} --config ${OUT}/bad_${name}.json --out ${OUT}/bad --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "${want}" at)
  if(NOT rc EQUAL 2 OR at LESS 0)
    message(FATAL_ERROR "switch.ecn ${ecn}: exit ${rc}, expected 2 with '${want}' on stderr:\n${out}${err}")
  endif()
  message("ok: switch.ecn ${ecn} -> exit 2: ${err}")
endforeach()
