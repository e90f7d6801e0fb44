/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ways of a covering plan named (judge_budget_state.h): components
 * no chosen pair crosses for sure, only maybe (a fat tree's spines and
 * uplinks, one link of a bundle of several: the fabric's hash picks the
 * way). A slow spine makes bad the pairs its hash sends over it, and
 * each such pair's sure crossings are only NICs and leaves; without the
 * ways, each of those NICs would be named. A way that may carry more of
 * the bad pairs left than any class explains is named instead, with
 * every way that may carry the very same pairs (no outcome of the plan
 * tells them apart: the hash is unknown).
 */
#include <limits.h>
#include <math.h>

#include "judge_budget_state.h"

/* If a way were bad, each pair that may cross it would be bad with its
 * share: at least this part of the bad pairs it is expected to carry
 * (the plan's expected crossings) must be, and two, or its bad pairs are
 * some other component's seen through a way they merely may take. */
#define WAY_SHARE 0.5
#define WAY_MIN_BAD 2
#define WAY_LUCK 0.01

static bool is_way(const struct nm *s, int x)
{
	return s->p->comp[x].cls < 0 && !s->onamed[x];
}

/* Plausible as the cause: enough bad pairs for its share, and two of
 * them left that no class still standing explains better (s->ofree). */
static bool plausible(const struct nm *s, int x)
{
	return s->obad[x] >= WAY_MIN_BAD &&
	       s->obad[x] >= WAY_SHARE * s->p->comp[x].maybe &&
	       s->ofree[x] >= WAY_MIN_BAD;
}

/* The most bad pairs left that a class still standing (not cleared,
 * not named) explains, of those bad pair i crosses for sure. */
static int standing(const struct nm *s, int i)
{
	const struct cxd_cover_plan *p = s->p;
	int most = 0;

	for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++) {
		int c = p->comp[p->sure[e]].cls;

		if (c >= 0 && !s->cleared[c] && !s->named[c] &&
		    s->gain[c] > most)
			most = s->gain[c];
	}
	return most;
}

/* The chance that way x, bad, makes one pair that may cross it bad:
 * one of its two directions takes x, twice the pairs' mean share. */
static double way_chance(const struct nm *s, int x)
{
	return s->omay[x] > 0 ? 2.0 * s->p->comp[x].maybe / s->omay[x] : 1.0;
}

/* A class whose every pair is bad, g of them, explains them better
 * than way x when x, bad, would have made all g bad by a chance under
 * WAY_LUCK: each pair that may cross x is bad with the chance one of
 * its two directions takes x (twice its share). Two slow leaves are not
 * one spine of six that happened to carry every pair of theirs; with
 * two spines, four bad pairs of one leaf pair are (a chance in three).
 * The fewest g that does. */
static int luck_bound(const struct nm *s, int x)
{
	double q = way_chance(s, x);

	if (q >= 1.0 - 1e-9)
		return INT_MAX;
	return (int) ceil(log(WAY_LUCK) / log(q) - 1e-9);
}

/* Per way: the pairs that may cross it (each once), into omay, obad
 * (the bad ones) and ogain (the bad ones left) as asked. */
static void count_ways(struct nm *s, bool totals)
{
	const struct cxd_cover_plan *p = s->p;

	for (int x = 0; x < p->ncomp; x++) {
		s->ogain[x] = s->ofree[x] = 0;
		s->ostamp[x] = -1;
	}
	for (int i = 0; i < p->npair; i++) {
		int st = totals || s->left[i] != L_LEFT ? 0 : standing(s, i);

		for (size_t e = p->maybe_at[i]; e < p->maybe_at[i + 1]; e++) {
			int x = p->maybe[e];

			if (p->comp[x].cls >= 0 || s->ostamp[x] == i)
				continue;
			s->ostamp[x] = i;
			if (totals) {
				s->omay[x]++;
				s->obad[x] += s->out[i] == CXD_BO_BAD;
			}
			s->ogain[x] += s->left[i] == L_LEFT;
			s->ofree[x] += s->left[i] == L_LEFT &&
				       (st < 2 || st < luck_bound(s, x));
		}
	}
}

void cxd_budget_ways_init(struct nm *s)
{
	count_ways(s, true);
}

void cxd_budget_ways_gains(struct nm *s)
{
	count_ways(s, false);
}

/* The bad pairs left. */
static int left(const struct nm *s)
{
	int k = 0;

	for (int i = 0; i < s->p->npair; i++)
		k += s->left[i] == L_LEFT;
	return k;
}

