# SPDX-License-Identifier: BSD-3-Clause
"""The randomized fault benchmark's parts that need no simulation
(docs/simulation.md): a seeded plan of fabrics and faults, and the score
of a sweep's suspects against the faults, by component. sim/faults.py
runs the plans."""
import random

import platgen
from scenario_table import ft_geometry, ft_words, platgen_args

# Fault kinds: what a fabric of each shape can hold. A NIC fault is its
# bandwidth or its latency; the other kinds slow a set of links.
DF_KINDS = ("nic_bw", "nic_lat", "switch", "bundle")
FT_KINDS = ("nic_bw", "nic_lat", "switch", "spine")
BW_RANGE = (0.3, 0.8)  # a bandwidth fault leaves this fraction
LAT_RANGE = (7.0, 12.0)  # a latency fault multiplies by this (below x6 it adds
# less than a pair across groups takes: within the latency floor of 100 %)
MAX_FAULTS = 5


def fabric_words(rng, kind, ft_h):
    """A realistic shape: a dragonfly with one or two L1 links' worth
    between two switches, full or half globals; a fat tree at 1:1 or 2:1."""
    if kind == "ft":
        ratio = rng.choice((1, 2))
        return "fat tree %d:1" % ratio, ft_words(ft_h, ratio)
    local, taper = rng.choice((1, 2)), rng.choice((1, 0.5))
    return ("dragonfly L1 %d, globals %g" % (local, taper),
            ["--local", str(local), "--taper", str(taper)])


def components(kind, shape):
    """Every component a fault of this kind may hit: (platgen name, the
    suspect key that names it exactly)."""
    hosts, switches, groups, spines = shape
    if kind in ("nic_bw", "nic_lat"):
        return [("node:" + h, "rank " + h) for h in hosts]
    if kind == "switch":
        return [("switch:" + s, "switch " + s) for s in switches]
    if kind == "bundle":
        return [("bundle:%s-%s" % p, "bundle %s-%s" % p) for p in
                ((a, b) for i, a in enumerate(groups) for b in groups[i + 1:])]
    return [("spine:" + p, "spine " + p) for p in spines]


def shape_of(f):
    """Hosts, switches, groups (sorted as suspect keys sort) and spines."""
    hosts = [h for h, _, _ in f.hosts]
    switches = sorted({s for _, s, _ in f.hosts})
    groups = sorted({g for _, _, g in f.hosts if g})
    spines = ["spine%d" % k for k in range(f.geometry.get("P", 0))]
    return hosts, switches, groups, spines


def plan(seed, k, geo, bundle, clean):
    """Trial k of a seed: its fabric and 1-5 faults of mixed kinds and
    strengths on distinct components (none when clean). Deterministic."""
    rng = random.Random("cxd-faults:%d:%d" % (seed, k))
    fabric = "ft" if rng.random() < 0.5 else "df"
    ft_h = ft_geometry(geo[0] * geo[1] * geo[2])[1]
    label, words = fabric_words(rng, fabric, ft_h)
    base = {"fabric": fabric, "words": words}
    f, _ = platgen.build(platgen_args(base, geo, bundle, "x"))
    shape = shape_of(f)
    faults = []
    taken = set()
    for _ in range(0 if clean else rng.randint(1, MAX_FAULTS)):
        kind = rng.choice(FT_KINDS if fabric == "ft" else DF_KINDS)
        name, key = rng.choice(components(kind, shape))
        if key in taken:
            continue  # one fault a component
        taken.add(key)
        if kind == "nic_lat":
            x = round(rng.uniform(*LAT_RANGE), 2)
            faults.append({"kind": kind, "key": key, "factor": x,
                           "words": ["--slow-lat", "%s=%g" % (name, x)]})
        else:
            x = round(rng.uniform(*BW_RANGE), 2)
            faults.append({"kind": kind, "key": key, "factor": x,
                           "words": ["--slow", "%s=%g" % (name, x)]})
    return {"seed": seed, "trial": k, "fabric": fabric, "shape": label, "clean": clean,
            "words": words + [w for x in faults for w in x["words"]], "faults": faults}


# A capacity suspect's scope, as the components it names (its parts).
CAP_NAMES = {"switch": "switch", "leaf": "switch", "switches": "switch", "leaves": "switch",
             "bundle": "bundle", "group": "group"}


def canon(key):
    """A suspect key as a fault's: the sweep names a spine as a switch
    (switch spine3), the plans as a spine (platgen's set)."""
    if key.startswith("switch spine"):
        return "spine " + key[len("switch "):]
    return key


