# SPDX-License-Identifier: BSD-3-Clause
"""Healthy fabrics of shapes drawn at random, for sim/shapes.py (issue 49):
each a platgen command line and its job's rank count. Nothing slow or
down: every one of them must PASS with no suspect and no outlier.

What varies (docs/simulation.md):
  dragonfly: switches per group and hosts per switch; some switches
      partly filled or empty (--fill); where a bundle's global links land
      (--global-landing all, one, K); L1 connections of 1 to 3 links
      (--local); bundles of 1 to 4 links, globals at 1/4 to full
      (--taper) or a global link at 0.5 or 1 node link (--global-bw);
  fat tree: hosts per leaf, 1:1 to 3:1 (--spines, --taper), uplinks of 1
      or 2 links, some leaves partly filled, d-mod-k or hashed routes;
  both: the job on all the machine's hosts or on a random part (--job).
The draw depends only on the seed and the rank range, so a row of the
table is made again by its platgen words alone."""
import math
import random

# Of the draws, the share of fat trees, and of jobs on part of a machine.
FT_SHARE = 0.4
SUBSET_SHARE = 0.35
MAX_GROUPS = 12
MAX_LEAVES = 16


def machine_size(rng, n):
    """Hosts of the machine for a job of n ranks: n, or up to 60 % more
    (the job then runs on a random part of them)."""
    if rng.random() < SUBSET_SHARE:
        return rng.randint(n + 1, max(n + 1, int(n * 1.6)))
    return n


def thin(rng, cap, units, surplus, keep):
    """Take `surplus` hosts off random units (switches or leaves), each
    starting at cap: {unit: hosts left} for those changed. keep(fill, u,
    left) says whether u may go down to `left` hosts."""
    fill = {}
    while surplus > 0:
        u = rng.choice(units)
        have = fill.get(u, cap)
        take = rng.randint(1, min(surplus, have)) if have else 0
        while take and not keep(fill, u, have - take):
            take -= 1
        if take:
            fill[u] = have - take
            surplus -= take
    return fill


def draw_dragonfly(rng, n, m):
    """A dragonfly of at least m hosts for a job of n ranks: platgen words."""
    # past 12 groups of 8 x 16 hosts, as many groups as that size needs
    most = max(MAX_GROUPS, math.ceil(m / 128))
    while True:
        S = rng.choice([1, 2, 2, 3, 4, 4, 6, 8])
        H = rng.choice([2, 3, 4, 4, 6, 8, 8, 16])
        G = max(2, math.ceil(m / (S * H)))
        if G <= most:
            break
    W = rng.randint(1, 4)
    words = ["dragonfly", "--groups", str(G), "--switches", str(S), "--hosts", str(H),
             "--bundle", str(W)]
    if S >= 2:
        local = rng.choice([1, 1, 2, 3])
        if local > 1:
            words += ["--local", str(local)]
        landing = rng.choice(["all", "all", "one", "K"])
        if landing == "K":
            landing = str(rng.randint(2, S - 1)) if S >= 3 else "one"
        if landing != "all":
            words += ["--global-landing", landing]
    words += global_words(rng, G, S, H, W)

    def keep(fill, u, left):
        # a group keeps one host at least
        g = u[0]
        return left > 0 or any(fill.get((g, s), H) for s in range(S) if s != u[1])
    fill = thin(rng, H, [(g, s) for g in range(G) for s in range(S)], G * S * H - m, keep)
    for (g, s), left in sorted(fill.items()):
        words += ["--fill", "g%ds%d=%d" % (g, s, left)]
    return words


def global_words(rng, G, S, H, W):
    """The globals' bandwidth: tapered from full (a group's links carry
    what its nodes inject) to 1/4, or each global link 0.5 or 1 node link
    when that lies in the same range."""
    full = S * H / (G - 1)
    if rng.random() < 0.5:
        per_link = rng.choice([0.5, 1])
        if 0.25 <= W * per_link / full <= 1:
            return ["--global-bw", "%g" % (W * per_link)]
    taper = rng.choice(["1", "0.75", "0.5", "0.33", "0.25"])
    return [] if taper == "1" else ["--taper", taper]


def draw_fattree(rng, n, m):
    """A fat tree of at least m hosts: H hosts a leaf, 1:1 to 3:1, each
    uplink 1 or 2 links (a node link's rate each)."""
    # Up to 16 leaves of 16 hosts the draw is as it was (the benches'
    # shapes at 128 ranks); a larger machine has larger leaves, and as
    # many of them as 64 hosts each need.
    sizes, most = [4, 6, 8, 12, 16], MAX_LEAVES
    if m > MAX_LEAVES * 16:
        sizes, most = [16, 24, 32, 48, 64], max(MAX_LEAVES, math.ceil(m / 64))
    while True:
        H = rng.choice(sizes)
        ratio = rng.choice([1, 1.5, 2, 3])
        per = rng.choice([1, 1, 2])
        P = H / (ratio * per)
        L = max(2, math.ceil(m / H))
        if P == int(P) and L <= most:
            break
    words = ["fattree", "--leaves", str(L), "--hosts", str(H), "--spines", str(int(P))]
    if ratio != 1:
        words += ["--taper", "%g:1" % ratio]
    if rng.random() < 0.5:
        words += ["--ft-routes", "hashed"]
    fill = thin(rng, H, list(range(L)), L * H - m, lambda fill, u, left: left > 0)
    for leaf, left in sorted(fill.items()):
        words += ["--fill", "leaf%d=%d" % (leaf, left)]
    return words


def draw(seed, index, lo, hi):
    """Shape `index` (1-based) of the seed: {"words", "ranks", "kind"}.
    Each shape has a generator of its own, so that shape k is the same
    whatever the count drawn."""
    rng = random.Random("%d:%d" % (seed, index))
    n = rng.randint(lo, hi)
    m = machine_size(rng, n)
    if rng.random() < FT_SHARE:
        words = draw_fattree(rng, n, m)
    else:
        words = draw_dragonfly(rng, n, m)
    if m > n:
        words += ["--job", str(n), "--job-seed", str(rng.randint(1, 9999))]
    return {"words": words, "ranks": n, "kind": words[0]}


def plan(seed, count, lo, hi):
    return [draw(seed, k, lo, hi) for k in range(1, count + 1)]
