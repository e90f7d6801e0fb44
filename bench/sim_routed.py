#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The report of bench/sim_routed.sh: the full sweep with its bandwidth
pass packed by routes, against its bound and against the dealt pass on the
same platform, at each rank count.
    bench/sim_routed.py [--budget SIM_BUDGET.json] --md OUT.md
                        [--json OUT.json] [--png OUT.png] MODE=ROWS.json ...
MODE is routed (the run with link lines: routed, or dealt where the
routes do not pay) or dealt (places only); ROWS.json a sim/scenarios.py
--json of one scenario. The bound: the routed run's seconds with its bandwidth pass
replaced by the busiest link's pairs over its cables at one pair's time
(schedule.routed: bound_rounds x pair_s)."""
import argparse
import json
import sys


def row_of(mode, path):
    with open(path) as fh:
        run = json.load(fh)
    r = run["rows"][0]
    out = {"mode": mode, "ranks": run.get("ranks"), "sim_s": r.get("sim_s"),
           "wall_s": r.get("wall_s"), "rss_mb": r.get("rss_mb"),
           "verdict": r.get("verdict"), "platgen": r.get("platgen", "")}
    if r.get("json"):
        with open(r["json"]) as fh:
            doc = json.load(fh)
        out["ranks"] = len(doc["ranks"])
        out["schedule"] = doc["schedule"]["why"]
        rr = doc["schedule"].get("routed")
        if rr:
            out["routed"] = rr
            out["bound_s"] = doc["seconds"] - rr["seconds"] + rr["bound_s"]
    return out


def fmt(v, spec="%.4g"):
    return "-" if v is None else spec % v


def label(r):
    """The pass that ran: places only are dealt; with link lines routed,
    or dealt where the routes did not pay."""
    if r["mode"] == "dealt":
        return "places: dealt"
    return "links: routed" if r.get("routed") else "links: dealt"


def table(rows, out):
    out.write("| ranks | pass | verdict | simulated s | bound s | over the bound | "
              "pass s | pass bound s | rounds (bound) | dealt slots | packing CPU s | "
              "wall s | peak MB |\n|" + "---|" * 13 + "\n")
    for r in sorted(rows, key=lambda x: (x["ranks"], x["mode"])):
        rr = r.get("routed") or {}
        b = r.get("bound_s")
        out.write("| {:,} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n".format(
            r["ranks"], label(r), r["verdict"], fmt(r["sim_s"]), fmt(b),
            fmt(r["sim_s"] / b if b and r["sim_s"] else None, "%.2fx"),
            fmt(rr.get("seconds")), fmt(rr.get("bound_s")),
            "%d (%d)" % (rr["rounds"], rr["bound_rounds"]) if rr else "-",
            rr.get("dealt_slots", "-"), fmt(rr.get("plan_cpu_s"), "%.2f"),
            fmt(r["wall_s"], "%.0f"), fmt(r["rss_mb"], "%.0f")))


def speedups(rows, out):
    by = {(r["mode"], r["ranks"]): r for r in rows}
    for n in sorted({r["ranks"] for r in rows}):
        a, d = by.get(("routed", n)), by.get(("dealt", n))
        if a and d and a["sim_s"] and d["sim_s"]:
            out.write("- %s ranks: with link lines %.4g simulated s (%s), with places "
                      "only %.4g: the latter %.2fx the former\n" % (
                          "{:,}".format(n), a["sim_s"],
                          "routed" if a.get("routed") else "dealt: the routes did not pay",
                          d["sim_s"], d["sim_s"] / a["sim_s"]))


def budget_rows(path):
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return []
    return [r for r in doc.get("scale", doc.get("rows", []))
            if r.get("mode") == "budget" and not r.get("projected") and r.get("sim_s")]


def plot(rows, budget, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for mode, style, name in (("dealt", "C3s-", "full sweep, places only (dealt)"),
                              ("routed", "C0o-", "full sweep, link lines (routed where it pays)"),
                              ("bound", "C0:", "routed sweep's bound")):
        pts = sorted((r["ranks"], r["bound_s"] if mode == "bound" else r["sim_s"])
                     for r in rows if r["mode"] == ("routed" if mode == "bound" else mode)
                     and (r.get("bound_s") if mode == "bound" else r["sim_s"]))
        if pts:
            ax.plot(*zip(*pts), style, label=name)
    if budget:
        pts = sorted((r["ranks"], r["sim_s"]) for r in budget)
        ax.plot(*zip(*pts), "C2^-", label="--budget 120 (sim_budget.json)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("ranks (one a node)")
    ax.set_ylabel("simulated seconds")
    ax.set_title("cxi_sweep on the realistic dragonfly, healthy")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget")
    ap.add_argument("--md", required=True)
    ap.add_argument("--json")
    ap.add_argument("--png")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    rows = []
    for arg in a.runs:
        mode, _, path = arg.partition("=")
        if mode not in ("routed", "dealt") or not path:
            ap.error("%r: expected routed=ROWS.json or dealt=ROWS.json" % arg)
        rows.append(row_of(mode, path))
    budget = budget_rows(a.budget) if a.budget else []
    with open(a.md, "w") as out:
        out.write("# The full sweep packed by routes, simulated\n\n"
                  "`bench/sim_routed.sh` (docs/sweep.md, \"With the fabric's links\"): "
                  "the scenario suite's healthy realistic dragonfly, with link lines "
                  "(routed) and with places only (dealt, as before). The bound: the "
                  "routed run's seconds with its bandwidth pass replaced by its bound "
                  "rounds (the busiest link's pairs over its cables) at the median "
                  "round's slowest pair.\n\n")
        table(rows, out)
        out.write("\n")
        speedups(rows, out)
        if a.png and plot(rows, budget, a.png):
            out.write("\n![time against ranks](%s)\n" % a.png.split("/")[-1])
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rows": rows}, fh, indent=1)
    print(open(a.md).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
