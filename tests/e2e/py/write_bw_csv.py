# SPDX-License-Identifier: BSD-3-Clause
"""cxi_write_bw --csv, -s 64:256 (test_write_bw.sh).

    write_bw_csv.py FILE
"""
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith("#")]
if len(rows) < 2:
    sys.exit(f"{len(rows)} CSV lines, want header + rows")
hdr = [h.strip().lower() for h in rows[0]]
si = next((i for i, h in enumerate(hdr) if "size" in h), None)
if si is None:
    sys.exit(f"no size column in header {rows[0]}")
data = rows[1:]
if any(len(r) != len(hdr) for r in data):
    sys.exit("rows with a different field count than the header")
sizes = [int(r[si]) for r in data]
if sizes != [64, 128, 256]:
    sys.exit(f"sizes {sizes}, want [64, 128, 256]")
print(f"header {rows[0]}, {len(data)} rows, sizes ok")
