#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The layer rule, checked on the built objects and the sources.

Folders of lib/ are layers, lowest first (LAYERS). A source file may use
its own folder and the folders below it, never one above; no two files
may depend on each other, in any number of steps (no cycles). Two kinds
of dependency are counted:
  calls    file A uses a symbol (function or data) that file B defines,
           read from the objects with nm (what the linker sees);
  includes file A includes a header that lives in folder F of lib/
           or of include/ (include/cxd is the lowest layer: the public
           face, types only); the public headers' own includes count
           too, as edges of those headers.
Besides, files in lib/run/ and lib/ops/ may not use the control channel
or one way of reaching the peer directly (PEER_BLIND): only s->via; and
in lib/session/ only the control channel's way (CTRL_WAY) uses lib/ctrl/;
and the sweep's core may not use an engine's files (sweep_core): only
struct sw_engine; nor may an engine use the core's: only the engine
interface, the context it is handed and the MPI helpers (ENGINE_MAY).
Usage: layers.py BUILD_DIR [SRC_DIR] [--graph]   exit 1 on any violation.
"""
import collections
import glob
import os
import re
import subprocess
import sys

# Lowest first. "include/cxd" is the public face (lib/base includes
# cxd/config.h), "." is lib/ itself (tools.c, main_flow.c), "tools" the
# programs' mains, "tools/sweep" the MPI side of cxi_sweep (its core
# library and its engines, engine_*.c).
LAYERS = ["include/cxd", "base", "opts", "wire", "ctrl", "gpu", "fabric",
          "counters", "report", "session", "ops", "run",
          # the sweep's pure parts: the fabric model, the schedules and
          # pacing protocol, statistics and judging, the capacity pass,
          # congestion mode, the outputs
          "sweep/model", "sweep/sched", "sweep/judge", "sweep/capacity",
          "sweep/congest", "sweep/result",
          ".", "tools",
          # cxi_sweep's MPI side: the MPI helpers, the engines (and the
          # context they are handed), the pacing, the phases, the main
          "tools/sweep/mpi", "tools/sweep/engine", "tools/sweep/pace",
          "tools/sweep/phases", "tools/sweep"]
RANK = {name: i for i, name in enumerate(LAYERS)}
# The runners and the operations reach the peer only through s->via
# (lib/session/peer.h), never the control channel or one way directly.
PEER_BLIND = ("run", "ops")
# The session knows no transport: the channel is the ctrl way's own.
CTRL_WAY = ("lib/session/peer_ctrl", "lib/session/sess_connect")
PEER_WAYS = ("lib/ctrl/", "lib/session/peer_", "lib/session/sess_connect",
             "tools/sweep/")
# The sweep's core (tools/sweep but its main and engines) measures only
# through struct sw_engine (tools/sweep/engine/engine.h), never an
# engine's files: a second engine plugs in without touching pacing or
# judging.
SWEEP_ENGINES = "tools/sweep/engine/engine_"
SWEEP_MAIN = "tools/sweep/sweep.c"
# What an engine may use of tools/sweep: its folder (the interface,
# engine.h; the context open hands it, context.h; its own files) and the
# MPI helpers.
ENGINE_MAY = ("tools/sweep/engine/", "tools/sweep/mpi/")


def sweep_core(unit):
    return (unit.startswith("tools/sweep/") and unit != SWEEP_MAIN
            and not unit.startswith(SWEEP_ENGINES))


def folder_of(path):
    """'lib/ctrl/ctrl.c' -> 'ctrl'; 'lib/sweep/result/out.c' -> 'sweep/result';
    'lib/tools.c' -> '.'; tools: as is."""
    parts = path.split("/")
    if parts[0] == "lib":
        return "/".join(parts[1:-1]) if len(parts) > 2 else "."
    return "/".join(parts[:-1])


def objects(build):
    """(source path, object path) of the library and the programs."""
    out = {}
    for pat, strip in (("cxdcore.dir/lib/**/*.o", "cxdcore.dir/"),
                       ("cxi_sweep.dir/tools/**/*.o", "cxi_sweep.dir/"),
                       # the sweep's core (pacing, judging, outputs): its
                       # own library, the rest of tools/sweep in cxi_sweep
                       ("cxd_sweep_core.dir/tools/**/*.o",
                        "cxd_sweep_core.dir/"),
                       ("cxi_write_bw.dir/tools/*.o", "cxi_write_bw.dir/")):
        for o in glob.glob(os.path.join(build, "CMakeFiles", pat),
                           recursive=True):
            rel = o.split(strip, 1)[1][:-2]  # drop ".o"
            out[rel] = o
    return out


def call_edges(objs):
    defs, undef = {}, collections.defaultdict(set)
    for src, o in objs.items():
        nm = subprocess.run(["nm", o], capture_output=True, text=True,
                            check=True).stdout
        for line in nm.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRV":
                defs[f[2]] = src
            elif len(f) == 2 and f[0] == "U":
                undef[src].add(f[1])
    edges = collections.defaultdict(set)
    for src, syms in undef.items():
        for sym in syms:
            dst = defs.get(sym)
            if dst and dst != src:
                edges[src].add((dst, sym))
    return edges


INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_edges(srcdir, units):
    """Source file -> the headers of lib/ and include/ it includes."""
    edges = collections.defaultdict(set)
    for unit in units:
        path = os.path.join(srcdir, unit)
        if not os.path.exists(path):
            continue
        for inc in INC.findall(open(path).read()):
            here = os.path.join(os.path.dirname(path), inc)
            if os.path.exists(here):
                hdr = os.path.relpath(here, srcdir)
            elif os.path.exists(os.path.join(srcdir, "lib", inc)):
                hdr = "lib/" + inc
            elif unit.startswith("tools/sweep/") and \
                    os.path.exists(os.path.join(srcdir, "tools/sweep", inc)):
                hdr = "tools/sweep/" + inc  # "FOLDER/NAME.h" across folders
            elif os.path.exists(os.path.join(srcdir, "include", inc)):
                hdr = "include/" + inc
            else:
                continue
            edges[unit].add(hdr)
    return edges


def cycles(nodes, edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build = argv[1]
    srcdir = argv[2] if len(argv) > 2 and not argv[2].startswith("--") \
        else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    objs = {u: o for u, o in objects(build).items()
            if os.path.exists(os.path.join(srcdir, u))}  # not stale ones
    if not objs:
        print("layers: no objects under %s/CMakeFiles: build first" % build,
              file=sys.stderr)
        return 2
    calls = call_edges(objs)
    # The public headers are units of their own: what they include is
    # what every includer of the face depends on.
    face = sorted(os.path.relpath(h, srcdir) for h in
                  glob.glob(os.path.join(srcdir, "include", "cxd", "*.h")))
    # Every other header is a unit of its own too: a header that includes
    # one of a higher folder makes each of its includers reach up.
    face += sorted(os.path.relpath(h, srcdir) for pat in
                   ("lib/**/*.h", "tools/sweep/**/*.h")
                   for h in glob.glob(os.path.join(srcdir, pat),
                                      recursive=True))
    incs = include_edges(srcdir, list(objs) + face)
    bad, blind, engine, unknown = [], [], [], set()
    graph = collections.defaultdict(set)
    nedges = 0
    for unit in sorted(objs) + face:
        fu = folder_of(unit)
        if fu not in RANK:
            unknown.add(fu)
            continue
        deps = [(d, "calls " + s) for d, s in sorted(calls.get(unit, ()))]
        deps += [(h, "includes " + h) for h in sorted(incs.get(unit, ()))]
        for dst, why in deps:
            fd = folder_of(dst)
            if fd not in RANK:
                unknown.add(fd)
                continue
            if dst.endswith(".c"):
                graph[unit].add(dst)
            nedges += 1
            if RANK[fd] > RANK[fu]:
                bad.append("%s (%s) -> %s (%s): %s" % (unit, fu, dst, fd, why))
            elif fu == "session" and fd == "ctrl" and \
                    not unit.startswith(CTRL_WAY):
                blind.append("%s -> %s: %s (the session reaches the channel "
                             "through s->via)" % (unit, dst, why))
            elif fu in PEER_BLIND and dst.startswith(PEER_WAYS):
                blind.append("%s -> %s: %s (runners and operations use s->via)"
                           % (unit, dst, why))
            elif sweep_core(unit) and dst.startswith(SWEEP_ENGINES):
                engine.append("%s -> %s: %s (the sweep's core uses struct "
                              "sw_engine)" % (unit, dst, why))
            elif unit.startswith(SWEEP_ENGINES) and \
                    dst.startswith("tools/sweep/") and \
                    not dst.startswith(ENGINE_MAY):
                engine.append("%s -> %s: %s (an engine uses only engine.h, "
                              "context.h and the MPI helpers)"
                              % (unit, dst, why))
    loops = cycles(objs, graph)
    if "--graph" in argv:
        for unit in sorted(graph):
            print(unit, "->", " ".join(sorted(graph[unit])))
    for b in bad:
        print("upward:", b)
    for b in blind:
        print("around the peer interface:", b)
    for b in engine:
        print("around the engine interface:", b)
    for c in loops:
        print("cycle:", " <-> ".join(c))
    for f in sorted(unknown):
        print("folder not in LAYERS (tests/layers.py):", f)
    print("layers: %d files, %d dependencies, %d upward, %d cycles, "
          "%d around the peer interface"
          % (len(objs) + len(face), nedges, len(bad), len(loops),
             len(blind)))
    return 1 if bad or loops or blind or engine or unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
