/* SPDX-License-Identifier: BSD-3-Clause */
/* The pairs a covering plan holds first (plan_cover_anchor.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "plan_cover_add.h"
#include "plan_cover_anchor.h"
#include "plan_cover_pick.h"

/* Switch pair of used switches u and v. */
static int sp_of(const struct cxd_cover_work *w, int u, int v)
{
	return u <= v ? u * w->nused + v : v * w->nused + u;
}

static bool full(struct cxd_cover_work *w)
{
	if (w->max_pairs <= 0 || w->npair < w->max_pairs)
		return false;
	w->capped = 1;
	return true;
}

/* Pair (a, b) of switch pair sp, unless chosen already. */
static int add(struct cxd_cover_work *w, int sp, int a, int b)
{
	if (a == b || cxd_cover_taken(w, a, b))
		return 0;
	return full(w) ? 0 : cxd_cover_add_pair(w, sp, a, b);
}

/* Used switch u's ranks in a ring: each with the next (two ranks: one
 * pair). */
static int ring(struct cxd_cover_work *w, int u)
{
	int s = w->used[u], h = w->rank_at[s + 1] - w->rank_at[s];
	const int *r = w->rank_of + w->rank_at[s];
	int ret = 0;

	for (int i = 0; ret == 0 && h >= 2 && i < (h == 2 ? 1 : h); i++)
		ret = add(w, sp_of(w, u, u), r[i], r[(i + 1) % h]);
	return ret;
}

/* Does switch pair sp cross component c for sure? */
static bool crosses(const struct cxd_cover_work *w, int sp, int c)
{
	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++)
		if (w->x[e].comp == c)
			return w->x[e].sure;
	return false;
}

/* Up to w->k pairs of used switches u and v across link line l, each
 * with NICs of their own where the switches have them. */
static int across(struct cxd_cover_work *w, int l, int u, int v)
{
	int s = w->used[u], t = w->used[v], sp = sp_of(w, u, v);
	int hs = w->rank_at[s + 1] - w->rank_at[s];
	int ht = w->rank_at[t + 1] - w->rank_at[t];
	int most = hs > ht ? hs : ht, ret = 0;

	if (!crosses(w, sp, w->n + l))
		return 0;
	for (int i = 0; ret == 0 && i < w->k && i < most; i++)
		ret = add(w, sp, w->rank_of[w->rank_at[s] + i % hs],
			  w->rank_of[w->rank_at[t] + i % ht]);
	return ret;
}

/* Each used switch's index among the used (-1: none), into at. */
static void used_index(const struct cxd_cover_work *w, int *at)
{
	for (int s = 0; s < w->ns; s++)
		at[s] = -1;
	for (int u = 0; u < w->nused; u++)
		at[w->used[u]] = u;
}

/* The link lines inside a group between two switches with ranks. */
static int inside(struct cxd_cover_work *w)
{
	const struct cxd_topo_map *tm = w->tm;
	int *at = malloc(((size_t) w->ns + 1) * sizeof(int)), ret = 0;

	if (at == NULL)
		return -ENOMEM;
	used_index(w, at);
	for (int l = 0; ret == 0 && l < tm->nlink; l++) {
		int a = tm->link[l].a, b = tm->link[l].b;

		if (a < 0 || b < 0 || a >= w->ns || b >= w->ns ||
		    at[a] < 0 || at[b] < 0 || a == b ||
		    !tm->switch_group || tm->switch_group[a] < 0 ||
		    tm->switch_group[a] != tm->switch_group[b])
			continue;
		ret = across(w, l, at[a], at[b]);
	}
	free(at);
	return ret;
}

int cxd_cover_anchor(struct cxd_cover_work *w)
{
	int ret = 0;

	for (int u = 0; ret == 0 && u < w->nused; u++)
		ret = ring(w, u);
	return ret ? ret : inside(w);
}
