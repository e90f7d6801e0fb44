# libFuzzer harness for the wire format: cmake -DCXD_FUZZ=ON
# -DCMAKE_C_COMPILER=clang. proto.c is compiled straight into the harness,
# so neither libfabric nor the rest of cxdcore needs instrumenting.
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "CXD_FUZZ=ON needs clang (-DCMAKE_C_COMPILER=clang)")
endif()

set(CXD_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
add_executable(fuzz_proto ${CMAKE_SOURCE_DIR}/fuzz/fuzz_proto.c
               ${CMAKE_SOURCE_DIR}/lib/proto.c)
target_include_directories(fuzz_proto PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_compile_options(fuzz_proto PRIVATE ${CXD_FUZZ_FLAGS})
target_link_options(fuzz_proto PRIVATE ${CXD_FUZZ_FLAGS})

# Seed generator (plain build), kept so the corpus can be regenerated.
add_executable(fuzz_gen_corpus ${CMAKE_SOURCE_DIR}/fuzz/gen_corpus.c
               ${CMAKE_SOURCE_DIR}/lib/proto.c)
target_include_directories(fuzz_gen_corpus PRIVATE ${CMAKE_SOURCE_DIR}/include)

# Regression: replay the seeds (files, not the directory, so nothing is
# written into the source tree). Real fuzzing is run by hand, e.g.
#   mkdir -p /tmp/fz && ./fuzz_proto /tmp/fz ../fuzz/corpus -max_total_time=300
file(GLOB CXD_FUZZ_SEEDS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fuzz/corpus/*)
if(CXD_FUZZ_SEEDS)
  add_test(NAME fuzz.fuzz_proto COMMAND fuzz_proto ${CXD_FUZZ_SEEDS})
  set_tests_properties(fuzz.fuzz_proto PROPERTIES LABELS fuzz TIMEOUT 60)
endif()
