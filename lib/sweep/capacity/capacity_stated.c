/* SPDX-License-Identifier: BSD-3-Clause */
/* Stated widths as the routes' model's rates (capacity_model.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "capacity_model.h"
#include "sweep/judge/stat.h"

/* The scope whose width a kind of link carries. */
static const enum cxd_cap_scope scope_of[CXD_CAP_L_KINDS] = {
	[CXD_CAP_L_LOCAL] = CXD_CAP_SWITCHES,
	[CXD_CAP_L_GLOBAL] = CXD_CAP_BUNDLE,
	[CXD_CAP_L_UPLINK] = CXD_CAP_LEAVES,
};

double cxd_cap_class_pair(const struct cxd_cap_class *cl, double pair)
{
	return isfinite(cl->pair) && cl->pair > 0 ? cl->pair : pair;
}

/* The groups the link lines' ends are in: one more than the highest. */
static int groups_of_links(const struct cxd_topo_map *tm)
{
	int ng = 0;

	for (int l = 0; tm->switch_group && l < tm->nlink; l++) {
		int a = tm->switch_group[tm->link[l].a];
		int b = tm->switch_group[tm->link[l].b];

		ng = a >= ng ? a + 1 : ng;
		ng = b >= ng ? b + 1 : ng;
	}
	return ng;
}

/* Where link l's cables are counted for its kind: its own line (local),
 * its group pair (global, of ng groups), its leaf's uplinks (the end
 * with ranks). */
static int slot_of(const struct cxd_topo_map *tm, int l, int k, int ng)
{
	const struct cxd_topo_link *x = &tm->link[l];

	if (k == CXD_CAP_L_LOCAL)
		return l;
	if (k == CXD_CAP_L_GLOBAL) {
		int a = tm->switch_group[x->a], b = tm->switch_group[x->b];

		return (a < b ? a : b) * ng + (a < b ? b : a);
	}
	return x->a < tm->nswitch ? x->a : x->b < tm->nswitch ? x->b : -1;
}

/* The median count of cables a connection of kind k holds; NAN: none. */
static double cables(const struct cxd_topo_map *tm, int k, int ng,
		     double *sum, size_t nslot)
{
	size_t m = 0;

	for (size_t i = 0; i < nslot; i++)
		sum[i] = 0;
	for (int l = 0; l < tm->nlink; l++) {
		int at = cxd_cap_link_kind(tm, l) == (enum cxd_cap_lkind) k ?
			 slot_of(tm, l, k, ng) : -1;

		if (at >= 0 && (size_t) at < nslot)
			sum[at] += tm->link[l].count;
	}
	for (size_t i = 0; i < nslot; i++)
		if (sum[i] > 0)
			sum[m++] = sum[i];
	return m ? cxd_stat_median(sum, m) : NAN;
}

int cxd_cap_stated_rates(const struct cxd_topo_map *tm,
			 const struct cxd_cap_plan *pl, double pair_mb_s,
			 double *fixed)
{
	int ng = groups_of_links(tm);
	size_t nslot = (size_t) tm->nlink + (size_t) ng * (size_t) ng +
		       (size_t) tm->nswitch;
	double *sum = malloc((nslot + 1) * sizeof(double));

	if (sum == NULL)
		return -ENOMEM;
	for (int k = 0; k < CXD_CAP_L_KINDS; k++) {
		const struct cxd_cap_class *cl = &pl->cls[scope_of[k]];
		double pair = cxd_cap_class_pair(cl, pair_mb_s);
		double c = cl->stated && cl->width > 0 && tm->nlink > 0 &&
			   (k != CXD_CAP_L_GLOBAL || tm->switch_group) ?
			   cables(tm, k, ng, sum, nslot) : NAN;

		fixed[k] = isfinite(c) && c > 0 && pair > 0 ?
			   cl->width * pair / c : NAN;
	}
	free(sum);
	return 0;
}
