# DEB and RPM packages of the install tree: `cpack -G DEB` / `cpack -G RPM`
# in the build directory (or `make package`).
file(STRINGS ${CMAKE_SOURCE_DIR}/include/cxd/config.h CXD_VERSION_LINE
     REGEX "define CXD_SUITE_VERSION")
string(REGEX REPLACE ".*\"(.*)\".*" "\\1" CXD_VERSION "${CXD_VERSION_LINE}")

set(CPACK_PACKAGE_NAME cxd)
set(CPACK_PACKAGE_VERSION ${CXD_VERSION})
set(CPACK_PACKAGE_VENDOR "cxd project")
set(CPACK_PACKAGE_CONTACT "cxd maintainers <cxd@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Fabric bandwidth and latency diagnostics (CXI Diagnostics on libfabric)")
set(CPACK_PACKAGE_DESCRIPTION
    "Nine tools (cxi_write_bw, cxi_read_lat, ...) that measure bandwidth, \
message rate and latency between two hosts, or from a NIC to itself, over \
any libfabric provider, with the options and tables of HPE's CXI Diagnostics.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB RPM)

# Debian: library dependencies from dpkg-shlibdeps (libfabric1, libjson-c5,
# libc6); cxi_plot wants Python with matplotlib.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libfabric-bin")

# RPM: the names RHEL-family distributions use; rpmbuild adds the sonames.
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE "see /usr/share/doc/cxd")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_REQUIRES "libfabric >= 1.17, json-c")
set(CPACK_RPM_PACKAGE_SUGGESTS "python3-matplotlib")
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
# No /usr/lib/.build-id links in the package: they belong to debuginfo.
set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none")
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/share/man /usr/share/man/man1 /usr/share/man/man7)

include(CPack)
