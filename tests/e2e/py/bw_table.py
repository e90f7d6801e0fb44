# SPDX-License-Identifier: BSD-3-Clause
"""The text table of a bandwidth tool (test_bw_family.sh).

    bw_table.py FILE HEADER SIZES COUNT [PEER] [GBITS]

Header line exactly once, the separator above it as long as the header and
closing the table, one row per expected size in order, the count column,
PktRate against BW (within the printed rounding), and, given a peer's
output, the same BW and PktRate on every row. Exit 0 with a summary line,
else the reasons.
"""
import math, re, sys
# FILE HEADER SIZES COUNT [PEER] ; COUNT: a number, "-", or "*N" (a
# positive multiple of N); SIZES: comma list; GBITS=1 for a Gb/s column.
f, header, sizes, count = sys.argv[1:5]
peer = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
gbits = len(sys.argv) > 6 and sys.argv[6] == "1"
row_re = re.compile(r"^\s*(\d+)\s+(-|\d+)\s+(\d+\.\d{2})\s+(\d+\.\d{6})\s*$")

def rows(path):
    return [m.groups() for m in map(row_re.match, open(path).read().splitlines()) if m]

lines = open(f).read().splitlines()
errs = []
n = lines.count(header)
if n != 1:
    errs.append(f"header line {header!r} appears {n} times, want 1")
else:
    i = lines.index(header)
    if i == 0 or lines[i - 1] != "-" * len(header):
        errs.append(f"line above the header is {lines[i - 1] if i else None!r}, want {len(header)} dashes")
    if lines[-1] != "-" * len(header):
        errs.append(f"last line {lines[-1]!r}, want the separator")
got = rows(f)
want_sizes = [int(s) for s in sizes.split(",")]
if [int(r[0]) for r in got] != want_sizes:
    errs.append(f"sizes {[r[0] for r in got]}, want {want_sizes}")
for size, cnt, bw, pkt in got:
    size, bw, pkt = int(size), float(bw), float(pkt)
    if count.startswith("*"):
        if cnt == "-" or int(cnt) <= 0 or int(cnt) % int(count[1:]):
            errs.append(f"size {size}: count {cnt} not a positive multiple of {count[1:]}")
    elif cnt != count:
        errs.append(f"size {size}: count {cnt}, want {count}")
    if bw <= 0 or pkt <= 0:
        errs.append(f"size {size}: BW {bw} / PktRate {pkt} not > 0")
    # PktRate = count*ceil(size/2048)/elapsed and BW = size*count/elapsed
    # (MB/s; Gb/s = MB/s*8/1000): BW/size*pk = PktRate. BW has 2 decimals,
    # PktRate 6: allow half a unit of each.
    pk = math.ceil(size / 2048)
    scale = 8 / 1000 if gbits else 1
    want_bw = pkt * size / pk * scale
    tol = 0.005 + 0.5e-6 * size / pk * scale + 1e-9 * want_bw
    if abs(bw - want_bw) > tol:
        errs.append(f"size {size}: BW {bw} vs PktRate*size/ceil(size/2048) = {want_bw:.4f}")
if peer:
    prow = rows(peer)
    if [(r[0], r[2], r[3]) for r in prow] != [(r[0], r[2], r[3]) for r in got]:
        errs.append(f"BW/PktRate differ from the peer's: {[r[2:] for r in got][:3]} vs {[r[2:] for r in prow][:3]}")
if errs:
    sys.exit("; ".join(errs[:5]))
print(f"{len(got)} rows, header and separators ok" + (", same BW/PktRate as the peer" if peer else ""))
