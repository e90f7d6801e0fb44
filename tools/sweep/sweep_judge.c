/*
 * cxi_sweep: from every rank's measurements to the verdict. Each rank
 * reduces its own row (medians of the repeats, their spread, its noise);
 * rank 0 gathers the rows, judges them against the typical link, the
 * baseline and the expected figures, retests the outliers, names the
 * suspects and writes the report and files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "health.h"
#include "sweep_mpi.h"

enum { EXIT_OUTLIERS = 3, EXIT_INCONCLUSIVE = 4 };

/* Rank 0's status reaches every rank: all stop together, no hang. */
static int agree(struct sw *w, int status)
{
	MPI_Request q;

	MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "the input check");
	return status;
}

int sw_read_inputs(struct sw *w)
{
	char err[CXD_ERR_LEN] = "";
	const struct cxd_sweep_opts *o = &w->cfg.sweep;
	int ret = 0;

	if (w->rank == 0 && o->baseline[0]) {
		ret = cxd_base_load(o->baseline, &w->base, err, sizeof(err));
		w->has_base = ret == 0;
	}
	if (w->rank == 0 && ret == 0 && o->topology[0]) {
		ret = cxd_topo_load(o->topology, &w->topo, err, sizeof(err));
		w->has_topo = ret == 0;
	}
	if (ret)
		fprintf(stderr, "cxi_sweep: %s\n", err);
	return agree(w, ret ? 2 : 0);
}

int sw_place_ranks(struct sw *w)
{
	char err[CXD_ERR_LEN] = "";
	int ret = 0;

	if (w->rank == 0 && w->has_topo) {
		int *sw = sw_alloc(w, (size_t) w->n, sizeof(int));
		int *grp = sw_alloc(w, (size_t) w->n, sizeof(int));

		w->tmap = (struct cxd_topo_map){ sw, grp, w->topo.nsw,
						 w->topo.ngrp };
		ret = cxd_topo_place(&w->topo, w->ranks, w->n, sw, grp,
				     stderr, err, sizeof(err));
		if (ret)
			fprintf(stderr, "cxi_sweep: %s\n", err);
	}
	return agree(w, ret ? 2 : 0);
}

/* This rank's row: each link's median and spread, and the noise of all
 * its repeats (the median relative difference between two of them). */
static void row_stats(struct sw *w)
{
	size_t k = w->repeat, nd = k * (k - 1) / 2;
	double *diffs = sw_alloc(w, (size_t) w->n * nd + 1, sizeof(double));
	double *row[2] = { w->bw_row, w->lat_row };

	for (int m = 0; m < 2; m++) {
		size_t d = 0;

		for (int p = 0; p < w->n; p++) {
			const double *x = w->rep[m] + (size_t) p * k;
			double lo = INFINITY, hi = -INFINITY;

			row[m][p] = cxd_sweep_median(x, k);
			for (size_t i = 0; i < k; i++) {
				lo = x[i] < lo ? x[i] : lo;
				hi = x[i] > hi ? x[i] : hi;
			}
			w->spread[m][p] = row[m][p] > 0 ?
				100 * (hi - lo) / row[m][p] : NAN;
			d += cxd_judge_rel_diffs(x, k, diffs + d);
		}
		w->noise[m] = cxd_sweep_median(diffs, d);
	}
	free(diffs);
}

static void gather(struct sw *w, const double *mine, int len, double *all,
		   const char *what)
{
	MPI_Request q;

	MPI_Igather(mine, len, MPI_DOUBLE, all, len, MPI_DOUBLE, 0,
		    MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, what);
}

/* Rank 0's view of the first pass. */
struct view {
	double *m[2], *spread[2], *noise; /* n x n; noise: 2 per rank */
	double *busy;                     /* n x n: see cxd_judge_confirm */
	double *base[2];
	struct cxd_rules rules;
	struct cxd_outlier *o;
	size_t nout, nbusy;
	struct cxd_suspect *sus;
	size_t nsus;
};

