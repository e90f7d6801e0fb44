/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the routed main pass's pairs load (routed_load.h). A pair whose
 * switches several equal ways join counts on every link of every way:
 * which way a pair takes is the fabric's hash, unknown here, and a
 * simulated dragonfly's (the global link by destination switch) sends
 * pairs the shares would spread over a bundle onto one link of it. The
 * shares are kept apart for the bound: what each link carries on
 * average is what a perfect schedule could not beat.
 */
#include <errno.h>
#include <stdlib.h>

#include "base/grow.h"
#include "routed_load.h"

static int group_of(const struct cxd_topo_map *tm, int s)
{
	return tm->switch_group && tm->ngroup > 0 ? tm->switch_group[s] : -1;
}

/* Link l's kind: inside a group, between two, or (no groups) a leaf's. */
static int kind_of(const struct cxd_topo_map *tm, int l)
{
	int ga = group_of(tm, tm->link[l].a), gb = group_of(tm, tm->link[l].b);

	if (ga < 0 || gb < 0)
		return CXD_TOPO_W_UPLINK;
	return ga == gb ? CXD_TOPO_W_LOCAL : CXD_TOPO_W_GLOBAL;
}

/* Cables per switch (deg) and per group pair (bun, ng * ng). */
struct units {
	long *deg, *bun;
	int ng;
	const unsigned char *ranked; /* per switch: ranks sit on it */
};

static long unit_of(const struct cxd_topo_map *tm, const struct units *u,
		    int l)
{
	const struct cxd_topo_link *k = &tm->link[l];
	long da = u->deg[k->a], db = u->deg[k->b];

	switch (kind_of(tm, l)) {
	case CXD_TOPO_W_LOCAL:
		return k->count;
	case CXD_TOPO_W_GLOBAL:
		return u->bun[(size_t) group_of(tm, k->a) * (size_t) u->ng +
			      (size_t) group_of(tm, k->b)];
	default: /* the leaf's end: the one ranks sit on */
		if (u->ranked[k->a] != u->ranked[k->b])
			return u->ranked[k->a] ? da : db;
		return da > db ? da : db;
	}
}

static void count_units(const struct cxd_routed_work *w, struct units *u)
{
	const struct cxd_topo_map *tm = w->tm;

	for (int l = 0; l < tm->nlink; l++) {
		const struct cxd_topo_link *k = &tm->link[l];
		int ga = group_of(tm, k->a), gb = group_of(tm, k->b);

		u->deg[k->a] += k->count;
		u->deg[k->b] += k->count;
		if (ga >= 0 && gb >= 0 && ga != gb) {
			u->bun[(size_t) ga * (size_t) u->ng + (size_t) gb] +=
				k->count;
			u->bun[(size_t) gb * (size_t) u->ng + (size_t) ga] +=
				k->count;
		}
	}
}

/* Each kind's pairs a cable, from its width over its largest unit. */
static void per_cable(const struct cxd_routed_work *w, const struct units *u,
		      const int *width, double *each)
{
	long most[CXD_TOPO_W_KINDS] = { 0 };

	for (int l = 0; l < w->tm->nlink; l++) {
		int k = kind_of(w->tm, l);
		long c = unit_of(w->tm, u, l);

		most[k] = c > most[k] ? c : most[k];
	}
	for (int k = 0; k < CXD_TOPO_W_KINDS; k++)
		each[k] = width[k] > 0 && most[k] > 0 ?
			  (double) width[k] / (double) most[k] : 1.0;
}

/* Groups: one more than the largest a switch is in (1 without). */
static int groups(const struct cxd_topo_map *tm, int ns)
{
	int ng = 1;

	for (int s = 0; s < ns; s++)
		ng = group_of(tm, s) >= ng ? group_of(tm, s) + 1 : ng;
	return ng;
}

