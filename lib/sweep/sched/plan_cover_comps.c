/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan's components and what a switch pair crosses
 * (plan_cover_comps.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "plan_cover_comps.h"

/* Scratch while a switch pair's ways are walked: at[c] is c's entry
 * in this pair's list (-1: none yet), seen[c] the last way that
 * counted it (a way counts a component once), cnt the ways per entry. */
struct walk {
	int *at, *seen, *cnt;
	int stamp;
	size_t start;
};

static int ranks_by_switch(struct cxd_cover_work *w)
{
	const int *sof = w->tm->switch_of;
	int *fill = calloc((size_t) w->ns + 1, sizeof(int));

	w->rank_at = calloc((size_t) w->ns + 1, sizeof(int));
	w->rank_of = malloc(((size_t) w->n + 1) * sizeof(int));
	w->used = malloc(((size_t) w->ns + 1) * sizeof(int));
	if (!fill || !w->rank_at || !w->rank_of || !w->used) {
		free(fill);
		return -ENOMEM;
	}
	for (int r = 0; r < w->n; r++) {
		if (sof[r] < 0 || sof[r] >= w->ns) {
			free(fill);
			return -EINVAL;
		}
		w->rank_at[sof[r] + 1]++;
	}
	for (int s = 0; s < w->ns; s++) {
		if (w->rank_at[s + 1] > 0)
			w->used[w->nused++] = s;
		w->rank_at[s + 1] += w->rank_at[s];
	}
	for (int r = 0; r < w->n; r++)
		w->rank_of[w->rank_at[sof[r]] + fill[sof[r]]++] = r;
	free(fill);
	return 0;
}

static int group_of(const struct cxd_cover_work *w, int s)
{
	return w->tm->switch_group ? w->tm->switch_group[s] : -1;
}

/* The bundle between groups ga and gb in bcomp; NULL: none (one
 * group, or a switch without). */
static int *bundle_at(const struct cxd_cover_work *w, int ga, int gb)
{
	if (ga < 0 || gb < 0 || ga == gb)
		return NULL;
	if (ga > gb)
		return bundle_at(w, gb, ga);
	return &w->bcomp[ga * w->ng + gb];
}

/* The bundle component link line l belongs to; -1: none. */
static int bundle_of(const struct cxd_cover_work *w, int l)
{
	int *bun = bundle_at(w, group_of(w, w->tm->link[l].a),
			     group_of(w, w->tm->link[l].b));

	return bun ? *bun : -1;
}

static void comp_add(struct cxd_cover_work *w, int kind, int id, int id2)
{
	w->comp[w->ncomp++] = (struct cxd_cover_comp){ .kind = kind,
		.id = id, .id2 = id2, .cls = -1 };
}

/* Which bundles and switches exist: marked 0 in bcomp and swcomp. */
static int comps_mark(struct cxd_cover_work *w)
{
	const struct cxd_topo_map *tm = w->tm;

	for (int s = 0; s < w->ns; s++)
		if (group_of(w, s) >= w->ng)
			w->ng = group_of(w, s) + 1;
	w->bcomp = malloc(((size_t) w->ng * (size_t) w->ng + 1) * sizeof(int));
	w->swcomp = malloc(((size_t) w->ns + 1) * sizeof(int));
	if (!w->bcomp || !w->swcomp)
		return -ENOMEM;
	memset(w->bcomp, 0xff, ((size_t) w->ng * (size_t) w->ng + 1) *
	       sizeof(int));
	for (int s = 0; s < w->ns; s++)
		w->swcomp[s] = w->rank_at[s + 1] > w->rank_at[s] ? 0 : -1;
	for (int l = 0; l < tm->nlink; l++) {
		int a = tm->link[l].a, b = tm->link[l].b;
		int *bun;

		if (a < 0 || b < 0 || a >= w->ns || b >= w->ns)
			return -EINVAL;
		w->swcomp[a] = w->swcomp[b] = 0;
		bun = bundle_at(w, group_of(w, a), group_of(w, b));
		if (bun)
			*bun = 0;
	}
	return 0;
}

static int comps_list(struct cxd_cover_work *w)
{
	int nb = 0, nsw = 0, ret = comps_mark(w);

	if (ret)
		return ret;
	for (int g = 0; g < w->ng * w->ng; g++)
		nb += w->bcomp[g] == 0;
	for (int s = 0; s < w->ns; s++)
		nsw += w->swcomp[s] == 0;
	w->comp = calloc((size_t) w->n + (size_t) w->tm->nlink + (size_t) nb +
			 (size_t) nsw + 1, sizeof(*w->comp));
	if (!w->comp)
		return -ENOMEM;
	for (int r = 0; r < w->n; r++)
		comp_add(w, CXD_COVER_NIC, r, -1);
	for (int l = 0; l < w->tm->nlink; l++)
		comp_add(w, CXD_COVER_LINK, l, -1);
	for (int g = 0; g < w->ng * w->ng; g++)
		if (w->bcomp[g] == 0) {
			w->bcomp[g] = w->ncomp;
			comp_add(w, CXD_COVER_BUNDLE, g / w->ng, g % w->ng);
		}
	for (int s = 0; s < w->ns; s++)
		if (w->swcomp[s] == 0) {
			w->swcomp[s] = w->ncomp;
			comp_add(w, CXD_COVER_SWITCH, s, -1);
		}
	return 0;
}

/* Component c crossed by the way being walked, with its share. */
static int touch(struct cxd_cover_work *w, struct walk *k, int c,
		 double share)
{
	if (c < 0 || k->seen[c] == k->stamp)
		return 0;
	k->seen[c] = k->stamp;
	if (k->at[c] < 0) {
		if (cxd_grow((void **) &w->x, &w->xcap, w->nx + 1,
			     sizeof(*w->x)))
			return -ENOMEM;
		k->at[c] = (int) (w->nx - k->start);
		k->cnt[k->at[c]] = 0;
		w->x[w->nx++] = (struct cxd_cover_x){ c, 0, 0.0 };
	}
	k->cnt[k->at[c]]++;
	w->x[k->start + (size_t) k->at[c]].p += share;
	return 0;
}

/* One way from sa to sb: its links, their bundles, the switches it
 * passes (the ends of its links but sa and sb, which every way has). */
static int walk_way(struct cxd_cover_work *w, struct walk *k,
		    const struct cxd_way *wy, int sa, int sb)
{
	int ret = 0;

	k->stamp++;
	for (int h = 0; ret == 0 && h < wy->len; h++) {
		int l = w->rt->hop[wy->first + (size_t) h];
		int ends[2] = { w->tm->link[l].a, w->tm->link[l].b };

		ret = touch(w, k, w->n + l, wy->share);
		if (ret == 0)
			ret = touch(w, k, bundle_of(w, l), wy->share);
		for (int e = 0; ret == 0 && e < 2; e++)
			if (ends[e] != sa && ends[e] != sb)
				ret = touch(w, k, w->swcomp[ends[e]],
					    wy->share);
	}
	return ret;
}

/* Switch pair (sa, sb)'s crossings: its two switches for sure, then
 * what its ways cross, sure where every way does. Two ranks on one
 * switch cross nothing but their NICs: their traffic leaves it by none
 * of its links, where a slow switch shows (the judge clears no switch
 * by them), so they neither cover it nor make its pairs differ (a
 * leaf's pairs out, all to one other leaf, would tell it from that
 * leaf by its ring alone). */
static int sp_cross(struct cxd_cover_work *w, struct walk *k, int sa, int sb)
{
	size_t nw = 0;
	const struct cxd_way *wy = NULL;
	int ret = 0;

	if (sb == sa)
		return 0;
	if (cxd_grow((void **) &w->x, &w->xcap, w->nx + 2, sizeof(*w->x)))
		return -ENOMEM;
	w->x[w->nx++] = (struct cxd_cover_x){ w->swcomp[sa], 1, 1.0 };
	w->x[w->nx++] = (struct cxd_cover_x){ w->swcomp[sb], 1, 1.0 };
	k->start = w->nx;
	wy = cxd_routes_ways(w->rt, sa, sb, &nw);
	for (size_t i = 0; ret == 0 && i < nw; i++)
		ret = walk_way(w, k, &wy[i], sa, sb);
	for (size_t e = k->start; e < w->nx; e++) {
		struct cxd_cover_x *x = &w->x[e];

		x->sure = (size_t) k->cnt[e - k->start] == nw;
		if (x->sure)
			x->p = 1.0; /* not a sum of shares a hair short */
		k->at[x->comp] = -1;
	}
	return ret;
}

static void reach(struct cxd_cover_work *w)
{
	for (int r = 0; r < w->n; r++)
		w->comp[r].reach = w->n > 1 ? CXD_COVER_SURE : CXD_COVER_NONE;
	for (size_t e = 0; e < w->nx; e++) {
		struct cxd_cover_comp *c = &w->comp[w->x[e].comp];
		int to = w->x[e].sure ? CXD_COVER_SURE : CXD_COVER_MAYBE;

		if (c->reach < to)
			c->reach = to;
	}
}

static int crossings(struct cxd_cover_work *w)
{
	size_t nsp = (size_t) w->nused * (size_t) w->nused;
	size_t nc = (size_t) w->ncomp + 1;
	struct walk k = { .at = malloc(nc * sizeof(int)),
			  .seen = calloc(nc, sizeof(int)),
			  .cnt = malloc(nc * sizeof(int)) };
	int ret = k.at && k.seen && k.cnt ? 0 : -ENOMEM;

	w->x_at = malloc((nsp + 1) * sizeof(size_t));
	if (!w->x_at)
		ret = -ENOMEM;
	for (int c = 0; ret == 0 && c < w->ncomp; c++)
		k.at[c] = -1;
	for (size_t sp = 0; ret == 0 && sp < nsp; sp++) {
		w->x_at[sp] = w->nx;
		if (cxd_cover_sp_pairs(w, (int) sp) > 0)
			ret = sp_cross(w, &k, w->used[sp / (size_t) w->nused],
				       w->used[sp % (size_t) w->nused]);
	}
	if (ret == 0)
		w->x_at[nsp] = w->nx;
	free(k.at);
	free(k.seen);
	free(k.cnt);
	return ret;
}

int cxd_cover_comps_build(struct cxd_cover_work *w)
{
	int ret = ranks_by_switch(w);

	if (ret == 0)
		ret = comps_list(w);
	if (ret == 0)
		ret = crossings(w);
	if (ret == 0)
		reach(w);
	return ret;
}

void cxd_cover_work_free(struct cxd_cover_work *w)
{
	void *all[] = { w->rank_at, w->rank_of, w->used, w->x_at, w->x,
			w->comp, w->swcomp, w->bcomp, w->target, w->kmax,
			w->nkey, w->key, w->pair, w->pair_sp, w->taken,
			w->cls, w->csize, w->hits, w->newid, w->touched,
			w->sbuf, w->gain, w->nicb, w->dirty, w->in_at,
			w->in_sp };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
	memset(w, 0, sizeof(*w));
}
