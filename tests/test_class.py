#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every end-to-end test says whether it judges real timing.

Each tests/e2e/test_*.sh declares its class in a comment line of its own:
    # test-class: timing   it judges real timing (a sweep on a real fabric,
                           a verdict, a gate, congestion, ReFrame's, NHC's
                           or Slurm's runs, a busy-host case): ctest runs it
                           alone (RUN_SERIAL, tests/tests.cmake), so no other
                           test loads the cores it measures on
    # test-class: shared   it may run beside any other test
A script that declares nothing, declares something else, or declares
`shared` while it does what only a timing test may (the SIGNALS below,
read from its lines that are not comments) fails this check, naming the
line. Given the build directory, it also reads ctest's own view of the
tests (ctest --show-only=json-v1) and fails if a timing test is not
RUN_SERIAL there or a shared one is: the declaration is what ctest obeys.

Usage: test_class.py SRC_DIR [BUILD_DIR]    exit 1 on any violation
       test_class.py --self-test            the rules on made-up scripts
"""
import json
import os
import re
import subprocess
import sys
import tempfile

CLASSES = ("timing", "shared")
DECL = re.compile(r"^#\s*test-class:\s*(\S+)")
# What only a timing test may do, and how it reads in a script.
SIGNALS = [
    (re.compile(r"\b(sweep_setup|sweep_bins|mpi_setup)\b|\bmpirun\b|MPIRUN\["),
     "launches ranks with mpirun (a sweep or pair tools on the real fabric)"),
    (re.compile(r"--congestion\b"), "runs congestion mode"),
    (re.compile(r"--expect-(bw|lat)\b"), "runs a gate (--expect-bw/--expect-lat)"),
    (re.compile(r"\$RFM\b|\brfm\s"), "runs ReFrame's checks"),
    (re.compile(r"\b(srun|sbatch|slurm_setup)\b|slurm_lib\.sh"), "runs Slurm jobs"),
    (re.compile(r"cxd\.nhc\b"), "runs NHC's checks (gates)"),
]


def classify(path):
    """(class or None, [(lineno, why, text)] of the signals found)."""
    decl, hits = None, []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for no, line in enumerate(fh, 1):
            m = DECL.match(line)
            if m:
                decl = m.group(1) if decl is None else "twice"
                continue
            if line.lstrip().startswith("#"):
                continue
            for rx, why in SIGNALS:
                if rx.search(line):
                    hits.append((no, why, line.strip()))
    return decl, hits


def check_sources(e2e_dir):
    """{test name: class}, and the errors."""
    errs, classes = [], {}
    names = sorted(f for f in os.listdir(e2e_dir)
                   if f.startswith("test_") and f.endswith(".sh"))
    for f in names:
        decl, hits = classify(os.path.join(e2e_dir, f))
        name = "e2e." + f[:-3]
        if decl is None:
            errs.append("%s: no '# test-class: timing|shared' line" % f)
        elif decl not in CLASSES:
            errs.append("%s: test-class '%s': want one of %s" % (f, decl, ", ".join(CLASSES)))
        elif decl == "shared" and hits:
            no, why, text = hits[0]
            errs.append("%s:%d: declares test-class: shared but %s: %s"
                        % (f, no, why, text[:100]))
        classes[name] = decl
    return classes, errs


def check_ctest(build, classes):
    """ctest's view agrees: timing tests RUN_SERIAL, shared ones not."""
    try:
        out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError) as e:
        return ["ctest --show-only=json-v1 in %s: %s" % (build, e)]
    errs, seen = [], set()
    for t in json.loads(out).get("tests", []):
        name = t.get("name", "")
        if name not in classes:
            continue
        seen.add(name)
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        serial = bool(props.get("RUN_SERIAL", False))
        if serial != (classes[name] == "timing"):
            errs.append("%s: declares %s, ctest has RUN_SERIAL %s"
                        % (name, classes[name], serial))
    # a script ctest does not know is not run at all
    errs += ["%s: not a ctest test in %s" % (n, build) for n in sorted(set(classes) - seen)]
    return errs


def self_test():
    """The rules on made-up scripts: each bad one must be caught."""
    cases = {
        "test_ok_timing.sh": ("# test-class: timing\nsweep_setup\n", False),
        "test_ok_shared.sh": ("# test-class: shared\n# mpirun in a comment\necho hi\n", False),
        "test_undeclared.sh": ("sweep_setup\n", True),
        "test_sweep_shared.sh": ('# test-class: shared\n"${MPIRUN[@]}" -np 2 x\n', True),
        "test_gate_shared.sh": ("# test-class: shared\nx --expect-bw 5\n", True),
        "test_slurm_shared.sh": ("# test-class: shared\n. slurm_lib.sh\n", True),
        "test_typo.sh": ("# test-class: serial\n", True),
    }
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for f, (text, want_err) in cases.items():
            with open(os.path.join(d, f), "w") as fh:
                fh.write(text)
        _, errs = check_sources(d)
        for f, (_, want_err) in sorted(cases.items()):
            got = any(e.startswith(f + ":") for e in errs)
            ok = got == want_err
            bad += not ok
            print("%s %s: %s" % ("ok  " if ok else "FAIL", f,
                                 "caught" if got else "accepted"))
    return 1 if bad else 0


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return self_test()
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    classes, errs = check_sources(os.path.join(argv[1], "tests", "e2e"))
    if len(argv) == 3:
        errs += check_ctest(argv[2], classes)
    for e in errs:
        print("test_class: " + e)
    timing = sorted(n for n, c in classes.items() if c == "timing")
    print("test_class: %d e2e tests, %d timing (run alone): %s"
          % (len(classes), len(timing), " ".join(t[4:] for t in timing)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
