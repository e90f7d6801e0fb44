#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim/platgen.py's outputs: the XML parses and holds what the options say
(hosts, links, bandwidths, duplex links, the model settings, a disk per
host), the hostfile and the topology file name every host, and bad input
exits 2 naming the value.  python3 tests/sim/test_platgen.py"""
import os
import subprocess
import sys
import tempfile
import unittest

import usage_errors  # tests/sim/usage_errors.py, beside this file
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
PLATGEN = os.path.join(HERE, "..", "..", "sim", "platgen.py")
# The smallest fat tree, which most bad-input cases start from.
FT2 = ["fattree", "--leaves", "2", "--hosts", "2", "--spines", "1"]
sys.path.insert(0, os.path.dirname(PLATGEN))
import platgen  # noqa: E402


def bw_of(text):
    assert text.endswith("Bps"), text
    return float(text[:-3])



def down(base, *specs):
    """base's words with a --down SPEC for each spec."""
    return base + [w for sp in specs for w in ("--down", sp)]

class Generated(unittest.TestCase):
    def gen(self, *args):
        d = tempfile.mkdtemp(prefix="platgen.")
        self.addCleanup(subprocess.run, ["rm", "-rf", d])
        prefix = os.path.join(d, "p")
        out = subprocess.run([sys.executable, PLATGEN, *args, "-o", prefix],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        root = ET.parse(prefix + ".xml").getroot()
        with open(prefix + ".hosts") as fh:
            hosts = fh.read().split()
        with open(prefix + ".topo") as fh:
            topo = [ln.split() for ln in fh if ln.strip() and not ln.startswith("#")]
        return root, hosts, topo

    def links(self, root):
        return {lk.get("id"): lk for lk in root.iter("link")}

    def test_dragonfly_counts_and_rates(self):
        root, hosts, topo = self.gen("dragonfly", "--groups", "4", "--switches", "3",
                                     "--hosts", "2", "--bundle", "2")
        self.assertEqual(len(hosts), 24)
        self.assertEqual(len(set(hosts)), 24)
        links = self.links(root)
        nic = [k for k in links if k.startswith("nic-")]
        l1 = [k for k in links if k.startswith("l1-")]
        lanes = [k for k in links if k.startswith(("l1out-", "l1in-"))]
        ports = [k for k in links if k.startswith("port-")]
        gl = [k for k in links if k.startswith("gl-")]
        # A lane out and in per host and other switch of its group.
        self.assertEqual((len(nic), len(l1), len(lanes), len(ports), len(gl)),
                         (24, 4 * 3, 24 * 2 * 2, 24, 6 * 2))
        self.assertEqual(len(links), 24 + 12 + 96 + 24 + 12)
        self.assertIn("l1out-nid0007-s2", lanes)  # nid0007 is on g1s0
        self.assertIn("l1in-nid0007-s1", lanes)
        self.assertNotIn("l1out-nid0007-s0", lanes)
        # Lanes are shared (by the pair's messages), ports FATPIPE, both
        # without latency; every other link is full duplex with the set one.
        for name, lk in links.items():
            pol = ("SHARED" if name in lanes else "FATPIPE" if name in ports
                   else "SPLITDUPLEX")
            self.assertEqual(lk.get("sharing_policy"), pol, name)
            lat = float(lk.get("latency")[:-1])
            self.assertAlmostEqual(lat, 250e-9 if pol == "SPLITDUPLEX" else 0, delta=1e-18)
        node = bw_of(links["nic-nid0000"].get("bandwidth"))
        self.assertEqual(node, 25e9)
        # L1 defaults to one node link's worth (a Slingshot switch's nodes
        # share one link to each other switch), its lane to one node link;
        # a full bundle carries S*H/(G-1) nodes.
        self.assertEqual(bw_of(links["l1-g0-s0-s1"].get("bandwidth")), node)
        self.assertEqual(bw_of(links["l1out-nid0000-s1"].get("bandwidth")), node)
        self.assertEqual(bw_of(links["port-nid0005"].get("bandwidth")), node)
        self.assertAlmostEqual(bw_of(links["gl-g0-g1-0"].get("bandwidth")) * 2,
                               node * 3 * 2 / 3, delta=1)
        # Topology: every host once, its switch and group.
        self.assertEqual([t[0] for t in topo], hosts)
        self.assertEqual(topo[7], ["nid0007", "g1s0", "g1"])
        # Each group's global capacity is what its nodes inject (taper 1).
        g0 = sum(bw_of(links[k].get("bandwidth")) for k in gl
                 if k.startswith("gl-g0-") or "-g0-" in k)
        self.assertAlmostEqual(g0, 3 * 2 * node, delta=10)

    def test_lane_option_and_routes(self):
        root, _, _ = self.gen("dragonfly", "--groups", "2", "--switches", "2", "--hosts", "4",
                              "--bundle", "1", "--local", "3", "--lane", "0.5")
        links = self.links(root)
        self.assertEqual(bw_of(links["l1-g1-s0-s1"].get("bandwidth")), 3 * 25e9)
        self.assertEqual(bw_of(links["l1out-nid0008-s1"].get("bandwidth")), 0.5 * 25e9)
        self.assertEqual(bw_of(links["l1in-nid0008-s1"].get("bandwidth")), 0.5 * 25e9)
        # Every edge that takes an L1 link takes one lane of it, of the
        # host at that end; a lane names no direction.
        n = 0
        for r in root.iter("route"):
            ids = [(c.get("id"), c.get("direction")) for c in r.iter("link_ctn")]
            l1 = [(lk, d) for lk, d in ids if lk.startswith("l1-")]
            lanes = [(lk, d) for lk, d in ids if lk.startswith(("l1out-", "l1in-"))]
            self.assertEqual(len(l1), len(lanes), ids)
            for (lk, d), (ln, ld) in zip(l1, lanes):
                self.assertIn(d, ("UP", "DOWN"))
                self.assertIsNone(ld)
                host = r.get("src") if ln.startswith("l1out-") else r.get("dst")
                self.assertTrue(ln.startswith(("l1out-" + host, "l1in-" + host)), (ln, host))
                n += 1
        # Up from each of the 16 hosts to the other switch; and to each host
        # of switch 1 (8) from its arrival router for the global links that
        # land on switch 0 (all of them: one link a bundle).
        self.assertEqual(n, 16 + 8)
        f, _ = platgen.build(["dragonfly", "--groups", "2", "--switches", "2", "--hosts", "1",
                              "--bundle", "1", "-o", "x"])
        # nid0001 (g0s1) to nid0002 (g1s0): its lane and the L1 link to
        # g0s0, the global link, which lands on g1s0.
        self.assertEqual(platgen.df_route(f.geometry, 1, 2),
                         [("nic-nid0001", "UP"), ("l1out-nid0001-s0", None),
                          ("l1-g0-s0-s1", "DOWN"), ("gl-g0-g1-0", "UP"), ("nic-nid0002", "DOWN")])
        # nid0000 (g0s0) to nid0003 (g1s1): the global link leaves from its
        # own switch (through its port) and lands on g1s0; L1 and
        # nid0003's lane in from s0.
        self.assertEqual(platgen.df_route(f.geometry, 0, 3),
                         [("nic-nid0000", "UP"), ("port-nid0000", None), ("gl-g0-g1-0", "UP"),
                          ("l1-g1-s0-s1", "UP"), ("l1in-nid0003-s0", None),
                          ("nic-nid0003", "DOWN")])
        self.assertAlmostEqual(f.latency(platgen.df_route(f.geometry, 1, 2)), 4 * 250e-9,
                               delta=1e-15)
        for bad in ("0", "-1", "x"):
            out = subprocess.run([sys.executable, PLATGEN, "dragonfly", "--groups", "2",
                                  "--switches", "2", "--hosts", "2", "--lane", bad, "-o", "/x"],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 2, bad)
            self.assertIn(bad, out.stderr)

    def test_config_and_disks(self):
        root, hosts, _ = self.gen("fattree", "--leaves", "2", "--hosts", "3", "--spines", "2")
        cfg = {p.get("id"): p.get("value") for p in root.find("config")}
        self.assertEqual(cfg["network/crosstraffic"], "0")
        self.assertEqual(cfg["smpi/bw-factor"], "0:1.0")
        self.assertEqual(cfg["smpi/lat-factor"], "0:1.0")
        for h in root.iter("host"):
            self.assertIsNotNone(h.find("disk"), h.get("id"))
        zone = root.find("zone")
        self.assertEqual(zone.get("routing"), "DijkstraCache")
        self.assertEqual(len(hosts), 6)

    def test_fattree_taper_and_slow(self):
        root, _, topo = self.gen("fattree", "--leaves", "4", "--hosts", "8", "--spines", "4",
                                 "--taper", "0.5", "--slow", "spine:spine1=0.5",
                                 "--slow", "node:nid0003=0.75")
        links = self.links(root)
        node = 25e9
        # Full: 4 uplinks carry 8 hosts, 2 x node each; tapered to 1/2.
        self.assertEqual(bw_of(links["up-leaf0-spine0"].get("bandwidth")), node)
        self.assertEqual(bw_of(links["up-leaf2-spine1"].get("bandwidth")), node / 2)
        self.assertEqual(bw_of(links["nic-nid0003"].get("bandwidth")), node * 0.75)
        self.assertEqual(bw_of(links["nic-nid0004"].get("bandwidth")), node)
        self.assertEqual(topo[9], ["nid0009", "leaf1"])

    def test_slow_sets(self):
        f, _ = platgen.build(["dragonfly", "--groups", "3", "--switches", "2", "--hosts", "2",
                              "--bundle", "2", "--slow", "switch:g1s0=0.5",
                              "--slow", "bundle:g2-g0=0.5", "-o", "x"])
        base, _ = platgen.build(["dragonfly", "--groups", "3", "--switches", "2", "--hosts", "2",
                                 "--bundle", "2", "-o", "x"])
        changed = {k for k in f.links if f.links[k] != base.links[k]}
        # The switch's uplinks: its L1 connection (aggregate and lane) and
        # the global links landing on it.
        want = {"l1-g1-s0-s1"} | {"gl-g0-g2-0", "gl-g0-g2-1"}
        want |= {"l1%s-nid%04d-s%d" % (d, h, 1 - h // 2 % 2)
                 for d in ("out", "in") for h in range(4, 8)}
        geo = base.geometry
        for j in (0, 2):
            for k in range(2):
                if platgen.df_attach(geo, 1, j, k) == 0:
                    want.add(platgen.df_global(1, j, k)[0])
        self.assertEqual(changed, want)
        self.assertIn("l1in-nid0006-s0", want)  # nid0006 is on g1s1
        self.assertEqual(f.links["l1in-nid0006-s0"], 0.5 * base.links["l1in-nid0006-s0"])
        # A lane may be named alone.
        f, _ = platgen.build(["dragonfly", "--groups", "3", "--switches", "2", "--hosts", "2",
                              "--bundle", "2", "--slow", "link:l1in-nid0010-s0=0.25", "-o", "x"])
        self.assertEqual({k for k in f.links if f.links[k] != base.links[k]},
                         {"l1in-nid0010-s0"})
        self.assertEqual(f.links["l1in-nid0010-s0"], 0.25 * 25e9)

    def test_slow_lat(self):
        args = ["dragonfly", "--groups", "2", "--switches", "2", "--hosts", "2", "-o", "x"]
        f, _ = platgen.build(args + ["--slow-lat", "node:nid0003=4"])
        self.assertEqual(f.lat_factor, {"nic-nid0003": 4.0})
        self.assertAlmostEqual(f.link_latency("nic-nid0003"), 1e-6, delta=1e-18)
        self.assertAlmostEqual(f.link_latency("nic-nid0002"), 250e-9, delta=1e-18)
        # nid0002 -> nid0003, same switch: two node links, one of them x4
        self.assertAlmostEqual(f.latency(platgen.df_route(f.geometry, 2, 3)), 1.25e-6,
                               delta=1e-15)
        # the bandwidth is untouched
        base, _ = platgen.build(args)
        self.assertEqual(f.links, base.links)
        root, _, _ = self.gen("fattree", "--leaves", "2", "--hosts", "2", "--spines", "1",
                              "--slow-lat", "node:nid0001=2.5")
        lat = {lk.get("id"): float(lk.get("latency")[:-1]) for lk in root.iter("link")}
        self.assertAlmostEqual(lat["nic-nid0001"], 625e-9, delta=1e-18)
        self.assertAlmostEqual(lat["nic-nid0000"], 250e-9, delta=1e-18)

    def test_widths_and_taper_ratio(self):
        # without --state-widths the topology file has only hosts
        _, _, topo = self.gen("dragonfly", "--groups", "3", "--switches", "2", "--hosts", "4")
        self.assertFalse([t for t in topo if t[0] == "width"])
        d = tempfile.mkdtemp(prefix="platgen.")
        self.addCleanup(subprocess.run, ["rm", "-rf", d])

        def widths(*args):
            subprocess.run([sys.executable, PLATGEN, *args, "--state-widths", "-o", d + "/w"],
                           check=True, capture_output=True)
            with open(d + "/w.topo") as fh:
                return [ln.split() for ln in fh if ln.startswith("width ")]
        # L1 of 1 (default), 2, or half a link (still one pair at a time);
        # a bundle of 2 links of 8*4/2/2 = 8 node links each
        self.assertEqual(widths("dragonfly", "--groups", "3", "--switches", "8", "--hosts",
                                "4", "--bundle", "2"),
                         [["width", "local", "1"], ["width", "global", "16"]])
        self.assertEqual(widths("dragonfly", "--groups", "3", "--switches", "8", "--hosts",
                                "4", "--bundle", "2", "--local", "2", "--taper", "0.25"),
                         [["width", "local", "2"], ["width", "global", "4"]])
        self.assertEqual(widths("dragonfly", "--groups", "2", "--switches", "2", "--hosts",
                                "2", "--local", "0.5", "--global-bw", "0.5"),
                         [["width", "local", "1"], ["width", "global", "1"]])
        # fat tree 1:1 and 2:1 with 16 hosts a leaf: 16 or 8 pairs leave it
        self.assertEqual(widths("fattree", "--leaves", "2", "--hosts", "16", "--spines", "16"),
                         [["width", "uplink", "16"]])
        self.assertEqual(widths("fattree", "--leaves", "2", "--hosts", "16", "--spines", "8",
                                "--taper", "2:1"), [["width", "uplink", "8"]])
        f, _ = platgen.build(["fattree", "--leaves", "2", "--hosts", "16", "--spines", "8",
                              "--taper", "2:1", "-o", "x"])
        self.assertEqual(f.links["up-leaf0-spine3"], 25e9)

    def test_scale(self):
        f, _ = platgen.build([*FT2, "--scale", "0.5", "-o", "x"])
        self.assertEqual(f.links["nic-nid0000"], 12.5e9)
        args = ["dragonfly", "--groups", "2", "--switches", "2", "--hosts", "2", "-o", "x"]
        base, _ = platgen.build(args)
        f, _ = platgen.build(args + ["--scale", "0.5"])
        self.assertIn("l1out-nid0000-s1", f.lanes)
        for k in base.links:
            self.assertEqual(f.links[k], base.links[k] * 0.5, k)

    def assert_routes_over(self, f, root, gone):
        """Every pair's intended route takes links of the platform and none
        of `gone`; no route of the XML names one of them."""
        rule = platgen.df_route if f.kind == "dragonfly" else platgen.ft_route
        n = len(f.hosts)
        for a in range(n):
            for b in range(n):
                if a != b:
                    route = {lk for lk, _ in rule(f.geometry, a, b)}
                    self.assertTrue(route <= set(f.links), (a, b, route - set(f.links)))
        self.assertFalse(gone & set(self.links(root)))
        named = {c.get("id") for r in root.iter("route") for c in r.iter("link_ctn")}
        self.assertFalse(gone & named)

    def test_down_bundle(self):
        args = ["dragonfly", "--groups", "3", "--switches", "4", "--hosts", "2",
                "--bundle", "4", "--global-bw", "4"]
        root, _, _ = self.gen(*args, "--down", "bundle:g1-g0=2")
        base, _ = platgen.build(args + ["-o", "x"])
        f, _ = platgen.build(args + ["--down", "bundle:g1-g0=2", "-o", "x"])
        gone = {"gl-g0-g1-2", "gl-g0-g1-3"}
        self.assertEqual(set(base.links) - set(f.links), gone)
        self.assertEqual({k for k in f.links if f.links[k] != base.links[k]}, set())
        self.assert_routes_over(f, root, gone)
        # to g1s2 (k = 2, down): the survivors by the same rule, alive[2 mod 2]
        # = link 0, which lands on g0s0 and g1s0: an L1 hop on both sides;
        # the other direction alike; other bundles keep k = t mod W
        self.assertIn(("gl-g0-g1-0", "UP"), platgen.df_route(f.geometry, 2, 12))
        self.assertIn(("gl-g0-g1-1", "DOWN"), platgen.df_route(f.geometry, 8, 6))
        self.assertIn(("gl-g0-g1-1", "UP"), platgen.df_route(f.geometry, 2, 10))
        self.assertEqual(platgen.df_route(f.geometry, 2, 20),
                         platgen.df_route(base.geometry, 2, 20))
        self.assertEqual(len([r for r in platgen.df_route(f.geometry, 2, 12)
                              if r[0].startswith("l1-")]), 2)
        self.assertTrue(any(n.startswith("down: bundle g0-g1: 2 of 4") for n in f.notes))
        # --slow names the survivors only
        f, _ = platgen.build(args + ["--down", "bundle:g0-g1=3", "--slow", "bundle:g0-g1=0.5",
                                     "-o", "x"])
        self.assertEqual(f.links["gl-g0-g1-0"], base.links["gl-g0-g1-0"] / 2)

    def test_down_switch(self):
        args = ["dragonfly", "--groups", "2", "--switches", "3", "--hosts", "2", "--local", "3"]
        base, _ = platgen.build(args + ["-o", "x"])
        f, _ = platgen.build(args + ["--down", "switch:g1s1=1", "--down", "switch:g1s2=1",
                                     "-o", "x"])
        changed = {k: f.links[k] / base.links[k] for k in f.links if f.links[k] != base.links[k]}
        # each connection of g1s1 and g1s2 loses a link; the one between
        # them loses one from each end; lanes and routes stay
        self.assertEqual(changed, {"l1-g1-s0-s1": 2 / 3, "l1-g1-s0-s2": 2 / 3,
                                   "l1-g1-s1-s2": 1 / 3})
        self.assertEqual(f.edges, base.edges)
        self.assertEqual(set(f.links), set(base.links))

    def test_down_leaf(self):
        args = ["fattree", "--leaves", "4", "--hosts", "4", "--spines", "4"]
        root, _, _ = self.gen(*args, "--down", "leaf:leaf1=2", "--down", "leaf:leaf3=1")
        base, _ = platgen.build(args + ["-o", "x"])
        f, _ = platgen.build(args + ["--down", "leaf:leaf1=2", "--down", "leaf:leaf3=1",
                                     "-o", "x"])
        gone = {"up-leaf1-spine2", "up-leaf1-spine3", "up-leaf3-spine3"}
        self.assertEqual(set(base.links) - set(f.links), gone)
        self.assert_routes_over(f, root, gone)
        # leaves 0 and 2 to each other: d-mod-k as before
        for a, b in ((0, 11), (11, 2), (3, 8)):
            self.assertEqual(platgen.ft_route(f.geometry, a, b),
                             platgen.ft_route(base.geometry, a, b))
        # nid0006 (leaf1, spine 2 down) is reached through spine alive[6 mod 2]
        # = 0; from leaf1 to nid0011 (home spine 3) through spine 11 mod 2 = 1;
        # from leaf3 to nid0007 (home spine 3 from leaf1: 7 mod 2 = 1) as usual
        self.assertIn(("up-leaf1-spine0", "DOWN"), platgen.ft_route(f.geometry, 0, 6))
        self.assertIn(("up-leaf1-spine1", "UP"), platgen.ft_route(f.geometry, 4, 11))
        self.assertIn(("up-leaf3-spine1", "UP"), platgen.ft_route(f.geometry, 12, 7))
        self.assertIn("ftx-leaf1-1", f.routers)

    def test_down_bad_input(self):
        df = ["dragonfly", "--groups", "3", "--switches", "2", "--hosts", "2", "--bundle", "2"]
        ft = ["fattree", "--leaves", "2", "--hosts", "4", "--spines", "4"]
        bad = [
            (down(df, "bundle:g0-g1=2"), "bundle:g0-g1=2"),
            (down(df, "bundle:g0-g1=0"), "'0'"),
            (down(df, "bundle:g0-g1=1.5"), "'1.5'"),
            (down(df, "bundle:g0-g3=1"), "g0-g3"),
            (down(df, "bundle:g1-g1=1"), "g1-g1"),
            (down(df, "bundle:g0-g1=1", "bundle:g1-g0=1"), "g1-g0"),
            (down(df, "switch:g1s1=1"), "--local 1"),
            (down(df + ["--local", "2"], "switch:g1s1=2"), "switch:g1s1=2"),
            (down(df + ["--local", "2"], "switch:g1s1=1", "switch:g1s0=1"),
             "switch:g1s0=1"),
            (down(df + ["--local", "2"], "switch:g1s5=1"), "g1s5"),
            (down(df + ["--local", "3"], "switch:g1s1=1", "switch:g1s1=1"),
             "named twice"),
            (down(df, "leaf:leaf0=1"), "leaf"),
            (down(df, "g0-g1=1"), "g0-g1=1"),
            (down(ft, "leaf:leaf1=4"), "leaf:leaf1=4"),
            (down(ft, "leaf:leaf2=1"), "leaf2"),
            (down(ft, "leaf:leaf0=2", "leaf:leaf0=1"), "leaf:leaf0=1"),
            (down(ft, "bundle:g0-g1=1"), "bundle"),
            (down(ft, "leaf:leaf1=x"), "'x'"),
        ]
        usage_errors.check(self, [sys.executable, PLATGEN], bad, ("-o", "/nonexistent/p"))

    def test_bad_input_exit_2(self):
        bad = [
            (["dragonfly", "--groups", "1", "--switches", "2", "--hosts", "2"], "--groups 1"),
            (["dragonfly", "--groups", "x", "--switches", "2", "--hosts", "2"], "'x'"),
            (["fattree", "--leaves", "2", "--hosts", "0", "--spines", "1"], "0"),
            (["fattree", "--leaves", "2", "--hosts", "2", "--spines", "1", "--taper", "-1"], "-1"),
            ([*FT2, "--slow", "node:nid0009=0.5"], "nid0009"),
            ([*FT2, "--slow", "node:nid0001=1.5"], "1.5"),
            ([*FT2, "--slow", "wire:x=0.5"], "wire"),
            ([*FT2, "--slow", "nid0001"], "nid0001"),
            ([*FT2, "--scale", "zero"], "zero"),
            (["dragonfly", "--groups", "2", "--switches", "2", "--hosts", "2",
              "--slow", "spine:spine0=0.5"], "spine0"),
            (["torus", "--hosts", "2"], "torus"),
            ([*FT2, "--slow-lat", "node:nid0001=0.5"], "0.5"),
            ([*FT2, "--slow-lat", "node:nid0001=1"], "=1"),
            ([*FT2, "--slow-lat", "node:nid0001=fast"], "fast"),
            ([*FT2, "--slow-lat", "node:nid0007=2"], "nid0007"),
            ([*FT2, "--slow-lat", "spine:spine0=2"], "spine"),
            ([*FT2, "--slow-lat", "node:nid0001=5000"], "5000"),
            ([*FT2, "--taper", "2:0"], "2:0"),
            ([*FT2, "--taper", "a:b"], "a:b"),
        ]
        usage_errors.check(self, [sys.executable, PLATGEN], bad, ("-o", "/nonexistent/p"))
        out = subprocess.run([sys.executable, PLATGEN, "fattree", "--leaves", "2", "--hosts",
                              "2", "--spines", "1", "-o", "/nonexistent/p"],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("/nonexistent/p", out.stderr)


if __name__ == "__main__":
    unittest.main()
