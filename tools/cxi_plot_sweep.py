# SPDX-License-Identifier: BSD-3-Clause
"""cxi_plot's drawing of a cxi_sweep document (imported by cxi_plot).

The bandwidth and latency matrices as heatmaps: outliers outlined in red,
each suspect rank's row and column in a dashed frame, and, when the sweep
was compared with a baseline run, the ratio to it per link on a diverging
scale centred on 1. Bad input raises ValueError with the message to print.

A cxi_sweep --matrix file (binary, any scale): the same two heatmaps; past
PER_CELL ranks each cell is a block of links, read a chunk of rows at a
time, drawn as its worst link (lowest bandwidth, highest latency) so that
a slow link stays visible.
"""

import json
import math
import os
import struct


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) \
        and math.isfinite(v)


def check_matrix(path, doc, key, n):
    m = doc.get(key)
    if not isinstance(m, list) or len(m) != n or any(
            not isinstance(r, list) or len(r) != n for r in m):
        raise ValueError(f"{path}: \"{key}\" is not a {n} x {n} matrix")
    for i, row in enumerate(m):
        for j, v in enumerate(row):
            if v is not None and not number(v):
                raise ValueError(f"{path}: {key}[{i}][{j}] is not a number")
    return m


def check_sweep(path, doc):
    ranks = doc.get("ranks")
    if not isinstance(ranks, list) or len(ranks) < 2 or not all(
            isinstance(r, dict) for r in ranks):
        raise ValueError(f"{path}: \"ranks\" must list at least 2 ranks")
    n = len(ranks)
    check_matrix(path, doc, "bw_mb_s", n)
    check_matrix(path, doc, "lat_us", n)
    outs = doc.get("outliers", [])
    if not isinstance(outs, list):
        raise ValueError(f"{path}: \"outliers\" is not a list")
    for o in outs:
        ok = isinstance(o, dict) and o.get("metric") in ("bw_mb_s", "lat_us")
        ok = ok and all(isinstance(o.get(k), int) and 0 <= o[k] < n
                        for k in ("src", "dst"))
        if not ok:
            raise ValueError(f"{path}: bad outlier entry {json.dumps(o)} "
                             "(needs src, dst < ranks and metric bw_mb_s "
                             "or lat_us)")
    check_baseline(path, doc, n)
    check_suspects(path, doc, n)
    return doc


def check_baseline(path, doc, n):
    base = doc.get("baseline")
    if base is None:
        return
    if not isinstance(base, dict):
        raise ValueError(f"{path}: \"baseline\" is not an object")
    for key in ("bw_ratio", "lat_ratio"):
        if key in base:
            check_matrix(path, base, key, n)


def check_suspects(path, doc, n):
    sus = doc.get("suspects", [])
    if not isinstance(sus, list) or not all(
            isinstance(x, dict) and isinstance(x.get("rank"), int)
            and 0 <= x["rank"] < n for x in sus):
        raise ValueError(f"{path}: \"suspects\" must list objects with a "
                         f"\"rank\" below {n}")


# ---- drawing -----------------------------------------------------------


def rank_labels(doc):
    """"rank host", or "rank host:nic" where hosts repeat and NICs tell the
    ranks apart."""
    ranks = doc["ranks"]
    hosts = [r.get("host") for r in ranks]
    repeat = len(set(hosts)) < len(hosts)
    out = []
    for i, r in enumerate(ranks):
        name = r.get("host") or ""
        if repeat and r.get("nic"):
            name = f"{name}:{r['nic']}"
        out.append(f"{r.get('rank', i)} {name}".strip())
    return out


TICKS_MAX = 40


