# SPDX-License-Identifier: BSD-3-Clause
"""Writes a synthetic cxi_sweep --json document (test_plot.sh), shaped as
a real one. Plain: 4 ranks, one bandwidth outlier. With --suspect: what a
sweep against a baseline run adds (issue 19): 6 ranks, two per host on
NICs swp0/swp1, rank 2's 10 links slow, named as a suspect, and the ratio
to the baseline per link (no baseline for the 4->5 link).

    sweep_doc.py OUT_JSON [--suspect]
"""
import json, sys

suspect = "--suspect" in sys.argv[2:]
n = 6 if suspect else 4
hosts = ["vm1", "vm1", "vm2", "vm2", "vm3", "vm3"] if suspect else \
    ["nodeA", "nodeA", "nodeB", "nodeC"]
bw = [[None if i == j else 10000.0 + 10 * i + j for j in range(n)] for i in range(n)]
lat = [[None if i == j else 2.0 + 0.01 * (i + j) for j in range(n)] for i in range(n)]
# the stamp and fields docs/schema/sweep.schema.json requires: checked
# with the tools' documents when the test ends (lib.sh)
doc = {"schema_version": 1, "kind": "sweep", "tool": "cxi_sweep",
       "version": "0.1.0", "host": "nodeA", "start_time": "2026-01-02T03:04:05Z",
       "command": ["cxi_sweep", "--json", "sweep.json"],
       "libfabric": "1.17", "options": {}, "verdict": "FAIL",
       "provider": "tcp;ofi_rxm",
       "ranks": [{"rank": i, "host": hosts[i], "address": f"fi_addr_{i}"}
                 for i in range(n)],
       "bw_mb_s": bw, "lat_us": lat, "outliers": [], "rounds": [], "seconds": 3.2}
if not suspect:
    bw[3][1] = 2500.0
    doc["outliers"] = [{"src": 3, "dst": 1, "metric": "bw_mb_s",
                        "value": 2500.0, "reference": 10015.0}]
else:
    for i, r in enumerate(doc["ranks"]):
        r["nic"] = f"swp{i % 2}"
    ratio = [[None if i == j else 1.0 + 0.01 * ((i * 7 + j * 3) % 5 - 2)
              for j in range(n)] for i in range(n)]
    lat_ratio = [row[:] for row in ratio]
    for k in range(n):
        for a, b in ((2, k), (k, 2)):
            if a != b:
                bw[a][b] = 500.0 + k
                ratio[a][b] = round(bw[a][b] / 10020.0, 3)
                doc["outliers"].append({"src": a, "dst": b, "metric": "bw_mb_s",
                                        "value": bw[a][b], "reference": 10025.0})
    ratio[4][5] = lat_ratio[4][5] = None
    doc["baseline"] = {"file": "/var/tmp/sweep-baseline.json",
                       "bw_ratio": ratio, "lat_ratio": lat_ratio}
    doc["suspects"] = [{"kind": "rank", "name": "vm2 (rank 2, swp0)",
                        "rank": 2, "host": "vm2", "nic": "swp0",
                        "ranks": [2], "metric": "bw_mb_s", "bad": 10,
                        "links": 10}]
json.dump(doc, open(sys.argv[1], "w"))
