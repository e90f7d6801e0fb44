#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a SimGrid 3.32 platform for cxi_sweep under SMPI: a dragonfly or a
two-level fat tree as explicit hosts, routers, links and routes, so that any
one link can be slowed. Also writes the hostfile (smpirun -hostfile) and the
--topology file of cxi_sweep. See docs/simulation.md.

    platgen.py dragonfly --groups 8 --switches 4 --hosts 4 -o out/df
    platgen.py fattree --leaves 8 --hosts 16 --spines 4 --taper 0.5 -o out/ft
    ... --slow node:nid0005=0.75 --slow switch:g0s1=0.5 --slow bundle:g0-g1=0.5
    ... --slow spine:spine2=0.5 --scale 0.5 --slow-lat node:nid0003=4
    ... --state-widths (width lines in PREFIX.topo)
    ... --down bundle:g0-g1=2 --down switch:g1s1=1 --down leaf:leaf1=8
        (links down, their routes on the survivors: sim/platgen_down.py)
    ... --fill g1s2=3 --global-landing one|all|K --ft-routes hashed
        --job 40 --job-seed 7 (shapes: sim/platgen_shape.py)
    ... --links (switch, link and route lines in PREFIX.topo: platgen_links.py)

Routing: one flat zone with Dijkstra routing over a graph whose edges are
built so that the only shortest path between two hosts is the intended one
(minimal for the dragonfly, d-mod-k for the fat tree); tests/sim checks this
against SimGrid's own routes.
"""
import argparse
import sys
from xml.sax.saxutils import quoteattr

# The fabrics; the names tests/sim and scenarios.py use as platgen.NAME.
from platgen_topo import (  # noqa: F401
    LINK_LAT_NS, NODE_GBPS, Fabric, UsageError, build_dragonfly,
    df_attach, df_global, df_route, host_name, widths)
from platgen_ft import build_fattree, ft_route  # noqa: F401
from platgen_down import apply_down
import platgen_links
import platgen_shape


def parse_factor(text, what, lo_open=0.0, hi=1.0):
    try:
        v = float(text)
    except ValueError:
        raise UsageError("%s: '%s' is not a number" % (what, text)) from None
    if not (lo_open < v <= hi):
        raise UsageError("%s: %s is out of range (%g, %g]" % (what, text, lo_open, hi))
    return v


# A latency fault's ceiling: beyond it a link is down, not slow.
MAX_LAT_FACTOR = 1000.0


def parse_spec(spec, opt):
    """KIND:NAME=FACTOR -> (kind, name, factor text)."""
    if "=" not in spec or ":" not in spec.split("=", 1)[0]:
        raise UsageError("%s '%s': expected KIND:NAME=FACTOR" % (opt, spec))
    target, fac = spec.rsplit("=", 1)
    kind, name = target.split(":", 1)
    return kind, name, fac


def apply_slow(f, spec):
    """--slow KIND:NAME=FACTOR: multiply the bandwidth of that set of links."""
    kind, name, fac = parse_spec(spec, "--slow")
    factor = parse_factor(fac, "--slow '%s'" % spec)
    links = find_set(f, "--slow", spec, kind, name)
    for lk in links:
        f.links[lk] *= factor
    f.notes.append("slowed: %s:%s x %g (%d links)" % (kind, name, factor, len(links)))


def apply_slow_lat(f, spec):
    """--slow-lat node:HOST=FACTOR: multiply the latency of that host's
    node link by FACTOR > 1 (a NIC or cable that adds delay)."""
    kind, name, fac = parse_spec(spec, "--slow-lat")
    if kind != "node":
        raise UsageError("--slow-lat '%s': unknown kind '%s' (node)" % (spec, kind))
    factor = parse_factor(fac, "--slow-lat '%s'" % spec, 1.0, MAX_LAT_FACTOR)
    for lk in find_set(f, "--slow-lat", spec, kind, name):
        f.lat_factor[lk] = f.lat_factor.get(lk, 1.0) * factor
    f.notes.append("latency: %s:%s x %g" % (kind, name, factor))


def find_set(f, opt, spec, kind, name):
    """The links KIND:NAME names, sorted (UsageError if none)."""
    if kind == "link":
        links = [name] if name in f.links else None
    elif kind == "bundle" and f.kind == "dragonfly":
        # either order; groups compare by number (g2 before g10)
        parts = name.split("-")
        if len(parts) == 2 and [p[1:].isdigit() for p in parts] == [True, True] \
                and int(parts[0][1:]) > int(parts[1][1:]):
            name = parts[1] + "-" + parts[0]
        links = f.sets.get((kind, name))
    elif kind in ("node", "switch", "bundle", "spine"):
        links = f.sets.get((kind, name))
    else:
        raise UsageError("%s '%s': unknown kind '%s' (node, switch, bundle, spine, link)"
                         % (opt, spec, kind))
    if not links:
        raise UsageError("%s '%s': this %s has no %s named '%s'"
                         % (opt, spec, f.kind, kind, name))
    return sorted(set(links))


# ---------------------------------------------------------------- output
CONFIG = [
    # Acknowledgements must not load the reverse direction: full duplex.
    ("network/crosstraffic", "0"),
    # Plain max-min sharing: no RTT weighting, no TCP window bound.
    ("network/weight-S", "0"),
    ("network/TCP-gamma", "0"),
    # No MPI overhead model on top of the links (a bare 1.0 crashes 3.32).
    ("smpi/bw-factor", "0:1.0"),
    ("smpi/lat-factor", "0:1.0"),
    # The program's own CPU time, read from this machine, is not injected:
    # runs are deterministic (a network-bound sweep loses little by it).
    ("smpi/simulate-computation", "no"),
]


def fmt_bw(bw):
    return "%.17gBps" % bw


def write_xml(f, out):
    w = out.write
    w('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n')
    w("<!-- written by sim/platgen.py\n")
    for note in f.notes:
        w("     %s\n" % note.replace("--", "- -"))
    w("-->\n<platform version=\"4.1\">\n<config>\n")
    for k, v in CONFIG:
        w('  <prop id="%s" value="%s"/>\n' % (k, v))
    w('</config>\n<zone id="fabric" routing="DijkstraCache">\n')
    for name, _, _ in f.hosts:
        # A disk per host: SMPI's MPI_File_open needs one.
        w('  <host id=%s speed="1Gf"><disk id="disk" read_bw="10GBps" write_bw="10GBps">'
          '<prop id="size" value="1TiB"/><prop id="mount" value="/"/></disk></host>\n'
          % quoteattr(name))
    for r in f.routers:
        w('  <router id=%s/>\n' % quoteattr(r))
    for name, bw in f.links.items():
        # Lanes and ports carry one direction each (SHARED, FATPIPE): their
        # route entries name no direction.
        pol = f.policy(name)
        props = platgen_links.xml_props(f, name) if f.write_links else ""
        w('  <link id=%s bandwidth="%s" latency="%s" sharing_policy="%s"%s\n'
          % (quoteattr(name), fmt_bw(bw), "%.17gs" % f.link_latency(name), pol,
             ">%s</link>" % props if props else "/>"))
    for src, dst, links in f.edges:
        w('  <route src=%s dst=%s symmetrical="NO">' % (quoteattr(src), quoteattr(dst)))
        for lk, d in links:
            w('<link_ctn id=%s%s/>' % (quoteattr(lk), ' direction="%s"' % d if d else ""))
        w("</route>\n")
    w("</zone>\n</platform>\n")


def write_outputs(f, prefix, state_widths=False):
    with open(prefix + ".xml", "w") as out:
        write_xml(f, out)
    with open(prefix + ".hosts", "w") as out:
        hosts = f.job_hosts if f.job_hosts is not None else [h for h, _, _ in f.hosts]
        out.writelines(name + "\n" for name in hosts)
    with open(prefix + ".topo", "w") as out:
        # every host of the machine, also under --job (a site's file
        # covers the machine, a job part of it)
        out.write("# NAME SWITCH [GROUP], written by sim/platgen.py\n")
        for name, sw, grp in f.hosts:
            out.write("%s %s%s\n" % (name, sw, " " + grp if grp else ""))
        if f.write_links:
            out.writelines(ln + "\n" for ln in platgen_links.topo_lines(f))
        if state_widths:
            # the designed widths, in pairs at a node link's rate
            for kind, pairs in widths(f):
                out.write("width %s %d\n" % (kind, pairs))


# ---------------------------------------------------------------- CLI
def positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not an integer" % text) from None
    if v < 1:
        raise argparse.ArgumentTypeError("%s must be at least 1" % text)
    return v


def taper_value(text):
    """--taper: a fraction (0.5) or a leaf's hosts to uplinks ratio (2:1)."""
    if ":" in text:
        a, _, b = text.partition(":")
        try:
            v = float(b) / float(a)
        except (ValueError, ZeroDivisionError):
            raise argparse.ArgumentTypeError("'%s' is not a ratio A:B" % text) from None
        if not v > 0 or v == float("inf"):
            raise argparse.ArgumentTypeError("%s must be a positive ratio" % text)
        return v
    return positive_float(text)


