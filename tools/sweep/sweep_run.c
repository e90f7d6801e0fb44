/* cxi_sweep: a pair's measurement, the plans, retests, results. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "sweep_mpi.h"

#define EXIT_OUTLIERS 3

/* One pair: latency each way, then bandwidth each way; the lower rank
 * leads first. Results land in this rank's rows for the links it led. */
static void measure_pair(struct sw *w, int p)
{
	struct cxd_sess *s = &w->s;
	bool first = w->rank < p;
	int ret = 0;

	w->partner = p;
	snprintf(w->peer_host, sizeof(w->peer_host), "%s", w->ranks[p].host);
	snprintf(w->who, sizeof(w->who), "the peer rank %d (%.100s)", p,
		 w->ranks[p].host);
	s->who = w->who;
	s->peer = w->addrs[p];
	s->fab->peer = w->fiaddr[p];
	/* Latency first: its untimed warmup opens the provider's connection
	 * (tcp connects on first use), which bandwidth must not pay for. */
	for (int step = 0; ret == 0 && step < 4; step++) {
		bool lat = step < 2;

		s->is_client = s->active = (step % 2 == 0) == first;
		s->tool = lat ? w->lat_tool : w->bw_tool;
		s->run = lat ? &w->lat_run : &w->bw_run;
		w->last = NAN;
		ret = s->tool->run(s, NULL);
		if (ret == 0 && s->is_client)
			(lat ? w->lat_row : w->bw_row)[p] = w->last;
	}
	if (ret)
		sw_die(w, "with rank %d (%s) in round %d: %s", p, w->ranks[p].host,
		    w->round, s->err);
}

static void plan_alloc(struct sw *w, struct sw_plan *pl, int nrounds)
{
	pl->nrounds = nrounds;
	pl->stride = w->n / 2 + 1;
	pl->count = sw_alloc(w, (size_t) nrounds, sizeof(int));
	pl->pairs = sw_alloc(w, (size_t) nrounds * pl->stride,
				 sizeof(struct cxd_pair));
}

static void plan_free(struct sw_plan *pl)
{
	free(pl->count);
	free(pl->pairs);
}

/* The circle rounds, each cut into rounds of at most pairs_at_once pairs
 * (--max-pairs, or fewer when ranks outnumber a host's CPUs). */
static void main_plan(struct sw *w, struct sw_plan *pl)
{
	int nr = cxd_sweep_nrounds(w->n), per = w->n / 2, k = 0;
	struct cxd_pair *tmp = sw_alloc(w, (size_t) per + 1, sizeof(*tmp));

	if (w->pairs_at_once < per)
		per = w->pairs_at_once;
	plan_alloc(w, pl, nr * ((w->n / 2 + per - 1) / per));
	for (int r = 0; r < nr; r++) {
		int c = cxd_sweep_round(w->n, r, tmp);

		for (int i = 0; i < c; i += per, k++) {
			pl->count[k] = c - i < per ? c - i : per;
			memcpy(pl->pairs + (size_t) k * pl->stride, tmp + i,
			       (size_t) pl->count[k] * sizeof(*tmp));
		}
	}
	pl->nrounds = k;
	free(tmp);
}

/* Retests: the suspect pairs, packed greedily into rounds of disjoint
 * pairs, at most pairs_at_once each (at most one round per pair). */
static void retest_plan(struct sw *w, const struct cxd_pair *p, int np,
			struct sw_plan *pl)
{
	bool *placed = sw_alloc(w, (size_t) np, sizeof(bool));
	bool *busy = sw_alloc(w, (size_t) w->n, sizeof(bool));
	int left = np;

	plan_alloc(w, pl, np);
	pl->nrounds = 0;
	while (left > 0) {
		int r = pl->nrounds++;
		struct cxd_pair *out = pl->pairs + (size_t) r * pl->stride;

		memset(busy, 0, (size_t) w->n * sizeof(bool));
		pl->count[r] = 0;
		for (int i = 0; i < np && pl->count[r] < w->pairs_at_once;
		     i++) {
			if (placed[i] || busy[p[i].a] || busy[p[i].b])
				continue;
			busy[p[i].a] = busy[p[i].b] = placed[i] = true;
			out[pl->count[r]++] = p[i];
			left--;
		}
	}
	free(placed);
	free(busy);
}

static void gather_rows(struct sw *w, double *bw, double *lat)
{
	MPI_Request q;

	MPI_Igather(w->bw_row, w->n, MPI_DOUBLE, bw, w->n, MPI_DOUBLE, 0,
		    MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "gathering the bandwidths");
	MPI_Igather(w->lat_row, w->n, MPI_DOUBLE, lat, w->n, MPI_DOUBLE, 0,
		    MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "gathering the latencies");
}

static void reset_rows(struct sw *w)
{
	for (int i = 0; i < w->n; i++)
		w->bw_row[i] = w->lat_row[i] = NAN;
}

/* Rank 0: judge the first pass; returns the outliers (count in *n_p). */
static struct cxd_outlier *judge(struct sw *w, const double *bw,
				 const double *lat, size_t *n_p)
{
	size_t cap = 2 * (size_t) w->n * w->n, k;
	struct cxd_outlier *o = sw_alloc(w, cap, sizeof(*o));

	k = cxd_sweep_flag(bw, w->n, CXD_M_BW, w->bw_pct, o, cap);
	k += cxd_sweep_flag(lat, w->n, CXD_M_LAT, w->lat_pct, o + k, cap - k);
	*n_p = k;
	return o;
}

