/* SPDX-License-Identifier: BSD-3-Clause */
/* The suspects of a covering plan named from its classes
 * (judge_budget.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge_budget_state.h"

/* Class of pair i's sure crossing e. */
static int cls_at(const struct nm *s, size_t e)
{
	return s->p->comp[s->p->sure[e]].cls;
}

/* Pair i's speed (NAN: none known). */
static double speed(const struct nm *s, int i)
{
	return s->sp && s->sp->of_pair ? s->sp->of_pair[i] : NAN;
}

/* Per class the speed of the fastest measured pair crossing it. */
static void fastest(struct nm *s)
{
	const struct cxd_cover_plan *p = s->p;

	for (int c = 0; c < p->ncls; c++)
		s->fast[c] = NAN;
	for (int i = 0; i < p->npair; i++) {
		double v = speed(s, i);

		if (!isfinite(v) || (s->out[i] != CXD_BO_GOOD &&
				     s->out[i] != CXD_BO_BAD))
			continue;
		for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++) {
			int c = cls_at(s, e);

			if (c >= 0 && !(s->fast[c] >= v))
				s->fast[c] = v;
		}
	}
}

/* Good pair i ran as fast as class c's fastest pairs (or no speed is
 * known): had c lost part of its rate, i would have shown it. */
static bool fast_enough(const struct nm *s, int i, int c)
{
	double v = speed(s, i);

	return !isfinite(v) || !isfinite(s->fast[c]) ||
	       v >= s->sp->bound * s->fast[c];
}

/* The classes a good pair crosses for sure (and clears). */
static void clear(struct nm *s)
{
	const struct cxd_cover_plan *p = s->p;

	fastest(s);
	for (int i = 0; i < p->npair; i++) {
		if (s->out[i] != CXD_BO_GOOD)
			continue;
		for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++)
			if (cls_at(s, e) >= 0 &&
			    fast_enough(s, i, cls_at(s, e)))
				s->cleared[cls_at(s, e)] = 1;
	}
}

/* Bad pair i left counted for the classes it may cross (a member is
 * one of its ways) and does not cross for sure (stamped already). */
static void maybe_gains(struct nm *s, int i)
{
	const struct cxd_cover_plan *p = s->p;

	for (size_t e = p->maybe_at[i]; e < p->maybe_at[i + 1]; e++) {
		int c = p->comp[p->maybe[e]].cls;

		if (c < 0 || s->stamp[c] == i)
			continue;
		s->stamp[c] = i;
		s->mgain[c]++;
	}
}

/* Per class the bad pairs left that cross it for sure (a pair counted
 * once per class, though it may cross several of its members), and
 * those that only may; per way, those that may cross it. */
static void gains(struct nm *s)
{
	const struct cxd_cover_plan *p = s->p;

	memset(s->gain, 0, (size_t) p->ncls * sizeof(int));
	memset(s->mgain, 0, (size_t) p->ncls * sizeof(int));
	for (int c = 0; c < p->ncls; c++)
		s->stamp[c] = -1;
	for (int i = 0; i < p->npair; i++) {
		if (s->left[i] != L_LEFT)
			continue;
		for (size_t e = p->sure_at[i]; e < p->sure_at[i + 1]; e++) {
			int c = cls_at(s, e);

			if (c < 0 || s->stamp[c] == i)
				continue;
			s->stamp[c] = i;
			s->gain[c]++;
		}
		maybe_gains(s, i);
	}
	cxd_budget_ways_gains(s);
}

/* The bad pairs left class c explains, for sure or maybe. */
static int score(const struct nm *s, int c)
{
	return s->gain[c] + s->mgain[c];
}

/* Pairs crossing class c for sure (any member's count: they share). */
static int sig_size(const struct cxd_cover_plan *p, int c)
{
	return p->comp[p->member[p->cls_at[c]]].sure;
}

/* Does pair i cross class c for sure? */
static bool crosses(const struct nm *s, int i, int c)
{
	for (size_t e = s->p->sure_at[i]; e < s->p->sure_at[i + 1]; e++)
		if (cls_at(s, e) == c)
			return true;
	return false;
}

/* Does class c explain more than class b (b < 0: none)? The most bad
 * pairs left, sure or maybe, then the most for sure, then the fewest
 * pairs crossing it. */
static bool better(const struct nm *s, int c, int b)
{
	if (b < 0 || score(s, c) != score(s, b))
		return b < 0 || score(s, c) > score(s, b);
	if (s->gain[c] != s->gain[b])
		return s->gain[c] > s->gain[b];
	return sig_size(s->p, c) < sig_size(s->p, b);
}

/* The best class to name; -1 when none explains a bad pair left for
 * sure. */
static int best(const struct nm *s)
{
	int b = -1;

	for (int c = 0; c < s->p->ncls; c++)
		if (!s->cleared[c] && !s->named[c] && s->gain[c] > 0 &&
		    better(s, c, b))
			b = c;
	return b;
}

/* Class c explains the very same bad pairs left as class b, and is as
 * specific: the outcome cannot tell them apart. */
static bool same_as(const struct nm *s, int b, int c)
{
	if (c == b || s->cleared[c] || s->named[c] ||
	    s->gain[c] != s->gain[b] || s->mgain[c] != s->mgain[b] ||
	    sig_size(s->p, c) != sig_size(s->p, b))
		return false;
	for (int i = 0; i < s->p->npair; i++)
		if (s->left[i] == L_LEFT && crosses(s, i, b) != crosses(s, i, c))
			return false;
	return true;
}

