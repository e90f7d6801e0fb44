#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim/faults.py without a simulation: the seeded plans (the same every
time, 1-5 faults on distinct components of kinds the fabric has, in the
strengths asked, each accepted by platgen; none on a clean fabric), the
score by component on hand-made suspects, and bad input (exit 2 naming the
value).  python3 tests/sim/test_faults.py"""
import os
import sys
import unittest

import usage_errors  # tests/sim/usage_errors.py, beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "..", "..", "sim")
sys.path.insert(0, SIM)
import faults_plan  # noqa: E402
import platgen  # noqa: E402
from scenario_table import platgen_args  # noqa: E402

GEO, BUNDLE = (4, 4, 4), 5  # 64 ranks, as make test runs it


class Plans(unittest.TestCase):
    def test_plans(self):
        kinds, shapes = set(), set()
        for k in range(1, 41):
            pl = faults_plan.plan(7, k, GEO, BUNDLE, k <= 4)
            self.assertEqual(pl, faults_plan.plan(7, k, GEO, BUNDLE, k <= 4))
            shapes.add(pl["shape"])
            f, _ = platgen.build(platgen_args(pl, GEO, BUNDLE, "x"))
            self.assertEqual(len(f.hosts), 64)
            if k <= 4:
                self.assertEqual(pl["faults"], [])
                continue
            self.assertTrue(1 <= len(pl["faults"]) <= 5, pl)
            keys = [x["key"] for x in pl["faults"]]
            self.assertEqual(len(keys), len(set(keys)))
            allowed = faults_plan.FT_KINDS if pl["fabric"] == "ft" else faults_plan.DF_KINDS
            for x in pl["faults"]:
                kinds.add(x["kind"])
                self.assertIn(x["kind"], allowed)
                lo, hi = faults_plan.LAT_RANGE if x["kind"] == "nic_lat" \
                    else faults_plan.BW_RANGE
                self.assertTrue(lo <= x["factor"] <= hi, x)
            # the fault is in the platform: a link slower, or a latency up
            base, _ = platgen.build(platgen_args(dict(pl, words=pl["words"][:4]), GEO,
                                                 BUNDLE, "x"))
            self.assertTrue(f.links != base.links or f.lat_factor, pl)
        self.assertEqual(kinds, set(faults_plan.DF_KINDS) | set(faults_plan.FT_KINDS))
        self.assertTrue({"fat tree 1:1", "fat tree 2:1"} <= shapes, shapes)
        self.assertTrue(any(s.startswith("dragonfly L1 1") for s in shapes), shapes)
        self.assertNotEqual(faults_plan.plan(7, 9, GEO, BUNDLE, False),
                            faults_plan.plan(8, 9, GEO, BUNDLE, False))

    def test_score(self):
        topo = {"nid0020": ("g1s1", "g1"), "nid0030": ("g1s3", "g1"),
                "nid0000": ("g0s0", "g0")}

        def fault(kind, key):
            return {"kind": kind, "key": key, "factor": 0.5}

        def trial(faults, suspects, outliers=5, verdict="FAIL"):
            return {"plan": {"clean": not faults, "faults": faults}, "suspects": suspects,
                    "outliers": outliers, "verdict": verdict, "topo": topo}
        f1 = [fault("nic_bw", "rank nid0020"), fault("switch", "switch g1s3"),
              fault("bundle", "bundle g0-g2")]
        # a group names its switches and bundles; the fabric names nothing
        found, right = faults_plan.score_trial(
            f1, ["rank nid0020", "group g1", "fabric", "switch g0s0"], topo)
        self.assertEqual(found, ["rank nid0020", "switch g1s3"])
        self.assertEqual(right, ["rank nid0020", "group g1"])
        self.assertTrue(faults_plan.contains("group g2", "bundle g0-g2", topo))
        self.assertFalse(faults_plan.contains("switch g1s1", "rank nid0020", topo))
        self.assertFalse(faults_plan.contains("group g1", "rank nid0020", topo))
        # a capacity suspect names its parts: the component, by other evidence
        self.assertTrue(faults_plan.contains("capacity switch g1s1", "switch g1s1", topo))
        self.assertTrue(faults_plan.contains("capacity switches g1s0-g1s1", "switch g1s1",
                                             topo))
        self.assertTrue(faults_plan.contains("capacity bundle g0-g2", "bundle g0-g2", topo))
        self.assertFalse(faults_plan.contains("capacity bundle g0-g1", "bundle g0-g2", topo))
        self.assertFalse(faults_plan.contains("capacity switch g1s1", "rank nid0020", topo))
        s = faults_plan.score([
            trial(f1, ["rank nid0020", "switch g0s0"]),
            trial([fault("spine", "spine spine3"), fault("nic_lat", "rank nid0000")],
                  ["spine spine3"]),
            trial([], [], 0, "PASS"), trial([], ["rank nid0000"], 9),
        ])
        self.assertEqual((s["faults"], s["suspects"]), (5, 3))
        self.assertAlmostEqual(s["recall"], 2 / 5)
        self.assertAlmostEqual(s["precision"], 2 / 3)
        self.assertEqual(s["recall_by_kind"]["nic_lat"], {"found": 0, "of": 1, "recall": 0})
        self.assertEqual(s["precision_by_kind"]["switch"]["precision"], 0)
        self.assertEqual(s["clean"], {"trials": 2, "with_suspects": 1, "with_outliers": 1,
                                      "not_pass": 1})
        self.assertIsNone(faults_plan.score([trial([], [], 0, "PASS")])["recall"])

    def test_bad_input(self):
        me = sys.executable
        ok = ["--sweep", me, "--ranks", "64"]  # then one bad option each
        cases = [(ok + more, want) for more, want in (
            (["--trials", "0"], "--trials 0"),
            (["--trials", "2", "--clean", "3"], "--clean 3"),
            (["--min-recall", "1.5"], "1.5"),
            (["--min-precision", "x"], "'x'"),
            (["--jobs", "0"], "--jobs 0"),
            (["--timeout", "0"], "0"))]
        cases += [(["--sweep", "/nonexistent", "--ranks", "64"], "/nonexistent"),
                  (["--sweep", me, "--ranks", "7"], "--ranks 7"),
                  (["--ranks", "64"], "--sweep")]
        usage_errors.check(self, [me, os.path.join(SIM, "faults.py")], cases)


if __name__ == "__main__":
    unittest.main()
