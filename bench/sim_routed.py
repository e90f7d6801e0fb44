# SPDX-License-Identifier: BSD-3-Clause
"""The routed main pass against the schedule without routes and the
routes' bound (bench/sim_routed.sh, docs/sim-narrow.md): reads the JSON
of the two runs of each platform and prints one table row each.

The bound is the model's: the latency rounds as run (each round's
longest pair, the rounds' seconds of the JSON) plus the busiest link
line's pairs over what it carries at once (the routed schedule's
sentence: the routes' bound in rounds, which is also the ranks' own
n - 1 where they bind) times one pair's bandwidth bytes at the typical
link's rate (2 directions x --repeat x size x iterations).
  sim_routed.py LABEL PLACES.json ROUTED.json   (PLACES.json absent: "-")
"""
import os
import json
import re
import sys


def load(path):
    with open(path) as fh:
        return json.load(fh)


def pair_s(doc):
    """One pair's bandwidth bytes over the typical link's rate, s."""
    o = doc["options"]
    rate = doc["resolution"]["bw"]["typical"] * 1e6  # MB/s, 10^6 bytes
    return 2 * o["repeat"] * o["size"] * o["iters"] / rate


def main(argv):
    label, routed = argv[1], load(argv[3])
    places = load(argv[2]) if os.path.exists(argv[2]) else None
    why = routed["schedule"]["why"]
    m = re.search(r"(\d+) rounds one after .*the routes' bound (\d+) rounds", why)
    if not m:
        print("| %s | routed schedule not chosen: %s |" % (label, why))
        return 1
    rounds, bound = int(m.group(1)), int(m.group(2))
    lat = sum(r["seconds"] for r in routed["rounds"])
    t_bound = lat + bound * pair_s(routed)
    new = routed["schedule"]["main_s"]
    old = "%.3f" % places["schedule"]["main_s"] if places else "-"
    print("| %s | %s | %.3f | %.3f | %d | %d | %.3f | %.2f | %s / %s |" % (
        label, old, new, t_bound, rounds, bound, lat, new / t_bound,
        places["verdict"] if places else "-", routed["verdict"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
