# SPDX-License-Identifier: BSD-3-Clause
# The sweep core's link check (tests/tests.cmake): the program linked at
# all is the proof; here it runs, and libfabric is not among the
# libraries it names itself (readelf -d: NEEDED; not the RUNPATH, which
# names the lf2 tier's libfabric prefix for cxdcore's other users).
execute_process(COMMAND readelf -d ${PROG} OUTPUT_VARIABLE dyn
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${PROG} failed")
endif()
if(dyn MATCHES "Shared library: \\[libfabric")
  message(FATAL_ERROR "${PROG} needs libfabric:\n${dyn}")
endif()
execute_process(COMMAND ${PROG} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROG} exited ${rc}")
endif()
message(STATUS "${out}")
