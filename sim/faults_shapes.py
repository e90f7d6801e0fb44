# SPDX-License-Identifier: BSD-3-Clause
"""The fault benchmark over drawn shapes (issue 49, docs/simulation.md):
trial k's fabric is shape k of sim/shapes_plan.py (the healthy-shape
generator: where global links land, L1 and bundle widths, tapers, partly
filled switches, hashed fat tree routes, jobs on part of a machine), and
its faults are drawn from what that shape holds:

    nic_bw, nic_lat  a NIC of the job slow, or high in latency
    switch           all the links of a switch (a fat tree's leaf) slow
    gateway          a dragonfly whose bundles land on one switch a group
                     pair: that switch slow, so a bundle's traffic
                     crosses it (the answer is the switch, not the bundle)
    bundle           every global link between two groups slow
    bundle_down      one link of a bundle down (platgen --down)
    spine            every uplink to one spine slow (fat tree)

A fault goes in only where the job can see it, so that a miss is the
sweep's: some pair of the job, measured alone, loses a fifth of its rate
over the routes platgen gives (a slow set of links), or a bundle loaded as
the capacity pass loads it carries a fifth less (a link down). A NIC
fault sits on a host of the job. single() draws the same way for
faults.py --single: one fault a trial, each kind in turn, on the scenario
suite's fabrics of a machine with a job on part of it. sim/faults.py runs
the plans."""
import random

import platgen
import shapes_plan
from platgen_ft import ft_route
from platgen_topo import UsageError, df_attach, df_route

DF_KINDS = ("nic_bw", "nic_lat", "switch", "bundle", "bundle_down")
FT_KINDS = ("nic_bw", "nic_lat", "switch", "spine")
KINDS = ("nic_bw", "nic_lat", "switch", "gateway", "bundle", "bundle_down", "spine")
BW_RANGE = (0.3, 0.8)
LAT_RANGE = (7.0, 12.0)
MAX_FAULTS = 3
# A pair alone must fall to this share of its healthy rate (the sweep's
# bandwidth tolerance is well inside it), and a loaded bundle likewise.
VISIBLE = 0.8
# The capacity pass loads a bundle with at most this many pairs.
CAP_PAIRS = 8
TRIES = 40


def family(words):
    """The shape family of platgen words: dragonfly landing one, all or K;
    fat tree hashed or fixed (d-mod-k)."""
    if words[0] == "fattree":
        return "fat tree " + ("hashed" if "hashed" in words else "fixed")
    land = words[words.index("--global-landing") + 1] if "--global-landing" in words \
        else "all"
    return "dragonfly landing " + (land if land in ("one", "all") else "K")


class Shape:
    """A drawn fabric as the plan needs it: the built platform, the job's
    hosts (indexes), the routes of every ordered pair of them and each
    pair's healthy rate alone (its narrowest link)."""

    def __init__(self, words):
        self.words = words
        self.f, _ = platgen.build(words + ["-o", "x"])
        geo = self.f.geometry
        index = {n: i for i, n in enumerate(geo["names"])}
        self.job = [index[h] for h in (self.f.job_hosts or geo["names"])]
        self.place = {h: (s, g) for h, s, g in self.f.hosts}
        self.route = df_route if self.f.kind == "dragonfly" else ft_route
        self.pairs = [(a, b) for a in self.job for b in self.job if a != b]
        self.links = [[lk for lk, _ in self.route(geo, a, b)] for a, b in self.pairs]
        bw = self.f.links
        self.rate = [min(bw[lk] for lk in r) for r in self.links]
        self.by_link = {}
        for k, r in enumerate(self.links):
            for lk in set(r):
                self.by_link.setdefault(lk, []).append(k)

    def name(self, i):
        return self.f.geometry["names"][i]

    def job_groups(self):
        """{group: job hosts in it} (dragonfly)."""
        out = {}
        for i in self.job:
            g = self.place[self.name(i)][1]
            out[g] = out.get(g, 0) + 1
        return out

    def slow_visible(self, links, x):
        """Does a pair of the job, alone, lose a fifth of its rate when
        these links run at x of their rate?"""
        bw, hit = self.f.links, set(links)
        for lk in hit:
            for k in self.by_link.get(lk, ()):
                r = min(bw[m] * (x if m in hit else 1) for m in self.links[k])
                if r <= VISIBLE * self.rate[k]:
                    return True
        return False

    def down_visible(self, i, j, spec):
        """Does the bundle gi-gj, loaded as the capacity pass loads it
        (pairs at a node link each, no more than CAP_PAIRS or the job's
        hosts on either side), carry a fifth less with `spec` down? The
        pairs' global links before and after, from platgen's routes."""
        n = self.job_groups()
        load = min(CAP_PAIRS, n.get("g%d" % i, 0), n.get("g%d" % j, 0))
        if load < 2:
            return False
        try:
            f1, _ = platgen.build(self.words + ["--down", spec, "-o", "x"])
        except UsageError:
            return False
        node = self.f.node_bw

        at = self.f.geometry["at"]
        side = {g: [a for a in self.job if at[a][0] == g] for g in (i, j)}
        pairs = [(a, b) for a in side[i] for b in side[j]] + \
            [(b, a) for a in side[i] for b in side[j]]

        def carried(f):
            used = {lk for a, b in pairs for lk, _ in df_route(f.geometry, a, b)
                    if lk.startswith("gl-")}
            return min(load, sum(f.links[lk] for lk in used) / node)
        before, after = carried(self.f), carried(f1)
        return before > 0 and after <= VISIBLE * before


