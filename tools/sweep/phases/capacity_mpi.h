/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the capacity pass (capacity_mpi.c over lib/sweep/capacity/capacity.c
 * and capacity_judge.c): after the main sweep is judged and gathered,
 * every bundle between groups, every switch's links inside its group and
 * every leaf's uplinks loaded with more pairs than they should carry,
 * and rank 0's judging of what they carried.
 */
#ifndef CXD_SWEEP_CAPACITY_MPI_H
#define CXD_SWEEP_CAPACITY_MPI_H

#include "sweep/capacity/capacity.h"
#include "engine/engine.h"
#include "gather.h"
#include "judge_mpi.h"
#include "pace/pace_mpi.h"
#include "pace/pair.h"

/* The pass's plan (every rank) and rank 0's judging of it. */
struct sw_capacity {
	struct cxd_cap_plan plan;
	struct cxd_cap_res res;
	struct cxd_suspect *sus; /* rank 0: one per finding */
	size_t nsus;
};

/* What the pass may spend (rank 0's figures): left_s seconds
 * (INFINITY: no bound; --budget: what is left of it), a pair's
 * measurement about pair_s. */
struct sw_cap_time {
	double left_s, pair_s;
};

/* Collective. Rank 0 decides whether it runs (res.why when not: no
 * --topology, --no-capacity, the whole fabric named, its time foreseen
 * past t.left_s ...), from the suspects named before it (the gathering's,
 * or --budget's) and the widths the topology states (in); every rank runs
 * the plan through engine e, paced in a mode of its own (a round's pairs
 * at once); rank 0 judges by j's rules and names a capacity suspect for
 * each finding (in cap, not in named). */
void sw_capacity(struct sw_capacity *cap, const struct sw_ctx *c,
		 struct sw_engine *e, const struct sw_inputs *in,
		 const struct sw_judging *j, struct cxd_sweep_suspects named,
		 struct sw_cap_time t);
/* Rank 0: the result's capacity section (the pass's own result). */
void sw_capacity_report(const struct sw_capacity *cap,
			const struct cxd_cap_res **res);
/* Rank 0: the pass's suspects, for the report to list after the
 * gathering's. */
struct cxd_sweep_suspects sw_capacity_suspects(const struct sw_capacity *cap);
void sw_capacity_free(struct sw_capacity *cap);

#endif
