/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --congestion: a GPCNeT-like congestion impact on the sweep's
 * launch. Ranks split into victim pairs and aggressors; the victims
 * measure 8-byte latency and bandwidth each way alone, then while the
 * aggressors run each pattern (incast, all-to-all, read broadcast). MPI
 * bootstraps and paces the phases; all traffic is libfabric's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/tclass.h"
#include "sweep/congest/congest_out.h"
#include "sweep/congest/place.h"
#include "boot.h"
#include "congest_mpi.h"

/* The leading side keeps its figures for the link it leads. */
static void keep(void *arg, uint64_t k, const struct sw_dir *d,
		 const struct sw_fig *f)
{
	struct cg *cg = arg;
	double *v = cg->mine.v[cg->phase];

	(void) k; /* one repeat */
	if (d->lat) {
		v[CXD_CGM_MEAN] = f->mean_us;
		v[CXD_CGM_P99] = f->p99_us;
		v[CXD_CGM_P999] = f->p999_us;
	} else {
		v[CXD_CGM_BW] = f->v;
	}
}

/* A victim pair, measured as the sweep measures a pair, once: the
 * phase stands for the round, both metrics. */
static void measure_pair(struct cg *cg)
{
	const struct sw_ctx *c = cg->c;
	const struct sw_turn t = { .round = cg->phase, .what = SW_RUN_BOTH };
	int p = cg->partner;

	if (sw_pair_runs(&cg->mt, &t, p, 1, "victim", keep, cg) != 0)
		sw_die(&c->m, "victim pair with rank %d (%s), %s phase: %s", p,
		       c->ranks[p].host, cxd_cg_phase_name(cg->phase),
		       cg->eng->why(cg->eng));
}

/*
 * Victim pairs measure in turns of at most pairs_at_once pairs (the
 * sweep's rule: fewer at once where ranks outnumber CPUs), each turn
 * after the previous one's tokens arrive; all at once on a real system.
 */
static void measure(struct cg *cg)
{
	const struct sw_ctx *c = cg->c;
	const int *v = cg->sp.victims, nv = cg->sp.nv;
	int per = c->hosts.pairs_at_once, k, tok = cg->phase;
	int me = cxd_place_turn_of(v, nv, per, c->m.rank); /* a victim's turn */
	int *r = sw_alloc(&c->m, (size_t) 2 * per + 2, sizeof(int));
	MPI_Request *q = sw_alloc(&c->m, (size_t) 2 * per + 2, sizeof(*q));
	int *in = sw_alloc(&c->m, (size_t) 2 * per + 2, sizeof(int));

	k = me > 0 ? cxd_place_turn_ranks(v, nv, per, me - 1, r) : 0;
	for (int i = 0; i < k; i++)
		MPI_Irecv(&in[i], 1, MPI_INT, r[i], SW_TAG_TURN, MPI_COMM_WORLD,
			  &q[i]);
	if (sw_wait(q, k, (uint64_t) me * 4 * c->m.wait_ns, NULL, NULL) != 0)
		sw_die(&c->m,
		       "the victims before this rank's turn did not finish "
		       "the %s phase in time", cxd_cg_phase_name(cg->phase));
	measure_pair(cg);
	k = cxd_place_turn_ranks(v, nv, per, me + 1, r);
	for (int i = 0; i < k; i++)
		MPI_Isend(&tok, 1, MPI_INT, r[i], SW_TAG_TURN, MPI_COMM_WORLD,
			  &q[i]);
	if (sw_wait(q, k, c->m.wait_ns, NULL, NULL) != 0)
		sw_die(&c->m, "the victims of the next turn did not take their "
		       "token");
	free(r);
	free(q);
	free(in);
}

/* A barrier's end, keeping this endpoint progressing (an aggressor's
 * last operations need their target's), napping rather than spinning. */
