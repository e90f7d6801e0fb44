# SPDX-License-Identifier: BSD-3-Clause
"""Checks cxi_plot's block reduction of a --matrix file in-process
(test_plot.sh): the blocks it computes, read in chunks of every size (one
row, rows not a multiple of the block, the default), and the blocks it
draws, against numpy's reduction of the whole matrix; the slow link's
block the lowest bandwidth and highest latency.

    matrix_blocks.py CXI_PLOT_SWEEP_PY FILE K SRC DST
"""
import importlib.util
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

spec = importlib.util.spec_from_file_location("cps", sys.argv[1])
cps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cps)
path, k, src, dst = sys.argv[2], *map(int, sys.argv[3:6])
head = cps.read_matrix_head(path)
n, bad = head["n"], []
if cps.block_side(n) != k:
    bad.append(f"{n} ranks: blocks of {cps.block_side(n)}, want {k}")
nb = -(-n // k)
fig = cps.draw_matrix_file(plt, head, "t")
drawn = [ax.images[0].get_array() for ax in fig.axes if ax.images]
if len(drawn) != 2:
    bad.append(f"{len(drawn)} heatmaps drawn, want 2")
for metric, fn, worst, want in ((0, np.fmin, np.nanargmin, 2500.0),
                                (1, np.fmax, np.nanargmax, 50.0)):
    mm = cps.matrix_map(head, metric)
    full = np.full((nb * k, nb * k), np.nan)
    full[:n, :n] = mm
    ref = fn.reduce(fn.reduce(full.reshape(nb, k, nb, k), axis=3), axis=1)
    if metric < len(drawn) and not np.array_equal(
            np.ma.filled(drawn[metric], np.nan), ref, equal_nan=True):
        bad.append(f"metric {metric}: the heatmap drawn is not its blocks")
    for rows in (1, k + 1, None):
        got = cps.block_reduce(head, metric, k, fn, rows)
        if got.shape != (nb, nb) or not np.array_equal(got, ref,
                                                       equal_nan=True):
            bad.append(f"metric {metric}, {rows} rows a chunk: blocks differ")
    at = np.unravel_index(worst(got), got.shape)
    if at != (src // k, dst // k) or got[at] != want:
        bad.append(f"metric {metric}: worst block {at} = {got[at]}, want "
                   f"{(src // k, dst // k)} = {want}")
for b in bad:
    print(b)
print(f"{n} ranks in {nb} x {nb} blocks of {k}: {len(bad)} problems")
sys.exit(1 if bad else 0)