def components(sh, kind):
    """Every (platgen set, suspect key) a fault of this kind may hit on
    the shape, before the visibility check."""
    f, geo = sh.f, sh.f.geometry
    job_names = [sh.name(i) for i in sh.job]
    if kind in ("nic_bw", "nic_lat"):
        return [("node:" + h, "rank " + h) for h in job_names]
    if kind == "switch":
        sws = sorted({sh.place[h][0] for h in job_names})
        return [("switch:" + s, "switch " + s) for s in sws if not is_gateway(sh, s)]
    if kind == "gateway":
        return [("switch:" + s, "switch " + s) for s in gateways(sh)]
    if kind in ("bundle", "bundle_down"):
        n = sh.job_groups()
        gs = sorted(n, key=lambda g: int(g[1:]))
        # the key's groups sorted as suspect keys sort them (as text)
        return [("bundle:%s-%s" % (a, b), "bundle " + "-".join(sorted((a, b))))
                for x, a in enumerate(gs) for b in gs[x + 1:]]
    return [("spine:spine%d" % k, "spine spine%d" % k) for k in range(geo.get("P", 0))]


def gateways(sh):
    """The switches where a bundle lands when every bundle lands on one
    switch a group (--global-landing one); none otherwise."""
    geo = sh.f.geometry
    if sh.f.kind != "dragonfly" or geo.get("landing") != 1 or geo["S"] < 2:
        return []
    out = set()
    for i in range(geo["G"]):
        for j in range(geo["G"]):
            if i != j:
                out.add("g%ds%d" % (i, df_attach(geo, i, j, 0)))
    return sorted(out)


def is_gateway(sh, switch):
    return switch in gateways(sh)


def kinds_of(sh):
    """The fault kinds the shape can hold: a gateway only where bundles
    land on one switch, a link down only in bundles of two or more, a
    spine fault only beside another spine."""
    geo = sh.f.geometry
    if sh.f.kind == "fattree":
        return [k for k in FT_KINDS if k != "spine" or geo["P"] >= 2]
    out = [k for k in DF_KINDS if k != "bundle_down" or geo["W"] >= 2]
    return out + (["gateway"] if gateways(sh) else [])


def draw_fault(rng, sh, kind):
    """One fault of this kind the job can see, or None after TRIES draws:
    {kind, key, factor or links, words}."""
    for _ in range(TRIES):
        cands = components(sh, kind)
        if not cands:
            return None
        name, key = rng.choice(cands)
        if kind == "nic_lat":
            x = round(rng.uniform(*LAT_RANGE), 2)
            return {"kind": kind, "key": key, "factor": x,
                    "words": ["--slow-lat", "%s=%g" % (name, x)]}
        if kind == "bundle_down":
            i, j = (int(g[1:]) for g in name.split(":")[1].split("-"))
            spec = "bundle:g%d-g%d=1" % (i, j)
            if sh.down_visible(i, j, spec):
                return {"kind": kind, "key": key, "down": 1, "words": ["--down", spec]}
            continue
        x = round(rng.uniform(*BW_RANGE), 2)
        set_kind, set_name = name.split(":", 1)
        if sh.slow_visible(platgen.find_set(sh.f, "--slow", name, set_kind, set_name), x):
            return {"kind": kind, "key": key, "factor": x,
                    "words": ["--slow", "%s=%g" % (name, x)]}
    return None


