#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""test_sweep_verdict's tapered uplink: the two bridges joined by an
uplink at one link's rate, three pairs at once. Checks one run's JSON.

  sweep_taper.py shared RUN.json HEALTHY.json   with --topology: the
      shared-links schedule ran (its bandwidth dealt), never FAIL, and the links crossing the
      uplink measure what they measure alone (their median within 20 % of
      the healthy run's typical link, one pair at a time): no pair shared
      the uplink. Where the calibration found the pairs slower together
      (three pairs on a 2-core host share its CPUs) the verdict must be
      INCONCLUSIVE instead.
  sweep_taper.py rounds RUN.json                without --topology: the
      calibration ran; when two pairs of the first round crossed the
      uplink together, it found them slower in the round and the verdict
      is INCONCLUSIVE, never FAIL."""
import json
import statistics
import sys

A, B = {0, 1, 4, 5}, {2, 3}


def crosses(i, j):
    return (i in A) != (j in A)


def main():
    mode, doc = sys.argv[1], json.load(open(sys.argv[2]))
    bw = doc["bw_mb_s"]
    n = len(bw)
    kind = (doc.get("schedule") or {}).get("kind")
    cross = [bw[i][j] for i in range(n) for j in range(n)
             if i != j and crosses(i, j) and bw[i][j] is not None]
    if mode == "shared":
        base = json.load(open(sys.argv[3]))["resolution"]["bw"]["typical"]
        med = statistics.median(cross)
        crowded = doc["resolution"]["bw"].get("crowded")
        if kind != "shared links":
            print("schedule %s, want shared links" % kind)
            return 1
        # two groups of 4 and 2, a whole round at once: dealt into slots
        why = doc["schedule"].get("why", "")
        if "dealt into slots" not in why:
            print("schedule not dealt: %s" % why)
            return 1
        if doc["verdict"] == "FAIL":
            print("FAIL on a healthy tapered fabric: %s" % doc.get("suspects"))
            return 1
        if crowded:
            # Three pairs at once on a host of few cores share its CPUs:
            # the calibration must have said so, and judged nothing.
            if doc["verdict"] != "INCONCLUSIVE":
                print("crowded, yet %s" % doc["verdict"])
                return 1
            print("shared links; the pairs alone were %+.0f %% faster (the host's CPUs): "
                  "INCONCLUSIVE, nothing judged on bandwidth; across the uplink %.2f MB/s"
                  % (doc["resolution"]["bw"]["alone_vs_round_pct"], med))
            return 0
        if not 0.8 * base <= med <= 1.2 * base:
            print("links across the uplink: median %.2f MB/s, want within 20 %% of %.2f"
                  % (med, base))
            return 1
        print("shared links; across the uplink median %.2f MB/s (alone: %.2f); %s"
              % (med, base, doc["verdict"]))
        return 0
    res = doc["resolution"]["bw"]
    r0 = next((r["pairs"] for r in doc.get("rounds", []) if r["round"] == 0), [])
    ncross = sum(1 for a, b in r0 if crosses(a, b))
    if kind != "rounds" or "alone_pairs" not in res:
        print("schedule %s, calibration %s: want rounds with a calibration"
              % (kind, res.get("alone_pairs")))
        return 1
    if doc["verdict"] == "FAIL":
        print("FAIL: the round's pairs shared the uplink, no link is slow")
        return 1
    if ncross >= 2 and not (res.get("crowded") and doc["verdict"] == "INCONCLUSIVE"):
        print("%d pairs of round 0 crossed the uplink together, yet crowded %s, %s"
              % (ncross, res.get("crowded"), doc["verdict"]))
        return 1
    print("rounds; %d pairs of round 0 crossed the uplink; %d alone: %+.0f %%, crowded %s; %s"
          % (ncross, res["alone_pairs"], res["alone_vs_round_pct"], res["crowded"],
             doc["verdict"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
