/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the retest of the flagged links (retest_mpi.c). */
#ifndef CXD_SWEEP_RETEST_MPI_H
#define CXD_SWEEP_RETEST_MPI_H

#include "judge_mpi.h"
#include "pace/pair.h"

/* Every rank: retest the flagged pairs once (all repeats again), paced
 * by the sweep's pacing p in the retest's own mode, and keep its flags
 * whose retest breaks a rule too; mt->fig then holds each link's latest
 * figures. Collective. */
void sw_retest(struct sw_judging *j, const struct sw_ctx *c,
	       const struct sw_pacing *p, struct sw_meter *mt);

#endif
