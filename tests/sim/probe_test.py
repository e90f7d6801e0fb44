#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What the simulator must show (issue 29), checked with tests/sim/probe:
on platforms from sim/platgen.py whose every link runs at a node's rate, a
pair measured alone gets the platform's rate, a slowed link measures slower
by the factor set for a pair crossing it, and a pair that does not cross it
does not change. Latency is the sum of the links' latencies on the route.
    probe_test.py PROBE_BINARY WORKDIR
Prints one line per measured pair and "ok"/"FAIL" per check; exit 1 on any
failure. Bandwidth within 1 %, latency within 2 %. With links down
(--down, issue 42) a pair alone keeps its rate, rerouted or not, and
several pairs at once over the redundant set (probe -a) carry less than
over the healthy one (AGG)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sim"))
import platgen  # noqa: E402

BW_TOL, LAT_TOL = 0.01, 0.02
# Every link at a node's rate, so that any slowed link is a pair's bottleneck.
DF = ["dragonfly", "--groups", "4", "--switches", "3", "--hosts", "2",
      "--local", "1", "--bundle", "1", "--global-bw", "1"]
# The same with non-blocking L1 connections (H node links).
DF4 = ["dragonfly", "--groups", "2", "--switches", "3", "--hosts", "4", "--bundle", "1",
       "--local", "4", "--global-bw", "1"]
FT = ["fattree", "--leaves", "4", "--hosts", "4", "--spines", "2", "--uplink", "1"]
FT4 = ["fattree", "--leaves", "4", "--hosts", "4", "--spines", "4", "--uplink", "1"]
# Bundles of 4 links at a node's rate each, landing on switch k of both
# groups (g0s0-g1s0 ... g0s3-g1s3); three hosts a switch with L1 of 2 links.
DFB = ["dragonfly", "--groups", "2", "--switches", "4", "--hosts", "2", "--bundle", "4",
       "--global-bw", "4"]
DF3 = ["dragonfly", "--groups", "2", "--switches", "2", "--hosts", "3", "--local", "2",
       "--bundle", "1", "--global-bw", "1"]