int cxd_routed_caps(struct cxd_routed_work *w, const int *width)
{
	const struct cxd_topo_map *tm = w->tm;
	int ns = w->rt->ns, ng = groups(tm, ns);
	struct units u = { calloc((size_t) ns + 1, sizeof(long)),
			   calloc((size_t) ng * (size_t) ng + 1, sizeof(long)),
			   ng, NULL };
	unsigned char *ranked = calloc((size_t) ns + 1, 1);
	double each[CXD_TOPO_W_KINDS];
	int ret = u.deg && u.bun && ranked ? 0 : -ENOMEM;

	w->cap = malloc(((size_t) tm->nlink + 1) * sizeof(double));
	if (ret == 0 && w->cap) {
		for (int i = 0; i < w->nu; i++)
			ranked[w->used[i]] = 1;
		u.ranked = ranked;
		count_units(w, &u);
		per_cable(w, &u, width, each);
		for (int l = 0; l < tm->nlink; l++)
			w->cap[l] = tm->link[l].count * each[kind_of(tm, l)];
	}
	free(u.deg);
	free(u.bun);
	free(ranked);
	return ret == 0 && !w->cap ? -ENOMEM : ret;
}

/* Class c's crossings: each link of each of its ways once (seen: the
 * class that last took link l), and the ways' shares of its pairs. */
static int class_links(struct cxd_routed_work *w, int c, int *seen)
{
	int i = c / w->nu, j = c % w->nu;
	double np = (double) cxd_routed_cls_pairs(w, c);
	size_t nw = 0;
	const struct cxd_way *way = i < j ? cxd_routes_ways(
		w->rt, w->used[i], w->used[j], &nw) : NULL;

	for (size_t k = 0; k < nw; k++)
		for (int h = 0; h < way[k].len; h++) {
			int l = w->rt->hop[way[k].first + (size_t) h];

			w->share[l] += np * way[k].share;
			if (seen[l] == c)
				continue;
			seen[l] = c;
			if (cxd_grow((void **) &w->x_link, &w->xcap,
				      w->nx + 1, sizeof(int)) != 0)
				return -ENOMEM;
			w->x_link[w->nx++] = l;
		}
	return 0;
}

/* Each class's rounds needed, every way counted: the most over its
 * links of what all classes put on the link over its cap. */
static int class_crit(struct cxd_routed_work *w, int ncls)
{
	double *full = calloc((size_t) w->tm->nlink + 1, sizeof(double));

	if (!full)
		return -ENOMEM;
	for (int c = 0; c < ncls; c++)
		for (size_t e = w->x_at[c]; e < w->x_at[c + 1]; e++)
			full[w->x_link[e]] += (double) cxd_routed_cls_pairs(w,
									   c);
	for (int c = 0; c < ncls; c++) {
		w->crit[c] = 0;
		for (size_t e = w->x_at[c]; e < w->x_at[c + 1]; e++) {
			double cap = w->cap[w->x_link[e]];
			/* a line always carries one pair, only slower */
			double r = full[w->x_link[e]] / (cap > 1 ? cap : 1);

			w->crit[c] = r > w->crit[c] ? r : w->crit[c];
		}
	}
	free(full);
	return 0;
}

int cxd_routed_loads(struct cxd_routed_work *w)
{
	int ncls = w->nu * w->nu, nl = w->tm->nlink, ret = 0;
	int *seen = malloc(((size_t) nl + 1) * sizeof(int));

	w->x_at = malloc(((size_t) ncls + 1) * sizeof(size_t));
	w->share = calloc((size_t) nl + 1, sizeof(double));
	w->crit = malloc(((size_t) ncls + 1) * sizeof(double));
	if (!seen || !w->x_at || !w->share || !w->crit)
		ret = -ENOMEM;
	for (int l = 0; ret == 0 && l < nl; l++)
		seen[l] = -1;
	for (int c = 0; ret == 0 && c < ncls; c++) {
		w->x_at[c] = w->nx;
		ret = class_links(w, c, seen);
	}
	free(seen);
	if (ret != 0)
		return ret;
	w->x_at[ncls] = w->nx;
	w->x_load = malloc((w->nx + 1) * sizeof(double));
	if (!w->x_load)
		return -ENOMEM;
	for (size_t e = 0; e < w->nx; e++)
		w->x_load[e] = 1.0;
	return class_crit(w, ncls);
}
