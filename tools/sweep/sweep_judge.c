/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: from every rank's measurements to the verdict. Each rank
 * reduces its own row (medians of the repeats, their spread, its noise);
 * rank 0 sets the rules from a summary of the rows; each rank judges its
 * own links against the typical link, the baseline and the expected
 * figures and confirms them by a retest; rank 0 names the suspects from
 * the outlier counts and writes the report and files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "health.h"
#include "sweep/retest.h"
#include "sweep/stat.h"
#include "sweep/verdict.h"
#include "sweep_mpi.h"

/* Rank 0's status reaches every rank: all stop together, no hang. */
static int agree(struct sw *w, int status)
{
	sw_bcast(&w->m, &status, 1, MPI_INT, "the input check");
	return status;
}

int sw_read_inputs(struct sw *w)
{
	char err[CXD_ERR_LEN] = "";
	const struct cxd_sweep_opts *o = &w->cfg.sweep;
	int ret = 0;

	if (w->m.rank == 0 && o->baseline[0]) {
		ret = cxd_baseline_load(o->baseline, &w->judge.base, err,
					sizeof(err));
		w->judge.has_base = ret == 0;
	}
	if (w->m.rank == 0 && ret == 0 && o->topology[0]) {
		ret = cxd_topo_load(o->topology, &w->judge.topo, err,
				    sizeof(err));
		w->judge.has_topo = ret == 0;
	}
	if (ret)
		fprintf(stderr, "cxi_sweep: %s\n", err);
	return agree(w, ret ? CXD_EXIT_USAGE : CXD_EXIT_OK);
}

int sw_place_ranks(struct sw *w)
{
	char err[CXD_ERR_LEN] = "";
	int ret = 0;

	if (w->m.rank == 0 && w->judge.has_topo) {
		int *sw = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));
		int *grp = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));

		w->judge.tmap = (struct cxd_topo_map){
			sw, grp, w->judge.topo.nsw, w->judge.topo.ngrp };
		ret = cxd_topo_place(&w->judge.topo, w->ranks, w->m.n, sw, grp,
				     stderr, err, sizeof(err));
		if (ret)
			fprintf(stderr, "cxi_sweep: %s\n", err);
	}
	return agree(w, ret ? CXD_EXIT_USAGE : CXD_EXIT_OK);
}

/* This rank's row: each link's median and spread, and the noise of all
 * its repeats (the median relative difference between two of them). */
static void row_stats(struct sw *w)
{
	double *row[2] = { w->judge.bw_row, w->judge.lat_row };

	if (cxd_stat_row(w->m.n, w->repeat, w->judge.rep, row,
			 w->judge.spread, w->judge.noise) != 0)
		sw_die(&w->m, "out of memory");
}

/*
 * One rank's view. Every rank judges its own row by the rules rank 0
 * sets from a compact summary (each rank's median link and noise); rank
 * 0 holds n x n matrices only for the files that list every link
 * (--json, --csv, --metrics) and for a --baseline (read whole).
 */
struct view {
	struct cxd_rules rules;  /* every rank; base: this rank's row */
	struct cxd_rules report; /* rank 0: base n x n, for the ratios */
	double *base_row[2];
	double *base[2];         /* rank 0: n x n, NAN where unmatched */
	struct cxd_outlier *o;   /* this rank's links: confirmed, busy */
	size_t nout, nbusy;
	struct cxd_topo_map tm;  /* --topology on every rank */
	struct cxd_sweep_stat stat[2];
	double *m[2], *spread[2]; /* rank 0, for the files only */
	double *rank_med;         /* rank 0: 2 per rank (bw, lat) */
	struct sw_listed l;
	struct cxd_suspect *sus;
	size_t nsus;
};

/* Rank 0 gathers every link only for a file that lists every link. */
static bool wants_links(const struct sw *w)
{
	const struct cxd_sweep_opts *o = &w->cfg.sweep;

	return o->json[0] || o->csv[0] ||
	       (o->metrics[0] && w->m.n <= CXD_SWEEP_METRICS_LINKS);
}

