#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cxi_sweep's coordination cost curve: fit, projection, picture.

    sweep_cost_plot.py BEFORE.tsv AFTER.tsv [--pair-s S] [--png OUT.png]

Reads bench/sweep_cost.sh tables (ranks rounds wall_s per_round_ms
per_rank_us rank0_cpu_ms_per_round), fits each column against N as a
power law (least squares on log-log: cost = a * N^b), prints the fits and
projects a sweep of 1,000 and 10,000 nodes as
    (N - 1) rounds x (one pair's time + the coordination per round at N),
which assumes one rank per node, every circle round's N/2 pairs at once,
and the per-round coordination measured here (N ranks on 2 shared cores,
a pessimistic stand-in for N nodes) extrapolated along the fit.
"""
import argparse
import math
import sys


def load(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        rows.append({"n": int(f[0]), "rounds": int(f[1]),
                     "wall": float(f[2]), "round_ms": float(f[3]),
                     "cpu_ms": float(f[5])})
    return rows


def fit(xs, ys):
    """a, b of y = a * x^b, least squares in log-log."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    b = sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / \
        sum((x - mx) ** 2 for x in lx)
    return math.exp(my - b * mx), b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--pair-s", type=float, default=None,
                    help="measured seconds of one pair (default options)")
    ap.add_argument("--png")
    a = ap.parse_args()
    runs = {"before": load(a.before), "after": load(a.after)}
    print("%-7s %6s %14s %14s %18s" % ("pacing", "ranks", "round (ms)",
                                       "per rank (us)", "rank 0 CPU/round"))
    for name, rows in runs.items():
        for r in rows:
            print("%-7s %6d %14.3f %14.2f %15.3f ms" % (
                name, r["n"], r["round_ms"], r["round_ms"] / r["n"] * 1e3,
                r["cpu_ms"]))
    fits = {}
    for name, rows in runs.items():
        n = [r["n"] for r in rows]
        fits[name] = {k: fit(n, [r[k] for r in rows])
                      for k in ("round_ms", "cpu_ms")}
        print("%s: per round %.3g ms x N^%.2f; rank 0 CPU per round "
              "%.3g ms x N^%.2f" % (name, *fits[name]["round_ms"],
                                    *fits[name]["cpu_ms"]))
    if a.pair_s is not None:
        project(fits, a.pair_s)
    if a.png:
        plot(runs, fits, a.png)
    return 0


def project(fits, pair_s):
    """Two readings of the per-round coordination at N nodes:
    host wall: this host's wall time per round, fitted and extrapolated;
        here N ranks share 2 cores, so it grows with N whatever the
        pacing (every rank is scheduled each round): an upper bound;
    critical path: rank 0's CPU time per round, fitted and extrapolated;
        with a core per rank that is the round's coordination on the
        slowest rank (rank 0: before, it handled every round's
        2 (N - 1) messages; after, its own hello and pair only)."""
    for name in fits:
        for nodes in (1000, 10000):
            for how, key in (("host wall", "round_ms"),
                             ("critical path", "cpu_ms")):
                ra, rb = fits[name][key]
                coord = ra * nodes ** rb / 1e3
                total = (nodes - 1) * (pair_s + coord)
                print("%-6s %5d nodes, %-13s: %d rounds x (%.4f s pair + "
                      "%.4f s coordination) = %.0f s (%.1f min)" % (
                          name, nodes, how, nodes - 1, pair_s, coord,
                          total, total / 60))


def plot(runs, fits, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    what = (("round_ms", "coordination per round (ms, wall)"),
            ("cpu_ms", "rank 0 CPU per round (ms)"))
    for i, (key, label) in enumerate(what):
        for name, style in (("before", "o-"), ("after", "s-")):
            n = [r["n"] for r in runs[name]]
            who = "central release" if name == "before" else "pairwise"
            ax[i].plot(n, [r[key] for r in runs[name]], style,
                       label="%s: %.2g N^%.2f" % (who, *fits[name][key]))
        ax[i].set_xscale("log", base=2)
        ax[i].set_yscale("log")
        ax[i].set_xlabel("ranks N (oversubscribed on 2 cores)")
        ax[i].set_ylabel(label)
        ax[i].grid(True, which="both", alpha=0.3)
        ax[i].legend(fontsize=8)
    fig.suptitle("cxi_sweep coordination only (median of 3 runs per N)")
    fig.tight_layout()
    fig.savefig(png, dpi=90)


if __name__ == "__main__":
    sys.exit(main())
