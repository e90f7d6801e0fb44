# SPDX-License-Identifier: BSD-3-Clause
# DEB and RPM packages of the install tree: `cpack -G DEB` / `cpack -G RPM`
# in the build directory (or `make package`). One package per install
# component: `cxd` (the pair tools, cxi_plot, cxi_archive, their pages,
# docs) and, when
# MPI was found, `cxd-sweep` (cxi_sweep and its page), so that the MPI
# library is a dependency of the sweep alone.
# CXD_VERSION: read from include/cxd/config.h by the top CMakeLists.txt.

set(CPACK_PACKAGE_NAME cxd)
set(CPACK_PACKAGE_VERSION ${CXD_VERSION})
set(CPACK_PACKAGE_VENDOR "cxd project")
# A site or distribution that builds the packages names itself here.
set(CXD_PACKAGE_CONTACT "cxd maintainers <cxd-maintainers@example.org>"
    CACHE STRING "Maintainer of the .deb and .rpm (Name <address>)")
set(CPACK_PACKAGE_CONTACT "${CXD_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Fabric bandwidth and latency diagnostics (CXI Diagnostics on libfabric)")
# Lines of at most 80 characters (lintian: extended-description-line-too-long).
set(CPACK_PACKAGE_DESCRIPTION
    "Nine tools (cxi_write_bw, cxi_read_lat, ...) that measure bandwidth,
message rate and latency between two hosts, or from a NIC to itself, over
any libfabric provider, with the options and tables of HPE's CXI Diagnostics.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
# compressed man pages, copyright and changelog: packaging/cpack_stage.cmake
set(CPACK_CXD_SOURCE_DIR ${CMAKE_SOURCE_DIR})
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_SOURCE_DIR}/packaging/cpack_stage.cmake)
set(CPACK_GENERATOR DEB RPM)

set(CPACK_COMPONENTS_ALL cxd)
set(CPACK_COMPONENT_CXD_DISPLAY_NAME "cxd pair tools")
if(TARGET cxi_sweep)
  list(APPEND CPACK_COMPONENTS_ALL sweep)
  set(CPACK_COMPONENT_SWEEP_DISPLAY_NAME "cxd all-pairs sweep")
  set(CPACK_COMPONENT_SWEEP_DEPENDS cxd)
endif()
set(CXD_SWEEP_DESCRIPTION
    "cxi_sweep, started by an MPI launcher (mpirun, srun) with one rank per
node, measures bandwidth both ways and latency between every pair of ranks
over libfabric and names the links that stand out. MPI only starts the job
and gathers the results.")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_RPM_COMPONENT_INSTALL ON)

# Debian: library dependencies from dpkg-shlibdeps (libfabric1, libjson-c5,
# libc6, and the MPI library for cxd-sweep); cxi_plot and cxi_archive want
# Python with matplotlib (and numpy, which it brings). cxd-sweep needs cxd of the same version (its man page points
# to the pair tools' pages, and it shares their options).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_CXD_PACKAGE_NAME cxd)
set(CPACK_DEBIAN_CXD_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_CXD_PACKAGE_RECOMMENDS "python3, python3-matplotlib")
set(CPACK_DEBIAN_CXD_PACKAGE_SUGGESTS "libfabric-bin")
set(CPACK_DEBIAN_SWEEP_PACKAGE_NAME cxd-sweep)
set(CPACK_DEBIAN_SWEEP_DESCRIPTION "${CXD_SWEEP_DESCRIPTION}")

# RPM: the names RHEL-family distributions use; rpmbuild adds the sonames
# (libmpi.so for cxd-sweep). The main component's package keeps the bare
# name `cxd`; CPackRPM has no inter-component dependencies, hence the
# explicit Requires.
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_MAIN_COMPONENT cxd)
set(CPACK_RPM_PACKAGE_LICENSE "BSD-3-Clause") # SPDX, as Fedora now asks
set(CPACK_RPM_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_REQUIRES "libfabric >= 1.17, json-c")
set(CPACK_RPM_CXD_PACKAGE_SUGGESTS "python3-matplotlib")
set(CPACK_RPM_SWEEP_PACKAGE_REQUIRES
    "cxd = ${CXD_VERSION}, ${CPACK_RPM_PACKAGE_REQUIRES}")
set(CPACK_RPM_SWEEP_PACKAGE_SUMMARY
    "All-pairs fabric sweep over MPI with the cxd pair tools")
set(CPACK_RPM_SWEEP_PACKAGE_DESCRIPTION "${CXD_SWEEP_DESCRIPTION}")
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
# No /usr/lib/.build-id links in the package: they belong to debuginfo.
# (Packager: the same contact as the .deb's Maintainer.)
set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none
%define packager ${CXD_PACKAGE_CONTACT}")
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/share/man /usr/share/man/man1 /usr/share/man/man7)

include(CPack)
