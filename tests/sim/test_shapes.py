#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim/shapes.py without a simulation: the draws (sim/shapes_plan.py) are
the seed's alone, healthy, of the job's size, and cover every variation
the property is about; --list; the table and the report of a fabric that
is not clean, from made-up rows; bad input (exit 2 naming the value).
    python3 tests/sim/test_shapes.py"""
import collections
import io
import os
import subprocess
import sys
import unittest

import usage_errors  # tests/sim/usage_errors.py, beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "..", "..", "sim")
SHAPES = os.path.join(SIM, "shapes.py")
sys.path.insert(0, SIM)
import platgen  # noqa: E402
import shapes  # noqa: E402
import shapes_plan  # noqa: E402


def opt(words, name):
    """The value after option `name` in words, or None."""
    return words[words.index(name) + 1] if name in words else None


class Draws(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.plan = shapes_plan.plan(7, 200, 32, 64)

    def test_seed_alone(self):
        self.assertEqual(shapes_plan.plan(7, 200, 32, 64), self.plan)
        # shape k does not depend on how many are drawn
        self.assertEqual(shapes_plan.plan(7, 5, 32, 64), self.plan[:5])
        self.assertNotEqual(shapes_plan.plan(8, 5, 32, 64), self.plan[:5])

    def test_healthy_and_sized(self):
        for s in self.plan:
            self.assertTrue(32 <= s["ranks"] <= 64, s)
            for w in ("--slow", "--down", "--scale", "--slow-lat"):
                self.assertNotIn(w, s["words"])
            f, _ = platgen.build(s["words"] + ["-o", "x"])
            hosts = f.job_hosts if f.job_hosts is not None else f.hosts
            self.assertEqual(len(hosts), s["ranks"], s)

    def test_variations_covered(self):
        seen = collections.Counter()
        for s in self.plan:
            w = s["words"]
            seen[w[0]] += 1
            seen["job" if "--job" in w else "whole machine"] += 1
            if "--fill" in w:
                seen["fill"] += 1
            if any(x.endswith("=0") for x in w):
                seen["empty switch"] += 1
            if w[0] == "dragonfly":
                seen["landing " + {"one": "one", None: "all"}.get(opt(w, "--global-landing"),
                                                                 "K")] += 1
                seen["L1 %s" % (opt(w, "--local") or "1")] += 1
                seen["bundle %s" % opt(w, "--bundle")] += 1
                bw = opt(w, "--global-bw")
                if bw and float(bw) / int(opt(w, "--bundle")) == 0.5:
                    seen["global link 0.5"] += 1
                seen["taper %s" % opt(w, "--taper")] += 1
            else:
                seen["ft " + (opt(w, "--ft-routes") or "dmodk")] += 1
                seen["ft taper %s" % (opt(w, "--taper") or "1:1")] += 1
        want = ["dragonfly", "fattree", "job", "whole machine", "fill", "empty switch",
                "landing one", "landing all", "landing K", "L1 1", "L1 2", "L1 3",
                "bundle 1", "bundle 4", "global link 0.5", "taper 0.25", "taper None",
                "ft hashed", "ft dmodk", "ft taper 1:1", "ft taper 1.5:1", "ft taper 2:1",
                "ft taper 3:1"]
        self.assertEqual([k for k in want if not seen[k]], [], seen)

    def test_list(self):
        out = subprocess.run([sys.executable, SHAPES, "--list", "--count", "3", "--seed", "7"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        self.assertEqual(len(out), 3)
        for k, (line, s) in enumerate(zip(out, self.plan), 1):
            self.assertEqual(line, "%d %d %s --links" % (k, s["ranks"], " ".join(s["words"])))
        out = subprocess.run([sys.executable, SHAPES, "--list", "--count", "1", "--seed", "7",
                              "--no-links"], capture_output=True, text=True, check=True).stdout
        self.assertNotIn("--links", out)


def row(k, verdict, suspects="-", outliers=0, line=None):
    return {"index": k, "shape": "dragonfly --groups 2", "ranks": 32, "verdict": verdict,
            "suspects": suspects, "outliers": outliers, "sim_s": 0.25, "wall_s": 1.5,
            "flagged": "%d" % (outliers or 0), "verdict_line": line, "json": "/w/s%d.json" % k,
            "platgen": "sim/platgen.py dragonfly --groups 2 --links -o /w/s%d" % k,
            "sweep_cmd": "smpirun -np 32 ...",
            "ok": verdict == "PASS" and suspects == "-" and outliers == 0}


class Report(unittest.TestCase):
    def test_table_and_failures(self):
        rows = [row(1, "PASS"), row(2, "FAIL", "capacity bundle g0-g1 (0/0 bw_mb_s)", 0,
                                    "Verdict: FAIL: short of capacity"),
                row(3, "INCONCLUSIVE", outliers=0, line="Verdict: INCONCLUSIVE: noise"),
                row(4, "PASS", outliers=3), row(5, "usage error (exit 2, no JSON)", outliers=None)]
        out = io.StringIO()
        shapes.print_table(rows, out)
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 2 + 5)
        self.assertIn("| 2 | dragonfly --groups 2 | 32 | FAIL | capacity bundle g0-g1", lines[3])
        self.assertEqual(shapes.summary(rows), "1 of 5 healthy fabrics PASS with no suspect and "
                         "no outlier (PASS 2, FAIL 1, INCONCLUSIVE 1, other 1)")
        out = io.StringIO()
        shapes.print_failures(rows, out)
        text = out.getvalue()
        self.assertNotIn("shape 1,", text)
        for k in (2, 3, 4, 5):
            self.assertIn("shape %d, 32 ranks" % k, text)
            self.assertIn("platgen: sim/platgen.py dragonfly --groups 2 --links -o /w/s%d" % k,
                          text)
        self.assertIn("Verdict: FAIL: short of capacity", text)
        self.assertIn("suspects: capacity bundle g0-g1", text)
        self.assertIn("(no verdict line: see /w/s5.err)", text)


class BadInput(unittest.TestCase):
    def test_exit_2(self):
        sweep = sys.executable  # any executable file
        bad = [
            (["--sweep", sweep, "--ranks", "3-8"], "'3-8'"),
            (["--sweep", sweep, "--ranks", "64-32"], "'64-32'"),
            (["--sweep", sweep, "--ranks", "many"], "'many'"),
            (["--sweep", sweep, "--count", "0"], "--count: 0 must be at least 1"),
            (["--sweep", sweep, "--jobs", "x"], "--jobs: 'x'"),
            (["--sweep", sweep, "--seed", "x"], "'x'"),
            (["--sweep", sweep, "--timeout", "0"], "--timeout 0"),
            (["--sweep", "/nonexistent/cxi_sweep"], "/nonexistent/cxi_sweep"),
            (["--count", "2"], "--sweep"),
        ]
        usage_errors.check(self, [sys.executable, SHAPES], bad)


if __name__ == "__main__":
    unittest.main()