int cxd_budget_ways_best(const struct nm *s, int best_score, int best_sure)
{
	int b = -1;

	for (int x = 0; x < s->p->ncomp; x++) {
		if (!is_way(s, x) || s->ogain[x] == 0 || !plausible(s, x))
			continue;
		if (b < 0 || s->ogain[x] > s->ogain[b] ||
		    (s->ogain[x] == s->ogain[b] && s->omay[x] < s->omay[b]))
			b = x;
	}
	/* Where the way cannot explain every bad pair left alone, the
	 * class first if it explains for sure at least half of what the
	 * way only may carry: a leaf whose every pair out ran slow, beside
	 * a slow NIC's pairs on its own switch, is not one spine's luck
	 * (each of the leaf's pairs hashed onto it). */
	if (b < 0 || s->ogain[b] < best_score ||
	    (s->ogain[b] == best_score && best_sure > 0) ||
	    (s->ogain[b] < left(s) && 2 * best_sure >= s->ogain[b]))
		return -1;
	return b;
}

/* Log of the chance that bad pair i, explained only maybe, is a named
 * way's doing: the most likely of the named ways on its ways (0, a
 * chance of 1, where none is: a named class's member may carry it). */
static double log_chance(const struct nm *s, int i)
{
	const struct cxd_cover_plan *p = s->p;
	double q = 0;

	for (size_t e = p->maybe_at[i]; e < p->maybe_at[i + 1]; e++) {
		int x = p->maybe[e];
		double c;

		if (!s->onamed[x])
			continue;
		c = way_chance(s, x);
		q = c > q ? c : q;
	}
	return q > 0 && q < 1 ? log(q) : 0.0;
}

int cxd_budget_ways_beside(const struct nm *s,
			   bool (*crosses)(const struct nm *, int, int))
{
	int b = -1, bn = 0;

	for (int c = 0; c < s->p->ncls; c++) {
		double luck = 0;
		int k = 0;

		if (s->cleared[c] || s->named[c])
			continue;
		for (int i = 0; i < s->p->npair; i++)
			if (s->left[i] == L_MAYBE && crosses(s, i, c)) {
				k++;
				luck += log_chance(s, i);
			}
		if (k >= WAY_MIN_BAD && luck <= log(WAY_LUCK) && k > bn) {
			b = c;
			bn = k;
		}
	}
	return b;
}

/* Bad pair i left, and one of its ways is way x? */
static bool left_may(const struct nm *s, int i, int x)
{
	if (s->left[i] != L_LEFT)
		return false;
	for (size_t e = s->p->maybe_at[i]; e < s->p->maybe_at[i + 1]; e++)
		if (s->p->maybe[e] == x)
			return true;
	return false;
}

/* The ways that may carry exactly the bad pairs left that way x may,
 * however many good pairs they may carry besides (a leaf's uplinks and
 * the spines, when every bad pair has an end on that leaf): onamed 2
 * (this round's). ostamp counts, per way, the marked pairs. */
static void alike_ways(struct nm *s, int x)
{
	const struct cxd_cover_plan *p = s->p;

	for (int i = 0; i < p->npair; i++)
		s->mark[i] = left_may(s, i, x);
	for (int y = 0; y < p->ncomp; y++)
		s->ostamp[y] = 0;
	for (int i = 0; i < p->npair; i++)
		for (size_t e = p->maybe_at[i];
		     s->mark[i] && e < p->maybe_at[i + 1]; e++)
			s->ostamp[p->maybe[e]]++;
	for (int y = 0; y < p->ncomp; y++)
		if (y == x || (is_way(s, y) && plausible(s, y) &&
			       s->ogain[y] == s->ogain[x] &&
			       s->ostamp[y] == s->ogain[x]))
			s->onamed[y] = 2;
}

void cxd_budget_ways_name(struct nm *s, int x, struct cxd_suspect *o)
{
	const struct cxd_cover_plan *p = s->p;
	struct cxd_alike a;

	alike_ways(s, x);
	cxd_judge_budget_ids(p, s->tm, x, &a);
	*o = (struct cxd_suspect){ .kind = a.kind, .id = a.id, .id2 = a.id2,
				   .metric = s->m, .bad = s->obad[x],
				   .links = s->omay[x], .routed = true,
				   .maybe = true };
	for (int y = 0; y < p->ncomp; y++) {
		if (y == x || s->onamed[y] != 2)
			continue;
		cxd_judge_budget_ids(p, s->tm, y, &a);
		if (o->nalike < CXD_SUSPECT_ALIKE)
			o->alike[o->nalike++] = a;
		else
			o->more_alike++;
	}
	for (int y = 0; y < p->ncomp; y++)
		s->onamed[y] = s->onamed[y] ? 1 : 0;
	for (int i = 0; i < p->npair; i++)
		if (s->left[i] == L_LEFT && cxd_budget_maybe_named(s, i))
			s->left[i] = L_MAYBE;
}

bool cxd_budget_maybe_named(const struct nm *s, int i)
{
	const struct cxd_cover_plan *p = s->p;

	for (size_t e = p->maybe_at[i]; e < p->maybe_at[i + 1]; e++) {
		int x = p->maybe[e], c = p->comp[x].cls;

		if (c >= 0 ? s->named[c] != 0 : s->onamed[x] != 0)
			return true;
	}
	return false;
}
