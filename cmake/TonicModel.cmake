# SPDX-License-Identifier: Apache-2.0
# Helpers to declare Verilated models, Catch2 test executables and benchmarks.

# Verilator flags shared by every model: full lint, fast X handling, assertions on.
set(TONIC_VERILATOR_ARGS -Wall --assert --x-assign fast --x-initial fast -O3
    -Wno-fatal)  # lint proper is `make lint` (-Wall, fatal); models must still build
set(TONIC_VERILATOR_OPT_FAST -O2)

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
  set_property(GLOBAL APPEND PROPERTY TONIC_MODELS ${NAME})
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
  add_executable(${EXE} ${T_SOURCES} $<TARGET_OBJECTS:tonic_catch_main>)
  target_link_libraries(${EXE} PRIVATE Catch2::Catch2 tonic_tb ${T_MODELS})
  tonic_testbench_flags(${EXE})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  catch_discover_tests(${EXE} PROPERTIES LABELS "${T_LABEL}" TIMEOUT ${T_TIMEOUT})
endfunction()

# tonic_add_bench(<exe> SOURCES <cpp...> MODELS <models...>)
# A benchmark executable (run by scripts/bench.sh, never by ctest).
function(tonic_add_bench EXE)
  cmake_parse_arguments(B "" "" "SOURCES;MODELS" ${ARGN})
  add_executable(${EXE} ${B_SOURCES})
  target_link_libraries(${EXE} PRIVATE tonic_tb CLI11::CLI11 ${B_MODELS})
  tonic_testbench_flags(${EXE})
  set_property(GLOBAL APPEND PROPERTY TONIC_BENCHES ${EXE})
endfunction()

# tonic_model_from_manifest(<json> <config> [AS <target>] [TRACE_FST])
# Declares the Verilated model of one config of rtl/manifest/<block>.json
# (top, sources, params, optional "include_dirs" relative to the project
# root), as target <config> or <target>.
function(tonic_model_from_manifest FILE CONFIG)
  cmake_parse_arguments(A "TRACE_FST" "AS" "" ${ARGN})
  file(READ ${FILE} doc)
  string(JSON n LENGTH "${doc}" configs)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${doc}" configs ${i} name)
    if(name STREQUAL CONFIG)
      set(target ${CONFIG})
      if(A_AS)
        set(target ${A_AS})
      endif()
      set(trace)
      if(A_TRACE_FST)
        set(trace TRACE_FST)
      endif()
      _tonic_add_config_model("${doc}" ${i} ${target} ${trace})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FILE})
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${FILE}: no config ${CONFIG}")
endfunction()

# tonic_models_from_manifest(<json>)
# Reads rtl/manifest/<block>.json — the one list of tops, sources and
# parameter sets shared with `make lint` and `make synth-estimate` — and
# declares one Verilated model per config (unless the config has
# "model": false, e.g. a synthesis-only size), with the config's "params"
# and, over them, its optional "model_params".
function(tonic_models_from_manifest FILE)
  file(READ ${FILE} doc)
  string(JSON n LENGTH "${doc}" configs)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${doc}" configs ${i} name)
    string(JSON want ERROR_VARIABLE err GET "${doc}" configs ${i} model)
    if(NOT err AND NOT want)
      continue()
    endif()
    _tonic_add_config_model("${doc}" ${i} ${name})
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FILE})
endfunction()

# Merges the object configs[I].<MEMBER> of a manifest (absent or empty:
# nothing) into the list OUT as "key=value" entries; a key already in OUT
# takes the new value.
function(_tonic_merge_params DOC I MEMBER OUT)
  set(acc ${${OUT}})
  string(JSON n ERROR_VARIABLE err LENGTH "${DOC}" configs ${I} ${MEMBER})
  if(NOT err AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(p RANGE ${last})
      string(JSON key MEMBER "${DOC}" configs ${I} ${MEMBER} ${p})
      string(JSON val GET "${DOC}" configs ${I} ${MEMBER} ${key})
      list(FILTER acc EXCLUDE REGEX "^${key}=")
      list(APPEND acc "${key}=${val}")
    endforeach()
  endif()
  set(${OUT} ${acc} PARENT_SCOPE)
endfunction()

# Config <i> of a manifest document -> tonic_add_model(<target> ...).
function(_tonic_add_config_model DOC I TARGET)
  string(JSON top GET "${DOC}" configs ${I} top)
  string(JSON ns LENGTH "${DOC}" configs ${I} sources)
  math(EXPR slast "${ns} - 1")
  set(srcs)
  foreach(s RANGE ${slast})
    string(JSON src GET "${DOC}" configs ${I} sources ${s})
    list(APPEND srcs ${CMAKE_SOURCE_DIR}/${src})
  endforeach()
  set(params)
  _tonic_merge_params("${DOC}" ${I} params params)
  # "model_params" (optional): overrides merged over "params" for the
  # Verilated model only (lint and synthesis use "params" alone), e.g.
  # {"SimRam": 1} for the behavioural memories of the tonic_top models.
  _tonic_merge_params("${DOC}" ${I} model_params params)
  set(incs)
  string(JSON ni ERROR_VARIABLE err LENGTH "${DOC}" configs ${I} include_dirs)
  if(NOT err AND ni GREATER 0)
    math(EXPR ilast "${ni} - 1")
    foreach(d RANGE ${ilast})
      string(JSON dir GET "${DOC}" configs ${I} include_dirs ${d})
      list(APPEND incs ${CMAKE_SOURCE_DIR}/${dir})
    endforeach()
  endif()
  # "model_defines" (optional): {MACRO: value} given to Verilator as
  # +define+MACRO=value, for the model only: build-time constants of a
  # protocol's user_configs.vh (e.g. TONIC_CFG_RTO_CYCLES), the same RTL.
  set(defs)
  _tonic_merge_params("${DOC}" ${I} model_defines defs)
  tonic_add_model(${TARGET} TOP ${top} SOURCES ${srcs} PARAMS ${params} INCLUDE_DIRS ${incs} DEFINES ${defs} ${ARGN})
endfunction()
