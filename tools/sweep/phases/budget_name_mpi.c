/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --budget: the classes named from every rank's confirmed
 * outliers, and the result's budget section (budget_mpi.h). */
#include <math.h>
#include <stdlib.h>

#include <mpi.h>

#include "budget_mpi.h"
#include "sweep/model/lclass.h"

/* An outlier as rank 0 gathers it: its pair, metric, not judged. */
enum { OUT_A, OUT_B, OUT_M, OUT_BUSY, OUT_INTS };

/* Every rank's outliers, confirmed then not judged (j->o's order), to
 * rank 0: OUT_INTS ints each; *tot their ints there. */
static int *gather_out(const struct sw_ctx *c, const struct sw_judging *j,
		       int *tot)
{
	size_t no = j->nout + j->nbusy;
	int k = OUT_INTS * (int) no, *cnt = NULL, *disp = NULL, *all = NULL;
	int *mine = sw_alloc(&c->m, (size_t) k + 1, sizeof(int));
	MPI_Request q;

	for (size_t i = 0; i < no; i++) {
		const struct cxd_outlier *x = &j->o[i];
		int *e = mine + OUT_INTS * i;

		e[OUT_A] = x->src < x->dst ? x->src : x->dst;
		e[OUT_B] = x->src < x->dst ? x->dst : x->src;
		e[OUT_M] = (int) x->metric;
		e[OUT_BUSY] = i >= j->nout;
	}
	if (c->m.rank == 0) {
		cnt = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		disp = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
	}
	sw_gather(&c->m, &k, 1, MPI_INT, cnt, "the budget's outliers");
	*tot = 0;
	for (int i = 0; c->m.rank == 0 && i < c->m.n; i++) {
		disp[i] = *tot;
		*tot += cnt[i];
	}
	if (c->m.rank == 0)
		all = sw_alloc(&c->m, (size_t) *tot + 1, sizeof(int));
	MPI_Igatherv(mine, k, MPI_INT, all, cnt, disp, MPI_INT, 0,
		     MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "the budget's outliers");
	free(mine);
	free(cnt);
	free(disp);
	return all;
}

/* The plan's pair of ranks a < b; -1: not the plan's. */
static int pair_index(const struct cxd_cover_plan *p, int a, int b)
{
	for (int i = 0; i < p->npair; i++)
		if (p->pair[i].a == a && p->pair[i].b == b)
			return i;
	return -1;
}

/* Rank 0: each plan pair's outcome per metric (out[m][i]): good unless
 * an outlier was confirmed (bad) or only not judged. */
static void outcomes(const struct cxd_cover_plan *p, const int *all,
		     int tot, unsigned char *out[2])
{
	for (int m = 0; m < 2; m++)
		for (int i = 0; i < p->npair; i++)
			out[m][i] = CXD_BO_GOOD;
	for (int e = 0; e + OUT_INTS <= tot; e += OUT_INTS) {
		int i = pair_index(p, all[e + OUT_A], all[e + OUT_B]);
		unsigned char *o;

		if (i < 0 || all[e + OUT_M] < 0 || all[e + OUT_M] > 1)
			continue;
		o = &out[all[e + OUT_M]][i];
		if (!all[e + OUT_BUSY])
			*o = CXD_BO_BAD;
		else if (*o == CXD_BO_GOOD)
			*o = CXD_BO_UNJUDGED;
	}
}

/* Rank 0: each plan pair's bandwidth speed (its class's typical link,
 * the run's where the class has none) and the tolerance's bound, for
 * judge_budget.h's clearing; NULL where no bandwidth was judged. */
static double *speeds(const struct sw_ctx *c, const struct sw_judging *j,
		      const struct cxd_cover_plan *p,
		      struct cxd_budget_speed *sp)
{
	const struct cxd_rules *r = &j->rules;
	double *v;

	if (!isfinite(r->typical[CXD_M_BW]) || !(r->tol[CXD_M_BW].tol > 0))
		return NULL;
	v = sw_alloc(&c->m, (size_t) p->npair + 1, sizeof(double));
	for (int i = 0; i < p->npair; i++) {
		enum cxd_lclass k = cxd_lclass_of(c->place.switch_of,
						  c->place.group_of,
						  p->pair[i].a, p->pair[i].b);

		v[i] = r->bw_by_class && isfinite(r->bw_typical_of[k]) ?
		       r->bw_typical_of[k] : r->typical[CXD_M_BW];
	}
	*sp = (struct cxd_budget_speed){ v, 1.0 - r->tol[CXD_M_BW].tol };
	return v;
}

void sw_budget_name(struct sw_budget *b, const struct sw_ctx *c,
		    const struct sw_judging *j)
{
	struct cxd_budget_speed sp;
	double *v;
	const struct cxd_cover_plan *p = &b->plan;
	const struct cxd_topo_map *tm = b->res.ring ? NULL : &c->place;
	int tot = 0, *all = gather_out(c, j, &tot);
	unsigned char *out[2];
	size_t cap = 2 * ((size_t) p->ncls + 1);

	if (c->m.rank != 0)
		return;
	out[0] = sw_alloc(&c->m, 2 * ((size_t) p->npair + 1), 1);
	out[1] = out[0] + p->npair + 1;
	outcomes(p, all, tot, out);
	v = speeds(c, j, p, &sp);
	b->sus = sw_alloc(&c->m, cap, sizeof(*b->sus));
	for (int m = 0; m < 2; m++) {
		int k = cxd_judge_budget_name(p, tm, out[m],
					      (enum cxd_metric) m,
					      m == CXD_M_BW && v ? &sp : NULL,
					      b->sus + b->nsus, cap - b->nsus,
					      &b->res.named[m]);

		if (k < 0)
			sw_die(&c->m, "out of memory");
		b->nsus += (size_t) k;
	}
	free(out[0]);
	free(v);
	free(all);
}

void sw_budget_report(const struct sw_budget *b, uint64_t t0,
		      struct cxd_budget_res *out)
{
	*out = b->res;
	out->plan = &b->plan;
	out->taken_s = (double) (cxd_now_ns() - t0) / 1e9;
}

struct cxd_sweep_suspects sw_budget_suspects(const struct sw_budget *b)
{
	return (struct cxd_sweep_suspects){ b->sus, b->nsus };
}