static int cg_wait_progress(struct sw_engine *e, MPI_Request *q,
			    uint64_t bound)
{
	uint64_t t0 = cxd_now_ns();
	int flag = 0;

	for (;;) {
		MPI_Test(q, &flag, MPI_STATUS_IGNORE);
		if (flag)
			return 0;
		e->progress(e->state);
		if (cxd_now_ns() - t0 > bound)
			return -ETIMEDOUT;
		sw_nap(100000L);
	}
}

/*
 * One phase. Every rank starts it together; aggressors run their pattern
 * until every victim is done (the stop barrier completes), victims wait
 * for the queues to fill, then measure. A last barrier, progressing the
 * endpoint, lets the aggressors' last operations complete.
 */
static void phase(struct cg *cg, int ph)
{
	const struct sw_ctx *c = cg->c;
	MPI_Request q, stop;
	uint64_t d_ns = c->cfg.run.duration_s * 1000000000ULL;

	struct sw_aggr a;

	cg->phase = ph;
	a = (struct sw_aggr){ ph, cg->sp.aggressors, cg->sp.na, cg->aidx,
			      cg->crowded, cg->bound_ns };
	MPI_Ibarrier(MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "the start of a congestion phase");
	if (cg->aggr_only) {
		cg->eng->aggress(cg->eng, &a, NULL,
				cxd_now_ns() + d_ns);
	} else if (!cg->victim) {
		MPI_Ibarrier(MPI_COMM_WORLD, &stop);
		if (ph != CXD_CG_ALONE)
			cg->eng->aggress(cg->eng, &a, &stop, 0);
		else if (sw_wait(&stop, 1, cg->bound_ns, NULL, NULL) != 0)
			sw_die(&c->m,
			       "the victims did not finish alone in time");
	} else {
		if (ph != CXD_CG_ALONE)
			sw_nap(CXD_CG_SETTLE_NS);
		measure(cg);
		/* the pair is done (its last step was an exchange): sleep */
		MPI_Ibarrier(MPI_COMM_WORLD, &stop);
		if (sw_wait(&stop, 1, cg->bound_ns, NULL, NULL) != 0)
			sw_die(&c->m, "the aggressors did not stop in time");
	}
	MPI_Ibarrier(MPI_COMM_WORLD, &q);
	if (cg_wait_progress(cg->eng, &q, c->m.wait_ns) != 0)
		sw_die(&c->m, "the end of the %s phase did not come in time: a "
		       "rank stalled", cxd_cg_phase_name(ph));
}

/* Rank 0 draws the seed (or takes --seed); every rank splits alike. */
static void split(struct cg *cg)
{
	const struct sw_ctx *c = cg->c;
	char err[CXD_ERR_LEN] = "";

	cg->seed = c->cfg.sweep.seed;
	if (c->m.rank == 0 && cg->seed == 0)
		cg->seed = (cxd_now_ns() ^ ((uint64_t) getpid() << 32)) | 1;
	sw_bcast(&c->m, &cg->seed, 1, MPI_UINT64_T, "the seed");
	if (cg->aggr_only) {
		cg->sp.n = cg->sp.na = c->m.n;
		cg->sp.aggressors = sw_alloc(&c->m, (size_t) c->m.n,
					     sizeof(int));
		for (int i = 0; i < c->m.n; i++)
			cg->sp.aggressors[i] = i;
		cg->aidx = c->m.rank;
		return;
	}
	if (cxd_cg_split(c->m.n, cg->frac, cg->place, cg->seed, &cg->sp, err,
			 sizeof(err)) != 0)
		sw_die(&c->m, "%s", err);
	cg->victim = cxd_cg_role(&cg->sp, c->m.rank, &cg->partner, &cg->aidx);
}

