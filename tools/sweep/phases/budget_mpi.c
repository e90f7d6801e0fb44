/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep --budget: the plan, its time foreseen, its rounds measured
 * (budget_mpi.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "sweep/model/route.h"
#include "sweep/sched/plan_cover.h"
#include "sweep/sched/plan_ring.h"
#include "sweep/sched/sched_keys.h"
#include "sweep/sched/sched_listed.h"
#include "budget_mpi.h"

bool sw_budget_on(const struct sw_ctx *c)
{
	return c->cfg.sweep.budget_s > 0;
}

int sw_budget_check(const struct sw_ctx *c, char *err, size_t len)
{
	const struct cxd_sweep_opts *o = &c->cfg.sweep;
	const char *other = o->cg_flags & CXD_CG_ON ? "--congestion" :
			    o->cg_flags & CXD_CG_AGGR_ONLY ?
			    "--aggressors-only" :
			    c->cfg.local.given & CXD_GIVEN_HEALTH ? "--health" :
			    NULL;

	if (!sw_budget_on(c) || other == NULL)
		return 0;
	snprintf(err, len, "--budget and %s do not go together: --budget "
		 "judges the fabric's links from a covering plan's pairs, "
		 "%s is a mode of its own", other, other);
	return -EINVAL;
}

/* Rank 0: the covering plan from the routes; else why not (b->res.why)
 * and nonzero. */
static int build_cover(struct sw_budget *b, const struct sw_ctx *c)
{
	const struct cxd_topo_map *tm = &c->place;
	const struct cxd_cover_opts o = { .k = CXD_COVER_K };
	struct cxd_routes rt = { 0 };
	int ret;

	if (tm->switch_of == NULL) {
		b->res.why = "no --topology";
		return -EINVAL;
	}
	if (tm->nlink <= 0 || tm->link == NULL) {
		b->res.why = "--topology has no link lines";
		return -EINVAL;
	}
	ret = cxd_routes_build(tm, c->m.n, &rt);
	if (ret == 0)
		ret = cxd_cover_plan_build(tm, c->m.n, &rt, &o, &b->plan);
	cxd_routes_free(&rt);
	if (ret == -ENOMEM)
		sw_die(&c->m, "out of memory");
	if (ret)
		b->res.why = "the topology's routes could not be followed";
	return ret;
}

/* Round r's pairs as a listed plan, cut to the pairs at a time pao. */
static void round_plan(const struct sw_ctx *c, const struct cxd_cover_plan *p,
		       int r, int pao, struct cxd_plan *lp)
{
	int cnt = p->round_at[r + 1] - p->round_at[r];
	int nch = (cnt + pao - 1) / pao;
	struct cxd_sched_list *ls;

	if (cxd_sched_alloc(lp, nch, (size_t) cnt) != 0)
		sw_die(&c->m, "out of memory");
	ls = cxd_sched_listed(lp);
	for (int i = 0; i < cnt; i++) {
		const struct cxd_cover_pair *x = &p->pair[p->round_at[r] + i];

		ls->pairs[i] = (struct cxd_pair){ x->a, x->b };
		ls->count[i / pao]++;
	}
	for (int k = 1; k < nch; k++)
		ls->first[k] = ls->first[k - 1] + ls->count[k - 1];
}

/* Round r paced alone, its pairs pao at a time (m's), taking turns by
 * m->key_dom (the ring's); secs: rank 0 gets the round's time. The
 * pacing's barrier ends it: the next round's pairs would load the links
 * this one's still cross. */
static void pace_round(const struct sw_ctx *c, const struct cxd_cover_plan *p,
		       int r, const struct sw_pace_mode *m,
		       struct sw_meter *mt, double *secs)
{
	struct cxd_plan lp;
	double *s;

	round_plan(c, p, r, m->pairs_at_once, &lp);
	s = sw_alloc(&c->m, (size_t) lp.nrounds + 1, sizeof(double));
	sw_pace(c, m, &lp, sw_measure_pair, mt, s);
	*secs = 0;
	for (int k = 0; k < lp.nrounds; k++)
		*secs += s[k];
	free(s);
	cxd_sched_free(&lp);
}

static int by_key(const void *a, const void *b)
{
	long long x = *(const long long *) a, y = *(const long long *) b;

	return (x > y) - (x < y);
}

/* The most pairs of round r between the same two domains (dom: each
 * rank's), which take their turns one after another; key: scratch. */
static int most_across(const struct cxd_cover_plan *p, int r,
		       const int *dom, long long *key)
{
	int k = 0, most = 0, run = 0;

	for (int i = p->round_at[r]; i < p->round_at[r + 1]; i++) {
		long long a = dom[p->pair[i].a], b = dom[p->pair[i].b];

		if (a != b)
			key[k++] = a < b ? a << 32 | b : b << 32 | a;
	}
	qsort(key, (size_t) k, sizeof(long long), by_key);
	for (int i = 0; i < k; i++) {
		run = i > 0 && key[i] == key[i - 1] ? run + 1 : 1;
		most = run > most ? run : most;
	}
	return most;
}

/* The pacing's turns: each round's pairs, pao at a time, or more where
 * pairs between two domains take turns (dom: each rank's; NULL none). */
static int slots_of(const struct cxd_cover_plan *p, int pao, const int *dom)
{
	long long *key = malloc(((size_t) p->npair + 1) * sizeof(long long));
	int s = 0;

	for (int r = 0; r < p->nround; r++) {
		int t = (p->round_at[r + 1] - p->round_at[r] + pao - 1) / pao;
		int x = dom && key ? most_across(p, r, dom, key) : 0;

		s += x > t ? x : t;
	}
	free(key);
	return s;
}

/* Whose pairs take turns in the ring's rounds, whose routes are unknown:
 * with --topology's places, pairs between the same two switches, one at
 * a time (they share that switch pair's links; the ring's shifts keep
 * most pairs inside groups, where groups as domains crowded the links
 * and the retest had 250 of 512 pairs to clear at 64 ranks, not 46);
 * groups where the switch pairs are too many to track
 * (CXD_SCHED_KEYS_MAX); NULL: none. */
static const int *ring_domains(const struct sw_ctx *c)
{
	const struct cxd_topo_map *tm = &c->place;
	long ns = tm->nswitch, ng = tm->ngroup;

	if (tm->switch_of && ns * ns <= CXD_SCHED_KEYS_MAX)
		return tm->switch_of;
	if (tm->switch_of && ng > 0 && ng * ng <= CXD_SCHED_KEYS_MAX)
		return tm->group_of;
	return NULL;
}

/* Rank 0, without routes: the most ring shifts (1 at least) whose
 * time since the start fits the budget. */
static void grow_ring(struct sw_budget *b, const struct sw_ctx *c,
		      int pao, double spent)
{
	int most = cxd_cover_ring_max_shifts(c->m.n);

	most = most < SW_BUDGET_RING_MAX ? most : SW_BUDGET_RING_MAX;
	for (int s = 1; s <= most; s++) {
		struct cxd_cover_plan q;
		double est;

		if (cxd_cover_ring_build(c->m.n, s, &q) != 0)
			sw_die(&c->m, "out of memory");
		est = spent + slots_of(&q, pao, ring_domains(c)) *
			      b->res.pair_s;
		if (s > 1 && est > b->res.budget_s) {
			cxd_cover_plan_free(&q);
			break;
		}
		cxd_cover_plan_free(&b->plan);
		b->plan = q;
		b->res.shifts = s;
		b->res.estimate_s = est;
	}
}

/* Rank 0: the plan before the timing pair (the ring's first shift
 * without routes). */
static void first_plan(struct sw_budget *b, const struct sw_ctx *c)
{
	b->res = (struct cxd_budget_res){ .budget_s = c->cfg.sweep.budget_s };
	if (build_cover(b, c) == 0)
		return;
	b->res.ring = true;
	if (cxd_cover_ring_build(c->m.n, 1, &b->plan) != 0)
		sw_die(&c->m, "out of memory");
	b->res.shifts = 1;
}

/* One pair of the plan measured alone (both metrics, every repeat):
 * rank 0 gets its time in seconds; its figures are forgotten. */
static double probe(const struct sw_ctx *c, struct sw_meter *mt,
		    const int ab[2])
{
	const struct sw_pace_mode m = sw_pace_mode_at(SW_RUN_BOTH, 1);
	struct cxd_sched_list *ls;
	struct cxd_plan pl;
	double s = NAN;

	if (cxd_sched_alloc(&pl, 1, 1) != 0)
		sw_die(&c->m, "out of memory");
	ls = cxd_sched_listed(&pl);
	ls->count[0] = 1;
	ls->pairs[0] = (struct cxd_pair){ ab[0], ab[1] };
	sw_pace(c, &m, &pl, sw_measure_pair, mt, &s);
	cxd_sched_free(&pl);
	sw_measured_reset(mt->fig);
	return s;
}

/* The budget to ask for: the time foreseen and a tenth for the retest
 * of what the plan flags, rounded up to two digits. */
static double needed(double est)
{
	double x = est * 1.1, unit;

	if (!(x > 0))
		return 1;
	unit = pow(10, floor(log10(x)) - 1);
	return ceil(x / unit) * unit;
}

/* Rank 0: the plan's time foreseen from the run's start (what is spent
 * already, then the plan's slots of one pair's time each); over the
 * budget, the refusal with the budget it needs. */
static int foresee(struct sw_budget *b, const struct sw_ctx *c,
		   const struct sw_pacing *p, uint64_t t0)
{
	double spent = (double) (cxd_now_ns() - t0) / 1e9;
	struct cxd_budget_res *x = &b->res;
	const int *dom = x->ring ? ring_domains(c) : NULL;

	if (x->ring)
		grow_ring(b, c, p->pairs_at_once, spent);
	x->slots = slots_of(&b->plan, p->pairs_at_once, dom);
	x->estimate_s = spent + x->slots * x->pair_s;
	if (x->estimate_s <= x->budget_s)
		return CXD_EXIT_OK;
	fprintf(stderr, "cxi_sweep: --budget %g s is too short: the %s's "
		"%d pairs in %d rounds (%d at a time: %d turns of one pair, "
		"%.3g s each, timed) need about %.3g s with the %.3g s "
		"spent already; give --budget %g or more\n", x->budget_s,
		x->ring ? "ring plan" : "covering plan", b->plan.npair,
		b->plan.nround, p->pairs_at_once, x->slots, x->pair_s,
		x->estimate_s, spent, needed(x->estimate_s));
	return CXD_EXIT_USAGE;
}

/* Rank 0's plan's pairs and rounds on every rank (only its pairs and
 * rounds: the components stay rank 0's), and this rank's partners. */
static void share(struct sw_budget *b, const struct sw_ctx *c)
{
	struct cxd_cover_plan *p = &b->plan;
	int head[3] = { p->npair, p->nround, b->res.ring };

	sw_bcast(&c->m, head, 3, MPI_INT, "the budget's plan");
	b->ring = head[2];
	if (c->m.rank != 0) {
		p->npair = head[0];
		p->nround = head[1];
		p->pair = sw_alloc(&c->m, (size_t) p->npair + 1,
				   sizeof(*p->pair));
		p->round_at = sw_alloc(&c->m, (size_t) p->nround + 1,
				       sizeof(int));
	}
	/* a pair is two ints */
	sw_bcast(&c->m, p->pair, 2 * p->npair, MPI_INT, "the budget's plan");
	sw_bcast(&c->m, p->round_at, p->nround + 1, MPI_INT,
		 "the budget's plan");
	b->partner = sw_alloc(&c->m, (size_t) c->m.n, 1);
	for (int i = 0; i < p->npair; i++) {
		if (p->pair[i].a == c->m.rank)
			b->partner[p->pair[i].b] = 1;
		if (p->pair[i].b == c->m.rank)
			b->partner[p->pair[i].a] = 1;
	}
	b->round_s = sw_alloc(&c->m, (size_t) p->nround + 1, sizeof(double));
}

/* Rank 0: the rounds as a listed plan, for the report's rounds. */
static void listed(struct sw_budget *b, const struct sw_ctx *c)
{
	const struct cxd_cover_plan *p = &b->plan;
	struct cxd_sched_list *ls;

	if (cxd_sched_alloc(&b->listed, p->nround, (size_t) p->npair) != 0)
		sw_die(&c->m, "out of memory");
	ls = cxd_sched_listed(&b->listed);
	for (int r = 0; r < p->nround; r++) {
		ls->first[r] = p->round_at[r];
		ls->count[r] = p->round_at[r + 1] - p->round_at[r];
	}
	for (int i = 0; i < p->npair; i++)
		ls->pairs[i] = (struct cxd_pair){ p->pair[i].a, p->pair[i].b };
}

int sw_budget_plan(struct sw_budget *b, const struct sw_ctx *c,
		   const struct sw_pacing *p, struct sw_meter *mt,
		   uint64_t t0)
{
	int ab[2] = { 0, 1 }, status = CXD_EXIT_OK;
	double s;

	if (c->m.rank == 0) {
		first_plan(b, c);
		ab[0] = b->plan.pair[0].a;
		ab[1] = b->plan.pair[0].b;
	}
	sw_bcast(&c->m, ab, 2, MPI_INT, "the budget's timing pair");
	s = probe(c, mt, ab);
	if (c->m.rank == 0) {
		b->res.pair_s = s;
		status = foresee(b, c, p, t0);
	}
	sw_bcast(&c->m, &status, 1, MPI_INT, "the budget's estimate");
	if (status != CXD_EXIT_OK)
		return status;
	share(b, c);
	if (c->m.rank == 0)
		listed(b, c);
	return CXD_EXIT_OK;
}

void sw_budget_measure(struct sw_budget *b, const struct sw_ctx *c,
		       const struct sw_pacing *p, struct sw_meter *mt)
{
	struct sw_pace_mode m = sw_pace_mode_main(p, SW_RUN_BOTH);

	if (b->ring)
		m.key_dom = ring_domains(c);
	/* each round is a plan of its own to the pacing (pace_round) */
	cxd_rprog_expect(c->m.line, (unsigned) b->plan.nround);
	for (int r = 0; r < b->plan.nround; r++)
		pace_round(c, &b->plan, r, &m, mt, &b->round_s[r]);
}

void sw_budget_free(struct sw_budget *b)
{
	cxd_cover_plan_free(&b->plan);
	cxd_sched_free(&b->listed);
	free(b->partner);
	free(b->round_s);
	free(b->sus);
}
