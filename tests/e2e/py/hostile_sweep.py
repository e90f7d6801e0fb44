# SPDX-License-Identifier: BSD-3-Clause
"""Hostile names in a real cxi_sweep run (test_hostile_sweep.sh): its
inputs made from the table (tests/hostile_names.txt) and its outputs
checked.

    hostile_sweep.py hosts FILE ID...      CXD_TEST_HOST_NAMES's file: rank
        r's host name the table's row ID r (hex, "-" for empty)
    hostile_sweep.py topo FILE H S G       a --topology file: rank r's host
        (ID list H, comma-separated) on switch S[r % len] of group
        G[r % len] (each plain-format fields: no blank, no leading '#')
    hostile_sweep.py baseline FILE ID...   a --baseline document of those
        hosts (NIC "mpi", as the MPI engine names it) whose figures every
        link of rank 2 is far slower than (latency: 1 ns)
    hostile_sweep.py outputs DIR H [S G]   the run's files in DIR (out.txt,
        run.csv, run.prom, run.sus, run.json): the names whole in each,
        as each format writes them; rank 2 the one suspect when DIR/
        base.json exists
    hostile_sweep.py refused ERR ID...     rank r's host (row ID r) named
        on stderr, shown escaped, with its reason; no control byte

Last line printed: the verdict; exit 1 on a failed check.
"""
import csv
import json
import os
import sys

import hostile

ROWS = {i: (f, b) for i, f, b in hostile.names()}


def name(ident):
    return ROWS[ident][1]


def hosts(path, *ids):
    with open(path, "w") as f:
        for i in ids:
            f.write((name(i).hex() or "-") + "\n")
    return [], "%d host names" % len(ids)


def topo(path, h, s, g):
    h, s, g = h.split(","), s.split(","), g.split(",")
    with open(path, "wb") as f:
        for r, i in enumerate(h):
            f.write(b" ".join((name(i), name(s[r % len(s)]),
                               name(g[r % len(g)]))) + b"\n")
    return [], "a topology of %d lines" % len(h)


def baseline(path, *ids):
    n = len(ids)
    fast, slow = 0.001, 1e6
    lat = [[None if i == j else fast if 2 in (i, j) else slow
            for j in range(n)] for i in range(n)]
    bw = [[None if i == j else 1.0 for j in range(n)] for i in range(n)]
    doc = {"schema_version": 1, "kind": "sweep", "tool": "cxi_sweep",
           "version": "0.1.0", "host": "base", "provider": "mpi",
           "start_time": "2026-01-01T00:00:00Z", "command": ["made"],
           "options": {"size": 65536},
           "ranks": [{"rank": r, "host": hostile.text(name(i)), "nic": "mpi",
                      "address": "rank %d" % r} for r, i in enumerate(ids)],
           "bw_mb_s": bw, "lat_us": lat, "outliers": [], "verdict": "PASS",
           "resolution": {"bw": {"tolerance_pct": 10.0},
                          "lat": {"tolerance_pct": 10.0}}, "seconds": 1}
    with open(path, "w") as f:
        json.dump(doc, f)
    return [], "a baseline in which rank 2's links are far faster"


def _prom_labels(text):
    """(name, labels) of each sample, by Prometheus' own parser."""
    from prometheus_client.openmetrics.parser import \
        text_string_to_metric_families as om
    return [(s.name, s.labels) for f in om(text) for s in f.samples]


def outputs(top, h, s=None, g=None):
    h = [hostile.text(name(i)) for i in h.split(",")]
    n, bad = len(h), []
    out = open(os.path.join(top, "out.txt"), "rb").read()
    bad += ["a control byte 0x%02x in the text report" % c
            for c in set(out) if c < 0x20 and c not in (9, 10)]
    text = out.decode("utf-8")
    rows = list(csv.reader(open(os.path.join(top, "run.csv"),
                                encoding="utf-8", newline="")))
    if rows[0] != ["src", "dst", "src_host", "dst_host", "bw_mb_s",
                   "lat_us", "src_nic", "dst_nic"] or len(rows) != \
            1 + n * (n - 1):
        bad.append("the CSV: %d rows, header %r" % (len(rows), rows[0]))
    for r in rows[1:]:
        if len(r) != 8 or r[2] != h[int(r[0])] or r[3] != h[int(r[1])]:
            bad.append("a CSV row: %r" % r)
            break
    seen = set()
    for metric, lab in _prom_labels(open(os.path.join(top, "run.prom"),
                                         encoding="utf-8").read()):
        for side in ("", "src_", "dst_"):
            if side + "host" in lab:
                if lab[side + "host"] != h[int(lab[side + "rank"])]:
                    bad.append("%s: %s=%r" % (metric, side + "host",
                                              lab[side + "host"]))
                seen.add(lab[side + "host"])
    if seen != set(h):
        bad.append("hosts in the metrics: %d of %d" % (len(seen), n))
    doc = json.load(open(os.path.join(top, "run.json"), encoding="utf-8"))
    if [r["host"] for r in doc["ranks"]] != h:
        bad.append("the JSON's hosts: %r" % [r["host"] for r in doc["ranks"]])
    if s:
        s = [hostile.text(name(i)) for i in s.split(",")]
        g = [hostile.text(name(i)) for i in g.split(",")]
        if [(r["switch"], r["group"]) for r in doc["ranks"]] != \
                [(s[r % len(s)], g[r % len(g)]) for r in range(n)]:
            bad.append("the JSON's switches and groups")
    sus = open(os.path.join(top, "run.sus"), encoding="utf-8").read()
    if os.path.exists(os.path.join(top, "base.json")):
        lines = sus.splitlines()
        if len(lines) != 1 or lines[0].split("\t")[0] != h[2]:
            bad.append("--suspects: %r, want rank 2's host" % lines)
        elif h[2] not in text:
            bad.append("the text does not name rank 2's host")
    elif sus:
        bad.append("--suspects without a baseline: %r" % sus)
    return bad, ("the text, --csv (RFC 4180, read back), --metrics (read "
                 "by prometheus_client), --suspects and --json carry the "
                 "%d hosts whole" % n)


def refused(err, *ids):
    raw = open(err, "rb").read()
    bad = ["a control byte 0x%02x on stderr" % c for c in set(raw)
           if c < 0x20 and c not in (9, 10)]
    text = raw.decode("utf-8", "replace")
    for r, i in enumerate(ids):
        if "rank %d's host name '" % r not in text:
            bad.append("rank %d (%s) not named" % (r, i))
    return bad, "%d ranks' host names named, shown escaped" % len(ids)


if __name__ == "__main__":
    sys.exit(hostile.check_main({
        "hosts": hosts, "topo": topo, "baseline": baseline,
        "outputs": outputs, "refused": refused}, sys.argv[1:]))
