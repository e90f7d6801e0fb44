# SPDX-License-Identifier: BSD-3-Clause
"""Runs cxi_plot in this process and looks at the figure it saves: every
legend, title and axis label lies inside the figure (nothing cut at an
edge), and every log-scale value axis has at least 3 tick labels.

    plot_layout.py CXI_PLOT_PY CXI_PLOT_ARGS...
"""
import importlib.util
import sys

import matplotlib
matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.legend import Legend  # noqa: E402

spec = importlib.util.spec_from_file_location("cxi_plot", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
saved = []
real_savefig = Figure.savefig


def keep(fig, *a, **k):
    saved.append(fig)
    return real_savefig(fig, *a, **k)


Figure.savefig = keep
rc = plot.main(sys.argv[2:])
if rc != 0 or len(saved) != 1:
    sys.exit(f"cxi_plot exited {rc} and saved {len(saved)} figures")
fig = saved[0]
fig.canvas.draw()
fb = fig.bbox
bad = []


def inside(what, artist):
    b = artist.get_window_extent()
    if b.x0 < fb.x0 - 1 or b.y0 < fb.y0 - 1 or b.x1 > fb.x1 + 1 \
            or b.y1 > fb.y1 + 1:
        bad.append(f"{what} sticks out of the figure: {b.bounds} "
                   f"outside {fb.bounds}")


legends = fig.findobj(Legend)
for i, leg in enumerate(legends):
    inside(f"legend {i} ({[t.get_text() for t in leg.get_texts()][:2]})",
           leg)
texts = list(fig.texts)
for ax in fig.axes:
    texts += [ax.title, ax._left_title, ax.xaxis.label, ax.yaxis.label]
for t in texts:
    if t.get_visible() and t.get_text():
        inside(f"text '{t.get_text()[:40]}'", t)
axes = [ax for ax in fig.axes if ax.get_yscale() == "log" and not ax.images]
for ax in axes:
    lo, hi = sorted(ax.get_ylim())
    shown = [t.get_text() for t, v in zip(ax.get_yticklabels(),
                                           ax.get_yticks())
             if t.get_text() and lo <= v <= hi]
    if len(shown) < 3:
        bad.append(f"'{ax.get_ylabel()}' axis: {len(shown)} tick labels "
                   f"{shown}, want >= 3")
for b in bad:
    print(b)
print(f"{len(legends)} legends, {len(texts)} texts, {len(axes)} log axes "
      f"checked: {len(bad)} problems")
sys.exit(1 if bad else 0)
