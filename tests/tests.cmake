# SPDX-License-Identifier: BSD-3-Clause
# Unit tests: each tests/unit/test_*.c is one cmocka program, linked with
# the test aids of tests/unit/support/ (argv_cfg.c: a command line through
# the option parser; pace_sim.c: a simulated message queue under the
# sweep's pacing machine; proto_samples.c: a message of each
# control-channel type; ctrl_pair.c: control-channel pairs and raw peers
# over loopback; report_render.c: a report rendered into memory;
# hostile.c: the table of hostile names, tests/hostile_names.txt).
find_library(CMOCKA_LIB cmocka REQUIRED)
add_library(cxd_unit_support OBJECT
            ${CMAKE_SOURCE_DIR}/tests/unit/support/argv_cfg.c
            ${CMAKE_SOURCE_DIR}/tests/unit/support/pace_sim.c
            ${CMAKE_SOURCE_DIR}/tests/unit/support/proto_samples.c
            ${CMAKE_SOURCE_DIR}/tests/unit/support/ctrl_pair.c
            ${CMAKE_SOURCE_DIR}/tests/unit/support/report_render.c
            ${CMAKE_SOURCE_DIR}/tests/unit/support/hostile.c)
target_link_libraries(cxd_unit_support PRIVATE cxdcore)
# hostile.c reads the table of hostile names from the source tree.
set_source_files_properties(${CMAKE_SOURCE_DIR}/tests/unit/support/hostile.c
  PROPERTIES COMPILE_DEFINITIONS
  CXD_HOSTILE_NAMES="${CMAKE_SOURCE_DIR}/tests/hostile_names.txt")
file(GLOB CXD_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${CXD_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} $<TARGET_OBJECTS:cxd_unit_support>)
  target_link_libraries(${name} PRIVATE cxdcore ${CMOCKA_LIB})
  add_test(NAME unit.${name} COMMAND ${name})
  set_tests_properties(unit.${name} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

# End-to-end tests: each tests/e2e/test_*.sh runs the real binaries. They
# learn the tool list from the build (CXD_TOOLS, read from lib/tools.c):
# lib.sh reads BUILD/cxd_tools.txt, one name a line.
string(REPLACE ";" "\n" CXD_TOOLS_LINES "${CXD_TOOLS}")
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/cxd_tools.txt
     CONTENT "${CXD_TOOLS_LINES}\n" @ONLY)
