/* cxi_sweep's retest plan, pure: the suspect pairs packed into rounds. */
#ifndef CXD_SWEEP_RETEST_H
#define CXD_SWEEP_RETEST_H

#include "sched.h"

/*
 * The retest rounds for np suspect pairs of n ranks, at most
 * pairs_at_once pairs each, into pl (a listed plan; cxd_plan_free
 * releases it): 0, or -ENOMEM. tools/sweep/sweep_run.c's sw_retest_plan,
 * the same rounds in the same order.
 */
int cxd_plan_retest(int n, int pairs_at_once, const struct cxd_pair *p,
		    int np, struct cxd_plan *pl);

#endif
