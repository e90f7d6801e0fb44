#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run cxi_sweep's simulated build over a dragonfly in the scenarios of
issue 29 and report what its verdict says in each (docs/simulation.md):

    scenarios.py --sweep build-sim/cxi_sweep --ranks 128 [--out DIR]

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


def geometry(n):
    """Groups, switches per group, hosts per switch for n ranks: at least
    2 groups; 4x4 per group up to 256 ranks, 8x8 beyond when it divides."""
    shapes = [(4, 4), (8, 8), (4, 8), (8, 4), (2, 4), (4, 2), (2, 2), (1, 2), (1, 1)]
    if n > 256:
        shapes = [(8, 8), (4, 8), (8, 4)] + shapes
    for s, h in shapes:
        if n % (s * h) == 0 and n // (s * h) >= 2:
            return n // (s * h), s, h
    return None


def scenarios(g, s, h):
    """(name, platgen words, baseline-of) for the suite. The faults sit away
    from rank 0: host 1 of switch 1 of group 1, switch 1 of group 1, the
    bundle between groups 0 and 1."""
    n = g * s * h
    s1, h1 = min(1, s - 1), min(1, h - 1)
    node = platgen.host_name((s + s1) * h + h1, n)
    sw = "g1s%d" % s1
    return [
        ("healthy, full globals", [], None),
        ("healthy, globals at 1/2", ["--taper", "0.5"], None),
        ("healthy, globals at 1/4", ["--taper", "0.25"], None),
        ("node %s at 75%%" % node, ["--slow", "node:%s=0.75" % node], None),
        ("switch %s uplinks at 50%%" % sw, ["--slow", "switch:%s=0.5" % sw], None),
        ("bundle g0-g1 at 50%", ["--slow", "bundle:g0-g1=0.5"], None),
        ("whole fabric at 1/2 vs healthy", ["--scale", "0.5"], 0),
    ]


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
        out.append("%s %s (%s/%s %s)" % (s.get("kind", "?"), s.get("name", "?"), s.get("bad", "?"),
                                         s.get("links", "?"), s.get("metric", "?")))
    return ", ".join(out) if out else "-"


SIM_TIME = re.compile(r"Simulated time: ([0-9.eE+-]+)")


