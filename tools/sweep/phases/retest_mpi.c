/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the retest. The pairs of every rank's flagged links are
 * measured once more (all repeats) and a flag stays only where the
 * retest breaks a rule too; each link's figure is then its latest
 * measurement. Rank 0 gathers the pairs and plans; each rank receives
 * only its own steps (a whole fabric's list on every rank was 6.9 GB at
 * 1,024 simulated ranks, which share one process). With --topology the
 * retest runs alone per shared link (retest_claims.h), in rounds kept
 * apart by barriers: pairs that crowd each other again would confirm
 * false outliers.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "base/testaid.h"
#include "sweep/sched/retest.h"
#include "sweep/sched/sched_circle.h"
#include "sweep/sched/retest_steps.h"
#include "sweep/judge/stat.h"
#include "sweep/judge/stat_row.h"
#include "retest_mpi.h"

/* The pairs to retest: each rank's outliers' pairs, gathered and made
 * unique by rank 0, the only rank that holds them (*out, NULL
 * elsewhere); returns their count there, 0 elsewhere. */
static int retest_list(const struct sw_mpi *mpi, const struct sw_judging *j,
		       struct cxd_pair **out)
{
	struct cxd_pair *mine = sw_alloc(mpi, j->nout + 1, sizeof(*mine));
	int k = 2 * (int) cxd_pairs_of_outliers(j->o, j->nout, mine);
	int np = 0, *cnt = NULL, *disp = NULL, tot = 0;
	struct cxd_pair *all = NULL;
	MPI_Request q;

	if (mpi->rank == 0) {
		cnt = sw_alloc(mpi, (size_t) mpi->n, sizeof(int));
		disp = sw_alloc(mpi, (size_t) mpi->n, sizeof(int));
	}
	/* Counted in ints, two a pair. */
	sw_gather(mpi, &k, 1, MPI_INT, cnt, "the retest list");
	for (int i = 0; mpi->rank == 0 && i < mpi->n; i++) {
		disp[i] = tot;
		tot += cnt[i];
	}
	if (mpi->rank == 0)
		all = sw_alloc(mpi, (size_t) tot / 2 + 1, sizeof(*all));
	MPI_Igatherv(mine, k, MPI_INT, all, cnt, disp, MPI_INT, 0,
		     MPI_COMM_WORLD, &q);
	sw_coll_wait(mpi, &q, "the retest list");
	if (mpi->rank == 0)
		np = (int) cxd_pairs_unique(all, (size_t) tot / 2);
	*out = all;
	free(mine);
	free(cnt);
	free(disp);
	return np;
}

/* Is the retest alone per shared link? With --topology: which pairs may
 * share links is known (retest_claims.h's rule). Without it the pairs
 * are packed as ever, regardless of links, paced by the slot tokens. */
static bool alone(const struct sw_ctx *c)
{
	return c->place.switch_of != NULL;
}

/* Rank 0's plan of the np pairs (the other ranks' stays empty). */
static void retest_plan(const struct sw_ctx *c, const struct sw_pacing *p,
			const struct cxd_pair *pairs, int np,
			struct cxd_plan *pl)
{
	const struct cxd_topo_map *tm = &c->place;
	int ret = 0;

	*pl = (struct cxd_plan){ .nrounds = 0 };
	if (c->m.rank != 0)
		return;
	if (alone(c))
		ret = cxd_retest_plan_alone(c->m.n, p->pairs_at_once,
					    tm->switch_of, tm->ngroup > 0 ?
					    tm->group_of : NULL, pairs, np,
					    pl);
	else
		ret = cxd_retest_plan(c->m.n, p->pairs_at_once, pairs, np,
				      pl);
	if (ret != 0)
		sw_die(&c->m, "out of memory");
}

/* This rank's part of the retest: the plan's size (every rank) and its
 * own steps. */
struct part {
	int np, nrounds;
	struct cxd_retest_step *step;
	int nsteps;
};

/* Rank 0's every rank's steps (slot tokens only without the barriers
 * of a retest alone: the pacing's rule, cxd_sched_chain). */
static struct cxd_retest_step *all_steps(const struct sw_ctx *c,
					 const struct sw_pacing *p,
					 const struct cxd_plan *pl, int np,
					 int *cnt, int *disp)
{
	struct cxd_retest_step *all = sw_alloc(&c->m, 2 * (size_t) np + 1,
					       sizeof(*all));
	bool chain = !alone(c) && cxd_sched_chain(c->m.n, p->pairs_at_once);

	if (cxd_retest_steps(c->m.n, chain, pl, cnt, disp, all) != 0)
		sw_die(&c->m, "out of memory");
	return all;
}

