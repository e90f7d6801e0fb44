/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the whole all-pairs sweep (the mode sweep.c picks when not
 * --health or --congestion). A file of its own: it calls the bootstrap,
 * the pacing and the judging, and the judging's retests call back into
 * the pacing, so beside either it would close a loop of files. */
#include <stdlib.h>

#include "sweep/sched.h"

#include "health.h"
#include "sweep_mpi.h"

/*
 * The shared-links schedule, when --topology places the ranks and more
 * than one pair runs at once: on a tapered fabric the pairs of a round
 * that cross between the same two groups (or leaf switches, without
 * groups) share that pair's few links, and each would measure its share
 * rather than its own link. Latency (8-byte messages, which load no
 * link) runs in full rounds; bandwidth then runs with one pair per
 * domain pair at a time, dealt into slots (cxd_sched_dealt) or in the
 * same rounds chained (cxd_sched_keys). Returns the domains, or NULL
 * for plain rounds.
 */
static const int *shared_links(struct sw *w, struct cxd_topo_map *tm)
{
	char *why = w->pace.schedule;
	size_t len = sizeof(w->pace.schedule);
	/* %s: the units (groups or switches) */
	static const char *const undealt_words[] = {
		"dealt into slots",
		"in chained rounds (not dealt: fewer pairs at once than a "
		"round)",
		"in chained rounds (not dealt: some ranks are not placed)",
		"in chained rounds (not dealt: more %s than ranks in the "
		"largest)",
		"in chained rounds",
	};
	char how[128];
	const char *unit;
	const int *dom;
	int nd;

	sw_share_topo(w, tm);
	if (w->pace.pairs_at_once < 2) {
		snprintf(why, len, "rounds: one pair at a time");
		return NULL;
	}
	if (tm->switch_of == NULL) {
		snprintf(why, len, "rounds: every pair of a round at once (no "
			 "--topology: which pairs share links is not known)");
		return NULL;
	}
	dom = tm->ngroup > 0 ? tm->group_of : tm->switch_of;
	unit = tm->ngroup > 0 ? "group" : "switch";
	nd = cxd_sched_ndom(w->m.n, dom);
	/* One domain shares nothing; too many are not tracked
	 * (cxd_sched_keys' bound). */
	if (nd < 2 || (size_t) nd * (size_t) (nd - 1) / 2 >
		      CXD_SCHED_KEYS_MAX) {
		snprintf(why, len, "rounds: every pair of a round at once "
			 "(--topology places the ranks in %d %s%s%s)", nd,
			 unit, nd == 1 ? "" : tm->ngroup > 0 ? "s" : "es",
			 nd == 1 ? "" : ", too many to track");
		return NULL;
	}
	snprintf(how, sizeof(how), undealt_words[cxd_sched_undealt(
		 w->m.n, dom, w->pace.pairs_at_once)],
		 tm->ngroup > 0 ? "groups" : "switches");
	snprintf(why, len, "shared links: latency in full rounds, then "
		 "bandwidth with one pair at a time per %s pair, %s, as "
		 "--topology places the ranks in %d %s%s", unit, how, nd, unit,
		 tm->ngroup > 0 ? "s" : "es");
	return dom;
}

/* The whole sweep: rounds, then the verdict; rank 0's exit status. */
int sw_run(struct sw *w)
{
	size_t nk = (size_t) w->m.n * w->repeat;
	uint64_t t0 = cxd_now_ns();
	struct cxd_plan pl;
	struct cxd_topo_map tm;
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
	pl = cxd_sched_main(w->m.n, w->pace.pairs_at_once);
	w->pace.round_s = sw_alloc(&w->m, (size_t) pl.nrounds, sizeof(double));
	w->pace.shared = shared_links(w, &tm);
	sw_pace_plan(w, &pl, w->pace.shared, SW_RUN_BOTH,
		     w->pace.round_s);
	/* Whichever schedule ran: with the shared-links one it checks that
	 * the domains given were the links shared (a fat tree's leaf
	 * uplinks are shared by pairs to different leaves). */
	if (w->pace.pairs_at_once > 1 && !w->pace.coord_only)
		sw_calibrate(w);
	ret = sw_verdict(w, &pl, t0);
	w->pace.shared = NULL;
	free((void *) tm.switch_of);
	free((void *) tm.group_of);
	cxd_sched_free(&pl);
	return ret;
}
