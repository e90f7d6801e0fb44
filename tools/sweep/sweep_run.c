/* cxi_sweep: rounds of pairs, the round barrier, retests, results. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "sweep_mpi.h"

enum { TAG_DONE = 21, TAG_GO, TAG_END };

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

/* Test copies (CXD_TEST_COORD_ONLY): one message each way stands in for
 * the measurement, so a run times the pacing alone. */
static void sw_pair(struct sw *w, int p)
{
	if (!w->coord_only) {
		measure_pair(w, p);
		return;
	}
	w->partner = p;
	snprintf(w->peer_host, sizeof(w->peer_host), "%s", w->ranks[p].host);
	if (sw_peer_mpi.barrier(&w->s, "the coordination exchange") != 0)
		sw_die(w, "with rank %d: %s", p, w->s.err);
	w->bw_row[p] = w->lat_row[p] = 1.0;
}

static int partner_in(const struct sw_plan *pl, int r, int rank)
{
	const struct cxd_pair *p = pl->pairs + (size_t) r * pl->stride;

	for (int i = 0; i < pl->count[r]; i++) {
		if (p[i].a == rank)
			return p[i].b;
		if (p[i].b == rank)
			return p[i].a;
	}
	return -1;
}

/*
 * Rank 0 runs the rounds: it releases the ranks of round r (GO), runs its
 * own pair if it has one, and collects DONE from the others of round r
 * before releasing round r + 1. Ranks outside a round take no part in
 * it: they sleep until their next GO. A rank still missing
 * CXD_SWEEP_LATE_S after its partner finished is stalled: it is named and
 * the sweep ends.
 */
static void collect_done(struct sw *w, const struct sw_plan *pl, int r,
			 uint64_t t_go)
{
	const struct cxd_pair *p = pl->pairs + (size_t) r * pl->stride;
	int k = 2 * pl->count[r], left = 0, flag;
	MPI_Request *req = sw_alloc(w, (size_t) k + 1, sizeof(*req));
	uint64_t *at = sw_alloc(w, (size_t) k + 1, sizeof(*at));
	uint64_t late = CXD_SWEEP_LATE_S * 1000000000ULL, now = cxd_now_ns();
	int *who = sw_alloc(w, (size_t) k + 1, sizeof(int));
	int *val = sw_alloc(w, (size_t) k + 1, sizeof(int));

	for (int i = 0; i < k; i++) {
		who[i] = i % 2 ? p[i / 2].b : p[i / 2].a;
		req[i] = MPI_REQUEST_NULL;
		if (who[i] == 0) {
			at[i] = now; /* rank 0 finished its own pair */
			continue;
		}
		MPI_Irecv(&val[i], 1, MPI_INT, who[i], TAG_DONE, MPI_COMM_WORLD,
			  &req[i]);
		left++;
	}
	while (left > 0) {
		now = cxd_now_ns();
		for (int i = 0; i < k; i++) {
			if (at[i] != 0)
				continue;
			MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
			if (flag) {
				at[i] = now;
				left--;
			}
		}
		for (int i = 0; i < k; i++) {
			uint64_t ref = at[i ^ 1]; /* the partner's arrival */

			if (at[i] == 0 && ((ref && now - ref > late) ||
					   now - t_go > 4 * w->wait_ns + late))
				sw_die(w, "rank %d (%s) stalled in round %d: "
				       "no word from it %s", who[i],
				       w->ranks[who[i]].host, r, ref ?
				       "5 s after its partner finished" :
				       "for too long");
		}
		if (left > 0)
			sw_nap(200000L);
	}
	free(req);
	free(at);
	free(who);
	free(val);
}

/* Rank 0: round r from release to the last DONE. */
static void lead_round(struct sw *w, const struct sw_plan *pl, int r)
{
	const struct cxd_pair *p = pl->pairs + (size_t) r * pl->stride;
	int k = 2 * pl->count[r], partner = partner_in(pl, r, 0);
	MPI_Request *req = sw_alloc(w, (size_t) k + 1, sizeof(*req));
	uint64_t t_go = cxd_now_ns();

	for (int i = 0; i < k; i++) {
		int to = i % 2 ? p[i / 2].b : p[i / 2].a;

		req[i] = MPI_REQUEST_NULL;
		if (to != 0)
			MPI_Isend(&r, 1, MPI_INT, to, TAG_GO, MPI_COMM_WORLD,
				  &req[i]);
	}
	if (partner >= 0)
		sw_pair(w, partner);
	if (sw_wait(w, req, k, w->wait_ns, false) != 0)
		sw_die(w, "could not release the ranks of round %d", r);
	collect_done(w, pl, r, t_go);
	free(req);
}