file(GLOB CXD_E2E_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/e2e/test_*.sh)
# Each script declares its class (tests/test_class.py checks it): a test
# that judges real timing ("# test-class: timing") runs alone, labelled
# timing, so no other test loads the cores it measures on. A script whose
# hang bound is not 300 s says so ("# test-timeout: SECONDS", with why).
foreach(src ${CXD_E2E_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_test(NAME e2e.${name} COMMAND bash ${src} ${CMAKE_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 300
                       SKIP_RETURN_CODE 77)
  file(STRINGS ${src} cls REGEX "^# test-class: timing" LIMIT_COUNT 1)
  if(cls)
    set_tests_properties(e2e.${name} PROPERTIES LABELS "e2e;timing"
                         RUN_SERIAL TRUE)
  endif()
  file(STRINGS ${src} tmo REGEX "^# test-timeout: [0-9]+" LIMIT_COUNT 1)
  if(tmo)
    string(REGEX MATCH "[0-9]+" tmo "${tmo}")
    set_tests_properties(e2e.${name} PROPERTIES TIMEOUT ${tmo})
  endif()
endforeach()

# test_pace's property tests run the pacing machine over every main and
# retest plan of up to 64 ranks (eager and synchronous sends): 5 s here
# (the model it replaced: 3 s, and about 30 s under ASan on a shared
# 2-core host, where 60 s ran out). A hang guard only.
set_tests_properties(unit.test_pace PROPERTIES TIMEOUT 300)

# The <rdma/fi_cxi_ext.h> path of the cxi knobs, built against a test
# stand-in of that header (HPE's libfabric ships the real one, Debian's
# does not): the same unit tests plus the provider-key read-back.
foreach(name test_cxi_knobs test_cxi_knobs_ops)
  add_executable(${name}_ext_stand_in
                 ${CMAKE_SOURCE_DIR}/tests/unit/${name}.c
                 ${CMAKE_SOURCE_DIR}/lib/fabric/cxi_knobs.c
                 ${CMAKE_SOURCE_DIR}/lib/fabric/cxi_env.c
                 $<TARGET_OBJECTS:cxd_unit_support>)
  target_include_directories(${name}_ext_stand_in BEFORE PRIVATE
                             ${CMAKE_SOURCE_DIR}/tests/stand_in)
  target_link_libraries(${name}_ext_stand_in PRIVATE cxdcore ${CMOCKA_LIB})
  add_test(NAME unit.${name}_ext_stand_in COMMAND ${name}_ext_stand_in)
  set_tests_properties(unit.${name}_ext_stand_in PROPERTIES
                       LABELS unit TIMEOUT 60)
endforeach()

# Test copies of the tools: build/standin/<tool>, the same mains with the
# test aids linked in: the stand-in GPU (tests/support/gpu_standin.c) and
# the fault and namespace hooks (tests/support/test_aids.c, see
# lib/base/testaid.h). The installed tools contain neither
# (tests/e2e/test_gpu.sh checks with nm, test_install.sh the strings).
add_library(cxd_standin OBJECT ${CMAKE_SOURCE_DIR}/tests/support/gpu_standin.c
            ${CMAKE_SOURCE_DIR}/tests/support/test_aids.c)
target_link_libraries(cxd_standin PRIVATE cxdcore)
foreach(t ${CXD_TOOLS} cxi_node_health)
  add_executable(standin_${t} tools/main.c $<TARGET_OBJECTS:cxd_standin>)
  set_target_properties(standin_${t} PROPERTIES OUTPUT_NAME ${t}
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/standin)
  target_compile_definitions(standin_${t} PRIVATE CXD_TOOL_NAME="${t}")
  target_link_libraries(standin_${t} PRIVATE cxdcore)
endforeach()
if(TARGET cxi_sweep)
  add_executable(standin_cxi_sweep ${CXD_SWEEP_SOURCES}
                 $<TARGET_OBJECTS:cxd_standin>)
  set_target_properties(standin_cxi_sweep PROPERTIES OUTPUT_NAME cxi_sweep
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/standin)
  target_link_libraries(standin_cxi_sweep PRIVATE cxd_sweep_core cxdcore
                        MPI::MPI_C)
  # The sweep's core links without libfabric: a program that calls its
  # entry points, linked with the core, cxdcore's archive as a plain file
  # (whose libfabric objects it must not need), MPI, json-c and libm only.
  add_executable(sweep_core_link ${CMAKE_SOURCE_DIR}/tests/link/sweep_core_link.c)
  add_dependencies(sweep_core_link cxdcore)
  target_include_directories(sweep_core_link PRIVATE ${CMAKE_SOURCE_DIR}/tools/sweep)
  target_link_libraries(sweep_core_link PRIVATE cxd_sweep_core
                        $<TARGET_FILE:cxdcore> cxd_sweep_core MPI::MPI_C
                        PkgConfig::JSONC m)
  add_test(NAME unit.sweep_core_links_without_libfabric
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:sweep_core_link>
                   -P ${CMAKE_SOURCE_DIR}/tests/link/no_libfabric.cmake)
  set_tests_properties(unit.sweep_core_links_without_libfabric PROPERTIES
                       LABELS unit TIMEOUT 60)
endif()
# cxi_sweep --budget's planner alone, timed on a topology and hostfile
# too large to simulate (bench/sim_budget.sh); e2e.test_cover_plan runs
# it on platgen's machines, the lazy pick against the full weighing.
add_executable(cover_plan_time ${CMAKE_SOURCE_DIR}/bench/src/cover_plan_time.c)
target_link_libraries(cover_plan_time PRIVATE cxdcore)

if(TARGET test_gpu)
  target_sources(test_gpu PRIVATE $<TARGET_OBJECTS:cxd_standin>)
endif()


# The layer rule (docs/layout.md): no dependency from a lower
# folder of lib/ to a higher one, no two files depending on each other.
# Read from the built objects, so it runs after the build.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME unit.layers
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/layers.py
                   ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit.layers PROPERTIES LABELS unit TIMEOUT 60)
endif()

# Every e2e test declares whether it judges real timing, and ctest runs
# the timing ones alone (the loop above): a script that declares nothing,
# or declares shared while it launches a sweep, a gate, ReFrame or Slurm,
# fails here (tests/test_class.py; --self-test: its rules on made-up ones).
if(Python3_FOUND)
  add_test(NAME unit.test_class
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/test_class.py
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  add_test(NAME unit.test_class_rules
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/test_class.py
                   --self-test)
  set_tests_properties(unit.test_class unit.test_class_rules PROPERTIES
                       LABELS unit TIMEOUT 60)
endif()

# The converters of contrib/topology/ on their inputs in tests/data/topology/
# (tests/topology_convert.py); test_topo_links loads what they write.
if(Python3_FOUND)
  add_test(NAME unit.topology_convert
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/topology_convert.py
                   ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit.topology_convert PROPERTIES LABELS unit TIMEOUT 60)
endif()
target_compile_definitions(test_topo_links PRIVATE
                           CXD_TOPO_DATA="${CMAKE_SOURCE_DIR}/tests/data/topology")

# The GPU declarations against the vendors' headers.
include(${CMAKE_SOURCE_DIR}/tests/gpu_headers/gpu_headers.cmake)

# Every source file carries the licence line (scripts/spdx.sh adds it).
add_test(NAME unit.spdx COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/spdx.sh --check)
set_tests_properties(unit.spdx PROPERTIES LABELS unit TIMEOUT 60)
