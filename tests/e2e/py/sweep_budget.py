# SPDX-License-Identifier: BSD-3-Clause
"""Checks one cxi_sweep --budget run's JSON (tests/e2e/test_sweep_budget.sh).

    sweep_budget.py FILE --verdict V [--plan cover|ring] [--max-share F]
                    [--suspect KIND:WHAT | --way KIND:WHAT | --no-suspect]

The verdict; the budget object's plan; its pairs at most F of all pairs
(n (n - 1) / 2); exactly its pairs measured, both ways, and no other
link (the bw_mb_s matrix's figures); its rounds with no rank twice and
the plan's pairs in all; the time taken within the budget; and the
suspects: none, or exactly one component, KIND rank:R (its rank) or
switch:NAME, link:NAME, bundle:NAME (the name starts so), each metric's
suspects naming that one alone; or --way: each suspect named as a way
(maybe: a fat tree's spine, the hash unknown) of that kind, WHAT its name
or among the ways it cannot be told from, and no NIC. Prints the figures
it read.
"""
import argparse
import json
import sys


def measured(doc):
    """Off-diagonal links with a bandwidth figure, as (src, dst)."""
    m = doc["bw_mb_s"]
    return {(i, j) for i, row in enumerate(m) for j, v in enumerate(row)
            if i != j and v is not None}


def check_rounds(doc, pairs):
    errs, seen = [], set()
    for r in doc.get("rounds", []):
        ranks = [x for p in r["pairs"] for x in p]
        if len(ranks) != len(set(ranks)):
            errs.append("round %d holds a rank twice" % r["round"])
        seen.update(tuple(sorted(p)) for p in r["pairs"])
    if len(seen) != pairs:
        errs.append("rounds list %d pairs, the plan %d" % (len(seen), pairs))
    return errs, seen


def check_suspects(doc, want):
    sus = doc.get("suspects", [])
    if want is None:
        return ["suspects named: %s" % [s["name"] for s in sus]] if sus else []
    kind, what = want.split(":", 1)
    errs = []
    if not sus:
        return ["no suspect named, want %s" % want]
    for s in sus:
        if s["kind"] != kind:
            errs.append("suspect %s (%s), want %s" % (s["name"], s["kind"], want))
        elif kind == "rank" and s.get("rank") != int(what):
            errs.append("rank %s named, want rank %s" % (s.get("rank"), what))
        elif kind != "rank" and not s["name"].startswith("%s %s" % (kind, what)) \
                and what not in s["name"]:
            errs.append("%s named, want %s" % (s["name"], want))
    metrics = [s["metric"] for s in sus]
    if len(metrics) != len(set(metrics)):
        errs.append("a metric names %d suspects" % len(sus))
    return errs


def check_way(doc, want):
    sus = doc.get("suspects", [])
    kind, what = want.split(":", 1)
    if not sus:
        return ["no suspect named, want the way %s" % want]
    errs = []
    for s in sus:
        names = [s["name"]] + [x["name"] for x in s.get("alike", [])]
        if s["kind"] != kind or not s.get("maybe"):
            errs.append("suspect %s (%s, maybe %s), want the way %s" % (
                s["name"], s["kind"], s.get("maybe", False), want))
        elif not any(n == "%s %s" % (kind, what) or
                     n.startswith("%s %s " % (kind, what)) for n in names):
            errs.append("ways %s named, want %s among them" % (names, want))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--verdict", required=True)
    ap.add_argument("--plan", default="cover")
    ap.add_argument("--max-share", type=float, default=0.1)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--suspect")
    g.add_argument("--way")
    g.add_argument("--no-suspect", action="store_true")
    a = ap.parse_args()
    doc = json.load(open(a.file))
    b = doc.get("budget")
    if b is None:
        print("%s: no budget object" % a.file)
        return 1
    n = len(doc["ranks"])
    errs = []
    if doc["verdict"] != a.verdict:
        errs.append("verdict %s, want %s" % (doc["verdict"], a.verdict))
    if b["plan"] != a.plan:
        errs.append("plan %s, want %s" % (b["plan"], a.plan))
    if b["all_pairs"] != n * (n - 1) // 2:
        errs.append("all_pairs %d at %d ranks" % (b["all_pairs"], n))
    if b["pairs"] > a.max_share * b["all_pairs"]:
        errs.append("%d pairs of %d: over %.0f %%" % (b["pairs"], b["all_pairs"],
                                                      100 * a.max_share))
    rerrs, pairs = check_rounds(doc, b["pairs"])
    errs += rerrs
    links = measured(doc)
    want_links = {(x, y) for p in pairs for x, y in (p, p[::-1])}
    if links != want_links:
        errs.append("%d links measured, the plan's %d (%d not the plan's)" % (
            len(links), len(want_links), len(links - want_links)))
    if b["links_measured"] != 2 * b["pairs"]:
        errs.append("links_measured %d for %d pairs" % (b["links_measured"], b["pairs"]))
    if b["over_budget"] or b["taken_s"] > b["budget_s"]:
        errs.append("taken %.3g s of the budget %g s" % (b["taken_s"], b["budget_s"]))
    if a.way:
        errs += check_way(doc, a.way)
    else:
        errs += check_suspects(doc, None if a.no_suspect else a.suspect)
    print("%s: %s, %s plan: %d of %d pairs (%d links of %d), %d rounds, %d turns, "
          "taken %.3g s of %g s (foreseen %.3g, a pair %.3g), suspects: %s" % (
              a.file.split("/")[-1], doc["verdict"], b["plan"], b["pairs"],
              b["all_pairs"], len(links), n * (n - 1), b["rounds"], b["turns"],
              b["taken_s"], b["budget_s"], b["estimate_s"], b["pair_s"],
              [s["name"] for s in doc.get("suspects", [])] or "none"))
    for e in errs:
        print("  " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
