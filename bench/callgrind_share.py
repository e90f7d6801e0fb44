#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Our share of the instructions in the posting-and-waiting path.

Runs one tool under callgrind (Debian's valgrind), collecting only inside
the timed loops (timed_loop in run_bw.c, lat_loop in run_lat.c), and splits
what was collected: instructions spent inside libfabric calls (the
provider's work) and the rest (ours: building and posting operations,
waiting, clock reads). "posting" is everything but the waits for
completions (WAITS below); "waiting" is mostly the provider's polling, our
part there being the loop around it, so its share has a floor and its
instructions per operation vary with how often the loop went round.
Prints e.g.

  callgrind cxi_write_bw shm 8 B: our share of the posting path 5.4 % (34
  instr/op); posting 4.5 % (19 instr/op), waiting 7.4 % (14 instr/op);
  512000 ops

  bench/callgrind_share.py [--build DIR] [--tool NAME] [--provider P]
                           [--size BYTES] [--iters N] [--keep DIR]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOTS = ("timed_loop*", "lat_loop*")  # also GCC clones (.constprop)


# Functions that wait for completions (their inlined helpers included):
# their rounds are the provider's polling, ours only the loop around it.
WAITS = ("cxd_post_wait", "wait_rx", "send_progress", "on_completion",
         "flush_responses", "cxd_post_spin_check", "cxd_post_stalled",
         "rma_progress", "atomic_progress")


def records(path):
    """(object, function, callee object or None, cost) per cost line."""
    ob = cob = fn = None
    in_call = False
    with open(path) as f:
        for line in f:
            if line.startswith("ob="):
                ob = line[3:].strip()
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif line.startswith("cob="):
                cob = line[4:].strip()
            elif line.startswith("calls="):
                in_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                f2 = line.split()
                cost = int(f2[1]) if len(f2) > 1 else 0
                yield ob, fn, ((cob or ob) if in_call else None), cost
                in_call, cob = False, None


def parse(path):
    """Per part ("post", "wait"): [ours, libfabric's] instructions. Ours:
    the tool's own instructions plus what it calls outside libfabric
    (clock reads, memcpy); libfabric's: the inclusive cost of the calls
    from the tool into libfabric. Needs --compress-strings=no. Only
    functions that ran while collecting count: not the timed loop's
    callers (main, and libc's start-up code around it)."""
    parts = {"post": [0, 0], "wait": [0, 0]}
    own = None
    ran = set()
    for ob, fn, callee, cost in records(path):
        if own is None and os.path.basename(ob or "").startswith("cxi_"):
            own = ob
        if callee is None and cost:
            ran.add((ob, fn))
    for ob, fn, callee, cost in records(path):
        if ob != own or (ob, fn) not in ran or callee == own:
            continue  # others' code is counted in the calls into it
        part = parts["wait" if fn.split("'")[0] in WAITS else "post"]
        if callee is None:
            part[0] += cost
        else:
            part["libfabric" in os.path.basename(callee)] += cost
    return parts


def share(ours, theirs):
    return 100.0 * ours / (ours + theirs) if ours + theirs else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--tool", default="cxi_write_bw")
    ap.add_argument("--provider", default="shm")
    ap.add_argument("--size", default="8")
    ap.add_argument("--iters", default=None)
    ap.add_argument("--keep", default=None,
                    help="keep the callgrind files in this directory")
    a = ap.parse_args()
    lat = a.tool.endswith("_lat")
    iters = a.iters or ("20000" if lat else "2000")
    tmp = a.keep or tempfile.mkdtemp(prefix="cxd_cg_")
    os.makedirs(tmp, exist_ok=True)
    for p in glob.glob(os.path.join(tmp, "cg.*.out")):
        os.unlink(p)  # a kept directory's files of an earlier run
    cmd = ["valgrind", "--tool=callgrind", "-q", "--trace-children=yes",
           "--compress-strings=no", "--compress-pos=no",
           "--callgrind-out-file=" + os.path.join(tmp, "cg.%p.out")]
    cmd += ["--toggle-collect=" + r for r in ROOTS]
    cmd += [os.path.join(a.build, a.tool), "--local", "--provider",
            a.provider, "-s", a.size, "-n", iters, "--json"]
    if lat:
        cmd += ["--warmup", "0", "--latency-gap", "0"]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=600)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        print("callgrind: %s failed (exit %d)" % (a.tool, run.returncode))
        return 1
    ops = json.loads(run.stdout)["results"][0]["count"]
    files = glob.glob(os.path.join(tmp, "cg.*.out"))
    # The active side is the process that collected most.
    parts = max((parse(p) for p in files),
                key=lambda d: sum(map(sum, d.values())))
    if a.keep is None:
        for p in files:
            os.unlink(p)
        os.rmdir(tmp)
    ours = parts["post"][0] + parts["wait"][0]
    theirs = parts["post"][1] + parts["wait"][1]
    if ours + theirs == 0 or ops == 0:
        print("callgrind: nothing collected in %s" % ", ".join(ROOTS))
        return 1
    print("callgrind %s %s %s B: our share of the posting path %.1f %% "
          "(%.0f instr/op); posting %.1f %% (%.0f instr/op), waiting "
          "%.1f %% (%.0f instr/op); %d ops" % (
              a.tool, a.provider, a.size, share(ours, theirs), ours / ops,
              share(*parts["post"]), parts["post"][0] / ops,
              share(*parts["wait"]), parts["wait"][0] / ops, ops))
    return 0

if __name__ == "__main__":
    sys.exit(main())
