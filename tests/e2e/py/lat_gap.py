# SPDX-License-Identifier: BSD-3-Clause
"""--latency-gap kept and measured (test_lat_family.sh).

    lat_gap.py CLIENT_JSON GAP_US

A -n 50 client's measured gaps: none below GAP, the shortest within 5 %
above it, the figures in order.
"""
import json, sys
d = json.load(open(sys.argv[1]))
g = float(sys.argv[2])
r = d["results"][0]
if d["options"]["latency_gap_us"] != int(g) or r["count"] != 50:
    sys.exit(f"options.latency_gap_us {d['options']['latency_gap_us']}, count {r['count']}")
lo, med, mean = r["gap_min_us"], r["gap_p50_us"], r["gap_mean_us"]
# Every gap at least the request; the wait itself adds under 5 % (the
# shortest gap: a busy CPU can stretch others, which is not the tool's).
if lo < g:
    sys.exit(f"gap_min_us {lo} < requested {g}")
if lo > 1.05 * g:
    sys.exit(f"gap_min_us {lo} > requested {g} + 5 %")
if not lo <= med <= r["gap_max_us"] or not lo <= mean <= r["gap_max_us"]:
    sys.exit(f"gap figures out of order: {r}")
print(f"gaps kept: min {lo} us (median {med}, mean {mean}) for {g:g} us requested")