static void gather_all(struct sw *w, struct view *v)
{
	size_t nn = (size_t) w->n * w->n;
	double *row[2] = { w->bw_row, w->lat_row };

	for (int m = 0; m < 2 && w->rank == 0; m++) {
		v->m[m] = sw_alloc(w, nn, sizeof(double));
		v->spread[m] = sw_alloc(w, nn, sizeof(double));
	}
	if (w->rank == 0) {
		v->noise = sw_alloc(w, 2 * (size_t) w->n, sizeof(double));
		v->busy = sw_alloc(w, nn, sizeof(double));
	}
	row_stats(w);
	gather(w, row[0], w->n, v->m[0], "gathering the bandwidths");
	gather(w, row[1], w->n, v->m[1], "gathering the latencies");
	gather(w, w->spread[0], w->n, v->spread[0], "gathering the spreads");
	gather(w, w->spread[1], w->n, v->spread[1], "gathering the spreads");
	gather(w, w->noise, 2, v->noise, "gathering the noise");
	gather(w, w->busy_row, w->n, v->busy, "gathering the CPU waits");
}

/* The noise of the run: the median over ranks of each rank's noise. */
static double run_noise(const struct sw *w, const double *noise, int m)
{
	double *x = malloc((size_t) w->n * sizeof(double)), med;

	if (x == NULL)
		return NAN;
	for (int i = 0; i < w->n; i++)
		x[i] = noise[2 * i + m];
	med = cxd_sweep_median(x, (size_t) w->n);
	free(x);
	return cxd_judge_sigma(med);
}

static void set_rules(struct sw *w, struct view *v)
{
	const struct cxd_sweep_opts *o = &w->cfg.sweep;
	struct cxd_rules *r = &v->rules;
	uint64_t pct[2] = { o->bw_pct, o->lat_pct };

	r->n = w->n;
	for (int m = 0; m < 2; m++) {
		r->typical[m] = cxd_judge_typical(v->m[m], w->n);
		r->tol[m] = cxd_judge_tol(m, run_noise(w, v->noise, m), pct[m]);
	}
	r->expect[CXD_M_BW] = o->expect_bw;
	r->expect[CXD_M_LAT] = o->expect_lat;
	if (!w->has_base)
		return;
	if (cxd_base_match(&w->base, w->ranks, w->n, w->bw_run.provider,
			   w->cfg.run.min_size, &v->base[0], &v->base[1]))
		sw_die(w, "out of memory");
	for (int m = 0; m < 2; m++) {
		r->base[m] = v->base[m];
		r->base_tol[m] = w->base.tol[m];
	}
}

static void judge(struct sw *w, struct view *v)
{
	/* Counted first: room for every link would be 2 n^2 outliers. */
	size_t cap = cxd_judge_flag(&v->rules, v->m[0], CXD_M_BW, NULL, 0) +
		     cxd_judge_flag(&v->rules, v->m[1], CXD_M_LAT, NULL, 0);

	v->o = sw_alloc(w, cap, sizeof(*v->o));
	v->nout = cxd_judge_flag(&v->rules, v->m[0], CXD_M_BW, v->o, cap);
	v->nout += cxd_judge_flag(&v->rules, v->m[1], CXD_M_LAT,
				  v->o + v->nout, cap - v->nout);
}

/* Every rank: retest the suspect pairs once (all repeats again); rank 0
 * keeps the outliers whose retest breaks a rule too. */
static void retest(struct sw *w, struct view *v)
{
	struct cxd_pair *p = sw_alloc(w, v->nout + 1, sizeof(*p));
	struct view again = { 0 };
	struct sw_plan pl;
	MPI_Request q;
	int np = 0;

	if (w->rank == 0)
		np = (int) cxd_sweep_retest_pairs(v->o, v->nout, p);
	MPI_Ibcast(&np, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "the retest list");
	if (np == 0) {
		free(p);
		return;
	}
	free(p);
	p = sw_alloc(w, (size_t) np, sizeof(*p));
	if (w->rank == 0)
		cxd_sweep_retest_pairs(v->o, v->nout, p);
	MPI_Ibcast(p, np * 2, MPI_INT, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "the retest list");
	sw_retest_plan(w, p, np, &pl);
	sw_reset_rows(w);
	sw_pace(w, &pl, sw_measure_pair, NULL);
	gather_all(w, &again);
	for (size_t i = 0; w->rank == 0 && i < v->nout; i++) {
		struct cxd_outlier *x = &v->o[i];

		x->retest = again.m[x->metric][(size_t) x->src * w->n + x->dst];
	}
	if (w->rank == 0)
		v->nout = cxd_judge_confirm(&v->rules, v->o, v->nout,
					    again.busy, &v->nbusy);
	sw_plan_free(&pl);
	free(p);
	for (int m = 0; m < 2; m++) {
		free(again.m[m]);
		free(again.spread[m]);
	}
	free(again.noise);
	free(again.busy);
}

