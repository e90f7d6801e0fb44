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

    depends_on("c", type="build")
    depends_on("cmake@3.18:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("libfabric@1.17:")
    depends_on("json-c")
    depends_on("cmocka", type="test")
    depends_on("python@3:", type="run", when="+plot")
    depends_on("py-matplotlib", type="run", when="+plot")

    def cmake_args(self):
        # The binaries keep Spack's libfabric in their RPATH (Spack does
        # that for every dependency); naming the prefix makes the build
        # check that pkg-config found this one and not the system's.
        return [self.define("CXD_LIBFABRIC_PREFIX", self.spec["libfabric"].prefix)]
