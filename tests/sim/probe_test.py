#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What the simulator must show (issue 29), checked with tests/sim/probe:
on platforms from sim/platgen.py whose every link runs at a node's rate, a
pair measured alone gets the platform's rate, a slowed link measures slower
by the factor set for a pair crossing it, and a pair that does not cross it
does not change. Latency is the sum of the links' latencies on the route.
    probe_test.py PROBE_BINARY WORKDIR
Prints one line per measured pair and "ok"/"FAIL" per check; exit 1 on any
failure. Bandwidth within 1 %, latency within 2 %."""
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


def main():
    probe, work = sys.argv[1], sys.argv[2]
    fails = sum(run_case(probe, work, *c) for c in CASES)
    print("probe_test: %d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
