/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_SCHED_MINE_H
#define CXD_SWEEP_SCHED_MINE_H

#include "sched_types.h"

/*
 * A plan of one rank's own steps (sched_mine.c): the routed pass's
 * (sched_routed.h), which rank 0 packs and hands out, so no rank holds
 * every pair. Each of its nrounds rounds is a part of its own, paced to
 * its end before the next (its pairs load links the next round's would
 * too); a part holds this rank's step of that round, or none.
 */
extern const struct cxd_sched_ops cxd_sched_mine_ops;

/* The plan of nrounds rounds with this rank's nstep steps, step[2i] its
 * round (rising) and step[2i + 1] the partner: 0, or -ENOMEM with
 * nothing held. */
int cxd_sched_mine(struct cxd_plan *pl, int nrounds, const int *step,
		   int nstep);

#endif
