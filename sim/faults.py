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
    faults.py --shapes --sweep build-sim/cxi_sweep --ranks 128 --trials 30
              [--no-links] ...      the fabrics of sim/shapes_plan.py
    faults.py --report OUT.json     the tables of a --shapes run again
    faults.py --single --machine 1024 --ranks 512 --links --sweep ... --trials 10 --clean 3
                                    one fault a trial, a job on part of a machine

Prints a table (one row a trial) and the scores; --json writes both.
With --shapes (sim/faults_shapes.py) trial k is the healthy-shape
generator's shape k with faults of the kinds it holds (a gateway switch,
a bundle link down, a spine, ...), link lines on unless --no-links, and
the scores come by component kind and by shape family, each wrong or
missed case with the platgen command line that makes it again.
With --single (sim/faults_shapes.py single) each faulty trial holds one
fault, the kinds in turn (a NIC's bandwidth, its latency, a switch, a
gateway switch, a bundle slow, a bundle with a link down, a fat tree's
spine), on the suite's realistic fabrics of --machine hosts (default
--ranks), the job --ranks of them; the clean trials are the dragonfly,
its twin whose bundles land on one switch, and the 2:1 fat tree.
Exit 0; 3 when a floor (--min-recall, --min-precision) is not met or a
clean fabric had a suspect or an outlier (--assert-clean); 1 when a run
did not end with its JSON; 2 on bad input.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults_plan  # noqa: E402
import faults_table  # noqa: E402
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
    p.add_argument("--sweep", default=None, help="cxi_sweep built for SMPI (make sim)")
    p.add_argument("--ranks", type=int, default=None, help="ranks, one per host")
    p.add_argument("--shapes", action="store_true", help="the fabrics of sim/shapes_plan.py "
                   "(the healthy-shape generator), faults of the kinds each holds")
    p.add_argument("--single", action="store_true", help="one fault a trial, each kind "
                   "in turn, on the suite's fabrics of --machine hosts (sim/faults_shapes.py)")
    p.add_argument("--machine", type=int, default=None, metavar="M",
                   help="with --single: the fabric's hosts, the job --ranks of them "
                   "(platgen --job; default --ranks)")
    p.add_argument("--no-links", action="store_true", help="with --shapes: host lines "
                   "only in the topology files (the 'places only' run)")
    p.add_argument("--report", default=None, metavar="JSON",
                   help="print the tables of a --shapes run's --json again; run nothing")
    p.add_argument("--trials", type=int, default=8, help="fabrics in all (default 8)")
    p.add_argument("--clean", type=int, default=2,
                   help="of which without a fault (default 2; the first ones)")
    p.add_argument("--only", default=None, metavar="I,J",
                   help="run only these trials of the plan (numbers kept), in this order")
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
    if a.report:
        return a
    for opt in ("sweep", "ranks"):
        if getattr(a, opt) is None:
            p.error("--%s is required (or --report)" % opt)
    if not (os.path.isfile(a.sweep) and os.access(a.sweep, os.X_OK)):
        p.error("--sweep %s: not an executable file" % a.sweep)
    if a.no_links and not a.shapes:
        p.error("--no-links: only with --shapes (without it, leave out --links)")
    if a.machine is not None and not a.single:
        p.error("--machine: only with --single")
    if a.single and a.shapes:
        p.error("--single and --shapes do not go together")
    a.machine = a.machine or a.ranks
    if a.single and a.machine < a.ranks:
        p.error("--machine %d: fewer hosts than --ranks %d" % (a.machine, a.ranks))
    if a.shapes:
        # the shapes' own geometry; links unless asked not to
        a.links = not a.no_links
        if a.ranks < 4:
            p.error("--ranks %d: at least 4" % a.ranks)
    # --single's fabrics are the machine's
    a.geo = geometry(a.machine) if a.ranks >= 4 else None
    if a.shapes:
        pass
    elif a.geo is None or ft_geometry(a.machine) is None:
        p.error("--%s %d: want an even count of at least 4 that makes a dragonfly of "
                "2 or more groups and a fat tree of 2 or more leaves"
                % ("machine" if a.single else "ranks", a.machine))
    for opt in ("trials", "jobs"):
        if getattr(a, opt) < 1:
            p.error("--%s %d: at least 1" % (opt, getattr(a, opt)))
    if not 0 <= a.clean <= a.trials:
        p.error("--clean %d: 0 to --trials (%d)" % (a.clean, a.trials))
    if not a.timeout > 0:
        p.error("--timeout %s: must be positive" % a.timeout)
    try:
        a.only = [int(x) for x in a.only.split(",")] if a.only else None
    except ValueError:
        a.only = [0]
    if a.only and not set(a.only) <= set(range(1, a.trials + 1)):
        p.error("--only: trial numbers 1 to --trials (%d)" % a.trials)
    a.bundle = bundle_width(*a.geo) if a.geo else None
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


PAIR_NAME = re.compile(r"between (groups|switches) (\S+) and (\S+)$")


def alike_key(x):
    """The key of one component of a JSON alike list ({kind, name}), as
    suspect_keys writes a suspect's."""
    kind, name = x.get("kind", "?"), x.get("name", "")
    m = PAIR_NAME.search(name)
    if kind in ("bundle", "link") and m:
        return "%s %s" % (kind, "-".join(sorted(m.groups()[1:])))
    if kind == "rank":
        return "rank " + name.split(" ")[0]
    if kind in ("switch", "group") and len(name.split()) > 1:
        return "%s %s" % (kind, name.split()[1])
    return kind


