# SPDX-License-Identifier: Apache-2.0
# Helpers to declare Verilated models, Catch2 test executables and benchmarks.

# Verilator flags shared by every model: full lint, fast X handling, assertions on.
set(TONIC_VERILATOR_ARGS -Wall --assert --x-assign fast --x-initial fast -O3
    -Wno-fatal)  # lint proper is `make lint` (-Wall, fatal); models must still build
set(TONIC_VERILATOR_OPT_FAST -O2)
# The "slow" classes run once per model instance (constructors, the static
# and initial blocks, the settle at time 0) and are about half of a model's
# C++: at -O0 a large one compiles in under half the time, and no cycle of
# a run executes them.
set(TONIC_VERILATOR_OPT_SLOW -O0)

# The Verilator runtime (verilated.cpp, verilated_threads.cpp), compiled once
# for every model instead of once per model (verilate() adds it to each
# target: it was ~30 % of the CPU time of a full build). The definitions
# match what verilate() gives a model without tracing, coverage or SystemC.
find_package(Threads REQUIRED)
if(NOT TARGET tonic_verilated_rt)
  add_library(tonic_verilated_rt STATIC
    ${VERILATOR_ROOT}/include/verilated.cpp
    ${VERILATOR_ROOT}/include/verilated_threads.cpp)
  target_include_directories(tonic_verilated_rt SYSTEM PUBLIC
    ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
  target_compile_definitions(tonic_verilated_rt PUBLIC
    VM_COVERAGE=0 VM_SC=0 VM_TRACE=0 VM_TRACE_VCD=0 VM_TRACE_FST=0)
  target_link_libraries(tonic_verilated_rt PUBLIC Threads::Threads)
endif()

# tonic_add_model(<name> TOP <module> SOURCES <files...> [PARAMS <P=V>...]
#                 [INCLUDE_DIRS <dirs...>] [DEFINES <M=V>...] [TRACE_FST])
# Builds static library <name> holding the Verilated model class V<name>;
# it links the shared runtime tonic_verilated_rt. With TRACE_FST the model
# is Verilated with FST tracing and keeps its own (tracing) runtime, so it
# must never be linked next to tonic_verilated_rt. INCLUDE_DIRS are searched
# by `include after rtl/common. Sources named *.v are SystemVerilog
# (protocol files, docs/protocol-api.md): they get +systemverilogext+v and
# the lint waivers (file names fixed by the API differ from module names).
function(tonic_add_model NAME)
  cmake_parse_arguments(M "TRACE_FST" "TOP" "SOURCES;PARAMS;INCLUDE_DIRS;DEFINES" ${ARGN})
  if(NOT M_TOP OR NOT M_SOURCES)
    message(FATAL_ERROR "tonic_add_model(${NAME}): TOP and SOURCES are required")
  endif()
  set(gparams)
  foreach(p ${M_PARAMS})
    list(APPEND gparams -G${p})
  endforeach()
  foreach(d ${M_DEFINES})
    list(APPEND gparams +define+${d})
  endforeach()
  set(langargs)
  set(vsources ${M_SOURCES})
  list(FILTER vsources INCLUDE REGEX "\\.v$")
  if(vsources)
    set(langargs +systemverilogext+v ${TONIC_RTL_DIR}/lint/waivers.vlt)
  endif()
  set(trace)
  if(M_TRACE_FST)
    set(trace TRACE_FST)
  endif()
  add_library(${NAME} STATIC)
  verilate(${NAME}
    PREFIX V${NAME}
    TOP_MODULE ${M_TOP}
    SOURCES ${M_SOURCES}
    INCLUDE_DIRS ${TONIC_RTL_DIR}/common ${M_INCLUDE_DIRS}
    ${trace}
    OPT_FAST ${TONIC_VERILATOR_OPT_FAST}
    OPT_SLOW ${TONIC_VERILATOR_OPT_SLOW}
    VERILATOR_ARGS ${TONIC_VERILATOR_ARGS} ${langargs} ${gparams})
  if(M_TRACE_FST)
    # verilate() added the tracing runtime (verilated_fst_c.cpp needs zlib).
    find_package(ZLIB REQUIRED)
    target_link_libraries(${NAME} PUBLIC ZLIB::ZLIB Threads::Threads)
    return()
  endif()
  # Drop the per-model copy of the runtime that verilate() added.
  get_target_property(srcs ${NAME} SOURCES)
  list(FILTER srcs EXCLUDE REGEX "^${VERILATOR_ROOT}/include/")
  set_property(TARGET ${NAME} PROPERTY SOURCES ${srcs})
  target_link_libraries(${NAME} PUBLIC tonic_verilated_rt)
endfunction()

# Warnings on for our testbench code; Verilator's runtime headers are
# treated as system headers so they do not trip -Wextra.
function(tonic_testbench_flags EXE)
  target_compile_options(${EXE} PRIVATE ${TONIC_CXX_WARNINGS})
  target_include_directories(${EXE} SYSTEM PRIVATE ${VERILATOR_ROOT}/include
                             ${VERILATOR_ROOT}/include/vltstd)
endfunction()

# tonic_add_test(<exe> LABEL <block> SOURCES <cpp...> MODELS <models...>)
# A Catch2 executable whose test cases are registered with CTest, labelled
# <block> so `ctest -L <block>` runs one block.
function(tonic_add_test EXE)
  cmake_parse_arguments(T "" "LABEL;TIMEOUT" "SOURCES;MODELS" ${ARGN})
  add_executable(${EXE} ${T_SOURCES} $<TARGET_OBJECTS:tonic_catch_main> $<TARGET_OBJECTS:tonic_tb_common>)
  target_link_libraries(${EXE} PRIVATE Catch2::Catch2 tonic_tb ${T_MODELS})
  tonic_testbench_flags(${EXE})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  # --warn NoTests: a test whose name matches no test case fails instead of
  # passing with nothing run (CTest splits a name at ';', so the halves of
  # such a name would match nothing: test names must not contain one).
  catch_discover_tests(${EXE} EXTRA_ARGS --warn NoTests
                       PROPERTIES LABELS "${T_LABEL}" TIMEOUT ${T_TIMEOUT})
endfunction()

# tonic_protocol_test(<exe> LABEL <label> SOURCES <cpp...> [MODELS <models...>] [TIMEOUT <s>])
# For protocols/<name>/tests/CMakeLists.txt: a protocol's tests of its own
# behaviour. Every folder that names the same <exe> adds its sources and
# models to that one executable (one Catch2 main, one link: e.g. test_proto
# holds the twin tests of every window protocol), made by
# tonic_make_protocol_tests() once the folders of TONIC_PROTOCOLS have been read;
# an executable nobody names is not made. <label> is the CTest label and the
# name TONIC_BLOCKS selects it by; the folders sharing <exe> give the same
# LABEL (and TIMEOUT, if any). Relative SOURCES are relative to the folder.
# A tb/unit/<block> folder may name the same <exe> for what its shared
# cases need whichever folders register them (MODELS alone, e.g. every
# build its shared header includes) or for a shared source.
# Records what a folder adds to a shared executable EXE under PREFIX (PTEST:
# tonic_protocol_test, PBENCH: tonic_protocol_bench): the executable in
# TONIC_<PREFIX>_LIST, its LABEL (the same from every folder), SOURCES
# (relative ones resolved against the folder) and MODELS.
macro(_tonic_protocol_record PREFIX EXE LABEL SOURCES MODELS)
  get_property(_recorded GLOBAL PROPERTY TONIC_${PREFIX}_${EXE}_LABEL)
  if(_recorded AND NOT _recorded STREQUAL "${LABEL}")
    message(FATAL_ERROR "${EXE}: LABEL ${LABEL} here, ${_recorded} elsewhere")
  endif()
  set(_sources ${SOURCES})
  list(TRANSFORM _sources PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ REGEX "^[^/]")
  set_property(GLOBAL APPEND PROPERTY TONIC_${PREFIX}_LIST ${EXE})
  set_property(GLOBAL PROPERTY TONIC_${PREFIX}_${EXE}_LABEL ${LABEL})
  set_property(GLOBAL APPEND PROPERTY TONIC_${PREFIX}_${EXE}_SOURCES ${_sources})
  set_property(GLOBAL APPEND PROPERTY TONIC_${PREFIX}_${EXE}_MODELS ${MODELS})
endmacro()

function(tonic_protocol_test EXE)
  cmake_parse_arguments(T "" "LABEL;TIMEOUT" "SOURCES;MODELS" ${ARGN})
  if(NOT T_LABEL OR NOT (T_SOURCES OR T_MODELS))
    message(FATAL_ERROR "tonic_protocol_test(${EXE}): LABEL and SOURCES or MODELS are required")
  endif()
  _tonic_protocol_record(PTEST ${EXE} ${T_LABEL} "${T_SOURCES}" "${T_MODELS}")
  if(T_TIMEOUT)
    set_property(GLOBAL PROPERTY TONIC_PTEST_${EXE}_TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()

# tonic_protocol_bench(<exe> LABEL <label> SOURCES <cpp...> [MODELS <models...>])
# The same for a benchmark or experiment runner (tonic_add_bench, no Catch2
# main): a tb/unit/<block> folder gives the shared main, the protocol
# folders add their parts (e.g. livelock_run: the live-lock participants).
# Made in the binary dir of the first folder that names it (the tb/unit
# block: tb/unit is read before protocols/), with TONIC_BLOCKS set only if
# <label> is listed.
function(tonic_protocol_bench EXE)
  cmake_parse_arguments(T "" "LABEL" "SOURCES;MODELS" ${ARGN})
  if(NOT T_LABEL OR NOT T_SOURCES)
    message(FATAL_ERROR "tonic_protocol_bench(${EXE}): LABEL and SOURCES are required")
  endif()
  get_property(dir GLOBAL PROPERTY TONIC_PBENCH_${EXE}_DIR)
  if(NOT dir)
    set_property(GLOBAL PROPERTY TONIC_PBENCH_${EXE}_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  _tonic_protocol_record(PBENCH ${EXE} ${T_LABEL} "${T_SOURCES}" "${T_MODELS}")
endfunction()

# tonic_make_protocol_tests(): makes the executables the protocol folders named
# (tonic_protocol_test), each with its label, into <build>/protocols/; with
# TONIC_BLOCKS set only those whose label is listed. Each gets
# TONIC_SOURCE_DIR (the tests read their folder's user_configs.vh). Then
# the benchmarks of tonic_protocol_bench.
# What tonic_protocol_test (PREFIX PTEST) or tonic_protocol_bench (PBENCH)
# recorded for EXE, in the caller's scope: _LABEL, _SKIP (its label is not
# among TONIC_BLOCKS), _SRCS and _MODELS (each once).
macro(_tonic_protocol_target PREFIX EXE)
  get_property(_LABEL GLOBAL PROPERTY TONIC_${PREFIX}_${EXE}_LABEL)
  set(_SKIP OFF)
  if(TONIC_BLOCKS AND NOT _LABEL IN_LIST TONIC_BLOCKS)
    set(_SKIP ON)
  endif()
  get_property(_SRCS GLOBAL PROPERTY TONIC_${PREFIX}_${EXE}_SOURCES)
  get_property(_MODELS GLOBAL PROPERTY TONIC_${PREFIX}_${EXE}_MODELS)
  list(REMOVE_DUPLICATES _SRCS)
  list(REMOVE_DUPLICATES _MODELS)
endmacro()

function(tonic_make_protocol_tests)
  get_property(exes GLOBAL PROPERTY TONIC_PTEST_LIST)
  list(REMOVE_DUPLICATES exes)
  foreach(exe ${exes})
    _tonic_protocol_target(PTEST ${exe})
    if(_SKIP)
      continue()
    endif()
    get_property(timeout GLOBAL PROPERTY TONIC_PTEST_${exe}_TIMEOUT)
    tonic_add_test(${exe} LABEL ${_LABEL} SOURCES ${_SRCS} MODELS ${_MODELS} TIMEOUT ${timeout})
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/protocols)
    target_compile_definitions(${exe} PRIVATE TONIC_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  endforeach()
  get_property(benches GLOBAL PROPERTY TONIC_PBENCH_LIST)
  list(REMOVE_DUPLICATES benches)
  foreach(exe ${benches})
    _tonic_protocol_target(PBENCH ${exe})
    if(_SKIP)
      continue()
    endif()
    get_property(dir GLOBAL PROPERTY TONIC_PBENCH_${exe}_DIR)
    tonic_add_bench(${exe} RUNNER SOURCES ${_SRCS} MODELS ${_MODELS})
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${dir})
  endforeach()
endfunction()

# tonic_add_bench(<exe> [RUNNER] SOURCES <cpp...> MODELS <models...>)
# A benchmark executable (run by scripts/bench.mjs, never by ctest): left
# out of the default build (make test does not need it, nor the models only
# it links); the target `benches` builds them all (make bench, make regress).
# RUNNER: an experiment runner (livelock_run), built by default.
function(tonic_add_bench EXE)
  cmake_parse_arguments(B "RUNNER" "" "SOURCES;MODELS" ${ARGN})
  if(B_RUNNER)
    add_executable(${EXE} ${B_SOURCES})
  else()
    add_executable(${EXE} EXCLUDE_FROM_ALL ${B_SOURCES})
    set_property(GLOBAL APPEND PROPERTY TONIC_BENCHES ${EXE})
  endif()
  target_link_libraries(${EXE} PRIVATE tonic_tb CLI11::CLI11 ${B_MODELS})
  tonic_testbench_flags(${EXE})
endfunction()

# The configs: scripts/manifest.mjs is the one reader of rtl/manifest/*.json
# and of the protocol folders (scripts/registry.mjs derives every protocol's
# builds from protocols/<name>/). At configure time it writes them as CMake
# variables (generated/manifest.cmake: TONIC_CONFIGS, TONIC_CONFIG_<name>_*,
# TONIC_PROTOCOLS), registry.mjs writes the C++ protocol registry
# (generated/tonic/*.hpp) and rtl-types.mjs the layout of tonic_top's
# counter ports from its package (tonic/stats_layout.hpp) and of the
# receiver's ports (tonic/rx_layout.hpp); CMake never
# parses a manifest itself. Editing a
# manifest, a descriptor or a user_configs.vh, or adding a protocol folder,
# re-runs the configure step.
# TONIC_ONLY_PROTOCOLS (a list): a build tree with only those protocol
# folders, e.g. a protocol author's quick loop with -DTONIC_BLOCKS=soak.
set(TONIC_ONLY_PROTOCOLS "" CACHE STRING "only these protocols/<name> folders (empty: all)")
string(REPLACE ";" "," _tonic_only "${TONIC_ONLY_PROTOCOLS}")
set(TONIC_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)
foreach(step "scripts/manifest.mjs;--cmake;${TONIC_GENERATED_DIR}/manifest.cmake"
             "scripts/registry.mjs;--cpp;${TONIC_GENERATED_DIR}"
             "scripts/rtl-types.mjs;--cpp;${TONIC_GENERATED_DIR}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TONIC_ONLY_PROTOCOLS=${_tonic_only} ${TONIC_NODE} ${step}
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(GET step 0 script)
    message(FATAL_ERROR "${script} failed:\n${err}")
  endif()
endforeach()
include(${TONIC_GENERATED_DIR}/manifest.cmake)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TONIC_CONFIG_SOURCES}
             ${CMAKE_SOURCE_DIR}/rtl/dd/tonic_dd_pkg.sv ${CMAKE_SOURCE_DIR}/rtl/common/tonic_wire_pkg.sv
             ${CMAKE_SOURCE_DIR}/rtl/rx/tonic_rx_pkg.sv ${CMAKE_SOURCE_DIR}/scripts/rtl-types.mjs)

# tonic_lib: the C++ library the products (sim/) and the tests (tb/) share,
# headers only: lib/tonic/ (port types, top driver, scoreboard, receiver /
# link / switch models) and the generated protocol registry
# (generated/tonic/). Products link it and never tb/ (tonic_tb adds tb/).
add_library(tonic_lib INTERFACE)
target_include_directories(tonic_lib INTERFACE ${TONIC_GENERATED_DIR} ${CMAKE_SOURCE_DIR}/lib
                           ${CMAKE_SOURCE_DIR})  # the root: sim/common/
target_link_libraries(tonic_lib INTERFACE fmt::fmt nlohmann_json::nlohmann_json)

# Merges KEY=VALUE entries of OVER into the list LIST (a key of OVER replaces
# the same key of LIST).
function(_tonic_merge_kv LIST OVER)
  set(acc ${${LIST}})
  foreach(kv ${OVER})
    string(REGEX REPLACE "=.*" "" key "${kv}")
    list(FILTER acc EXCLUDE REGEX "^${key}=")
    list(APPEND acc "${kv}")
  endforeach()
  set(${LIST} ${acc} PARENT_SCOPE)
endfunction()

# tonic_model(<config> [AS <target>] [TRACE_FST] [PARAMS <P=V>...] [DEFINES <M=V>...])
# Declares the Verilated model of one config (target <config>, or <target>
# for a variant), EXCLUDE_FROM_ALL: it is built only when a test, benchmark
# or tool links it. PARAMS / DEFINES are merged over the config's own (a
# variant of the same RTL, e.g. the fuzz builds). rtl/CMakeLists.txt
# declares every config with a model this way, once.
function(tonic_model CONFIG)
  cmake_parse_arguments(A "TRACE_FST" "AS" "PARAMS;DEFINES" ${ARGN})
  if(NOT DEFINED TONIC_CONFIG_${CONFIG}_TOP)
    message(FATAL_ERROR "tonic_model: no config ${CONFIG} (scripts/manifest.mjs lists them)")
  endif()
  set(target ${CONFIG})
  if(A_AS)
    set(target ${A_AS})
  endif()
  set(params ${TONIC_CONFIG_${CONFIG}_PARAMS})
  _tonic_merge_kv(params "${A_PARAMS}")
  set(defines ${TONIC_CONFIG_${CONFIG}_DEFINES})
  _tonic_merge_kv(defines "${A_DEFINES}")
  set(trace)
  if(A_TRACE_FST)
    set(trace TRACE_FST)
  endif()
  tonic_add_model(${target} TOP ${TONIC_CONFIG_${CONFIG}_TOP} SOURCES ${TONIC_CONFIG_${CONFIG}_SOURCES}
    PARAMS ${params} INCLUDE_DIRS ${TONIC_CONFIG_${CONFIG}_INCLUDE_DIRS} DEFINES ${defines} ${trace})
  set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
endfunction()
