# SPDX-License-Identifier: BSD-3-Clause
"""The output of a latency tool (test_lat_family.sh), one mode per use:

    lat_check.py client FILE HEADER SIZES COUNT NOUN   text table; NOUN "-": no listing
    lat_check.py server FILE NSIZES                    summary, "See client..." per size
    lat_check.py json FILE SIZES COUNT SERVER_JSON     percentiles; COUNT "+": any > 0
"""
import json, math, re, sys
mode, f = sys.argv[1:3]
lines = open(f).read().splitlines()
errs = []
ROW = re.compile(r"^\s*(\d+)\s+(\d+)" + r"\s+(\d+)\.(\d{2})" * 4 + r"\s*$")
IDX = re.compile(r"^\s*(\d+)\s+(\d+)\.(\d{3})$")

def us2(i, m):  # "%7lu.%02lu" fields -> integer hundredths of a us
    return int(m.group(i)) * 100 + int(m.group(i + 1))

def client(header, sizes, count, noun):
    sep = "-" * len(header)
    rows = [(i, m) for i, m in enumerate(map(ROW.match, lines)) if m]
    want = [int(s) for s in sizes.split(",")]
    if [int(m.group(1)) for _, m in rows] != want:
        errs.append(f"sizes {[m.group(1) for _, m in rows]}, want {want}")
    hdr_at = [i for i, l in enumerate(lines) if l == header]
    want_hdrs = len(want) if noun != "-" else 1
    if len(hdr_at) != want_hdrs:
        errs.append(f"header {header!r} {len(hdr_at)} times, want {want_hdrs}")
    if any(lines[i - 1] != sep for i in hdr_at):
        errs.append(f"a header without the {len(header)}-dash separator above it")
    if lines[-1] != sep:
        errs.append("last line is not the separator")
    idx_hdr = "%10s  %11s" % (noun, "Latency[us]")
    if noun == "-" and any("Latency[us]" in l for l in lines):
        errs.append("an index listing where none is wanted")
    for i, m in rows:
        size, n = int(m.group(1)), int(m.group(2))
        mn, mx, mean, sd = (us2(k, m) for k in (3, 5, 7, 9))
        if n != int(count):
            errs.append(f"size {size}: count {n}, want {count}")
        if not (mn <= mean <= mx):
            errs.append(f"size {size}: min {mn} mean {mean} max {mx} (1/100 us) out of order")
        if noun == "-":
            continue
        # the listing sits above the header: idx header, n rows, sep, header
        top = i - 1 - 1 - n - 1
        if top < 0 or lines[top] != idx_hdr:
            errs.append(f"size {size}: no {idx_hdr!r} line {n} rows above the result")
            continue
        lst = [IDX.match(l) for l in lines[top + 1:top + 1 + n]]
        if not all(lst) or [int(x.group(1)) for x in lst] != list(range(n)):
            errs.append(f"size {size}: listing rows not 0..{n - 1}")
            continue
        if lines[top + 1 + n] != sep:
            errs.append(f"size {size}: listing not closed by the separator")
        ns = [int(x.group(2)) * 1000 + int(x.group(3)) for x in lst]
        # the summary row, recomputed from the listing (ns exact, printed
        # truncated to 10 ns; stddev population, within 10 ns)
        mean_ns = sum(ns) // n
        var = sum(v * v for v in ns) / n - (sum(ns) / n) ** 2
        got = (mn, mx, mean)
        want3 = (min(ns) // 10, max(ns) // 10, mean_ns // 10)
        if got != want3:
            errs.append(f"size {size}: min/max/mean {got} vs listing {want3}")
        if abs(sd - math.sqrt(max(var, 0)) / 10) > 1.01:
            errs.append(f"size {size}: stddev {sd} vs listing {math.sqrt(max(var, 0)) / 10:.2f}")
    return f"{len(rows)} rows, count {count}, min<=mean<=max" + (
        f", {noun} listing of {count} rows matches the summary row" if noun != "-" else "")

def server(nsizes):
    see = [i for i, l in enumerate(lines) if l == "See client for results."]
    if len(see) != int(nsizes):
        errs.append(f"'See client for results.' {len(see)} times, want {nsizes}")
    if any(not re.fullmatch(r"-{40,}", lines[i - 1]) for i in see):
        errs.append("a 'See client' line without a separator above it")
    if any(ROW.match(l) for l in lines) or any("Min[us]" in l for l in lines):
        errs.append("the server prints a table")
    if not any(re.match(r"^Test Type +: ", l) for l in lines):
        errs.append("no summary block")
    return f"summary, {len(see)} x 'See client for results.', no table"

def jcheck(sizes, count, sjson):
    d = json.load(open(f))
    res = d.get("results") or []
    want = [int(s) for s in sizes.split(",")]
    if [r.get("size") for r in res] != want:
        errs.append(f"sizes {[r.get('size') for r in res]}, want {want}")
    keys = ("count", "min_us", "max_us", "mean_us", "stddev_us", "p50_us",
            "p90_us", "p99_us", "p999_us")
    for r in res:
        miss = [k for k in keys if not isinstance(r.get(k), (int, float))]
        if miss:
            errs.append(f"size {r.get('size')}: keys {miss} missing")
            continue
        if count == "+" and r["count"] <= 0 or count != "+" and r["count"] != int(count):
            errs.append(f"size {r['size']}: count {r['count']}, want {count}")
        chain = [r[k] for k in ("min_us", "p50_us", "p90_us", "p99_us", "p999_us", "max_us")]
        if chain != sorted(chain) or not chain[0] > 0:
            errs.append(f"size {r['size']}: min<=p50<=p90<=p99<=p99.9<=max broken: {chain}")
        if not r["min_us"] <= r["mean_us"] <= r["max_us"]:
            errs.append(f"size {r['size']}: mean {r['mean_us']} outside min..max")
        if d["options"].get("report_all") != ("latencies_us" in r):
            errs.append(f"size {r['size']}: latencies_us present = {'latencies_us' in r}, report_all {d['options'].get('report_all')}")
    if sjson:
        s = json.load(open(sjson))
        srs = s.get("results") or []
        if [r.get("size") for r in srs] != want or not all(r.get("see_client") for r in srs):
            errs.append(f"server results {srs}")
        # the send_lat responder counts the iterations it answered
        if d["tool"] == "cxi_send_lat":
            sc = [r.get("count") for r in srs]
            cc = [r.get("count") for r in res]
            if sc != cc:
                errs.append(f"server counts {sc} != client counts {cc}")
        elif any("count" in r for r in srs):
            errs.append("a passive server reports a count")
    return f"{len(res)} results, p50<=p90<=p99<=p999 within min..max, count {count}" + (
        ", server's counts = client's" if sjson and d["tool"] == "cxi_send_lat" else "")

try:
    if mode == "client":
        msg = client(*sys.argv[3:7])
    elif mode == "server":
        msg = server(sys.argv[3])
    else:
        msg = jcheck(*sys.argv[3:6])
except (ValueError, KeyError, TypeError, IndexError) as e:
    errs.append(repr(e))
if errs:
    sys.exit("; ".join(errs[:5]))
print(msg)
