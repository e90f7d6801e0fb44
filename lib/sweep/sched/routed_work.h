/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routed main pass while it is built (sched_routed.c, its loads in
 * routed_load.c). Pairs fall in classes by switch pair: every pair of
 * ranks on the same two switches crosses the same link lines, so a
 * class's crossings are found once, from its ways (route.h).
 */
#ifndef CXD_SWEEP_ROUTED_WORK_H
#define CXD_SWEEP_ROUTED_WORK_H

#include <stddef.h>

#include "sweep/model/route.h"
#include "sweep/model/pairs.h"

struct cxd_routed_work {
	const struct cxd_topo_map *tm;
	const struct cxd_routes *rt;
	int n;
	/* The switches ranks sit on (used[i], i < nu) and their ranks:
	 * rank_of[rank_at[i] .. rank_at[i + 1]). Class i * nu + j (i <= j)
	 * is the pairs between used switches i and j. */
	int nu, *used, *rank_at, *rank_of;
	/* Class c loads link x_link[e] by 1 for e in x_at[c] .. x_at[c+1]
	 * (every link any of its ways crosses: the hash is unknown). */
	size_t *x_at, nx, xcap;
	int *x_link;
	double *x_load;
	/* Per link line: the pairs it carries at once at full rate (its
	 * cables times a cable's share of its kind's width), and the pairs
	 * its ways carry over the whole sweep by their shares (the
	 * bound's). */
	double *cap, *share;
	/* Per class: the rounds its busiest link needs when every way is
	 * counted (the order the pairs are packed in). */
	double *crit;
};

/* Pairs of class c (i <= j: pairs between used switches i and j). */
static inline long cxd_routed_cls_pairs(const struct cxd_routed_work *w,
					int c)
{
	int i = c / w->nu, j = c % w->nu;
	long hi = w->rank_at[i + 1] - w->rank_at[i];
	long hj = w->rank_at[j + 1] - w->rank_at[j];

	if (i > j)
		return 0;
	return i == j ? hi * (hi - 1) / 2 : hi * hj;
}

#endif
