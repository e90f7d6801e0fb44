/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's retest plan, pure: the suspect pairs packed into rounds. */
#ifndef CXD_SWEEP_RETEST_H
#define CXD_SWEEP_RETEST_H

#include "sched.h"

/*
 * The retest rounds for np suspect pairs of n ranks, at most
 * pairs_at_once pairs each, into pl (a listed plan; cxd_sched_free
 * releases it): 0, or -ENOMEM. Each pair goes to the first round with
 * room after both its ranks' latest, near-linear in the pairs (a whole
 * fabric's worth at scale); tools/sweep/phases/retest_mpi.c paces it.
 */
int cxd_retest_plan(int n, int pairs_at_once, const struct cxd_pair *p,
		    int np, struct cxd_plan *pl);
/*
 * The same, alone per shared link: no two pairs of a round share a claim
 * (retest_claims.h: the links each may load, from every rank's switch
 * and group; group_of NULL: no groups, the switches are leaves), a pair
 * that claims every link has its round to itself but for pairs that
 * claim none, and each pair goes after its claims' latest too. The
 * rounds say nothing of time: the caller keeps them apart.
 */
int cxd_retest_plan_alone(int n, int pairs_at_once, const int *switch_of,
			  const int *group_of, const struct cxd_pair *p,
			  int np, struct cxd_plan *pl);

#endif
