/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_PACK_ROUNDS_H
#define CXD_SWEEP_PACK_ROUNDS_H

#include <stddef.h>

#include "sweep/model/pairs.h"

/*
 * What pairs load, for packing them in rounds (pack_rounds.c): pairs
 * fall in classes (the pairs between the same two switches cross the
 * same links), class c loading link x_link[e] by x_load[e] for e in
 * x_at[c] .. x_at[c + 1] (x_link < 0: a crossing that is no link, left
 * out); link l carries cap[l] in a round.
 */
struct cxd_pack {
	int n;                       /* ranks */
	int npair;
	const struct cxd_pair *pair; /* each pair's ranks */
	const int *cls;              /* each pair's class */
	const size_t *x_at;
	const int *x_link;
	const double *x_load;
	int ncls, nlink;
	const double *cap;
	int most;                    /* pairs a round at most, 0: no bound */
	/* Every `every` rounds the runs of one class (the order cut where
	 * the class changes) are put in order of the rounds their links
	 * still need (pack_rounds.c's need), most first, so that the links
	 * that bound the packing stay busy; 0: the order q as given. */
	int every;
};

/*
 * The pairs packed into rounds, first fit in the order q (npair pair
 * indices, reordered as it goes): round after round, every pair left
 * that fits joins it. A pair fits when neither rank is in the round
 * yet and each link it loads stays within its cap, or carries nothing
 * yet in the round (a pair alone on a link always runs, only slower).
 * ord gets the pair indices in round order, round_at each round's start
 * in ord and the end (room for npair + 1), *nround their number. The
 * shared rule of the covering plan's rounds (plan_cover_rounds.c) and
 * the routed main pass (sched_routed.c). 0 or -ENOMEM.
 */
int cxd_pack_rounds(const struct cxd_pack *pk, int *q, int *ord,
		    int *round_at, int *nround);

#endif
