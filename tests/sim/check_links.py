#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare the link lines of a topology file written by sim/platgen.py
--links with its SimGrid platform (docs/simulation.md):
    check_links.py PREFIX         reads PREFIX.xml and PREFIX.topo
Every link line's two switches must be joined in the platform by links of
that count, every link between two switches of the platform must be on a
link line, and the switch, host and route lines must agree with it. For a
platform as designed (no --slow, --scale or --down: the counts are read
from bandwidths, and the lines list links that --down took out).

The platform is read as SimGrid routes it: each route edge's one link
between switches joins the switch of the edge's source and that of its
destination. A host's switch is the router its node link leads to; a
router's switch comes from platgen's names for its routers (sw-NAME,
in-NAME[-sT] at NAME, spineK, ftx-leafL-K and fth-HOST-K at spine K). A
link that no route crosses is placed by its "switches" property, which
for every other link must agree with the routes. Counts: an L1 connection
(same group, crossed with host lanes) is its bandwidth over a lane's; a
global link (two groups) is one link; a fat tree uplink is its bandwidth
in node links, at least one.
Prints what was compared and the first differences; exit 1 on any."""
import collections
import re
import sys
import xml.etree.ElementTree as ET

# platgen's routers and the switch each stands for: a switch's own, an
# arrival router (at the switch where the global link lands), a spine, a
# leaf's detour to a spine (--down), a host's way to a spine (hashed)
ROUTER_AT = [(re.compile(p), sub) for p, sub in (
    (r"sw-(.+)", r"\1"), (r"in-(g[0-9]+s[0-9]+)(-s[0-9]+)?", r"\1"), (r"(spine[0-9]+)", r"\1"),
    (r"ftx-leaf[0-9]+-([0-9]+)", r"spine\1"), (r"fth-.+-([0-9]+)", r"spine\1"))]


def router_switch(name):
    for rx, sub in ROUTER_AT:
        if rx.fullmatch(name):
            return rx.sub(sub, name)
    return None


def bw(text):
    return float(text[:-3])


def read_xml(path):
    """Hosts, routers, links {id: (bw, policy, latency, switches prop)}
    and route edges [(src, dst, [link ids])]."""
    zone = ET.parse(path).getroot().find("zone")
    hosts = [h.get("id") for h in zone.iter("host")]
    routers = [r.get("id") for r in zone.iter("router")]
    links = {}
    for lk in zone.iter("link"):
        prop = {p.get("id"): p.get("value") for p in lk.iter("prop")}.get("switches")
        links[lk.get("id")] = (bw(lk.get("bandwidth")), lk.get("sharing_policy"),
                               float(lk.get("latency")[:-1]), prop)
    edges = [(r.get("src"), r.get("dst"), [c.get("id") for c in r.iter("link_ctn")])
             for r in zone.iter("route")]
    return hosts, routers, links, edges


def read_topo(path):
    """Host lines {host: (switch, group)}, switch lines {switch: group},
    link lines [(a, b, count, line)], route lines [rule]."""
    hosts, switches, links, routes = {}, {}, [], []
    with open(path) as fh:
        for no, line in enumerate(fh, 1):
            w = line.split()
            if not w or w[0].startswith("#") or w[0] == "width":
                continue
            if w[0] == "switch":
                switches[w[1]] = w[2] if len(w) > 2 else None
            elif w[0] == "link":
                links.append((w[1], w[2], int(w[3]) if len(w) > 3 else 1, no))
            elif w[0] == "route":
                routes.append(w[1])
            else:
                hosts[w[0]] = (w[1], w[2] if len(w) > 2 else None)
    return hosts, switches, links, routes


def host_switches(hosts, routers, links, edges):
    """Each host's switch: the router that its node link alone (with its
    port, FATPIPE) leads to. Also the set of node links."""
    is_host, is_router = set(hosts), set(routers)
    at, nics = {}, set()
    for src, dst, ids in edges:
        if src in is_host and dst in is_router and ids \
                and all(links[i][1] == "FATPIPE" for i in ids[1:]):
            at[src] = router_switch(dst)
            nics.add(ids[0])
    return at, nics


def link_ends(routers, links, edges, at, nics):
    """The switches each inter-switch link joins, from the edges that
    cross it, and whether a lane rides with it; problems as strings."""
    where = dict(at)
    where.update((r, router_switch(r)) for r in routers)
    ends, laned, bad = collections.defaultdict(set), {}, []
    for src, dst, ids in edges:
        inter = [i for i in ids if i not in nics and links[i][1] == "SPLITDUPLEX"]
        if len(inter) > 1:
            bad.append("route %s -> %s crosses %d links between switches: %s"
                       % (src, dst, len(inter), inter))
        for i in inter:
            ends[i].add(frozenset((where.get(src), where.get(dst))))
            laned[i] = laned.get(i, False) or any(links[x][1] == "SHARED" for x in ids)
    return ends, laned, bad


def platform_pairs(xml, topo_groups):
    """{frozenset(a, b): count} of the platform's links between switches,
    and the problems found on the way."""
    hosts, routers, links, edges = xml
    at, nics = host_switches(hosts, routers, links, edges)
    ends, laned, bad = link_ends(routers, links, edges, at, nics)
    lanes = collections.Counter(v[0] for v in links.values() if v[1] == "SHARED" and not v[2])
    lane_bw = lanes.most_common(1)[0][0] if lanes else None
    node_bw = collections.Counter(links[i][0] for i in nics).most_common(1)[0][0]
    pairs = collections.Counter()
    for name, (rate, pol, _, prop) in links.items():
        if pol != "SPLITDUPLEX" or name in nics:
            continue
        seen = ends.get(name, set())
        by_prop = frozenset(prop.split()) if prop else None
        if len(seen) > 1:
            bad.append("link %s joins several switch pairs: %s"
                       % (name, sorted(map(sorted, seen))))
            continue
        pair = next(iter(seen)) if seen else by_prop
        if pair is None or len(pair) != 2:
            bad.append("link %s: %s" % (name, "joins a switch to itself" if pair else
                                        "no route crosses it and it has no switches property"))
            continue
        if by_prop is not None and by_prop != pair:
            bad.append("link %s: routes join %s, its property says %s"
                       % (name, sorted(pair), sorted(by_prop)))
        ga, gb = (topo_groups.get(s) for s in sorted(pair))
        if ga is not None and ga == gb:
            if name in laned and not laned[name]:
                bad.append("link %s inside group %s is crossed without a lane" % (name, ga))
            pairs[pair] += max(1, round(rate / lane_bw)) if lane_bw else 1
        elif ga is not None:
            pairs[pair] += 1
        else:
            pairs[pair] += max(1, round(rate / node_bw))
    return pairs, at, bad


def compare(xml, topo):
    """Every difference between the platform and the topology file."""
    hosts, switches, lines, routes = topo
    groups = {sw: g for sw, g in hosts.values()}
    groups.update(switches)
    pairs, at, bad = platform_pairs(xml, groups)
    if sorted(at.items()) != sorted((h, sw) for h, (sw, _) in hosts.items()):
        bad.append("host lines and the platform place the hosts differently")
    named = collections.Counter()
    for a, b, count, no in lines:
        named[frozenset((a, b))] += 1
        for s in (a, b):
            if s not in groups:
                bad.append("line %d: switch %s has no host line and no switch line" % (no, s))
        got = pairs.get(frozenset((a, b)), 0)
        if got != count:
            bad.append("line %d: link %s %s %d, the platform has %d" % (no, a, b, count, got))
    for pair in pairs:
        if not named[pair]:
            bad.append("platform joins %s, no link line does" % " and ".join(sorted(pair)))
    bad += ["link %s %s: on %d lines" % (*sorted(p), n) for p, n in named.items() if n > 1]
    hosted = {sw for sw, _ in hosts.values()}
    bad += ["switch %s: a switch line for a switch with hosts" % s
            for s in switches if s in hosted]
    routed = {router_switch(r) for r in xml[1] if router_switch(r)}
    bad += ["switch %s of the platform: on no host or switch line" % s
            for s in sorted(routed - set(groups))]
    want = "minimal" if any(g for g in groups.values()) else "ecmp"
    if routes != [want]:
        bad.append("route lines %s, want one: route %s" % (routes, want))
    return pairs, bad


def check(prefix):
    """(summary line, problems) for PREFIX.xml and PREFIX.topo."""
    xml, topo = read_xml(prefix + ".xml"), read_topo(prefix + ".topo")
    pairs, bad = compare(xml, topo)
    return ("%d link lines, %d switch pairs joined in the platform (%d links), %d switch "
            "lines, route %s; %d differ" % (len(topo[2]), len(pairs), sum(pairs.values()),
                                            len(topo[1]), "/".join(topo[3]) or "-",
                                            len(bad)), bad)


def main_for(prefix):
    """The problems found (tests/sim/test_platgen_shapes.py)."""
    return check(prefix)[1]


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: check_links.py PREFIX\n")
        return 2
    line, bad = check(sys.argv[1])
    print(line)
    for b in bad[:10]:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
