# SPDX-License-Identifier: BSD-3-Clause
"""Writes a synthetic cxi_sweep --matrix file (test_plot.sh), laid out as
lib/sweep/model/matrix.h says: bandwidth 10000 + 10 i + j MB/s and latency
2 + 0.01 (i + j) us from rank i to j, NaN on the diagonal and for the
unmeasured 0->2 link, the SRC->DST link slow (2500 MB/s, 50 us). Ranks
share hosts two by two, on NICs cxi0/cxi1. Damaged on request: --cut
BYTES keeps the first BYTES, --magic, --version, --mark overwrite the
head's fields.

    sweep_matrix.py OUT N [SRC DST] [--cut B] [--magic M] [--version V]
                    [--mark X]
"""
import argparse
import struct

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("n", type=int)
p.add_argument("slow", type=int, nargs="*", default=[3, 1])
p.add_argument("--cut", type=int)
p.add_argument("--magic", default="CXDSWMAT")
p.add_argument("--version", type=int, default=1)
p.add_argument("--mark", type=lambda s: int(s, 0), default=0x01020304)
a = p.parse_args()
n = a.n
head = struct.pack("<8sIIII QQ dd 64s", a.magic.encode(), a.version, a.mark,
                   n, 0, 1 << 20, 5, 0.1, 0.1, b"tcp;ofi_rxm")
head += bytes(128 - len(head))
recs = b"".join(struct.pack("256s160s64s32x", f"node{i // 2}".encode(),
                            f"fi_addr_{i}".encode(), f"cxi{i % 2}".encode())
                for i in range(n))
i, j = np.indices((n, n))
bw = 10000.0 + 10 * i + j
lat = 2.0 + 0.01 * (i + j)
for m in (bw, lat):
    np.fill_diagonal(m, np.nan)
    if n > 2:
        m[0, 2] = np.nan
s, d = a.slow
bw[s, d], lat[s, d] = 2500.0, 50.0
data = head + recs + bw.astype("<f8").tobytes() + lat.astype("<f8").tobytes()
assert len(data) == 128 + 512 * n + 16 * n * n
with open(a.out, "wb") as f:
    f.write(data[:a.cut] if a.cut is not None else data)
