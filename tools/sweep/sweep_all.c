/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the whole all-pairs sweep (the mode sweep.c picks when not
 * --health or --congestion). A file of its own: it calls the bootstrap,
 * the pacing and the judging, and the judging's retests call back into
 * the pacing, so beside either it would close a loop of files. */
#include <stdlib.h>

#include "health.h"
#include "sweep_mpi.h"

/* The whole sweep: rounds, then the verdict; rank 0's exit status. */
int sw_run(struct sw *w)
{
	size_t nk = (size_t) w->m.n * w->repeat;
	uint64_t t0 = cxd_now_ns();
	struct cxd_plan pl;
	int ret;

	if (w->m.n < 2)
		sw_die(&w->m,
		       "a sweep needs at least 2 ranks (mpirun -np N, N >= 2)");
	if (sw_bootstrap(w) != 0)
		return CXD_EXIT_USAGE; /* rank 0 has said why */
	ret = sw_place_ranks(w);
	if (ret == 0)
		ret = sw_matrix_open(w);
	if (ret)
		return ret;
	sw_counters_begin(w); /* link errors around the sweep: evidence */
	w->judge.bw_row = sw_alloc(&w->m, (size_t) w->m.n, sizeof(double));
	w->judge.lat_row = sw_alloc(&w->m, (size_t) w->m.n, sizeof(double));
	w->judge.busy_row = sw_alloc(&w->m, (size_t) w->m.n, sizeof(double));
	w->judge.rep[0] = sw_alloc(&w->m, nk, sizeof(double));
	w->judge.rep[1] = sw_alloc(&w->m, nk, sizeof(double));
	w->judge.spread[0] = sw_alloc(&w->m, (size_t) w->m.n, sizeof(double));
	w->judge.spread[1] = sw_alloc(&w->m, (size_t) w->m.n, sizeof(double));
	sw_reset_rows(w);
	pl = cxd_plan_main(w->m.n, w->pace.pairs_at_once);
	w->pace.round_s = sw_alloc(&w->m, (size_t) pl.nrounds, sizeof(double));
	sw_pace(w, &pl, sw_measure_pair, w->pace.round_s);
	ret = sw_verdict(w, &pl, t0);
	cxd_plan_free(&pl);
	return ret;
}
