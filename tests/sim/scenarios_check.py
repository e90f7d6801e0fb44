#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks on a run of sim/scenarios.py (its --json rows and its work dir):
every scenario ran to an end (exit 0, 3 or 4) and wrote its JSON; the sweep
placed each rank on the host the hostfile names, in the switch and group
the topology file gives (where it was given one); what the simulator must
show: with every link at half speed, the links measure about half the
healthy run's (the baseline's per-link ratio, median within 0.45-0.55);
every verdict is what the suite's table says (scenario_table's judge_row:
the verdict, the exact suspects); and the retest measured the metrics the
faults touch (bandwidth alone where only bandwidth was slowed; all pairs
for the whole fabric, none for a healthy one; not asked where links are
only down, which no pair alone sees); where the bandwidth pass was packed
by routes, no fewer rounds than its bound and, on a healthy fabric, not
found crowded (and with link lines some scenario packed so); and no sweep
took longer
than the pairs that must take turns (a rank's, or a group's across
groups at the width between two of its switches) one after another
would at the run's worst figures, twice over for the retest, twice
again for slack (simulated
time is free to run away: a latency run that passed its partner's
lateness on took 4e7 simulated s).
    scenarios_check.py ROWS.json"""
import json
import statistics
import sys


def shared_pairs(doc, n, narrow=False):
    """The most pairs that must take turns on one domain's shared links:
    a rank's N - 1, or, with --topology, a group's (a leaf's, without
    groups) pairs to the rest, as many at once as the width between two
    of its switches (of its uplinks) says, one where none is known: the
    sweep's own bound, which no schedule can beat without knowing where
    the traffic goes. narrow: a unit has links down (issue 42), so it
    carries fewer pairs at once than the width the sweep found typical:
    one at a time is the bound."""
    dom = [r.get("group") or r.get("switch") for r in doc["ranks"]]
    if None in dom:
        return n - 1
    w = doc.get("widths") or {}
    kind = "local" if doc["ranks"][0].get("group") else "uplink"
    cap = 1 if narrow else (w.get(kind) or {}).get("pairs") or 1
    size = {d: dom.count(d) for d in set(dom)}
    return max(n - 1, max(k * (n - k) for k in size.values()) / cap)


def time_bound(doc, narrow=False):
    """Seconds within which a sweep must end: the pairs that take turns
    (shared_pairs) one after another, each pair 2 x repeat bandwidth runs
    (-n messages of -s bytes at the lowest bandwidth measured) and as many
    latency runs (lat_iters round trips at the highest latency), all that
    twice (a retest) and twice again."""
    o, n = doc["options"], len(doc["ranks"])
    bw = min(x for row in doc["bw_mb_s"] for x in row if x) * 1e6
    lat = max(x for row in doc["lat_us"] for x in row if x) * 1e-6
    pair = 2 * o["repeat"] * (o["iters"] * o["size"] / bw + o["lat_iters"] * 2 * lat)
    return 4 * shared_pairs(doc, n, narrow) * pair


def main():
    with open(sys.argv[1]) as fh:
        run = json.load(fh)
    rows, bad = run["rows"], []
    routed = linked = 0
    if len(rows) != run["scenarios"]:
        bad.append("%d scenarios, want %d" % (len(rows), run["scenarios"]))
    for r in rows:
        if r["rc"] not in (0, 3, 4):
            bad.append("%s: exit %s (%s)" % (r["scenario"], r["rc"], r["verdict"]))
            continue
        with open(r["json"]) as fh:
            doc = json.load(fh)
        prefix = r["platform"][:-len(".xml")]
        with open(prefix + ".hosts") as fh:
            hosts = fh.read().split()
        with open(prefix + ".topo") as fh:
            topo = {w[0]: w[1:] for w in (ln.split() for ln in fh)
                    if w and w[0][0] != "#" and w[0] != "width"}
        if not r.get("right"):
            bad.append("%s: %s" % (r["scenario"], r.get("why")))
        narrow = any(x.startswith("capacity ") for x in r["want"].get("suspects", []))
        if not doc["seconds"] <= time_bound(doc, narrow):
            bad.append("%s: the sweep took %.4g simulated s, more than %.3g (its pairs "
                       "one after another)" % (r["scenario"], doc["seconds"],
                                               time_bound(doc, narrow)))
        for rk in doc["ranks"]:
            want = hosts[rk["rank"]]
            placed = [rk.get("switch"), rk.get("group")]
            # a fat tree's topology file names no group
            where = (topo[want] + [None])[:2]
            if rk["host"] != want or (placed != [None, None] and placed != where):
                bad.append("%s: rank %d on %s %s %s, want %s %s" % (
                    r["scenario"], rk["rank"], rk["host"], rk.get("switch"), rk.get("group"),
                    want, topo[want]))
                break
        # the bandwidth pass packed by routes: never fewer rounds than no
        # packing can beat, and on a healthy fabric never found crowded
        rr = doc["schedule"].get("routed")
        if rr:
            routed += 1
            if rr["rounds"] < rr["bound_rounds"] or rr["seconds"] <= 0:
                bad.append("%s: routed pass %s" % (r["scenario"], rr))
            if r["verdict"] == "PASS" and rr["dropped"]:
                bad.append("%s: healthy, its routed pass crowded (%s)" %
                           (r["scenario"], rr))
        linked += "link" in topo
        # the retest measures only the metrics with an outlier: those the
        # scenario's faults touch (bandwidth, latency, or both)
        rt, n = doc["retest"], len(doc["ranks"])
        want_rt = {"PASS": (0, []), "FAIL": (None, r["metrics"])}.get(r["verdict"])
        if r["verdict"] == "FAIL" and not r["metrics"]:
            # capacity lost behind redundancy alone (issue 42): a pair alone
            # runs at full rate, so what the main pass flags, and retests,
            # depends on how many of its pairs shared the unit at once
            want_rt = None
        if "whole fabric" in r["scenario"]:
            want_rt = (n * (n - 1) // 2, ["bw_mb_s"])
        if want_rt and (rt["metrics"] != want_rt[1] or
                        (want_rt[0] is not None and rt["pairs"] != want_rt[0]) or
                        (want_rt[0] is None and rt["pairs"] < 1)):
            bad.append("%s: retest %s, want %s pairs of %s" % (
                r["scenario"], rt, "some" if want_rt[0] is None else want_rt[0], want_rt[1]))
        if "whole fabric" in r["scenario"]:
            ratios = [x for row in doc["baseline"]["bw_ratio"] for x in row if x is not None]
            med = statistics.median(ratios)
            print("whole fabric at 1/2: median link ratio to the healthy run %.3f (%d links)"
                  % (med, len(ratios)))
            if not 0.45 <= med <= 0.55:
                bad.append("whole fabric at 1/2: median ratio %.3f, want 0.45-0.55" % med)
    if linked and not routed:
        bad.append("%d scenarios with link lines, none packed by routes" % linked)
    print("%d of %d scenarios with link lines packed by routes" % (routed, linked))
    for b in bad:
        print(b)
    print("%d scenarios checked, %d problems" % (len(rows), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
