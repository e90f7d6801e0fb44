# SPDX-License-Identifier: BSD-3-Clause
"""PNG signature, size and dimensions (IHDR) (test_plot.sh).

    png_ok.py FILE MIN_KB MIN_W MIN_H
"""
import os, struct, sys
f, kb, w0, h0 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b = open(f, "rb").read(24)
if b[:8] != b"\x89PNG\r\n\x1a\n" or b[12:16] != b"IHDR":
    sys.exit(f"{f}: not a PNG")
w, h = struct.unpack(">II", b[16:24])
n = os.path.getsize(f)
print(f"{os.path.basename(f)}: {w}x{h}, {n} bytes")
if n < kb * 1024 or w < w0 or h < h0:
    sys.exit(f"{f}: {w}x{h} {n} bytes, want >= {w0}x{h0} and {kb} KB")
