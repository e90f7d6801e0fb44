#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The randomized fault benchmark (docs/simulation.md): seeded realistic
fabrics (a Slingshot-like dragonfly, fat trees at 1:1 and 2:1) with one
to five faults of mixed kinds and strengths, or none, each run under the
simulated cxi_sweep; the sweep's suspects scored by component (recall
by fault kind, precision by suspect kind), the clean fabrics apart.

    faults.py --sweep build-sim/cxi_sweep --ranks 64 --trials 8 [--seed 1]
              [--clean 2] [--jobs 2] [--links] [--json OUT] [--min-recall R]
              [--min-precision P] [--assert-clean]

Prints a table (one row a trial) and the scores; --json writes both.
Exit 0; 3 when a floor (--min-recall, --min-precision) is not met or a
clean fabric had a suspect or an outlier (--assert-clean); 1 when a run
did not end with its JSON; 2 on bad input.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults_plan  # noqa: E402
import scenarios  # noqa: E402
from scenario_table import bundle_width, ft_geometry, geometry, suspect_keys  # noqa: E402


class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, message))
        sys.exit(2)


def fraction(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a number" % text) from None
    if not 0 <= v <= 1:
        raise argparse.ArgumentTypeError("%s is not in [0, 1]" % text)
    return v


def parse_args(argv):
    p = Parser(prog="faults.py", description="Seeded faults on realistic simulated "
               "fabrics; the sweep's suspects scored by component.")
    p.add_argument("--sweep", required=True, help="cxi_sweep built for SMPI (make sim)")
    p.add_argument("--ranks", type=int, required=True, help="ranks, one per host")
    p.add_argument("--trials", type=int, default=8, help="fabrics in all (default 8)")
    p.add_argument("--clean", type=int, default=2,
                   help="of which without a fault (default 2; the first ones)")
    p.add_argument("--seed", type=int, default=1, help="the plans' seed (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="simulations at once (default 1)")
    p.add_argument("--out", default=None, help="work directory (default: a new one)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    p.add_argument("--sweep-args", default="", help="more cxi_sweep options, one string")
    p.add_argument("--json", default=None, help="write the trials and scores here")
    p.add_argument("--min-recall", type=fraction, default=None, help="exit 3 below it")
    p.add_argument("--min-precision", type=fraction, default=None, help="exit 3 below it")
    p.add_argument("--state-widths", action="store_true",
                   help="write the fabric's link widths in the topology file")
    p.add_argument("--assert-clean", action="store_true",
                   help="exit 3 when a clean fabric has a suspect or an outlier")
    p.add_argument("--links", action="store_true", help="the fabric's links in the "
                   "topology files (platgen --links): suspects over the routes")
    a = p.parse_args(argv)
    if not (os.path.isfile(a.sweep) and os.access(a.sweep, os.X_OK)):
        p.error("--sweep %s: not an executable file" % a.sweep)
    a.geo = geometry(a.ranks) if a.ranks >= 4 else None
    if a.geo is None or ft_geometry(a.ranks) is None:
        p.error("--ranks %d: want an even count of at least 4 that makes a dragonfly of "
                "2 or more groups and a fat tree of 2 or more leaves" % a.ranks)
    for opt in ("trials", "jobs"):
        if getattr(a, opt) < 1:
            p.error("--%s %d: at least 1" % (opt, getattr(a, opt)))
    if not 0 <= a.clean <= a.trials:
        p.error("--clean %d: 0 to --trials (%d)" % (a.clean, a.trials))
    if not a.timeout > 0:
        p.error("--timeout %s: must be positive" % a.timeout)
    a.bundle = bundle_width(*a.geo)
    a.cfg, a.standin = [], None
    return a


def topo_places(lines):
    """{host: (switch, group)} of a topology file's host lines, and its
    switch lines' switches (no host on them) as "switch:NAME"; link,
    route and width lines are not places."""
    out = {}
    for w in (ln.split() for ln in lines):
        if not w or w[0][0] == "#" or w[0] in ("width", "link", "route"):
            continue
        if w[0] == "switch" and len(w) > 1:
            out["switch:" + w[1]] = (w[1], w[2] if len(w) > 2 else None)
        else:
            out[w[0]] = (w[1], w[2] if len(w) > 2 else None)
    return out


LINK_NAME = re.compile(r"between switches (\S+) and (\S+)$")


def alike_links(doc):
    """{"link A-B": [(C, D), ...]}: the links each link suspect cannot be
    told apart from (its JSON alike list), which it names together."""
    out = {}
    for x in doc.get("suspects") or []:
        if x.get("kind") != "link":
            continue
        key = "link " + "-".join(sorted(x.get("switches") or []))
        names = [y.get("name", "") for y in x.get("alike") or []
                 if y.get("kind") == "link"]
        out[key] = [m.groups() for m in map(LINK_NAME.search, names) if m]
    return out


def run_trial(a, pl):
    """Run one planned fabric; returns the trial: its plan, the row of
    the table and what the score reads."""
    name = "seed %d trial %d" % (pl["seed"], pl["trial"])
    sc = {"name": name, "words": pl["words"], "fabric": pl["fabric"], "baseline": None,
          "topology": True, "jitter": None, "metrics": [],
          "want": {"verdict": ["PASS"] if pl["clean"] else ["FAIL"],
                   "suspects": sorted(x["key"] for x in pl["faults"])}}
    row = scenarios.run_one(a, sc, None, pl["trial"], a.geo)
    t = {"plan": pl, "row": row, "suspects": [], "outliers": None, "verdict": row["verdict"],
         "topo": {}, "alike": {}}
    try:
        with open(row["json"]) as fh:
            doc = json.load(fh)
        with open(row["platform"][:-len(".xml")] + ".topo") as fh:
            t["topo"] = topo_places(fh)
    except (OSError, ValueError):
        return t
    t["suspects"] = suspect_keys(doc)
    t["alike"] = alike_links(doc)
    t["outliers"] = doc.get("outliers_total", len(doc.get("outliers") or []))
    return t


def fault_text(x):
    return "%s %sx%g" % (x["key"], "latency " if x["kind"] == "nic_lat" else "", x["factor"])


def print_table(trials, out):
    out.write("| trial | fabric | faults | verdict | suspects | found | right | flagged links "
              "| wall s |\n|---|---|---|---|---|---|---|---|---|\n")
    for t in trials:
        pl, r = t["plan"], t["row"]
        found, right = faults_plan.score_trial(pl["faults"], t["suspects"], t["topo"],
                                               t.get("alike"))
        out.write("| %d | %s | %s | %s | %s | %s | %s | %s | %.1f |\n" % (
            pl["trial"], pl["shape"], ", ".join(map(fault_text, pl["faults"])) or "none",
            t["verdict"], ", ".join(t["suspects"]) or "-",
            "%d/%d" % (len(found), len(pl["faults"])) if pl["faults"] else "-",
            "%d/%d" % (len(right), len(t["suspects"])) if t["suspects"] else "-",
            str(r["flagged"]).replace("|", "/"), r["wall_s"]))


def fmt(v):
    return "-" if v is None else "%.2f" % v


def print_scores(s, out):
    out.write("\nrecall %s (%d faults), precision %s (%d suspects)\n"
              % (fmt(s["recall"]), s["faults"], fmt(s["precision"]), s["suspects"]))
    for k, v in s["recall_by_kind"].items():
        out.write("  recall    %-8s %s (%d of %d)\n" % (k, fmt(v["recall"]), v["found"], v["of"]))
    for k, v in s["precision_by_kind"].items():
        out.write("  precision %-8s %s (%d of %d)\n"
                  % (k, fmt(v["precision"]), v["right"], v["of"]))
    c = s["clean"]
    out.write("clean fabrics: %d, with a suspect %d, with an outlier %d, not PASS %d\n"
              % (c["trials"], c["with_suspects"], c["with_outliers"], c["not_pass"]))


def judge(a, s, trials):
    """What the floors and the clean fabrics say: a list of failures."""
    bad = []
    if a.min_recall is not None and not (s["recall"] or 0) >= a.min_recall:
        bad.append("recall %s below %g" % (fmt(s["recall"]), a.min_recall))
    if a.min_precision is not None and s["precision"] is not None \
            and s["precision"] < a.min_precision:
        bad.append("precision %s below %g" % (fmt(s["precision"]), a.min_precision))
    if a.assert_clean:
        for t in trials:
            if t["plan"]["clean"] and (t["suspects"] or t["outliers"]):
                bad.append("clean trial %d: suspects %s, %s outliers"
                           % (t["plan"]["trial"], t["suspects"] or "none", t["outliers"]))
    return bad


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if not scenarios.work_dir(a, "faults.py", "cxd-faults."):
        return 2
    plans = [faults_plan.plan(a.seed, k, a.geo, a.bundle, k <= a.clean)
             for k in range(1, a.trials + 1)]
    print("faults.py: %d ranks, seed %d, %d trials (%d clean); work in %s"
          % (a.ranks, a.seed, a.trials, a.clean, a.out), flush=True)
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        trials = list(ex.map(lambda pl: run_trial(a, pl), plans))
    print()
    print_table(trials, sys.stdout)
    s = faults_plan.score(trials)
    print_scores(s, sys.stdout)
    bad = judge(a, s, trials)
    for b in bad:
        print("NOT MET: " + b)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"ranks": a.ranks, "seed": a.seed, "links": a.links,
                       "scores": s, "not_met": bad,
                       "trials": [{k: t[k] for k in ("plan", "verdict", "suspects", "outliers")}
                                  for t in trials]}, fh, indent=1)
    if any(t["row"]["rc"] not in (0, 3, 4) for t in trials):
        return 1
    return 3 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
