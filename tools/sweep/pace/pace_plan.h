/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: a plan's pairs paced by the schedule chosen (pace_plan.c). */
#ifndef CXD_SWEEP_PACE_PLAN_H
#define CXD_SWEEP_PACE_PLAN_H

#include "pace_mpi.h"

/* Plan pl's pairs measured for m->what, m->pairs_at_once at once: both
 * metrics together, or on shared links (p->shared) latency in full
 * rounds, then bandwidth one pair per domain pair at a time (the turns
 * are p's: m->key_dom is NULL), or the whole sweep's routed (p->routed,
 * rank 0's); secs as sw_pace's, the two passes added. */
void sw_pace_plan(const struct sw_ctx *c, const struct sw_pacing *p,
		  const struct sw_pace_mode *m, const struct cxd_plan *pl,
		  sw_measure_fn *measure, void *arg, double *secs);

#endif
