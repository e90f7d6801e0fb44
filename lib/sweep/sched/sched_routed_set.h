/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the routed packing works on (sched_routed_set.c, for
 * sched_routed.c only): the ranks by switch, the switch pairs that hold
 * pairs, the link lines each may cross (the union of its ways), their
 * pairs left, and what is left on each link line and rank.
 */
#ifndef CXD_SWEEP_SCHED_ROUTED_SET_H
#define CXD_SWEEP_SCHED_ROUTED_SET_H

#include <stddef.h>

#include "sweep/model/pairs.h"
#include "sweep/model/topo_types.h"

struct cxd_routed_set {
	int n, ns, nlink;
	const int *sw;          /* each rank's switch (the map's) */
	int *rs_at, *rs;        /* switch k's ranks: rs[rs_at[k] ..] */
	int nsp;                /* switch pairs a <= b holding a pair */
	int *spa, *spb;
	size_t *lk_at;          /* sp's link lines: lk[lk_at[sp] ..] */
	int *lk;
	size_t *pr_at;          /* sp's pairs left: pr[pr_at[sp] ..], */
	struct cxd_pair *pr;    /* left[sp] of them */
	int *left;
	size_t npair;
	int *cables;            /* each link line's count */
	long *lrem;             /* each link line's pairs left to cross it */
	int *rrem;              /* each rank's pairs left */
	int *order, nlive;      /* the switch pairs with pairs left, the
				 * most pressed first */
};

/* The set for every pair of n ranks on tm: 0, -EINVAL (no link lines,
 * a rank not placed), -ENOMEM or -E2BIG (route.h); nothing held on
 * error. */
int cxd_routed_set_make(int n, const struct cxd_topo_map *tm,
			struct cxd_routed_set *s);
void cxd_routed_set_free(struct cxd_routed_set *s);
/* The fewest rounds any packing needs, and the link line that says so
 * (-1: a rank's pairs, or the pairs over most a round). */
void cxd_routed_set_bound(const struct cxd_routed_set *s, int most,
			  int *bound, int *busiest);
/* The switch pairs with pairs left ordered by the rounds their busiest
 * link line or rank still needs, the most first: 0 or -ENOMEM. */
int cxd_routed_set_weigh(struct cxd_routed_set *s);

#endif