# name, platform, extra platgen words, [(src, dst, ratio to healthy)]
CASES = [
    ("df healthy", DF, [], [(0, 1, 1), (0, 2, 1), (0, 6, 1), (0, 8, 1), (3, 23, 1)]),
    ("df node nid0005 at 75%", DF, ["--slow", "node:nid0005=0.75"],
     [(5, 0, 0.75), (0, 5, 0.75), (5, 20, 0.75), (0, 1, 1), (4, 20, 1)]),
    ("df switch g0s1 uplinks at 50%", DF, ["--slow", "switch:g0s1=0.5"],
     [(2, 0, 0.5), (0, 3, 0.5), (2, 3, 1), (0, 4, 1), (0, 6, 1)]),
    ("df bundle g0-g1 at 50%", DF, ["--slow", "bundle:g1-g0=0.5"],
     [(0, 6, 0.5), (7, 1, 0.5), (0, 12, 1), (6, 12, 1), (0, 2, 1)]),
    # Non-blocking L1 connections (4 node links, one a flow): the switch's uplinks
    # at half leave its L1 aggregates at 2 node links, but its lanes at 1/2.
    ("df 2x3x4 switch g0s1 uplinks at 50%", DF4, ["--slow", "switch:g0s1=0.5"],
     [(4, 0, 0.5), (0, 5, 0.5), (7, 8, 0.5), (0, 8, 1), (9, 1, 1), (4, 5, 1)]),
    # A latency fault: the node link's latency x4, its bandwidth unchanged
    # (the route's latency, the model's, counts it).
    ("df node nid0005 latency x4", DF, ["--slow-lat", "node:nid0005=4"],
     [(5, 0, 1), (0, 5, 1), (5, 20, 1), (0, 1, 1)]),
    ("df whole fabric at 50%", DF, ["--scale", "0.5"], [(0, 1, 0.5), (0, 8, 0.5), (3, 23, 0.5)]),
    # The suite's 128-host shape with its default links, globals at 1/4: a
    # pair alone gets its narrowest link, a global one when it leaves the group.
    ("df 8x4x4 globals at 1/4", ["dragonfly", "--groups", "8", "--switches", "4",
                                 "--hosts", "4", "--taper", "0.25"], [],
     [(0, 1, 1), (0, 5, 1), (0, 16, 2 / 7.0), (21, 100, 2 / 7.0)]),
    ("ft healthy", FT, [], [(0, 1, 1), (0, 4, 1), (0, 5, 1), (15, 2, 1)]),
    ("ft spine1 at 50%", FT, ["--slow", "spine:spine1=0.5"],
     [(0, 5, 0.5), (8, 3, 0.5), (0, 4, 1), (0, 1, 1), (5, 0, 1)]),
    ("ft leaf1 uplinks at 50%", FT, ["--slow", "switch:leaf1=0.5"],
     [(4, 0, 0.5), (0, 5, 0.5), (4, 5, 1), (0, 8, 1)]),
    ("ft node nid0003 at 75%", FT, ["--slow", "node:nid0003=0.75"], [(3, 9, 0.75), (2, 9, 1)]),
    # Links down (--down): a pair alone, rerouted or not, keeps its rate.
    ("df bundle g0-g1 2 of 4 down", DFB, ["--down", "bundle:g0-g1=2"],
     [(6, 14, 1), (4, 12, 1), (0, 8, 1), (15, 7, 1)]),
    ("df switch g0s1 1 of 2 L1 links down", DF, ["--local", "2", "--down", "switch:g0s1=1"],
     [(2, 0, 1), (0, 3, 1), (2, 8, 1)]),
    ("ft leaf1 2 of 4 uplinks down", FT4, ["--down", "leaf:leaf1=2"],
     [(4, 2, 1), (6, 3, 1), (3, 7, 1), (0, 12, 1)]),
]

# Several pairs at once (probe -a) over one redundant set, healthy and with
# links down: name, platform, --down words, pairs, the healthy sum and the
# range of the down sum's ratio to it. Five pairs over a bundle of 4 links:
# two share link 0, so 4 links' worth; with links 2, 3 down, the pairs to
# g1s2, g1s3 detour over links 0, 1 (L1 hops on both sides). SimGrid's
# model shares a link in inverse proportion to each flow's route latency,
# and the pairs that end first leave the link to the others, so the sum of
# the pairs' rates is a little over the 2 links left (0.557 of healthy).
AGG = [
    ("bundle g0-g1, 2 of 4 links down", DFB, ["--down", "bundle:g0-g1=2"],
     [(0, 8), (1, 9), (2, 10), (4, 12), (6, 14)], 4, (0.5, 0.6)),
    # three pairs from g0s1 to g0s0 over an L1 connection of 2 links, one down
    ("switch g0s1, 1 of 2 L1 links down", DF3, ["--down", "switch:g0s1=1"],
     [(3, 0), (4, 1), (5, 2)], 2, (0.49, 0.51)),
    # four pairs from leaf1 to leaf0, one a spine; two uplinks of leaf1 down
    ("leaf1, 2 of 4 uplinks down", FT4, ["--down", "leaf:leaf1=2"],
     [(4, 0), (5, 1), (6, 2), (7, 3)], 4, (0.49, 0.51)),
]


def model(f, a, b):
    """The platform's rate and latency for a pair alone: its route's
    narrowest link, and the sum of its links' latencies."""
    rule = platgen.df_route if f.kind == "dragonfly" else platgen.ft_route
    route = rule(f.geometry, a, b)
    return min(f.links[lk] for lk, _ in route), f.latency(route)


