# SPDX-License-Identifier: BSD-3-Clause
"""platgen.py's shape options beyond the regular fabrics (issue 49, the
shapes the sweep was not tuned on; docs/simulation.md):

    --fill SWITCH=N        that switch (gXsY, or leafN) has N hosts, not H
    --global-landing all|one|K   where a bundle's global links land
    --ft-routes dmodk|hashed     a fat tree's spine choice
    --job N [--job-seed S] the hostfile lists N hosts of the machine,
                           chosen at random from the seed

parse() checks them against the fabric's size and returns what the
builders read into their geometry (platgen_topo, platgen_ft); job()
picks the hosts of the hostfile."""
import random
import re

from platgen_topo import UsageError


def fill_target(a, spec, name):
    """The switch a --fill spec names: (g, s) of a dragonfly, a leaf's
    number; UsageError when the fabric has no such switch."""
    if a.kind == "dragonfly":
        m = re.fullmatch(r"g([0-9]+)s([0-9]+)", name)
        if m and int(m.group(1)) < a.groups and int(m.group(2)) < a.switches:
            return int(m.group(1)), int(m.group(2))
    else:
        m = re.fullmatch(r"leaf([0-9]+)", name)
        if m and int(m.group(1)) < a.leaves:
            return int(m.group(1))
    raise UsageError("--fill '%s': this %s has no switch named '%s'" % (spec, a.kind, name))


def parse_fill(a):
    """--fill SWITCH=N, each switch once: {target: N}. A dragonfly switch
    may have no host (a router of its group); a group must keep one, and
    a fat tree leaf must keep one (its router has no way in but its hosts)."""
    fill = {}
    for spec in a.fill:
        name, eq, text = spec.partition("=")
        if not eq:
            raise UsageError("--fill '%s': expected SWITCH=HOSTS" % spec)
        where = fill_target(a, spec, name)
        low = 0 if a.kind == "dragonfly" else 1
        if not re.fullmatch(r"[0-9]+", text) or not low <= int(text) <= a.hosts:
            raise UsageError("--fill '%s': '%s' is not a count of hosts from %d to --hosts %d"
                             % (spec, text, low, a.hosts))
        if where in fill:
            raise UsageError("--fill '%s': switch %s named twice" % (spec, name))
        fill[where] = int(text)
    if a.kind == "dragonfly":
        for g in range(a.groups):
            if all(fill.get((g, s), a.hosts) == 0 for s in range(a.switches)):
                raise UsageError("--fill: group g%d is left with no host" % g)
    return fill


def parse_landing(a):
    """--global-landing: "all" (today's rule), or K switches of a group,
    1 to --switches ("one" is 1)."""
    text = a.global_landing
    if text in ("all", "one"):
        return "all" if text == "all" else 1
    if not re.fullmatch(r"[0-9]+", text) or not 1 <= int(text) <= a.switches:
        raise UsageError("--global-landing '%s': all, one, or a count of switches from 1 to "
                         "--switches %d" % (text, a.switches))
    return int(text)


def parse(a):
    """The shape options of the parsed command line, checked: a dict for
    the builders' geometry (empty when none is given, so that the
    platform is as before), and notes for the platform's header."""
    shape, notes = {}, []
    if a.fill:
        shape["fill"] = parse_fill(a)
        notes.append("hosts: " + ", ".join(a.fill))
    if a.kind == "dragonfly" and a.global_landing != "all":
        shape["landing"] = parse_landing(a)
        notes.append("global links land on %d switch%s of a group per bundle"
                     % (shape["landing"], "" if shape["landing"] == 1 else "es"))
    if a.kind == "fattree" and a.ft_routes == "hashed":
        shape["routes"] = "hashed"
        notes.append("routes: each pair's spine by a hash of the pair")
    return shape, notes


def job(f, a):
    """The hosts of the hostfile: all, or --job N of them drawn from
    --job-seed, in the machine's order (rank r on the r-th chosen)."""
    names = [h for h, _, _ in f.hosts]
    if a.job is None:
        return names
    if a.job > len(names):
        raise UsageError("--job %d: the fabric has %d hosts" % (a.job, len(names)))
    pick = set(random.Random(a.job_seed).sample(range(len(names)), a.job))
    return [h for i, h in enumerate(names) if i in pick]
