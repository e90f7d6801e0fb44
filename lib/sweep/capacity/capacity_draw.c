/* SPDX-License-Identifier: BSD-3-Clause */
/* A capacity unit's draws of ways and their max-min fair shares
 * (capacity_model.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "capacity_model.h"

/* Links one unit's flows may cross: its pairs' ways are short (a
 * dragonfly's 3 hops, a fat tree's 2 to 4). */
#define MM_HOPS 16
#define MM_LINKS (CXD_CAP_LOAD * MM_HOPS)

struct mm {
	int nf, nl;
	int fl[CXD_CAP_LOAD][MM_HOPS]; /* each flow's links, local ids */
	int flen[CXD_CAP_LOAD];
	int link[MM_LINKS];            /* local id -> the map's link */
	int lane[MM_LINKS];            /* which of its physical links */
	double cap[MM_LINKS];
	int kind[MM_LINKS];
};

enum cxd_cap_lkind cxd_cap_link_kind(const struct cxd_topo_map *tm, int l)
{
	const int *sg = tm->switch_group;
	int ga = sg ? sg[tm->link[l].a] : -1, gb = sg ? sg[tm->link[l].b] : -1;

	return ga < 0 || gb < 0 ? CXD_CAP_L_UPLINK :
	       ga == gb ? CXD_CAP_L_LOCAL : CXD_CAP_L_GLOBAL;
}

/* Which hash the fabric uses nobody says, so the model must not count
 * on a link between groups that ends where no destination sits. */
bool cxd_cap_way_usable(const struct cxd_way *w, const struct cxd_topo_map *tm,
			const struct cxd_routes *rt, const bool *has)
{
	for (int h = 0; h < w->len; h++) {
		int l = rt->hop[w->first + (size_t) h];

		if (cxd_cap_link_kind(tm, l) == CXD_CAP_L_GLOBAL &&
		    (!has[tm->link[l].a] || !has[tm->link[l].b]))
			return false;
	}
	return true;
}

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Draw d's way of a pair (key: its ranks or its switches), by share
 * among the usable ways (all when none is). */
static const struct cxd_way *pick(const struct cxd_cap_model *m,
				  const struct cxd_way *w, size_t nw,
				  uint64_t key, int d)
{
	double all = 0, at, u;
	bool any = false;

	for (size_t k = 0; k < nw && !any; k++)
		any = cxd_cap_way_usable(&w[k], m->tm, &m->rt, m->has);
	for (size_t k = 0; k < nw; k++)
		all += !any || cxd_cap_way_usable(&w[k], m->tm, &m->rt, m->has) ?
		       w[k].share : 0;
	u = (double) (mix(key ^ mix((uint64_t) d)) >> 11) * 0x1p-53 * all;
	at = 0;
	for (size_t k = 0; k < nw; k++) {
		if (any && !cxd_cap_way_usable(&w[k], m->tm, &m->rt, m->has))
			continue;
		at += w[k].share;
		if (u < at)
			return &w[k];
	}
	return &w[nw - 1];
}

/* Physical link j of link line l. A flow takes one physical link of a
 * line by the fabric's hash (by destination, by flow), which nobody
 * says either: the draw picks it, so that flows may meet on one. */
static int local_link(struct mm *s, const struct cxd_cap_model *m, int l,
		      int j, const double *rate)
{
	for (int k = 0; k < s->nl; k++)
		if (s->link[k] == l && s->lane[k] == j)
			return k;
	if (s->nl == MM_LINKS)
		return -1;
	s->link[s->nl] = l;
	s->lane[s->nl] = j;
	s->kind[s->nl] = cxd_cap_link_kind(m->tm, l);
	s->cap[s->nl] = rate[s->kind[s->nl]];
	return s->nl++;
}

/* Draw d's physical link of line l for a flow of key. */
static int lane_of(const struct cxd_cap_model *m, int l, uint64_t key, int d)
{
	int c = m->tm->link[l].count;

	return c > 1 ? (int) (mix(key ^ mix((uint64_t) d << 32 | (uint32_t) l)) %
			      (uint64_t) c) : 0;
}

/* Flow i of the unit's repeat rep in draw d into s; -E2BIG: a way too
 * long for the model. */
