# SPDX-License-Identifier: BSD-3-Clause
"""The --csv of a bandwidth tool (test_bw_family.sh).

    bw_csv.py FILE WHO SIZES COUNT [PEER_CSV]

Header + one row per size, fields as the header; bw and pkt rate from
count, size and elapsed_us (plus the peer's figures: bidirectional runs
report the sum).
"""
import csv, sys
f, who, sizes, count = sys.argv[1:5]
peer = sys.argv[5] if len(sys.argv) > 5 else None

def load(path):
    rows = [r for r in csv.reader(open(path)) if r]
    hdr = rows[0] if rows else []
    for k in ("size", "count", "elapsed_us", "bw_mb_s", "pkt_rate_mpkt_s"):
        if k not in hdr:
            sys.exit(f"{path}: header {hdr} lacks {k}")
    if any(len(r) != len(hdr) for r in rows[1:]):
        sys.exit("rows with another field count than the header")
    return hdr, [dict(zip(hdr, r)) for r in rows[1:]]

def own(r):
    s, c, el = int(r["size"]), int(r["count"]), float(r["elapsed_us"])
    if el <= 0:
        sys.exit(f"size {s}: elapsed_us {el} not > 0")
    return s * c / el, c * -(-s // 2048) / el

hdr, data = load(f)
if [int(r["size"]) for r in data] != [int(s) for s in sizes.split(",")]:
    sys.exit(f"sizes {[r['size'] for r in data]}, want {sizes}")
if any(r["count"] != count for r in data):
    sys.exit(f"counts {[r['count'] for r in data]}, want {count}")
others = load(peer)[1] if peer else [None] * len(data)
for r, o in zip(data, others):
    # bw_mb_s has 2 decimals, pkt_rate_mpkt_s 6: half a unit of each
    bw, pkt = own(r)
    if o is not None:
        pbw, ppkt = own(o)
        bw, pkt = bw + pbw, pkt + ppkt
    for key, want, tol in (("bw_mb_s", bw, 0.005), ("pkt_rate_mpkt_s", pkt, 0.5e-6)):
        if abs(float(r[key]) - want) > tol + 2e-5 * want:
            sys.exit(f"size {r['size']}: {key} {r[key]} vs {want:.6f} from count, size, elapsed_us")
print(f"{len(data)} rows, header {','.join(hdr)}, figures from count/size/elapsed" + (" summed with the peer's" if peer else ""))
