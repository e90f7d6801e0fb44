# SPDX-License-Identifier: BSD-3-Clause
"""The scenario suite's table (docs/simulation.md): the fabric shapes for
N ranks, every scenario with what its verdict must be, the platgen words
of each, and how a sweep's JSON is judged against it. sim/scenarios.py
runs them; sim/faults.py reads suspects the same way."""

import platgen


def geometry(n):
    """Groups, switches per group, hosts per switch for n ranks: at least
    2 groups; 4x4 per group up to 256 ranks, 8x8 beyond when it divides."""
    shapes = [(4, 4), (8, 8), (4, 8), (8, 4), (2, 4), (4, 2), (2, 2), (1, 2), (1, 1)]
    if n > 256:
        shapes = [(8, 8), (4, 8), (8, 4)] + shapes
    for s, h in shapes:
        if n % (s * h) == 0 and n // (s * h) >= 2:
            return n // (s * h), s, h
    return None


def ft_geometry(n):
    """Leaves and hosts per leaf of the fat tree for n ranks: 16 hosts a
    leaf (a common leaf's half of its ports) when it divides, at least 2
    leaves; None when no even leaf size fits."""
    for h in (16, 8, 4, 2):
        if n % h == 0 and n // h >= 2:
            return n // h, h
    return None


def bundle_width(g, s, h):
    """Global links per group pair such that one is about a node link's
    rate at full global bandwidth (a group's links together carry what
    its s*h nodes inject, over g - 1 peers), as a Slingshot global link
    runs at a NIC's rate: a single pair across groups is then bound by
    its own node links until the globals are tapered."""
    return max(1, int(s * h / (g - 1)))