def positive_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a number" % text) from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError("%s must be a positive number" % text)
    return v


class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, message))
        sys.exit(2)


REQUIRED = object()  # make_parser's mark of an option that must be given


def make_parser():
    p = Parser(prog="platgen.py", description="Write a SimGrid platform, hostfile and "
               "cxi_sweep --topology file for a dragonfly or a two-level fat tree.")
    sub = p.add_subparsers(dest="kind", required=True, parser_class=Parser)
    common = Parser(add_help=False)
    common.add_argument("-o", "--output", required=True, metavar="PREFIX",
                        help="writes PREFIX.xml, PREFIX.hosts, PREFIX.topo")
    common.add_argument("--node-gbps", type=positive_float, default=NODE_GBPS,
                        help="a node's link, Gb/s (default %(default)g)")
    common.add_argument("--latency-ns", type=positive_float, default=LINK_LAT_NS,
                        help="latency of every link, ns (lanes and ports add none; "
                        "default %(default)g)")
    common.add_argument("--taper", type=taper_value, default=1.0,
                        help="global (spine) bandwidth as a fraction of full, or as "
                        "hosts:uplinks (0.5 = 2:1; default 1)")
    common.add_argument("--slow", action="append", default=[], metavar="KIND:NAME=F",
                        help="multiply a set of links by F in (0,1]: node:HOST, "
                        "switch:SWITCH (its uplinks, L1 lanes included), bundle:gI-gJ, "
                        "spine:spineK, link:NAME")
    common.add_argument("--down", action="append", default=[], metavar="KIND:NAME=K",
                        help="K physical links of a redundant set down, their traffic "
                        "on the survivors: bundle:gI-gJ (K of its global links), "
                        "switch:SWITCH (K of each of its L1 connections' links), "
                        "leaf:leafN (K of its uplinks)")
    common.add_argument("--slow-lat", action="append", default=[], metavar="node:HOST=F",
                        help="multiply that host's node link latency by F in (1, %g]"
                        % MAX_LAT_FACTOR)
    common.add_argument("--state-widths", action="store_true",
                        help="also write the designed link widths in PREFIX.topo "
                        "(width local|global|uplink PAIRS)")
    common.add_argument("--scale", default=None, metavar="F",
                        help="multiply every link by F in (0,1] (after --slow)")
    common.add_argument("--links", action="store_true",
                        help="also write the fabric's switches and links in PREFIX.topo "
                        "(switch, link and route lines) and the switches each link joins "
                        "in PREFIX.xml")
    common.add_argument("--fill", action="append", default=[], metavar="SWITCH=N",
                        help="that switch (gXsY, leafN) has N hosts, not --hosts: 0 to "
                        "--hosts on a dragonfly, 1 to --hosts on a leaf")
    common.add_argument("--job", type=positive_int, default=None, metavar="N",
                        help="the hostfile lists N hosts of the machine, drawn at random "
                        "(--job-seed); PREFIX.topo still lists them all")
    common.add_argument("--job-seed", type=int, default=1, metavar="S",
                        help="the seed --job draws its hosts from (default %(default)s)")
    d = sub.add_parser("dragonfly", parents=[common], help="G groups of S switches of H hosts")
    # (option, type, default or REQUIRED, help)
    for name, kind, default, text in (
            ("--groups", positive_int, REQUIRED, None),
            ("--switches", positive_int, REQUIRED, None),
            ("--hosts", positive_int, REQUIRED, "hosts per switch"),
            ("--bundle", positive_int, 2,
             "global links between two groups (default %(default)s)"),
            ("--local", positive_float, None,
             "an L1 connection between two switches in all, x node link: "
             "1 to 3 on Slingshot, fractions allowed (default 1)"),
            ("--lane", positive_float, 1.0,
             "what one pair can get of an L1 connection (one of its physical "
             "links), x node link (default %(default)g)"),
            ("--global-bw", positive_float, None,
             "a bundle in all, x node link (default: from --taper)")):
        if default is REQUIRED:
            d.add_argument(name, type=kind, required=True, help=text)
        else:
            d.add_argument(name, type=kind, default=default, help=text)
    d.add_argument("--global-landing", default="all", metavar="all|one|K",
                   help="where a bundle's global links land in each group: dealt over all "
                   "its switches (default), all on one switch (bundles to different groups "
                   "on different switches), or dealt over K switches")
    t = sub.add_parser("fattree", parents=[common], help="leaves of H hosts, P spines")
    t.add_argument("--leaves", type=positive_int, required=True)
    t.add_argument("--hosts", type=positive_int, required=True, help="hosts per leaf")
    t.add_argument("--spines", type=positive_int, required=True)
    t.add_argument("--uplink", type=positive_float, default=None,
                   help="a leaf-spine link, x node link (default: from --taper)")
    t.add_argument("--ft-routes", choices=("dmodk", "hashed"), default="dmodk",
                   help="the spine of a pair: by destination, d-mod-k (default), or by a "
                   "fixed hash of the pair")
    return p


