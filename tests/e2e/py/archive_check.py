# SPDX-License-Identifier: BSD-3-Clause
"""Checks on cxi_archive's --json answers (test_archive.sh). The last line
printed is the verdict; exit 1 on a failed check.

    archive_check.py WHAT FILE [MORE FILES]
"""
import html
import json
import re
import statistics
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def runs(d):
    times = [r["start_time"] for r in d]
    if times != sorted(times, reverse=True):
        fail("not newest first: %s" % times)
    fails = [r for r in d if r["verdict"] == "FAIL"]
    if len(fails) != 2 or not all(any("nid0005" in s for s in r["suspects"])
                                  for r in fails):
        fail("want 2 FAIL runs naming nid0005, got %s" % fails)
    if sum(r["kind"] == "pair" for r in d) != 1:
        fail("want the one pair run")
    return "%d runs, 2 failed naming nid0005" % len(d)


def compare_quiet(d):
    if d["links"] or d["nodes"]:
        fail("want nothing moved, got %d links, %d nodes"
             % (len(d["links"]), len(d["nodes"])))
    return "nothing moved beyond %g %%" % d["tolerance_pct"]["bw"]


def compare(d):
    nodes = [n["node"] for n in d["nodes"]]
    if nodes != ["nid0005:mpi"] or not d["nodes"][0]["worse"]:
        fail("want nid0005:mpi worse alone, got %s" % d["nodes"])
    bad = [x for x in d["links"] if "nid0005" not in x["src"] + x["dst"]]
    if len(d["links"]) != 30 or bad:
        fail("want nid0005's 30 links, got %d (%d others)"
             % (len(d["links"]), len(bad)))
    return "nid0005 %+.1f %%, its 30 links" % d["nodes"][0]["change_pct"]


def trend(d):
    pts = d["points"]
    if len(pts) != 8:
        fail("want 8 points, got %d" % len(pts))
    low = [p for p in pts if p["value"] < 0.8 * pts[0]["value"]]
    if [p["verdict"] for p in low] != ["FAIL", "FAIL"]:
        fail("want the 2 slowed runs low and failed: %s" % pts)
    return "8 points, the 2 slowed runs about 30 % low"


def intermittent(d):
    hit = [h for h in d["hits"] if h["name"] == "nid0005"]
    if not hit or hit[0]["times"] != 2 or hit[0]["of"] != 8 or \
            hit[0]["persistent"]:
        fail("want nid0005 in 2 of 8, got %s" % d["hits"])
    return "nid0005 in runs %s" % hit[0]["runs"]


def drift(d):
    nodes = sorted({n["node"] for n in d["nodes"]})
    if nodes != ["nid0010:mpi"]:
        fail("want nid0010:mpi alone, got %s" % d["nodes"])
    ch = [n["change_pct"] for n in d["nodes"] if n["metric"] == "bw_mb_s"]
    if not ch or not -12 < ch[0] < -3:
        fail("want a loss of 3-12 %%, got %s" % ch)
    return "nid0010 %+.1f %%, %d links" % (ch[0], d["links_total"])


def baseline(d, *runs):
    docs = [json.load(open(f)) for f in runs]
    n = len(d["ranks"])
    worst = 0.0
    for i in range(n):
        for j in range(n):
            vals = [x["bw_mb_s"][i][j] for x in docs]
            if None in vals:
                if d["bw_mb_s"][i][j] is not None:
                    fail("link %d->%d: want null" % (i, j))
                continue
            m = statistics.median(vals)
            worst = max(worst, abs(d["bw_mb_s"][i][j] / m - 1))
    if worst > 1e-6 or d["tool"] != "cxi_sweep":
        fail("want the per-link median, off by %g" % worst)
    return "%d ranks, every link the median (within %.1g)" % (n, worst)


def health(d):
    """runs --json of the archive of two cxi_node_health outputs."""
    if [r["kind"] for r in d] != ["health", "health"] or \
            {r["host"] for r in d} != {"nid0001"}:
        fail("want 2 health runs of nid0001, got %s" % d)
    fl, ps = d
    nics = {x["name"]: x for x in fl["nics"]}
    if fl["verdict"] != "FAIL" or sorted(nics) != ["cxi0", "cxi1"] or \
            nics["cxi0"]["verdict"] != "ok" or \
            nics["cxi1"]["verdict"] != "DEGRADED" or \
            nics["cxi1"]["why"] != "PCIe x8 of x16" or \
            nics["cxi1"]["pcie"] != "x8 16.0 GT/s PCIe" or \
            fl["suspects"] != ["nid0001:cxi1 DEGRADED"]:
        fail("want the newest FAIL, cxi1 DEGRADED (PCIe x8 of x16), cxi0 "
             "ok, got %s" % fl)
    if ps["verdict"] != "PASS" or [(x["name"], x["verdict"])
                                   for x in ps["nics"]] != [("lo", "ok")] \
            or ps["suspects"]:
        fail("want the older PASS with lo ok, got %s" % ps)
    return "FAIL (cxi1 DEGRADED, cxi0 ok) newer than PASS (lo ok)"


def _probe(text):
    """What the probe page wrote: the report's DOM, the figures shown."""
    a, b = text.find('<pre id="out">'), text.find("</pre>")
    if a < 0 or b < 0:
        fail("the probe wrote nothing: the heatmaps were never drawn")
    return json.loads(html.unescape(text[a + len('<pre id="out">'):b]))


def tips(text, sweep):
    """Each figure shown under the pointer is the document's, to 5
    significant digits of the matrix's largest."""
    doc = json.load(open(sweep))
    got = _probe(text)["tips"]
    if len(got) != 12:
        fail("want 12 figures (6 cells, 2 maps), got %s" % got)
    for k, t in enumerate(got):
        m = re.match(r"^(\d+) \S+.* \u2192 (\d+) \S+.*: ([0-9.]+) (MB/s|us)$",
                     t)
        key = "bw_mb_s" if k < 6 else "lat_us"
        if not m or m.group(4) != ("MB/s" if k < 6 else "us"):
            fail("not a figure: '%s'" % t)
        want = doc[key][int(m.group(1))][int(m.group(2))]
        big = max(abs(v) for row in doc[key] for v in row if v is not None)
        if want is None or abs(float(m.group(3)) - want) > 1e-4 * big:
            fail("'%s': the document has %s" % (t, want))
    return "%d cells, each the document's figure" % len(got)


def dom(text):
    """chromium's --dump-dom of the probe of the report of s4."""
    text = _probe(text)["dom"]
    first = text.find('id="verdict"')
    if first < 0 or 'class="v FAIL">FAIL<' not in text or \
            first > text.find("Suspects ("):
        fail("the verdict FAIL is not the first thing on the page")
    if "nid0005 (rank 5, mpi)" not in text or "30 of 30 links" not in text:
        fail("the suspect nid0005 and its 30 links are missing")
    if "named before in 1 of " not in text:
        fail("the archive's memory of nid0005 (s2) is missing")
    if 'data-ready="1"' not in text:
        fail("the page's script did not run to its end")
    return "FAIL first, nid0005 with 30 links, seen before in s2"


if __name__ == "__main__":
    what, path = sys.argv[1], sys.argv[2]
    arg = open(path).read() if what in ("dom", "tips") else \
        json.load(open(path))
    print(globals()[what](arg, *sys.argv[3:]))