def run_one(a, name, words, baseline, idx, geo):
    """Generate the platform, run the sweep on it; returns the table row."""
    g, s, h = geo
    prefix = os.path.join(a.out, "s%d" % idx)
    f, _ = platgen.build(["dragonfly", "--groups", str(g), "--switches", str(s),
                          "--hosts", str(h), "--bundle", str(a.bundle), *words,
                          "-o", prefix])
    platgen.write_outputs(f, prefix)
    out_json = prefix + ".json"
    if os.path.exists(out_json):
        os.unlink(out_json)
    cmd = ["smpirun", "-np", str(a.ranks), "-platform", prefix + ".xml",
           "-hostfile", prefix + ".hosts", *SMPI_CFG, *a.cfg, a.sweep,
           "--engine", "mpi", "--json", out_json, "--topology", prefix + ".topo",
           *shlex.split(a.sweep_args)]
    if baseline is not None:
        cmd += ["--baseline", baseline]
    # peak memory, and the CPU seconds (user, system): on a shared host
    # the wall seconds also count the others' work
    timed = ["/usr/bin/time", "-f", "%M %U %S", "-o", prefix + ".rss"] \
        if os.access("/usr/bin/time", os.X_OK) else []
    with open(prefix + ".cmd", "w") as fh:
        fh.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
    t0 = time.monotonic()
    with open(prefix + ".out", "w") as so, open(prefix + ".err", "w") as se:
        p = subprocess.Popen(timed + cmd, stdout=so, stderr=se, start_new_session=True)
        try:
            rc = p.wait(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
    wall = time.monotonic() - t0
    row = {"scenario": name, "platform": prefix + ".xml", "rc": rc, "wall_s": wall,
           "json": out_json, "verdict": None, "suspects": "-", "flagged": "-",
           "sim_s": None, "sim_total_s": None, "rss_mb": None, "cpu_s": None}
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
        if doc.get("seconds") is not None:
            row["sim_s"] = doc["seconds"]
    except (OSError, ValueError):
        pass
    if row["verdict"] is None:
        row["verdict"] = "timed out" if rc is None else "%s (exit %d, no JSON)" % (
            VERDICTS.get(rc, "exit %d" % rc), rc)
    elif rc not in (0, 3, 4):
        row["verdict"] += " (exit %s)" % rc
    return row


def fmt(v, spec):
    return spec % v if v is not None else "-"


def print_table(rows, out):
    head = ["scenario", "verdict", "suspects", "flagged links", "sweep sim s", "total sim s",
            "wall s", "CPU s", "peak MB"]
    table = [[r["scenario"], r["verdict"], r["suspects"], r["flagged"], fmt(r["sim_s"], "%.4g"),
              fmt(r["sim_total_s"], "%.4g"), fmt(r["wall_s"], "%.1f"),
              fmt(r.get("cpu_s"), "%.1f"), fmt(r["rss_mb"], "%.0f")]
             for r in rows]
    out.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for t in table:
        out.write("| " + " | ".join(str(c).replace("|", "/") for c in t) + " |\n")


def parse_args(argv):
    p = Parser(prog="scenarios.py", description="cxi_sweep's simulated build over a "
               "dragonfly: healthy, tapered and faulty scenarios, one table.")
    p.add_argument("--sweep", required=True, help="cxi_sweep built for SMPI (make sim)")
    p.add_argument("--ranks", type=int, required=True, help="ranks, one per host")
    p.add_argument("--out", default=None, help="work directory (default: a new one in $TMPDIR)")
    p.add_argument("--geometry", default=None, metavar="G,S,H",
                   help="groups, switches per group, hosts per switch (G*S*H = ranks)")
    p.add_argument("--bundle", type=int, default=2, help="global links per group pair")
    p.add_argument("--sweep-args", default="", help="more cxi_sweep options, one string")
    p.add_argument("--cfg", action="append", default=[], help="more smpirun --cfg=... words")
    p.add_argument("--only", default=None, metavar="I,J", help="run these scenarios (1-7)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    p.add_argument("--json", default=None, help="write the rows as JSON to this file")
    a = p.parse_args(argv)
    if not (os.path.isfile(a.sweep) and os.access(a.sweep, os.X_OK)):
        p.error("--sweep %s: not an executable file" % a.sweep)
    if a.ranks < 4:
        p.error("--ranks %d: at least 4" % a.ranks)
    if a.bundle < 1:
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
    a.pick = None
    if a.only:
        try:
            a.pick = {int(x) for x in a.only.split(",")}
        except ValueError:
            a.pick = {0}
        if not a.pick <= set(range(1, 8)):
            p.error("--only %s: scenario numbers 1 to 7" % a.only)
    for w in a.cfg:
        if not w.startswith("--cfg="):
            p.error("--cfg %s: give it as --cfg=NAME:VALUE" % w)
    return a


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if a.out is None:
            a.out = tempfile.mkdtemp(prefix="cxd-sim.")
        os.makedirs(a.out, exist_ok=True)
    except OSError as e:
        sys.stderr.write("scenarios.py: --out %s: %s\n" % (a.out, e))
        return 2
    g, s, h = a.geo
    print("scenarios.py: %d ranks on a dragonfly of %d groups x %d switches x %d hosts, "
          "bundles of %d; work in %s" % (a.ranks, g, s, h, a.bundle, a.out), flush=True)
    rows, done = [], {}
    for i, (name, words, base_of) in enumerate(scenarios(g, s, h)):
        if a.pick and i + 1 not in a.pick:
            continue
        baseline = None
        if base_of is not None:
            # The healthy baseline: the first scenario's JSON, run now if
            # it was not part of this run.
            if base_of not in done:
                done[base_of] = run_one(a, scenarios(g, s, h)[base_of][0] + " (baseline)",
                                        [], None, base_of + 1, a.geo)
                rows.append(done[base_of])
            baseline = done[base_of]["json"]
        row = run_one(a, name, words, baseline, i + 1, a.geo)
        done[i] = row
        rows.append(row)
        print("  %s: %s (%.1f s)" % (name, row["verdict"], row["wall_s"]), flush=True)
    print()
    print_table(rows, sys.stdout)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"ranks": a.ranks, "geometry": a.geo, "bundle": a.bundle,
                       "rows": rows}, fh, indent=1)
    return 1 if any(r["verdict"] in ("timed out",) or r["rc"] not in (0, 3, 4)
                    for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
