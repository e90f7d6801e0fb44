#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim/faults.py without a simulation: the seeded plans (the same every
time, 1-5 faults on distinct components of kinds the fabric has, in the
strengths asked, each accepted by platgen; none on a clean fabric), the
plans over drawn shapes (--shapes: the healthy-shape generator's fabrics,
faults only where the job can see them), the score by component on
hand-made suspects (sets that cannot be told apart, a gateway switch), the
tables of --report, and bad input (exit 2 naming the value).
python3 tests/sim/test_faults.py"""
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

import usage_errors  # tests/sim/usage_errors.py, beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "..", "..", "sim")
sys.path.insert(0, SIM)
import faults  # noqa: E402
import faults_plan  # noqa: E402
import faults_shapes  # noqa: E402
import faults_table  # noqa: E402
import platgen  # noqa: E402
import shapes_plan  # noqa: E402
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
        usage_errors.check(self, [me, os.path.join(SIM, "faults.py")], [
            (["--sweep", me, "--ranks", "64", "--no-links"], "--no-links"),
            (["--sweep", me, "--ranks", "3", "--shapes"], "--ranks 3"),
            (["--sweep", me, "--ranks", "64", "--machine", "128"], "--machine"),
            (["--sweep", me, "--ranks", "64", "--single", "--machine", "32"], "--machine 32"),
            (["--sweep", me, "--ranks", "64", "--trials", "4", "--only", "2,5"], "--only"),
            (["--report", "/nonexistent.json"], "/nonexistent.json")])
        self.old_bad_input()

    def old_bad_input(self):
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


class ShapePlans(unittest.TestCase):
    def test_plans(self):
        kinds = set()
        for k in range(1, 13):
            pl = faults_shapes.plan(1, k, 32, k <= 2)
            self.assertEqual(pl, faults_shapes.plan(1, k, 32, k <= 2))
            # the healthy-shape generator's draw, at exactly these ranks
            self.assertEqual(pl["base_words"], shapes_plan.draw(1, k, 32, 32)["words"])
            self.assertEqual(pl["shape"], faults_shapes.family(pl["base_words"]))
            f, _ = platgen.build(pl["words"] + ["-o", "x"])
            self.assertEqual(len(f.job_hosts or f.hosts), 32)
            if k <= 2:
                self.assertEqual(pl["faults"], [])
                continue
            sh = faults_shapes.Shape(pl["base_words"])
            self.assertTrue(1 <= len(pl["faults"]) <= faults_shapes.MAX_FAULTS, pl)
            keys = [x["key"] for x in pl["faults"]]
            self.assertEqual(len(keys), len(set(keys)))
            for x in pl["faults"]:
                kinds.add(x["kind"])
                self.assertIn(x["kind"], faults_shapes.kinds_of(sh))
            if faults_shapes.gateways(sh) and pl["faults"]:
                self.assertEqual(pl["faults"][0]["kind"], "gateway")
        self.assertTrue({"nic_bw", "nic_lat", "switch"} <= kinds, kinds)

    def test_single(self):
        # --single: the clean fabrics in turn, then one fault a trial, each
        # kind in turn, on a job of 32 of a 128-host machine's hosts
        got = []
        for k in range(1, 11):
            pl = faults_shapes.single(1, k, 128, 32, 3)
            self.assertEqual(pl, faults_shapes.single(1, k, 128, 32, 3))
            f, _ = platgen.build(pl["words"] + ["-o", "x"])
            self.assertEqual((len(f.hosts), len(f.job_hosts)), (128, 32))
            self.assertEqual(len(pl["faults"]), 0 if k <= 3 else 1, pl)
            got.append(pl["faults"][0]["kind"] if pl["faults"] else pl["shape"])
        self.assertEqual(got, [x + ", 32 of 128 hosts" for x in faults_shapes.SINGLE_FABRICS]
                         + list(faults_shapes.SINGLE_KINDS))
        # the whole machine: no --job
        self.assertNotIn("--job", faults_shapes.single(1, 1, 64, 64, 3)["words"])

    def test_only(self):
        # --only: those trials of the whole plan, numbered as there, in order
        a = faults.parse_args(["--sweep", sys.executable, "--ranks", "64", "--trials", "6",
                               "--only", "5,2"])
        whole = faults.make_plans(faults.parse_args(["--sweep", sys.executable, "--ranks",
                                                     "64", "--trials", "6"]))
        self.assertEqual(faults.make_plans(a), [whole[4], whole[1]])

    def test_visible(self):
        # uplinks of 2 node links: a spine at half still carries a pair
        sh = faults_shapes.Shape(["fattree", "--leaves", "4", "--hosts", "4", "--spines", "2"])
        up = platgen.find_set(sh.f, "--slow", "s", "spine", "spine0")
        self.assertFalse(sh.slow_visible(up, 0.5))
        self.assertTrue(sh.slow_visible(up, 0.3))
        # a bundle of 2 one-node-link links: one down halves what it carries;
        # of 2 links of 8: 8 pairs still run at full rate over one
        narrow = ["dragonfly", "--groups", "2", "--switches", "2", "--hosts", "4",
                  "--bundle", "2", "--global-bw", "2"]
        self.assertTrue(faults_shapes.Shape(narrow).down_visible(0, 1, "bundle:g0-g1=1"))
        wide = narrow[:-1] + ["16"]
        self.assertFalse(faults_shapes.Shape(wide).down_visible(0, 1, "bundle:g0-g1=1"))
        one = narrow[:-2] + ["--global-landing", "one"]
        self.assertEqual(faults_shapes.gateways(faults_shapes.Shape(one)), ["g0s0", "g1s0"])
        self.assertEqual(faults_shapes.family(one), "dragonfly landing one")

    def test_sets_and_gateway(self):
        topo = {"a": ("g0s0", "g0"), "b": ("g0s1", "g0"), "c": ("g1s0", "g1"),
                "d": ("leaf0", None)}
        gate = [{"kind": "gateway", "key": "switch g0s0", "factor": 0.5}]
        plain = [dict(gate[0], kind="switch")]
        # a gateway's global link is its bundle: wrong, unless the sweep says
        # it cannot tell it from the switch; its links in its group name it
        self.assertEqual(faults_plan.score_trial(gate, ["link g0s0-g1s0"], topo),
                         ([], []))
        self.assertEqual(faults_plan.score_trial(
            gate, ["link g0s0-g1s0"], topo, {"link g0s0-g1s0": ["switch g0s0"]}),
            (["switch g0s0"], ["link g0s0-g1s0"]))
        self.assertEqual(faults_plan.score_trial(gate, ["link g0s0-g0s1"], topo)[0],
                         ["switch g0s0"])
        self.assertEqual(faults_plan.score_trial(plain, ["link g0s0-g1s0"], topo)[0],
                         ["switch g0s0"])
        # a set no pair separates is right when the fault is in it
        spine = [{"kind": "spine", "key": "spine spine3", "factor": 0.4}]
        self.assertEqual(faults_plan.score_trial(spine, ["switch spine3"], topo)[0],
                         ["spine spine3"])
        self.assertEqual(faults_plan.score_trial(
            spine, ["switch spine0"], topo, {"switch spine0": ["switch spine3"]})[0],
            ["spine spine3"])
        self.assertEqual(faults_plan.score_trial(spine, ["switch spine0"], topo)[0], [])

    def trials(self):
        topo = {"a": ("g0s0", "g0"), "c": ("g1s0", "g1")}

        def t(k, shape, faults, suspects, alike=None, metrics=None):
            return {"plan": {"seed": 1, "trial": k, "shape": shape, "ranks": 8,
                             "clean": not faults, "faults": faults},
                    "suspects": suspects, "alike": alike or {}, "metrics": metrics or {},
                    "topo": topo, "verdict": "FAIL" if suspects else "PASS",
                    "platgen": "sim/platgen.py X%d" % k, "wall_s": 1.0}
        df = "dragonfly landing one"
        return [t(1, df, [], []), t(2, df, [], ["rank a"]),
                t(3, df, [{"kind": "gateway", "key": "switch g0s0", "factor": 0.5},
                          {"kind": "nic_lat", "key": "rank c", "factor": 8}],
                  ["bundle g0-g1", "rank a", "switch g0s0"], metrics={"rank a": ["lat_us"]}),
                t(4, "fat tree fixed", [{"kind": "bundle_down", "key": "bundle g0-g1",
                                         "down": 1}], ["capacity bundle g0-g1"])]

    def test_table(self):
        rows = faults_table.tally(self.trials(), lambda t, k: k)
        # trials, faults, found, right, wrong, right as a set
        self.assertEqual(rows["gateway"], [1, 1, 1, 1, 0, 0])
        self.assertEqual(rows["nic_lat"], [1, 1, 0, 0, 1, 0])
        self.assertEqual(rows["bundle"], [0, 0, 0, 0, 1, 0])
        self.assertEqual(rows["bundle_down"], [1, 1, 1, 1, 0, 0])
        out = io.StringIO()
        faults_table.print_all(self.trials(), True, out)
        text = out.getvalue()
        self.assertIn("| gateway | 1 | 1 | 1 | 0 | 1.00 | 1.00 | 0 |", text)
        self.assertIn("clean fabrics (with links): 2, with a suspect 1 (trial 2: rank a)",
                      text)
        self.assertIn("  - platgen: `sim/platgen.py X3`\n", text)
        self.assertIn("  - missed: rank c\n  - wrong: bundle g0-g1, rank a\n", text)

    def test_report(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with open(path, "w") as fh:
                json.dump({"links": False, "trials": self.trials()}, fh)
            out = subprocess.run([sys.executable, os.path.join(SIM, "faults.py"),
                                  "--report", path], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("### places only: by shape family", out.stdout)


if __name__ == "__main__":
    unittest.main()