static void gather_links(struct sw *w, struct view *v)
{
	size_t nn = (size_t) w->m.n * w->m.n;
	double *row[2] = { w->judge.bw_row, w->judge.lat_row };
	double med[2] = { cxd_stat_median(w->judge.bw_row, (size_t) w->m.n),
			  cxd_stat_median(w->judge.lat_row, (size_t) w->m.n) };

	if (w->m.rank == 0)
		v->rank_med = sw_alloc(&w->m, 2 * (size_t) w->m.n,
				       sizeof(double));
	sw_gather(&w->m, med, 2, MPI_DOUBLE, v->rank_med,
		  "gathering each rank's median link");
	if (!wants_links(w))
		return;
	for (int m = 0; m < 2 && w->m.rank == 0; m++) {
		v->m[m] = sw_alloc(&w->m, nn, sizeof(double));
		v->spread[m] = sw_alloc(&w->m, nn, sizeof(double));
	}
	for (int m = 0; m < 2; m++) {
		sw_gather(&w->m, row[m], w->m.n, MPI_DOUBLE, v->m[m],
			  "gathering the links");
		sw_gather(&w->m, w->judge.spread[m], w->m.n, MPI_DOUBLE,
			  v->spread[m], "gathering the spreads");
	}
}

/* Rank 0 sets the rules from each rank's median links and noise. */
static void set_rules(struct sw *w, struct view *v)
{
	const struct cxd_sweep_opts *o = &w->cfg.sweep;
	double mine[4] = { cxd_stat_median(w->judge.bw_row, (size_t) w->m.n),
			   cxd_stat_median(w->judge.lat_row, (size_t) w->m.n),
			   w->judge.noise[0], w->judge.noise[1] };
	double *sum = w->m.rank == 0 ? sw_alloc(&w->m, 4 * (size_t) w->m.n,
					      sizeof(double)) : NULL;
	struct cxd_rules *r = &v->rules;
	uint64_t pct[2] = { o->bw_pct, o->lat_pct };

	sw_gather(&w->m, mine, 4, MPI_DOUBLE, sum,
		  "gathering each rank's typical link");
	if (w->m.rank == 0) {
		r->n = w->m.n;
		for (int m = 0; m < 2; m++) {
			/* The typical link: the median of each rank's
			 * median link; the noise: of each rank's noise. */
			r->typical[m] = cxd_stat_column_median(sum, w->m.n, 4, m);
			r->tol[m] = cxd_judge_tol(m, cxd_judge_sigma(
				cxd_stat_column_median(sum, w->m.n, 4, 2 + m)),
				pct[m]);
			r->base_tol[m] = w->judge.has_base ?
					 w->judge.base.tol[m] : 0;
			r->base_poor[m] = w->judge.has_base &&
					  cxd_judge_poor(m, r->base_tol[m]);
		}
		if (w->judge.crowd_ratio)
			cxd_judge_crowd(&r->tol[CXD_M_BW],
					w->judge.crowd_ratio,
					(size_t) w->m.n);
		r->expect[CXD_M_BW] = o->expect_bw;
		r->expect[CXD_M_LAT] = o->expect_lat;
	}
	free(sum);
	sw_bcast(&w->m, r, (int) sizeof(*r), MPI_BYTE, "the rules");
	r->base[0] = r->base[1] = NULL; /* rank 0's pointers, not ours */
}

/* --baseline: rank 0 matches the file's ranks to this run's and hands
 * each rank its row of the matched figures. */
static void share_baseline(struct sw *w, struct view *v)
{
	int use[2] = { 0, 0 };

	if (w->m.rank == 0 && w->judge.has_base) {
		if (cxd_baseline_match(&w->judge.base, w->ranks, w->m.n,
				       w->bw_run.provider, w->cfg.run.min_size,
				       &v->base[0], &v->base[1]))
			sw_die(&w->m, "out of memory");
		use[0] = v->base[0] != NULL;
		use[1] = v->base[1] != NULL;
	}
	sw_bcast(&w->m, use, 2, MPI_INT, "the baseline");
	for (int m = 0; m < 2; m++) {
		MPI_Request q;

		if (!use[m])
			continue;
		v->base_row[m] = sw_alloc(&w->m, (size_t) w->m.n,
					  sizeof(double));
		MPI_Iscatter(v->base[m], w->m.n, MPI_DOUBLE, v->base_row[m],
			     w->m.n, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q);
		sw_coll_wait(&w->m, &q, "the baseline");
		v->rules.base[m] = v->base_row[m];
	}
	v->rules.base_row = true;
	v->report = v->rules;
	v->report.base[0] = v->base[0];
	v->report.base[1] = v->base[1];
	v->report.base_row = false;
}

