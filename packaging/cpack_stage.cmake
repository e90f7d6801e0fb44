# SPDX-License-Identifier: BSD-3-Clause
# Run by CPack on each package's staging tree before it is packed
# (CPACK_PRE_BUILD_SCRIPTS, set in cpack.cmake): what the distributions'
# rules want of a package but `make install` does not need.
#  - man pages compressed (gzip -9n: no name or time, reproducible);
#  - .deb: /usr/share/doc/PACKAGE/copyright (machine-readable, the licence
#    from LICENSE) and changelog.gz, in every package (Debian policy 12.5, 12.7);
#  - .rpm: the licence in /usr/share/licenses/cxd/ (the cxd package).
# packaging/README.md explains the linters' remaining warnings.
set(src ${CPACK_CXD_SOURCE_DIR})
set(ver ${CPACK_PACKAGE_VERSION})

file(GLOB_RECURSE pages LIST_DIRECTORIES false "${CPACK_TEMPORARY_DIRECTORY}/*.[1-8]")
list(FILTER pages INCLUDE REGEX "/share/man/man[1-8]/[^/]+$")
foreach(p ${pages})
  execute_process(COMMAND gzip -9nf ${p} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${p} failed")
  endif()
endforeach()

# the component's staging root: TMP/COMPONENT/usr
file(GLOB roots LIST_DIRECTORIES true "${CPACK_TEMPORARY_DIRECTORY}/*/usr")
file(READ ${src}/LICENSE licence)
string(REGEX REPLACE "^.*Copyright \\(c\\) ([^\n]*)\n\n(.*)$" "\\2" terms "${licence}")
string(REGEX REPLACE "^.*Copyright \\(c\\) ([0-9]+), ([^\n]*)\n.*$" "\\1 \\2" holder "${licence}")
# DEP-5 continuation lines: one space, "." for an empty line
string(REGEX REPLACE "\n\n" "\n.\n" terms "${terms}")
string(REGEX REPLACE "\n([^\n])" "\n \\1" terms "${terms}")
string(REGEX REPLACE "\n$" "" terms "${terms}")
# SOURCE_DATE_EPOCH, when set, makes the date (and the package) reproducible
string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)

foreach(root ${roots})
  get_filename_component(comp ${root} DIRECTORY)
  get_filename_component(comp ${comp} NAME)
  set(pkg cxd)
  if(comp STREQUAL "sweep")
    set(pkg cxd-sweep)
  endif()
  if(CPACK_GENERATOR STREQUAL "DEB")
    set(doc ${root}/share/doc/${pkg})
    file(MAKE_DIRECTORY ${doc})
    file(WRITE ${doc}/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cxd
Source: the cxd release tarball, cxd-${ver}.tar.gz (make dist)

Files: *
Copyright: ${holder}
License: BSD-3-Clause

License: BSD-3-Clause
 ${terms}
")
    file(WRITE ${doc}/changelog
"${pkg} (${ver}) unstable; urgency=medium

  * Packaged with CPack from the cxd ${ver} release.

 -- ${CPACK_PACKAGE_CONTACT}  ${date}
")
    execute_process(COMMAND gzip -9nf ${doc}/changelog)
  elseif(CPACK_GENERATOR STREQUAL "RPM" AND pkg STREQUAL "cxd")
    file(MAKE_DIRECTORY ${root}/share/licenses/cxd)
    file(COPY ${src}/LICENSE DESTINATION ${root}/share/licenses/cxd)
  endif()
endforeach()
