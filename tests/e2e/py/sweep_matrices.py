# SPDX-License-Identifier: BSD-3-Clause
"""A cxi_sweep --json document of N ranks (test_sweep.sh).

    sweep_matrices.py FILE N

Prints the problems, exit 1 if any.
"""
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); bad = []
if d.get("tool") != "cxi_sweep": bad.append("tool is %r" % d.get("tool"))
if [r["rank"] for r in d["ranks"]] != list(range(n)): bad.append("ranks")
for key in ("bw_mb_s", "lat_us"):
    m = d[key]
    if len(m) != n or any(len(row) != n for row in m):
        bad.append("%s is not %dx%d" % (key, n, n)); continue
    for i in range(n):
        for j in range(n):
            v = m[i][j]
            if i == j and v is not None: bad.append("%s[%d][%d] not null" % (key, i, j))
            if i != j and not (isinstance(v, (int, float)) and v > 0):
                bad.append("%s[%d][%d] = %r" % (key, i, j, v))
seen = {}
for r in d["rounds"]:
    ranks = [x for p in r["pairs"] for x in p]
    if len(ranks) != len(set(ranks)): bad.append("rank twice in round %d" % r["round"])
    for a, b in r["pairs"]: seen[(a, b)] = seen.get((a, b), 0) + 1
want = {(a, b) for a in range(n) for b in range(a + 1, n)}
if set(seen) != want or any(c != 1 for c in seen.values()): bad.append("pairs not each once")
# Rounds as run: the circle rounds, cut to max_pairs pairs each.
k = d["options"]["max_pairs"]
if len(d["rounds"]) < (n - 1 if n % 2 == 0 else n): bad.append("%d rounds" % len(d["rounds"]))
if any(len(r["pairs"]) > k for r in d["rounds"]): bad.append("a round over max_pairs %d" % k)
print("\n".join(bad)); sys.exit(1 if bad else 0)