/* Each rank's steps from rank 0's plan pl, to that rank alone. */
static void deal(const struct sw_ctx *c, const struct sw_pacing *p,
		 const struct cxd_plan *pl, struct part *pt)
{
	int *cnt = NULL, *disp = NULL, size[2] = { pt->np, pl->nrounds };
	struct cxd_retest_step *all = NULL;
	MPI_Datatype t;
	MPI_Request q;

	sw_bcast(&c->m, size, 2, MPI_INT, "the retest plan");
	pt->np = size[0];
	pt->nrounds = size[1];
	if (pt->np == 0)
		return;
	if (c->m.rank == 0) {
		cnt = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		disp = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		all = all_steps(c, p, pl, pt->np, cnt, disp);
	}
	MPI_Iscatter(cnt, 1, MPI_INT, &pt->nsteps, 1, MPI_INT, 0,
		     MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "the retest plan");
	pt->step = sw_alloc(&c->m, (size_t) pt->nsteps + 1, sizeof(*pt->step));
	/* A step is 4 ints: counted in steps, a whole fabric's fit an int. */
	MPI_Type_contiguous(4, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Iscatterv(all, cnt, disp, t, pt->step, pt->nsteps, t, 0,
		      MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "the retest plan");
	MPI_Type_free(&t);
	free(all);
	free(cnt);
	free(disp);
}

/*
 * The retest alone per shared link: pairs of two rounds may share a
 * link, and the pacing's tokens would let a round start while the one
 * before still runs, so each round is paced on its own (its pair's
 * partners swap a hello first: after a barrier they leave it at
 * different times, and a pair measured without one times its partner's
 * late start) and ends in the pacing's barrier.
 */
static void run_alone(const struct sw_ctx *c, const struct sw_pace_mode *m,
		      const struct part *pt, struct sw_meter *mt)
{
	int k = 0;

	for (int r = 0; r < pt->nrounds; r++) {
		struct cxd_step s = { 0, -1, -1, -1, -1, -1 };
		int ns = 0;

		if (k < pt->nsteps && pt->step[k].round == r) {
			s.partner = pt->step[k++].partner;
			ns = 1;
		}
		sw_pace_steps(c, m, &s, ns, 1, sw_measure_pair, mt, NULL);
	}
}

/* More than half of all pairs listed (every rank knows np). */
static bool most_listed(const struct sw_ctx *c, int np)
{
	return 2 * (size_t) np > (size_t) c->m.n * (size_t) (c->m.n - 1) / 2;
}

/* The retest's rounds measured for what (SW_RUN_*): alone per shared
 * link, or paced as the sweep's rounds. */
static void run(const struct sw_ctx *c, const struct sw_pacing *p,
		const struct part *pt, int what, struct sw_meter *mt)
{
	const struct sw_pace_mode m = sw_pace_mode_main(p, what);
	struct cxd_step *s;

	if (alone(c) && most_listed(c, pt->np)) {
		struct cxd_plan pl;

		/* A fabric slow all over: the whole sweep's schedule again
		 * (its bandwidth pass dealt, one pair per shared link at a
		 * time) costs less than its pairs one group at a time; the
		 * links not listed keep their first figures (keep_first). */
		if (cxd_sched_main(c->m.n, p->pairs_at_once, &pl) != 0)
			sw_die(&c->m, "out of memory");
		sw_pace_plan(c, p, &m, &pl, sw_measure_pair, mt, NULL);
		cxd_sched_free(&pl);
	} else if (alone(c)) {
		run_alone(c, &m, pt, mt);
	} else {
		s = sw_alloc(&c->m, (size_t) pt->nsteps + 1, sizeof(*s));
		for (int i = 0; i < pt->nsteps; i++)
			s[i] = cxd_retest_step_of(pt->step[i]);
		sw_pace_steps(c, &m, s, pt->nsteps, pt->nrounds,
			      sw_measure_pair, mt, NULL);
		free(s);
	}
}

/* What the retest measures (SW_RUN_*): only the metrics that have an
 * outlier on some rank. A latency pass is a third of a sweep's messages,
 * and a link not retested in a metric keeps its first figure there. */
static int retest_what(const struct sw_mpi *mpi, const struct sw_judging *j)
{
	int mine[2] = { 0, 0 }, all[2];

	for (size_t i = 0; i < j->nout; i++)
		mine[j->o[i].metric == CXD_M_LAT] = 1;
	sw_allreduce(mpi, mine, all, 2, MPI_INT, MPI_LOR,
		     "the retest's metrics");
	return all[CXD_M_BW] && all[CXD_M_LAT] ? SW_RUN_BOTH :
	       all[CXD_M_LAT] ? SW_RUN_LAT : SW_RUN_BW;
}

/* The links the retest did not measure keep their first figures: each
 * link's figure is then its latest (a baseline must not keep a blip
 * that the retest cleared). now: the rows and spreads, first: a copy. */
static void keep_first(const struct sw_ctx *c, const struct cxd_pair *pairs,
		       int np, int what, double *now[4], double *first[4])
{
	if (cxd_stat_keep_first(c->m.n, c->m.rank, pairs, np, now, first) != 0)
		sw_die(&c->m, "out of memory");
	for (int k = 0; what != SW_RUN_BOTH && k < 4; k++)
		if ((k % 2 == CXD_M_LAT) == (what == SW_RUN_BW))
			memcpy(now[k], first[k],
			       (size_t) c->m.n * sizeof(double));
}

/* Each flagged link's retest figure and the busier side's CPU wait,
 * then the flags the retest confirms. */
static void confirm(struct sw_judging *j, const struct sw_ctx *c,
		    const struct sw_measured *f)
{
	const double *row[2] = { f->bw_row, f->lat_row };
	/* The partner's wait during the same pair, for each link. */
	double *busy_col = sw_alloc(&c->m, (size_t) c->m.n, sizeof(double));

	sw_alltoall_double(&c->m, f->busy_row, busy_col,
			   "exchanging the CPU waits");
	for (size_t i = 0; i < j->nout; i++) {
		struct cxd_outlier *x = &j->o[i];

		x->retest = row[x->metric][x->dst];
		x->busy = cxd_judge_busier(f->busy_row[x->dst],
					   busy_col[x->dst]);
	}
	j->nout = cxd_judge_confirm(&j->rules, j->o, j->nout, NULL,
				    &j->nbusy);
	free(busy_col);
}

/* This rank's pairs of the retest, for keep_first. */
static struct cxd_pair *own_pairs(const struct sw_ctx *c,
				  const struct part *pt)
{
	struct cxd_pair *q = sw_alloc(&c->m, (size_t) pt->nsteps + 1,
				      sizeof(*q));

	for (int i = 0; i < pt->nsteps; i++)
		q[i] = (struct cxd_pair){ c->m.rank, pt->step[i].partner };
	return q;
}

void sw_retest(struct sw_judging *j, const struct sw_ctx *c,
	       const struct sw_pacing *p, struct sw_meter *mt)
{
	struct sw_measured *f = mt->fig;
	struct cxd_pair *pairs;
	struct part pt = { 0 };
	double *now[4] = { f->bw_row, f->lat_row, f->spread[0],
			   f->spread[1] };
	double *first[4];
	struct cxd_plan pl;
	int what;

	pt.np = retest_list(&c->m, j, &pairs);
	retest_plan(c, p, pairs, pt.np, &pl);
	free(pairs);
	deal(c, p, &pl, &pt);
	cxd_sched_free(&pl);
	if (pt.np == 0)
		return;
	first[0] = sw_alloc(&c->m, 4 * (size_t) c->m.n, sizeof(double));
	for (int k = 0; k < 4; k++) {
		first[k] = first[0] + (size_t) k * c->m.n;
		memcpy(first[k], now[k], (size_t) c->m.n * sizeof(double));
	}
	what = retest_what(&c->m, j);
	j->retest_pairs = pt.np;
	j->retest_rounds = alone(c) ? pt.nrounds : 0;
	j->retest_metrics = (what != SW_RUN_LAT ? 1u << CXD_M_BW : 0) |
			    (what != SW_RUN_BW ? 1u << CXD_M_LAT : 0);
	sw_measured_reset(f);
	/* Alone per shared link, each round is a plan of its own. */
	cxd_rprog_expect(c->m.line, (unsigned) pt.nrounds);
	run(c, p, &pt, what, mt);
	sw_measured_stats(f, &c->m);
	pairs = own_pairs(c, &pt);
	keep_first(c, pairs, pt.nsteps, what, now, first);
	free(pairs);
	free(first[0]);
	free(pt.step);
	confirm(j, c, f);
}
