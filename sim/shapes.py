#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Healthy fabrics of shapes drawn at random must PASS (issue 49,
docs/simulation.md): N dragonflies and fat trees drawn from a seed
(sim/shapes_plan.py: where global links land, L1 and bundle widths,
tapers, partly filled switches, hashed fat tree routes, jobs on part of a
machine), nothing slow or down, each written by sim/platgen.py --links
and swept by the simulated cxi_sweep as sim/scenarios.py runs it.

    shapes.py --sweep build-sim/cxi_sweep [--count 40] [--seed 1]
              [--ranks 32-64] [--jobs 2] [--out DIR] [--json FILE]
    shapes.py --list [--count 40] [--seed 1] [--ranks 32-64]

Prints a table: shape (its platgen words), ranks, verdict, suspects,
outliers, the sweep's simulated seconds and the run's wall seconds.
Exit 0 when every fabric is PASS with no suspect and no outlier; 1 when
one is not (each listed with its verdict line, suspects, flagged links
and the commands that make it again); 2 on bad input, naming the value.
--list prints the drawn platgen command lines and runs nothing.
"""
import argparse
import json
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import platgen  # noqa: E402
import scenarios  # noqa: E402
import shapes_plan  # noqa: E402

PLATGEN = os.path.join("sim", "platgen.py")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, message))
        sys.exit(2)


def rank_range(text):
    """--ranks LO-HI (or N): LO >= 4 (a fabric of two switches of two)."""
    m = re.fullmatch(r"([0-9]+)(?:-([0-9]+))?", text)
    if not m:
        raise argparse.ArgumentTypeError("'%s' is not LO-HI (e.g. 32-64)" % text)
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if lo < 4 or hi < lo:
        raise argparse.ArgumentTypeError("'%s': want 4 <= LO <= HI" % text)
    return lo, hi


def parse_args(argv):
    p = Parser(prog="shapes.py", description="Healthy simulated fabrics of shapes drawn "
               "at random, each swept by the simulated cxi_sweep: all must PASS with no "
               "suspect and no outlier.")
    p.add_argument("--sweep", default=None, help="cxi_sweep built for SMPI (make sim)")
    p.add_argument("--count", type=platgen.positive_int, default=40, help="fabrics (default 40)")
    p.add_argument("--seed", type=int, default=1, help="the draw's seed (default 1)")
    p.add_argument("--ranks", type=rank_range, default=(32, 64), metavar="LO-HI",
                   help="each fabric's job has LO to HI ranks (default 32-64)")
    p.add_argument("--jobs", type=platgen.positive_int, default=1,
                   help="simulations at once (default 1)")
    p.add_argument("--out", default=None, help="work directory (default: a new one)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    p.add_argument("--sweep-args", default="", help="more cxi_sweep options, one string")
    p.add_argument("--json", default=None, help="write the rows as JSON to this file")
    p.add_argument("--no-links", action="store_true",
                   help="topology files of host lines only (platgen without --links), for "
                   "a sweep that reads no link lines")
    p.add_argument("--state-widths", action="store_true",
                   help="width lines in the topology files (platgen --state-widths): the "
                   "classes they hold to a pair on one switch")
    p.add_argument("--list", action="store_true",
                   help="print the drawn platgen command lines; run nothing")
    a = p.parse_args(argv)
    if not a.list and a.sweep is None:
        p.error("--sweep is required (or --list)")
    if a.sweep is not None and not (os.path.isfile(a.sweep) and os.access(a.sweep, os.X_OK)):
        p.error("--sweep %s: not an executable file" % a.sweep)
    if not a.timeout > 0:
        p.error("--timeout %s: must be positive" % a.timeout)
    # what scenarios.run_one reads besides the scenario
    a.ranks_lo, a.ranks_hi = a.ranks
    a.ranks, a.cfg, a.standin, a.bundle = None, [], None, None
    return a


def platgen_words(a, shape):
    return shape["words"] + ([] if a.no_links else ["--links"]) + \
        (["--state-widths"] if a.state_widths else [])


def platgen_cmd(a, shape, prefix):
    return " ".join(shlex.quote(w) for w in [PLATGEN, *platgen_words(a, shape), "-o", prefix])


def verdict_line(prefix):
    """The sweep's own verdict line (its text output); without one, its
    last complaint on stderr (a usage error names the line it refused)."""
    for ext, start in ((".out", "Verdict:"), (".err", "cxi_sweep:")):
        try:
            with open(prefix + ext) as fh:
                lines = [ln.strip() for ln in fh if ln.startswith(start)]
        except OSError:
            continue
        if lines:
            return lines[-1]
    return None


def run_shape(a, k, shape):
    """Sweep shape k (1-based) as scenarios.run_one runs a scenario; the
    row, with what the property reads."""
    sc = {"name": "shape %d" % k, "platgen": platgen_words(a, shape), "ranks": shape["ranks"],
          "words": shape["words"], "fabric": shape["kind"], "baseline": None, "topology": True,
          "jitter": None, "metrics": [], "want": {"verdict": ["PASS"], "suspects": []}}
    row = scenarios.run_one(a, sc, None, k, None)
    prefix = os.path.join(a.out, "s%d" % k)
    row.update(shape=" ".join(shape["words"]), ranks=shape["ranks"], index=k,
               verdict_line=verdict_line(prefix), platgen=platgen_cmd(a, shape, prefix))
    try:
        with open(prefix + ".cmd") as fh:
            row["sweep_cmd"] = fh.read().strip()
    except OSError:
        row["sweep_cmd"] = None
    row["ok"] = row["verdict"] == "PASS" and row["suspects"] == "-" and row.get("outliers") == 0
    return row


def run_all(a, shapes):
    import concurrent.futures as cf
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run_shape, a, k, s) for k, s in enumerate(shapes, 1)]
        rows = []
        for f in futs:
            r = f.result()
            print("  shape %d (%d ranks): %s, %s outliers (%.1f s)"
                  % (r["index"], r["ranks"], r["verdict"], r.get("outliers", "?"), r["wall_s"]),
                  flush=True)
            rows.append(r)
    return rows


def fmt(v, spec):
    return spec % v if v is not None else "-"


def print_table(rows, out):
    head = ["#", "shape", "ranks", "verdict", "suspects", "outliers", "sweep sim s", "wall s"]
    out.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for r in rows:
        cells = [r["index"], r["shape"], r["ranks"], r["verdict"], r["suspects"],
                 fmt(r.get("outliers"), "%d"), fmt(r["sim_s"], "%.4g"), fmt(r["wall_s"], "%.1f")]
        out.write("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |\n")


def summary(rows):
    """One line: how many PASS clean, and the verdicts' counts."""
    by = {}
    for r in rows:
        v = r["verdict"] if r["verdict"] in ("PASS", "FAIL", "INCONCLUSIVE") else "other"
        by[v] = by.get(v, 0) + 1
    return "%d of %d healthy fabrics PASS with no suspect and no outlier (%s)" % (
        sum(r["ok"] for r in rows), len(rows),
        ", ".join("%s %d" % (v, by[v]) for v in ("PASS", "FAIL", "INCONCLUSIVE", "other")
                  if v in by))


