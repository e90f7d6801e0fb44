#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive: keep the JSON documents of the cxd tools in a site archive
(one SQLite file) and ask it what changed over time; write a sweep's report
as one self-contained HTML page."""

import argparse
import json
import os
import sqlite3
import sys

# The modules: beside this file in the source tree, PREFIX/share/cxd once
# installed (as PREFIX/bin/cxi_archive).
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "share", "cxd")]
sys.dont_write_bytecode = True  # no __pycache__ in an installed tree
import cxi_archive_db as db  # noqa: E402
import cxi_archive_query as q  # noqa: E402
from cxi_archive_doc import text as safe  # noqa: E402

PROG = "cxi_archive"


def suite_version():
    """PREFIX/share/cxd/version once installed; config.h in the source
    tree. (cxi_plot is installed without .py, so it cannot be imported.)"""
    for rel, pick in ((("..", "share", "cxd", "version"), str.strip),
                      (("..", "include", "cxd", "config.h"),
                       lambda t: t.split("CXD_SUITE_VERSION \"")[1]
                       .split('"')[0])):
        try:
            with open(os.path.join(HERE, *rel)) as f:
                return pick(f.read())
        except (OSError, IndexError):
            pass
    return "unknown"


def positive(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError("'%s' is not a whole number >= 1"
                                         % text)
    return v


def percent(text):
    try:
        v = float(text)
    except ValueError:
        v = -1
    if not 0 < v < 1000:
        raise argparse.ArgumentTypeError("'%s' is not a percentage above 0"
                                         % text)
    return v


def print_rows(rows, line, empty):
    """Each row as line(row) makes it, or `empty` when there is none."""
    for r in rows:
        print(line(r))
    if not rows:
        print(empty)


def cmd_ingest(a, con):
    bad = 0
    for path in a.files:
        try:
            doc, digest = db.read_doc(path, a.host, a.max_mb)
        except db.InputError as e:
            print("%s: %s" % (PROG, safe(e)), file=sys.stderr)
            bad += 1
            continue
        rid, new = db.ingest(con, path, doc, digest)
        print("%s: %s as run %d" % (safe(path), "archived" if new else
                                    "already archived", rid))
    return 2 if bad else 0


def _line(r):
    """A run's line; every string of the archive through safe(): a run
    archived before the checks may hold what a terminal acts on."""
    sus = ", ".join(map(safe, r["suspects"])) if r["suspects"] else ""
    what = "%d ranks" % r["ranks"] if r["ranks"] else \
        r["host"] if r["kind"] == "health" else r["tool"]
    line = "%5d  %-20s  %-10s  %-14s  %-12s  %s" % (
        r["run"], safe(r["start_time"]), safe(r["kind"]), safe(what),
        safe(r["verdict"] or "-"), sus)
    if r["kind"] == "health":  # each NIC's state, on the line below
        line += "\n%41s%s" % ("", ", ".join(
            "%s %s%s" % (safe(x["name"]), safe(x["verdict"]),
                         " (%s)" % safe(x["why"]) if x["why"] else "")
            for x in r["nics"]) or "no NIC found")
    return line


def cmd_runs(a, con):
    rows = q.runs(con, a.last)
    if a.json:
        return rows
    print("  run  start (UTC)           kind        what            verdict"
          "       suspects")
    for r in rows:
        print(_line(r))
    return None


def _two_newest(con):
    rows = [r[0] for r in q._sweeps(con, 2)]
    if len(rows) < 2:
        raise db.InputError("compare needs two sweeps; the archive has %d"
                            % len(rows))
    return rows


def cmd_compare(a, con):
    before, after = (a.runs if a.runs else _two_newest(con))
    res = q.compare(con, before, after, a.tolerance)
    if a.json:
        return res
    t = res["tolerance_pct"]
    print("run %d against run %d, beyond %g %% (bandwidth), %g %% (latency)"
          % (after, before, t["bw"], t["lat"]))
    for k, what in (("only_before", "gone"), ("only_after", "new")):
        if res[k]:
            print("ranks %s: %s" % (what, ", ".join(map(safe, res[k]))))
    print("nodes moved: %d" % len(res["nodes"]))
    for n in res["nodes"]:
        print("  %-28s %-8s %10.4g -> %-10.4g %+7.1f %% %s" % (
            safe(n["node"]), n["metric"], n["before"], n["after"],
            n["change_pct"],
            "worse" if n["worse"] else "better"))
    print("links moved: %d%s" % (len(res["links"]), " (the 20 largest)"
                                 if len(res["links"]) > 20 else ""))
    for x in res["links"][:20]:
        print("  %s -> %s %-8s %10.4g -> %-10.4g %+7.1f %%" % (
            safe(x["src"]), safe(x["dst"]), x["metric"], x["before"],
            x["after"],
            x["change_pct"]))
    return None


def _plot(res, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pts = [p for p in res["points"] if p["value"] is not None]
    fig, ax = plt.subplots(figsize=(9, 4.5), layout="constrained")
    x = [p["start_time"] for p in pts]
    ax.plot(x, [p["value"] for p in pts], marker="o", color="#1f5fa8")
    for p in pts:
        if p["verdict"] not in (None, "PASS"):
            ax.plot(p["start_time"], p["value"], marker="x", color="red",
                    markersize=10)
    ax.set_title(title, parse_math=False)  # a name's '$' is not TeX
    ax.set_ylabel("Bandwidth [MB/s]" if res["metric"] == "bw_mb_s"
                  else "Latency [us]")
    ax.set_xlabel("run start (UTC); red x: a run that did not pass")
    ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    fig.savefig(path)


def cmd_trend(a, con):
    if a.host:
        res = q.trend_host(con, a.host, a.metric, a.last)
        title = "%s over time: %s" % (a.metric, a.host)
    else:
        res = q.trend_link(con, a.link[0], a.link[1], a.metric, a.last)
        title = "%s over time: %s -> %s" % (a.metric, *a.link)
    if a.plot:
        _plot(res, a.plot, title)
    if a.json:
        return res
    print(safe(title))
    print_rows(res["points"], lambda p: "  run %5d  %-20s  %-12s %s" % (
        p["run"], safe(p["start_time"]),
        "-" if p["value"] is None else "%.6g" % p["value"],
        safe(p["verdict"] or "-")), "  no run in the archive has it")
    return None


def cmd_intermittent(a, con):
    res = q.intermittent(con, a.last, a.least)
    if a.json:
        return res
    print("named or flagged in at least %d of the last %d sweeps:"
          % (a.least, len(res["window"])))
    print_rows(res["hits"], lambda h: "  %-7s %-40s %d of %d%s (runs %s)" % (
        safe(h["kind"]), safe(h["name"]), h["times"], h["of"],
        ", every run" if h["persistent"] else "",
        " ".join(map(str, h["runs"]))), "  none")
    return None


def cmd_drift(a, con):
    res = q.drift(con, a.last, a.tolerance)
    if a.json:
        return res
    if "note" in res:
        print(res["note"])
        return None
    t = res["tolerance_pct"]
    print("over the last %d passing sweeps (runs %s), lost more than %g %% "
          "(bandwidth), %g %% (latency):" % (
              len(res["window"]), " ".join(map(str, res["window"])),
              t["bw"], t["lat"]))
    for n in res["nodes"]:
        print("  node %-28s %-8s %+7.1f %%" % (
            safe(n["node"]), n["metric"], n["change_pct"]))
    for x in res["links"]:
        print("  link %s -> %s %-8s %+7.1f %%" % (
            safe(x["src"]), safe(x["dst"]), x["metric"], x["change_pct"]))
    if not res["nodes"] and not res["links"]:
        print("  none")
    return None


def cmd_baseline(a, con):
    doc = q.baseline(con, a.last, suite_version())
    with open(a.output, "w") as f:
        json.dump(doc, f)
    runs = doc["baseline_of"]["runs"]
    print("%s: per-link median of %d passing sweeps (runs %s), %d ranks; "
          "for cxi_sweep --baseline" % (safe(a.output), len(runs),
                                        " ".join(map(str, runs)),
                                        len(doc["ranks"])))
    return doc["baseline_of"] if a.json else None


def cmd_report(a, con):
    import cxi_archive_report as rep
    doc, digest = db.read_doc(a.sweep, max_mb=a.max_mb)
    if doc["kind"] != "sweep":
        raise db.InputError("%s is a %s document; report reads a sweep's"
                            % (a.sweep, doc["kind"]))
    size = rep.write(doc, a.output, con, os.path.basename(a.sweep), digest)
    print("%s: %d bytes" % (safe(a.output), size))
    return None


def parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__)
    p.add_argument("-V", "--version", action="version",
                   version="%s version %s" % (PROG, suite_version()))
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-a", "--archive",
                        default=os.environ.get("CXD_ARCHIVE"),
                        help="the archive file (default: $CXD_ARCHIVE)")
    common.add_argument("--json", action="store_true",
                        help="print the answer as one JSON document")
    common.add_argument("--max-mb", type=positive, default=db.MAX_MB,
                        metavar="MB", help="refuse a document larger than "
                        "this (default: %(default)s MB)")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    add = sub.add_parser

    def sub_add(name, **kw):
        return add(name, parents=[common], **kw)
    sub.add_parser = sub_add
    s = sub.add_parser("ingest", help="archive documents (once each)")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--host", help="the node a saved cxi_node_health output "
                   "is of (default: this one)")
    s = sub.add_parser("runs", help="the runs, newest first")
    s.add_argument("--last", type=positive, default=20)
    s = sub.add_parser("compare", help="what moved between two sweeps")
    s.add_argument("runs", nargs="*", type=positive, metavar="RUN")
    s.add_argument("--tolerance", type=percent, metavar="PCT")
    s = sub.add_parser("trend", help="a host's or a link's figure over time")
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--host")
    g.add_argument("--link", nargs=2, metavar=("SRC", "DST"))
    s.add_argument("--metric", choices=("bw_mb_s", "lat_us"),
                   default="bw_mb_s")
    s.add_argument("--last", type=positive, default=52)
    s.add_argument("--plot", metavar="PNG")
    s = sub.add_parser("intermittent", help="flagged in k of the last n")
    s.add_argument("--last", type=positive, default=10)
    s.add_argument("--min", dest="least", type=positive, default=3)
    s = sub.add_parser("drift", help="slow losses across passing sweeps")
    s.add_argument("--last", type=positive, default=12)
    s.add_argument("--tolerance", type=percent, metavar="PCT")
    s = sub.add_parser("baseline", help="per-link median of passing sweeps")
    s.add_argument("--last", type=positive, default=5)
    s.add_argument("-o", "--output", required=True)
    s = sub.add_parser("report", help="a sweep's page, one HTML file")
    s.add_argument("sweep", metavar="SWEEP.json")
    s.add_argument("-o", "--output", required=True)
    return p


CMDS = {"ingest": cmd_ingest, "runs": cmd_runs, "compare": cmd_compare,
        "trend": cmd_trend, "intermittent": cmd_intermittent,
        "drift": cmd_drift, "baseline": cmd_baseline, "report": cmd_report}


def main(argv):
    a = parser().parse_args(argv)
    if a.cmd == "compare" and len(a.runs) not in (0, 2):
        print("%s: compare takes two runs or none (the two newest sweeps), "
              "not %d" % (PROG, len(a.runs)), file=sys.stderr)
        return 2
    if not a.archive and a.cmd != "report":
        print("%s: no archive: give -a FILE or set CXD_ARCHIVE" % PROG,
              file=sys.stderr)
        return 2
    try:
        con = db.open_archive(a.archive, a.cmd == "ingest") \
            if a.archive else None
        out = CMDS[a.cmd](a, con)
    except db.InputError as e:
        print("%s: %s" % (PROG, safe(e)), file=sys.stderr)
        return 2
    except sqlite3.OperationalError as e:
        print("%s: the archive '%s': %s" % (PROG, safe(a.archive), safe(e)),
              file=sys.stderr)
        return 1
    if isinstance(out, int):
        return out
    if a.json and out is not None:
        json.dump(out, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
