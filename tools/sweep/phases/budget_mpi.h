/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget SECONDS: a verdict from a covering plan's pairs,
 * not every pair (docs/sweep.md, "Within a time budget").
 *
 * budget_mpi.c: rank 0 plans from --topology's link lines
 * (lib/sweep/sched/plan_cover.h, k 2) or, without them, ring shifts
 * (plan_ring.h: NICs only); one pair of the plan is measured to time
 * it, and the plan's time is foreseen before it runs: over the budget,
 * every rank leaves with 2 and rank 0 says what budget the plan needs.
 * Then the plan's rounds, one after the other (a round's pairs at once,
 * the hosts' pairs at a time), each ended by the pacing's barrier: the
 * plan keeps each round's links within their counts, not two rounds'
 * (the ring's, whose routes are unknown, take turns by switch pair where
 * --topology places the ranks).
 * budget_name_mpi.c: after the judging and the retest, rank 0 gathers
 * every confirmed outlier's pair and names the plan's classes
 * (lib/sweep/judge/judge_budget.h); the result's budget section.
 */
#ifndef CXD_SWEEP_BUDGET_MPI_H
#define CXD_SWEEP_BUDGET_MPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sweep/judge/judge_budget.h"
#include "sweep/judge/suspect_types.h"
#include "sweep/sched/sched.h"
#include "engine/context.h"
#include "judge_mpi.h"
#include "pace/pace_mpi.h"
#include "pace/pair.h"

/* Ring shifts at most: each NIC meets 16 partners then, enough for its
 * own median to stand out; more buys no localization (NICs only). */
#define SW_BUDGET_RING_MAX 8

struct sw_budget {
	/* Every rank: the plan's pairs in rounds (rank 0's is the whole
	 * plan: components, classes), this rank's partners in it. */
	struct cxd_cover_plan plan;
	unsigned char *partner;    /* n: this rank meets that one */
	bool ring;                 /* ring shifts: no routes known */
	double *round_s;           /* rank 0: each round's time */
	struct cxd_plan listed;    /* rank 0: the rounds, for the report */
	struct cxd_budget_res res; /* rank 0 */
	struct cxd_suspect *sus;   /* rank 0: the named classes */
	size_t nsus;
};

/* --budget's options: 0, or -EINVAL with err naming the option that
 * does not go with it. */
int sw_budget_check(const struct sw_ctx *c, char *err, size_t len);
bool sw_budget_on(const struct sw_ctx *c);

/* The plan made, one pair timed, the plan's time foreseen from t0 (the
 * run's start): 0 on every rank, or CXD_EXIT_USAGE on every rank when
 * it exceeds the budget (rank 0 says so). mt: where the timing pair's
 * figures go (forgotten after). Collective. */
int sw_budget_plan(struct sw_budget *b, const struct sw_ctx *c,
		   const struct sw_pacing *p, struct sw_meter *mt,
		   uint64_t t0);
/* The plan's rounds measured into mt, p's pairs at a time (the ring's,
 * whose routes are unknown, taking turns by switch pair; the foresight
 * counted them). Collective. */
void sw_budget_measure(struct sw_budget *b, const struct sw_ctx *c,
		       const struct sw_pacing *p, struct sw_meter *mt);
/* After the retest: rank 0 names the classes from every rank's
 * confirmed outliers. Collective. */
void sw_budget_name(struct sw_budget *b, const struct sw_ctx *c,
		    const struct sw_judging *j);
/* Rank 0: the result's budget section into out, its time taken since
 * t0. */
void sw_budget_report(const struct sw_budget *b, uint64_t t0,
		      struct cxd_budget_res *out);
/* Rank 0: the suspects named, for the report. */
struct cxd_sweep_suspects sw_budget_suspects(const struct sw_budget *b);
void sw_budget_free(struct sw_budget *b);

#endif
