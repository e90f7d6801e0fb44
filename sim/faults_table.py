# SPDX-License-Identifier: BSD-3-Clause
"""The tables of sim/faults.py --shapes (docs/simulation.md): recall and
precision by component kind and by shape family, the clean fabrics that
had a suspect, and every missed fault and wrong suspect with the platgen
command line that makes its fabric again. Each trial: its plan, its
suspects (keys), alike ({suspect: [keys]}), metrics ({suspect:
[metric]}), topo ({host: (switch, group)}), verdict and platgen line."""
import faults_plan

ROW_ORDER = ("nic_bw", "nic_lat", "switch", "gateway", "bundle", "bundle_down", "spine",
             "group", "fabric", "other")
# The targets of issue 49, item 6, by component.
MIN_PRECISION, MIN_RECALL = 0.98, 0.95


def named_kind(key, metrics):
    """The component kind a wrong suspect points at, by what it names: a
    rank's NIC (latency or bandwidth by the metric that named it), a
    switch (a link inside a group is part of one), a bundle (a link
    between groups, which is part of one; a capacity bundle is links
    lost), a spine, or the group or fabric."""
    kind, _, name = faults_plan.canon(key).partition(" ")
    if kind == "rank":
        return "nic_lat" if "lat_us" in (metrics.get(key) or []) else "nic_bw"
    if kind == "capacity":
        return "bundle_down" if name.startswith("bundle") else "switch"
    if kind == "link":
        return "bundle" if link_crosses_groups(name) else "switch"
    return kind if kind in ROW_ORDER else "other"


def link_crosses_groups(name):
    """A link key's switches (gXsY-gZsW) in two groups? Names without a
    group prefix (leaves, spines) are not."""
    a, _, b = name.partition("-")
    ga, gb = a.split("s")[0], b.split("s")[0]
    return a.startswith("g") and b.startswith("g") and ga != gb


def trial_score(t):
    """(found fault keys, [(suspect, kind it counts for, right?)])."""
    faults = t["plan"]["faults"]
    alike = t.get("alike") or {}
    found, _ = faults_plan.score_trial(faults, t["suspects"], t["topo"], alike)
    out = []
    for s in t["suspects"]:
        hit = [x["kind"] for x in faults
               if faults_plan.contains(s, x["key"], t["topo"], alike, x["kind"])]
        out.append((s, hit[0] if hit else named_kind(s, t.get("metrics") or {}), bool(hit)))
    return found, out


def tally(trials, key_of):
    """{row: [trials, faults, found, right suspects, wrong suspects, right
    ones named as a set]} over the faulty trials; key_of(trial, kind)
    names a row."""
    rows = {}
    for t in trials:
        if t["plan"]["clean"]:
            continue
        found, sus = trial_score(t)
        seen = set()
        for x in t["plan"]["faults"]:
            r = rows.setdefault(key_of(t, x["kind"]), [0, 0, 0, 0, 0, 0])
            r[1] += 1
            r[2] += x["key"] in found
            seen.add(key_of(t, x["kind"]))
        for s, kind, right in sus:
            r = rows.setdefault(key_of(t, kind), [0, 0, 0, 0, 0, 0])
            r[3 if right else 4] += 1
            # right only as one of a set no pair separates (Flock's score)
            r[5] += right and bool((t.get("alike") or {}).get(s))
        for k in seen:
            rows[k][0] += 1
    return rows


def fmt(v):
    return "-" if v is None else "%.2f" % v


def write_rows(rows, order, head, out):
    out.write("| %s | trials | faults | found | wrong suspects | precision | recall "
              "| right as a set |\n|---|---|---|---|---|---|---|---|\n" % head)
    total = [0, 0, 0, 0, 0, 0]
    for k in [k for k in order if k in rows] + sorted(set(rows) - set(order)):
        r = rows[k]
        total = [a + b for a, b in zip(total, r)]
        out.write(row_line(k, r))
    out.write(row_line("all", total).replace("| all |", "| **all** |"))


def row_line(name, r):
    trials, faults, found, right, wrong, sets = r
    prec = right / (right + wrong) if right + wrong else None
    rec = found / faults if faults else None
    return "| %s | %s | %d | %d | %d | %s%s | %s%s | %d |\n" % (
        name, trials if faults else "-", faults, found, wrong, fmt(prec),
        "" if prec is None or prec >= MIN_PRECISION else " (below %.2f)" % MIN_PRECISION,
        fmt(rec), "" if rec is None or rec >= MIN_RECALL else " (below %.2f)" % MIN_RECALL,
        sets)


