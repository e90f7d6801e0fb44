/* SPDX-License-Identifier: BSD-3-Clause */
/* Classes of link whose lone pairs run at full rate (judge_full.h). */
#include <math.h>

#include "judge.h"
#include "judge_full.h"

/* Kind k carries two or more pairs at full rate by a width line, or the
 * fabric has no such links (nothing to slow the class there). The run's
 * own measurement does not count: it is made against pairs of the same
 * class, and a slow layer measures itself as the norm. A stated 1 does
 * not either: sim/platgen.py and sites write 1 for a cable narrower
 * than a node link (a single pair always runs, only slower). */
static bool full(const struct cxd_topo_width *w, int k)
{
	return w[k].src == CXD_TOPO_WS_NONE ||
	       (w[k].src == CXD_TOPO_WS_STATED && w[k].pairs >= 2);
}

static bool present(const struct cxd_topo_width *w, int k)
{
	return w[k].src != CXD_TOPO_WS_NONE;
}

void cxd_judge_full_classes(const struct cxd_topo_width *w, bool grouped,
			    bool out[CXD_LC_N])
{
	for (int c = 0; c < CXD_LC_N; c++)
		out[c] = false;
	if (w == NULL)
		return;
	out[CXD_LC_GROUP] = present(w, CXD_TOPO_W_LOCAL) &&
			    full(w, CXD_TOPO_W_LOCAL);
	if (grouped)
		/* to the gateway switch and over the bundle */
		out[CXD_LC_ACROSS] = present(w, CXD_TOPO_W_GLOBAL) &&
				     full(w, CXD_TOPO_W_GLOBAL) &&
				     full(w, CXD_TOPO_W_LOCAL);
	else
		out[CXD_LC_ACROSS] = present(w, CXD_TOPO_W_UPLINK) &&
				     full(w, CXD_TOPO_W_UPLINK);
}

/* Class c's typical pair as it runs alone: under --budget the plan's
 * rounds load no link beyond its cables, so as measured; in the full
 * sweep raised by what its pairs gained alone in the calibration, and
 * unknown (NAN) where none of them was measured alone: a hashed fat
 * tree's pairs met two on a spine's cable at once, at half rate, and
 * the class's typical pair was a crowded one. */
static double alone(const struct cxd_rules *r, int c)
{
	double x = r->tol[CXD_M_BW].crowd_of[c];

	if (r->bw_by_class)
		return r->bw_typical_of[c];
	return isfinite(x) ? r->bw_typical_of[c] * (1.0 + fmax(x, 0.0)) :
			     NAN;
}

void cxd_judge_full_slow(struct cxd_rules *r)
{
	double one = r->bw_typical_of[CXD_LC_SWITCH];
	double floor = one * (1.0 - r->tol[CXD_M_BW].tol);

	for (int c = 0; c < CXD_LC_N; c++)
		r->bw_full[c] = r->bw_full[c] && isfinite(one) &&
				!r->tol[CXD_M_BW].poor && alone(r, c) < floor;
}
