# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive's questions: each returns plain data (lists and dicts) that
the command prints as text or as --json."""

import json
import time
import warnings

import numpy as np

from cxi_archive_db import InputError, unpack


def host_of(key):
    """The host of a rank key, host:nic[#k] (a host may hold a colon, an
    IPv6 address; a NIC name does not)."""
    return key.rsplit(":", 1)[0]


def _sweeps(con, last, passing=False):
    """The newest `last` sweep runs, oldest first: (id, start_time, verdict)."""
    q = "SELECT id, start_time, verdict FROM runs WHERE kind = 'sweep'"
    if passing:
        q += " AND verdict = 'PASS'"
    q += " ORDER BY start_time DESC, id DESC LIMIT ?"
    return list(reversed(con.execute(q, (last,)).fetchall()))


def runs(con, last):
    out = []
    for rid, t, kind, tool, host, n, verdict in con.execute(
            "SELECT id, start_time, kind, tool, host, nranks, verdict FROM "
            "runs ORDER BY start_time DESC, id DESC LIMIT ?", (last,)):
        sus = [r[0] for r in con.execute(
            "SELECT name FROM suspects WHERE run = ?", (rid,))]
        out.append({"run": rid, "start_time": t, "kind": kind, "tool": tool,
                    "host": host, "ranks": n, "verdict": verdict,
                    "suspects": sus})
        if kind == "health":
            _health_run(con, out[-1])
    return out


def _health_run(con, row):
    """A node health run's NICs, each with its state; the unhealthy ones
    are its suspects."""
    row["nics"] = [dict(zip(("name", "kind", "link", "speed", "pcie",
                             "flaps", "verdict", "why", "unavailable"), x))
                   for x in con.execute(
        "SELECT name, kind, link, speed, pcie, flaps, verdict, why, unread "
        "FROM nics WHERE run = ? ORDER BY rowid", (row["run"],))]
    row["suspects"] = ["%s:%s %s" % (row["host"], x["name"], x["verdict"])
                       for x in row["nics"]
                       if x["verdict"] not in ("ok", "unused")]


def run_row(con, rid):
    r = con.execute("SELECT kind, start_time, verdict, extra FROM runs "
                    "WHERE id = ?", (rid,)).fetchone()
    if r is None:
        raise InputError("no run %s in the archive" % rid)
    return r


def load_sweep(con, rid):
    """(keys, bw, lat, extra) of an archived sweep."""
    kind, _, _, extra = run_row(con, rid)
    if kind != "sweep":
        raise InputError("run %d is a %s run, not a sweep" % (rid, kind))
    keys = [r[0] for r in con.execute(
        "SELECT key FROM ranks WHERE run = ? ORDER BY rank", (rid,))]
    bw, lat = [], []
    for b, la in con.execute("SELECT bw, lat FROM links WHERE run = ? "
                             "ORDER BY src", (rid,)):
        bw.append(unpack(b))
        lat.append(unpack(la))
    return keys, np.vstack(bw), np.vstack(lat), json.loads(extra)


def tolerances(extra, pct=None):
    """The run's own resolution: the fractions it judges links within."""
    if pct is not None:
        return pct / 100.0, pct / 100.0
    res = extra.get("resolution") or {}
    return tuple(((res.get(m) or {}).get("tolerance_pct") or 10.0) / 100.0
                 for m in ("bw", "lat"))


def align(keys, m, target):
    """m (ranks in `keys` order) laid out in `target`'s order; NaN where a
    rank of target is not in keys."""
    pos = {k: i for i, k in enumerate(keys)}
    ti = [i for i, k in enumerate(target) if k in pos]
    ri = [pos[target[i]] for i in ti]
    out = np.full((len(target), len(target)), np.nan)
    out[np.ix_(ti, ti)] = m[np.ix_(ri, ri)]
    return out


def _moved(keys, old, new, tol, metric, worse_is_lower):
    with np.errstate(all="ignore"):
        ratio = new / old
    hit = np.argwhere(np.abs(ratio - 1) > tol)
    out = [{"src": keys[i], "dst": keys[j], "metric": metric,
            "before": float(old[i, j]), "after": float(new[i, j]),
            "change_pct": round(float(ratio[i, j] - 1) * 100, 2),
            "worse": bool((ratio[i, j] < 1) == worse_is_lower)}
           for i, j in hit]
    return sorted(out, key=lambda x: -abs(x["change_pct"]))


