# SPDX-License-Identifier: BSD-3-Clause
# Man pages: each man/NAME.SECTION.in becomes NAME.SECTION in the build tree,
# its OPTIONS list generated from the option table by cxd_mangen (so -h and
# the page cannot disagree), and is installed in share/man/manSECTION.
# Section 1 pages are those of programs: include this after their targets;
# such a page goes in its program's install component (CXD_COMPONENT).
add_executable(cxd_mangen ${CMAKE_SOURCE_DIR}/man/cxd_mangen.c)
target_link_libraries(cxd_mangen PRIVATE cxdcore)

file(GLOB CXD_MAN_TEMPLATES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/man/*.[1-8].in)
file(GLOB CXD_MAN_FRAGMENTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/man/*.roff)
set(CXD_MAN_PAGES)
foreach(tpl ${CXD_MAN_TEMPLATES})
  get_filename_component(page ${tpl} NAME)
  string(REGEX REPLACE "\\.in$" "" page ${page})
  string(REGEX REPLACE "\\.[1-8]$" "" name ${page})
  string(REGEX REPLACE "^.*\\.([1-8])$" "\\1" section ${page})
  if(section STREQUAL "1" AND NOT TARGET ${name})
    continue() # a program this build skips (cxi_sweep without MPI)
  endif()
  set(comp cxd)
  if(section STREQUAL "1")
    get_target_property(comp ${name} CXD_COMPONENT)
  endif()
  set(out ${CMAKE_BINARY_DIR}/man/${page})
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND cxd_mangen ${name} ${tpl} ${out}
    DEPENDS cxd_mangen ${tpl} ${CXD_MAN_FRAGMENTS}
    COMMENT "Generating man page ${page}" VERBATIM)
  install(FILES ${out} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section}
          COMPONENT ${comp})
  list(APPEND CXD_MAN_PAGES ${out})
endforeach()
add_custom_target(man ALL DEPENDS ${CXD_MAN_PAGES})
