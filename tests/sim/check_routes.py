#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare SimGrid's route for every host pair (the output of tests/sim/routes,
one "SRC DST LINK..." line each) with the route sim/platgen.py intends.
    check_routes.py DUMP PLATGEN-ARGS...
Prints the number of pairs checked and the first mismatches; exit 1 on any."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sim"))
import platgen  # noqa: E402


def main():
    dump, args = sys.argv[1], sys.argv[2:]
    f, _ = platgen.build(args)
    index = {name: i for i, (name, _, _) in enumerate(f.hosts)}
    rule = platgen.df_route if f.kind == "dragonfly" else platgen.ft_route
    seen, bad = set(), []
    with open(dump) as fh:
        for line in fh:
            words = line.split()
            src, dst, got = words[0], words[1], sorted(words[2:])
            want = sorted("%s_%s" % (lk, d) for lk, d in rule(f.geometry, index[src], index[dst]))
            seen.add((src, dst))
            if got != want:
                bad.append("%s -> %s: simgrid %s, intended %s" % (src, dst, got, want))
    n = len(f.hosts)
    missing = n * (n - 1) - len(seen)
    print("%d pairs checked, %d differ, %d missing" % (len(seen), len(bad), missing))
    for b in bad[:10]:
        print("  " + b)
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
