# SPDX-License-Identifier: BSD-3-Clause
"""cxi_write_bw --json, -s 1:1024 -n 20 (test_write_bw.sh).

    write_bw_json.py FILE PROV client|server CLIENT_JSON
"""
import json, sys
f, prov, side = sys.argv[1:4]
try:
    d = json.load(open(f))
except Exception as e:
    sys.exit(f"not one JSON document: {e}")
errs = []
client = {}
if side == "server":
    client = {r["size"]: r for r in json.load(open(sys.argv[4]))["results"]}
for k in ("tool", "version", "provider", "device", "options", "results"):
    if k not in d:
        errs.append(f"key '{k}' missing")
if d.get("tool") != "cxi_write_bw":
    errs.append(f"tool = {d.get('tool')!r}")
if d.get("provider") and prov not in str(d.get("provider")):
    errs.append(f"provider = {d.get('provider')!r}, want {prov}")
res = d.get("results") or []
if [r.get("size") for r in res] != [1 << i for i in range(11)]:
    errs.append(f"sizes {[r.get('size') for r in res]}")
for r in res:
    for k in ("size", "count", "bw_mb_s", "pkt_rate_mpkt_s", "elapsed_us"):
        if k not in r:
            errs.append(f"result key '{k}' missing")
    try:
        if side == "server":
            # uni-directional: the server has no count of its own (null, the
            # JSON form of the table's '-') and reports the client's figures
            if r.get("count") is not None:
                errs.append(f"size {r['size']}: server count {r['count']!r}, want null")
            if r.get("bw_mb_s") != client[r["size"]]["bw_mb_s"]:
                errs.append(f"size {r['size']}: server bw {r.get('bw_mb_s')} != client's")
            continue
        if r["count"] != 5120:
            errs.append(f"size {r['size']}: count {r['count']} != 5120")
        exp = r["size"] * r["count"] / r["elapsed_us"]
        if not (r["bw_mb_s"] > 0 and abs(r["bw_mb_s"] - exp) <= 0.001 * exp):
            errs.append(f"size {r['size']}: bw_mb_s {r['bw_mb_s']} vs size*count/elapsed_us {exp:.4f}")
    except (KeyError, TypeError, ZeroDivisionError) as e:
        errs.append(f"size {r.get('size')}: {e!r}")
if errs:
    sys.exit("; ".join(errs[:6]))
print(f"{len(res)} results, keys ok, " + ("count null, bw = client's" if side == "server" else "bw_mb_s = size*count/elapsed_us within 0.1%"))
