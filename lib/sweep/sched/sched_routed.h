/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_SCHED_ROUTED_H
#define CXD_SWEEP_SCHED_ROUTED_H

#include "sweep/model/route.h"
#include "sched_types.h"

/* What the routed plan's sentence says: its rounds against the model's
 * bound, and the link line that sets the bound. */
struct cxd_routed_facts {
	int rounds;   /* the plan's */
	/* The fewest rounds any plan could take: every rank meets every
	 * other (n - 1, n when odd), and the busiest link line carries
	 * `load` pairs (its ways' shares) at `cap` at once. */
	int bound;
	int busiest;  /* that line's index in the map, -1: the ranks bind */
	double load, cap;
	/* The same with every way of a pair counted full, as the plan
	 * counts them: the fewest rounds the rule allows. */
	int full;
};

/*
 * The routed main pass (sched_routed.c), built where the link lines are
 * known (rank 0): every pair of the n ranks once, as a listed plan
 * (sched_listed.h) of rounds in which no rank is twice, at most `most`
 * pairs (0: no bound), and no link line carries more pairs than its cap
 * (routed_load.h: its cables times a cable's share of its kind's width,
 * width[] by enum cxd_topo_wkind, 0 unknown), each pair counted on every
 * link of every way it may take. Pairs go switch pair by switch pair,
 * those whose links need the most rounds first, reordered as the links
 * fill (pack_rounds.h's every), so that the links that bound the pass
 * are kept busy from the first round. Each round is to be
 * paced to its end before the next (a pair of the next would add to
 * links the round still loads). 0; -EDOM: a rank not placed; -ENOMEM.
 */
int cxd_sched_routed(const struct cxd_topo_map *tm,
		     const struct cxd_routes *rt, int n, const int *width,
		     int most, struct cxd_plan *pl, struct cxd_routed_facts *f);

#endif
