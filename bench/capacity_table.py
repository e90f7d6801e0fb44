#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The capacity pass of each scenario of a sim/scenarios.py --json file, as
a Markdown table: per kind of unit (bundles, switch pairs, leaf pairs) its
units and load, what the typical one carried, the lowest one, the short
ones, and the capacity suspects named (docs/sim-down.md).

    bench/capacity_table.py ROWS.json [ROWS.json ...]
"""
import json
import sys


def gbs(mb):
    return "-" if mb is None else "%.1f" % (mb / 1000.0)


def lines_of(row):
    """One line per kind of unit the scenario's pass loaded."""
    try:
        with open(row["json"]) as fh:
            doc = json.load(fh)
    except (OSError, ValueError, KeyError, TypeError):
        return [[row.get("scenario", "?"), "-", "no JSON", "", "", "", "", ""]]
    cap = doc.get("capacity") or {}
    named = ["%s %s" % (s.get("scope"), "-".join(s.get("parts") or []))
             for s in doc.get("suspects") or [] if s.get("kind") == "capacity"]
    if not cap.get("ran"):
        return [[row["scenario"], "-", "not run: " + str(cap.get("why")), "", "", "",
                 "", ", ".join(named) or "-"]]
    out = []
    for cl in cap.get("classes") or []:
        units = [u for u in cap.get("units") or [] if u["scope"] == cl["scope"]
                 and u.get("carried_mb_s") is not None]
        low = min(units, key=lambda u: u["ratio"] or 0, default=None)
        short = [u["name"] for u in units if u["state"] == "short"]
        out.append([row["scenario"], cl["scope"],
                    "%d x %d pairs (width %d, %s)" % (cl["units"], cl["load_pairs"],
                                                     cl["width"], cl["width_source"]),
                    gbs(cl.get("expected_mb_s")) + (" (width)" if cl.get("expected_from") ==
                                                    "width" else ""),
                    "-" if low is None else "%s %s (%.0f %%)" % (
                        low["name"], gbs(low["carried_mb_s"]), 100 * (low["ratio"] or 0)),
                    "%.0f %%" % (100 * cl["short_below"]) if cl.get("short_below") else "-",
                    ", ".join(short) or "-", ", ".join(named) or "-"])
    return out


def main(argv):
    if not argv:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    head = ["scenario", "units", "loaded", "typical GB/s", "lowest (GB/s, of typical)",
            "short below", "short units", "capacity suspects"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for path in argv:
        with open(path) as fh:
            doc = json.load(fh)
        for row in doc["rows"] if isinstance(doc, dict) else doc:
            for ln in lines_of(row):
                print("| " + " | ".join(str(c).replace("|", "/") for c in ln) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
