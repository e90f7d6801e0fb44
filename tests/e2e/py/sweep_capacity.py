# SPDX-License-Identifier: BSD-3-Clause
"""The capacity pass on test_sweep_capacity.sh's two bridges: groups gA
(ranks 0-2) and gB (ranks 3-5), one trunk between them, `width global 3`.

    sweep_capacity.py ok FILE.json R_MB_S           trunk at 3 R
    sweep_capacity.py short FILE.json R_MB_S REPORT trunk at 1.5 R
    sweep_capacity.py ok-noisy|short-noisy FILE.json R_MB_S  (INCONCLUSIVE)
    sweep_capacity.py off FILE.json REPORT [WORD]   the pass did not run

ok:    the pass ran, its bundle class loads 3 pairs (width 3 + 1, bounded
       by the 3 hosts a side) and expects 3 x R from the stated width; the
       bundle gA-gB "ok", carrying 3 R (+-25 %); no suspect at all.
short: the bundle "short", carrying 1.5 R (+-25 %); the one suspect
       {"kind": "capacity", "scope": "bundle", "parts": ["gA", "gB"]},
       named in the report's Suspects block; verdict FAIL.
ok-noisy: a host too busy to vouch: no suspect, the bundle not "short".
short-noisy: never PASS, and nothing but the bundle suspect.
off:   capacity.ran false, its why said in the report (and naming WORD).
R is the node links' shaped rate in MB/s (MB = 10^6): an outside truth.
"""
import json
import sys

TOL = 0.25


def near(x, want):
    return x is not None and abs(x - want) <= TOL * want


def bundle(cap):
    units = [u for u in cap.get("units", []) if u.get("scope") == "bundle"
             and sorted(u.get("parts", [])) == ["gA", "gB"]]
    return units[0] if len(units) == 1 else None


def check_ran(d, r, problems):
    cap = d.get("capacity", {})
    if cap.get("ran") is not True:
        problems.append("capacity.ran %s (why: %s)" % (cap.get("ran"), cap.get("why")))
        return None, cap
    cls = [c for c in cap.get("classes", []) if c.get("scope") == "bundle"]
    if len(cls) != 1:
        problems.append("bundle classes %s" % cls)
    else:
        c = cls[0]
        if (c.get("load_pairs"), c.get("width"), c.get("expected_from")) != (3, 3, "width"):
            problems.append("class load %s width %s from %s, want 3, 3, width" % (
                c.get("load_pairs"), c.get("width"), c.get("expected_from")))
        if not near(c.get("expected_mb_s"), 3 * r):
            problems.append("expected %s MB/s, want 3 x %.1f" % (c.get("expected_mb_s"), r))
    u = bundle(cap)
    if u is None:
        problems.append("no one bundle unit gA-gB in %s" % cap.get("units"))
    return u, cap


def capacity_suspects(d):
    return [s for s in d.get("suspects", []) if s.get("kind") == "capacity"]


def report_names(report, name):
    """The Suspects block of the text report has a line with NAME."""
    block, inside = [], False
    for line in open(report):
        if line.startswith("Suspects:"):
            inside = True
        elif inside and not line.startswith(" "):
            inside = False
        elif inside:
            block.append(line)
    return any(name in l for l in block)


def main():
    mode, d = sys.argv[1], json.load(open(sys.argv[2]))
    problems, summary = [], "verdict %s" % d.get("verdict")
    if mode == "off":
        cap, report = d.get("capacity", {}), open(sys.argv[3]).read()
        word = sys.argv[4] if len(sys.argv) > 4 else ""
        why = cap.get("why") or ""
        summary += "; capacity not run: %s" % why
        if cap.get("ran") is not False or not why or word not in why:
            problems.append("capacity.ran %s, why '%s' (want false, naming '%s')"
                            % (cap.get("ran"), why, word))
        elif why not in report:
            problems.append("the report does not say why: '%s'" % why)
    else:
        r = float(sys.argv[3])
        u, cap = check_ran(d, r, problems)
        sus = capacity_suspects(d)
        other = [(s.get("kind"), s.get("name")) for s in d.get("suspects", [])
                 if s.get("kind") != "capacity"]
        if u:
            summary += "; bundle %s: %s MB/s by %s pairs, ratio %s" % (
                u.get("state"), u.get("carried_mb_s"), u.get("pairs"), u.get("ratio"))
        if other:
            problems.append("suspects beside the trunk %s" % other)
        if mode == "ok":
            if sus:
                problems.append("capacity suspects %s" % sus)
            if u and (u.get("state") != "ok" or not near(u.get("carried_mb_s"), 3 * r)):
                problems.append("want ok at 3 x %.1f MB/s (+-25 %%)" % r)
        elif mode == "ok-noisy":
            if sus or (u and u.get("state") == "short"):
                problems.append("a busy host's healthy trunk named %s" % sus)
        elif mode == "short-noisy":
            if d.get("verdict") == "PASS" or any(
                    (s.get("scope"), s.get("parts")) != ("bundle", ["gA", "gB"]) for s in sus):
                problems.append("an inconclusive run named %s" % sus)
        elif mode == "short":
            want = [s for s in sus if s.get("scope") == "bundle"
                    and s.get("parts") == ["gA", "gB"]]
            if len(want) != 1 or len(sus) != 1:
                problems.append("capacity suspects %s, want the bundle gA-gB" % sus)
            elif not report_names(sys.argv[4], want[0].get("name", "?")):
                problems.append("the report's Suspects block lacks '%s'" % want[0].get("name"))
            if u and (u.get("state") != "short" or not near(u.get("carried_mb_s"), 1.5 * r)):
                problems.append("want short at 1.5 x %.1f MB/s (+-25 %%)" % r)
            if d.get("verdict") != "FAIL":
                problems.append("verdict %s" % d.get("verdict"))
        else:
            problems.append("unknown mode " + mode)
    print(summary)
    if problems:
        print("; ".join(problems))
        sys.exit(1)


if __name__ == "__main__":
    main()