def _nanmed(m, axis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmedian(m, axis=axis)


def compare(con, a, b, pct=None):
    """The links and nodes of run b that moved from run a beyond b's
    resolution (the wider of the two runs' tolerances)."""
    ka, bwa, lta, ea = load_sweep(con, a)
    kb, bwb, ltb, eb = load_sweep(con, b)
    ta, tb = tolerances(ea, pct), tolerances(eb, pct)
    tol = (max(ta[0], tb[0]), max(ta[1], tb[1]))
    bwa, lta = align(ka, bwa, kb), align(ka, lta, kb)
    links = _moved(kb, bwa, bwb, tol[0], "bw_mb_s", True) + \
        _moved(kb, lta, ltb, tol[1], "lat_us", False)
    nodes = []
    for metric, old, new, t, low in (("bw_mb_s", bwa, bwb, tol[0], True),
                                     ("lat_us", lta, ltb, tol[1], False)):
        mo, mn = _nanmed(old, 1), _nanmed(new, 1)
        with np.errstate(all="ignore"):
            r = mn / mo
        for i in np.argwhere(np.abs(r - 1) > t).ravel():
            nodes.append({"node": kb[i], "metric": metric,
                          "before": float(mo[i]), "after": float(mn[i]),
                          "change_pct": round(float(r[i] - 1) * 100, 2),
                          "worse": bool((r[i] < 1) == low)})
    return {"before": a, "after": b, "tolerance_pct":
            {"bw": tol[0] * 100, "lat": tol[1] * 100},
            "only_before": sorted(set(ka) - set(kb)),
            "only_after": sorted(set(kb) - set(ka)),
            "links": links, "nodes": nodes}


def _key_of(keys, name):
    """A rank's key from a key or a host name (one rank on that host)."""
    if name in keys:
        return keys.index(name)
    hits = [i for i, k in enumerate(keys) if host_of(k) == name]
    return hits[0] if len(hits) == 1 else None


def trend_link(con, src, dst, metric, last):
    out = []
    for rid, t, verdict in _sweeps(con, last):
        keys = [r[0] for r in con.execute(
            "SELECT key FROM ranks WHERE run = ? ORDER BY rank", (rid,))]
        i, j = _key_of(keys, src), _key_of(keys, dst)
        if i is None or j is None:
            continue
        col = "bw" if metric == "bw_mb_s" else "lat"
        blob = con.execute("SELECT %s FROM links WHERE run = ? AND src = ?"
                           % col, (rid, i)).fetchone()[0]
        v = float(unpack(blob)[j])
        out.append({"run": rid, "start_time": t, "verdict": verdict,
                    "value": None if v != v else v})
    return {"link": [src, dst], "metric": metric, "points": out}


def trend_host(con, host, metric, last):
    """A host's figure per run: its median link in each sweep (out for
    bandwidth), its pair tools' best bandwidth or lowest median latency."""
    col = "bw_out" if metric == "bw_mb_s" else "lat"
    pts = [{"run": r, "start_time": t, "verdict": v, "tool": tool,
            "value": x} for r, t, v, tool, x in con.execute(
        "SELECT runs.id, start_time, verdict, tool, %s FROM ranks JOIN runs "
        "ON runs.id = ranks.run WHERE ranks.host = ? OR ranks.key = ?" % col,
        (host, host))]
    agg = "MAX(bw_mb_s)" if metric == "bw_mb_s" else "MIN(p50_us)"
    pts += [{"run": r, "start_time": t, "verdict": v, "tool": tool,
             "value": x} for r, t, v, tool, x in con.execute(
        "SELECT runs.id, start_time, verdict, tool, %s FROM results JOIN runs"
        " ON runs.id = results.run WHERE runs.host = ? GROUP BY runs.id"
        % agg, (host,)) if x is not None]
    pts.sort(key=lambda p: (p["start_time"] or "", p["run"]))
    return {"host": host, "metric": metric, "points": pts[-last:]}


def _flagged(con, rid):
    """What run rid named or flagged: suspects by kind and name, suspect
    nodes, and outlying links (by rank keys) that no suspect explains."""
    keys = {r: k for r, k in con.execute(
        "SELECT rank, key FROM ranks WHERE run = ?", (rid,))}
    got, covered = set(), set()
    for kind, name, rk in con.execute(
            "SELECT kind, name, ranks FROM suspects WHERE run = ?", (rid,)):
        got.add((kind, name.split(" (")[0]))
        covered.update(json.loads(rk or "[]"))
    for (k,) in con.execute("SELECT key FROM ranks WHERE run = ? AND "
                            "suspect = 1", (rid,)):
        got.add(("rank", host_of(k)))
    for s, d, m in con.execute("SELECT src, dst, metric FROM outliers "
                               "WHERE run = ?", (rid,)):
        if s in covered or d in covered:
            continue  # a suspect of this run explains it
        got.add(("link", "%s -> %s %s" % (keys.get(s), keys.get(d), m)))
    return got


def intermittent(con, last, least):
    window = _sweeps(con, last)
    count, where = {}, {}
    for rid, _, _ in window:
        for e in _flagged(con, rid):
            count[e] = count.get(e, 0) + 1
            where.setdefault(e, []).append(rid)
    hits = [{"kind": k, "name": n, "runs": where[(k, n)],
             "times": c, "of": len(window),
             "persistent": c == len(window)}
            for (k, n), c in count.items() if c >= least]
    hits.sort(key=lambda h: (-h["times"], h["kind"], h["name"]))
    return {"window": [r[0] for r in window], "least": least, "hits": hits}


def _fit_loss(y):
    """Per series (last axis: runs): the fitted line's change from the first
    run to the last, as a fraction of its first value."""
    n = y.shape[-1]
    x = np.arange(n, dtype=float)
    ok = ~np.isnan(y)
    cnt = ok.sum(-1)
    with np.errstate(all="ignore"):
        mx = (ok * x).sum(-1) / cnt
        my = np.where(ok, y, 0).sum(-1) / cnt
        dx = np.where(ok, x - mx[..., None], 0)
        slope = (dx * np.where(ok, y - my[..., None], 0)).sum(-1) / \
            (dx * dx).sum(-1)
        first = my - slope * mx
        change = slope * (n - 1) / first
    return np.where(cnt >= 3, change, np.nan)


def drift(con, last, pct=None, max_items=50):
    """Nodes and links whose fitted figure over the last passing sweeps lost
    more than the resolution, though each of those runs passed."""
    window = _sweeps(con, last, passing=True)
    if len(window) < 3:
        return {"window": [r[0] for r in window], "nodes": [], "links": [],
                "note": "fewer than 3 passing sweeps: no trend to fit"}
    keys, _, _, extra = load_sweep(con, window[-1][0])
    tol = tolerances(extra, pct)
    stack = {"bw_mb_s": [], "lat_us": []}
    for rid, _, _ in window:
        k, bw, lat, _ = load_sweep(con, rid)
        stack["bw_mb_s"].append(align(k, bw, keys).astype("f4"))
        stack["lat_us"].append(align(k, lat, keys).astype("f4"))
    nodes, links = [], []
    for m, t, sign in (("bw_mb_s", tol[0], -1), ("lat_us", tol[1], 1)):
        s = np.stack(stack[m], axis=-1)
        loss = _fit_loss(s) * sign
        for i, j in np.argwhere(loss > t):
            links.append({"src": keys[i], "dst": keys[j], "metric": m,
                          "change_pct": round(float(loss[i, j]) * 100 * sign,
                                              2)})
        node = _fit_loss(_nanmed(s, 1)) * sign
        for i in np.argwhere(node > t).ravel():
            nodes.append({"node": keys[i], "metric": m, "change_pct":
                          round(float(node[i]) * 100 * sign, 2)})
    links.sort(key=lambda x: -abs(x["change_pct"]))
    return {"window": [r[0] for r in window], "tolerance_pct":
            {"bw": tol[0] * 100, "lat": tol[1] * 100}, "nodes": nodes,
            "links_total": len(links), "links": links[:max_items]}


def baseline(con, last, version):
    """A cxi_sweep document whose links are the per-link median of the last
    `last` passing sweeps, laid out as the newest of them: what
    cxi_sweep --baseline reads (lib/sweep/model/baseline.c)."""
    window = _sweeps(con, last, passing=True)
    if not window:
        raise InputError("no passing sweep in the archive to build a "
                         "baseline from")
    newest = window[-1][0]
    keys, _, _, extra = load_sweep(con, newest)
    bws, lats = [], []
    for rid, _, _ in window:
        k, bw, lat, _ = load_sweep(con, rid)
        bws.append(align(k, bw, keys))
        lats.append(align(k, lat, keys))
    bw, lat = _nanmed(np.stack(bws), 0), _nanmed(np.stack(lats), 0)
    ranks = [dict(zip(("rank", "host", "address", "nic", "switch", "group"),
                      r)) for r in con.execute(
        "SELECT rank, host, address, nic, switch, grp FROM ranks WHERE run = "
        "? ORDER BY rank", (newest,))]
    ranks = [{k: v for k, v in r.items() if v is not None} for r in ranks]

    def nulls(m):
        return [[None if v != v else round(float(v), 4) for v in row]
                for row in m]
    return {"schema_version": 1, "kind": "sweep", "tool": "cxi_sweep",
            "version": version, "host": extra.get("host"),
            "start_time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "command": ["cxi_archive", "baseline", "--last", str(last)],
            "provider": extra.get("provider") or "",
            "options": extra.get("options") or {},
            "ranks": ranks, "bw_mb_s": nulls(bw), "lat_us": nulls(lat),
            "resolution": extra.get("resolution") or {},
            "outliers": [], "verdict": "PASS", "seconds": 0,
            "baseline_of": {"runs": [r[0] for r in window],
                            "how": "per-link median"}}
