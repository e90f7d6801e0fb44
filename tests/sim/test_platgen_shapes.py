#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim/platgen.py's shape options (issue 49) and its --links lines:
partly filled switches (--fill), where global links land
(--global-landing), hashed fat tree routes (--ft-routes), a job on part of
the machine (--job), the switch/link/route lines and their check against
the platform (tests/sim/check_links.py), bad input exiting 2 naming the
value.  python3 tests/sim/test_platgen_shapes.py"""
import os
import shutil
import sys
import tempfile
import unittest

import check_links  # tests/sim/check_links.py, beside this file
import usage_errors

HERE = os.path.dirname(os.path.abspath(__file__))
PLATGEN = os.path.join(HERE, "..", "..", "sim", "platgen.py")
sys.path.insert(0, os.path.dirname(PLATGEN))
import platgen  # noqa: E402

DF = ["dragonfly", "--groups", "4", "--switches", "3", "--hosts", "2", "--bundle", "2"]
FT = ["fattree", "--leaves", "4", "--hosts", "4", "--spines", "4"]


def build(*args):
    return platgen.build(list(args) + ["-o", "x"])[0]


class Written(unittest.TestCase):
    """Writes platforms into a temporary directory, in this process
    (platgen.py's own main is test_platgen.py's and BadInput's)."""

    def write(self, *args):
        d = tempfile.mkdtemp(prefix="platgen.")
        self.addCleanup(shutil.rmtree, d)
        f, a = platgen.build(list(args) + ["-o", os.path.join(d, "p")])
        platgen.write_outputs(f, a.output, a.state_widths)
        return a.output

    def read(self, path):
        with open(path) as fh:
            return fh.read()


class Fill(Written):
    def test_dragonfly_fill(self):
        f = build(*DF, "--fill", "g1s2=0", "--fill", "g0s0=1")
        self.assertEqual(len(f.hosts), 24 - 3)
        # numbered switch by switch, names as wide as before
        self.assertEqual(f.hosts[0], ("nid0000", "g0s0", "g0"))
        self.assertEqual(f.hosts[1], ("nid0001", "g0s1", "g0"))
        self.assertNotIn("g1s2", {sw for _, sw, _ in f.hosts})
        self.assertIn("sw-g1s2", f.routers)
        # no arrival router leads to the empty switch (in-g1s2, in-g1sY-s2);
        # global links landing on it lead on to the group's other switches
        self.assertNotIn("in-g1s2", f.routers)
        self.assertFalse([r for r in f.routers if r.startswith("in-g1s") and r.endswith("-s2")])
        self.assertIn("in-g1s2-s0", f.routers)
        # g0s0 has one host, so g1s0's are 5 and 6, g1s1's 7 and 8
        self.assertEqual(f.geometry["at"][5:10], [(1, 0), (1, 0), (1, 1), (1, 1), (2, 0)])

    def test_fattree_fill(self):
        f = build(*FT, "--fill", "leaf1=1", "--fill", "leaf3=3")
        self.assertEqual(len(f.hosts), 12)
        self.assertEqual([sw for _, sw, _ in f.hosts].count("leaf1"), 1)
        # d-mod-k by the host's index
        self.assertIn(("up-leaf1-spine0", "DOWN"), platgen.ft_route(f.geometry, 0, 4))

    def test_default_is_unchanged(self):
        for args in (DF, FT):
            a, b = build(*args), build(*args, "--fill", "%s=%s" % (
                "g0s0" if args is DF else "leaf0", 2 if args is DF else 4))
            self.assertEqual((a.links, a.edges, a.routers), (b.links, b.edges, b.routers))
        a, b = build(*DF), build(*DF, "--global-landing", "all")
        self.assertEqual((a.links, a.edges), (b.links, b.edges))
        a, b = build(*FT), build(*FT, "--ft-routes", "dmodk")
        self.assertEqual((a.links, a.edges), (b.links, b.edges))


class Landing(unittest.TestCase):
    def landings(self, f, i, j):
        """Switches of i and j where bundle i-j's links land."""
        geo = f.geometry
        return [(platgen.df_attach(geo, i, j, k), platgen.df_attach(geo, j, i, k))
                for k in range(geo["W"])]

    def test_one(self):
        args = ["dragonfly", "--groups", "4", "--switches", "4", "--hosts", "2", "--bundle",
                "3", "--global-landing", "one"]
        f = build(*args)
        for i in range(4):
            peers = set()
            for j in range(4):
                if i != j:
                    ends = set(self.landings(f, i, j))
                    self.assertEqual(len(ends), 1, (i, j, ends))
                    peers.add(next(iter(ends))[0])
            # different group pairs on different switches of group i
            self.assertEqual(len(peers), 3)

    def test_k(self):
        args = ["dragonfly", "--groups", "3", "--switches", "4", "--hosts", "2", "--bundle",
                "4", "--global-landing", "2"]
        f = build(*args)
        for i, j in ((0, 1), (1, 2), (2, 0)):
            self.assertEqual(len({x for x, _ in self.landings(f, i, j)}), 2)
        # all: a bundle of 4 over 4 switches
        f = build(*args[:-2])
        self.assertEqual(len({x for x, _ in self.landings(f, 0, 1)}), 4)


class Hashed(unittest.TestCase):
    def test_spine_by_pair(self):
        f = build(*FT, "--ft-routes", "hashed")
        geo = f.geometry
        spine = {(a, b): platgen.ft_route(geo, a, b)[1][0][-1]
                 for a in range(16) for b in range(16) if a // 4 != b // 4}
        # into one host from several sources over several spines
        self.assertGreater(len({spine[(a, 5)] for a in range(16) if a // 4 != 1}), 1)
        # d-mod-k would send all of them through spine 5 mod 4
        d = build(*FT)
        self.assertEqual({platgen.ft_route(d.geometry, a, 5)[1][0] for a in (0, 8, 12)},
                         {"up-leaf0-spine1", "up-leaf2-spine1", "up-leaf3-spine1"})
        self.assertEqual(spine, {k: platgen.ft_route(build(*FT, "--ft-routes", "hashed")
                                                     .geometry, *k)[1][0][-1] for k in spine})
        self.assertFalse([r for r in f.routers if r.startswith("spine")])
        self.assertTrue([r for r in f.routers if r.startswith("fth-nid0000-")])

    def test_down_with_hash(self):
        f = build(*FT, "--ft-routes", "hashed", "--down", "leaf:leaf1=2")
        for a in range(16):
            for b in range(16):
                if a != b:
                    route = {lk for lk, _ in platgen.ft_route(f.geometry, a, b)}
                    self.assertTrue(route <= set(f.links), (a, b))


class Job(Written):
    def test_job_hostfile(self):
        p = self.write(*DF, "--job", "10", "--job-seed", "3")
        hosts = self.read(p + ".hosts").split()
        topo = [ln.split()[0] for ln in self.read(p + ".topo").splitlines()
                if not ln.startswith("#")]
        self.assertEqual(len(hosts), 10)
        self.assertEqual(len(topo), 24)
        self.assertEqual(hosts, [h for h in topo if h in hosts])  # machine order
        again = self.read(self.write(*DF, "--job", "10", "--job-seed", "3") + ".hosts").split()
        other = self.read(self.write(*DF, "--job", "10", "--job-seed", "4") + ".hosts").split()
        self.assertEqual(hosts, again)
        self.assertNotEqual(hosts, other)


class Links(Written):
    def lines(self, prefix, kind):
        return [ln.split() for ln in self.read(prefix + ".topo").splitlines()
                if ln.split()[:1] == [kind]]

    def test_off_by_default(self):
        p = self.write(*DF)
        self.assertFalse(self.lines(p, "link") + self.lines(p, "route"))
        self.assertNotIn('id="switches"', self.read(p + ".xml"))

    def test_dragonfly_lines(self):
        p = self.write("dragonfly", "--groups", "2", "--switches", "2", "--hosts", "1",
                       "--bundle", "3", "--local", "2", "--fill", "g1s1=0", "--links")
        self.assertEqual(self.lines(p, "switch"), [["switch", "g1s1", "g1"]])
        # L1 of 2 links in each group; bundle g0-g1 dealt over both
        # switches: links 0 and 2 join g0s0 and g1s0, link 1 g0s1 and g1s1
        self.assertEqual(self.lines(p, "link"), [["link", "g0s0", "g0s1", "2"],
                                                 ["link", "g1s0", "g1s1", "2"],
                                                 ["link", "g0s0", "g1s0", "2"],
                                                 ["link", "g0s1", "g1s1", "1"]])
        self.assertEqual(self.lines(p, "route"), [["route", "minimal"]])
        self.assertEqual(check_links.main_for(p), [])

    def test_fattree_lines(self):
        p = self.write("fattree", "--leaves", "2", "--hosts", "4", "--spines", "2", "--links")
        self.assertEqual(self.lines(p, "switch"), [["switch", "spine0"], ["switch", "spine1"]])
        # an uplink of 4/2 node links: two links
        self.assertEqual(self.lines(p, "link")[0], ["link", "leaf0", "spine0", "2"])
        self.assertEqual(self.lines(p, "route"), [["route", "ecmp"]])

    def test_down_keeps_design(self):
        args = ["dragonfly", "--groups", "3", "--switches", "3", "--hosts", "2", "--bundle",
                "3", "--local", "2", "--links"]
        a = self.lines(self.write(*args), "link")
        b = self.lines(self.write(*args, "--down", "bundle:g0-g1=2", "--down",
                                  "switch:g1s1=1"), "link")
        self.assertEqual(a, b)

    def test_check_agrees(self):
        shapes = [
            DF, FT, FT + ["--ft-routes", "hashed", "--fill", "leaf2=1"],
            ["dragonfly", "--groups", "5", "--switches", "4", "--hosts", "3", "--bundle", "4",
             "--global-landing", "2", "--local", "3", "--fill", "g0s1=0", "--fill", "g0s2=0"],
            ["dragonfly", "--groups", "3", "--switches", "2", "--hosts", "2", "--bundle", "5",
             "--global-landing", "one", "--global-bw", "2.5"],
            ["dragonfly", "--groups", "3", "--switches", "1", "--hosts", "3"],
            ["fattree", "--leaves", "3", "--hosts", "6", "--spines", "2", "--taper", "3:1"],
        ]
        for s in shapes:
            self.assertEqual(check_links.main_for(self.write(*s, "--links")), [], s)

    def test_check_finds(self):
        p = self.write(*DF, "--local", "2", "--fill", "g2s1=0", "--links")
        good = self.read(p + ".topo")
        cases = [
            ("link g0s0 g0s1 2\n", "link g0s0 g0s1 1\n", "the platform has 2"),
            ("link g0s0 g0s1 2\n", "", "no link line does"),
            ("route minimal\n", "route ecmp\n", "want one: route minimal"),
            ("switch g2s1 g2\n", "", "on no host or switch line"),
            ("route minimal\n", "route minimal\nlink g0s0 g3s2 1\n", "the platform has 0"),
            ("route minimal\n", "route minimal\nlink g0s0 g0s1 2\n", "on 2 lines"),
            ("route minimal\n", "route minimal\nswitch g0s0 g0\n", "a switch with hosts"),
        ]
        for old, new, says in cases:
            self.assertIn(old, good)
            with open(p + ".topo", "w") as fh:
                fh.write(good.replace(old, new, 1))
            bad = check_links.main_for(p)
            self.assertTrue([b for b in bad if says in b], (old, new, bad))
        with open(p + ".topo", "w") as fh:
            fh.write(good)
        xml = self.read(p + ".xml")
        with open(p + ".xml", "w") as fh:
            fh.write(xml.replace('value="g0s0 g1s0"', 'value="g0s0 g1s1"', 1))
        self.assertTrue([b for b in check_links.main_for(p) if "property says" in b])


class BadInput(unittest.TestCase):
    def test_exit_2(self):
        bad = [
            (DF + ["--fill", "g0s3=1"], "g0s3"),
            (DF + ["--fill", "g4s0=1"], "g4s0"),
            (DF + ["--fill", "g0s0=3"], "'3'"),
            (DF + ["--fill", "g0s0=x"], "'x'"),
            (DF + ["--fill", "g0s0"], "g0s0"),
            (DF + ["--fill", "g0s0=1", "--fill", "g0s0=0"], "named twice"),
            (DF + ["--fill", "g1s0=0", "--fill", "g1s1=0", "--fill", "g1s2=0"], "g1"),
            (DF + ["--fill", "leaf0=1"], "leaf0"),
            (FT + ["--fill", "leaf0=0"], "'0'"),
            (FT + ["--fill", "leaf4=1"], "leaf4"),
            (FT + ["--fill", "g0s0=1"], "g0s0"),
            (DF + ["--global-landing", "0"], "'0'"),
            (DF + ["--global-landing", "4"], "'4'"),
            (DF + ["--global-landing", "some"], "'some'"),
            (FT + ["--ft-routes", "random"], "random"),
            (FT + ["--global-landing", "one"], "--global-landing"),
            (DF + ["--job", "0"], "0"),
            (DF + ["--job", "25"], "--job 25"),
            (DF + ["--job", "5", "--job-seed", "x"], "'x'"),
        ]
        usage_errors.check(self, [sys.executable, PLATGEN], bad, ("-o", "/nonexistent/p"))


if __name__ == "__main__":
    unittest.main()
