# SPDX-License-Identifier: BSD-3-Clause
"""Checks an EasyBuild easyconfig without EasyBuild: it is Python, read
with the few constants EasyBuild gives it. With a tarball, its checksum
must be the tarball's. (`make easybuild` builds it with real EasyBuild.)

    easyconfig.py FILE VERSION [TARBALL]
"""
import hashlib, os, re, sys

path, want = sys.argv[1], sys.argv[2]
tarball = sys.argv[3] if len(sys.argv) > 3 else None
ec = {"SYSTEM": {"name": "system", "version": "system"},
      "SOURCE_TAR_GZ": "%(name)s-%(version)s.tar.gz"}
exec(compile(open(path).read(), path, "exec"), ec)
bad = []
for key, val in (("easyblock", "CMakeMake"), ("name", "cxd"), ("version", want),
                 ("moduleclass", "tools")):
    if ec.get(key) != val:
        bad.append("%s = %r, want %r" % (key, ec.get(key), val))
src = ec.get("sources", [""])[0] % {"name": ec.get("name"), "version": ec.get("version")}
if src != "cxd-%s.tar.gz" % want:
    bad.append("sources give %s, want make dist's cxd-%s.tar.gz" % (src, want))
sums = ec.get("checksums", [])
if len(sums) != 1 or not re.fullmatch(r"[0-9a-f]{64}", sums[0]):
    bad.append("checksums %r: want one sha256" % sums)
deps = [d[0] for d in ec.get("dependencies", [])]
for d in ("libfabric", "json-c", "OpenMPI"):
    if d not in deps:
        bad.append("no dependency %s" % d)
if not any("--local" in c and "tcp" in c for c in ec.get("sanity_check_commands", [])):
    bad.append("no sanity check command runs a tool --local over tcp")
checked = ""
if tarball and not bad:
    got = hashlib.sha256(open(tarball, "rb").read()).hexdigest()
    if sums[0] != got:
        bad.append("checksum %s, but %s is %s" % (sums[0], os.path.basename(tarball), got))
    else:
        checked = ", checksum of %s matches" % os.path.basename(tarball)
if bad:
    for b in bad:
        print(b)
    print("%d problem(s) in %s: %s" % (len(bad), path, bad[0]))
    sys.exit(1)
print("CMakeMake easyconfig for cxd %s, deps %s%s" % (want, ",".join(deps), checked))
