# SPDX-License-Identifier: BSD-3-Clause
"""What the converters to cxi_sweep's --topology format share: the bad
input error, the command line, the checks and the writer of the file
(docs/topology.md)."""

import argparse
import sys

# The first words of cxi_sweep's other lines: no host may be called so.
RESERVED = ("width", "switch", "link", "route")
LINK_MAX = 65535


class Bad(Exception):
    """Input that cannot be converted: 'FILE:LINE: what, naming the value'."""


def where(path, line):
    return "%s:%d" % (path, line) if line else path


class Fabric:
    """Hosts on switches, switches in groups, links between switches; names
    in the order they were added, which is the order they are written."""

    def __init__(self, path):
        self.path = path
        self.hosts = {}      # name -> (switch, line)
        self.group = {}      # switch -> group or None, in order
        self.links = {}      # (a, b) as first added -> count

    def switch(self, name, group=None):
        self.group.setdefault(name, group)

    def host(self, name, switch, line):
        if name in RESERVED:
            raise Bad("%s: host '%s': cxi_sweep reads a line beginning "
                      "'%s' as its own, so no host may be called so"
                      % (where(self.path, line), name, name))
        old = self.hosts.get(name)
        if old:
            on = (", on switch '%s' here and '%s' there: a host sits on one "
                  "switch" % (switch, old[0]) if old[0] != switch else "")
            raise Bad("%s: host '%s' is placed twice (first at line %d)%s"
                      % (where(self.path, line), name, old[1], on))
        self.switch(switch)
        self.hosts[name] = (switch, line)

    def link(self, a, b, count=1):
        key = (b, a) if (b, a) in self.links else (a, b)
        self.links[key] = self.links.get(key, 0) + count

    def joined(self):
        """The first two switches carrying hosts that no links join, or
        None: cxi_sweep refuses a file with no route between two hosts."""
        up = {s: s for s in self.group}

        def root(s):
            while up[s] != s:
                up[s] = up[up[s]]
                s = up[s]
            return s
        for a, b in self.links:
            up[root(a)] = root(b)
        on = {h[0] for h in self.hosts.values()}
        carrying = [s for s in self.group if s in on]
        for s in carrying[1:]:
            if root(s) != root(carrying[0]):
                return carrying[0], s
        return None

    def check(self):
        """Bad unless cxi_sweep can load the file: counts in range, every
        two switches carrying hosts joined."""
        for (a, b), n in self.links.items():
            if n > LINK_MAX:
                raise Bad("%s: %d links between '%s' and '%s': at most %d "
                          "a line" % (self.path, n, a, b, LINK_MAX))
        apart = self.joined()
        if apart:
            raise Bad("%s: switches '%s' and '%s' carry hosts but no links "
                      "join them: cxi_sweep needs a route between every "
                      "two hosts" % ((self.path,) + apart))

    def write(self, out, said):
        """The file: said (comment lines), host lines, switch lines for the
        switches without hosts, link lines, and route ecmp."""
        carrying = {h[0] for h in self.hosts.values()}
        for line in said:
            out.write("# %s\n" % line)
        out.write("\n# NAME SWITCH [GROUP]\n")
        for name, (sw, _) in self.hosts.items():
            out.write(" ".join(x for x in (name, sw, self.group[sw]) if x))
            out.write("\n")
        spare = [s for s in self.group if s not in carrying]
        if spare:
            out.write("\n# switches with no hosts\n")
        for s in spare:
            out.write(" ".join(x for x in ("switch", s, self.group[s]) if x))
            out.write("\n")
        if self.links:
            out.write("\n# link A B COUNT\n")
        for (a, b), n in self.links.items():
            out.write("link %s %s %d\n" % (a, b, n))
        if self.links:
            out.write("\nroute ecmp\n")


def main(argv, prog, what, convert):
    """Read FILE (or standard input), write the --topology file to -o or
    standard output. convert(text lines, path) -> (Fabric, comment lines).
    Exit 0, or 2 with the message on bad input."""
    p = argparse.ArgumentParser(prog=prog, description=what)
    p.add_argument("file", nargs="?", default="-",
                   help="the input (default: standard input)")
    p.add_argument("-o", "--output", default="-",
                   help="the --topology file to write (default: standard "
                        "output)")
    a = p.parse_args(argv)
    path = "<stdin>" if a.file == "-" else a.file
    try:
        if a.file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(a.file, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        fabric, said = convert(lines, path)
        fabric.check()
        if a.output == "-":
            fabric.write(sys.stdout, said)
        else:
            with open(a.output, "w", encoding="utf-8") as out:
                fabric.write(out, said)
    except Bad as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        return 2
    except OSError as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        return 2
    return 0