def print_failures(rows, out):
    """Each fabric that is not clean: enough to debug it and to make it again."""
    for r in rows:
        if r["ok"]:
            continue
        out.write("\nshape %d, %d ranks: %s, %s outliers\n" % (
            r["index"], r["ranks"], r["verdict"], fmt(r.get("outliers"), "%d")))
        out.write("  %s\n" % (r["verdict_line"] or "(no verdict line: see %s.err)"
                               % r["json"][:-len(".json")]))
        out.write("  suspects: %s\n  flagged links: %s\n" % (r["suspects"], r["flagged"]))
        out.write("  platgen: %s\n  sweep:   %s\n" % (r["platgen"], r["sweep_cmd"]))


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    shapes = shapes_plan.plan(a.seed, a.count, a.ranks_lo, a.ranks_hi)
    if a.list:
        for k, s in enumerate(shapes, 1):
            print("%d %d %s" % (k, s["ranks"], " ".join(platgen_words(a, s))))
        return 0
    if not scenarios.work_dir(a, "shapes.py", "cxd-shapes."):
        return 2
    print("shapes.py: %d healthy fabrics, seed %d, %d-%d ranks, %d at once; work in %s"
          % (a.count, a.seed, a.ranks_lo, a.ranks_hi, a.jobs, a.out), flush=True)
    rows = run_all(a, shapes)
    print()
    print_table(rows, sys.stdout)
    print("\n" + summary(rows))
    print_failures(rows, sys.stdout)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"seed": a.seed, "count": a.count, "ranks": [a.ranks_lo, a.ranks_hi],
                       "summary": summary(rows), "rows": rows}, fh, indent=1)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
