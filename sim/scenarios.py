#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run cxi_sweep's simulated build over realistic fabrics (a Slingshot-like
dragonfly, fat trees at 1:1 and 2:1) in the scenarios of issues 29 and 41
(sim/scenario_table.py) and report what its verdict says in each
(docs/simulation.md):

    scenarios.py --sweep build-sim/cxi_sweep --ranks 128 [--suite quick] [--out DIR]

Each scenario is one platform from sim/platgen.py and one plain
    smpirun -np N -platform P.xml -hostfile P.hosts --cfg=... SWEEP
            --engine mpi --json OUT.json --topology P.topo [SWEEP-ARGS]
The table: scenario, verdict (exit status), suspects, flagged links (how
many, and which hosts, switches and group pairs they touch), the sweep's
simulated seconds, wall seconds and peak memory of the simulation. It
states what the sweep says; it does not judge whether that is right.
"""
import argparse
import collections
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import platgen  # noqa: E402
# the table; its names are also scenarios.NAME for tests/sim
from scenario_table import (  # noqa: E402,F401
    CAPACITY, QUICK, bundle_width, ft_geometry, geometry, judge_row, platgen_args, scenarios,
    suspect_keys)

# SMPI settings for every run: a failed MPI_Test costs no simulated time
# (the sweep polls), and injected times do not grow; the final simulated
# clock is printed.
SMPI_CFG = ["--cfg=smpi/test:0", "--cfg=smpi/grow-injected-times:no",
            "--cfg=smpi/host-speed:1Gf", "--cfg=smpi/display-timing:yes"]
VERDICTS = {0: "PASS", 3: "FAIL", 4: "INCONCLUSIVE", 1: "failed", 2: "usage error"}


class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, message))
        sys.exit(2)


def flagged_summary(doc):
    """How many links were flagged and what they touch: the hosts, switch
    pairs and group pairs most named."""
    ranks = {r["rank"]: r for r in doc.get("ranks", [])}
    outl = doc.get("outliers") or []
    total = doc.get("outliers_total", len(outl))
    if not total:
        return "0"
    hosts, groups, within = collections.Counter(), collections.Counter(), collections.Counter()
    metrics = collections.Counter()
    for o in outl:
        a, b = ranks.get(o.get("src"), {}), ranks.get(o.get("dst"), {})
        metrics[o.get("metric", "?")] += 1
        hosts[a.get("host", "?")] += 1
        hosts[b.get("host", "?")] += 1
        ga, gb = a.get("group"), b.get("group")
        if ga and gb and ga != gb:
            groups["-".join(sorted((ga, gb)))] += 1
        elif a.get("switch") and a.get("switch") == b.get("switch"):
            within["same switch"] += 1
        else:
            within["same group"] += 1
    parts = ["%d (%s)" % (total, ", ".join("%s %d" % kv for kv in sorted(metrics.items())))]
    if len(outl) < total:
        parts.append("%d listed" % len(outl))
    top = [(k, v) for k, v in hosts.most_common(3) if v > 1]
    if top:
        parts.append("hosts " + " ".join("%s:%d" % kv for kv in top))
    if groups:
        parts.append("groups " + " ".join("%s:%d" % kv for kv in groups.most_common(3))
                     + (" +%d pairs" % (len(groups) - 3) if len(groups) > 3 else ""))
    if within:
        parts.append(" ".join("%s:%d" % kv for kv in sorted(within.items())))
    return "; ".join(parts)


def suspects_summary(doc):
    """Each suspect as KIND NAME (BAD/LINKS METRIC)."""
    out = []
    for s in doc.get("suspects") or []:
        name = s.get("name", "?")
        kind = s.get("kind", "?")
        out.append("%s (%s/%s %s)" % (name if name.startswith(kind) else kind + " " + name,
                                      s.get("bad", "?"), s.get("links", "?"),
                                      s.get("metric", "?")))
    return ", ".join(out) if out else "-"


NSCEN = len(scenarios(2, 2, 2))
SIM_TIME = re.compile(r"Simulated time: ([0-9.eE+-]+)")


def run_one(a, sc, baseline, idx, geo):
    """Generate the platform, run the sweep on it; returns the table row."""
    name = sc["name"]
    prefix = os.path.join(a.out, "s%d" % idx)
    # a scenario of the table, or a platform given whole (sim/shapes.py)
    argv = sc["platgen"] + ["-o", prefix] if sc.get("platgen") else \
        platgen_args(sc, geo, a.bundle, prefix)
    if getattr(a, "links", False) and "--links" not in argv:
        argv = argv[:-2] + ["--links"] + argv[-2:]
    f, _ = platgen.build(argv)
    platgen.write_outputs(f, prefix, getattr(a, "state_widths", False))
    out_json = prefix + ".json"
    if os.path.exists(out_json):
        os.unlink(out_json)
    sweep, env = a.sweep, dict(os.environ)
    if sc["jitter"]:
        # the test copy: seeded noise on every figure (CXD_TEST_JITTER)
        sweep = a.standin
        env["CXD_TEST_JITTER"] = sc["jitter"]
    cmd = ["smpirun", "-np", str(sc.get("ranks") or a.ranks), "-platform", prefix + ".xml",
           "-hostfile", prefix + ".hosts", *SMPI_CFG, *a.cfg, sweep,
           "--engine", "mpi", "--json", out_json,
           *(["--topology", prefix + ".topo"] if sc["topology"] else []),
           *shlex.split(a.sweep_args)]
    if baseline is not None:
        cmd += ["--baseline", baseline]
    # peak memory, and the CPU seconds (user, system): on a shared host
    # the wall seconds also count the others' work
    timed = ["/usr/bin/time", "-f", "%M %U %S", "-o", prefix + ".rss"] \
        if os.access("/usr/bin/time", os.X_OK) else []
    with open(prefix + ".cmd", "w") as fh:
        fh.write(("CXD_TEST_JITTER=%s " % sc["jitter"] if sc["jitter"] else "")
                 + " ".join(shlex.quote(c) for c in cmd) + "\n")
    t0 = time.monotonic()
    with open(prefix + ".out", "w") as so, open(prefix + ".err", "w") as se:
        p = subprocess.Popen(timed + cmd, stdout=so, stderr=se, start_new_session=True,
                             env=env)
        try:
            rc = p.wait(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
    wall = time.monotonic() - t0
    row = {"scenario": name, "platform": prefix + ".xml", "rc": rc, "wall_s": wall,
           "json": out_json, "verdict": None, "suspects": "-", "flagged": "-",
           "sim_s": None, "sim_total_s": None, "rss_mb": None, "cpu_s": None,
           "cap_s": None,
           "want": sc["want"], "metrics": sc["metrics"], "fabric": sc["fabric"],
           "right": False, "why": "no JSON"}
    try:
        with open(prefix + ".rss") as fh:
            words = fh.read().split()[-3:]
        row["rss_mb"] = int(words[0]) / 1024.0
        row["cpu_s"] = float(words[1]) + float(words[2])
    except (OSError, ValueError, IndexError):
        pass
    with open(prefix + ".err") as fh:
        m = SIM_TIME.findall(fh.read())
        if m:
            row["sim_total_s"] = float(m[-1])
    try:
        with open(out_json) as fh:
            doc = json.load(fh)
        row["verdict"] = doc.get("verdict")
        row["suspects"] = suspects_summary(doc)
        row["flagged"] = flagged_summary(doc)
        row["outliers"] = doc.get("outliers_total", len(doc.get("outliers") or []))
        if doc.get("seconds") is not None:
            row["sim_s"] = doc["seconds"]
        row["cap_s"] = (doc.get("capacity") or {}).get("seconds")
        row["schedule"] = (doc.get("schedule") or {}).get("kind")
        with open(prefix + ".topo") as fh:
            topo = {w[0]: (w[1], w[2] if len(w) > 2 else None)
                    for w in (ln.split() for ln in fh)
                    if w and w[0][0] != "#" and w[0] != "width"}
        row["right"], row["why"] = judge_row(sc["want"], doc, topo)
    except (OSError, ValueError):
        pass
    if row["verdict"] is None:
        row["verdict"] = "timed out" if rc is None else "%s (exit %d, no JSON)" % (
            VERDICTS.get(rc, "exit %d" % rc), rc)
    elif rc not in (0, 3, 4):
        row["verdict"] += " (exit %s)" % rc
    return row


def run_all(a, todo):
    """Every scenario, a.jobs at once; one whose baseline is still running
    waits for it. Rows in the order given."""
    import concurrent.futures as cf
    rows, fut = {}, {}
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        def go(i, sc):
            base = None
            if sc["baseline"] is not None:
                base = fut[sc["baseline"]].result()["json"]
            row = run_one(a, sc, base, i + 1, a.geo)
            print("  %s: %s (%.1f s)%s" % (sc["name"], row["verdict"], row["wall_s"],
                                           "" if row["right"] else ": NOT RIGHT, " + row["why"]),
                  flush=True)
            return row
        # baselines first, then one more run per spare worker, then those
        # that wait for a baseline: a waiting scenario never holds a worker
        # for long, and the longest runs (a baseline's dependant retests
        # the whole fabric) do not come last
        need = {sc["baseline"] for _, sc in todo if sc["baseline"] is not None}
        base = [t for t in todo if t[0] in need]
        dep = [t for t in todo if t[1]["baseline"] is not None and t[0] not in need]
        rest = [t for t in todo if t[0] not in need and t[1]["baseline"] is None]
        k = max(0, a.jobs - len(base))
        order = base + rest[:k] + dep + rest[k:]
        for i, sc in order:
            fut[i] = ex.submit(go, i, sc)
        for i, _ in todo:
            rows[i] = fut[i].result()
    return [rows[i] for i, _ in todo]


def fmt(v, spec):
    return spec % v if v is not None else "-"


def print_table(rows, out):
    head = ["scenario", "verdict", "right?", "suspects", "flagged links", "sweep sim s",
            "capacity sim s", "total sim s", "wall s", "CPU s", "peak MB"]
    table = [[r["scenario"], r["verdict"], "yes" if r.get("right") else "NO: " + r.get("why", "?"),
              r["suspects"], r["flagged"], fmt(r["sim_s"], "%.4g"), fmt(r.get("cap_s"), "%.4g"),
              fmt(r["sim_total_s"], "%.4g"), fmt(r["wall_s"], "%.1f"),
              fmt(r.get("cpu_s"), "%.1f"), fmt(r["rss_mb"], "%.0f")]
             for r in rows]
    out.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for t in table:
        out.write("| " + " | ".join(str(c).replace("|", "/") for c in t) + " |\n")


def parse_args(argv):
    p = Parser(prog="scenarios.py", description="cxi_sweep's simulated build over "
               "realistic dragonflies and fat trees: healthy, tapered and faulty scenarios, "
               "one table.")
    p.add_argument("--sweep", required=True, help="cxi_sweep built for SMPI (make sim)")
    p.add_argument("--ranks", type=int, required=True, help="ranks, one per host")
    p.add_argument("--out", default=None, help="work directory (default: a new one in $TMPDIR)")
    p.add_argument("--geometry", default=None, metavar="G,S,H",
                   help="groups, switches per group, hosts per switch (G*S*H = ranks)")
    p.add_argument("--bundle", type=int, default=None,
                   help="global links per group pair (default: as many as make one link "
                   "about a node link's rate at full global bandwidth, at least 1)")
    p.add_argument("--sweep-args", default="", help="more cxi_sweep options, one string")
    p.add_argument("--cfg", action="append", default=[], help="more smpirun --cfg=... words")
    p.add_argument("--suite", choices=("quick", "full", "capacity"), default="full",
                   help="quick: the scenarios make test runs (%s); full: all %d (default); "
                   "capacity: links down behind redundancy and their healthy shapes (%s)"
                   % (",".join(map(str, QUICK)), NSCEN, ",".join(map(str, CAPACITY))))
    p.add_argument("--only", default=None, metavar="I,J",
                   help="run these scenarios (1-%d)" % NSCEN)
    p.add_argument("--jobs", type=int, default=1, help="simulations at once (default 1)")
    p.add_argument("--standin", default=None,
                   help="the test copy for the jitter scenario (default: standin/cxi_sweep "
                   "beside --sweep; without it that scenario is skipped)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    p.add_argument("--json", default=None, help="write the rows as JSON to this file")
    p.add_argument("--links", action="store_true",
                   help="write the fabric's link lines in the topology file "
                   "(platgen --links): suspects and capacity from the routes")
    p.add_argument("--state-widths", action="store_true",
                   help="write the fabric's link widths in the topology file "
                   "(platgen --state-widths), for a sweep that reads them")
    a = p.parse_args(argv)
    if not (os.path.isfile(a.sweep) and os.access(a.sweep, os.X_OK)):
        p.error("--sweep %s: not an executable file" % a.sweep)
    if a.ranks < 4:
        p.error("--ranks %d: at least 4" % a.ranks)
    if a.bundle is not None and a.bundle < 1:
        p.error("--bundle %d: at least 1" % a.bundle)
    if not a.timeout > 0:
        p.error("--timeout %s: must be positive" % a.timeout)
    if a.geometry:
        try:
            geo = tuple(int(x) for x in a.geometry.split(","))
        except ValueError:
            geo = ()
        if len(geo) != 3 or min(geo) < 1 or geo[0] < 2:
            p.error("--geometry %s: want G,S,H, positive integers, G at least 2" % a.geometry)
        if geo[0] * geo[1] * geo[2] != a.ranks:
            p.error("--geometry %s: %d hosts, not --ranks %d"
                    % (a.geometry, geo[0] * geo[1] * geo[2], a.ranks))
    else:
        geo = geometry(a.ranks)
        if geo is None:
            p.error("--ranks %d: no dragonfly shape found; give --geometry G,S,H" % a.ranks)
    a.geo = geo
    if a.bundle is None:
        a.bundle = bundle_width(*geo)
    a.pick = None
    if a.only:
        try:
            a.pick = {int(x) for x in a.only.split(",")}
        except ValueError:
            a.pick = {0}
        if not a.pick <= set(range(1, NSCEN + 1)):
            p.error("--only %s: scenario numbers 1 to %d" % (a.only, NSCEN))
    if a.jobs < 1:
        p.error("--jobs %d: at least 1" % a.jobs)
    if not a.pick and a.suite != "full":
        a.pick = set(QUICK if a.suite == "quick" else CAPACITY)
    picked = a.pick or set(range(1, NSCEN + 1))
    ft = [i + 1 for i, sc in enumerate(scenarios(*geo)) if sc["fabric"] == "ft"]
    if ft_geometry(a.ranks) is None and set(ft) & picked:
        p.error("--ranks %d: no fat tree of 2 or more leaves of an even size; "
                "choose --only without scenarios %s" % (a.ranks, ", ".join(map(str, ft))))
    if a.standin is None:
        a.standin = os.path.join(os.path.dirname(os.path.abspath(a.sweep)), "standin",
                                 "cxi_sweep")
    elif not (os.path.isfile(a.standin) and os.access(a.standin, os.X_OK)):
        p.error("--standin %s: not an executable file" % a.standin)
    for w in a.cfg:
        if not w.startswith("--cfg="):
            p.error("--cfg %s: give it as --cfg=NAME:VALUE" % w)
    return a


def work_dir(a, prog, prefix):
    """a.out made (a new one in $TMPDIR when None); False, said on
    stderr, when it cannot be (the runners' usage error, exit 2)."""
    try:
        a.out = a.out or tempfile.mkdtemp(prefix=prefix)
        os.makedirs(a.out, exist_ok=True)
    except OSError as e:
        sys.stderr.write("%s: --out %s: %s\n" % (prog, a.out, e))
        return False
    return True


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if not work_dir(a, "scenarios.py", "cxd-sim."):
        return 2
    g, s, h = a.geo
    ft = ft_geometry(a.ranks)
    print("scenarios.py: %d ranks on a dragonfly of %d groups x %d switches x %d hosts, "
          "bundles of %d%s; work in %s" % (a.ranks, g, s, h, a.bundle,
                                           ", fat trees of %d leaves x %d hosts" % ft
                                           if ft else "", a.out), flush=True)
    picked = a.pick
    todo = [(i, sc) for i, sc in enumerate(scenarios(g, s, h))
            if not picked or i + 1 in picked]
    # the rows wanted: the picked scenarios (one skipped for want of the
    # test copy still counts) and the baselines they need
    expected = len(todo)
    if not os.access(a.standin, os.X_OK):
        for i, sc in todo:
            if sc["jitter"]:
                print("  %s: skipped (no test copy at %s)" % (sc["name"], a.standin))
        todo = [(i, sc) for i, sc in todo if not sc["jitter"]]
    # a baseline's scenario runs first, also when not picked
    need = {sc["baseline"] for _, sc in todo if sc["baseline"] is not None}
    listed = {i for i, _ in todo}
    all_sc = scenarios(g, s, h)
    first = [(b, dict(all_sc[b], name=all_sc[b]["name"] + " (baseline)"))
             for b in sorted(need - listed)]
    expected += len(first)
    rows = run_all(a, first + todo)
    print()
    print_table(rows, sys.stdout)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"ranks": a.ranks, "geometry": a.geo, "bundle": a.bundle,
                       "suite": a.suite, "scenarios": expected, "rows": rows}, fh, indent=1)
    right = sum(1 for r in rows if r["right"])
    print("\n%d of %d verdicts as the table says" % (right, len(rows)))
    return 1 if any(r["verdict"] in ("timed out",) or r["rc"] not in (0, 3, 4)
                    for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