def plan(seed, k, ranks, clean):
    """Trial k of a seed at `ranks` ranks: shape k of shapes_plan (the
    same draw as sim/shapes.py --ranks RANKS), and 1 to MAX_FAULTS faults
    on distinct components (none when clean). On a shape whose bundles
    land on one switch the first fault is that switch's. Deterministic."""
    shape = shapes_plan.draw(seed, k, ranks, ranks)
    words = shape["words"]
    rng = random.Random("cxd-faults-shapes:%d:%d" % (seed, k))
    faults = []
    if not clean:
        sh = Shape(words)
        kinds = kinds_of(sh)
        want = rng.randint(1, MAX_FAULTS)
        first = ["gateway"] if "gateway" in kinds else []
        for kind in first + [rng.choice(kinds) for _ in range(want - len(first))]:
            x = draw_fault(rng, sh, kind)
            if x and x["key"] not in {y["key"] for y in faults}:
                faults.append(x)
        # none of the kinds drawn fitted (a bundle too wide to see slowed):
        # the first kind that does, so that a faulty trial has a fault
        for kind in sorted(kinds, key=lambda _: rng.random()):
            x = None if faults else draw_fault(rng, sh, kind)
            if x:
                faults.append(x)
    return {"seed": seed, "trial": k, "fabric": shape["kind"], "shape": family(words),
            "ranks": ranks, "clean": clean, "base_words": words,
            "words": words + [w for x in faults for w in x["words"]], "faults": faults}


# --single (bench/sim_budget.sh): one fault a trial, each kind in turn, on
# the scenario suite's realistic fabrics of a machine; the kind decides the
# fabric (a gateway needs bundles landing on one switch, a spine a tree).
SINGLE_KINDS = ("nic_bw", "nic_lat", "switch", "gateway", "bundle", "bundle_down", "spine")
SINGLE_FABRICS = ("dragonfly", "dragonfly landing one", "fat tree 2:1")


def single_words(fabric, machine, ranks, job_seed):
    """The platgen words of a --single fabric of `machine` hosts with a
    job of `ranks` of them (all when equal)."""
    from scenario_table import bundle_width, ft_geometry, ft_words, geometry
    if fabric.startswith("fat tree"):
        leaves, h = ft_geometry(machine)
        words = ["fattree", "--leaves", str(leaves), "--hosts", str(h), *ft_words(h, 2)]
    else:
        g, s, h = geometry(machine)
        words = ["dragonfly", "--groups", str(g), "--switches", str(s), "--hosts", str(h),
                 "--bundle", str(bundle_width(g, s, h))]
        if fabric.endswith("landing one"):
            words += ["--global-landing", "one"]
    if ranks < machine:
        words += ["--job", str(ranks), "--job-seed", str(job_seed)]
    return words


def single(seed, k, machine, ranks, n_clean):
    """Trial k of --single: the first n_clean trials healthy, each of the
    fabrics in turn; then one fault a trial, SINGLE_KINDS in turn, drawn
    as plan() draws (visible to the job). The job's hosts are drawn from
    the trial number, so each trial is its own job. Deterministic."""
    clean = k <= n_clean
    kind = None if clean else SINGLE_KINDS[(k - n_clean - 1) % len(SINGLE_KINDS)]
    fabric = SINGLE_FABRICS[(k - 1) % len(SINGLE_FABRICS)] if clean else \
        {"gateway": SINGLE_FABRICS[1], "spine": SINGLE_FABRICS[2]}.get(kind, SINGLE_FABRICS[0])
    words = single_words(fabric, machine, ranks, k)
    faults = []
    if kind:
        x = draw_fault(random.Random("cxd-faults-single:%d:%d" % (seed, k)), Shape(words), kind)
        faults = [x] if x else []
    label = "%s, %d of %d hosts" % (fabric, ranks, machine) if ranks < machine else fabric
    return {"seed": seed, "trial": k, "fabric": "ft" if fabric.startswith("fat") else "df",
            "shape": label, "ranks": ranks, "clean": clean, "base_words": words,
            "words": words + [w for x in faults for w in x["words"]], "faults": faults}
