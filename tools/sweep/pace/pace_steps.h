/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Plans that only rank 0 holds (pace_steps.c): the retest's, the routed
 * main pass's. Rank 0 makes every rank's steps and sends each its own
 * (a whole fabric's list on every rank was 6.9 GB at 1,024 simulated
 * ranks, which share one process); a rank then paces its steps, every
 * round alone where a round's pairs may not share links with the next.
 */
#ifndef CXD_SWEEP_PACE_STEPS_H
#define CXD_SWEEP_PACE_STEPS_H

#include <stdbool.h>

#include "sweep/sched/retest_steps.h"
#include "pace_mpi.h"

/* This rank's part of a plan rank 0 holds: the plan's size (every
 * rank) and its own steps. */
struct sw_steps {
	int np, nrounds;
	struct cxd_retest_step *step;
	int nsteps;
};

/* Each rank's steps of rank 0's listed plan pl (np: rank 0's count of
 * its pairs, set before), to that rank alone; chain: slot tokens
 * linked (cxd_sched_chain's answer, false when rounds go alone). Every
 * rank calls it; st->np and nrounds then hold rank 0's on every rank. */
void sw_steps_deal(const struct sw_ctx *c, bool chain,
		   const struct cxd_plan *pl, struct sw_steps *st);
/*
 * The steps paced one round at a time, in mode m: pairs of two rounds
 * may share a link, and the pacing's tokens would let a round start
 * while the one before still runs, so each round is paced on its own
 * (its pair's partners swap a hello first: after a barrier they leave
 * it at different times, and a pair measured without one times its
 * partner's late start) and ends in the pacing's barrier. measure(arg)
 * as sw_pace's.
 */
void sw_steps_alone(const struct sw_ctx *c, const struct sw_pace_mode *m,
		    const struct sw_steps *st, sw_measure_fn *measure,
		    void *arg);
void sw_steps_free(struct sw_steps *st);

#endif
