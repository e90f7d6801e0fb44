/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's retest, each rank's part (retest_steps.c), pure: rank 0
 * plans the retest and each rank receives only its own steps, so no rank
 * but rank 0 holds the plan (a whole fabric's worth of pairs at scale).
 */
#ifndef CXD_SWEEP_RETEST_STEPS_H
#define CXD_SWEEP_RETEST_STEPS_H

#include <stdbool.h>

#include "sched_types.h"

/* A step as sent to its rank: struct cxd_step without the shared-links
 * chains, which a retest never has. */
struct cxd_retest_step {
	int round, partner;
	int prev, next; /* slot tokens as the holder, -1: none */
};

/*
 * Every rank's steps through listed plan pl, rank by rank: rank r's
 * cnt[r] steps at step + disp[r], in the order and with the slot tokens
 * that cxd_sched_steps gives it (chain: cxd_sched_chain's answer). step
 * has room for two per pair of pl. One pass over the plan: 0, or
 * -ENOMEM.
 */
int cxd_retest_steps(int n, bool chain, const struct cxd_plan *pl,
		      int *cnt, int *disp, struct cxd_retest_step *step);
/* A received step as the pacing walks it. */
struct cxd_step cxd_retest_step_of(struct cxd_retest_step s);

#endif
