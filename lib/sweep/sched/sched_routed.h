/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The full sweep's bandwidth pass packed by routes (sched_routed.c):
 * every pair of n ranks into rounds where no rank is in two pairs and no
 * link line carries more pairs than its cables. A pair loads every link
 * line any of its ways may cross, whole: which of several equal ways it
 * takes is the fabric's hash, unknown here, and two pairs on one cable
 * would each measure half. The rounds are paced one after the other
 * (pace_mpi.c), so a round's pairs are all that load the links.
 *
 * The bound is what no packing can beat under that model: the busiest
 * link line's pairs over its cables, a rank's pairs, or all pairs over
 * those a round may hold. Rank 0 packs (the link lines are its own) and
 * hands each rank its steps (cxd_routed_steps).
 */
#ifndef CXD_SWEEP_SCHED_ROUTED_H
#define CXD_SWEEP_SCHED_ROUTED_H

#include <stddef.h>

#include "sweep/model/pairs.h"
#include "sweep/model/topo_types.h"

/* The most switch pairs times rounds packed (about 30 ns each): 1e9,
 * some 30 CPU s, near 3,000 ranks on a dragonfly of 8 switches a group
 * of 8 ranks (1,024: 3.4e7 and 1.6 s; 2,048: 2.7e8 and 13 s). */
#define CXD_ROUTED_WORK_MAX 1e9

struct cxd_routed {
	int nround;
	size_t npair;
	struct cxd_pair *pair; /* npair, in round order */
	int *round_at;         /* round r's pairs: pair[round_at[r] ..
				* round_at[r + 1]) */
	int bound;             /* rounds at least */
	int busiest;           /* the link line that bounds it; -1: a
				* rank's pairs or the pairs a round holds */
	/* How the pass ran, rank 0's clock (the pacing fills them in): its
	 * seconds, and the median round's longest pair, which ran with no
	 * other pair on its links. */
	double pass_s, pair_s;
};

/*
 * Every pair of the n ranks placed by tm (with link lines) packed, at
 * most `most` pairs a round. 0; -EINVAL: no link lines, a rank not
 * placed, most < 1; -ENOMEM; -E2BIG: too many ways (route.h), or more
 * work than CXD_ROUTED_WORK_MAX. Nothing held on error.
 */
int cxd_routed_build(int n, const struct cxd_topo_map *tm, int most,
		     struct cxd_routed *out);
void cxd_routed_free(struct cxd_routed *r);

/*
 * Each rank's steps of plan r, for handing out: count[k] the steps of
 * rank k (n of them), and into step (2 * npair pairs of ints, room
 * 4 * npair) for each rank in turn its steps as (round, partner) in
 * round order, rank k's from 2 * first[k] (first: n). 0 or -ENOMEM.
 */
int cxd_routed_steps(const struct cxd_routed *r, int n, int *count,
		     int *first, int *step);

#endif