def ticks(labels):
    """Every rank's label up to TICKS_MAX ranks; beyond, every k-th rank's
    number only (hundreds of labels overprint into a black band)."""
    n = len(labels)
    if n <= TICKS_MAX:
        return list(range(n)), labels
    idx = list(range(0, n, -(-n // TICKS_MAX)))
    return idx, [str(i) for i in idx]


def cell_text(ax, im, m, fmt):
    """Values in the cells while they stay readable, in a colour that
    shows on the cell."""
    n = m.shape[0]
    if n > 16:
        return
    for i in range(n):
        for j in range(n):
            if not m.mask[i, j]:
                v = float(m[i, j])
                r, g, b, _ = im.cmap(im.norm(v))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(j, i, fmt(v), ha="center", va="center", fontsize=7,
                        color="white" if dark else "black")


def frame_suspects(ax, doc, n):
    """A suspect rank: its row (as source) and column (as destination)."""
    import matplotlib.patches
    for k, s in enumerate(doc.get("suspects", [])):
        r = s["rank"]
        for xy, w, h in (((-0.5, r - 0.5), n, 1), ((r - 0.5, -0.5), 1, n)):
            ax.add_patch(matplotlib.patches.Rectangle(
                xy, w, h, fill=False, edgecolor="darkorange",
                linewidth=2, linestyle="--", zorder=3))


def heatmap(fig, ax, doc, m, spec):
    """spec: what (colour bar), cmap, norm, fmt, key (outliers' metric)."""
    import matplotlib
    import matplotlib.patches
    import numpy as np
    n = len(doc["ranks"])
    m = np.ma.masked_invalid(np.array(
        [[math.nan if v is None else v for v in row] for row in m],
        dtype=float))
    cm = matplotlib.colormaps[spec["cmap"]].copy()
    cm.set_bad("lightgrey")
    im = ax.imshow(m, cmap=cm, norm=spec["norm"](m), interpolation="nearest")
    fig.colorbar(im, ax=ax, shrink=0.8, label=spec.get("bar", spec["what"]))
    at, labels = ticks(rank_labels(doc))
    ax.set_xticks(at, labels=labels, rotation=90, fontsize="small")
    ax.set_yticks(at, labels=labels, fontsize="small")
    ax.set_xlabel("destination rank")
    ax.set_ylabel("source rank")
    cell_text(ax, im, m, spec["fmt"])
    marked = 0
    for o in doc.get("outliers", []):
        if o["metric"] == spec.get("key"):
            marked += 1
            ax.add_patch(matplotlib.patches.Rectangle(
                (o["dst"] - 0.5, o["src"] - 0.5), 1, 1, fill=False,
                edgecolor="red", linewidth=2.5, zorder=4))
    frame_suspects(ax, doc, n)
    title = spec["what"]
    if "key" in spec:
        title += f": {marked} outlier{'s' if marked != 1 else ''}"
        title += " (red boxes)" if marked else ""
    ax.set_title(title, loc="left")


def from_zero(m):
    import matplotlib.colors
    # From 0, so that a healthy matrix looks even rather than alarming.
    top = float(m.max()) if m.count() else 1.0
    return matplotlib.colors.Normalize(vmin=0, vmax=top or 1.0)


def lat_norm(m):
    import matplotlib.colors
    import numpy as np
    # Typical links mid-scale, twice the median or worse at the dark end:
    # an even matrix looks even, a slow link stands out.
    vals = m.compressed()
    top = max(float(vals.max()), 2 * float(np.median(vals))) \
        if vals.size else 1.0
    return matplotlib.colors.Normalize(vmin=0, vmax=top or 1.0)


def around_one(m):
    import matplotlib.colors
    lo = float(m.min()) if m.count() else 1.0
    hi = float(m.max()) if m.count() else 1.0
    return matplotlib.colors.TwoSlopeNorm(vcenter=1.0, vmin=min(lo, 0.9),
                                          vmax=max(hi, 1.1))


def val_fmt(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def draw_sweep(plt, doc, title):
    n = len(doc["ranks"])
    base = doc.get("baseline") or {}
    ratios = [k for k in ("bw_ratio", "lat_ratio") if k in base]
    rows = 2 if ratios else 1
    side = min(7 + n * 0.15, 24)
    fig, axes = plt.subplots(rows, 2, figsize=(2 * side, rows * side * 0.85),
                             layout="constrained", squeeze=False)
    heatmap(fig, axes[0][0], doc, doc["bw_mb_s"], {
        "what": "Bandwidth [MB/s]", "cmap": "viridis", "norm": from_zero,
        "fmt": val_fmt, "key": "bw_mb_s"})
    heatmap(fig, axes[0][1], doc, doc["lat_us"], {
        "what": "Latency [us]", "cmap": "viridis_r", "norm": lat_norm,
        "fmt": val_fmt, "key": "lat_us"})
    # Ratios to the baseline run: red is worse in both (less bandwidth,
    # more latency), white unchanged.
    name = os.path.basename(str(base.get("file", "baseline")))
    for ax, key, what, cmap in (
            (axes[-1][0], "bw_ratio", "Bandwidth", "RdBu"),
            (axes[-1][1], "lat_ratio", "Latency", "RdBu_r")):
        if not ratios:
            break
        if key not in base:
            ax.set_visible(False)
            continue
        heatmap(fig, ax, doc, base[key], {
            "what": f"{what} now / in baseline {name} (grey: no match)",
            "bar": "ratio (1 = unchanged)", "cmap": cmap,
            "norm": around_one, "fmt": lambda v: f"{v:.2f}"})
    fig.suptitle(title)
    return fig


def sweep_title(d):
    k = len(d.get("outliers", []))
    title = f"cxi_sweep: {len(d['ranks'])} ranks, {k} " \
        f"outlier{'s' if k != 1 else ''}"
    for s in d.get("suspects", []):
        where = ":".join(str(s[x]) for x in ("host", "nic") if s.get(x))
        bad = f", {s['bad']} of {s['links']} links bad" \
            if "bad" in s and "links" in s else ""
        title += f"\nsuspect (dashed frame): rank {s['rank']}" + \
            (f" ({where})" if where else "") + \
            (f" in {s['metric']}" if s.get("metric") else "") + bad
    return title


# ---- cxi_sweep --matrix FILE (layout: lib/sweep/model/matrix.h) ---------------

MAGIC = b"CXDSWMAT"
HEAD = 128      # magic, version, endian mark, n, size, repeat, tolerances,
REC = 512       # provider; then per rank host, address, NIC
HEAD_FMT = "<8sIIII QQ dd 64s"
MARK = 0x01020304
PER_CELL = 256  # ranks drawn one cell each (labelled); more go in blocks
CELLS = 512     # at most this many blocks a side


def matrix_bytes(n):
    return HEAD + REC * n + 16 * n * n


def cstr(raw):
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def read_matrix_head(path):
    """The head of a --matrix file, after checking it and the file's size
    (stdlib only: bad input is told before numpy or matplotlib load)."""
    with open(path, "rb") as f:
        raw = f.read(HEAD)
        have = os.fstat(f.fileno()).st_size
    if len(raw) < HEAD:
        raise ValueError(f"{path}: cut short: the --matrix head needs {HEAD}"
                         f" bytes, the file has {have}")
    magic, ver, mark, n, _, size, rep, tol_bw, tol_lat, prov = \
        struct.unpack_from(HEAD_FMT, raw)
    if magic != MAGIC:
        raise ValueError(f"{path}: starts with {magic!r}, not the --matrix "
                         f"magic {MAGIC.decode()}")
    if mark != MARK:
        raise ValueError(f"{path}: endian mark 0x{mark:08x}, not "
                         f"0x{MARK:08x}: written in another byte order")
    if ver != 1:
        raise ValueError(f"{path}: --matrix version {ver}, cxi_plot reads "
                         "version 1")
    if n < 2 or n > 1 << 20:
        raise ValueError(f"{path}: a --matrix file of {n} ranks (2 to "
                         f"{1 << 20})")
    if have != matrix_bytes(n):
        what = "cut short" if have < matrix_bytes(n) else "too long"
        raise ValueError(f"{path}: {what}: {n} ranks need "
                         f"{matrix_bytes(n)} bytes, the file has {have}")
    return {"path": path, "n": n, "size": size, "repeat": rep,
            "tol": (tol_bw, tol_lat), "provider": cstr(prov)}


def matrix_ranks(head):
    """The rank records as the JSON's "ranks" (only drawn per cell, so at
    most PER_CELL of them are read)."""
    out = []
    with open(head["path"], "rb") as f:
        f.seek(HEAD)
        for i in range(head["n"]):
            rec = f.read(REC)
            out.append({"rank": i, "host": cstr(rec[:256]),
                        "address": cstr(rec[256:416]),
                        "nic": cstr(rec[416:480])})
    return out


def matrix_off(n, metric):
    return HEAD + REC * n + metric * 8 * n * n


def matrix_map(head, metric):
    """Metric 0 (bandwidth) or 1 (latency), mapped rather than read."""
    import numpy as np
    n = head["n"]
    return np.memmap(head["path"], dtype="<f8", mode="r", shape=(n, n),
                     offset=matrix_off(n, metric))


def block_side(n):
    return 1 if n <= PER_CELL else max(2, -(-n // CELLS))


def block_reduce(head, metric, k, fn, rows=None):
    """The matrix in k x k blocks, each the fn (np.fmin or np.fmax: NaN
    only where a block has no figure) of its links. Read rows at a time
    (default about 32 MB; 10,000 ranks are 800 MB a matrix): only a chunk
    and the result are held (a memory map would count every page read in
    the process' resident size). EOFError: the file shrank meanwhile."""
    import numpy as np
    n = head["n"]
    nb = -(-n // k)
    out = np.full((nb, nb), np.nan)
    rows = rows or max(1, (32 << 20) // (8 * n))
    cols = np.arange(0, n, k)
    with open(head["path"], "rb") as f:
        f.seek(matrix_off(n, metric))
        for r0 in range(0, n, rows):
            count = min(rows, n - r0) * n
            part = np.fromfile(f, dtype="<f8", count=count)
            if part.size != count:
                raise EOFError(f"{head['path']}: cut short while being "
                               "read")
            part = fn.reduceat(part.reshape(-1, n), cols, axis=1)
            # a chunk may start or end inside a block of rows
            cut = [i for i in range(part.shape[0])
                   if i == 0 or (r0 + i) % k == 0]
            ids = [(r0 + i) // k for i in cut]
            out[ids] = fn(out[ids], fn.reduceat(part, cut, axis=0))
    return out


def block_heatmap(fig, ax, m, k, n, spec):
    """A reduced matrix on axes counted in ranks; no per-cell text (a cell
    is a few pixels)."""
    import matplotlib
    import numpy as np
    m = np.ma.masked_invalid(m)
    cm = matplotlib.colormaps[spec["cmap"]].copy()
    cm.set_bad("lightgrey")
    side = m.shape[0] * k
    im = ax.imshow(m, cmap=cm, norm=spec["norm"](m), interpolation="nearest",
                   extent=(0, side, side, 0))
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    fig.colorbar(im, ax=ax, shrink=0.8, label=spec["what"])
    ax.set_xlabel(f"destination rank (blocks of {k})")
    ax.set_ylabel(f"source rank (blocks of {k})")
    ax.set_title(f"{spec['what']}: the {spec['worst']} link of each "
                 f"{k} x {k} block", loc="left")


def draw_matrix_file(plt, head, title):
    import numpy as np
    n = head["n"]
    k = block_side(n)
    side = min(7 + n * 0.15, 24) if k == 1 else 14
    fig, axes = plt.subplots(1, 2, figsize=(2 * side, side * 0.85),
                             layout="constrained")
    doc = {"ranks": matrix_ranks(head)} if k == 1 else None
    for ax, metric, spec in (
            (axes[0], 0, {"what": "Bandwidth [MB/s]", "cmap": "viridis",
                          "norm": from_zero, "fn": np.fmin,
                          "worst": "slowest (lowest)"}),
            (axes[1], 1, {"what": "Latency [us]", "cmap": "viridis_r",
                          "norm": lat_norm, "fn": np.fmax,
                          "worst": "slowest (highest)"})):
        if k == 1:
            heatmap(fig, ax, doc, np.array(matrix_map(head, metric)),
                    dict(spec, fmt=val_fmt))
        else:
            block_heatmap(fig, ax, block_reduce(head, metric, k,
                                                spec["fn"]), k, n, spec)
    fig.suptitle(title)
    return fig


def matrix_title(head):
    return f"cxi_sweep --matrix file: {head['n']} ranks over " \
        f"{head['provider'] or '?'}\nbandwidth of {head['size']}-byte " \
        f"transfers, {head['repeat']} repeats"