/* This rank's own links against the rules. */
static void judge(struct sw *w, struct view *v)
{
	const double *row[2] = { w->judge.bw_row, w->judge.lat_row };
	size_t cap = 0;

	for (int m = 0; m < 2; m++)
		cap += cxd_judge_flag_row(&v->rules, row[m], m, w->m.rank,
					  NULL, 0);
	v->o = sw_alloc(&w->m, cap + 1, sizeof(*v->o));
	for (int m = 0; m < 2; m++)
		v->nout += cxd_judge_flag_row(&v->rules, row[m], m, w->m.rank,
					      v->o + v->nout, cap - v->nout);
}

/* The pairs to retest: each rank's outliers' pairs, gathered and made
 * unique by rank 0, then known to all; returns the count. */
static int retest_list(struct sw *w, const struct view *v,
		       struct cxd_pair **out)
{
	struct cxd_pair *mine = sw_alloc(&w->m, v->nout + 1, sizeof(*mine));
	int k = 2 * (int) cxd_pairs_of_outliers(v->o, v->nout, mine);
	int np = 0, *cnt = NULL, *disp = NULL, tot = 0;
	struct cxd_pair *all = NULL;
	MPI_Request q;

	if (w->m.rank == 0) {
		cnt = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));
		disp = sw_alloc(&w->m, (size_t) w->m.n, sizeof(int));
	}
	/* Counted in ints, two a pair. */
	sw_gather(&w->m, &k, 1, MPI_INT, cnt, "the retest list");
	for (int i = 0; w->m.rank == 0 && i < w->m.n; i++) {
		disp[i] = tot;
		tot += cnt[i];
	}
	if (w->m.rank == 0)
		all = sw_alloc(&w->m, (size_t) tot / 2 + 1, sizeof(*all));
	MPI_Igatherv(mine, k, MPI_INT, all, cnt, disp, MPI_INT, 0,
		     MPI_COMM_WORLD, &q);
	sw_coll_wait(&w->m, &q, "the retest list");
	if (w->m.rank == 0)
		np = (int) cxd_pairs_unique(all, (size_t) tot / 2);
	sw_bcast(&w->m, &np, 1, MPI_INT, "the retest list");
	*out = sw_alloc(&w->m, (size_t) np + 1, sizeof(**out));
	if (w->m.rank == 0)
		memcpy(*out, all, (size_t) np * sizeof(**out));
	sw_bcast(&w->m, *out, 2 * np, MPI_INT, "the retest list");
	free(mine);
	free(all);
	free(cnt);
	free(disp);
	return np;
}

/* What the retest measures (SW_RUN_*): only the metrics that have an
 * outlier on some rank. A latency pass is a third of a sweep's messages,
 * and a link not retested in a metric keeps its first figure there. */
static int retest_what(struct sw *w, const struct view *v)
{
	int mine[2] = { 0, 0 }, all[2];

	for (size_t i = 0; i < v->nout; i++)
		mine[v->o[i].metric == CXD_M_LAT] = 1;
	sw_allreduce(&w->m, mine, all, 2, MPI_INT, MPI_LOR,
		     "the retest's metrics");
	return all[CXD_M_BW] && all[CXD_M_LAT] ? SW_RUN_BOTH :
	       all[CXD_M_LAT] ? SW_RUN_LAT : SW_RUN_BW;
}

/* Every rank: retest the suspect pairs once (all repeats again) and keep
 * its outliers whose retest breaks a rule too. */