def ft_words(h, ratio):
    """A fat tree leaf at 1:1 (one spine a host) or 2:1 (half as many),
    one uplink a spine at a node link's rate."""
    return ["--spines", str(h if ratio == 1 else max(1, h // 2)),
            "--taper", "1" if ratio == 1 else "2:1"]


# The scenarios e2e.test_sim_scenarios runs (1-based, as --only): each
# kind of verdict once, the capacity faults of issue 42 that a dragonfly
# shows (24, and 26 holding 23's bundle), a node and a switch both named
# (15, which holds 4 and 5); healthy narrow fabrics are e2e.test_sim_
# shapes' (3). The rest only in make bench (--suite full).
QUICK = (1, 6, 7, 8, 10, 13, 14, 15, 24, 26)
# Issue 42's: links down behind redundancy, and the healthy shapes they
# are judged beside (--suite capacity, bench/sim_capacity.sh).
CAPACITY = (12, 22, 23, 24, 25, 26)


def scenarios(g, s, h, n_ft=None):
    """The suite: each a dict of name, fabric ("df" or "ft"), platgen
    words, baseline (the index of the scenario whose JSON is the
    baseline), topology (pass the --topology file), jitter
    (CXD_TEST_JITTER for the test copy), the verdict it must have (see
    judge_row) and the metrics its retest must measure. The faults sit
    away from rank 0: host 1 of switch 1 of group 1, switch 1 of group 1,
    the bundle between groups 0 and 1; the second faults on switch 2 of
    group 1 (or 0), group 2 and the bundle g1-g2."""
    n = g * s * h
    s1, h1, h2, s2 = min(1, s - 1), min(1, h - 1), min(2, h - 1), 2 if s > 2 else 0
    node = platgen.host_name((s + s1) * h + h1, n)
    node_b = platgen.host_name((s + s1) * h + (h2 if h2 != h1 else 0), n)
    node_s2 = platgen.host_name((s + s2) * h + h1, n)
    node_g2 = platgen.host_name((2 % g) * s * h + s1 * h + h1, n)
    sw = "g1s%d" % s1
    b12 = "-".join(sorted(("g1", "g%d" % (2 % g))))
    ft_h = (ft_geometry(n) or (2, max(1, n // 2)))[1]
    # bundles of 4 global links at a node link's rate each (the healthy
    # counterpart of a bundle with links down); a leaf of the 1:1 fat tree
    # keeps a quarter of its uplinks: fewer than the 8 pairs the capacity
    # pass loads it with at most (half of 16 would still carry 8)
    b4 = ["--bundle", "4", "--global-bw", "4"]
    up_down = ft_h - max(1, ft_h // 4)

    def sc(name, words, want, baseline=None, topology=True, jitter=None, fabric="df",
           metrics=("bw_mb_s",)):
        return {"name": name, "words": words, "want": want, "baseline": baseline,
                "topology": topology, "jitter": jitter, "fabric": fabric,
                "metrics": list(metrics)}

    def fail(*sus):
        return {"verdict": ["FAIL"], "suspects": list(sus)}
    ok = {"verdict": ["PASS"], "suspects": []}
    return [
        sc("healthy, full globals", [], ok),
        sc("healthy, globals at 1/2", ["--taper", "0.5"], ok),
        sc("healthy, globals at 1/4", ["--taper", "0.25"], ok),
        sc("node %s at 75%%" % node, ["--slow", "node:%s=0.75" % node], fail("rank " + node)),
        sc("switch %s uplinks at 50%%" % sw, ["--slow", "switch:%s=0.5" % sw],
           fail("switch " + sw)),
        sc("bundle g0-g1 at 50%", ["--slow", "bundle:g0-g1=0.5"], fail("bundle g0-g1")),
        sc("whole fabric at 1/2 vs healthy", ["--scale", "0.5"], fail("fabric"), baseline=0),
        sc("switch %s uplinks at 50%%, no --topology" % sw, ["--slow", "switch:%s=0.5" % sw],
           {"verdict": ["FAIL", "INCONCLUSIVE"], "inside": sw}, topology=False),
        sc("bundle g0-g1 at 50%, no --topology", ["--slow", "bundle:g0-g1=0.5"],
           {"verdict": ["FAIL", "INCONCLUSIVE"], "suspects": []}, topology=False),
        sc("node %s at 75%%, jitter 30%%" % node, ["--slow", "node:%s=0.75" % node],
           {"verdict": ["INCONCLUSIVE"], "suspects": []}, jitter="30:7"),
        # 11-13: the other realistic shapes, healthy
        sc("healthy, L1 of 2 links", ["--local", "2"], ok),
        sc("healthy, fat tree 1:1", ft_words(ft_h, 1), ok, fabric="ft"),
        sc("healthy, fat tree 2:1", ft_words(ft_h, 2), ok, fabric="ft"),
        # 14: a NIC that adds delay, its bandwidth intact
        sc("node %s latency x8" % node, ["--slow-lat", "node:%s=8" % node],
           # x8 adds 1.75 us to each of its bandwidth windows' round
           # trips too: about half its links run 10 % slow as well
           fail("rank " + node), metrics=("bw_mb_s", "lat_us")),
        # 15-19: several faults at once (docs/simulation.md's hard cases)
        sc("node %s at 75%% + switch %s at 50%%" % (node_s2, sw),
           ["--slow", "node:%s=0.75" % node_s2, "--slow", "switch:%s=0.5" % sw],
           fail("rank " + node_s2, "switch " + sw)),
        sc("node %s at 75%% + bundle g0-g1 at 50%%" % node,
           ["--slow", "node:%s=0.75" % node, "--slow", "bundle:g0-g1=0.5"],
           fail("rank " + node, "bundle g0-g1")),
        sc("switch %s at 50%% + bundle %s at 50%%" % (sw, b12),
           ["--slow", "switch:%s=0.5" % sw, "--slow", "bundle:%s=0.5" % b12],
           fail("switch " + sw, "bundle " + b12)),
        sc("nodes %s, %s at 75%% (one switch)" % (node, node_b),
           ["--slow", "node:%s=0.75" % node, "--slow", "node:%s=0.75" % node_b],
           fail("rank " + node, "rank " + node_b)),
        sc("node %s at 75%% + node %s latency x8" % (node, node_g2),
           ["--slow", "node:%s=0.75" % node, "--slow-lat", "node:%s=8" % node_g2],
           fail("rank " + node, "rank " + node_g2), metrics=("bw_mb_s", "lat_us")),
        # 20, 21: faults on the 2:1 fat tree: a leaf's uplinks, a spine
        sc("fat tree 2:1, leaf1 uplinks at 50%", ft_words(ft_h, 2) + ["--slow",
           "switch:leaf1=0.5"], fail("switch leaf1"), fabric="ft"),
        sc("fat tree 2:1, spine1 at 50%", ft_words(ft_h, 2) + ["--slow", "spine:spine1=0.5"],
           fail("spine spine1"), fabric="ft"),
        # 22-26: capacity lost behind redundancy (issue 42): links down, a
        # pair alone at full rate, the set's aggregate short; what the main
        # pass retests then depends on its schedule (no metrics asked)
        sc("healthy, bundles of 4 links", b4, ok),
        sc("bundle g0-g1: 2 of 4 links down", b4 + ["--down", "bundle:g0-g1=2"],
           fail("capacity bundle g0-g1"), metrics=()),
        sc("switch %s: 1 of 2 L1 links down" % sw, ["--local", "2", "--down", "switch:%s=1" % sw],
           fail("capacity switch " + sw), metrics=()),
        sc("fat tree 1:1, leaf1: %d of %d uplinks down" % (up_down, ft_h),
           ft_words(ft_h, 1) + ["--down", "leaf:leaf1=%d" % up_down],
           fail("capacity leaf leaf1"), fabric="ft", metrics=()),
        sc("node %s at 75%% + bundle g0-g1: 2 of 4 down" % node,
           ["--slow", "node:%s=0.75" % node] + b4 + ["--down", "bundle:g0-g1=2"],
           fail("rank " + node, "capacity bundle g0-g1")),
        # 27: a NIC that adds 150 ns (250 ns links: x1.6), under the links'
        # tolerance of 100 % on every pair: named by the latency fit over
        # all its pairs, no outlier to retest
        sc("node %s latency +150 ns" % node, ["--slow-lat", "node:%s=1.6" % node],
           fail("rank " + node), metrics=()),
    ]


def platgen_args(sc, geo, bundle, prefix):
    """The platgen command line of a scenario's platform."""
    g, s, h = geo
    if sc["fabric"] == "ft":
        leaves, hosts = ft_geometry(g * s * h)
        return ["fattree", "--leaves", str(leaves), "--hosts", str(hosts), *sc["words"],
                "-o", prefix]
    return ["dragonfly", "--groups", str(g), "--switches", str(s), "--hosts", str(h),
            "--bundle", str(bundle), *sc["words"], "-o", prefix]


def suspect_keys(doc):
    """The suspects as words to compare: rank HOST, switch NAME, group
    NAME, bundle GA-GB, spine NAME, fabric, capacity SCOPE PARTS (a
    bundle's groups by number: capacity bundle g2-g10); each once (a NIC
    both slow and high in latency is a suspect per metric, one
    component)."""
    out = []
    for x in doc.get("suspects") or []:
        k = x.get("kind")
        if k == "rank":
            out.append("rank " + str(x.get("host")))
        elif k in ("switch", "group", "spine"):
            out.append("%s %s" % (k, x.get("name", "").split()[1]))
        elif k == "bundle":
            out.append("bundle " + "-".join(sorted(x.get("groups") or [])))
        elif k == "link":
            out.append("link " + "-".join(sorted(x.get("switches") or [])))
        elif k == "capacity":
            parts = [str(p) for p in x.get("parts") or []]
            if x.get("scope") == "bundle":
                parts.sort(key=lambda p: int(p[1:]) if p[1:].isdigit() else -1)
            out.append("capacity %s %s" % (x.get("scope"), "-".join(parts)))
        else:
            out.append(str(k))
    return sorted(set(out))


def judge_row(want, doc, topo):
    """Is the verdict what the table says? Returns (ok, why)."""
    if doc is None:
        return False, "no JSON"
    v, sus = doc.get("verdict"), suspect_keys(doc)
    if v not in want["verdict"]:
        return False, "verdict %s, want %s" % (v, " or ".join(want["verdict"]))
    if "suspects" in want and sus != sorted(want["suspects"]):
        return False, "suspects %s, want %s" % (sus or "none", want["suspects"] or "none")
    if "inside" in want:
        # no node named outside that switch
        inside = {name for name, (sw, _) in topo.items() if sw == want["inside"]}
        bad = [x for x in sus if not (x.startswith("rank ") and x[5:] in inside)]
        if bad:
            return False, "named outside switch %s: %s" % (want["inside"], bad)
    return True, "as it must be"