/* Add component x to suspect o: the first is o itself, the rest alike. */
static void add_comp(const struct nm *s, const struct cxd_topo_map *tm,
		     int x, struct cxd_suspect *o)
{
	struct cxd_alike a;

	cxd_judge_budget_ids(s->p, tm, x, &a);
	if (o->links == 0) {
		o->kind = a.kind;
		o->id = a.id;
		o->id2 = a.id2;
		o->links = s->p->comp[x].sure;
	} else if (o->nalike < CXD_SUSPECT_ALIKE) {
		o->alike[o->nalike++] = a;
	} else {
		o->more_alike++;
	}
}

/* A switch suspect's pairs between two of its own ranks (in) and the
 * bad ones (bad_in): the text's "inside it". */
static void inside(const struct nm *s, struct cxd_suspect *o)
{
	const int *sof = s->tm ? s->tm->switch_of : NULL;

	for (int i = 0; sof && o->kind == CXD_S_SWITCH && i < s->p->npair;
	     i++) {
		if (sof[s->p->pair[i].a] != o->id ||
		    sof[s->p->pair[i].b] != o->id)
			continue;
		o->in++;
		o->bad_in += s->out[i] == CXD_BO_BAD;
	}
}

/* The bad pairs crossing class b for sure, explained or not. */
static int bad_of(const struct nm *s, int b)
{
	int k = 0;

	for (int i = 0; i < s->p->npair; i++)
		k += s->out[i] == CXD_BO_BAD && crosses(s, i, b);
	return k;
}

/* Class b named (with those the outcome cannot tell from it): one
 * suspect, its members in component order; the bad pairs it explains
 * for sure are done, those it may explain weigh no more. */
static void name_class(struct nm *s, const struct cxd_topo_map *tm, int b,
		       struct cxd_suspect *o)
{
	const struct cxd_cover_plan *p = s->p;

	*o = (struct cxd_suspect){ .metric = s->m, .bad = bad_of(s, b),
				   .routed = true };
	for (int c = 0; c < p->ncls; c++) {
		if (c != b && !same_as(s, b, c))
			continue;
		for (int k = p->cls_at[c]; k < p->cls_at[c + 1]; k++)
			add_comp(s, tm, p->member[k], o);
		s->named[c] = 2; /* this round's: their pairs go below */
	}
	for (int i = 0; i < p->npair; i++)
		for (int c = 0; s->left[i] && c < p->ncls; c++)
			if (s->named[c] == 2 && crosses(s, i, c))
				s->left[i] = L_DONE;
	for (int c = 0; c < p->ncls; c++)
		s->named[c] = s->named[c] ? 1 : 0;
	for (int i = 0; i < p->npair; i++)
		if (s->left[i] == L_LEFT && cxd_budget_maybe_named(s, i))
			s->left[i] = L_MAYBE;
	inside(s, o);
}

static int run(struct nm *s, const struct cxd_topo_map *tm,
	       struct cxd_suspect *out, size_t cap,
	       struct cxd_budget_named *st)
{
	const struct cxd_cover_plan *p = s->p;
	size_t k = 0;

	for (int i = 0; i < p->npair; i++) {
		s->left[i] = s->out[i] == CXD_BO_BAD ? L_LEFT : L_DONE;
		st->nbad += s->left[i] == L_LEFT;
	}
	clear(s);
	cxd_budget_ways_init(s);
	for (gains(s); k < cap; gains(s)) {
		int b = best(s), w;

		w = cxd_budget_ways_best(s, b < 0 ? 0 : score(s, b),
					 b < 0 ? 0 : s->gain[b]);
		if (w >= 0)
			cxd_budget_ways_name(s, w, &out[k++]);
		else if (b >= 0)
			name_class(s, tm, b, &out[k++]);
		else if ((b = cxd_budget_ways_beside(s, crosses)) >= 0)
			name_class(s, tm, b, &out[k++]);
		else
			break;
	}
	for (int i = 0; i < p->npair; i++) {
		st->nmaybe += s->left[i] == L_MAYBE;
		st->nunexplained += s->left[i] == L_LEFT;
	}
	st->nsure = st->nbad - st->nmaybe - st->nunexplained;
	return (int) k;
}

int cxd_judge_budget_name(const struct cxd_cover_plan *p,
			  const struct cxd_topo_map *tm,
			  const unsigned char *outcome, enum cxd_metric m,
			  const struct cxd_budget_speed *sp,
			  struct cxd_suspect *out, size_t cap,
			  struct cxd_budget_named *st)
{
	size_t nc = (size_t) p->ncls + 1, nx = (size_t) p->ncomp + 1;
	size_t np = (size_t) p->npair + 1;
	struct nm s = { .p = p, .tm = tm, .out = outcome, .m = m, .sp = sp,
			.fast = malloc(nc * sizeof(double)),
			.left = malloc(np), .mark = malloc(np),
			.cleared = calloc(nc, 1), .named = calloc(nc, 1),
			.gain = malloc(nc * sizeof(int)),
			.mgain = malloc(nc * sizeof(int)),
			.stamp = malloc(nc * sizeof(int)),
			.ogain = malloc(nx * sizeof(int)),
			.ostamp = malloc(nx * sizeof(int)),
			.ofree = malloc(nx * sizeof(int)),
			.onamed = calloc(nx, 1),
			.obad = calloc(nx, sizeof(int)),
			.omay = calloc(nx, sizeof(int)) };
	void *all[] = { s.fast, s.left, s.mark, s.cleared, s.named, s.gain,
			s.mgain, s.stamp, s.ogain, s.ostamp, s.ofree, s.onamed,
			s.obad, s.omay };
	int ret = 0;

	*st = (struct cxd_budget_named){ 0 };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		ret = all[i] ? ret : -ENOMEM;
	if (ret == 0)
		ret = run(&s, tm, out, cap, st);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
	return ret;
}
