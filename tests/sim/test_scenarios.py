#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim/scenarios.py without a simulation: the dragonfly shapes it picks,
the scenarios' platforms (each slows what its name says), the table's
summaries of a hand-written sweep JSON, and bad input (exit 2 naming the
value).  python3 tests/sim/test_scenarios.py"""
import os
import sys
import unittest

import usage_errors  # tests/sim/usage_errors.py, beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "..", "..", "sim")
sys.path.insert(0, SIM)
import platgen  # noqa: E402
import scenarios  # noqa: E402

DOC = {
    "ranks": [{"rank": r, "host": "nid%04d" % r, "switch": "g%ds%d" % (r // 4, r // 2 % 2),
               "group": "g%d" % (r // 4)} for r in range(8)],
    "outliers": [
        {"src": 5, "dst": 0, "metric": "bw_mb_s"}, {"src": 5, "dst": 1, "metric": "bw_mb_s"},
        {"src": 5, "dst": 4, "metric": "bw_mb_s"}, {"src": 5, "dst": 6, "metric": "lat_us"},
        {"src": 4, "dst": 5, "metric": "bw_mb_s"},
    ],
    "outliers_total": 7,
    "suspects": [{"kind": "rank", "name": "nid0005 (rank 5, mpi)", "bad": 5, "links": 7,
                  "metric": "bw_mb_s"}],
}


class Runner(unittest.TestCase):
    def test_geometry(self):
        self.assertEqual(scenarios.geometry(128), (8, 4, 4))
        self.assertEqual(scenarios.geometry(256), (16, 4, 4))
        self.assertEqual(scenarios.geometry(1024), (16, 8, 8))
        # one global link about a node link's rate at full bandwidth
        self.assertEqual(scenarios.bundle_width(16, 4, 4), 1)
        self.assertEqual(scenarios.bundle_width(8, 4, 4), 2)
        self.assertEqual(scenarios.bundle_width(16, 8, 8), 4)
        self.assertEqual(scenarios.bundle_width(64, 2, 2), 1)
        for n in (128, 192, 256, 512, 1024):
            g, s, h = scenarios.geometry(n)
            self.assertEqual(g * s * h, n)
            self.assertGreaterEqual(g, 2)

    def test_each_scenario_slows_what_it_says(self):
        geo = (8, 4, 4)
        base, _ = platgen.build(["dragonfly", "--groups", "8", "--switches", "4",
                                 "--hosts", "4", "--bundle", "2", "-o", "x"])
        got, lat, fts, other = {}, {}, {}, {}
        for sc in scenarios.scenarios(*geo):
            f, _ = platgen.build(scenarios.platgen_args(sc, geo, 2, "x"))
            if "--down" in sc["words"] or "--bundle" in sc["words"]:
                other[sc["name"]] = f  # links taken out or added: below
                continue
            if sc["fabric"] == "ft":
                fts[sc["name"]] = f
                continue
            got[sc["name"]] = {k: round(f.links[k] / base.links[k], 6) for k in f.links
                               if f.links[k] != base.links[k]}
            lat[sc["name"]] = f.lat_factor
        self.assertEqual(len(got) + len(fts) + len(other), scenarios.NSCEN)
        self.assertEqual(got["healthy, full globals"], {})
        self.assertEqual(set(got["healthy, globals at 1/2"].values()), {0.5})
        self.assertTrue(all(k.startswith("gl-") for k in got["healthy, globals at 1/4"]))
        self.assertEqual(got["node nid0021 at 75%"], {"nic-nid0021": 0.75})
        sw = got["switch g1s1 uplinks at 50%"]
        self.assertIn("l1-g1-s0-s1", sw)
        self.assertIn("l1out-nid0021-s0", sw)  # nid0021 is on g1s1
        self.assertIn("l1in-nid0016-s1", sw)  # nid0016 on g1s0
        self.assertTrue(all(k.startswith(("l1-g1-", "l1out-", "l1in-", "gl-")) for k in sw))
        self.assertEqual(set(got["bundle g0-g1 at 50%"]), {"gl-g0-g1-0", "gl-g0-g1-1"})
        self.assertEqual(len(got["whole fabric at 1/2 vs healthy"]), len(base.links))
        self.assertEqual(got["bundle g0-g1 at 50%, no --topology"], got["bundle g0-g1 at 50%"])
        self.assertEqual(got["node nid0021 at 75%, jitter 30%"], {"nic-nid0021": 0.75})
        # The host named sits in group 1, switch 1, as the docs say; the
        # default L1 connection is one node link's worth, the wider one 2.
        self.assertEqual(base.hosts[21][1:], ("g1s1", "g1"))
        self.assertEqual(base.links["l1-g0-s0-s1"], base.node_bw)
        self.assertEqual(set(got["healthy, L1 of 2 links"].values()), {2.0})
        # The latency fault changes no bandwidth, one node link's latency.
        self.assertEqual(got["node nid0021 latency x8"], {})
        self.assertEqual(lat["node nid0021 latency x8"], {"nic-nid0021": 8.0})
        # Several faults: each slows its own set (nid0025 on g1s2, nid0022
        # beside nid0021 on g1s1, nid0037 in group 2).
        two = got["node nid0025 at 75% + switch g1s1 at 50%"]
        self.assertEqual(two["nic-nid0025"], 0.75)
        self.assertEqual(set(two) - {"nic-nid0025"}, set(sw))
        nb = got["node nid0021 at 75% + bundle g0-g1 at 50%"]
        self.assertEqual(set(nb), {"nic-nid0021", "gl-g0-g1-0", "gl-g0-g1-1"})
        sb = got["switch g1s1 at 50% + bundle g1-g2 at 50%"]
        self.assertTrue({"gl-g1-g2-0", "gl-g1-g2-1"} | set(sw) <= set(sb))
        self.assertEqual(got["nodes nid0021, nid0022 at 75% (one switch)"],
                         {"nic-nid0021": 0.75, "nic-nid0022": 0.75})
        self.assertEqual(base.hosts[22][1], "g1s1")
        mixed = "node nid0021 at 75% + node nid0037 latency x8"
        self.assertEqual(got[mixed], {"nic-nid0021": 0.75})
        self.assertEqual(lat[mixed], {"nic-nid0037": 8.0})
        self.assertEqual(base.hosts[37][1:], ("g2s1", "g2"))
        # Fat trees of 8 leaves x 16 hosts: 1:1 and 2:1, uplinks at a
        # node link's rate.
        ft1, ft2 = fts["healthy, fat tree 1:1"], fts["healthy, fat tree 2:1"]
        self.assertEqual((ft1.geometry["L"], ft1.geometry["H"], ft1.geometry["P"]), (8, 16, 16))
        self.assertEqual((ft2.geometry["L"], ft2.geometry["H"], ft2.geometry["P"]), (8, 16, 8))
        self.assertEqual(ft2.links["up-leaf3-spine7"], ft2.node_bw)
        self.assertEqual(ft1.links["up-leaf3-spine15"], ft1.node_bw)
        leaf = fts["fat tree 2:1, leaf1 uplinks at 50%"]
        self.assertEqual({k for k in leaf.links if leaf.links[k] != ft2.links[k]},
                         {"up-leaf1-spine%d" % k for k in range(8)})
        spine = fts["fat tree 2:1, spine1 at 50%"]
        self.assertEqual({k for k in spine.links if spine.links[k] != ft2.links[k]},
                         {"up-leaf%d-spine1" % k for k in range(8)})
        self.check_down(other, ft1)

    def check_down(self, fab, ft1):
        """Issue 42's scenarios: links down, none slowed but the NIC."""
        b4 = fab["healthy, bundles of 4 links"]
        self.assertEqual(b4.geometry["W"], 4)
        self.assertEqual({b4.links["gl-g0-g1-%d" % k] for k in range(4)}, {b4.node_bw})
        for name in ("bundle g0-g1: 2 of 4 links down",
                     "node nid0021 at 75% + bundle g0-g1: 2 of 4 down"):
            f = fab[name]
            self.assertEqual(set(b4.links) - set(f.links), {"gl-g0-g1-2", "gl-g0-g1-3"})
            self.assertEqual({k for k in f.links if f.links[k] != b4.links[k]},
                             {"nic-nid0021"} if "node" in name else set())
        sw = fab["switch g1s1: 1 of 2 L1 links down"]
        self.assertEqual({k: sw.links[k] / sw.node_bw for k in sw.links
                          if k.startswith("l1-") and sw.links[k] != 2 * sw.node_bw},
                         {"l1-g1-s0-s1": 1, "l1-g1-s1-s2": 1, "l1-g1-s1-s3": 1})
        leaf = fab["fat tree 1:1, leaf1: 12 of 16 uplinks down"]
        self.assertEqual(set(ft1.links) - set(leaf.links),
                         {"up-leaf1-spine%d" % k for k in range(4, 16)})
        self.assertEqual(len(fab), 5)

    def test_quick_suite(self):
        sc = scenarios.scenarios(16, 4, 4)
        quick = [sc[i - 1]["name"] for i in scenarios.QUICK]
        # every kind of run once: healthy dragonfly and fat tree 2:1, each
        # single fault, a latency fault, two faults at once, no topology,
        # jitter, the whole fabric against its baseline (scenario 1)
        self.assertIn("healthy, full globals", quick)
        self.assertIn("healthy, fat tree 2:1", quick)
        self.assertIn("node nid0021 latency x8", quick)
        self.assertIn("whole fabric at 1/2 vs healthy", quick)
        self.assertTrue(any("+" in n for n in quick))
        # issue 42's capacity faults on the dragonfly (the bundle beside a
        # NIC), a node and a switch named together, a bundle slowed
        self.assertIn("switch g1s1: 1 of 2 L1 links down", quick)
        self.assertIn("node nid0021 at 75% + bundle g0-g1: 2 of 4 down", quick)
        self.assertIn("node nid0025 at 75% + switch g1s1 at 50%", quick)
        self.assertIn("bundle g0-g1 at 50%", quick)
        self.assertLessEqual(len(quick), 10)
        self.assertEqual(sc[6]["baseline"], 0)
        # numbers 1-21 keep their meaning (bench results, --only)
        self.assertEqual(sc[20]["name"], "fat tree 2:1, spine1 at 50%")
        self.assertEqual([sc[i - 1]["name"][:7] for i in scenarios.CAPACITY],
                         ["healthy", "healthy", "bundle ", "switch ", "fat tre", "node ni"])

    def test_judge_row(self):
        """What issue 30's table asks of each verdict, on hand-made
        documents: the verdict, the exact suspects, none outside a switch."""
        sc = {x["name"]: x for x in scenarios.scenarios(8, 4, 4)}
        topo = {"nid0020": ("g1s1", "g1"), "nid0021": ("g1s1", "g1"),
                "nid0000": ("g0s0", "g0")}

        def doc(verdict, *sus):
            return {"verdict": verdict, "suspects": list(sus)}
        rank = {"kind": "rank", "host": "nid0021"}
        sw = {"kind": "switch", "name": "switch g1s1 (ranks 20, 21)"}
        bundle = {"kind": "bundle", "groups": ["g1", "g0"]}
        cap_b = {"kind": "capacity", "scope": "bundle", "parts": ["g1", "g0"]}
        cap_s = {"kind": "capacity", "scope": "switch", "parts": ["g1s1"]}
        cap_ss = {"kind": "capacity", "scope": "switches", "parts": ["g1s1", "g1s2"]}
        cap_l = {"kind": "capacity", "scope": "leaf", "parts": ["leaf1"]}
        self.assertEqual(scenarios.suspect_keys({"suspects": [
            cap_b, cap_ss, {"kind": "capacity", "scope": "bundle", "parts": ["g10", "g2"]}]}),
            ["capacity bundle g0-g1", "capacity bundle g2-g10", "capacity switches g1s1-g1s2"])
        cases = [
            ("healthy, full globals", doc("PASS"), True),
            ("healthy, full globals", doc("INCONCLUSIVE"), False),
            ("node nid0021 at 75%", doc("FAIL", rank), True),
            ("node nid0021 at 75%", doc("FAIL", rank, sw), False),
            ("node nid0021 at 75%", doc("FAIL"), False),
            ("switch g1s1 uplinks at 50%", doc("FAIL", sw), True),
            ("bundle g0-g1 at 50%", doc("FAIL", bundle), True),
            ("bundle g0-g1 at 50%", doc("FAIL", {"kind": "fabric"}), False),
            ("whole fabric at 1/2 vs healthy", doc("FAIL", {"kind": "fabric"}), True),
            ("switch g1s1 uplinks at 50%, no --topology", doc("FAIL", rank), True),
            ("switch g1s1 uplinks at 50%, no --topology", doc("INCONCLUSIVE"), True),
            ("switch g1s1 uplinks at 50%, no --topology",
             doc("FAIL", {"kind": "rank", "host": "nid0000"}), False),
            ("bundle g0-g1 at 50%, no --topology", doc("INCONCLUSIVE"), True),
            ("bundle g0-g1 at 50%, no --topology", doc("FAIL", rank), False),
            ("node nid0021 at 75%, jitter 30%", doc("INCONCLUSIVE"), True),
            ("node nid0021 at 75%, jitter 30%", doc("FAIL", rank), False),
            ("node nid0021 at 75%, jitter 30%", doc("PASS"), False),
            ("nodes nid0021, nid0022 at 75% (one switch)",
             doc("FAIL", {"kind": "rank", "host": "nid0022"}, rank), True),
            ("nodes nid0021, nid0022 at 75% (one switch)", doc("FAIL", sw), False),
            ("nodes nid0021, nid0022 at 75% (one switch)", doc("FAIL", rank), False),
            ("node nid0021 at 75% + bundle g0-g1 at 50%", doc("FAIL", bundle, rank), True),
            ("healthy, fat tree 2:1", doc("FAIL", rank), False),
            ("bundle g0-g1: 2 of 4 links down", doc("FAIL", cap_b), True),
            ("bundle g0-g1: 2 of 4 links down", doc("FAIL", bundle), False),
            ("bundle g0-g1: 2 of 4 links down", doc("PASS"), False),
            ("switch g1s1: 1 of 2 L1 links down", doc("FAIL", cap_s), True),
            ("switch g1s1: 1 of 2 L1 links down", doc("FAIL", cap_ss), False),
            ("fat tree 1:1, leaf1: 12 of 16 uplinks down", doc("FAIL", cap_l), True),
            ("node nid0021 at 75% + bundle g0-g1: 2 of 4 down", doc("FAIL", rank, cap_b), True),
            ("node nid0021 at 75% + bundle g0-g1: 2 of 4 down", doc("FAIL", cap_b), False),
            ("healthy, bundles of 4 links", doc("FAIL", cap_b), False),
        ]
        for name, d, ok in cases:
            got, why = scenarios.judge_row(sc[name]["want"], d, topo)
            self.assertEqual(got, ok, "%s: %s -> %s (%s)" % (name, d, got, why))

    def test_summaries(self):
        s = scenarios.flagged_summary(DOC)
        self.assertTrue(s.startswith("7 (bw_mb_s 4, lat_us 1)"), s)
        self.assertIn("5 listed", s)
        self.assertIn("hosts nid0005:5", s)
        self.assertIn("groups g0-g1:2", s)
        self.assertIn("same switch:2", s)
        self.assertIn("same group:1", s)
        self.assertEqual(scenarios.flagged_summary({"outliers": [], "outliers_total": 0}), "0")
        self.assertEqual(scenarios.suspects_summary(DOC), "rank nid0005 (rank 5, mpi) (5/7 bw_mb_s)")
        self.assertEqual(scenarios.suspects_summary({"suspects": []}), "-")

    def test_bad_input(self):
        me = sys.executable
        cases = [
            (["--sweep", "/nonexistent", "--ranks", "8"], "/nonexistent"),
            (["--sweep", me, "--ranks", "3"], "--ranks 3"),
            (["--sweep", me, "--ranks", "x"], "'x'"),
            (["--sweep", me, "--ranks", "16", "--geometry", "7,2"], "7,2"),
            (["--sweep", me, "--ranks", "16", "--geometry", "2,2,2"], "2,2,2"),
            (["--sweep", me, "--ranks", "16", "--only", "28"], "28"),
            (["--sweep", me, "--ranks", "16", "--suite", "most"], "most"),
            (["--sweep", me, "--ranks", "9", "--geometry", "3,1,3", "--only", "13"], "--ranks 9"),
            (["--sweep", me, "--ranks", "9", "--geometry", "3,1,3", "--suite", "capacity"],
             "12, 13, 20, 21, 25"),
            (["--sweep", me, "--ranks", "16", "--jobs", "0"], "--jobs 0"),
            (["--sweep", me, "--ranks", "16", "--bundle", "0"], "--bundle 0"),
            (["--sweep", me, "--ranks", "16", "--timeout", "-1"], "-1"),
            (["--sweep", me, "--ranks", "16", "--cfg", "smpi/test:0"], "smpi/test:0"),
            (["--ranks", "16"], "--sweep"),
        ]
        usage_errors.check(self, [me, os.path.join(SIM, "scenarios.py")], cases)


if __name__ == "__main__":
    unittest.main()
