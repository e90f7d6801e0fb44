#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The report of bench/sim_budget.sh: cxi_sweep --budget against the full
sweep at scale (docs/sweep.md, "Within a time budget"; docs/simulation.md).

    bench/sim_budget.py --budget B.json --full F.json [--scale ROWS.json ...]
                        [--full-scale ROWS.json ...] --md OUT.md [--json OUT.json]
                        [--png OUT.png]

B and F are sim/faults.py --single --json files of the same trials, run
with --sweep-args "--budget S" and without; ROWS are sim/scenarios.py
--json files of healthy whole machines (--only 1 --links), under --budget
(--scale) and with the full sweep (--full-scale). Writes one Markdown
page: the trials side by side, precision and recall by component, the
time against ranks with a fit and its projection, and a plot.
"""
import argparse
import io
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "sim"))
sys.path.insert(0, HERE)
import faults  # noqa: E402
import faults_plan  # noqa: E402
from sim_cost import fit_line  # noqa: E402

TARGET_P, TARGET_R = 0.98, 0.95
PROJECT_TO = (10240,)
# Today's full sweep on the same realistic dragonfly (L1 of one link),
# measured before this bench: docs/sim-down.md, "What it costs".
FULL_DOCS = [{"ranks": 256, "sim_s": 1.066, "src": "docs/sim-down.md"},
             {"ranks": 1024, "sim_s": 12.43, "src": "docs/sim-down.md"}]


def load(path):
    with open(path) as fh:
        return json.load(fh)


def sweep_doc(trial):
    """The sweep's own JSON of a faults.py trial (beside its platform,
    while the work directory lasts), or {}."""
    prefix = trial.get("platgen", "").rsplit(" -o ", 1)[-1]
    try:
        return load(prefix + ".json")
    except (OSError, ValueError):
        return {}


def cell(t):
    """verdict; suspects (with what each cannot be told from); sim s; wall s."""
    sus = []
    for s in t.get("suspects") or []:
        alike = (t.get("alike") or {}).get(s)
        sus.append(s + (" (or %s)" % ", ".join(alike[:3]) + (" +%d" % (len(alike) - 3)
                                                             if len(alike) > 3 else "")
                        if alike else ""))
    more = " and %d more" % (len(sus) - 6) if len(sus) > 6 else ""
    return [t.get("verdict") or "-", ", ".join(sus[:6]) + more or "-",
            "-" if t.get("sim_s") is None else "%.4g" % t["sim_s"],
            "-" if t.get("wall_s") is None else "%.0f" % t["wall_s"]]


def mark(t):
    """found/right of a faulty trial, or what a clean one says."""
    pl = t["plan"]
    if pl["clean"]:
        ok = t["verdict"] == "PASS" and not t["suspects"]
        return "clean: " + ("PASS, none named" if ok else "NOT CLEAN")
    found, right = faults_plan.score_trial(pl["faults"], t["suspects"], t["topo"],
                                           t.get("alike"))
    return "found %d/%d, right %d/%d" % (len(found), len(pl["faults"]), len(right),
                                         len(t["suspects"]))


def trials_table(bud, full, out):
    head = ["trial", "fabric", "fault", "budget: verdict", "suspects", "sim s", "wall s",
            "score", "full: verdict", "suspects", "sim s", "wall s", "score"]
    out.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    fulls = {t["plan"]["trial"]: t for t in full["trials"]} if full else {}
    for t in bud["trials"]:
        pl = t["plan"]
        f = fulls.get(pl["trial"])
        row = [str(pl["trial"]), pl["shape"],
               ", ".join(map(faults.fault_text, pl["faults"])) or "none"]
        row += cell(t) + [mark(t)]
        row += cell(f) + [mark(f)] if f else ["not run"] + ["-"] * 4
        out.write("| " + " | ".join(c.replace("|", "/") for c in row) + " |\n")


def fmt(v):
    return "-" if v is None else "%.2f" % v


def scores_table(bud, full, out):
    """Recall by fault kind and precision by suspect kind, both runs."""
    sb, sf = bud["scores"], (full or {}).get("scores") or {}
    out.write("| score | budget | full sweep |\n|---|---|---|\n")

    def line(name, b, f, key, target):
        v = b.get(key) if b else None
        low = v is not None and v < target
        out.write("| %s | %s%s (%s of %s) | %s |\n" % (
            name, fmt(v), " **below %.2f**" % target if low else "",
            b.get("found", b.get("right", "-")) if b else "-", b.get("of", "-") if b else "-",
            "%s (%s of %s)" % (fmt(f.get(key)), f.get("found", f.get("right")), f.get("of"))
            if f else "-"))
    for k, v in sb["recall_by_kind"].items():
        line("recall, " + k, v, sf.get("recall_by_kind", {}).get(k), "recall", TARGET_R)
    for k, v in sb["precision_by_kind"].items():
        line("precision, " + k, v, sf.get("precision_by_kind", {}).get(k), "precision",
             TARGET_P)
    out.write("| **recall, all** | %s (%d faults) | %s |\n" % (
        fmt(sb["recall"]), sb["faults"], fmt(sf.get("recall"))))
    out.write("| **precision, all** | %s (%d suspects) | %s |\n" % (
        fmt(sb["precision"]), sb["suspects"], fmt(sf.get("precision"))))
    c, cf = sb["clean"], sf.get("clean") or {}
    out.write("| clean fabrics: with a suspect, not PASS | %d, %d of %d | %s |\n"
              % (c["with_suspects"], c["not_pass"], c["trials"],
                 "%d, %d of %d" % (cf["with_suspects"], cf["not_pass"], cf["trials"])
                 if cf.get("trials") else "-"))


def full_said(f, miss, ffound):
    """What the full sweep said of the same trial, in a few words."""
    if f is None:
        return "was not run on it"
    named = "named %s" % (", ".join(f["suspects"][:4]) or "nothing") + \
        (" and %d more" % (len(f["suspects"]) - 4) if len(f["suspects"]) > 4 else "")
    if miss:
        return ("found it (%s)" if all(x["key"] in ffound for x in miss)
                else "missed it too (%s)") % named
    return named


def differences(bud, full, out):
    """Every fault the full sweep names and the budget run does not, and
    every wrong budget suspect: with the platgen line that makes it."""
    fulls = {t["plan"]["trial"]: t for t in full["trials"]} if full else {}
    said = 0
    for t in bud["trials"]:
        pl, f = t["plan"], fulls.get(t["plan"]["trial"])
        found, right = faults_plan.score_trial(pl["faults"], t["suspects"], t["topo"],
                                               t.get("alike"))
        ffound = faults_plan.score_trial(pl["faults"], f["suspects"], f["topo"],
                                         f.get("alike"))[0] if f else []
        miss = [x for x in pl["faults"] if x["key"] not in found]
        wrong = [s for s in t["suspects"] if s not in right]
        if not (miss or wrong):
            continue
        said += 1
        out.write("- trial %d (%s): %s%s; the full sweep %s. `%s`\n" % (
            pl["trial"], pl["shape"],
            "missed " + ", ".join(faults.fault_text(x) for x in miss) if miss else "",
            ("; " if miss else "") + "wrong (%d): %s" % (
                len(wrong), ", ".join(wrong[:8]) + (" ..." if len(wrong) > 8 else ""))
            if wrong else "", full_said(f, miss, ffound), t.get("platgen", "")))
    if not said:
        out.write("- none: every fault named, no wrong suspect.\n")


def scale_row(path, mode):
    """A scenarios.py --json file's healthy row, with the budget's plan."""
    r = load(path)["rows"][0]
    row = {"mode": mode, "ranks": load(path)["ranks"], "verdict": r.get("verdict"),
           "suspects": r.get("suspects"), "sim_s": r.get("sim_s"), "wall_s": r.get("wall_s"),
           "cpu_s": r.get("cpu_s"), "rss_mb": r.get("rss_mb")}
    try:
        b = load(r["json"]).get("budget") or {}
    except (OSError, ValueError, KeyError, TypeError):
        b = {}
    row.update({k: b.get(k) for k in ("pairs", "all_pairs", "rounds", "turns",
                                      "estimate_s", "budget_s")})
    return row


def power_fit(rows, key):
    """y = c N^p through the rows (least squares in logs): (c, p), or None."""
    pts = [(math.log(r["ranks"]), math.log(r[key])) for r in rows if r.get(key)]
    if len(pts) < 2:
        return None
    a, b = fit_line([p[0] for p in pts], [p[1] for p in pts])
    return math.exp(a), b


def load_plans(paths):
    """The planner alone (bench/src/cover_plan_time.c, a JSON line each),
    beyond what this host can simulate: its plans and CPU seconds, the
    lazy pick's and the full weighing's where both ran."""
    out = []
    for path in paths:
        with open(path) as fh:
            out.append(json.loads(fh.read()))
    return sorted(out, key=lambda r: r["ranks"])


def projections(bud, full, plans):
    """The fits and what they read at PROJECT_TO and the budget's sizes:
    the budget plan's seconds, wall and memory as c N^p; the full sweep's
    simulated seconds as a line in N - 1 (its rounds), as
    docs/simulation.md projects it, through this run's points and the
    documented ones, its wall as c N^p."""
    fits = {"budget": {k: power_fit(bud, k) for k in ("sim_s", "wall_s", "rss_mb")}}
    pts = [(r["ranks"] - 1, r["sim_s"]) for r in full + FULL_DOCS if r.get("sim_s")]
    line = fit_line([p[0] for p in pts], [p[1] for p in pts]) if len(pts) > 1 else None
    fits["full"] = {"sim_s_line": line, "wall_s": power_fit(full, "wall_s")}
    done = {r["ranks"] for r in bud} | {r["ranks"] for r in plans}
    rows = []
    for n in sorted(set(PROJECT_TO) - done):
        rows.append(dict({"mode": "budget", "ranks": n, "projected": True},
                         **{k: f[0] * n ** f[1] for k, f in fits["budget"].items() if f}))
    have = {r["ranks"] for r in full} | {r["ranks"] for r in FULL_DOCS}
    for n in sorted(x for x in done | set(PROJECT_TO) if x > max(have)):
        w = fits["full"]["wall_s"]
        rows.append({"mode": "full", "ranks": n, "projected": True,
                     "sim_s": line[0] + line[1] * (n - 1) if line else None,
                     "wall_s": w[0] * n ** w[1] if w else None})
    return fits, rows


def plan_only(bud, plans, out):
    """The plans beyond the simulated sizes, their time read as the
    largest simulated run's seconds a round times their rounds."""
    big = max((r for r in bud if r.get("rounds") and r.get("sim_s")),
              key=lambda r: r["ranks"], default=None)
    if big is None:
        return []
    per = big["sim_s"] / big["rounds"]
    out.write("| ranks | pairs chosen (of all) | rounds | planner CPU s (rank 0) | "
              "the full weighing's CPU s (the same plan) | "
              "simulated s, at %.2f ms a round (%d ranks') |\n|---|---|---|---|---|---|\n"
              % (1e3 * per, big["ranks"]))
    rows = []
    for p in plans:
        allp = p["ranks"] * (p["ranks"] - 1) // 2
        rows.append({"mode": "budget", "ranks": p["ranks"], "pairs": p["pairs"],
                     "all_pairs": allp, "rounds": p["rounds"], "sim_s": per * p["rounds"],
                     "src": "planner alone, rounds x %.2f ms" % (1e3 * per)})
        full = ("%.3g%s" % (p["full_cpu_s"], "" if p["same"] else " **not the same plan**")
                if p.get("full_cpu_s", -1) >= 0 else "not run")
        out.write("| {:,} | {:,} ({:.3f} %) | {} | {:.3g} | {} | {:.3g} |\n".format(
            p["ranks"], p["pairs"], 100.0 * p["pairs"] / allp, p["rounds"], p["plan_cpu_s"],
            full, per * p["rounds"]))
    return rows