static int write_files(struct sw *w, const struct cxd_sweep_res *r)
{
	const struct cxd_sweep_opts *o = &w->cfg.sweep;
	char err[CXD_ERR_LEN] = "";
	int ret = 0;

	if (o->json[0])
		ret = cxd_sweep_write_json(r, o->json, err, sizeof(err));
	if (ret == 0 && o->csv[0])
		ret = cxd_sweep_write_csv(r, o->csv, err, sizeof(err));
	if (ret == 0 && o->metrics[0])
		ret = cxd_sweep_write_metrics(r, o->metrics, err, sizeof(err));
	if (ret == 0 && o->suspects[0])
		ret = cxd_sweep_write_suspects(r, o->suspects, err,
					       sizeof(err));
	if (ret)
		fprintf(stderr, "cxi_sweep: %s\n", err);
	return ret;
}

static int report(struct sw *w, const struct sw_plan *pl, struct view *v,
		  double secs)
{
	struct cxd_sweep_res r = {
		.n = w->n, .ranks = w->ranks, .bw = v->m[0], .lat = v->m[1],
		.spread = { v->spread[0], v->spread[1] },
		.out = v->o, .nout = v->nout, .rules = &v->rules,
		.busy = v->o + v->nout, .nbusy = v->nbusy,
		.sus = v->sus, .nsus = v->nsus,
		.topo = w->has_topo ? &w->topo : NULL,
		.tmap = w->has_topo ? &w->tmap : NULL,
		.base = w->has_base ? &w->base : NULL,
		.nrounds = pl->nrounds, .stride = pl->stride,
		.pairs_at_once = w->pairs_at_once,
		.round_count = pl->count, .round_pairs = pl->pairs,
		.round_s = w->round_s, .total_s = secs, .cfg = &w->cfg,
		.lat_iters = w->lat_iters, .repeat = w->repeat };
	const char **moved = sw_alloc(w, (size_t) w->n, sizeof(char *));
	uint32_t ver = fi_version();
	int ret;

	for (int i = 0; i < w->n; i++)
		moved[i] = sw_counters_moved(w, i);
	r.moved = moved;
	snprintf(r.provider, sizeof(r.provider), "%s", w->bw_run.provider);
	snprintf(r.libfabric, sizeof(r.libfabric), "%u.%u", FI_MAJOR(ver),
		 FI_MINOR(ver));
	r.verdict = cxd_sweep_verdict(&r);
	cxd_sweep_write_text(&r, stdout);
	fflush(stdout);
	ret = write_files(w, &r) ? 1 : r.verdict == CXD_V_FAIL ? EXIT_OUTLIERS :
	      r.verdict == CXD_V_INCONCLUSIVE ? EXIT_INCONCLUSIVE : 0;
	free(moved);
	return ret;
}

int sw_verdict(struct sw *w, const struct sw_plan *pl, uint64_t t0)
{
	struct view v = { 0 };
	int ret = 0;

	gather_all(w, &v);
	if (w->rank == 0) {
		set_rules(w, &v);
		judge(w, &v);
	}
	retest(w, &v);
	sw_counters_end(w);
	if (w->rank == 0) {
		size_t cap = 4 * (size_t) w->n + 8;

		v.sus = sw_alloc(w, cap, sizeof(*v.sus));
		/* Outliers not judged broke a rule twice too: what they
		 * point at counts, or a busy retest could single out the
		 * rank whose links happened to be retested quietly. */
		v.nsus = cxd_judge_suspects(v.o, v.nout + v.nbusy, w->n,
					    w->has_topo ? &w->tmap : NULL,
					    v.sus, cap);
		if (v.nsus > cap)
			v.nsus = cap;
		ret = report(w, pl, &v, (double) (cxd_now_ns() - t0) / 1e9);
	}
	for (int m = 0; m < 2; m++) {
		free(v.m[m]);
		free(v.spread[m]);
		free(v.base[m]);
	}
	free(v.noise);
	free(v.busy);
	free(v.o);
	free(v.sus);
	return ret;
}
