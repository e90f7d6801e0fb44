/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: the capacity pass (capacity_mpi.c over lib/sweep/capacity.c
 * and capacity_judge.c): after the main sweep is judged and gathered,
 * every bundle between groups, every switch's links inside its group and
 * every leaf's uplinks loaded with more pairs than they should carry,
 * and rank 0's judging of what they carried.
 */
#ifndef CXD_SWEEP_CAPACITY_MPI_H
#define CXD_SWEEP_CAPACITY_MPI_H

#include "sweep/capacity.h"
#include "engine.h"
#include "gather.h"
#include "judge_mpi.h"
#include "pace_mpi.h"
#include "pair.h"

/* The pass's plan (every rank) and rank 0's judging of it. */
struct sw_capacity {
	struct cxd_cap_plan plan;
	struct cxd_cap_res res;
};

/* Collective. Rank 0 decides whether it runs (res.why when not: no
 * --topology, --no-capacity, the whole fabric named, ...), from the
 * suspects and busy links it gathered (g) and the widths the topology
 * states (in); every rank runs the plan through engine e, paced in a mode
 * of its own (a round's pairs at once); rank 0 judges by j's rules and
 * adds a capacity suspect to g for each finding. */
void sw_capacity(struct sw_capacity *cap, const struct sw_ctx *c,
		 struct sw_engine *e, const struct sw_inputs *in,
		 const struct sw_judging *j, struct sw_gathered *g);
void sw_capacity_free(struct sw_capacity *cap);

#endif
