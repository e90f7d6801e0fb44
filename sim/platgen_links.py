# SPDX-License-Identifier: BSD-3-Clause
"""platgen.py --links: the fabric's switches and links in the topology
file, beside its host lines (the format of docs/topology.md):

    switch NAME [GROUP]   a switch with no host (a fat tree's spine, a
                          dragonfly router that --fill left empty)
    link A B COUNT        COUNT physical links between switches A and B:
                          an L1 connection (its physical links), the
                          global links of a bundle that join the same two
                          switches, a leaf's uplink to a spine
    route minimal|ecmp    a dragonfly's minimal routes (at most one global
                          link a route); a fat tree's spine choice, which
                          the sweep cannot know (d-mod-k or hashed)

The lines describe the fabric as designed: links --down takes out stay on
them (a site's file lists its cables; the sweep is to find those missing).
With --links the platform's inter-switch links also carry the two
switches they join (a "switches" property), so that a link no route
crosses can still be checked against the lines (tests/sim/check_links.py)."""


def hostless(f):
    """The switches with no host, as (name, group or None), in order."""
    geo = f.geometry
    if f.kind == "dragonfly":
        return [("g%ds%d" % gs, "g%d" % gs[0]) for gs, hosts in sorted(geo["on"].items())
                if not hosts]
    return [("spine%d" % k, None) for k in range(geo["P"])]


def link_lines(f):
    """(A, B, COUNT) for each pair of switches the fabric joins, in the
    order the links were made; a pair's links added up."""
    lines = {}
    for a, b, count in f.joins.values():
        lines[(a, b)] = lines.get((a, b), 0) + count
    return [(a, b, n) for (a, b), n in lines.items()]


def topo_lines(f):
    """The --links part of PREFIX.topo, one string a line."""
    out = ["# switch NAME [GROUP]; link A B COUNT; route RULE (platgen --links)"]
    out += ["switch %s%s" % (name, " " + grp if grp else "") for name, grp in hostless(f)]
    out += ["link %s %s %d" % ln for ln in link_lines(f)]
    out.append("route " + ("minimal" if f.kind == "dragonfly" else "ecmp"))
    return out


def xml_props(f, name):
    """The properties of a link in the platform with --links: the two
    switches an inter-switch link joins; nothing for the others."""
    if name not in f.joins:
        return ""
    a, b, _ = f.joins[name]
    return '<prop id="switches" value="%s %s"/>' % (a, b)
