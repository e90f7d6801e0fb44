# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive's store: the SQLite file, its tables, and one document's
ingest. Imported by cxi_archive.py (beside it, or PREFIX/share/cxd)."""

import hashlib
import json
import os
import sqlite3
import time
import warnings
import zlib

import numpy as np

import cxi_archive_doc as checks
import cxi_archive_health as health

# The newest schema_version of each kind this archive reads (docs/json.md;
# lib/base/stamp.h's CXD_SCHEMA_*).
KNOWN = {"pair": 1, "sweep": 1, "congestion": 1}
FORMAT = 1  # the archive's own layout; raised when a table changes
# The most a document may be, in MB (--max-mb): what is read is bounded,
# and so what parsing it takes (about 3 times its size). A sweep's --json
# of 1,800 ranks is about 256 MB (4 matrices of 1,800^2 figures, ~20 bytes
# each as cxi_sweep writes them).
MAX_MB = 256
BUSY_MS = 60000  # how long a writer waits for another one's transaction

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, digest TEXT UNIQUE NOT NULL, kind TEXT, tool TEXT,
  schema_version INTEGER, version TEXT, host TEXT, start_time TEXT,
  command TEXT, verdict TEXT, nranks INTEGER, provider TEXT, source TEXT,
  ingested TEXT, extra TEXT);
CREATE INDEX IF NOT EXISTS runs_time ON runs (start_time);
CREATE TABLE IF NOT EXISTS ranks (
  run INTEGER, rank INTEGER, key TEXT, host TEXT, nic TEXT, address TEXT,
  switch TEXT, grp TEXT, suspect INTEGER, counters TEXT,
  bw_out REAL, bw_in REAL, lat REAL, PRIMARY KEY (run, rank));
CREATE INDEX IF NOT EXISTS ranks_host ON ranks (host);
CREATE TABLE IF NOT EXISTS links (
  run INTEGER, src INTEGER, bw BLOB, lat BLOB, PRIMARY KEY (run, src));
CREATE TABLE IF NOT EXISTS outliers (
  run INTEGER, src INTEGER, dst INTEGER, metric TEXT, value REAL,
  reference REAL, lim REAL, retest REAL);
CREATE INDEX IF NOT EXISTS outliers_run ON outliers (run);
CREATE TABLE IF NOT EXISTS suspects (
  run INTEGER, kind TEXT, name TEXT, metric TEXT, bad INTEGER,
  links INTEGER, ranks TEXT);
CREATE INDEX IF NOT EXISTS suspects_run ON suspects (run);
CREATE TABLE IF NOT EXISTS results (
  run INTEGER, size INTEGER, bw_mb_s REAL, p50_us REAL);
CREATE TABLE IF NOT EXISTS gates (
  run INTEGER PRIMARY KEY, verdict TEXT, figure TEXT, lo REAL, hi REAL,
  worst TEXT);
"""
# a health run's NICs (cxi_node_health's table, a row each)
NICS = """CREATE TABLE IF NOT EXISTS nics (
  run INTEGER, name TEXT, kind TEXT, link TEXT, speed TEXT, pcie TEXT,
  flaps INTEGER, verdict TEXT, why TEXT, unread TEXT)"""
TABLES += NICS + ";\n"


class InputError(Exception):
    """Bad input: the message names it; the command exits 2."""


def pack(row):
    """A row of a matrix as zlib'd little-endian float32 (NaN: no figure)."""
    return zlib.compress(np.asarray(row, dtype="<f4").tobytes(), 6)


def unpack(blob):
    return np.frombuffer(zlib.decompress(blob), dtype="<f4").astype(float)


def _connect(path):
    con = sqlite3.connect(path, timeout=BUSY_MS / 1000.0,
                          isolation_level=None)
    con.execute("PRAGMA busy_timeout = %d" % BUSY_MS)
    return con


def _empty(con):
    return con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] \
        == 0


def _make(con):
    """The tables, under the write lock: of several writers that found the
    file empty, the first makes them and the others find them made."""
    con.execute("BEGIN IMMEDIATE")
    if _empty(con):
        for stmt in TABLES.split(";"):  # executescript would commit
            if stmt.strip():
                con.execute(stmt)
        con.execute("INSERT INTO meta VALUES ('format', ?)", (str(FORMAT),))
    con.execute("COMMIT")


