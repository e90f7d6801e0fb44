# SPDX-License-Identifier: BSD-3-Clause
"""platgen.py --down KIND:NAME=K (docs/sim-down.md): K physical links of a
redundant set are down, not slow. Unlike --slow, a pair alone still runs
at its own node links' rate (the routes that used a dead link move onto
the survivors); what is lost is the set's aggregate capacity, which only
several pairs at once can see (issue 42).

    bundle:gI-gJ=K   dragonfly: K of the bundle's W global links, the last
                     K (links W-K .. W-1); K < W
    switch:gXsY=K    dragonfly: K of the physical links of each of that
                     switch's L1 connections (each aggregate loses K node
                     links' worth; the lanes, one link a pair, stay); the
                     links left must still carry a lane
    leaf:leafN=K     fat tree: K of the leaf's P uplinks, those to the last
                     K spines; K < P

The dead global links and uplinks leave the platform; the routing graph
is made again so that SimGrid's shortest paths are the rerouted ones
(platgen_topo.df_k, platgen_ft.ft_spine)."""
import re

from platgen_ft import ft_edges, ft_up
from platgen_topo import UsageError, df_edges, df_global, df_l1

KINDS = {"dragonfly": ("bundle", "switch"), "fattree": ("leaf",)}


def parse_down(spec, fabric_kind):
    """KIND:NAME=K -> (kind, name, k); UsageError naming the value."""
    m = re.fullmatch(r"([a-z]+):([A-Za-z0-9-]+)=(.*)", spec)
    if not m:
        raise UsageError("--down '%s': expected KIND:NAME=K" % spec)
    kind, name, text = m.groups()
    if kind not in KINDS[fabric_kind]:
        raise UsageError("--down '%s': a %s takes %s, not '%s'"
                         % (spec, fabric_kind, " or ".join(KINDS[fabric_kind]), kind))
    if not re.fullmatch(r"[0-9]+", text) or int(text) < 1:
        raise UsageError("--down '%s': K '%s' is not a count of links, 1 or more"
                         % (spec, text))
    return kind, name, int(text)


def number(spec, pattern, name, limits, what):
    """The numbers in NAME (e.g. g1s2 -> [1, 2]), each below its limit."""
    m = re.fullmatch(pattern, name)
    if not m or any(int(x) >= lim for x, lim in zip(m.groups(), limits)):
        raise UsageError("--down '%s': this fabric has no %s named '%s'" % (spec, what, name))
    return [int(x) for x in m.groups()]


def drop(f, links):
    """Take dead links out of the platform and out of every --slow set."""
    dead = set(links)
    for lk in dead:
        del f.links[lk]
    for key in list(f.sets):
        f.sets[key] = [lk for lk in f.sets[key] if lk not in dead]


def down_bundle(f, spec, name, k):
    geo = f.geometry
    i, j = number(spec, r"g([0-9]+)-g([0-9]+)", name, (geo["G"], geo["G"]), "bundle")
    if i == j:
        raise UsageError("--down '%s': this fabric has no bundle named '%s'" % (spec, name))
    i, j = min(i, j), max(i, j)
    W = geo["W"]
    if k >= W:
        raise UsageError("--down '%s': %d of the bundle's %d links down leaves none: that "
                         "is a partition, not lost capacity" % (spec, k, W))
    dead = geo.setdefault("gl_dead", {})
    if (i, j) in dead:
        raise UsageError("--down '%s': bundle g%d-g%d named twice" % (spec, i, j))
    dead[(i, j)] = frozenset(range(W - k, W))
    gone = [df_global(i, j, x)[0] for x in sorted(dead[(i, j)])]
    drop(f, gone)
    return "bundle g%d-g%d: %d of %d global links down (%s)" % (i, j, k, W, ", ".join(gone))


def down_switch(f, spec, name, k, lost):
    geo = f.geometry
    g, s = number(spec, r"g([0-9]+)s([0-9]+)", name, (geo["G"], geo["S"]), "switch")
    if geo["S"] < 2:
        raise UsageError("--down '%s': a group of one switch has no L1 links" % spec)
    named = geo.setdefault("sw_down", {})
    if (g, s) in named:
        raise UsageError("--down '%s': switch g%ds%d named twice" % (spec, g, s))
    named[(g, s)] = k
    for t in range(geo["S"]):
        if t != s:
            lk = df_l1(g, s, t)[0]
            lost[lk] = lost.get(lk, 0) + k
            left = geo["local"] - lost[lk]
            # a pair alone must still get its lane: fewer links left than
            # that is not lost redundancy
            if left < geo["lane"] - 1e-9:
                raise UsageError(
                    "--down '%s': %s is %g node links (--local %g); %d down leaves %g, "
                    "less than a pair's lane (--lane %g)"
                    % (spec, lk, geo["local"], geo["local"], lost[lk], max(left, 0),
                       geo["lane"]))
    return "switch %s: %d of the physical links of each of its L1 connections down" % (name, k)


def down_leaf(f, spec, name, k):
    geo = f.geometry
    (leaf,) = number(spec, r"leaf([0-9]+)", name, (geo["L"],), "leaf")
    P = geo["P"]
    if k >= P:
        raise UsageError("--down '%s': %d of the leaf's %d uplinks down leaves none: that "
                         "is a partition, not lost capacity" % (spec, k, P))
    dead = geo.setdefault("up_dead", {})
    if leaf in dead:
        raise UsageError("--down '%s': leaf%d named twice" % (spec, leaf))
    # the last K: every leaf keeps spine 0, so two leaves always share one
    dead[leaf] = frozenset(range(P - k, P))
    drop(f, [ft_up(leaf, x) for x in sorted(dead[leaf])])
    return "leaf%d: %d of its %d uplinks down (spines %d-%d)" % (leaf, k, P, P - k, P - 1)


def apply_down(f, specs):
    """Every --down: links out, capacities lowered, the routing graph made
    again over the links left. UsageError on bad input."""
    lost = {}
    for spec in specs:
        kind, name, k = parse_down(spec, f.kind)
        if kind == "bundle":
            note = down_bundle(f, spec, name, k)
        elif kind == "switch":
            note = down_switch(f, spec, name, k, lost)
        else:
            note = down_leaf(f, spec, name, k)
        f.notes.append("down: " + note)
    for lk, n in lost.items():
        f.links[lk] -= n * f.node_bw
    f.edges = []
    if f.kind == "dragonfly":
        f.routers = [r for r in f.routers if r.startswith("sw-")]
        df_edges(f, f.geometry, f.geometry["names"])
    else:
        f.routers = [r for r in f.routers if not r.startswith(("ftx-", "fth-"))]
        ft_edges(f, f.geometry, f.geometry["names"])
