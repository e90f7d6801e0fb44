/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: latency over the routes (latfit_mpi.c over
 * lib/sweep/judge/judge_lat.c): after the retest, rank 0 gathers every
 * link's latency and CPU wait and fits each rank's excess from all pairs;
 * a rank beyond the run's own bound is a latency suspect, even where
 * none of its links broke the links' tolerance.
 */
#ifndef CXD_SWEEP_LATFIT_MPI_H
#define CXD_SWEEP_LATFIT_MPI_H

#include "sweep/judge/judge_lat.h"
#include "engine/context.h"
#include "judge_mpi.h"
#include "pace/measured.h"

/* Collective: the rows gathered when the fit can run (--topology, a
 * resolution that judges, at most CXD_LATFIT_MAX_RANKS); rank 0 fits by
 * j's rules (fit.state says why not). */
void sw_latfit(struct cxd_latfit *fit, const struct sw_ctx *c,
	       const struct sw_judging *j, const struct sw_measured *f);
/* Rank 0: the fit's suspects, for the report to list. */
struct cxd_sweep_suspects sw_latfit_suspects(const struct cxd_latfit *fit);

#endif
