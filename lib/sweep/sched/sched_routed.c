/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routed main pass (sched_routed.h). Half a million pairs at 1,024
 * ranks: they are made class by class (a switch pair's), in the order
 * their links need rounds, so the packing (pack_rounds.c) sees the
 * pairs that bound the pass first; inside a class the pairs go by
 * diagonals (x meets y = x + d), so that consecutive ones share no rank
 * and one round can take several of them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pack_rounds.h"
#include "routed_load.h"
#include "sched.h"
#include "sched_listed.h"
#include "sched_routed.h"

/* Rounds between two orderings of the classes by what their links
 * still need: at 1,024 ranks (16,384 classes, thousands of rounds) a
 * sort every 16 rounds costs a fraction of the packing; ordered by
 * the busiest link alone, a sort every round gave 8,214 rounds against
 * 7,648 every 16 (and 8,224 never), at 3 times the time. */
#define EVERY 16

/* The switches ranks sit on, and their ranks: 0, -EDOM (a rank not
 * placed), -ENOMEM. */
static int place(struct cxd_routed_work *w)
{
	int ns = w->rt->ns, *uidx = malloc(((size_t) ns + 1) * sizeof(int));

	w->used = malloc(((size_t) ns + 1) * sizeof(int));
	w->rank_at = calloc((size_t) ns + 2, sizeof(int));
	w->rank_of = malloc(((size_t) w->n + 1) * sizeof(int));
	if (!uidx || !w->used || !w->rank_at || !w->rank_of) {
		free(uidx);
		return -ENOMEM;
	}
	for (int s = 0; s < ns; s++)
		uidx[s] = -1;
	for (int r = 0; r < w->n; r++) {
		int s = w->tm->switch_of[r];

		if (s < 0 || s >= ns) {
			free(uidx);
			return -EDOM;
		}
		uidx[s] = 0;
	}
	for (int s = 0; s < ns; s++)
		if (uidx[s] == 0)
			w->used[uidx[s] = w->nu++] = s;
	for (int r = 0; r < w->n; r++)
		w->rank_at[uidx[w->tm->switch_of[r]] + 1]++;
	for (int i = 0; i < w->nu; i++)
		w->rank_at[i + 1] += w->rank_at[i];
	for (int r = 0, *fill = w->rank_at; r < w->n; r++)
		w->rank_of[fill[uidx[w->tm->switch_of[r]]]++] = r;
	for (int i = w->nu; i > 0; i--) /* fill moved each start on */
		w->rank_at[i] = w->rank_at[i - 1];
	w->rank_at[0] = 0;
	free(uidx);
	return 0;
}

static void work_free(struct cxd_routed_work *w)
{
	free(w->used);
	free(w->rank_at);
	free(w->rank_of);
	free(w->x_at);
	free(w->x_link);
	free(w->x_load);
	free(w->cap);
	free(w->share);
	free(w->crit);
}

/* The classes, most rounds needed first (then in index order). */
struct by {
	double crit;
	int c;
};

static int by_crit(const void *x, const void *y)
{
	const struct by *a = x, *b = y;

	if (a->crit != b->crit)
		return a->crit > b->crit ? -1 : 1;
	return (a->c > b->c) - (a->c < b->c);
}

/* Class c's pairs, by diagonals (between two switches) or by the
 * circle's rounds (on one), from pair[*k] on. */
static void class_pairs(const struct cxd_routed_work *w, int c,
			struct cxd_pair *pair, int *cls, int *k)
{
	int i = c / w->nu, j = c % w->nu;
	const int *ra = w->rank_of + w->rank_at[i];
	const int *rb = w->rank_of + w->rank_at[j];
	int ha = w->rank_at[i + 1] - w->rank_at[i];
	int hb = w->rank_at[j + 1] - w->rank_at[j];

	for (int d = 0; i < j && d < hb; d++)
		for (int x = 0; x < ha; x++) {
			int a = ra[x], b = rb[(x + d) % hb];

			cls[*k] = c;
			pair[(*k)++] = (struct cxd_pair){ a < b ? a : b,
							  a < b ? b : a };
		}
	for (int r = 0; i == j && r < cxd_pairs_nrounds(ha); r++)
		for (int t = 0; t < ha / 2; t++) {
			struct cxd_pair p;

			if (cxd_pairs_at(ha, r, t, &p) != 0)
				continue;
			cls[*k] = c;
			pair[(*k)++] = (struct cxd_pair){
				ra[p.a] < ra[p.b] ? ra[p.a] : ra[p.b],
				ra[p.a] < ra[p.b] ? ra[p.b] : ra[p.a] };
		}
}

/* Every pair, class by class in order of need: 0 or -ENOMEM. */
static int all_pairs(const struct cxd_routed_work *w, struct cxd_pair *pair,
		     int *cls)
{
	int ncls = w->nu * w->nu, k = 0;
	struct by *o = malloc(((size_t) ncls + 1) * sizeof(*o));

	if (!o)
		return -ENOMEM;
	for (int c = 0; c < ncls; c++)
		o[c] = (struct by){ w->crit[c], c };
	qsort(o, (size_t) ncls, sizeof(*o), by_crit);
	for (int c = 0; c < ncls; c++)
		class_pairs(w, o[c].c, pair, cls, &k);
	free(o);
	return 0;
}

/* The model's fewest rounds: the ranks' (each meets n - 1 others, one
 * a round) or the busiest link line's (its pairs by the shares over
 * what it carries at once), whichever is more; and the same with every
 * way counted full (the fewest this rule allows). */
static void bound(const struct cxd_routed_work *w, struct cxd_routed_facts *f)
{
	f->bound = cxd_pairs_nrounds(w->n);
	f->busiest = -1;
	f->load = f->cap = 0;
	f->full = f->bound;
	for (int c = 0; c < w->nu * w->nu; c++)
		if (ceil(w->crit[c] - 1e-9) > f->full)
			f->full = (int) ceil(w->crit[c] - 1e-9);
	for (int l = 0; l < w->tm->nlink; l++) {
		/* a line always carries one pair (only slower) */
		double at = w->cap[l] > 1 ? w->cap[l] : 1;
		double need = ceil(w->share[l] / at - 1e-9);

		if (need > f->bound) {
			f->bound = (int) need;
			f->busiest = l;
			f->load = w->share[l];
			f->cap = at;
		}
	}
}

/* The packed rounds as a listed plan: 0 or -ENOMEM. */
static int listed(struct cxd_plan *pl, const struct cxd_pair *pair,
		  const int *ord, const int *round_at, int nround, int npair)
{
	struct cxd_sched_list *ls;

	if (cxd_sched_alloc(pl, nround, (size_t) npair) != 0)
		return -ENOMEM;
	ls = cxd_sched_listed(pl);
	for (int r = 0; r < nround; r++) {
		ls->first[r] = round_at[r];
		ls->count[r] = round_at[r + 1] - round_at[r];
	}
	for (int j = 0; j < npair; j++)
		ls->pairs[j] = pair[ord[j]];
	return 0;
}

/* Every pair made and packed into rounds, those made a plan. */
static int pack(const struct cxd_routed_work *w, int most,
		struct cxd_plan *pl, int *nround)
{
	size_t np = (size_t) w->n * (size_t) (w->n - 1) / 2;
	struct cxd_pair *pair = malloc((np + 1) * sizeof(*pair));
	int *cls = malloc((np + 1) * sizeof(int));
	int *q = malloc((np + 1) * sizeof(int));
	int *ord = malloc((np + 1) * sizeof(int));
	int *round_at = malloc((np + 2) * sizeof(int));
	int ret = pair && cls && q && ord && round_at ? all_pairs(w, pair, cls)
		  : -ENOMEM;
	const struct cxd_pack pk = {
		.n = w->n, .npair = (int) np, .pair = pair, .cls = cls,
		.x_at = w->x_at, .x_link = w->x_link, .x_load = w->x_load,
		.ncls = w->nu * w->nu, .nlink = w->tm->nlink, .cap = w->cap,
		.most = most, .every = EVERY };

	for (size_t i = 0; ret == 0 && i < np; i++)
		q[i] = (int) i;
	if (ret == 0)
		ret = cxd_pack_rounds(&pk, q, ord, round_at, nround);
	if (ret == 0)
		ret = listed(pl, pair, ord, round_at, *nround, (int) np);
	free(pair);
	free(cls);
	free(q);
	free(ord);
	free(round_at);
	return ret;
}

int cxd_sched_routed(const struct cxd_topo_map *tm,
		     const struct cxd_routes *rt, int n, const int *width,
		     int most, struct cxd_plan *pl, struct cxd_routed_facts *f)
{
	struct cxd_routed_work w = { .tm = tm, .rt = rt, .n = n };
	int ret = n < 2 || (size_t) n * (size_t) (n - 1) / 2 > 0x3fffffff ?
		  -EDOM : place(&w);

	*pl = (struct cxd_plan){ .ops = NULL };
	*f = (struct cxd_routed_facts){ .busiest = -1 };
	if (ret == 0)
		ret = cxd_routed_caps(&w, width);
	if (ret == 0)
		ret = cxd_routed_loads(&w);
	if (ret == 0)
		ret = pack(&w, most, pl, &f->rounds);
	if (ret == 0)
		bound(&w, f);
	work_free(&w);
	return ret;
}
