# SPDX-License-Identifier: BSD-3-Clause
"""Checks the Spack recipe without Spack (not installable here): imports
it against the stand-in of spack.package in tests/support/spack_stub/ and
checks its metadata, variants, dependencies, arguments and stand-alone
tests; with a tarball, that the recipe's sha256 for the tarball's version
is the tarball's.

    spack_recipe.py RECIPE VERSION [TARBALL]

Last line: the verdict; exit 1 on any problem.
"""
import hashlib, importlib.util, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "support", "spack_stub"))
import spack.package as stub  # noqa: E402

recipe, want_version = sys.argv[1], sys.argv[2]
tarball = sys.argv[3] if len(sys.argv) > 3 else None
bad = []

spec = importlib.util.spec_from_file_location("cxd_recipe", recipe)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
cls = getattr(mod, "Cxd", None)
if cls is None or not issubclass(cls, stub.CMakePackage):
    print("no class Cxd(CMakePackage) in %s" % recipe)
    sys.exit(1)

calls = {}
for name, args, kwargs in stub.DIRECTIVES:
    calls.setdefault(name, []).append((args, kwargs))

# metadata
lic = [a[0] for a, k in calls.get("license", [])]
if lic != ["BSD-3-Clause"]:
    bad.append("license %r, want ['BSD-3-Clause']" % lic)
if not calls.get("maintainers") or not all(calls["maintainers"][0][0]):
    bad.append("no maintainers")
for attr in ("homepage", "url"):
    if not re.match(r"^https://[^/]+\.[a-z]+/", getattr(cls, attr, "") or ""):
        bad.append("%s is not an https URL: %r" % (attr, getattr(cls, attr, None)))
if "example.invalid" in (cls.homepage + cls.url):
    bad.append("example.invalid URL")
if not (cls.__doc__ or "").strip():
    bad.append("no description (class docstring)")

# versions: each with a sha256; the suite's version among them
versions = {}
for args, kwargs in calls.get("version", []):
    sha = kwargs.get("sha256", "")
    if not re.fullmatch(r"[0-9a-f]{64}", sha):
        bad.append("version %s: sha256 %r is not 64 hex digits" % (args[0], sha))
    versions[args[0]] = sha
if want_version not in versions:
    bad.append("no version(%r) (include/cxd/config.h)" % want_version)

# the tarball URL pattern: make dist's name
u = cls.url_for_version(cls, want_version)
if not u.endswith("/cxd-%s.tar.gz" % want_version):
    bad.append("url_for_version gives %s, want .../cxd-%s.tar.gz" % (u, want_version))
if os.path.basename(cls.url) != "cxd-%s.tar.gz" % re.sub(
        r"^.*cxd-([0-9.]+)\.tar\.gz$", r"\1", cls.url):
    bad.append("url %s is not a cxd-X.Y.Z.tar.gz" % cls.url)

# variants and what they pull in
variants = {a[0]: k for a, k in calls.get("variant", [])}
for v in ("mpi", "cuda", "rocm"):
    if v not in variants or not variants[v].get("description"):
        bad.append("no variant %r with a description" % v)
deps = [(a[0], k.get("when")) for a, k in calls.get("depends_on", [])]
for want in (("mpi", "+mpi"), ("libfabric+cuda", "+cuda"), ("libfabric+rocm", "+rocm"),
             ("json-c", None)):
    if want not in deps:
        bad.append("no depends_on(%r, when=%r)" % want)
if not any(d.startswith("libfabric@1.17:") and w is None for d, w in deps):
    bad.append("no depends_on('libfabric@1.17:')")


# cmake_args for +mpi and ~mpi, on a stand-in spec
class Spec:
    def __init__(self, on):
        self.on = on

    def satisfies(self, s):
        return s == "+mpi" and self.on

    def __getitem__(self, name):
        return type("Dep", (), {"prefix": "/opt/" + name, "mpicc": "/opt/mpi/bin/mpicc"})()


for on in (True, False):
    args = cls(Spec(on)).cmake_args()
    want = ["-DCXD_LIBFABRIC_PREFIX=/opt/libfabric", "-DCXD_WERROR=OFF",
            "-DCMAKE_REQUIRE_FIND_PACKAGE_MPI=ON" if on else
            "-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON"]
    for w in want:
        if w not in args:
            bad.append("cmake_args (%smpi) lacks %s: %s" % ("+" if on else "~", w, args))

# stand-alone tests: the --local run over tcp
tests = [n for n in dir(cls) if n.startswith("test_") and callable(getattr(cls, n))]
src = open(recipe).read()
if not tests or not all((getattr(cls, t).__doc__ or "").strip() for t in tests):
    bad.append("stand-alone tests missing or without a docstring: %s" % tests)
if not re.search(r'"--local",\s*"--provider",\s*"tcp"', src):
    bad.append("no stand-alone test runs --local --provider tcp")

checked = ""
if tarball:
    name = os.path.basename(tarball)
    v = re.sub(r"^cxd-([0-9.]+)\.tar\.gz$", r"\1", name)
    got = hashlib.sha256(open(tarball, "rb").read()).hexdigest()
    if versions.get(v) != got:
        bad.append("version %s: sha256 %s, but %s is %s" % (v, versions.get(v), name, got))
    else:
        checked = ", sha256 of %s matches" % name

if bad:
    for b in bad:
        print(b)
    print("%d problem(s) in %s: %s" % (len(bad), recipe, bad[0]))
    sys.exit(1)
print("recipe imports; BSD-3-Clause, %d version(s), variants %s, %d stand-alone tests%s"
      % (len(versions), "+".join(sorted(variants)), len(tests), checked))
