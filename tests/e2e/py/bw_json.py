# SPDX-License-Identifier: BSD-3-Clause
"""The --json of a bandwidth tool (test_bw_family.sh).

    bw_json.py FILE TOOL PROV SIZES COUNT [CLIENT_JSON]

Keys, sizes, count (null on a uni-directional server), bw and pkt rate from
count, size and elapsed; a server's figures equal the client's.
"""
import json, math, sys
f, tool, prov, sizes, count = sys.argv[1:6]
client = sys.argv[6] if len(sys.argv) > 6 else ""
try:
    d = json.load(open(f))
except Exception as e:
    sys.exit(f"not one JSON document: {e}")
errs = []
for k in ("tool", "provider", "results"):
    if k not in d:
        errs.append(f"key {k!r} missing")
if d.get("tool") != tool:
    errs.append(f"tool {d.get('tool')!r}")
if prov not in str(d.get("provider")):
    errs.append(f"provider {d.get('provider')!r}, want {prov}")
res = d.get("results") or []
if [r.get("size") for r in res] != [int(s) for s in sizes.split(",")]:
    errs.append(f"sizes {[r.get('size') for r in res]}")
peer = {r["size"]: r for r in json.load(open(client))["results"]} if client else {}
for r in res:
    try:
        for k in ("size", "count", "bw_mb_s", "pkt_rate_mpkt_s", "elapsed_us"):
            if k not in r:
                raise KeyError(k)
        s = r["size"]
        if client:
            if r["count"] is not None:
                errs.append(f"size {s}: server count {r['count']!r}, want null")
            if (r["bw_mb_s"], r["pkt_rate_mpkt_s"]) != (peer[s]["bw_mb_s"], peer[s]["pkt_rate_mpkt_s"]):
                errs.append(f"size {s}: server figures differ from the client's")
            continue
        if r["count"] != int(count):
            errs.append(f"size {s}: count {r['count']}, want {count}")
        el = r["elapsed_us"]
        for key, want in (("bw_mb_s", s * r["count"] / el),
                          ("pkt_rate_mpkt_s", r["count"] * math.ceil(s / 2048) / el)):
            if not (r[key] > 0 and abs(r[key] - want) <= 1e-6 * want):
                errs.append(f"size {s}: {key} {r[key]} vs {want}")
        if "bw_gb_s" in r and abs(r["bw_gb_s"] - r["bw_mb_s"] * 8 / 1000) > 1e-9 * r["bw_gb_s"]:
            errs.append(f"size {s}: bw_gb_s {r['bw_gb_s']} != bw_mb_s*8/1000")
    except (KeyError, TypeError, ZeroDivisionError) as e:
        errs.append(f"size {r.get('size')}: {e!r}")
if errs:
    sys.exit("; ".join(errs[:5]))
print(f"{len(res)} results: keys, sizes" + (", count null, figures = client's" if client else ", count, bw and pkt rate from elapsed_us"))
