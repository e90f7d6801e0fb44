/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: a pair's measurement (through the engine); the plans it is
 * paced by are lib/sweep/sched.c's and retest.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "base/cpu_wait.h"
#include "base/testaid.h"
#include "sweep_mpi.h"

/* Test copies: which draw of the jitter a figure gets (base/testaid.h). */
static unsigned long long jitter_key(struct sw *w, int p, bool lat)
{
	return ((unsigned long long) w->m.rank << 40) ^
	       ((unsigned long long) p << 20) ^ (w->nfig++ << 1) ^ lat;
}

int sw_pair_runs(struct sw *w, int p, uint64_t repeat, const char *role,
		 sw_keep_fn *keep, void *arg)
{
	struct sw_engine *e = w->eng;
	bool first = w->m.rank < p;
	int ret = 0;

	/* Latency first: its untimed warmup opens the provider's connection
	 * (tcp connects on first use), which bandwidth must not pay for. */
	/* Repeats interleaved, so a passing disturbance hits one of them. */
	for (uint64_t step = 0; ret == 0 && step < 4 * repeat; step++) {
		struct sw_dir d = { p, (step % 2 == 0) == first, step % 4 < 2,
				    role };
		struct sw_fig f;

		/* The shared-links schedule's two passes. */
		if ((w->pace.what == SW_RUN_LAT && !d.lat) ||
		    (w->pace.what == SW_RUN_BW && d.lat))
			continue;
		ret = e->measure(e, &d, &f);
		if (ret == 0 && d.lead && cxd_testaid_jitter)
			f.v = cxd_testaid_jitter(f.v, jitter_key(w, p, d.lat));
		if (ret == 0 && d.lead)
			keep(arg, step / 4, &d, &f);
	}
	return ret;
}

/* Results land in this rank's repeats for the links it led. */
static void keep_repeat(void *arg, uint64_t k, const struct sw_dir *d,
			const struct sw_fig *f)
{
	struct sw *w = arg;

	w->judge.rep[d->lat ? CXD_M_LAT : CXD_M_BW]
		    [(size_t) d->peer * w->repeat + k] = f->v;
}

void sw_measure_pair(struct sw *w, int p)
{
	uint64_t t0 = cxd_now_ns(), c0 = cxd_cpu_wait_ns(), c1;
	double was = w->judge.busy_row[p], now;

	if (sw_pair_runs(w, p, w->repeat, "peer", keep_repeat, w) != 0)
		sw_die(&w->m, "with rank %d (%s) in round %d: %s", p,
		       w->ranks[p].host, w->pace.round, w->eng->why(w->eng));
	c1 = cxd_cpu_wait_ns();
	now = c0 == UINT64_MAX || c1 == UINT64_MAX ? NAN :
	      (double) (c1 - c0) / (double) (cxd_now_ns() - t0);
	/* A pair met twice (latency, then bandwidth): its busier pass. */
	w->judge.busy_row[p] = cxd_judge_busier(was, now);
}

void sw_reset_rows(struct sw *w)
{
	size_t nk = (size_t) w->m.n * w->repeat;

	for (int i = 0; i < w->m.n; i++)
		w->judge.bw_row[i] = w->judge.lat_row[i] =
			w->judge.busy_row[i] = NAN;
	for (size_t k = 0; k < nk; k++)
		w->judge.rep[0][k] = w->judge.rep[1][k] = NAN;
}
