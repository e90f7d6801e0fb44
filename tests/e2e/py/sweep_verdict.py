# SPDX-License-Identifier: BSD-3-Clause
"""The sweep's verdict in one namespace scenario (test_sweep_verdict.sh).

    sweep_verdict.py FILE SCENARIO N

lane:    rank 2 a quarter slow: exactly its 2(N-1) links flagged against
         their peers, rank 2 the one suspect.
healthy: nothing flagged, nobody suspect.
half:    every link at half the baseline's rate: every link flagged against
         the baseline, the fabric the suspect (not N hosts), ratios ~0.5
         (under 0.9 where VERDICT_BUSY_BASELINE=1: a baseline run on a
         busy host, INCONCLUSIVE, has some links low).
switch:  ranks 2 and 3 behind a slow uplink: exactly the links leaving
         their switch flagged, the switch the suspect.
A fault's link whose retest ran while a rank waited for a CPU (this
2-core host runs 5 ranks) is listed as not judged ("unjudged"), which is
true: it is neither flagged nor called healthy. So a fault scenario wants
its slow links each flagged or not judged, never both, and nothing else
in either list; the verdict and the suspect stay exact.
No scenario may flag latency against its peers: the shaping hardly touches
an 8-byte write, so such an outlier would be a busy host called a bad
fabric. (At half the rate each frame takes twice as long on the wire, a
few microseconds against a baseline of about 15: "half" may flag latency
against the baseline, and only so.)
"""
import json, os, sys

d = json.load(open(sys.argv[1]))
scen, n = sys.argv[2], int(sys.argv[3])
bw = {(o["src"], o["dst"]) for o in d["outliers"] if o["metric"] == "bw_mb_s"}
unj = {(o["src"], o["dst"]) for o in d.get("unjudged") or [] if o["metric"] == "bw_mb_s"}
lat = [(o["src"], o["dst"]) for o in d["outliers"] if o["metric"] == "lat_us"
       and not (scen == "half" and o["reasons"] == ["baseline"])]
sus = [(s["kind"], s["name"]) for s in d["suspects"]]
res = d["resolution"]
links = {(a, b) for a in range(n) for b in range(n) if a != b}
print("verdict %s; resolution bw %.0f %% (noise %.1f %%), lat %.0f %%; "
      "%d bw outliers, %d not judged (busy host); suspects %s" % (
          d["verdict"], res["bw"]["tolerance_pct"], res["bw"]["noise_pct"],
          res["lat"]["tolerance_pct"], len(bw), len(unj), sus))
problems = []


def slow_links(want, what):
    """The fault's links: each flagged or not judged, nothing else."""
    if bw | unj != want or bw & unj or not bw:
        problems.append("flagged %s and not judged %s, want %s"
                        % (sorted(bw), sorted(unj), what))


if scen.endswith("-noisy"):
    # Inconclusive on a noisy host: what it flags must be truly slow.
    scen = scen[:-len("-noisy")]
    inside = {2, 3} if scen == "switch" else {2}
    slow = links if scen == "half" else {
        (a, b) for (a, b) in links if (a in inside) != (b in inside) or
        (scen == "lane" and 2 in (a, b))}
    if not bw <= slow or lat or d["verdict"] == "PASS":
        problems.append("flagged %s (slow: %s), verdict %s" % (sorted(bw), sorted(slow), d["verdict"]))
    scen = "done"
if lat:
    problems.append("latency outliers %s" % lat)
# every confirmed outlier was retested, in its metric (the retest
# measures only the metrics with an outlier)
rt = d["retest"]
pairs = {(min(o["src"], o["dst"]), max(o["src"], o["dst"])) for o in d["outliers"]}
if any(o["metric"] not in rt["metrics"] for o in d["outliers"]) or rt["pairs"] < len(pairs):
    problems.append("retest %s for outliers on %d pairs" % (rt, len(pairs)))
if scen == "lane":
    want = {l for l in links if 2 in l}
    slow_links(want, "rank 2's %s" % sorted(want))
    if [s["rank"] for s in d["suspects"] if s["kind"] == "rank"] != [2] or len(sus) != 1:
        problems.append("suspects %s, want rank 2 alone" % sus)
    if d["verdict"] != "FAIL":
        problems.append("verdict %s" % d["verdict"])
elif scen == "healthy":
    if bw or sus or d["verdict"] == "FAIL":
        problems.append("a healthy fabric flagged %s, suspects %s" % (sorted(bw), sus))
elif scen == "half":
    slow_links(links, "all %d links" % len(links))
    if any("baseline" not in o["reasons"] for o in d["outliers"]):
        problems.append("an outlier not judged by the baseline")
    if [s["kind"] for s in d["suspects"]] != ["fabric"]:
        problems.append("suspects %s, want the fabric" % sus)
    ratios = [r for row in d["baseline"]["bw_ratio"] for r in row if r is not None]
    # a baseline measured on a busy host (its run INCONCLUSIVE) has some
    # links low, so half of it is more than half: each still flagged
    hi = 0.9 if os.environ.get("VERDICT_BUSY_BASELINE") == "1" else 0.65
    if len(ratios) != len(links) or not all(0.35 < r < hi for r in ratios):
        problems.append("baseline ratios %s" % sorted(ratios))
elif scen == "switch":
    inside = {2, 3}
    want = {(a, b) for (a, b) in links if (a in inside) != (b in inside)}
    slow_links(want, "the %d links leaving the switch" % len(want))
    if [s["kind"] for s in d["suspects"]] != ["switch"]:
        problems.append("suspects %s, want the switch" % sus)
    elif sorted(d["suspects"][0]["ranks"]) != [2, 3]:
        problems.append("the switch's ranks %s" % d["suspects"][0]["ranks"])
elif scen != "done":
    problems.append("unknown scenario " + scen)
if problems:
    print("; ".join(problems))
    sys.exit(1)