def num(v, spec="%.4g"):
    return "-" if v is None else spec % v


def scale_table(rows, out):
    head = ["sweep", "ranks", "pairs measured", "rounds (turns)", "simulated s",
            "foreseen s", "wall s", "CPU s", "peak MB", "verdict", "from"]
    out.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for r in sorted(rows, key=lambda r: (r["mode"], r["ranks"])):
        pairs = "%s of %s (%.2f %%)" % (r["pairs"], r["all_pairs"],
                                        100.0 * r["pairs"] / r["all_pairs"]) \
            if r.get("pairs") and r.get("all_pairs") else "-"
        rounds = "%s (%s)" % (r["rounds"], r.get("turns")) if r.get("rounds") else "-"
        out.write("| " + " | ".join([
            "--budget" if r["mode"] == "budget" else "full", "{:,}".format(r["ranks"]),
            pairs, rounds, num(r.get("sim_s")), num(r.get("estimate_s")),
            num(r.get("wall_s"), "%.0f"), num(r.get("cpu_s"), "%.0f"),
            num(r.get("rss_mb"), "%.0f"), r.get("verdict") or "-",
            r.get("src") or ("projected (fit below)" if r.get("projected") else "measured")])
            + " |\n")


def fits_text(fits, out):
    for k, f in sorted(fits["budget"].items()):
        if f:
            out.write("- budget plan, %s = %.4g x N^%.2f (%s)\n" % (
                k, f[0], f[1], ", ".join("{:,.4g} at {:,}".format(f[0] * n ** f[1], n)
                                         for n in (4096, 10240))))
    line = fits["full"]["sim_s_line"]
    if line:
        out.write("- full sweep, simulated s = %.4g + %.4g x (N - 1) (a line in its "
                  "rounds)\n" % line)
    w = fits["full"]["wall_s"]
    if w:
        out.write("- full sweep, wall s = %.4g x N^%.2f\n" % w)


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    # one colour a sweep in both panels
    style = {("budget", False): ("C0o-", "--budget, simulated"),
             ("budget", True): ("C0o:", "--budget, the plan's rounds alone"),
             ("full", False): ("C3s-", "full sweep, simulated"),
             ("full", True): ("C3s--", "full sweep, projected (the page's fits)")}
    for (mode, proj), (st, label) in style.items():
        for ax, key in ((ax1, "sim_s"), (ax2, "wall_s")):
            pts = sorted((r["ranks"], r[key]) for r in rows if r["mode"] == mode
                         and bool(r.get("projected")) == proj and r.get(key))
            if proj:
                # join the projection to the last measured point
                meas = sorted((r["ranks"], r[key]) for r in rows if r["mode"] == mode
                              and not r.get("projected") and r.get(key))
                pts = sorted(meas[-1:] + pts) if pts else []
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], st, label=label)
    for ax, title, ylabel in ((ax1, "The sweep's time (simulated)", "simulated seconds"),
                              (ax2, "The simulation's wall time here (2 cores)",
                               "wall seconds")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("ranks (one per node)")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def budget_plan_line(bud):
    """The 512-rank plan's size, from the healthy trial's own JSON."""
    for t in bud["trials"]:
        b = sweep_doc(t).get("budget") or {}
        if b.get("pairs"):
            return ("The healthy dragonfly's plan: %d of %d pairs (%.2f %%) in %d rounds "
                    "(%d turns), foreseen %.3g s of the %g s budget.\n"
                    % (b["pairs"], b["all_pairs"], 100.0 * b["pairs"] / b["all_pairs"],
                       b["rounds"], b.get("turns", 0), b.get("estimate_s", 0),
                       b.get("budget_s", 0)))
    return ""


PLAN_SRC = ("the library's planner run directly on the same platforms' topology and "
            "hostfile by bench/src/cover_plan_time.c, no simulation, its lazy pick and, "
            "where it ends in time, the full weighing it must equal; the simulated seconds "
            "read as rounds times the largest simulated run's seconds a round")


def write_md(a, bud, full, rows, fits, plan_text, out):
    out.write("# cxi_sweep --budget at scale, simulated\n\n`bench/sim_budget.sh` "
              "(docs/simulation.md); the budget mode: docs/sweep.md, \"Within a time "
              "budget\".\n\n## Single faults: %d ranks of a %d-node machine, --budget "
              "against the full sweep\n\n" % (bud["ranks"], bud.get("machine") or bud["ranks"]))
    out.write("`sim/faults.py --single --machine %s --ranks %d --links --seed %d`, the "
              "budget run with `--sweep-args \"%s\"`, the full one with none; each trial "
              "its own job (platgen `--job %d --job-seed TRIAL`), the same fabric and job "
              "for both runs. Wall seconds: two simulations at once on 2 cores.\n\n"
              % (bud.get("machine"), bud["ranks"], bud["seed"], bud.get("sweep_args"),
                 bud["ranks"]))
    out.write(budget_plan_line(bud) + "\n")
    trials_table(bud, full, out)
    out.write("\nPrecision and recall by component (targets: precision %.2f, recall "
              "%.2f):\n\n" % (TARGET_P, TARGET_R))
    scores_table(bud, full, out)
    out.write("\nWhat the budget run missed or named wrong:\n\n")
    differences(bud, full, out)
    out.write("\n## Time against ranks: healthy whole machines\n\n"
              "The suite's realistic dragonfly (scenario 1 of `sim/scenarios.py`, "
              "`--links`), one rank a node. The budget plan's simulated seconds are the "
              "verdict's (the JSON's `seconds`). Full-sweep rows marked docs/sim-down.md "
              "were measured before this bench on the same platforms.\n\n")
    scale_table([r for r in rows if not r.get("planner")], out)
    out.write("\nFits:\n\n")
    fits_text(fits, out)
    out.write("\nBeyond what this host simulates in time, the plan itself (%s):\n\n"
              % PLAN_SRC)
    out.write(plan_text)
    if a.png:
        out.write("\n![time against ranks](%s)\n" % os.path.basename(a.png))
    if a.note:
        with open(a.note) as fh:
            out.write("\n## This run\n\n" + fh.read())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--budget", required=True, help="faults.py --single --json, under --budget")
    p.add_argument("--full", default=None, help="the same trials, full sweep")
    p.add_argument("--scale", nargs="*", default=[], help="scenarios.py --json, --budget")
    p.add_argument("--full-scale", nargs="*", default=[], help="scenarios.py --json, full")
    p.add_argument("--plans", nargs="*", default=[],
                   help="cover_plan_time's JSON lines: the planner alone, larger machines")
    p.add_argument("--md", required=True)
    p.add_argument("--json", default=None)
    p.add_argument("--png", default=None)
    p.add_argument("--note", default=None, metavar="FILE",
                   help="Markdown to add as the page's last section (how this run went)")
    a = p.parse_args()
    bud = load(a.budget)
    full = load(a.full) if a.full and os.path.exists(a.full) else None
    srows = [scale_row(x, "budget") for x in a.scale if os.path.exists(x)] + \
        [scale_row(x, "full") for x in a.full_scale if os.path.exists(x)]
    plans = load_plans(a.plans)
    fits, proj = projections([r for r in srows if r["mode"] == "budget"],
                             [r for r in srows if r["mode"] == "full"], plans)
    buf = io.StringIO()
    prows = [dict(r, planner=True, projected=True)
             for r in plan_only([r for r in srows if r["mode"] == "budget"], plans, buf)]
    rows = srows + [dict(r, mode="full") for r in FULL_DOCS] + proj + prows
    with open(a.md, "w") as out:
        write_md(a, bud, full, rows, fits, buf.getvalue(), out)
    if a.png:
        plot(rows, a.png)
    if a.json:
        with open(a.json, "w") as fh:
            # the trials without their topologies (the platgen line makes them again)
            slim = [dict(d, trials=[{k: v for k, v in t.items() if k != "topo"}
                                    for t in d["trials"]]) if d else None for d in (bud, full)]
            json.dump({"budget": slim[0], "full": slim[1], "scale": rows, "fits": fits}, fh,
                      indent=1)
    sys.stdout.write(open(a.md).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