def named_text(t, s):
    alike = (t.get("alike") or {}).get(s)
    return s + (" (cannot be told apart from %s)" % ", ".join(alike) if alike else "")


def fault_text(x):
    """A fault as the tables write it: the key, what was done to it; a
    gateway said so (its key is a plain switch's)."""
    gate = "gateway " if x["kind"] == "gateway" else ""
    if "down" in x:
        return "%s%s: %d link down" % (gate, x["key"], x["down"])
    return "%s%s%s x%g" % (gate, x["key"], " latency" if x["kind"] == "nic_lat" else "",
                           x["factor"])


def print_cases(trials, out):
    """Every missed fault and wrong suspect, and every clean fabric with a
    suspect: the trial id, the platgen command, the faults, what was named."""
    n = 0
    for t in trials:
        pl = t["plan"]
        found, sus = trial_score(t) if not pl["clean"] else ([], [])
        missed = [x for x in pl["faults"] if x["key"] not in found]
        wrong = [s for s, _, right in sus if not right]
        if pl["clean"]:
            wrong = list(t["suspects"])
        if not missed and not wrong:
            continue
        n += 1
        out.write("\n- seed %d trial %d (%s, %d ranks, %s)%s\n" % (
            pl["seed"], pl["trial"], pl["shape"], pl["ranks"], t["verdict"],
            ": a clean fabric with a suspect" if pl["clean"] else ""))
        out.write("  - platgen: `%s`\n" % t["platgen"])
        out.write("  - faults: %s\n" % (", ".join(map(fault_text, pl["faults"])) or "none"))
        out.write("  - named: %s\n" % ("; ".join(named_text(t, s) for s in t["suspects"])
                                       or "nothing"))
        if missed:
            out.write("  - missed: %s\n" % ", ".join(x["key"] for x in missed))
        if wrong:
            out.write("  - wrong: %s\n" % ", ".join(wrong))
    if not n:
        out.write("\nnone\n")


def print_trials(trials, mode, out):
    """One row a trial: its shape family, faults, verdict, what was named
    (with the sets it cannot tell apart), faults found, suspects right."""
    out.write("### %s: trials\n\n| trial | shape family | faults | verdict | named | found "
              "| right | wall s |\n|---|---|---|---|---|---|---|---|\n" % mode)
    for t in trials:
        pl = t["plan"]
        found, sus = trial_score(t) if not pl["clean"] else ([], [])
        out.write("| %d | %s | %s | %s | %s | %s | %s | %s |\n" % (
            pl["trial"], pl["shape"], ", ".join(map(fault_text, pl["faults"])) or "none",
            t["verdict"], "; ".join(named_text(t, s) for s in t["suspects"]) or "-",
            "%d/%d" % (len(found), len(pl["faults"])) if pl["faults"] else "-",
            "%d/%d" % (sum(r for _, _, r in sus), len(sus)) if sus else "-",
            fmt1(t.get("wall_s"))))
    out.write("\n")


def count_row(t, kind):
    """A trial's row by its fault count; with --budget, trials of two
    faults or more split by what the plan promised: any two faults told
    apart (every two components' signatures differ in union), or not."""
    n = len(t["plan"]["faults"])
    row = "%d fault%s" % (n, "" if n == 1 else "s")
    promise = t.get("promise_two")
    if n >= 2 and promise is not None:
        row += ", plan promised two" if promise is True else ", two not promised"
    return row


def fmt1(v):
    return "-" if v is None else "%.1f" % v


def print_all(trials, links, out):
    mode = "with links" if links else "places only"
    print_trials(trials, mode, out)
    faulty = [t for t in trials if not t["plan"]["clean"]]
    out.write("### %s: by component kind (%d faulty trials)\n\n" % (mode, len(faulty)))
    write_rows(tally(trials, lambda t, k: k), ROW_ORDER, "component", out)
    out.write("\n### %s: by shape family\n\n" % mode)
    write_rows(tally(trials, lambda t, k: t["plan"]["shape"]), (), "shape family", out)
    out.write("\n### %s: by faults in the trial\n\n" % mode)
    write_rows(tally(trials, count_row), (), "faults", out)
    clean = [t for t in trials if t["plan"]["clean"]]
    dirty = [t for t in clean if t["suspects"]]
    out.write("\nclean fabrics (%s): %d, with a suspect %d%s\n" % (
        mode, len(clean), len(dirty),
        "".join(" (trial %d: %s)" % (t["plan"]["trial"], ", ".join(t["suspects"]))
                for t in dirty)))
    out.write("\n### %s: missed faults and wrong suspects\n" % mode)
    print_cases(trials, out)