def link_right(links, fault, topo, kind=None):
    """A link suspect (links: its switch pairs) is right about a slow
    switch at one of their ends, or a slow bundle they belong to: such a
    fault shows only on the links its pairs' routes take, and naming them
    is naming it. A gateway (kind "gateway": the switch a whole bundle
    lands on) is the exception: its global link is the bundle, the wrong
    answer, so only its links inside its group name it."""
    fkind, _, fname = fault.partition(" ")
    group = {sw: g for sw, g in topo.values()}
    for a, b in links:
        if fkind == "switch" and fname in (a, b):
            if kind != "gateway" or group.get(a) == group.get(b):
                return True
        if fkind == "bundle" and sorted((group.get(a), group.get(b))) == \
                sorted(fname.split("-")):
            return True
    return False


def contains_one(suspect, fault, topo, kind=None):
    """Does one named component hold the fault? A rank its NIC, a switch
    its links, a group its switches and bundles, a bundle or a spine
    itself; a capacity suspect the switch, leaf, group or bundle it names
    (either switch of a pair: it cannot say which); a link as link_right
    says; the whole fabric names no component."""
    suspect = canon(suspect)
    if suspect == fault:
        return True
    if suspect.startswith("link "):
        return link_right([tuple(suspect[len("link "):].split("-", 1))], fault, topo, kind)
    if suspect.startswith("capacity "):
        scope, _, parts = suspect[len("capacity "):].partition(" ")
        ckind = CAP_NAMES.get(scope)
        names = parts.split("-") if scope in ("switches", "leaves") else [parts]
        return ckind is not None and any(contains_one("%s %s" % (ckind, n), fault, topo, kind)
                                         for n in names)
    skind, _, name = suspect.partition(" ")
    fkind, _, fname = fault.partition(" ")
    if skind != "group":
        return False
    if fkind == "switch":
        return any(sw == fname and g == name for sw, g in topo.values())
    return fkind == "bundle" and name in fname.split("-")


def contains(suspect, fault, topo, alike=None, kind=None):
    """Does a suspect name a set the fault is in? The set is the suspect
    and what its JSON says no measured pair tells apart from it (alike:
    {suspect: [keys]}), scored as Flock scores a hypothesis: right when
    the fault is in the set. kind: the fault's (see link_right)."""
    members = [suspect] + list((alike or {}).get(suspect, []))
    return any(contains_one(m, fault, topo, kind) for m in members)


def score_trial(faults, suspects, topo, alike=None):
    """(found faults, right suspects) of one faulty trial."""
    found = [x["key"] for x in faults
             if any(contains(s, x["key"], topo, alike, x["kind"]) for s in suspects)]
    right = [s for s in suspects
             if any(contains(s, x["key"], topo, alike, x["kind"]) for x in faults)]
    return found, right


def ratio(a, b):
    return a / b if b else None


def score(trials):
    """Precision and recall by component over the faulty trials, and the
    clean trials apart. Each trial: its plan, its suspects (keys), its
    outliers_total and verdict, and its topology {host: (switch, group)}."""
    rec, prec = {}, {}
    clean = {"trials": 0, "with_suspects": 0, "with_outliers": 0, "not_pass": 0}
    for t in trials:
        if t["plan"]["clean"]:
            clean["trials"] += 1
            clean["with_suspects"] += bool(t["suspects"])
            clean["with_outliers"] += bool(t["outliers"])
            clean["not_pass"] += t["verdict"] != "PASS"
            continue
        faults = t["plan"]["faults"]
        found, right = score_trial(faults, t["suspects"], t["topo"], t.get("alike"))
        for x in faults:
            r = rec.setdefault(x["kind"], [0, 0])
            r[0] += x["key"] in found
            r[1] += 1
        for s in t["suspects"]:
            p = prec.setdefault(s.split()[0], [0, 0])
            p[0] += s in right
            p[1] += 1
    total_r = [sum(v[0] for v in rec.values()), sum(v[1] for v in rec.values())]
    total_p = [sum(v[0] for v in prec.values()), sum(v[1] for v in prec.values())]
    return {"recall": ratio(*total_r), "precision": ratio(*total_p),
            "faults": total_r[1], "suspects": total_p[1],
            "recall_by_kind": {k: {"found": v[0], "of": v[1], "recall": ratio(*v)}
                               for k, v in sorted(rec.items())},
            "precision_by_kind": {k: {"right": v[0], "of": v[1], "precision": ratio(*v)}
                                  for k, v in sorted(prec.items())},
            "clean": clean}
