# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive at scale: a year of weekly sweeps of one document's size.
From DOC (a cxi_sweep --json, e.g. a simulated 1,024-rank sweep), or
synthetic N ranks when DOC is a number: 52 weekly copies, each link's
bandwidth moved by up to 1 % (so no two are alike); times one ingest, all
52, the archive's size, compare/drift/baseline, the report and its size.
    archive_scale.py DOC|N OUT_DIR [WEEKS]
Prints one line per figure: name value unit."""
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.realpath(__file__))
ARC = [sys.executable, os.path.join(HERE, "..", "tools", "cxi_archive.py")]


def synthetic(n):
    hosts = ["nid%04d" % i for i in range(n)]
    rng = np.random.default_rng(1)
    bw = 23000 + rng.normal(0, 150, (n, n))
    lat = 1.5 + rng.normal(0, 0.05, (n, n))
    np.fill_diagonal(bw, np.nan)
    np.fill_diagonal(lat, np.nan)
    return {"schema_version": 1, "kind": "sweep", "tool": "cxi_sweep",
            "version": "bench", "host": hosts[0], "command": ["cxi_sweep"],
            "start_time": "", "provider": "cxi", "options": {"size": 65536},
            "ranks": [{"rank": i, "host": h, "nic": "cxi0",
                       "switch": "s%d" % (i // 16), "group": "g%d" % (i // 128)}
                      for i, h in enumerate(hosts)],
            "bw_mb_s": bw, "lat_us": lat, "outliers": [], "verdict": "PASS",
            "resolution": {"bw": {"typical": 23000, "tolerance_pct": 10},
                           "lat": {"typical": 1.5, "tolerance_pct": 100}},
            "seconds": 1}


def week(doc, k, rng, path):
    d = dict(doc)
    for key in ("bw_mb_s", "lat_us"):
        m = np.array(doc[key], dtype=float) * (1 + rng.uniform(-.01, .01))
        d[key] = [[None if v != v else round(v, 3) for v in row] for row in m]
    d["start_time"] = "2026-%02d-%02dT00:00:00Z" % (1 + k // 4, 1 + 7 * (k % 4))
    with open(path, "w") as f:
        json.dump(d, f)


def timed(name, args):
    t = time.monotonic()
    subprocess.run(ARC + args, check=True, stdout=subprocess.DEVNULL)
    dt = time.monotonic() - t
    print("%s %.2f s" % (name, dt), flush=True)
    return dt


def main():
    src, out = sys.argv[1], sys.argv[2]
    weeks = int(sys.argv[3]) if len(sys.argv) > 3 else 52
    os.makedirs(out, exist_ok=True)
    doc = synthetic(int(src)) if src.isdigit() else json.load(open(src))
    rng = np.random.default_rng(2)
    files = []
    for k in range(weeks):
        files.append(os.path.join(out, "w%02d.json" % k))
        week(doc, k, rng, files[-1])
    db = os.path.join(out, "year.db")
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    print("ranks %d" % len(doc["ranks"]))
    print("document %.1f MB" % (os.path.getsize(files[0]) / 1e6))
    timed("ingest_one", ["ingest", "-a", db, files[0]])
    t = time.monotonic()
    for f in files[1:]:
        subprocess.run(ARC + ["ingest", "-a", db, f], check=True,
                       stdout=subprocess.DEVNULL)
    print("ingest_each_mean %.2f s" % ((time.monotonic() - t) /
                                       max(1, weeks - 1)))
    subprocess.run(["sqlite3", db, "PRAGMA wal_checkpoint(TRUNCATE)"],
                   stdout=subprocess.DEVNULL)
    print("archive_%d_weeks %.1f MB" % (weeks, os.path.getsize(db) / 1e6))
    timed("compare", ["compare", "-a", db])
    timed("drift_12", ["drift", "-a", db, "--last", "12"])
    timed("baseline_5", ["baseline", "-a", db, "--last", "5", "-o",
                         os.path.join(out, "base.json")])
    page = os.path.join(out, "report.html")
    timed("report", ["report", "-a", db, files[-1], "-o", page])
    print("report %.1f MB" % (os.path.getsize(page) / 1e6))


if __name__ == "__main__":
    main()
