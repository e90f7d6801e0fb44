#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""cxi_plot: draw the --json output of the cxd tools as PNG or SVG charts.

Bandwidth runs: bandwidth and packet (or atomic op) rate against size.
Latency runs: min/p50/p90/p99/p99.9/max against size, and the histogram of
every latency when the run used --report-all. Several runs of one kind share
a chart, one colour per run, labelled by what tells them apart (tool,
provider, peer, device, sizes; the file name only when nothing else does).
A cxi_sweep document: its bandwidth and latency matrices as heatmaps,
outliers outlined, suspect ranks' rows and columns framed, and the ratio to
a baseline run when the document has one.
A cxi_sweep --matrix file (binary, told by its magic): the two heatmaps,
in blocks of links past a few hundred ranks.

Exit status: 0 drawn, 1 the chart could not be written (or no matplotlib),
2 bad command line or input (the message names the file and the problem).
"""

import argparse
import json
import math
import os
import sys

# The sweep's heatmaps: beside this file in the source tree, in
# PREFIX/share/cxd once installed (as PREFIX/bin/cxi_plot).
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "share", "cxd")]
sys.dont_write_bytecode = True  # no __pycache__ in an installed tree
import cxi_plot_sweep  # noqa: E402

PROG = "cxi_plot"


def suite_version():
    """The suite's version: PREFIX/share/cxd/version once installed (CMake
    writes it from include/cxd/config.h), that header in the source tree."""
    try:
        with open(os.path.join(HERE, "..", "share", "cxd", "version")) as f:
            return f.read().strip()
    except OSError:
        pass
    try:
        with open(os.path.join(HERE, "..", "include", "cxd", "config.h")) as f:
            for line in f:
                if line.startswith("#define CXD_SUITE_VERSION "):
                    return line.split('"')[1]
    except OSError:
        pass
    return "unknown"
FORMATS = (".png", ".svg")
OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.01, 1),
           "fontsize": "small"}
# key, name, line style, marker: min and max both dotted, told apart by
# their markers
PERCENTILES = (("min_us", "min", ":", "v"), ("p50_us", "p50", "-", "."),
               ("p90_us", "p90", "--", "."), ("p99_us", "p99", "-.", "."),
               ("p999_us", "p99.9", (0, (5, 1, 1, 1, 1, 1)), "."),
               ("max_us", "max", (0, (1, 2)), "^"))


class InputError(Exception):
    """Bad input: reported with exit status 2."""


# ---- reading and checking the documents -------------------------------


def peek(path):
    """The first bytes: a --matrix file is told by its magic, whatever its
    name."""
    try:
        with open(path, "rb") as f:
            return f.read(cxi_plot_sweep.HEAD)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from e


def load(path):
    head = peek(path)
    if head.startswith(cxi_plot_sweep.MAGIC):
        try:
            return {"kind": "matrix", "path": path,
                    "doc": cxi_plot_sweep.read_matrix_head(path)}
        except ValueError as e:
            raise InputError(str(e)) from e
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        if b"\0" in head:  # JSON has no NUL: binary, a damaged --matrix?
            raise InputError(
                f"{path} is neither JSON nor a cxi_sweep --matrix file (it "
                f"starts with {head[:8]!r}, not the magic "
                f"{cxi_plot_sweep.MAGIC.decode()})") from e
        raise InputError(f"{path} is not JSON: {e}") from e
    tool = doc.get("tool") if isinstance(doc, dict) else None
    if not isinstance(tool, str) or not tool.startswith("cxi_"):
        raise InputError(f"{path} is not the --json output of a cxd tool "
                         "(no \"tool\": \"cxi_...\" key)")
    if tool == "cxi_sweep" and "congestion" in doc:
        return {"kind": "congestion", "path": path,
                "doc": check_congestion(path, doc)}
    if tool == "cxi_sweep":
        try:
            return {"kind": "sweep", "path": path,
                    "doc": cxi_plot_sweep.check_sweep(path, doc)}
        except ValueError as e:
            raise InputError(str(e)) from e
    kind = "lat" if tool.endswith("_lat") else "bw" if tool.endswith("_bw") \
        else None
    if kind is None:
        raise InputError(f"{path}: tool '{tool}' is not one cxi_plot knows")
    rows = doc.get("results")
    if not isinstance(rows, list) or not rows:
        raise InputError(f"{path}: no \"results\" rows to plot")
    key = "p50_us" if kind == "lat" else "bw_mb_s"
    rows = [r for r in rows if isinstance(r, dict)
            and number(r.get("size")) and number(r.get(key))]
    if not rows:
        why = ("a latency server's report (the figures are in the "
               "client's)" if kind == "lat" else "rows without bw_mb_s")
        raise InputError(f"{path}: nothing to plot: {why}")
    return {"kind": kind, "path": path, "doc": doc, "rows": rows}


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) \
        and math.isfinite(v)


def run_facts(run):
    """What a run is, in the words a legend or title would use."""
    doc, rows = run["doc"], run["rows"]
    peer = str(doc.get("peer") or "")
    lo, hi = min(r["size"] for r in rows), max(r["size"] for r in rows)
    sizes = f"{fmt_size(lo)} B" if lo == hi else \
        f"{fmt_size(lo)}-{fmt_size(hi)} B"
    return {"tool": doc["tool"], "provider": str(doc.get("provider", "")),
            "peer": peer.rsplit(":", 1)[0] if ":" in peer else peer,
            "device": str(doc.get("device", "")), "sizes": sizes}


def label_runs(runs):
    """Each run's label: the facts that differ between the runs (the file
    name when none does); the facts they share go in the title."""
    facts = [run_facts(r) for r in runs]
    same = {k: v for k, v in facts[0].items()
            if v and all(f[k] == v for f in facts)}
    differ = [k for k in facts[0] if k not in same] if len(runs) > 1 \
        else ["tool", "provider"]
    if "provider" in differ and "device" in differ:
        differ.remove("device")  # each provider names its own devices
    for run, f in zip(runs, facts):
        words = [f[k] for k in differ if f[k]]
        run["label"] = " ".join(words) if words else \
            os.path.splitext(os.path.basename(run["path"]))[0]
    return same


def one_kind(runs):
    kinds = sorted({r["kind"] for r in runs})
    if len(kinds) > 1:
        names = {"bw": "bandwidth", "lat": "latency", "sweep": "sweep",
                 "congestion": "cxi_sweep --congestion",
                 "matrix": "cxi_sweep --matrix"}
        firsts = [next(r["path"] for r in runs if r["kind"] == k)
                  for k in kinds]
        raise InputError("cannot share a chart: " + ", ".join(
            f"{p} is a {names[k]} run" for p, k in zip(firsts, kinds)) +
            "; plot each kind into its own file")
    if kinds[0] in ("sweep", "congestion", "matrix") and len(runs) > 1:
        raise InputError("one cxi_sweep document per chart (got "
                         f"{len(runs)})")
    return kinds[0]


# ---- drawing -----------------------------------------------------------


def fmt_size(v, _pos=None):
    """Byte sizes on the log2 axis: 1, 512, 4K, 1M (IEC)."""
    if v <= 0:
        return ""
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if v >= 1 << shift:
            q = v / (1 << shift)
            return f"{q:g}{unit}"
    return f"{v:g}"


def fmt_num(v, _pos=None):
    """Plain numbers on log axes: 0.5, 20, 3000 rather than 10^x."""
    return f"{v:g}" if v > 0 else ""


def log_ticks(axis, ticker):
    """A log axis labelled at steps that keep a few labels and no crowd:
    powers of ten past three decades shown, 1-2-5 down to one decade,
    1-2-3-5 or every multiple on narrower ones."""
    lo, hi = sorted(axis.get_view_interval())
    decades = math.log10(hi / lo) if lo > 0 else 9
    subs = (1.0,) if decades > 3 else (1.0, 2.0, 5.0) if decades > 1 \
        else (1.0, 2.0, 3.0, 5.0) if decades > 0.5 \
        else tuple(float(k) for k in range(1, 10))
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(fmt_num))
    axis.set_minor_formatter(ticker.NullFormatter())


def value_axis(ax, ticker):
    """Log scale (small and large sizes differ by decades), readable ticks;
    after the lines are drawn, so that the view limits are known."""
    ax.set_yscale("log")
    ax.autoscale_view()
    log_ticks(ax.yaxis, ticker)


def size_axis(ax, ticker, label=True):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(ticker.LogLocator(base=2, numticks=16))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(fmt_size))
    if label:
        ax.set_xlabel("Message size [bytes]")
    ax.grid(True, which="major", alpha=0.3)


def col(rows, key):
    pts = [(r["size"], r.get(key)) for r in rows if number(r.get(key))]
    return [p[0] for p in pts], [p[1] for p in pts]


def draw_bw(plt, ticker, runs, title):
    fig, (ax_bw, ax_rate) = plt.subplots(2, 1, figsize=(10, 8), sharex=True,
                                         layout="constrained")
    for i, run in enumerate(runs):
        for ax, key in ((ax_bw, "bw_mb_s"), (ax_rate, "pkt_rate_mpkt_s")):
            x, y = col(run["rows"], key)
            ax.plot(x, y, marker="o", color=f"C{i % 10}",
                    label=run["label"])
    atomic = [r["doc"]["tool"].startswith("cxi_atomic") for r in runs]
    rate = ("OpRate [Mop/s]" if all(atomic) else "PktRate [Mpkt/s]"
            if not any(atomic) else "Rate [M/s] (packets; ops for atomics)")
    ax_bw.set_ylabel("BW [MB/s] (MB = 10^6 bytes)")
    ax_rate.set_ylabel(rate)
    size_axis(ax_bw, ticker, label=False)  # shared: named once, below
    size_axis(ax_rate, ticker)
    value_axis(ax_bw, ticker)
    value_axis(ax_rate, ticker)
    ax_bw.set_title("Bandwidth against message size")
    ax_rate.set_title(rate.split(" [")[0] + " against message size")
    ax_bw.legend(**OUTSIDE)
    fig.suptitle(title)
    return fig


def hist_runs(runs, want):
    """Per run, the --report-all samples of the size to show, or None."""
    out = []
    for i, run in enumerate(runs):
        rows = [r for r in run["rows"] if isinstance(
            r.get("latencies_us"), list) and r["latencies_us"]]
        if want is not None:
            rows = [r for r in rows if r["size"] == want]
        if rows:
            r = min(rows, key=lambda r: r["size"])
            out.append((i, run, r["size"],
                        [v for v in r["latencies_us"] if number(v)]))
    return out


def draw_lat_lines(ax, runs, ticker):
    from matplotlib.lines import Line2D
    used = set()
    for i, run in enumerate(runs):
        c = f"C{i % 10}"
        for key, _name, style, mark in PERCENTILES:
            x, y = col(run["rows"], key)
            if y:
                used.add(key)
                ax.plot(x, y, color=c, linestyle=style, marker=mark)
    size_axis(ax, ticker)
    value_axis(ax, ticker)
    ax.set_ylabel("Latency [us]")
    ax.set_title("Latency percentiles against message size")
    # Two legends: colour names the run, line style the percentile.
    runs_leg = ax.legend(handles=[
        Line2D([], [], color=f"C{i % 10}", label=r["label"])
        for i, r in enumerate(runs)], **OUTSIDE)
    ax.add_artist(runs_leg)
    ax.legend(handles=[Line2D([], [], color="black", linestyle=s, marker=m,
                              label=n)
                       for k, n, s, m in PERCENTILES if k in used],
              loc="lower left", bbox_to_anchor=(1.01, 0), fontsize="small",
              title="percentile")


def draw_hist(ax, ticker, hists):
    lo = min(min(h[3]) for h in hists)
    hi = max(max(h[3]) for h in hists)
    lo, hi = max(lo, 1e-3), max(hi, lo * 1.01)
    bins = [lo * (hi / lo) ** (k / 60) for k in range(61)]
    # Log-spaced bins: latency tails span decades.
    for i, run, size, vals in hists:
        ax.hist(vals, bins=bins, histtype="step", linewidth=1.5,
                color=f"C{i % 10}",
                label=f"{run['label']}: {size} B, {len(vals)} samples"
                if len(hists) > 1 else f"{size} B, {len(vals)} samples")
    ax.set_xscale("log")
    ax.autoscale_view()
    log_ticks(ax.xaxis, ticker)
    ax.set_xlabel("Latency [us]")
    ax.set_ylabel("Samples")
    ax.set_title("Latency histogram (--report-all)")
    ax.legend(**OUTSIDE)
    ax.grid(True, alpha=0.3)


def draw_lat(plt, ticker, runs, title, hist_size):
    hists = hist_runs(runs, hist_size)
    if hist_size is not None and not hists:
        raise InputError(f"no run has --report-all latencies for size "
                         f"{hist_size} (--hist-size)")
    nplots = 2 if hists else 1
    fig, axes = plt.subplots(nplots, 1, figsize=(10, 4.5 * nplots + 1),
                             layout="constrained")
    axes = axes if nplots > 1 else [axes]
    draw_lat_lines(axes[0], runs, ticker)
    if hists:
        draw_hist(axes[1], ticker, hists)
    fig.suptitle(title)
    return fig


# ---- cxi_sweep --congestion (its own block) ----------------------------

CG_METRICS = [("lat_mean_us", "lat mean"), ("lat_p99_us", "lat p99"),
              ("lat_p99.9_us", "lat p99.9"), ("bw_mb_s", "bandwidth")]


def check_congestion(path, doc):
    c = doc["congestion"]
    ok = isinstance(c, dict) and isinstance(c.get("set"), dict) \
        and isinstance(c.get("links"), list)
    pats = [p for p in (c.get("set") or {}) if p != "isolated"] if ok else []
    if not pats or not all(isinstance(c["set"][p].get("impact"), dict)
                           for p in pats):
        raise InputError(f"{path}: \"congestion\" has no impact figures "
                         "(\"set\" with patterns and their \"impact\")")
    return doc


def cg_bars(ax, groups, series, values, what):
    """Grouped bars of impact factors on a log axis, 1 marked."""
    width = 0.8 / max(len(series), 1)
    for i, name in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width
              for g in range(len(groups))]
        ys = [values[g][i] for g in range(len(groups))]
        ax.bar([x for x, y in zip(xs, ys) if number(y)],
               [y for y in ys if number(y)], width, label=name)
    ax.axhline(1.0, color="black", linewidth=1, linestyle="--")
    ax.set_yscale("log")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=20, ha="right")
    ax.set_ylabel("impact (loaded / isolated; bandwidth inverted)")
    ax.set_title(what)
    ax.legend(fontsize="small")
    ax.grid(True, axis="y", which="both", alpha=0.3)


def draw_congestion(plt, doc, title):
    c = doc["congestion"]
    pats = [p for p in c["set"] if p != "isolated"]
    fig, (a, b) = plt.subplots(1, 2, figsize=(15, 6), layout="constrained")
    cg_bars(a, pats, [m[1] for m in CG_METRICS],
            [[c["set"][p]["impact"].get(k) for k, _ in CG_METRICS]
             for p in pats], f"victim set ({len(c['links'])} links)")
    links = [f"{l['src']}->{l['dst']}" for l in c["links"]]
    cg_bars(b, links, pats,
            [[l["phases"][p]["impact"].get("lat_mean_us") for p in pats]
             for l in c["links"]], "per victim link: mean latency")
    fig.suptitle(title)
    return fig


def congestion_title(doc):
    c = doc["congestion"]
    return f"cxi_sweep --congestion: {len(c.get('victims', []))} victims, " \
        f"{len(c.get('aggressors', []))} aggressors over " \
        f"{c.get('provider', '?')}"


# ---- command line ------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG, description="Draw the --json output of cxd tools "
        "(bandwidth, latency, cxi_sweep) or a cxi_sweep --matrix file as a "
        "PNG or SVG chart.")
    p.add_argument("runs", nargs="+", metavar="RUN.json",
                   help="--json output of a cxd tool, or a cxi_sweep "
                   "--matrix file; several runs of one kind share the chart")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the chart: FILE.png or FILE.svg")
    p.add_argument("--title", help="title above the chart")
    p.add_argument("-V", "--version", action="version",
                   version="%s version %s" % (PROG, suite_version()))
    p.add_argument("--hist-size", type=int, metavar="BYTES",
                   help="latency histogram of this size (default: the "
                   "smallest size with --report-all samples)")
    return p.parse_args(argv)


def default_title(kind, runs):
    if kind == "congestion":
        return congestion_title(runs[0]["doc"])
    if kind == "sweep":
        return cxi_plot_sweep.sweep_title(runs[0]["doc"])
    if kind == "matrix":
        return cxi_plot_sweep.matrix_title(runs[0]["doc"])
    same = label_runs(runs)
    tools = []
    for r in runs:
        if r["doc"]["tool"] not in tools:
            tools.append(r["doc"]["tool"])
    words = [", ".join(tools)]
    if same.get("provider"):
        words.append(f"over {same['provider']}")
    if same.get("peer"):
        words.append(f"to {same['peer']}")
    if same.get("device") not in (None, same.get("provider")):
        words.append(f"on {same['device']}")  # shm's device is "shm"
    return " ".join(words)


def main(argv):
    args = parse_args(argv)
    ext = os.path.splitext(args.output)[1].lower()
    try:
        if ext not in FORMATS:
            raise InputError(f"unknown output format '{ext or '(none)'}' in "
                             f"{args.output}: use .png or .svg")
        if args.hist_size is not None and args.hist_size <= 0:
            raise InputError(f"--hist-size {args.hist_size}: must be > 0")
        runs = [load(p) for p in args.runs]
        kind = one_kind(runs)
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only, never a display
        # names come from documents: a '$' in one is text, not TeX
        matplotlib.rcParams["text.parse_math"] = False
        import matplotlib.pyplot as plt
        from matplotlib import ticker
    except ImportError as e:
        print(f"{PROG}: needs matplotlib ({e}); on Debian: apt-get install "
              "python3-matplotlib", file=sys.stderr)
        return 1
    # SVG keeps its text as text, so labels can be searched and checked.
    matplotlib.rcParams["svg.fonttype"] = "none"
    title = default_title(kind, runs)  # labels the runs too
    title = args.title or title
    try:
        if kind == "congestion":
            fig = draw_congestion(plt, runs[0]["doc"], title)
        elif kind == "sweep":
            fig = cxi_plot_sweep.draw_sweep(plt, runs[0]["doc"], title)
        elif kind == "matrix":
            fig = cxi_plot_sweep.draw_matrix_file(plt, runs[0]["doc"], title)
        elif kind == "lat":
            fig = draw_lat(plt, ticker, runs, title, args.hist_size)
        else:
            fig = draw_bw(plt, ticker, runs, title)
    except (InputError, EOFError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    try:
        fig.savefig(args.output, dpi=100, bbox_inches="tight")
    except OSError as e:
        print(f"{PROG}: cannot write {args.output}: {e.strerror}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
