/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the retest. The pairs of every rank's flagged links are
 * measured once more (all repeats, through the pacing) and a flag stays
 * only where the retest breaks a rule too; each link's figure is then
 * its latest measurement.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "sweep/retest.h"
#include "sweep/stat.h"
#include "sweep/stat_row.h"
#include "retest_mpi.h"

/* The pairs to retest: each rank's outliers' pairs, gathered and made
 * unique by rank 0, then known to all; returns the count. */
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
	sw_bcast(mpi, &np, 1, MPI_INT, "the retest list");
	*out = sw_alloc(mpi, (size_t) np + 1, sizeof(**out));
	if (mpi->rank == 0)
		memcpy(*out, all, (size_t) np * sizeof(**out));
	sw_bcast(mpi, *out, 2 * np, MPI_INT, "the retest list");
	free(mine);
	free(all);
	free(cnt);
	free(disp);
	return np;
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

/* The retest's plan. On shared links with most pairs listed (a fabric
 * slow all over): the whole plan again, whose bandwidth pass is dealt
 * rather than chained (sw_pace_plan); the links not listed keep their
 * first figures, as ever. In plain rounds the listed pairs alone cost
 * less (6 ranks, 8 of 15 listed: 24 s against 30). */
static void retest_plan(const struct sw_ctx *c, const struct sw_pacing *p,
			const struct cxd_pair *pairs, int np,
			struct cxd_plan *pl)
{
	if (p->shared != NULL &&
	    2 * (size_t) np > (size_t) c->m.n * (size_t) (c->m.n - 1) / 2)
		*pl = cxd_sched_main(c->m.n, p->pairs_at_once);
	else if (cxd_retest_plan(c->m.n, p->pairs_at_once, pairs, np,
				 pl) != 0)
		sw_die(&c->m, "out of memory");
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

void sw_retest(struct sw_judging *j, const struct sw_ctx *c,
	       struct sw_pacing *p, struct sw_meter *mt)
{
	struct sw_measured *f = mt->fig;
	struct cxd_pair *pairs;
	int np = retest_list(&c->m, j, &pairs);
	double *now[4] = { f->bw_row, f->lat_row, f->spread[0],
			   f->spread[1] };
	double *first[4];
	struct cxd_plan pl;
	int what;

	if (np == 0) {
		free(pairs);
		return;
	}
	first[0] = sw_alloc(&c->m, 4 * (size_t) c->m.n, sizeof(double));
	for (int k = 0; k < 4; k++) {
		first[k] = first[0] + (size_t) k * c->m.n;
		memcpy(first[k], now[k], (size_t) c->m.n * sizeof(double));
	}
	retest_plan(c, p, pairs, np, &pl);
	what = retest_what(&c->m, j);
	j->retest_pairs = np;
	j->retest_metrics = (what != SW_RUN_LAT ? 1u << CXD_M_BW : 0) |
			    (what != SW_RUN_BW ? 1u << CXD_M_LAT : 0);
	sw_measured_reset(f);
	sw_pace_plan(c, p, &pl, what, sw_measure_pair, mt, NULL);
	sw_measured_stats(f, &c->m);
	keep_first(c, pairs, np, what, now, first);
	free(first[0]);
	confirm(j, c, f);
	cxd_sched_free(&pl);
	free(pairs);
}