def alike_keys(doc):
    """{suspect key: [keys]}: the components each suspect cannot be told
    apart from (its JSON alike list), which it names together."""
    out = {}
    for x, key in zip(doc.get("suspects") or [], suspect_list(doc)):
        if x.get("alike"):
            out.setdefault(key, []).extend(alike_key(y) for y in x["alike"])
    return out


def suspect_list(doc):
    """Each JSON suspect's key, in order (suspect_keys, one at a time)."""
    return [suspect_keys({"suspects": [x]})[0] for x in doc.get("suspects") or []]


def suspect_metrics(doc):
    """{suspect key: [metrics]}: which measurement named each."""
    out = {}
    for x, key in zip(doc.get("suspects") or [], suspect_list(doc)):
        out.setdefault(key, []).append(x.get("metric"))
    return out


def run_trial(a, pl):
    """Run one planned fabric; returns the trial: its plan, the row of
    the table and what the score reads."""
    name = "seed %d trial %d" % (pl["seed"], pl["trial"])
    sc = {"name": name, "words": pl["words"], "fabric": pl["fabric"], "baseline": None,
          "topology": True, "jitter": None, "metrics": [],
          "want": {"verdict": ["PASS"] if pl["clean"] else ["FAIL"],
                   "suspects": sorted(x["key"] for x in pl["faults"])}}
    if "base_words" in pl:
        # a drawn shape: its platgen words whole, its job's ranks
        sc.update(platgen=pl["words"], ranks=pl["ranks"])
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
    t["alike"] = alike_keys(doc)
    t["metrics"] = suspect_metrics(doc)
    t["outliers"] = doc.get("outliers_total", len(doc.get("outliers") or []))
    # --budget: did the plan promise any two faults told apart?
    t["promise_two"] = (doc.get("budget") or {}).get("identifiable_two")
    return t


def platgen_cmd(a, pl, prefix):
    """The platgen command line of a trial's platform, as run."""
    words = pl["words"] + (["--links"] if a.links else [])
    return " ".join(shlex.quote(w) for w in ["sim/platgen.py", *words, "-o", prefix])


def fault_text(x):
    if "down" in x:
        return "%s %d link down" % (x["key"], x["down"])
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


def make_plans(a):
    if a.only:
        # the trials asked for, as the whole plan numbers them
        keep = dict((k, None) for k in a.only)
        plans = {pl["trial"]: pl for pl in make_all(a, keep)}
        return [plans[k] for k in keep]
    return make_all(a, None)


def make_all(a, keep):
    """The plans of trials 1 to --trials (those in keep, when given)."""
    if a.shapes or a.single:
        import faults_shapes
        if a.single:
            return [faults_shapes.single(a.seed, k, a.machine, a.ranks, a.clean)
                    for k in range(1, a.trials + 1) if keep is None or k in keep]
        return [faults_shapes.plan(a.seed, k, a.ranks, k <= a.clean)
                for k in range(1, a.trials + 1) if keep is None or k in keep]
    return [faults_plan.plan(a.seed, k, a.geo, a.bundle, k <= a.clean)
            for k in range(1, a.trials + 1) if keep is None or k in keep]


def run_trials(a, plans):
    """Each plan run, a.jobs at once, in order; a line as each ends."""
    def go(pl):
        t = run_trial(a, pl)
        t["platgen"] = platgen_cmd(a, pl, os.path.join(a.out, "s%d" % pl["trial"]))
        print("  trial %d: %s (%.1f s)" % (pl["trial"], t["verdict"], t["row"]["wall_s"]),
              flush=True)
        return t
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        return list(ex.map(go, plans))


KEEP = ("plan", "verdict", "suspects", "outliers", "alike", "metrics", "topo", "platgen",
        "promise_two")


def report(path):
    """--report: the tables of a saved --shapes run."""
    try:
        with open(path) as fh:
            doc = json.load(fh)
        trials = doc["trials"]
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write("faults.py: --report %s: %s\n" % (path, e))
        return 2
    faults_table.print_all(trials, doc.get("links"), sys.stdout)
    return 0


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.report:
        return report(a.report)
    if not scenarios.work_dir(a, "faults.py", "cxd-faults."):
        return 2
    plans = make_plans(a)
    print("faults.py: %d ranks, seed %d, %d trials (%d clean)%s%s; work in %s"
          % (a.ranks, a.seed, a.trials, a.clean, ", drawn shapes" if a.shapes else
             ", one fault a trial on %d hosts" % a.machine if a.single else "",
             ", with links" if a.links else ", places only", a.out), flush=True)
    trials = run_trials(a, plans)
    print()
    s = faults_plan.score(trials)
    if a.shapes:
        faults_table.print_all(trials, a.links, sys.stdout)
    else:
        print_table(trials, sys.stdout)
        print_scores(s, sys.stdout)
    bad = judge(a, s, trials)
    for b in bad:
        print("NOT MET: " + b)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"ranks": a.ranks, "seed": a.seed, "links": a.links,
                       "shapes": a.shapes, "single": a.single, "machine": a.machine,
                       "sweep_args": a.sweep_args, "scores": s, "not_met": bad,
                       "trials": [dict({k: t.get(k) for k in KEEP},
                                       wall_s=t["row"]["wall_s"], cpu_s=t["row"].get("cpu_s"),
                                       sim_s=t["row"].get("sim_s"),
                                       rss_mb=t["row"].get("rss_mb"))
                                  for t in trials]}, fh, indent=1)
    if any(t["row"]["rc"] not in (0, 3, 4) for t in trials):
        return 1
    return 3 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