/* Every victim's link to rank 0, which writes the report. */
static int report(struct cg *cg, double secs)
{
	const struct sw_ctx *c = cg->c;
	struct cxd_cg_link *all = NULL, *l;
	struct cxd_cg_res r = { .sp = &cg->sp, .ranks = c->ranks,
				.place = cg->place, .seed = cg->seed,
				.frac = cg->frac, .cfg = &c->cfg,
				.victim_tc = c->cfg.run.tclass,
				.total_s = secs };
	char err[CXD_ERR_LEN] = "";
	int n = 0, ret = 0;

	if (c->m.rank == 0)
		all = sw_alloc(&c->m, (size_t) c->m.n, sizeof(*all));
	sw_gather(&c->m, &cg->mine, sizeof(cg->mine), MPI_BYTE, all,
		  "gathering the victims' figures");
	if (c->m.rank != 0)
		return 0;
	for (l = all; l < all + c->m.n; l++)
		if (l->src >= 0)
			all[n++] = *l;
	r.links = all;
	r.nlinks = (size_t) n;
	r.nhosts = cxd_place_nhosts(c->ranks, c->m.n);
	r.aggr_tc = c->cfg.sweep.aggr_tclass ? c->cfg.sweep.aggr_tclass :
		    c->cfg.run.tclass;
	snprintf(r.provider, sizeof(r.provider), "%s", c->bw_run.provider);
	cg->eng->tclass_note(cg->eng, r.victim_tc, r.victim_tc_s,
			    sizeof(r.victim_tc_s));
	cg->eng->tclass_note(cg->eng, r.aggr_tc, r.aggr_tc_s,
			    sizeof(r.aggr_tc_s));
	cxd_cg_write_text(&r, stdout);
	fflush(stdout);
	if (c->cfg.sweep.json[0])
		ret = cxd_cg_write_json(&r, c->cfg.sweep.json, err,
					sizeof(err));
	free(all);
	if (ret)
		fprintf(stderr, "cxi_sweep: %s\n", err);
	return ret ? CXD_EXIT_FAIL : CXD_EXIT_OK;
}

int sw_congest_check(const struct sw_ctx *c, char *err, size_t len)
{
	const struct cxd_sweep_opts *o = &c->cfg.sweep;
	bool on = o->cg_flags & CXD_CG_ON;
	bool only = o->cg_flags & CXD_CG_AGGR_ONLY;
	double f;
	int p;

	if (!on && !only && (o->victims[0] || o->placement[0] || o->seed ||
			     o->aggr_tclass)) {
		snprintf(err, len, "--victims, --placement, --seed and "
			 "--aggressor-tclass belong to --congestion");
		return -EINVAL;
	}
	if ((on || only || (c->cfg.local.given & CXD_GIVEN_HEALTH)) &&
	    (o->csv[0] || o->matrix[0] || o->baseline[0] || o->topology[0] ||
	     o->suspects[0] || o->metrics[0] ||
	     (o->sw_flags & CXD_SW_NO_CAPACITY))) {
		snprintf(err, len, "--csv, --matrix, --baseline, --topology, "
			 "--suspects, --metrics and --no-capacity belong to "
			 "the all-pairs sweep, not to %s", on ? "--congestion" :
			 only ?
			 "--aggressors-only" : "--health");
		return -EINVAL;
	}
	if ((on || only || (c->cfg.local.given & CXD_GIVEN_HEALTH)) &&
	    (o->sw_flags & CXD_SW_PROGRESS)) {
		snprintf(err, len, "--progress draws the all-pairs sweep's "
			 "line; %s has none", on ? "--congestion" : only ?
			 "--aggressors-only" : "--health");
		return -EINVAL;
	}
	if (on && only) {
		snprintf(err, len, "--congestion and --aggressors-only exclude "
			 "each other (the latter runs no victims)");
		return -EINVAL;
	}
	if (only && (o->victims[0] || o->placement[0] || o->seed)) {
		snprintf(err, len, "--aggressors-only runs no victims: "
			 "--victims, --placement and --seed do not apply");
		return -EINVAL;
	}
	if (only && !(c->cfg.run.flags & CXD_RUN_DURATION)) {
		snprintf(err, len, "--aggressors-only needs -D SEC: how long "
			 "each pattern runs");
		return -EINVAL;
	}
	if (on && (cxd_cg_parse_frac(o->victims, &f, err, len) ||
		   cxd_cg_parse_place(o->placement, &p, err, len)))
		return -EINVAL;
	if ((on && c->m.n < CXD_CG_MIN_RANKS) || (only && c->m.n < 2)) {
		snprintf(err, len, "%s needs at least %d ranks; this job has "
			 "%d (mpirun -np N)", on ? "--congestion" :
			 "--aggressors-only", on ? CXD_CG_MIN_RANKS : 2,
			 c->m.n);
		return -EINVAL;
	}
	return 0;
}

