# Unit tests: each tests/unit/test_*.c is one cmocka program.
find_library(CMOCKA_LIB cmocka REQUIRED)
file(GLOB CXD_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${CXD_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE cxdcore ${CMOCKA_LIB})
  add_test(NAME unit.${name} COMMAND ${name})
  set_tests_properties(unit.${name} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

# End-to-end tests: each tests/e2e/test_*.sh runs the real binaries.
file(GLOB CXD_E2E_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/e2e/test_*.sh)
foreach(src ${CXD_E2E_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_test(NAME e2e.${name} COMMAND bash ${src} ${CMAKE_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endforeach()

# The fault matrix runs 224 bounded cases (most wait out a 5 s timeout).
if(TEST e2e.test_fault_matrix)
  set_tests_properties(e2e.test_fault_matrix PROPERTIES TIMEOUT 900)
endif()

# The <rdma/fi_cxi_ext.h> path of the cxi knobs, built against a test
# stand-in of that header (HPE's libfabric ships the real one, Debian's
# does not): the same unit tests plus the provider-key read-back.
add_executable(test_cxi_knobs_ext_stand_in
               ${CMAKE_SOURCE_DIR}/tests/unit/test_cxi_knobs.c
               ${CMAKE_SOURCE_DIR}/lib/cxi_knobs.c
               ${CMAKE_SOURCE_DIR}/lib/cxi_env.c)
target_include_directories(test_cxi_knobs_ext_stand_in BEFORE PRIVATE
                           ${CMAKE_SOURCE_DIR}/tests/stand_in)
target_link_libraries(test_cxi_knobs_ext_stand_in PRIVATE cxdcore
                      ${CMOCKA_LIB})
add_test(NAME unit.test_cxi_knobs_ext_stand_in
         COMMAND test_cxi_knobs_ext_stand_in)
set_tests_properties(unit.test_cxi_knobs_ext_stand_in PROPERTIES
                     LABELS unit TIMEOUT 60)
