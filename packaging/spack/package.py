# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for cxd. Use it from a repository of your own:
#   spack repo create ~/spack-cxd && mkdir -p ~/spack-cxd/packages/cxd
#   cp package.py ~/spack-cxd/packages/cxd/ && spack repo add ~/spack-cxd
#   spack install cxd            # or: spack install cxd+cuda ^libfabric@2.6.0
# The sha256 of each version is that of `make dist`'s tarball of the release
# (scripts/dist.sh --pin writes it); see README.md here.
from spack.package import *


class Cxd(CMakePackage):
    """Fabric bandwidth, message-rate and latency diagnostics with the
    options and result tables of HPE's CXI Diagnostics (cxi_write_bw,
    cxi_read_lat, ...) on any libfabric provider, and cxi_sweep, an
    all-pairs sweep over MPI that names the links that stand out."""

    # Where the project publishes its releases: set these two to the real
    # location when it has one (README.md); the file name is make dist's.
    homepage = "https://example.org/cxd"
    url = "https://example.org/cxd/releases/cxd-0.1.0.tar.gz"

    maintainers("cxd-maintainers")
    license("BSD-3-Clause", checked_by="cxd-maintainers")

    version("0.1.0", sha256="0000000000000000000000000000000000000000000000000000000000000000")

    variant("mpi", default=True, description="Build cxi_sweep, the all-pairs sweep (needs MPI)")
    variant("plot", default=True, description="Install cxi_plot's Python dependencies")
    # GPU buffers: the tools load the runtime themselves when a run asks;
    # what must be built for them is libfabric's GPU support.
    variant("cuda", default=False, description="GPU buffers on NVIDIA GPUs (libfabric +cuda)")
    variant("rocm", default=False, description="GPU buffers on AMD GPUs (libfabric +rocm)")
    conflicts("+cuda", when="+rocm", msg="one GPU runtime per build of libfabric")

    depends_on("c", type="build")
    depends_on("cmake@3.18:", type="build")
    # CMAKE_REQUIRE_FIND_PACKAGE_<Name> (below) is CMake 3.22's
    depends_on("cmake@3.22:", type="build", when="+mpi")
    depends_on("pkgconfig", type="build")
    depends_on("libfabric@1.17:")
    depends_on("libfabric+cuda", when="+cuda")
    depends_on("libfabric+rocm", when="+rocm")
    depends_on("json-c")
    depends_on("mpi", when="+mpi")
    depends_on("cmocka", type="test")
    depends_on("python@3:", type="run", when="+plot")
    depends_on("py-matplotlib", type="run", when="+plot")

    def url_for_version(self, version):
        return "https://example.org/cxd/releases/cxd-{0}.tar.gz".format(version)

    def cmake_args(self):
        # The binaries keep Spack's libfabric in their RPATH (Spack does
        # that for every dependency); naming the prefix makes the build
        # check that pkg-config found this one and not the system's.
        # CXD_WERROR stays off: warnings are errors only in the project's
        # own builds.
        args = [
            self.define("CXD_LIBFABRIC_PREFIX", self.spec["libfabric"].prefix),
            self.define("CXD_WERROR", False),
        ]
        # +mpi: Spack's MPI or a failed configure (CMake would otherwise
        # skip cxi_sweep quietly). ~mpi: no MPI looked for, so one the
        # system happens to have is not linked behind Spack's back.
        if self.spec.satisfies("+mpi"):
            args.append(self.define("CMAKE_REQUIRE_FIND_PACKAGE_MPI", True))
            args.append(self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc))
        else:
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_MPI", True))
        return args

    def test_version(self):
        """every installed tool prints this version"""
        for tool in ("cxi_write_bw", "cxi_send_lat"):
            exe = which(join_path(self.prefix.bin, tool))
            out = exe("--version", output=str.split, error=str.split)
            assert "version {0}".format(self.spec.version) in out

    def test_local_tcp(self):
        """one write bandwidth run on this node over libfabric's tcp provider"""
        exe = which(join_path(self.prefix.bin, "cxi_write_bw"))
        out = exe("--local", "--provider", "tcp", "-n", "10", "-s", "4096",
                  output=str.split, error=str.split)
        # the table's one row: size 4096, then the count and figures
        assert any(line.split()[:1] == ["4096"] for line in out.splitlines())