def build(argv):
    """Parse argv and return the Fabric (UsageError on bad input)."""
    a = make_parser().parse_args(argv)
    a.shape, shape_notes = platgen_shape.parse(a)
    f = build_dragonfly(a) if a.kind == "dragonfly" else build_fattree(a)
    f.notes += shape_notes
    f.write_links = a.links
    if a.down:
        apply_down(f, a.down)
    for spec in a.slow:
        apply_slow(f, spec)
    for spec in a.slow_lat:
        apply_slow_lat(f, spec)
    if a.scale is not None:
        s = parse_factor(a.scale, "--scale")
        for lk in f.links:
            f.links[lk] *= s
        f.notes.append("every link x %g" % s)
    if a.job is not None:
        f.job_hosts = platgen_shape.job(f, a)
        f.notes.append("job: %d of the %d hosts (seed %d)" % (a.job, len(f.hosts), a.job_seed))
    return f, a


def main(argv=None):
    try:
        f, a = build(sys.argv[1:] if argv is None else argv)
        write_outputs(f, a.output, a.state_widths)
    except UsageError as e:
        sys.stderr.write("platgen.py: %s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("platgen.py: %s\n" % e)
        return 2
    print("platgen.py: %d hosts, %d links, %d routes -> %s.xml"
          % (len(f.hosts), len(f.links), len(f.edges), a.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
