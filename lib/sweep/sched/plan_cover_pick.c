/* SPDX-License-Identifier: BSD-3-Clause */
/* The best next pair of a covering plan (plan_cover_pick.h). */
#include <stdbool.h>

#include "plan_cover_pick.h"

/* Gains closer than this are equal: the first in order wins. */
#define EPS 1e-9

/* The ranks of a switch pair: ra on its first switch, rb on its
 * second; same: one switch, its pairs a < b. */
struct spr {
	const int *ra, *rb;
	int na, nb, same;
};

static struct spr sp_ranks(const struct cxd_cover_work *w, int sp)
{
	int si = w->used[sp / w->nused], sj = w->used[sp % w->nused];
	const int *at = w->rank_at;

	return (struct spr){ w->rank_of + at[si], w->rank_of + at[sj],
			     at[si + 1] - at[si], at[sj + 1] - at[sj],
			     si == sj };
}

/* The next rank pair of s after (*ia, *ib); start at (0, -1). */
static bool next_pair(const struct spr *s, int *ia, int *ib)
{
	if (*ib < 0 && s->same)
		*ib = 0;
	if (++*ib >= s->nb) {
		++*ia;
		*ib = s->same ? *ia + 1 : 0;
	}
	return *ia < s->na && *ib < s->nb;
}

size_t cxd_cover_bit(const struct cxd_cover_work *w, int a, int b)
{
	return a < b ? (size_t) a * (size_t) w->n + (size_t) b
		     : (size_t) b * (size_t) w->n + (size_t) a;
}

bool cxd_cover_taken(const struct cxd_cover_work *w, int a, int b)
{
	size_t i = cxd_cover_bit(w, a, b);

	return w->taken[i / 64] >> (i % 64) & 1;
}

bool cxd_cover_has_key(const struct cxd_cover_work *w, int c, int sp)
{
	for (int i = 0; i < w->nkey[c]; i++)
		if (w->key[(size_t) c * (size_t) w->k + (size_t) i] == sp)
			return true;
	return false;
}

/* Does component c still want a sure crossing from switch pair sp?
 * While it has fewer than k (or all there are), only from a switch pair
 * none of its chosen pairs came from: their sure crossings differ in
 * more than NICs, so what they share narrows to c. */
static int need(const struct cxd_cover_work *w, int c, int sp)
{
	if (w->nkey[c] < w->kmax[c])
		return !cxd_cover_has_key(w, c, sp);
	return w->comp[c].sure < w->target[c];
}

/* What switch pair sp gives the components other than its NICs. */
static double cover_gain(const struct cxd_cover_work *w, int sp)
{
	double g = 0;

	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
		const struct cxd_cover_comp *c = &w->comp[w->x[e].comp];
		double left = w->k - c->maybe;

		if (w->x[e].sure)
			g += need(w, w->x[e].comp, sp);
		else if (c->reach == CXD_COVER_MAYBE && left > EPS)
			g += w->x[e].p < left ? w->x[e].p : left;
	}
	return g;
}

/* The most one NIC on each switch adds: to covering, 1 if one wants a
 * crossing; to telling apart, its class's size - 1 (a class of m split
 * one member further gains m - 2h - 1 at h hits). Switch pairs whose
 * bound cannot beat the best are passed over without weighing their
 * rank pairs one by one. */
static void nic_bounds(struct cxd_cover_work *w, bool tell)
{
	for (int i = 0; i < w->nused; i++) {
		int s = w->used[i];

		w->nicb[s] = 0;
		for (int j = w->rank_at[s]; j < w->rank_at[s + 1]; j++) {
			int c = w->rank_of[j];
			double v = tell ? w->csize[w->cls[c]] - 1
					: (w->nkey[c] < w->kmax[c] ||
					   w->comp[c].sure < w->target[c]);

			if (v > w->nicb[s])
				w->nicb[s] = v;
		}
	}
}

double cxd_cover_sp_best(struct cxd_cover_work *w, int sp, int *a, int *b)
{
	struct spr s;
	int ia = 0, ib = -1;
	double best = 0;

	*a = *b = -1;
	if (cxd_cover_sp_pairs(w, sp) == 0)
		return 0;
	if (w->dirty[sp]) {
		w->gain[sp] = cover_gain(w, sp);
		w->dirty[sp] = 0;
	}
	s = sp_ranks(w, sp);
	while (next_pair(&s, &ia, &ib)) {
		int x = s.ra[ia], y = s.rb[ib];
		double g;

		if (cxd_cover_taken(w, x, y))
			continue;
		g = w->gain[sp] + need(w, x, sp) + need(w, y, sp);
		if (g > best + EPS) {
			best = g;
			*a = x;
			*b = y;
		}
	}
	return best;
}