static void retest(struct sw *w, struct view *v)
{
	struct cxd_pair *p;
	int np = retest_list(w, v, &p);
	const double *row[2] = { w->judge.bw_row, w->judge.lat_row };
	double *now[4] = { w->judge.bw_row, w->judge.lat_row,
			   w->judge.spread[0], w->judge.spread[1] };
	double *first[4], *busy_col;
	struct cxd_plan pl;
	int what;

	if (np == 0) {
		free(p);
		return;
	}
	first[0] = sw_alloc(&w->m, 4 * (size_t) w->m.n, sizeof(double));
	for (int k = 0; k < 4; k++) {
		first[k] = first[0] + (size_t) k * w->m.n;
		memcpy(first[k], now[k], (size_t) w->m.n * sizeof(double));
	}
	/* On shared links with most pairs listed (a fabric slow all over):
	 * the whole plan again, whose bandwidth pass is dealt rather than
	 * chained (sw_pace_plan); the links not listed keep their first
	 * figures below, as ever. In plain rounds the listed pairs alone
	 * cost less (6 ranks, 8 of 15 listed: 24 s against 30). */
	if (w->pace.shared != NULL &&
	    2 * (size_t) np > (size_t) w->m.n * (size_t) (w->m.n - 1) / 2)
		pl = cxd_sched_main(w->m.n, w->pace.pairs_at_once);
	else if (cxd_retest_plan(w->m.n, w->pace.pairs_at_once, p, np,
				 &pl) != 0)
		sw_die(&w->m, "out of memory");
	what = retest_what(w, v);
	w->judge.retest_pairs = np;
	w->judge.retest_metrics = (what != SW_RUN_LAT ? 1u << CXD_M_BW : 0) |
				  (what != SW_RUN_BW ? 1u << CXD_M_LAT : 0);
	sw_reset_rows(w);
	sw_pace_plan(w, &pl, w->pace.shared, what, NULL);
	row_stats(w);
	/* The links the retest did not measure keep their first figures:
	 * each link's figure is then its latest (a baseline must not keep a
	 * blip that the retest cleared). */
	if (cxd_stat_keep_first(w->m.n, w->m.rank, p, np, now, first) != 0)
		sw_die(&w->m, "out of memory");
	for (int k = 0; what != SW_RUN_BOTH && k < 4; k++)
		if ((k % 2 == CXD_M_LAT) == (what == SW_RUN_BW))
			memcpy(now[k], first[k],
			       (size_t) w->m.n * sizeof(double));
	free(first[0]);
	/* The partner's wait during the same pair, for each link. */
	busy_col = sw_alloc(&w->m, (size_t) w->m.n, sizeof(double));
	sw_alltoall_double(&w->m, w->judge.busy_row, busy_col,
			   "exchanging the CPU waits");
	for (size_t i = 0; i < v->nout; i++) {
		struct cxd_outlier *x = &v->o[i];

		x->retest = row[x->metric][x->dst];
		x->busy = cxd_judge_busier(w->judge.busy_row[x->dst],
					   busy_col[x->dst]);
	}
	v->nout = cxd_judge_confirm(&v->rules, v->o, v->nout, NULL,
				    &v->nbusy);
	cxd_sched_free(&pl);
	free(p);
	free(busy_col);
}

static int write_files(struct sw *w, const struct cxd_sweep_res *r)
{
	const struct cxd_sweep_opts *o = &w->cfg.sweep;
	char err[CXD_ERR_LEN] = "";
	int ret = 0;

	if (o->json[0])
		ret = cxd_out_json(r, o->json, err, sizeof(err));
	if (ret == 0 && o->csv[0])
		ret = cxd_out_csv(r, o->csv, err, sizeof(err));
	if (ret == 0 && o->metrics[0])
		ret = cxd_out_metrics(r, o->metrics, err, sizeof(err));
	if (ret == 0 && o->suspects[0])
		ret = cxd_out_suspects(r, o->suspects, err,
				       sizeof(err));
	if (ret)
		fprintf(stderr, "cxi_sweep: %s\n", err);
	return ret;
}

static int report(struct sw *w, const struct cxd_plan *main_pl,
		  struct view *v, double secs)
{
	struct cxd_plan listed = *main_pl, *pl = &listed;