/* Every rank: retest the suspect pairs once; rank 0 keeps the outliers
 * that the retest confirms. */
static size_t retest(struct sw *w, struct cxd_outlier *o, size_t nout)
{
	struct cxd_pair *p = sw_alloc(w, nout + 1, sizeof(*p));
	size_t nn = (size_t) w->n * w->n;
	double *bw = NULL, *lat = NULL;
	struct sw_plan pl;
	MPI_Request q;
	int np = 0;

	if (w->rank == 0)
		np = (int) cxd_sweep_retest_pairs(o, nout, p);
	MPI_Ibcast(&np, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "the retest list");
	if (np == 0) {
		free(p);
		return 0;
	}
	if (w->rank != 0)
		p = realloc(p, (size_t) np * sizeof(*p));
	if (p == NULL)
		sw_die(w, "out of memory");
	MPI_Ibcast(p, np * 2, MPI_INT, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, "the retest list");
	retest_plan(w, p, np, &pl);
	reset_rows(w);
	sw_pace(w, &pl, measure_pair, NULL);
	if (w->rank == 0) {
		bw = sw_alloc(w, nn, sizeof(double));
		lat = sw_alloc(w, nn, sizeof(double));
	}
	gather_rows(w, bw, lat);
	for (size_t i = 0; w->rank == 0 && i < nout; i++) {
		size_t k = (size_t) o[i].src * w->n + o[i].dst;

		o[i].retest = o[i].metric == CXD_M_BW ? bw[k] : lat[k];
	}
	if (w->rank == 0)
		nout = cxd_sweep_confirm(o, nout, w->bw_pct, w->lat_pct);
	plan_free(&pl);
	free(p);
	free(bw);
	free(lat);
	return nout;
}

static int report(struct sw *w, const struct sw_plan *pl, const double *bw,
		  const double *lat, const struct cxd_outlier *o, size_t nout,
		  double secs)
{
	struct cxd_sweep_res r = { .n = w->n, .ranks = w->ranks, .bw = bw,
				   .lat = lat, .out = o, .nout = nout,
				   .nrounds = pl->nrounds, .stride = pl->stride,
				   .pairs_at_once = w->pairs_at_once,
				   .round_count = pl->count,
				   .round_pairs = pl->pairs,
				   .round_s = w->round_s, .total_s = secs,
				   .cfg = &w->cfg, .bw_pct = w->bw_pct,
				   .lat_pct = w->lat_pct,
				   .lat_iters = w->lat_iters };
	char err[CXD_ERR_LEN] = "";
	uint32_t v = fi_version();
	int ret = 0;

	snprintf(r.provider, sizeof(r.provider), "%s", w->bw_run.provider);
	snprintf(r.libfabric, sizeof(r.libfabric), "%u.%u", FI_MAJOR(v),
		 FI_MINOR(v));
	cxd_sweep_write_text(&r, stdout);
	fflush(stdout);
	if (w->cfg.sweep.json[0])
		ret = cxd_sweep_write_json(&r, w->cfg.sweep.json, err,
					   sizeof(err));
	if (ret == 0 && w->cfg.sweep.csv[0])
		ret = cxd_sweep_write_csv(&r, w->cfg.sweep.csv, err,
					  sizeof(err));
	if (ret) {
		fprintf(stderr, "cxi_sweep: %s\n", err);
		return 1;
	}
	return nout ? EXIT_OUTLIERS : 0;
}

int sw_run(struct sw *w)
{
	size_t nn = (size_t) w->n * w->n, nout = 0;
	uint64_t t0 = cxd_now_ns();
	struct cxd_outlier *o = NULL;
	double *bw = NULL, *lat = NULL;
	struct sw_plan pl;
	int ret = 0;

	if (w->n < 2)
		sw_die(w, "a sweep needs at least 2 ranks (mpirun -np N, N >= 2)");
	w->s.via = &sw_peer_mpi; /* a pair's partner, over MPI */
	w->s.via_arg = w;
	if (sw_bootstrap(w) != 0)
		return 2;
	w->bw_row = sw_alloc(w, (size_t) w->n, sizeof(double));
	w->lat_row = sw_alloc(w, (size_t) w->n, sizeof(double));
	reset_rows(w);
	main_plan(w, &pl);
	w->round_s = sw_alloc(w, (size_t) pl.nrounds, sizeof(double));
	sw_pace(w, &pl, measure_pair, w->round_s);
	if (w->rank == 0) {
		bw = sw_alloc(w, nn, sizeof(double));
		lat = sw_alloc(w, nn, sizeof(double));
	}
	gather_rows(w, bw, lat);
	if (w->rank == 0)
		o = judge(w, bw, lat, &nout);
	nout = retest(w, o, nout);
	if (w->rank == 0)
		ret = report(w, &pl, bw, lat, o, nout,
			     (double) (cxd_now_ns() - t0) / 1e9);
	plan_free(&pl);
	free(o);
	free(bw);
	free(lat);
	return ret;
}
