# SPDX-License-Identifier: BSD-3-Clause
"""A cxi_sweep --matrix file against the same run's --json and report
(test_sweep.sh): every rank wrote its own rows with MPI-IO, rank 0 wrote
the JSON from gathered rows and the report and link_stats (min, p5,
median, p95, max) from a distributed summary; all must agree.

    sweep_matrix_check.py MATRIX JSON REPORT

Prints the problems, exit 1 if any.
"""
import json, math, os, re, struct, sys

mat, js, rep = sys.argv[1:4]
d = json.load(open(js)); bad = []
n = len(d["ranks"])
raw = open(mat, "rb").read()
if len(raw) != 128 + 512 * n + 16 * n * n:
    sys.exit("size %d, want %d for %d ranks" % (len(raw), 128 + 512 * n + 16 * n * n, n))
magic, ver, mark, fn = struct.unpack_from("<8sIII", raw, 0)
size, rep_n, tol_bw, tol_lat = struct.unpack_from("<QQdd", raw, 24)
prov = raw[56:120].split(b"\0")[0].decode()
if (magic, ver, mark, fn) != (b"CXDSWMAT", 1, 0x01020304, n):
    bad.append("head %r" % ((magic, ver, mark, fn),))
if prov != d["provider"]: bad.append("provider %r, JSON %r" % (prov, d["provider"]))
if size != d["options"]["size"]: bad.append("size %d, JSON %r" % (size, d["options"]["size"]))
if abs(tol_bw * 100 - d["resolution"]["bw"]["tolerance_pct"]) > 1e-6:
    bad.append("bandwidth tolerance %g" % tol_bw)
for i, r in enumerate(d["ranks"]):
    rec = raw[128 + 512 * i: 128 + 512 * (i + 1)]
    host = rec[:256].split(b"\0")[0].decode()
    nic = rec[416:480].split(b"\0")[0].decode()
    if host != r["host"] or nic != r.get("nic", nic): bad.append("rank %d is %s:%s" % (i, host, nic))
off = 128 + 512 * n
for m, key in enumerate(("bw_mb_s", "lat_us")):
    vals = struct.unpack_from("<%dd" % (n * n), raw, off + m * 8 * n * n)
    for i in range(n):
        for j in range(n):
            v, w = vals[i * n + j], d[key][i][j]
            if w is None:
                if not math.isnan(v): bad.append("%s[%d][%d] = %r, JSON null" % (key, i, j, v))
            elif not (abs(v - w) <= 1e-9 * abs(w)):
                bad.append("%s[%d][%d] = %r, JSON %r" % (key, i, j, v, w))
    # The report's min / median / max come from a distributed selection.
    flat = sorted(x for x in vals if not math.isnan(x))
    k = len(flat)
    med = (flat[(k - 1) // 2] + flat[k // 2]) / 2
    want = "min %10.2f  median %10.2f  max %10.2f" % (flat[0], med, flat[-1])
    # ... and the JSON's percentiles (nearest rank) from the same bisection.
    st = d["link_stats"][key]
    for name, p in (("p5", 5), ("p95", 95)):
        want_p = flat[max((k * p + 99) // 100 - 1, 0)]
        if st[name] != want_p: bad.append("%s %s %r, want %r" % (key, name, st[name], want_p))
    if st["median"] != med or st["min"] != flat[0] or st["max"] != flat[-1]:
        bad.append("%s link_stats %r" % (key, st))
    label = "Bandwidth" if m == 0 else "Latency"
    line = [l for l in open(rep) if l.startswith(label)]
    if not line or want not in line[0]:
        bad.append("report %r, want %r" % (line[0].strip() if line else None, want))
if bad:
    print("; ".join(bad[:6]))
    sys.exit(1)
