#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The cost of a whole simulated sweep against the rank count (make bench).

For each N, the healthy dragonfly of sim/scenarios.py (full global
bandwidth, 25 GB/s node links) and one run of the simulated cxi_sweep with
its default options (scenario 1): the simulated seconds of the whole run
and of the sweep itself, the wall and CPU seconds of the simulation, and
its peak memory. Then a projection of the sweep's simulated time to 10,000
nodes, and one picture.

    bench/sim_cost.py --sweep build-sim/cxi_sweep [--ranks 256,512,1024]
                      [--tsv OUT.tsv] [--png OUT.png] [--work DIR]
                      [--from N=ROWS.json ...]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "..", "sim", "scenarios.py")
COLS = ["ranks", "pairs", "sim_total_s", "sweep_s", "cap_s", "wall_s", "cpu_s", "rss_mb"]
# A 10,000-node Slingshot-like machine for the capacity pass's projection:
# 40 groups of 16 switches (16 nodes each), as docs/simulation.md assumes.
PROJ_GROUPS, PROJ_SWITCHES = 40, 16


def run(sweep, n, work, timeout, rows=None):
    """One healthy run at n ranks: its scenarios.py row (from rows, a
    scenarios.py --json file holding it, when given)."""
    if rows is None:
        out = os.path.join(work, "n%d" % n)
        rows = out + ".json"
        subprocess.run([sys.executable, SCENARIOS, "--sweep", sweep, "--ranks", str(n),
                        "--only", "1", "--out", out, "--json", rows,
                        "--timeout", str(timeout)], check=True)
    with open(rows) as fh:
        doc = json.load(fh)
    r = next(x for x in (doc["rows"] if isinstance(doc, dict) else doc)
             if x["scenario"].startswith("healthy, full globals"))
    return {"ranks": n, "pairs": n * (n - 1) // 2, "sim_total_s": r.get("sim_total_s"),
            "sweep_s": r.get("sim_s"), "cap_s": r.get("cap_s"), "wall_s": r.get("wall_s"),
            "cpu_s": r.get("cpu_s"), "rss_mb": r.get("rss_mb")}


def cap_rounds(n):
    """The capacity pass's rounds at n ranks on the suite's dragonfly: the
    group pairs' circle rounds, then the switch pairs' of each group."""
    sys.path.insert(0, os.path.join(HERE, "..", "sim"))
    import scenario_table
    g, s, _ = scenario_table.geometry(n)
    return (g - 1 + g % 2) + (s - 1 + s % 2)


def project_cap(rows):
    """The capacity pass at 10,000 nodes: its rounds there (40 groups of
    16 switches: 39 + 15) at the largest run's seconds per round."""
    r = [x for x in rows if x.get("cap_s")]
    if not r:
        return None
    per = r[-1]["cap_s"] / cap_rounds(r[-1]["ranks"])
    return per * ((PROJ_GROUPS - 1) + (PROJ_SWITCHES - 1))


def fit_line(xs, ys):
    """Least squares y = a + b x."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my - b * mx, b


def project(rows, target=10000):
    """The sweep's simulated seconds grow with its rounds (N - 1 of them,
    each about as long when no link is shared beyond its capacity): a line
    in N - 1 through the measured points, read at target."""
    pts = [(r["ranks"] - 1, r["sweep_s"]) for r in rows if r["sweep_s"]]
    if len(pts) < 2:
        return None
    a, b = fit_line([p[0] for p in pts], [p[1] for p in pts])
    return a + b * (target - 1)


def plot(rows, proj, path, proj_cap=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = [r["ranks"] for r in rows]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(n, [r["sweep_s"] for r in rows], "o-", label="simulated sweep")
    cap = [(r["ranks"], r["cap_s"]) for r in rows if r.get("cap_s")]
    if cap:
        ax1.plot([c[0] for c in cap], [c[1] for c in cap], "v-",
                 label="of which the capacity pass")
    if proj is not None:
        ax1.plot([n[-1], 10000], [rows[-1]["sweep_s"], proj], "--",
                 label="projected: %.0f s at 10,000" % proj)
    if proj_cap is not None and cap:
        ax1.plot([cap[-1][0], 10000], [cap[-1][1], proj_cap], ":",
                 label="capacity pass: %.1f s at 10,000" % proj_cap)
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlabel("ranks (one per node)")
    ax1.set_ylabel("seconds of the sweep (simulated)")
    ax1.set_title("A whole sweep, default options")
    ax1.legend()
    ax2.plot(n, [r["wall_s"] for r in rows], "o-", label="wall seconds")
    if all(r.get("cpu_s") is not None for r in rows):
        ax2.plot(n, [r["cpu_s"] for r in rows], "^-", label="CPU seconds")
    ax2.plot(n, [r["rss_mb"] / 1024 for r in rows], "s-", label="peak memory, GB")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("ranks")
    ax2.set_title("What the simulation costs here (2 cores)")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sweep", required=True)
    p.add_argument("--ranks", default="256,512,1024")
    p.add_argument("--tsv")
    p.add_argument("--png")
    p.add_argument("--work", default="sim-cost")
    p.add_argument("--timeout", type=float, default=7200)
    p.add_argument("--from", dest="reuse", action="append", default=[], metavar="N=ROWS",
                   help="take N ranks' row from a scenarios.py --json file that ran "
                   "scenario 1, instead of running it")
    a = p.parse_args()
    reuse = {}
    for x in a.reuse:
        k, _, v = x.partition("=")
        if not k.isdigit() or not os.path.isfile(v):
            p.error("--from %s: want N=FILE, FILE a scenarios.py --json file" % x)
        reuse[int(k)] = v
    try:
        ns = [int(x) for x in a.ranks.split(",")]
    except ValueError:
        p.error("--ranks %s: a comma-separated list of integers" % a.ranks)
    if not os.access(a.sweep, os.X_OK):
        p.error("--sweep %s: not an executable (make sim)" % a.sweep)
    os.makedirs(a.work, exist_ok=True)
    rows = [run(a.sweep, n, a.work, a.timeout, reuse.get(n)) for n in ns]
    proj, proj_cap = project(rows), project_cap(rows)
    lines = ["\t".join(COLS)] + ["\t".join(str(r[c]) for c in COLS) for r in rows]
    print("\n".join(lines))
    for r in rows:
        if r.get("cap_s") and r.get("sweep_s"):
            print("%d ranks: the capacity pass %.3f s, %.1f %% over the sweep without it"
                  % (r["ranks"], r["cap_s"], 100 * r["cap_s"] / (r["sweep_s"] - r["cap_s"])))
    if proj is not None:
        print("projected sweep at 10,000 ranks: %.1f simulated s" % proj)
    if proj_cap is not None:
        print("projected capacity pass at 10,000 ranks (%d groups of %d switches): %.2f "
              "simulated s" % (PROJ_GROUPS, PROJ_SWITCHES, proj_cap))
    if a.tsv:
        with open(a.tsv, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    if a.png:
        plot(rows, proj, a.png, proj_cap)


if __name__ == "__main__":
    main()