static int add_flow(struct mm *s, const struct cxd_cap_model *m,
		    const struct cxd_cap_unit *x, int rep, int i, int d,
		    const double *rate)
{
	struct cxd_pair p = cxd_cap_pair(x, rep, i);
	int a = m->tm->switch_of[p.a], b = m->tm->switch_of[p.b], f = s->nf++;
	const struct cxd_way *w;
	uint64_t key;
	size_t nw;

	s->flen[f] = 0;
	if (a == b || a < 0 || b < 0)
		return 0;
	w = cxd_routes_ways(&m->rt, a, b, &nw);
	if (nw == 0)
		return 0;
	key = m->by_pair ? (uint64_t) p.a << 32 | (uint32_t) p.b :
	      (uint64_t) (a < b ? a : b) << 32 | (uint32_t) (a < b ? b : a);
	w = pick(m, w, nw, key, d);
	if (w->len > MM_HOPS)
		return -E2BIG;
	for (int h = 0; h < w->len; h++) {
		int l = m->rt.hop[w->first + (size_t) h];
		int k = local_link(s, m, l, lane_of(m, l, key, d), rate);

		if (k < 0)
			return -E2BIG;
		s->fl[f][s->flen[f]++] = k;
	}
	return 0;
}

/* Progressive filling: every unfrozen flow grows alike until a link it
 * crosses is full or it reaches a pair's rate. by[k]: the rate of the
 * flows a link of kind k froze; by[CXD_CAP_L_KINDS]: of those their
 * own rate did. The total. */
static double fill(const struct mm *s, double pair, double *by)
{
	double r[CXD_CAP_LOAD] = { 0 }, left[MM_LINKS], tot = 0;
	int frozen[CXD_CAP_LOAD] = { 0 }, live = s->nf;

	for (int k = 0; k < s->nl; k++)
		left[k] = s->cap[k];
	while (live > 0) {
		int on[MM_LINKS] = { 0 };
		double step = INFINITY;

		for (int f = 0; f < s->nf; f++)
			for (int h = 0; !frozen[f] && h < s->flen[f]; h++)
				on[s->fl[f][h]]++;
		for (int f = 0; f < s->nf; f++)
			if (!frozen[f])
				step = fmin(step, pair - r[f]);
		for (int k = 0; k < s->nl; k++)
			if (on[k])
				step = fmin(step, left[k] / on[k]);
		for (int k = 0; k < s->nl; k++)
			left[k] -= step * on[k];
		for (int f = 0; f < s->nf; f++) {
			int why = -1;

			if (frozen[f])
				continue;
			r[f] += step;
			for (int h = 0; h < s->flen[f] && why < 0; h++)
				if (left[s->fl[f][h]] <= 1e-9 * s->cap[s->fl[f][h]])
					why = s->kind[s->fl[f][h]];
			if (why < 0 && r[f] < pair * (1 - 1e-9))
				continue;
			frozen[f] = 1;
			live--;
			by[why < 0 ? CXD_CAP_L_KINDS : why] += r[f];
		}
	}
	for (int f = 0; f < s->nf; f++)
		tot += r[f];
	return tot;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Draw d: the better repeat's total, its binding into by. */
static int one_draw(const struct cxd_cap_model *m,
		    const struct cxd_cap_unit *x, const double *rate,
		    double pair, int d, double *tot, double *by)
{
	double best = -1, bb[CXD_CAP_L_KINDS + 1] = { 0 };

	for (int rep = 0; rep < CXD_CAP_REPS; rep++) {
		struct mm s = { 0 };
		double b[CXD_CAP_L_KINDS + 1] = { 0 }, t;

		for (int i = 0; i < x->np; i++) {
			int ret = add_flow(&s, m, x, rep, i, d, rate);

			if (ret)
				return ret;
		}
		t = fill(&s, pair, b);
		if (t > best) {
			best = t;
			for (int k = 0; k <= CXD_CAP_L_KINDS; k++)
				bb[k] = b[k];
		}
	}
	*tot = best;
	for (int k = 0; k <= CXD_CAP_L_KINDS; k++)
		by[k] += bb[k];
	return 0;
}

int cxd_cap_model_draws(const struct cxd_cap_model *m,
			const struct cxd_cap_unit *x, const double *rate,
			double pair_mb_s, double *tot, int *kind)
{
	double by[CXD_CAP_L_KINDS + 1] = { 0 };
	int most = CXD_CAP_L_KINDS;

	for (int d = 0; d < CXD_CAP_DRAWS; d++) {
		int ret = one_draw(m, x, rate, pair_mb_s, d, &tot[d], by);

		if (ret)
			return ret;
	}
	qsort(tot, CXD_CAP_DRAWS, sizeof(double), cmp_double);
	for (int k = 0; k < CXD_CAP_L_KINDS; k++)
		if (by[k] > by[most])
			most = k;
	*kind = most == CXD_CAP_L_KINDS ? -1 : most;
	return 0;
}
