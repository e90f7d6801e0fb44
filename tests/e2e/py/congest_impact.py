# SPDX-License-Identifier: BSD-3-Clause
"""A shaped port shows in the congestion impact (test_congestion.sh).

    congest_impact.py FILE HIT OTHERS PATTERN MIN MAXOTHER

HIT: the victim link "src-dst" whose path crosses the shaped port with the
PATTERN's traffic; OTHERS: comma-separated links that cross no shaped port.
Passes when HIT's latency-mean impact is at least MIN, every other link's
is below MAXOTHER, and HIT's is at least twice the largest other's. Prints
the impact table it judged (for the log and the closing note).
"""
import json
import sys

path, hit, others, pattern = sys.argv[1:5]
lo, hi = float(sys.argv[5]), float(sys.argv[6])
c = json.load(open(path))["congestion"]
links = {"%d-%d" % (l["src"], l["dst"]): l for l in c["links"]}
metrics = ["lat_mean_us", "lat_p99_us", "lat_p99.9_us", "bw_mb_s"]
pats = [p for p in c["set"] if p != "isolated"]
print("%-8s %-15s %s" % ("link", "pattern", " ".join("%13s" % m for m in metrics)))
for name, l in sorted(links.items()):
    for p in pats:
        imp = l["phases"][p]["impact"]
        print("%-8s %-15s %s" % (name, p, " ".join(
            "%13s" % ("-" if imp[m] is None else "%.2fx" % imp[m]) for m in metrics)))


def impact(name):
    v = links[name]["phases"][pattern]["impact"]["lat_mean_us"]
    return float("nan") if v is None else v


h = impact(hit)
o = [impact(x) for x in others.split(",")]
ok = h >= lo and all(x < hi for x in o) and h >= 2 * max(o)
print("%s: link %s (shaped port) %.2fx, links %s (no shaped port) %s: %s" % (
    pattern, hit, h, others, ", ".join("%.2fx" % x for x in o),
    "as expected" if ok else "NOT as expected (want >= %g, others < %g)" % (lo, hi)))
sys.exit(0 if ok else 1)