def open_archive(path, create=True):
    """The archive at path, made when absent (or empty) and create is set.
    Several processes may open and write it at once: WAL lets readers go on
    while one writer holds the lock, and busy_timeout bounds the wait."""
    if not create and (not os.path.exists(path) or
                       os.path.getsize(path) == 0):
        raise InputError("no archive at '%s' (cxi_archive ingest makes one)"
                         % path)
    try:
        con = _connect(path)
        con.execute("PRAGMA journal_mode = WAL")
        if create and _empty(con):
            _make(con)
        row = con.execute("SELECT value FROM meta WHERE key = 'format'"
                          ).fetchone()
    except sqlite3.DatabaseError as e:
        raise InputError("'%s' is not a cxd archive: %s" % (path, e))
    if row is None:
        raise InputError("'%s' is not a cxd archive: no format row" % path)
    if int(row[0]) > FORMAT:
        raise InputError("'%s' is archive format %s; this cxi_archive knows "
                         "format %d" % (path, row[0], FORMAT))
    return con


def _text(path, data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("%s is not one of our documents: not UTF-8 text"
                         % os.path.basename(path))


def _no_constant(word):
    raise ValueError("%s is not a JSON number (a figure is a number or "
                     "null)" % word)


def _parse(path, text):
    name = os.path.basename(path)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise InputError("%s is not one of our documents: nested deeper "
                         "than this reader goes (ours are 6 deep)" % name)
    except json.JSONDecodeError as e:
        # cut short: it fails at its end, or inside a string never closed
        if text.lstrip().startswith("{") and (
                e.pos >= len(text.rstrip()) or
                e.msg.startswith("Unterminated string")):
            raise InputError("%s is truncated: the JSON ends at byte %d "
                             "before the document closes"
                             % (name, len(text.encode())))
        raise InputError("%s is not JSON (line %d, column %d: %s) nor "
                         "cxi_node_health's output (no Health: line)"
                         % (name, e.lineno, e.colno, e.msg))
    except ValueError as e:  # NaN, or an integer of thousands of digits
        raise InputError("%s is not one of our documents: %s" % (
            name, str(e).split(":")[0]))


def check_doc(path, doc):
    """The document's kind, or InputError saying what is wrong."""
    name = os.path.basename(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("kind"), str) \
            or doc["kind"] not in KNOWN or \
            not isinstance(doc.get("schema_version"), int) or \
            not isinstance(doc.get("tool"), str):
        raise InputError("%s is not one of our documents (no \"kind\" of "
                         "pair, sweep or congestion with a \"schema_version\""
                         " and a \"tool\")" % name)
    kind, ver = doc["kind"], doc["schema_version"]
    if ver > KNOWN[kind]:
        raise InputError("%s: %s schema_version %d is newer than this archive "
                         "knows (%d); a newer cxi_archive reads it"
                         % (name, kind, ver, KNOWN[kind]))
    try:
        checks.check(doc)
    except ValueError as e:
        raise InputError("%s: %s" % (name, e))
    return kind


def _read(path, max_mb):
    """The file's bytes, at most max_mb MB of them read: a larger file is
    refused, whatever it is (a pipe or a device too)."""
    cap = int(max_mb * 1e6)
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, e.strerror))
    if len(data) > cap:
        raise InputError("%s is over %g MB, the most a document may be "
                         "(--max-mb)" % (os.path.basename(path), max_mb))
    return data


def read_doc(path, host=None, max_mb=MAX_MB):
    """(document, digest) of the file at path; InputError when it is not
    one of ours. The digest is of the document's content, so the same run
    written with other spacing is still the same run. A saved
    cxi_node_health output is read as a document of kind health, of host
    (the output does not name its node)."""
    text = _text(path, _read(path, max_mb))
    if not text.lstrip().startswith("{") and health.looks_like(text):
        try:
            doc, digest = health.document(path, text,
                                          host or os.uname().nodename)
        except ValueError as e:
            raise InputError(str(e))
        try:
            checks.check(doc)
        except ValueError as e:
            raise InputError("%s: %s" % (os.path.basename(path), e))
        return doc, digest
    doc = _parse(path, text)
    check_doc(path, doc)
    canon = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return doc, hashlib.sha256(canon.encode()).hexdigest()


def verdict_of(doc):
    if doc["kind"] == "sweep":
        return doc.get("verdict")
    if doc["kind"] == "health":
        return doc["verdict"]
    if doc["kind"] == "congestion":
        return (doc.get("congestion") or {}).get("verdict")
    return (doc.get("gate") or {}).get("verdict")


def rank_keys(ranks):
    """A rank's name across runs: host:nic (rank numbers change between
    runs); a #k suffix where a host has several ranks on one NIC."""
    seen, keys = {}, []
    for r in ranks:
        k = "%s:%s" % (r.get("host", ""), r.get("nic", ""))
        seen[k] = seen.get(k, 0) + 1
        keys.append(k if seen[k] == 1 else "%s#%d" % (k, seen[k]))
    return keys


