# SPDX-License-Identifier: BSD-3-Clause
# The simulated build (make sim: configured with CC=smpicc, -DCXD_SIM=ON):
# cxi_sweep alone, for SimGrid's smpirun, with the MPI engine only and no
# libfabric inside. It takes the lower layers that need no libfabric
# (lib/base, counters, opts, sweep, the tool table without its runners)
# and the sweep's core; MPI is SMPI's, which smpicc brings.
find_package(PkgConfig REQUIRED)
pkg_check_modules(JSONC REQUIRED IMPORTED_TARGET json-c)
add_compile_definitions(CXD_SIM)
# Where a file has a simulated twin (NAME_sim.c beside NAME.c or
# NAME_real.c), this build takes the twin; the normal build, the
# top CMakeLists.txt, the other.
file(GLOB CXD_SIM_LIB_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/lib/base/*.c ${CMAKE_SOURCE_DIR}/lib/counters/*.c
     ${CMAKE_SOURCE_DIR}/lib/opts/*.c ${CMAKE_SOURCE_DIR}/lib/sweep/*/*.c)
list(REMOVE_ITEM CXD_SIM_LIB_SOURCES ${CMAKE_SOURCE_DIR}/lib/base/cpu_wait.c
     ${CMAKE_SOURCE_DIR}/lib/base/cpu_wait_sim.c)
add_library(cxdcore_sim STATIC ${CXD_SIM_LIB_SOURCES}
            ${CMAKE_SOURCE_DIR}/lib/base/cpu_wait_sim.c # the wait unknown
            ${CMAKE_SOURCE_DIR}/lib/tools.c)
target_include_directories(cxdcore_sim PUBLIC ${CMAKE_SOURCE_DIR}/include
                           ${CMAKE_SOURCE_DIR}/lib)
target_link_libraries(cxdcore_sim PUBLIC PkgConfig::JSONC m)
# The sweep: the files both builds share (all but libfabric's engine and
# the build-specific NAME_real.c and NAME_sim.c), then this build's.
file(GLOB CXD_SIM_SWEEP_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/tools/sweep/*.c ${CMAKE_SOURCE_DIR}/tools/sweep/*/*.c)
file(GLOB CXD_SIM_NOT_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/tools/sweep/engine/engine_fabric*.c
     ${CMAKE_SOURCE_DIR}/tools/sweep/*/*_real.c
     ${CMAKE_SOURCE_DIR}/tools/sweep/*/*_sim.c)
list(REMOVE_ITEM CXD_SIM_SWEEP_SOURCES ${CXD_SIM_NOT_SOURCES})
set(CXD_SWEEP_SIM_DIR ${CMAKE_SOURCE_DIR}/tools/sweep)
list(APPEND CXD_SIM_SWEEP_SOURCES
     ${CXD_SWEEP_SIM_DIR}/engine/engine_list_sim.c # the MPI engine alone
     ${CXD_SWEEP_SIM_DIR}/engine/engine_mpi_sim.c  # blocking, a window one message
     ${CXD_SWEEP_SIM_DIR}/mpi/mpi_wait_sim.c       # every wait blocks
     ${CXD_SWEEP_SIM_DIR}/mpi/mpi_buf_sim.c        # one shared buffer block
     ${CXD_SWEEP_SIM_DIR}/mpi/mpi_coll_sim.c       # collectives through rank 0
     ${CXD_SWEEP_SIM_DIR}/phases/progress_tty_sim.c) # no progress line
add_executable(cxi_sweep ${CXD_SIM_SWEEP_SOURCES})
target_link_libraries(cxi_sweep PRIVATE cxdcore_sim)
# the sweep's folders include each other's headers as "FOLDER/NAME.h"
target_include_directories(cxi_sweep PRIVATE ${CMAKE_SOURCE_DIR}/tools/sweep)

# Its test copy (build-sim/standin/cxi_sweep): the test aids linked in,
# as in the normal build's build/standin (CXD_TEST_JITTER for the
# simulated noise; see tests/support/test_aids.c).
add_executable(standin_cxi_sweep ${CXD_SIM_SWEEP_SOURCES}
               ${CMAKE_SOURCE_DIR}/tests/support/test_aids.c)
set_target_properties(standin_cxi_sweep PROPERTIES OUTPUT_NAME cxi_sweep
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/standin)
target_link_libraries(standin_cxi_sweep PRIVATE cxdcore_sim)
target_include_directories(standin_cxi_sweep PRIVATE ${CMAKE_SOURCE_DIR}/tools/sweep)