def run_case(probe, work, name, base, extra, pairs):
    prefix = os.path.join(work, "".join(c if c.isalnum() else "_" for c in name))
    args = base + extra + ["-o", prefix]
    f, _ = platgen.build(args)
    platgen.write_outputs(f, prefix)
    words = [str(x) for a, b, _ in pairs for x in (a, b)]
    cmd = ["smpirun", "-np", str(len(f.hosts)), "-platform", prefix + ".xml",
           "-hostfile", prefix + ".hosts", probe] + words
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    got = {}
    for line in out.stdout.splitlines():
        w = line.split()
        if w and w[0] == "pair":
            got[(int(w[1]), int(w[2]))] = (w[3], w[4], float(w[5]), float(w[6]))
    fails = 0
    for a, b, ratio in pairs:
        if (a, b) not in got:
            print("FAIL %s: pair %d %d not measured (rc %d)\n%s" % (name, a, b, out.returncode,
                                                                   out.stderr[-2000:]))
            fails += 1
            continue
        ha, hb, bw, lat = got[(a, b)]
        rate, mlat = model(f, a, b)
        want = f.node_bw * ratio  # healthy: every link at the node's rate
        checks = [
            ("hosts as the hostfile puts them", (ha, hb) == (f.hosts[a][0], f.hosts[b][0])),
            ("bandwidth %.4g B/s = platform rate %.4g within 1%%" % (bw, rate),
             abs(bw / rate - 1) <= BW_TOL),
            ("bandwidth = %g x healthy %.4g within 1%%" % (ratio, f.node_bw),
             abs(bw / want - 1) <= BW_TOL),
            ("latency %.4g s = route's %.4g s within 2%%" % (lat, mlat),
             abs(lat / mlat - 1) <= LAT_TOL),
        ]
        for what, ok in checks:
            print("%s %s: %s -> %s: %s" % ("ok  " if ok else "FAIL", name, ha, hb, what))
            fails += not ok
    return fails


def together(probe, work, name, base, extra, pairs):
    """The sum of the pairs' rates, all at once (probe -a), in B/s."""
    prefix = os.path.join(work, "agg_" + "".join(c if c.isalnum() else "_" for c in name))
    f, _ = platgen.build(base + extra + ["-o", prefix])
    platgen.write_outputs(f, prefix)
    cmd = ["smpirun", "-np", str(len(f.hosts)), "-platform", prefix + ".xml",
           "-hostfile", prefix + ".hosts", probe, "-a"] + [str(x) for p in pairs for x in p]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    rates = [float(ln.split()[5]) for ln in out.stdout.splitlines() if ln.startswith("pair ")]
    if len(rates) != len(pairs):
        print("FAIL %s: %d of %d pairs measured (rc %d)\n%s" % (
            name, len(rates), len(pairs), out.returncode, out.stderr[-2000:]))
        return None, f
    return sum(rates), f


def run_agg(probe, work, name, base, down, pairs, links, ratio):
    healthy, f = together(probe, work, name + " healthy", base, [], pairs)
    hurt, _ = together(probe, work, name, base, down, pairs)
    if healthy is None or hurt is None:
        return 1
    want = links * f.node_bw
    checks = [("healthy: %d pairs at once carry %.4g B/s = %d node links within 1%%"
               % (len(pairs), healthy, links), abs(healthy / want - 1) <= BW_TOL),
              ("down: they carry %.4g B/s, %.3f of healthy, in [%g, %g]"
               % (hurt, hurt / healthy, ratio[0], ratio[1]),
               ratio[0] <= hurt / healthy <= ratio[1])]
    for what, ok in checks:
        print("%s aggregate %s: %s" % ("ok  " if ok else "FAIL", name, what))
    return sum(not ok for _, ok in checks)


def main():
    probe, work = sys.argv[1], sys.argv[2]
    fails = sum(run_case(probe, work, *c) for c in CASES)
    fails += sum(run_agg(probe, work, *c) for c in AGG)
    print("probe_test: %d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
