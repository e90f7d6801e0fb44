/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's sweep mode: the run that holds every part's state (run.c
 * makes it and calls the phases), and rank 0's report of it
 * (run_report.c).
 */
#ifndef CXD_SWEEP_RUN_STATE_H
#define CXD_SWEEP_RUN_STATE_H

#include <stdint.h>

#include "base/progress_rounds.h"
#include "sweep/result/out_types.h"
#include "sweep/sched/sched.h"
#include "budget_mpi.h"
#include "capacity_mpi.h"
#include "engine/context.h"
#include "engine/engine.h"
#include "gather.h"
#include "judge_mpi.h"
#include "latfit_mpi.h"
#include "pace/measured.h"
#include "outputs.h"
#include "pace/pace_mpi.h"
#include "pace/pair.h"

/* One sweep on this rank: the parts' state, each owned by its part. */
struct sw {
	const struct sw_ctx *c;
	struct sw_engine *eng;
	struct sw_inputs *in;      /* rank 0's --baseline, --topology */
	struct cxd_plan plan;      /* the main plan */
	struct sw_pacing pace;
	struct sw_measured fig;
	struct sw_meter meter;     /* a pair's runs into fig */
	struct sw_calib crowd;     /* rank 0: the calibration's ratios */
	struct sw_judging judge;
	struct sw_gathered seen;   /* rank 0: the whole run's view */
	struct sw_capacity cap;    /* the capacity pass */
	struct sw_budget bud;      /* --budget's plan and naming */
	struct cxd_latfit lat;     /* rank 0: latency over the routes */
	struct sw_outputs out;
	uint64_t t0;
	/* Rank 0's progress line (c->m.line points here while it may be
	 * drawn) and the phases it counts (bits of run.c's enum). */
	struct cxd_rprog line;
	unsigned phases;
};

/* Rank 0's report of the run (run_report.c): the result the writers
 * read, and what it points to that the run does not hold. */
struct sw_report {
	struct cxd_sweep_res r;
	const char **moved;
	struct cxd_suspect *sus;   /* the parts' suspects, merged */
	struct cxd_plan listed;
	struct cxd_budget_res budget; /* --budget's section */
};

/* Rank 0: the result from every part, its verdict, the text on stdout;
 * returns the verdict's exit status. */
int sw_report(const struct sw *w, struct sw_report *rep);
void sw_report_free(struct sw_report *rep);

#endif
