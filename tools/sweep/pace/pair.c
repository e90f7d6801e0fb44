/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: a pair's measurement through the engine (pair.h); the
 * plans it is paced by are lib/sweep/sched/sched.c's and retest.c's, and the
 * pacing hands each pair its turn (round, metrics). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "base/clock.h"
#include "base/cpu_wait.h"
#include "base/testaid.h"
#include "sweep/judge/judge.h"
#include "pair.h"

/* Test copies: which draw of the jitter a figure gets (base/testaid.h). */
static unsigned long long jitter_key(struct sw_meter *mt, int p, bool lat)
{
	return ((unsigned long long) mt->c->m.rank << 40) ^
	       ((unsigned long long) p << 20) ^ (mt->nfig++ << 1) ^ lat;
}

int sw_pair_runs(struct sw_meter *mt, const struct sw_turn *t, int p,
		 uint64_t repeat, const char *role, sw_keep_fn *keep,
		 void *arg)
{
	struct sw_engine *e = mt->eng;
	bool first = mt->c->m.rank < p;
	int what = t->what, ret = 0;

	/* Latency first: its untimed warmup opens the provider's connection
	 * (tcp connects on first use), which bandwidth must not pay for. */
	/* Repeats interleaved, so a passing disturbance hits one of them. */
	for (uint64_t step = 0; ret == 0 && step < 4 * repeat; step++) {
		struct sw_dir d = { p, (step % 2 == 0) == first, step % 4 < 2,
				    role, t->round };
		struct sw_fig f;

		/* The shared-links schedule's two passes. */
		if ((what == SW_RUN_LAT && !d.lat) ||
		    (what == SW_RUN_BW && d.lat))
			continue;
		ret = e->measure(e, &d, &f);
		if (ret == 0 && d.lead && cxd_testaid_jitter)
			f.v = cxd_testaid_jitter(f.v, jitter_key(mt, p, d.lat));
		if (ret == 0 && d.lead)
			keep(arg, step / 4, &d, &f);
	}
	return ret;
}

/* Results land in this rank's repeats for the links it led. */
static void keep_repeat(void *arg, uint64_t k, const struct sw_dir *d,
			const struct sw_fig *f)
{
	struct sw_measured *fig = arg;

	fig->rep[d->lat ? CXD_M_LAT : CXD_M_BW]
		[(size_t) d->peer * fig->repeat + k] = f->v;
}

/* Test copies (CXD_TEST_COORD_ONLY): one message each way stands in for
 * the measurement, so a run times the pacing alone. */
static void coord_only_pair(struct sw_meter *mt, const struct sw_turn *t,
			    int p)
{
	const struct sw_ctx *c = mt->c;
	uint64_t bound = CXD_SWEEP_LATE_S * 1000000000ULL;
	int mine = 1, theirs = 0;

	if (sw_pair_swap(p, SW_TAG_BARRIER, &mine, &theirs, sizeof(int),
			 bound, mt->eng->progress, mt->eng->state) != 0)
		sw_die(&c->m,
		       "with rank %d: rank %d (%s) did not answer within "
		       "%llu s during the coordination exchange of round %d", p,
		       p, c->ranks[p].host,
		       (unsigned long long) (bound / 1000000000ULL),
		       t->round);
	for (uint64_t k = 0; k < c->repeat; k++)
		mt->fig->rep[0][(size_t) p * c->repeat + k] =
			mt->fig->rep[1][(size_t) p * c->repeat + k] = 1.0;
}

void sw_measure_pair(void *meter, const struct sw_turn *t, int p)
{
	struct sw_meter *mt = meter;
	const struct sw_ctx *c = mt->c;
	uint64_t t0 = cxd_now_ns(), c0 = cxd_cpu_wait_ns(), c1;
	double was = mt->fig->busy_row[p], now;

	if (c->coord_only) {
		coord_only_pair(mt, t, p);
		return;
	}
	if (sw_pair_runs(mt, t, p, c->repeat, "peer", keep_repeat,
			 mt->fig) != 0)
		sw_die(&c->m, "with rank %d (%s) in round %d: %s", p,
		       c->ranks[p].host, t->round,
		       mt->eng->why(mt->eng));
	c1 = cxd_cpu_wait_ns();
	now = c0 == UINT64_MAX || c1 == UINT64_MAX ? NAN :
	      (double) (c1 - c0) / (double) (cxd_now_ns() - t0);
	/* A pair met twice (latency, then bandwidth): its busier pass. */
	mt->fig->busy_row[p] = cxd_judge_busier(was, now);
}