/* Any other rank: wait for GO (asleep), measure, report DONE. The wait
 * is bounded by the rounds it spans; a dead rank 0 ends the job anyway. */
static void follow_round(struct sw *w, const struct sw_plan *pl, int r,
			 int since)
{
	uint64_t bound = (uint64_t) (r - since + 1) *
			 (4 * w->wait_ns + CXD_SWEEP_LATE_S * 1000000000ULL);
	MPI_Request q;
	int go = -1;

	MPI_Irecv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, &q);
	if (sw_wait(w, &q, 1, bound, false) != 0)
		sw_die(w, "rank 0 (%s) did not start round %d in time",
		       w->ranks[0].host, r);
	if (go != r)
		sw_die(w, "rank 0 started round %d, expected %d", go, r);
	sw_pair(w, partner_in(pl, r, w->rank));
	MPI_Isend(&r, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, &q);
	if (sw_wait(w, &q, 1, w->wait_ns, false) != 0)
		sw_die(w, "rank 0 (%s) did not take round %d's result",
		       w->ranks[0].host, r);
}

/* After the last round: rank 0 releases everyone to the gathering (the
 * collectives spin, so nobody may enter them early). */
static void plan_end(struct sw *w, const struct sw_plan *pl, int since)
{
	uint64_t bound = (uint64_t) (pl->nrounds - since + 1) *
			 (4 * w->wait_ns + CXD_SWEEP_LATE_S * 1000000000ULL);
	MPI_Request *req = sw_alloc(w, (size_t) w->n, sizeof(*req));
	int end = pl->nrounds;

	req[0] = MPI_REQUEST_NULL;
	if (w->rank == 0) {
		for (int i = 1; i < w->n; i++)
			MPI_Isend(&end, 1, MPI_INT, i, TAG_END, MPI_COMM_WORLD,
				  &req[i]);
		if (sw_wait(w, req, w->n, w->wait_ns, false) != 0)
			sw_die(w, "could not release the ranks at the end");
	} else {
		MPI_Irecv(&end, 1, MPI_INT, 0, TAG_END, MPI_COMM_WORLD, req);
		if (sw_wait(w, req, 1, bound, false) != 0)
			sw_die(w, "rank 0 (%s) did not end the rounds in time",
			       w->ranks[0].host);
	}
	free(req);
}

/* Test copies, coordination only: rank 0's wall and CPU time over the
 * main pass, for bench/sweep_cost.sh. */
static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double) ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void run_plan(struct sw *w, const struct sw_plan *pl, double *secs)
{
	uint64_t t_all = cxd_now_ns();
	double cpu = cpu_s();
	int since = 0;

	for (int r = 0; r < pl->nrounds; r++) {
		uint64_t t0 = cxd_now_ns();

		w->round = r;
		if (w->rank == 0) {
			lead_round(w, pl, r);
		} else if (partner_in(pl, r, w->rank) >= 0) {
			follow_round(w, pl, r, since);
			since = r;
		}
		if (secs)
			secs[r] = (double) (cxd_now_ns() - t0) / 1e9;
	}
	plan_end(w, pl, since);
	if (w->coord_only && secs && w->rank == 0)
		fprintf(stderr, "cxi_sweep: coordination only: ranks %d "
			"rounds %d pairs_at_once %d wall_s %.6f rank0_cpu_s "
			"%.6f\n", w->n, pl->nrounds, w->pairs_at_once,
			(double) (cxd_now_ns() - t_all) / 1e9, cpu_s() - cpu);
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
	run_plan(w, &pl, NULL);
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
	sw_bootstrap(w);
	w->bw_row = sw_alloc(w, (size_t) w->n, sizeof(double));
	w->lat_row = sw_alloc(w, (size_t) w->n, sizeof(double));
	reset_rows(w);
	main_plan(w, &pl);
	w->round_s = sw_alloc(w, (size_t) pl.nrounds, sizeof(double));
	run_plan(w, &pl, w->round_s);
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
