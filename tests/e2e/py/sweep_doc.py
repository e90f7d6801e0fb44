"""Writes a synthetic 4-rank cxi_sweep --json document (test_plot.sh).

    sweep_doc.py OUT_JSON
"""
import json, sys
n = 4
hosts = ["nodeA", "nodeA", "nodeB", "nodeC"]
bw = [[None if i == j else 10000.0 + 10 * i + j for j in range(n)] for i in range(n)]
lat = [[None if i == j else 2.0 + 0.01 * (i + j) for j in range(n)] for i in range(n)]
bw[3][1] = 2500.0
doc = {"tool": "cxi_sweep", "version": "0.1.0",
       "ranks": [{"rank": i, "host": hosts[i], "address": f"fi_addr_{i}"}
                 for i in range(n)],
       "bw_mb_s": bw, "lat_us": lat,
       "outliers": [{"src": 3, "dst": 1, "metric": "bw_mb_s",
                     "value": 2500.0, "reference": 10015.0}]}
json.dump(doc, open(sys.argv[1], "w"))
