#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare what SimGrid made of a platform (the output of tests/sim/routes:
"link NAME BW POLICY" lines, then one "SRC DST LINK..." line a host pair)
with what sim/platgen.py intends: every link with its bandwidth and sharing
(a full-duplex link as two shared halves NAME_UP, NAME_DOWN; an L1 lane as
one SHARED link, a host's port as one FATPIPE link), and every pair's route,
in which each L1 link comes with one lane.
    check_routes.py DUMP PLATGEN-ARGS...
Prints the number of pairs checked and the first mismatches; exit 1 on any."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sim"))
import platgen  # noqa: E402


def hop(lk, d):
    return lk if d is None else "%s_%s" % (lk, d)


def intended_links(f):
    """SimGrid's link name -> (bandwidth, policy) for the platform."""
    want = {}
    for name, bw in f.links.items():
        if name in f.lanes:
            want[name] = (bw, f.policy(name))
        else:
            want[name + "_UP"] = want[name + "_DOWN"] = (bw, "SHARED")
    return want


def check_links(f, got):
    want = intended_links(f)
    bad = ["links: simgrid has %s, intended %s" % (sorted(got)[:5], sorted(want)[:5])] \
        if set(got) != set(want) else []
    for name in sorted(set(got) & set(want)):
        bw, pol = got[name]
        if pol != want[name][1] or abs(bw / want[name][0] - 1) > 1e-9:
            bad.append("link %s: simgrid %g %s, intended %g %s"
                       % (name, bw, pol, want[name][0], want[name][1]))
    return bad


def l1_without_lane(words):
    """Whether a SimGrid route has other than one lane per L1 hop."""
    lanes = [w for w in words if w.startswith(("l1out-", "l1in-"))]
    return len(lanes) != sum(w.startswith("l1-") for w in words)


def main():
    dump, args = sys.argv[1], sys.argv[2:]
    f, _ = platgen.build(args)
    index = {name: i for i, (name, _, _) in enumerate(f.hosts)}
    rule = platgen.df_route if f.kind == "dragonfly" else platgen.ft_route
    seen, bad, links, lane_hops = set(), [], {}, 0
    with open(dump) as fh:
        for line in fh:
            words = line.split()
            if words[0] == "link":
                if words[1].startswith("__"):  # SimGrid's own loopback
                    continue
                links[words[1]] = (float(words[2]), words[3])
                continue
            src, dst, got = words[0], words[1], sorted(words[2:])
            want = sorted(hop(lk, d) for lk, d in rule(f.geometry, index[src], index[dst]))
            seen.add((src, dst))
            lane_hops += sum(w.startswith(("l1out-", "l1in-")) for w in got)
            if got != want:
                bad.append("%s -> %s: simgrid %s, intended %s" % (src, dst, got, want))
            elif l1_without_lane(got):
                bad.append("%s -> %s: L1 without its lane: %s" % (src, dst, got))
    bad = check_links(f, links) + bad
    n = len(f.hosts)
    missing = n * (n - 1) - len(seen)
    print("%d pairs checked, %d differ, %d missing; %d links (%d lanes, ports), %d lane hops"
          % (len(seen), len(bad), missing, len(links), len(f.lanes), lane_hops))
    for b in bad[:10]:
        print("  " + b)
    if f.kind == "dragonfly" and f.geometry["S"] > 1 and not lane_hops:
        print("  no route crosses an L1 lane")
        return 1
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