static double sp_bound(const struct cxd_cover_work *w, int sp)
{
	return w->nicb[w->used[sp / w->nused]] +
	       w->nicb[w->used[sp % w->nused]];
}

void cxd_cover_pick_cover(struct cxd_cover_work *w,
			  struct cxd_cover_best *bt)
{
	nic_bounds(w, false);
	for (int sp = 0; sp < w->nused * w->nused; sp++) {
		int a, b;
		double g;

		if (cxd_cover_sp_pairs(w, sp) == 0)
			continue;
		if (w->dirty[sp]) {
			w->gain[sp] = cover_gain(w, sp);
			w->dirty[sp] = 0;
		}
		if (w->gain[sp] + sp_bound(w, sp) <= bt->g + EPS)
			continue;
		g = cxd_cover_sp_best(w, sp, &a, &b);
		if (g > bt->g + EPS)
			*bt = (struct cxd_cover_best){ g, sp, a, b };
	}
}

static double split(long h, long m)
{
	return (double) h * (double) (m - h);
}

/* Component pairs of one class that switch pair sp's sure crossings
 * (NICs aside) split; leaves w->hits counted, w->touched[0 .. *nt). */
static double sp_split(struct cxd_cover_work *w, int sp, int *nt)
{
	double g = 0;

	*nt = 0;
	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++)
		if (w->x[e].sure && w->hits[w->cls[w->x[e].comp]]++ == 0)
			w->touched[(*nt)++] = w->cls[w->x[e].comp];
	for (int i = 0; i < *nt; i++)
		g += split(w->hits[w->touched[i]], w->csize[w->touched[i]]);
	return g;
}

/* What NICs a and b add to sp_split's count. */
static double nic_split(const struct cxd_cover_work *w, int a, int b)
{
	int ca = w->cls[a], cb = w->cls[b];
	long ha = w->hits[ca], ma = w->csize[ca];
	long hb = w->hits[cb], mb = w->csize[cb];

	if (ca == cb)
		return split(ha + 2, ma) - split(ha, ma);
	return split(ha + 1, ma) - split(ha, ma) + split(hb + 1, mb) -
	       split(hb, mb);
}

/* Switch pair sp's rank pairs weighed, sp_split's gf counted. */
static void split_ranks(const struct cxd_cover_work *w, int sp, double gf,
			struct cxd_cover_best *bt)
{
	struct spr s = sp_ranks(w, sp);
	int ia = 0, ib = -1;

	if (gf + sp_bound(w, sp) <= bt->g + EPS)
		return;
	while (next_pair(&s, &ia, &ib)) {
		int a = s.ra[ia], b = s.rb[ib];
		double g;

		if (cxd_cover_taken(w, a, b))
			continue;
		g = gf + nic_split(w, a, b);
		if (g > bt->g + EPS)
			*bt = (struct cxd_cover_best){ g, sp, a, b };
	}
}

double cxd_cover_sp_split_best(struct cxd_cover_work *w, int sp, int *a,
			       int *b)
{
	struct cxd_cover_best bt = { 0, -1, -1, -1 };
	int nt;

	if (cxd_cover_sp_pairs(w, sp) > 0) {
		split_ranks(w, sp, sp_split(w, sp, &nt), &bt);
		for (int i = 0; i < nt; i++)
			w->hits[w->touched[i]] = 0;
	}
	*a = bt.a;
	*b = bt.b;
	return bt.g;
}

void cxd_cover_nic_bounds(struct cxd_cover_work *w, bool tell)
{
	nic_bounds(w, tell);
}

void cxd_cover_pick_split(struct cxd_cover_work *w,
			  struct cxd_cover_best *bt)
{
	nic_bounds(w, true);
	for (int sp = 0; sp < w->nused * w->nused; sp++) {
		int nt;
		double gf;

		if (cxd_cover_sp_pairs(w, sp) == 0)
			continue;
		gf = sp_split(w, sp, &nt);
		split_ranks(w, sp, gf, bt);
		for (int i = 0; i < nt; i++)
			w->hits[w->touched[i]] = 0;
	}
}