def matrices(doc):
    """The sweep's bandwidth and latency as n x n float arrays (NaN: none)."""
    bw = np.array(doc["bw_mb_s"], dtype=float)
    lat = np.array(doc["lat_us"], dtype=float)
    return bw, lat


def _node_figs(bw, lat):
    """Per rank: the median bandwidth out and in, the median latency."""
    with warnings.catch_warnings():  # a rank with no figure: NaN, quietly
        warnings.simplefilter("ignore", RuntimeWarning)
        out = np.nanmedian(bw, axis=1)
        inn = np.nanmedian(bw, axis=0)
        la = np.nanmedian(np.concatenate([lat, lat.T], axis=1), axis=1)
    return out, inn, la


def _num(x):
    return None if x is None or (isinstance(x, float) and x != x) else x


def _put_sweep(con, run, doc):
    bw, lat = matrices(doc)
    keys = rank_keys(doc["ranks"])
    out, inn, la = _node_figs(bw, lat)
    con.executemany(
        "INSERT INTO ranks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(run, i, keys[i], r.get("host"), r.get("nic"), r.get("address"),
          r.get("switch"), r.get("group"), int(bool(r.get("suspect"))),
          r.get("counters_moved") or None, _num(float(out[i])),
          _num(float(inn[i])), _num(float(la[i])))
         for i, r in enumerate(doc["ranks"])])
    con.executemany("INSERT INTO links VALUES (?,?,?,?)",
                    [(run, i, pack(bw[i]), pack(lat[i]))
                     for i in range(len(keys))])
    con.executemany(
        "INSERT INTO outliers VALUES (?,?,?,?,?,?,?,?)",
        [(run, o.get("src"), o.get("dst"), o.get("metric"), o.get("value"),
          o.get("reference"), o.get("limit"), o.get("retest"))
         for o in doc.get("outliers") or [] if isinstance(o, dict)])
    con.executemany(
        "INSERT INTO suspects VALUES (?,?,?,?,?,?,?)",
        [(run, s.get("kind"), s.get("name"), s.get("metric"), s.get("bad"),
          s.get("links"), json.dumps(s.get("ranks") or []))
         for s in doc.get("suspects") or [] if isinstance(s, dict)])


def _put_pair(con, run, doc):
    con.executemany("INSERT INTO results VALUES (?,?,?,?)",
                    [(run, r.get("size"), r.get("bw_mb_s"), r.get("p50_us"))
                     for r in doc.get("results") or [] if isinstance(r, dict)])
    g = doc.get("gate")
    if isinstance(g, dict):
        con.execute("INSERT INTO gates VALUES (?,?,?,?,?,?)",
                    (run, g.get("verdict"), g.get("figure"), g.get("min"),
                     g.get("max"), json.dumps(g.get("worst"))))


def _put_health(con, run, doc):
    # archives made before health runs were kept lack the table
    con.execute(NICS)
    con.executemany(
        "INSERT INTO nics VALUES (?,?,?,?,?,?,?,?,?,?)",
        [(run, x["nic"], x["kind"], x["link"], x["speed"], x["pcie"],
          x["flaps"], x["verdict"], x["why"], x["unread"])
         for x in doc["nics"]])


BIG = ("bw_mb_s", "lat_us", "bw_spread_pct", "lat_spread_pct", "rounds",
       "ranks", "outliers", "results", "nics")


def ingest(con, path, doc, digest):
    """(run id, True) once archived; (the earlier id, False) when the same
    document is already there. One transaction: a reader never sees half a
    run, and a writer that dies leaves nothing."""
    extra = {k: v for k, v in doc.items() if k not in BIG}
    con.execute("BEGIN IMMEDIATE")
    try:
        old = con.execute("SELECT id FROM runs WHERE digest = ?",
                          (digest,)).fetchone()
        if old:
            con.execute("ROLLBACK")
            return old[0], False
        cur = con.execute(
            "INSERT INTO runs (digest, kind, tool, schema_version, version, "
            "host, start_time, command, verdict, nranks, provider, source, "
            "ingested, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (digest, doc["kind"], doc["tool"], doc["schema_version"],
             doc.get("version"), doc.get("host"), doc.get("start_time"),
             json.dumps(doc.get("command")), verdict_of(doc),
             len(doc["ranks"]) if doc["kind"] == "sweep" else None,
             doc.get("provider"), os.path.abspath(path),
             time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
             json.dumps(extra)))
        run = cur.lastrowid
        if doc["kind"] == "sweep":
            _put_sweep(con, run, doc)
        elif doc["kind"] == "pair":
            _put_pair(con, run, doc)
        elif doc["kind"] == "health":
            _put_health(con, run, doc)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return run, True