/* --aggressors-only: say what runs when, for the site's own victims. */
static void announce(const struct cg *cg, int ph)
{
	static const char *const what[CXD_CG_NPHASES] = {
		"", "every rank writes to rank 0",
		"every rank writes to every other, in turn",
		"every rank reads from rank 0",
	};

	if (cg->c->m.rank != 0)
		return;
	printf("%s: %llu s, %s\n", cxd_cg_phase_name(ph),
	       (unsigned long long) cg->c->cfg.run.duration_s, what[ph]);
	fflush(stdout);
}

static void setup(struct cg *cg, struct sw_ctx *c, struct sw_engine *e)
{
	char err[CXD_ERR_LEN]; /* checked in sw_congest_check already */

	memset(cg, 0, sizeof(*cg));
	cg->c = c;
	cg->eng = e;
	cg->mt = (struct sw_meter){ c, e, NULL, 0 };
	cg->aggr_only = c->cfg.sweep.cg_flags & CXD_CG_AGGR_ONLY;
	cg->mine.src = cg->mine.dst = -1;
	for (int p = 0; p < CXD_CG_NPHASES; p++)
		for (int m = 0; m < CXD_CGM_COUNT; m++)
			cg->mine.v[p][m] = NAN;
	(void) cxd_cg_parse_frac(c->cfg.sweep.victims, &cg->frac, err,
				 sizeof(err));
	(void) cxd_cg_parse_place(c->cfg.sweep.placement, &cg->place,
				  err, sizeof(err));
}

int sw_congest(struct sw_ctx *c, struct sw_engine *e)
{
	uint64_t t0 = cxd_now_ns();
	struct cg cg;
	int ret;

	setup(&cg, c, e);
	split(&cg);
	if (!cg.victim && c->cfg.sweep.aggr_tclass)
		c->bw_run.tclass = c->lat_run.tclass = c->cfg.sweep.aggr_tclass;
	if (cg.victim) {
		cg.mine.src = c->m.rank;
		cg.mine.dst = cg.partner;
	}
	if (c->m.rank == 0 && cg.place == CXD_CG_RANDOM && !cg.aggr_only)
		printf("cxi_sweep --congestion: random placement, seed %llu "
		       "(--seed repeats it)\n", (unsigned long long) cg.seed);
	if (sw_bootstrap(c, e) != 0)
		return CXD_EXIT_USAGE; /* rank 0 has said why */
	/* Ranks on this host against its CPUs (the sweep's test, per host). */
	cg.crowded = cxd_place_crowded(c->ranks, c->m.n, c->m.rank,
				       c->hosts.cpus);
	/* A pair's four steps are each bounded by wait_ns; turns add up. */
	cg.bound_ns = (uint64_t) ((cg.sp.nv / 2 + c->hosts.pairs_at_once - 1) /
				  c->hosts.pairs_at_once + 1) * 4 * c->m.wait_ns;
	/* An unreported first pass alone: it opens the provider's
	 * connections and pages the buffers in, which the first measured
	 * phase would otherwise pay for (seen: isolated slower than loaded). */
	if (!cg.aggr_only)
		phase(&cg, CXD_CG_ALONE);
	for (int ph = cg.aggr_only ? CXD_CG_INCAST : CXD_CG_ALONE;
	     ph < CXD_CG_NPHASES; ph++) {
		if (cg.aggr_only)
			announce(&cg, ph);
		phase(&cg, ph);
	}
	ret = cg.aggr_only ? 0 :
	      report(&cg, (double) (cxd_now_ns() - t0) / 1e9);
	cxd_cg_free(&cg.sp);
	return ret;
}
