#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Structure-aware fuzzing of cxi_archive's document path (issue 51;
docs/security.md): seeds (fuzz/corpus-archive/, sweeps as cxi_sweep and
the tests write them) mutated a few nodes at a time (a value replaced by
one of a pool of awkward ones, a key or an element dropped or doubled),
then checked as a document (cxi_archive_db.check_doc). What passes the
checks must be carried without a traceback: archived (an in-memory
SQLite file, twice for a sweep), every query asked, the report page
written. Anything but a refusal (InputError) is a finding: its input is
kept as WORKDIR/archive-finding-N.json and the exit status is 1.

    fuzz_archive.py SECONDS WORKDIR SEED.json...   (fuzz/run.sh runs it)

The last line: the executions and the findings, as run.sh reports them.
"""
import copy
import json
import os
import random
import sys
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "tools")]
sys.dont_write_bytecode = True
import cxi_archive_db as db  # noqa: E402
import cxi_archive_query as q  # noqa: E402
import cxi_archive_report as rep  # noqa: E402

# The histogram is matplotlib's, not ours, and a tenth of a second.
rep.spread_png = lambda doc: "data:image/png;base64,"
POOL = [None, True, False, 0, -1, 1, 2, 99, 1.5, -0.0, 1e308, 10 ** 30,
        float("inf"), "", "x", "a\x1bb", "</script>", "\ud800", "%s%n",
        [], {}, [[]], [None], {"a": 1}, [1, 2], "PASS", "FAIL", "sweep",
        "rank", "switch", "bw_mb_s", "lat_us", "2026-01-01T00:00:00Z"]


def paths(x, p=()):
    yield p
    if isinstance(x, dict):
        for k, v in x.items():
            yield from paths(v, p + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x[:6]):
            yield from paths(v, p + (i,))


def mutate(doc, rnd):
    d = copy.deepcopy(doc)
    for _ in range(rnd.randint(1, 4)):
        p = rnd.choice(list(paths(d)))
        if not p:
            continue
        at = d
        for k in p[:-1]:
            at = at[k]
        r = rnd.random()
        if r < 0.6:
            at[p[-1]] = copy.deepcopy(rnd.choice(POOL))
        elif r < 0.75 and isinstance(at, dict):
            del at[p[-1]]
        elif r < 0.85 and isinstance(at, list):
            at.append(copy.deepcopy(at[p[-1]]))
        elif isinstance(at, list):
            del at[p[-1]]
    return d


def carry(doc, n):
    """What an accepted document goes through; raises on a finding."""
    con = db._connect(":memory:")
    db._make(con)
    db.ingest(con, "f.json", doc, "d%d" % n)
    q.runs(con, 5)
    if doc["kind"] != "sweep":
        return
    later = copy.deepcopy(doc)
    later["start_time"] = "2099-01-01T00:00:00Z"
    db.ingest(con, "g.json", later, "e%d" % n)
    q.compare(con, 1, 2)
    q.intermittent(con, 5, 1)
    q.drift(con, 5)
    try:
        q.baseline(con, 5, "0.1.0")
    except db.InputError:
        pass
    rep.page(doc, con, "f.json", "d%d" % n).encode()


def main(argv):
    secs, work, seeds = float(argv[0]), argv[1], argv[2:]
    docs = [json.load(open(p)) for p in seeds]
    rnd = random.Random(int(os.environ.get("FUZZ_SEED", "0")) or None)
    t0, n, found = time.time(), 0, 0
    warnings.simplefilter("ignore", RuntimeWarning)
    while time.time() - t0 < secs:
        doc = mutate(rnd.choice(docs), rnd)
        n += 1
        try:
            db.check_doc("f.json", doc)
            carry(doc, n)
        except db.InputError:
            continue
        except Exception:
            found += 1
            path = os.path.join(work, "archive-finding-%d.json" % found)
            with open(path, "w") as f:
                json.dump(doc, f)
            print("%s: %s" % (path, traceback.format_exc().splitlines()[-1]))
    print("stat::number_of_executed_units: %d" % n)
    print("stat::average_exec_per_sec: %d" % (n / max(secs, 1)))
    print("fuzz_archive: %d runs, %d findings" % (n, found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
