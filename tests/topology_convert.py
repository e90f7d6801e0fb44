#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The converters of contrib/topology/ to cxi_sweep's --topology format.

Each runs on its input in tests/data/topology/ and must write that input's
.cxd file exactly (from a file and from standard input, to standard output
and to -o); bad inputs must exit 2 with a message naming the file, the
line and the value. The C unit test test_topo_links loads the .cxd files.

Usage: topology_convert.py SRC_DIR     exit 1 on any failure
"""
import os
import subprocess
import sys
import tempfile

SLURM = "slurm-topology-to-cxd"
IB = "ibnetdiscover-to-cxd"
CASES = [(SLURM, "slurm-tree.conf", "slurm-tree.cxd"),
         (IB, "ib-fat-tree.txt", "ib-fat-tree.cxd")]

SW = 'Switch\t36 "S-%s"\t\t# "%s" enhanced port 0 lid %d lmc 0'
TO_H = '[%d]\t"H-%s"[1](%s) \t\t# "%s" lid %d 4xHDR'
TO_S = '[%d]\t"S-%s"[%d]\t\t# "%s" lid %d 4xHDR'
# (converter, input, line named, value named): exit 2.
BAD = [
    (SLURM, "SwitchName=s1 Nodes=n[1-2]\nNodes=n3\n", 2, "no SwitchName="),
    (SLURM, "SwitchName=s1 Nodes=n[1-2\n", 1, "'n[1-2'"),
    (SLURM, "SwitchName=s1 Nodes=n[2-1]\n", 1, "'2-1'"),
    (SLURM, "SwitchName=s1 Nodes=n[1-x]\n", 1, "'1-x'"),
    (SLURM, "# x\nSwitchName=s1 Color=red\n", 2, "'Color'"),
    (SLURM, "SwitchName=s1 n1\n", 1, "'n1' is not KEY=VALUE"),
    (SLURM, "SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=a\n", 2,
     "'a' is placed twice (first at line 1), on switch 's2' here"),
    (SLURM, "SwitchName=t Switches=s9\n", 1, "'s9'"),
    (SLURM, "SwitchName=a Switches=b\nSwitchName=b Switches=a Nodes=x\n", 1,
     "below itself"),
    (SLURM, "SwitchName=s1 Nodes=a\nSwitchName=s1 Nodes=b\n", 2,
     "'s1' defined twice"),
    (SLURM, "SwitchName=s1 Nodes=link\n", 1, "host 'link'"),
    (SLURM, "SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=b\n", 0,
     "switches 's1' and 's2' carry hosts but no links join them"),
    (IB, SW % ("01", "leaf", 3) + "\n[1]\t\"H-0a\"[x]\n", 2,
     "'[1]\t\"H-0a\"[x]'"),
    (IB, "Switch 36 S-01\n", 1, "'Switch 36 S-01'"),
    (IB, "[1]\t\"S-02\"[1]\n", 1, "before any Switch or Ca block"),
    (IB, 'Rt\t2 "R-07"\t\t# "gw"\n', 1, "router 'R-07'"),
    (IB, SW % ("01", "leaf", 3) + "\n" + TO_H % (1, "0a", "b", "", 9) + "\n",
     2, "HCA 'H-0a' has no description"),
    (IB, "\n".join([SW % ("01", "l1", 3), TO_H % (1, "0a", "b", "x y", 9),
                    SW % ("02", "l2", 4), TO_H % (1, "0a", "b", "x y", 9)]),
     4, "HCA 'H-0a' is on switches 'l1' and 'l2'"),
]


def run(src, tool, args, stdin=None):
    return subprocess.run([os.path.join(src, "contrib", "topology", tool)] +
                          args, input=stdin, capture_output=True, text=True,
                          timeout=60)


def check_cases(src, data, tmp):
    fails = []
    for tool, given, want in CASES:
        with open(os.path.join(data, want)) as f:
            expected = f.read()
        path = os.path.join(data, given)
        out = os.path.join(tmp, want)
        got = [run(src, tool, [path]), run(src, tool, [path, "-o", out])]
        with open(path) as f:
            piped = run(src, tool, [], f.read())
        for r in got + [piped]:
            if r.returncode != 0:
                fails.append("%s %s: exit %d: %s" % (tool, given,
                                                     r.returncode, r.stderr))
        if got[0].stdout != expected:
            fails.append("%s %s: not %s:\n%s" % (tool, given, want,
                                                 got[0].stdout))
        if os.path.exists(out) and open(out).read() != expected:
            fails.append("%s -o %s: not %s" % (tool, out, want))
        if piped.stdout.replace("<stdin>", given) != expected:
            fails.append("%s < %s: not %s" % (tool, given, want))
    return fails


def check_bad(src, tmp):
    fails = []
    for i, (tool, text, line, value) in enumerate(BAD):
        path = os.path.join(tmp, "bad%d" % i)
        with open(path, "w") as f:
            f.write(text)
        r = run(src, tool, [path])
        where = "%s:%d:" % (path, line) if line else path + ":"
        if r.returncode != 2 or where not in r.stderr or \
                value not in r.stderr or r.stdout:
            fails.append("%s on %r: exit %d, '%s'; want 2, '%s' and '%s'"
                         % (tool, text, r.returncode, r.stderr.strip(),
                            where, value))
    return fails


def check_more(src, tmp):
    """A continued line; two switches sharing a description (both named by
    GUID); an HCA seen only from its switch; cables counted once."""
    fails = []
    r = run(src, SLURM, [], "SwitchName=s1 \\\n  Nodes=n[8-10] # c\n")
    if r.returncode or "n8 s1\nn9 s1\nn10 s1\n" not in r.stdout:
        fails.append("continued line: %r %s" % (r.stdout, r.stderr))
    text = "\n".join([SW % ("01", "same", 1), TO_S % (1, "02", 1, "same", 2),
                      TO_S % (2, "02", 2, "same", 2),
                      TO_H % (3, "0a", "b", "h1 mlx5_0", 9),
                      SW % ("02", "same", 2), TO_S % (1, "01", 1, "same", 1),
                      TO_S % (2, "01", 2, "same", 1),
                      TO_H % (4, "0c", "d", "h2 mlx5_0", 8)]) + "\n"
    r = run(src, IB, [], text)
    want = "h1 S-01\nh2 S-02\n\n# link A B COUNT\nlink S-01 S-02 2\n"
    if r.returncode or want not in r.stdout:
        fails.append("same descriptions: %r %s" % (r.stdout, r.stderr))
    return fails


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    src = argv[0]
    data = os.path.join(src, "tests", "data", "topology")
    with tempfile.TemporaryDirectory() as tmp:
        fails = (check_cases(src, data, tmp) + check_bad(src, tmp) +
                 check_more(src, tmp))
    for f in fails:
        print("FAIL " + f)
    print("%d failure%s" % (len(fails), "" if len(fails) == 1 else "s"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
