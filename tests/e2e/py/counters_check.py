# SPDX-License-Identifier: BSD-3-Clause
"""Link error counters and --interval windows in a tool's JSON document.

  counters_check.py moved JSON NAME      NAME moved (delta > 0), and the
                                         summary's Link errors names it
  counters_check.py clean JSON           no counter of the device moved
                                         and the summary says "none"
  counters_check.py unavailable JSON     some counters unreadable: null,
                                         never 0, and named in the summary
  counters_check.py worst JSON LO HI     the worst window lies within
                                         [LO, HI] s and is the slowest row
"""
import json
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def moved(doc, name):
    c = [k for k in doc["counters"]["list"] if k["name"] == name]
    if not c:
        sys.exit("no counter %r in %s" % (name, doc["counters"]["list"]))
    k = c[0]
    key = "TCP retransmits" if name == "tcp retransmits" else "Link errors"
    line = doc["summary"][key]
    if not (k["available"] and k["delta"] and k["delta"] > 0):
        sys.exit("%s did not move: %s" % (name, k))
    if k["delta"] != k["after"] - k["before"]:
        sys.exit("delta %s != after - before %s" % (k["delta"], k))
    want = ("+%d of " if key == "TCP retransmits" else name + " +%d") \
        % k["delta"]
    if want not in line:
        sys.exit("summary %r does not say %r" % (line, want))
    print("%s +%d (%s), summary: %s" % (name, k["delta"], k["source"], line))


def clean(doc):
    """The device's counters still; the namespace's TCP (which counts tail
    loss probes and the odd spurious timeout of a busy host) retransmits
    under 5 % of its segments (a lossy one: tens of %)."""
    line = doc["summary"]["Link errors"]
    ks = {k["name"]: k for k in doc["counters"]["list"]}
    bad = [k for k in ks.values() if not k["available"] or
           (not k["name"].startswith("tcp ") and k["delta"] != 0)]
    if bad or line != "none":
        sys.exit("want none: %r, moved or unreadable %s" % (line, bad))
    r, s = ks["tcp retransmits"]["delta"], ks["tcp segments sent"]["delta"]
    if s == 0 or r * 20 >= s:
        sys.exit("clean link: %d retransmits of %d segments" % (r, s))
    print("Link errors: none (%d counters of %s); TCP retransmits: %s"
          % (len(ks), doc["counters"]["device"],
             doc["summary"]["TCP retransmits"]))


def unavailable(doc):
    line = doc["summary"]["Link errors"]
    un = [k for k in doc["counters"]["list"] if not k["available"]]
    if not un:
        sys.exit("every counter was readable")
    for k in un:
        if k["delta"] is not None or (k["before"] == 0 and "error" not in k):
            sys.exit("unreadable counter given a value: %s" % k)
        if k["name"] not in line:
            sys.exit("summary %r does not name %s" % (line, k["name"]))
    if "unavailable" not in line:
        sys.exit("summary %r does not say unavailable" % line)
    print("%d unavailable (%s), summary: %s" % (len(un), un[0]["error"], line))


def worst(doc, lo, hi):
    res = doc["results"][0]
    rows, w = res["windows"], res["worst_window"]
    bws = [r["bw_mb_s"] for r in rows]
    if w["bw_mb_s"] != min(bws):
        sys.exit("worst %s is not the slowest of %s" % (w, bws))
    if abs(w["median"] - statistics.median(bws)) > 1e-6 * max(bws):
        sys.exit("median %s, rows say %s" % (w["median"],
                                             statistics.median(bws)))
    if not (lo <= w["start_s"] and w["end_s"] <= hi):
        sys.exit("worst window %.1f-%.1f s outside [%.1f, %.1f]"
                 % (w["start_s"], w["end_s"], lo, hi))
    if "Worst window" not in doc["summary"]:
        sys.exit("no Worst window in the summary")
    print("worst %.1f-%.1f s %.1f MB/s, median %.1f MB/s (%.0f %% below) "
          "of %d windows; summary: %s"
          % (w["start_s"], w["end_s"], w["bw_mb_s"], w["median"],
             w["distance_pct"], len(rows), doc["summary"]["Worst window"]))


def main():
    mode, doc = sys.argv[1], load(sys.argv[2])
    if mode == "moved":
        moved(doc, sys.argv[3])
    elif mode == "clean":
        clean(doc)
    elif mode == "unavailable":
        unavailable(doc)
    elif mode == "worst":
        worst(doc, float(sys.argv[3]), float(sys.argv[4]))
    else:
        sys.exit("unknown mode " + mode)


main()