	/* Only --json lists every round's pairs (n^2 / 2 of them). */
	if (main_pl->count == NULL && w->cfg.sweep.json[0] &&
	    cxd_sched_list(w->m.n, main_pl, &listed) != 0)
		sw_die(&w->m, "out of memory");
	struct cxd_sweep_res r = {
		.n = w->m.n, .ranks = w->ranks, .bw = v->m[0], .lat = v->m[1],
		.spread = { v->spread[0], v->spread[1] },
		.stat = { v->stat[0], v->stat[1] }, .rank_med = v->rank_med,
		.out = v->l.o, .nout = v->l.nout, .nout_all = v->l.nout_all,
		.busy = v->l.o + v->l.nout, .nbusy = v->l.nbusy,
		.nbusy_all = v->l.nbusy_all, .rules = &v->report,
		.sus = v->sus, .nsus = v->nsus,
		.topo = w->judge.has_topo ? &w->judge.topo : NULL,
		.tmap = w->judge.has_topo ? &w->judge.tmap : NULL,
		.base = w->judge.has_base ? &w->judge.base : NULL,
		.nrounds = pl->nrounds, .round_first = pl->first,
		.pairs_at_once = w->pace.pairs_at_once,
		.round_count = pl->count, .round_pairs = pl->pairs,
		.round_s = w->pace.round_s, .total_s = secs, .cfg = &w->cfg,
		.schedule = w->pace.schedule,
		.retest_pairs = w->judge.retest_pairs,
		.retest_metrics = w->judge.retest_metrics,
		.lat_iters = w->lat_iters, .repeat = w->repeat };
	const char **moved = sw_alloc(&w->m, (size_t) w->m.n, sizeof(char *));
	int ret;

	for (int i = 0; i < w->m.n; i++)
		moved[i] = sw_counters_moved(w, i);
	r.moved = moved;
	snprintf(r.provider, sizeof(r.provider), "%s", w->bw_run.provider);
	snprintf(r.engine, sizeof(r.engine), "%s", w->eng->name);
	w->eng->version(r.engine_version, sizeof(r.engine_version));
	r.verdict = cxd_verdict_of(&r);
	cxd_out_text(&r, stdout);
	fflush(stdout);
	ret = write_files(w, &r) ? CXD_EXIT_FAIL : cxd_verdict_exit(r.verdict);
	free(moved);
	if (listed.count != main_pl->count)
		cxd_sched_free(&listed);
	return ret;
}

/* Rank 0: the suspects, from the outlier counts of every rank. Outliers
 * not judged broke a rule twice too: what they point at counts, or a
 * busy retest could single out the rank whose links happened to be
 * retested quietly. */
static void name_suspects(struct sw *w, struct view *v)
{
	struct cxd_tally sum;
	size_t cap = 4 * (size_t) w->m.n + 8;

	sw_tally(w, &v->tm, v->o, v->nout + v->nbusy, &sum);
	if (w->m.rank != 0)
		return;
	v->sus = sw_alloc(&w->m, cap, sizeof(*v->sus));
	v->nsus = cxd_judge_suspects_tally(&sum, w->judge.has_topo ?
					   &w->judge.tmap : NULL, v->sus, cap);
	if (v->nsus > cap)
		v->nsus = cap;
	cxd_judge_tally_free(&sum);
}

static void view_free(struct view *v)
{
	for (int m = 0; m < 2; m++) {
		free(v->m[m]);
		free(v->spread[m]);
		free(v->base[m]);
		free(v->base_row[m]);
	}
	free((void *) v->tm.switch_of);
	free((void *) v->tm.group_of);
	free(v->rank_med);
	free(v->o);
	free(v->l.o);
	free(v->sus);
}

int sw_verdict(struct sw *w, const struct cxd_plan *pl, uint64_t t0)
{
	struct view v = { 0 };
	int ret = 0;

	row_stats(w);
	set_rules(w, &v);
	share_baseline(w, &v);
	sw_share_topo(w, &v.tm);
	judge(w, &v);
	retest(w, &v);
	/* From here each link's figure is its latest measurement. */
	sw_link_stats(w, v.stat);
	gather_links(w, &v);
	ret = sw_matrix_write(w, (double[2]){ v.rules.tol[0].tol,
					      v.rules.tol[1].tol });
	sw_counters_end(w);
	name_suspects(w, &v);
	sw_gather_outliers(w, v.o, v.nout, v.nbusy, &v.l);
	if (w->m.rank == 0) {
		int r = report(w, pl, &v, (double) (cxd_now_ns() - t0) / 1e9);

		ret = ret ? ret : r;
	}
	view_free(&v);
	return ret;
}
