/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan built (plan_cover.h): the components and crossings
 * (plan_cover_comps.c), the pairs (plan_cover_choose.c), the rounds
 * (plan_cover_rounds.c), what it tells apart (plan_cover_tell.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan_cover.h"
#include "plan_cover_choose.h"
#include "plan_cover_comps.h"
#include "plan_cover_rounds.h"
#include "plan_cover_tell.h"

/* Pair i of w as the plan's pair j: its ranks, sure and maybe
 * crossings. */
static void pair_out(const struct cxd_cover_work *w,
		     struct cxd_cover_plan *p, int i, int j)
{
	int sp = w->pair_sp[i];
	size_t at = p->sure_at[j], mt = p->maybe_at[j];

	p->pair[j] = w->pair[i];
	p->sure[at++] = w->pair[i].a;
	p->sure[at++] = w->pair[i].b;
	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
		if (w->x[e].sure)
			p->sure[at++] = w->x[e].comp;
		else
			p->maybe[mt++] = w->x[e].comp;
	}
	p->sure_at[j + 1] = at;
	p->maybe_at[j + 1] = mt;
}

/* Room for the pairs' crossings: all, sure or not (NICs are sure). */
static int crossings_room(const struct cxd_cover_work *w,
			  struct cxd_cover_plan *p)
{
	size_t sure = 0, maybe = 0;

	for (int i = 0; i < w->npair; i++) {
		int sp = w->pair_sp[i];

		sure += 2;
		for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
			sure += (size_t) w->x[e].sure;
			maybe += (size_t) !w->x[e].sure;
		}
	}
	p->sure = malloc((sure + 1) * sizeof(int));
	p->maybe = malloc((maybe + 1) * sizeof(int));
	return p->sure && p->maybe ? 0 : -ENOMEM;
}

/* The pairs in round order, each with its crossings. */
static int pairs_out(const struct cxd_cover_work *w,
		     struct cxd_cover_plan *p)
{
	size_t np = (size_t) w->npair + 1;
	int *ord = malloc(np * sizeof(int));
	int ret;

	p->round_at = malloc((np + 1) * sizeof(int));
	p->pair = malloc(np * sizeof(*p->pair));
	p->sure_at = malloc((np + 1) * sizeof(size_t));
	p->maybe_at = malloc((np + 1) * sizeof(size_t));
	ret = ord && p->round_at && p->pair && p->sure_at && p->maybe_at ?
	      0 : -ENOMEM;
	if (ret == 0)
		ret = cxd_cover_rounds(w, ord, p->round_at, &p->nround);
	if (ret == 0)
		ret = crossings_room(w, p);
	if (ret == 0) {
		p->npair = w->npair;
		p->sure_at[0] = p->maybe_at[0] = 0;
		for (int j = 0; j < w->npair; j++)
			pair_out(w, p, ord[j], j);
	}
	free(ord);
	return ret;
}

static void counts(struct cxd_cover_plan *p)
{
	for (int c = 0; c < p->ncomp; c++) {
		const struct cxd_cover_comp *m = &p->comp[c];

		p->nuncovered += m->sure == 0;
		p->nshort += m->sure < m->want;
		p->nthin += m->reach == CXD_COVER_SURE && m->want < p->k;
		p->nnone += m->reach == CXD_COVER_NONE;
		if (m->reach != CXD_COVER_MAYBE)
			continue;
		p->nmaybe++;
		p->nmaybe_short += m->maybe < p->k - 1e-9;
	}
}

static int plan_out(const struct cxd_cover_work *w,
		    struct cxd_cover_plan *p)
{
	int ret;

	p->k = w->k;
	p->capped = w->capped;
	p->ncomp = w->ncomp;
	p->comp = malloc(((size_t) w->ncomp + 1) * sizeof(*p->comp));
	if (!p->comp)
		return -ENOMEM;
	memcpy(p->comp, w->comp, (size_t) w->ncomp * sizeof(*p->comp));
	for (int c = 0; c < w->ncomp; c++)
		p->comp[c].want = w->target[c];
	ret = pairs_out(w, p);
	if (ret == 0)
		ret = cxd_cover_classes(w, p);
	if (ret)
		return ret;
	counts(p);
	p->identifiable_two = cxd_cover_two(p);
	return p->identifiable_two < -1 ? p->identifiable_two : 0;
}

int cxd_cover_plan_build(const struct cxd_topo_map *tm, int n,
			 const struct cxd_routes *rt,
			 const struct cxd_cover_opts *o,
			 struct cxd_cover_plan *p)
{
	struct cxd_cover_work w = { .tm = tm, .rt = rt, .n = n,
		.k = o && o->k > 0 ? o->k : CXD_COVER_K,
		.max_pairs = o ? o->max_pairs : 0,
		.exhaustive = o ? o->exhaustive : 0 };
	int ret;

	memset(p, 0, sizeof(*p));
	/* without link lines there are no routes to choose pairs from */
	if (!tm || !rt || n < 0 || tm->nlink <= 0 || !tm->link ||
	    !tm->switch_of || rt->ns <= 0 || !rt->at)
		return -EINVAL;
	w.ns = rt->ns;
	ret = cxd_cover_comps_build(&w);
	if (ret == 0)
		ret = cxd_cover_choose(&w);
	if (ret == 0)
		ret = plan_out(&w, p);
	cxd_cover_work_free(&w);
	if (ret)
		cxd_cover_plan_free(p);
	return ret;
}

void cxd_cover_plan_free(struct cxd_cover_plan *p)
{
	void *all[] = { p->pair, p->round_at, p->sure_at, p->sure,
			p->maybe_at, p->maybe, p->comp, p->cls_at, p->member };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]);
	memset(p, 0, sizeof(*p));
}

int cxd_cover_find(const struct cxd_cover_plan *p, int kind, int id,
		   int id2)
{
	if (kind == CXD_COVER_BUNDLE && id > id2) {
		int t = id;

		id = id2;
		id2 = t;
	}
	for (int c = 0; c < p->ncomp; c++)
		if (p->comp[c].kind == kind && p->comp[c].id == id &&
		    p->comp[c].id2 == id2)
			return c;
	return -1;
}
