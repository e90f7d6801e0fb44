# Spack recipe for cxd. Use it from a repository of your own:
#   spack repo create ~/spack-cxd && mkdir -p ~/spack-cxd/packages/cxd
#   cp package.py ~/spack-cxd/packages/cxd/ && spack repo add ~/spack-cxd
#   spack install cxd            # or: spack install cxd ^libfabric@2.6.0
from spack.package import *


class Cxd(CMakePackage):
    """Fabric bandwidth, message-rate and latency diagnostics with the
    options and result tables of HPE's CXI Diagnostics (cxi_write_bw,
    cxi_read_lat, ...), on any libfabric provider."""

    homepage = "https://example.invalid/cxd"
    # No release is published yet: build from a checkout with
    #   spack dev-build cxd@main   (or point git at your clone)
    git = "https://example.invalid/cxd.git"

    version("main", branch="main")

    variant("plot", default=True, description="Install cxi_plot (needs matplotlib)")
    variant("sweep", default=True, description="Build cxi_sweep, the all-pairs sweep (needs MPI)")

    depends_on("c", type="build")
    depends_on("cmake@3.18:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("libfabric@1.17:")
    depends_on("json-c")
    depends_on("mpi", when="+sweep")
    # CMAKE_REQUIRE_FIND_PACKAGE_<Name> (below) is CMake 3.22's
    depends_on("cmake@3.22:", type="build", when="+sweep")
    depends_on("cmocka", type="test")
    depends_on("python@3:", type="run", when="+plot")
    depends_on("py-matplotlib", type="run", when="+plot")

    def cmake_args(self):
        # The binaries keep Spack's libfabric in their RPATH (Spack does
        # that for every dependency); naming the prefix makes the build
        # check that pkg-config found this one and not the system's.
        args = [self.define("CXD_LIBFABRIC_PREFIX", self.spec["libfabric"].prefix)]
        # +sweep: Spack's MPI or a failed configure (CMake would otherwise
        # skip cxi_sweep quietly). ~sweep: no MPI looked for, so one the
        # system happens to have is not linked behind Spack's back.
        if self.spec.satisfies("+sweep"):
            args.append(self.define("CMAKE_REQUIRE_FIND_PACKAGE_MPI", True))
            args.append(self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc))
        else:
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_MPI", True))
        return args
