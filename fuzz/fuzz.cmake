# SPDX-License-Identifier: BSD-3-Clause
# libFuzzer harnesses: cmake -DCXD_FUZZ=ON -DCMAKE_C_COMPILER=clang.
# The few lib/ sources a harness needs are compiled straight into it (and
# instrumented); the rest of cxdcore and libfabric are linked as they are.
#   fuzz_proto      every decoder, with encode round trips
#   fuzz_handshake  the server's handshake state machine, for every tool
#   fuzz_topo       the --topology reader, both formats (issue 51)
#   fuzz_baseline   the --baseline reader, JSON and --matrix (issue 51)
# `make fuzz` builds them and runs each for a bounded time (fuzz/run.sh).
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "CXD_FUZZ=ON needs clang (-DCMAKE_C_COMPILER=clang)")
endif()

set(CXD_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
set(CXD_HS_SOURCES ${CMAKE_SOURCE_DIR}/lib/wire/hs.c
    ${CMAKE_SOURCE_DIR}/lib/wire/proto.c ${CMAKE_SOURCE_DIR}/lib/tools.c
    ${CMAKE_SOURCE_DIR}/lib/opts/opts.c ${CMAKE_SOURCE_DIR}/lib/opts/opts_table.c
    ${CMAKE_SOURCE_DIR}/lib/opts/opts_check.c ${CMAKE_SOURCE_DIR}/lib/opts/opts_help.c
    ${CMAKE_SOURCE_DIR}/lib/opts/opt_value.c ${CMAKE_SOURCE_DIR}/lib/opts/opts_defaults.c
    ${CMAKE_SOURCE_DIR}/lib/base/amo_names.c
    ${CMAKE_SOURCE_DIR}/lib/base/sizes.c ${CMAKE_SOURCE_DIR}/lib/gpu/gpu_names.c)

add_executable(fuzz_proto ${CMAKE_SOURCE_DIR}/fuzz/fuzz_proto.c
               ${CMAKE_SOURCE_DIR}/lib/wire/proto.c)
add_executable(fuzz_handshake ${CMAKE_SOURCE_DIR}/fuzz/fuzz_handshake.c
               ${CXD_HS_SOURCES})
# The sweep's input readers: the model's topology files (topo*.c, so a
# new reader of it is fuzzed as it comes), the baseline and the --matrix
# layout, and the name rule and host lists they use.
file(GLOB CXD_TOPO_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/lib/sweep/model/topo*.c)
set(CXD_READER_SOURCES ${CXD_TOPO_SOURCES}
    ${CMAKE_SOURCE_DIR}/lib/base/names.c ${CMAKE_SOURCE_DIR}/lib/base/hostlist.c)
add_executable(fuzz_topo ${CMAKE_SOURCE_DIR}/fuzz/fuzz_topo.c
               ${CXD_READER_SOURCES})
add_executable(fuzz_baseline ${CMAKE_SOURCE_DIR}/fuzz/fuzz_baseline.c
               ${CMAKE_SOURCE_DIR}/lib/sweep/model/baseline.c
               ${CMAKE_SOURCE_DIR}/lib/sweep/model/matrix.c
               ${CXD_READER_SOURCES})
foreach(f fuzz_topo fuzz_baseline)
  target_link_libraries(${f} PRIVATE cxdcore)
endforeach()
# At most 4096 hosts a file: a host list expanding to the real bound
# (2^18, tests/unit/test_names.c loads it) takes seconds under ASan, so
# the fuzzer would spend its time there and a loaded host would time out.
target_compile_definitions(fuzz_topo PRIVATE CXD_TOPO_MAX_LINES=4096)

foreach(f fuzz_proto fuzz_handshake fuzz_topo fuzz_baseline)
  target_include_directories(${f} PRIVATE ${CMAKE_SOURCE_DIR}/include
                             ${CMAKE_SOURCE_DIR}/lib)
  target_compile_options(${f} PRIVATE ${CXD_FUZZ_FLAGS})
  target_link_options(${f} PRIVATE ${CXD_FUZZ_FLAGS})
endforeach()
# The tool rows point at their operation hooks and runners: those come,
# uninstrumented, from cxdcore (the sources above take precedence).
target_link_libraries(fuzz_handshake PRIVATE cxdcore)

# Seed generator (plain build), kept so the corpora can be regenerated:
#   ./fuzz_gen_corpus ../fuzz/corpus ../fuzz/corpus-handshake
add_executable(fuzz_gen_corpus ${CMAKE_SOURCE_DIR}/fuzz/gen_corpus.c
               ${CXD_HS_SOURCES})
target_include_directories(fuzz_gen_corpus PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(fuzz_gen_corpus PRIVATE cxdcore)

# Regression: replay the seeds (files, not the directory, so nothing is
# written into the source tree).
foreach(pair "fuzz_proto:corpus" "fuzz_handshake:corpus-handshake"
        "fuzz_topo:corpus-topo" "fuzz_baseline:corpus-baseline")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 f)
  list(GET pair 1 dir)
  file(GLOB seeds CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fuzz/${dir}/*)
  if(seeds)
    add_test(NAME fuzz.${f} COMMAND ${f} ${seeds})
    set_tests_properties(fuzz.${f} PROPERTIES LABELS fuzz TIMEOUT 60)
  endif()
endforeach()
