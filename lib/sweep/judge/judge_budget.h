/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget: the suspects named from a covering plan's classes
 * (judge_budget.c), and the result's budget section the writers read.
 *
 * Each measured pair of the plan is good, bad (a confirmed outlier in
 * the metric) or not judged. A class is cleared when a good pair
 * crosses it for sure (a bad component makes every pair crossing it
 * for sure bad) and ran as fast as its fastest pairs (bandwidth, with
 * the pairs' speeds: struct cxd_budget_speed). (A pair on one switch
 * crosses no switch in the plan: a slow switch shows on the traffic to
 * and from its links, as the sweep's switch suspects mean.)
 * Among the classes not cleared, the one that explains the most bad
 * pairs (they cross it for sure) is named, the most
 * specific (fewest pairs crossing it) first; classes that explain the
 * very same bad pairs and are as specific are named together, as
 * components that cannot be told apart: no choice by rank order. A bad
 * pair left that a named class's component may carry (one of its ways
 * crosses it) is explained maybe and weighs no more: the fewest
 * components that explain the outcome are named. Then the next, until
 * no class explains a bad pair left; the rest are unexplained.
 */
#ifndef CXD_SWEEP_JUDGE_BUDGET_H
#define CXD_SWEEP_JUDGE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/sched/plan_cover_types.h"
#include "suspect_types.h"

/* A plan pair's outcome in one metric. */
enum cxd_budget_outcome {
	CXD_BO_UNMEASURED, /* not measured (the run stopped short) */
	CXD_BO_GOOD,
	CXD_BO_BAD,        /* a confirmed outlier */
	CXD_BO_UNJUDGED,   /* its retest ran while a CPU was busy */
};

/* What the naming of one metric explained. */
struct cxd_budget_named {
	int nbad;         /* bad pairs */
	int nsure;        /* crossing a named component for sure */
	int nmaybe;       /* only maybe (one of their ways) */
	int nunexplained; /* neither */
};

/* Bandwidth: what each plan pair should run at (its class's typical
 * link: on one switch, within a group, across groups) and the bound a
 * good pair ran above (1 - the tolerance). A pair runs at its narrowest
 * link's rate: one between groups at its global cable's, often under a
 * node link's. Good, it says only that its NICs, switches and the links
 * inside its groups carry that much, so it clears a component only
 * where it ran as fast as the fastest of the plan's pairs crossing it
 * (within the bound): a NIC slowed to three quarters of a node link is
 * cleared by a pair on its switch, not by one across groups. */
struct cxd_budget_speed {
	const double *of_pair; /* p->npair, MB/s; NAN: unknown, it clears */
	double bound;
};

/* The plan pairs' outcomes (p->npair each) in metric m named into out
 * (cap suspects at most); tm: the placement with its link lines (a
 * link's switches), NULL for a plan of NICs only; sp: NULL, or the
 * pairs' speeds (bandwidth). Returns the suspects' count, or -ENOMEM;
 * st gets the counts. */
int cxd_judge_budget_name(const struct cxd_cover_plan *p,
			  const struct cxd_topo_map *tm,
			  const unsigned char *outcome, enum cxd_metric m,
			  const struct cxd_budget_speed *sp,
			  struct cxd_suspect *out, size_t cap,
			  struct cxd_budget_named *st);

/* The suspect kind of a plan component's kind. */
enum cxd_suspect_kind cxd_judge_budget_kind(int cover_kind);
/* A plan component as a suspect's kind, id and id2 (a link: its two
 * switches). */
void cxd_judge_budget_ids(const struct cxd_cover_plan *p,
			  const struct cxd_topo_map *tm, int comp,
			  struct cxd_alike *a);

/* The result's budget section (out_types.h), rank 0's: the plan as run,
 * the time against the budget, what the naming explained. */
struct cxd_budget_res {
	const struct cxd_cover_plan *plan;
	bool ring;          /* no link lines: ring shifts, NICs only */
	const char *why;    /* ring: why not a covering plan (a literal) */
	int shifts;         /* ring: the shifts run */
	int slots;          /* the rounds cut to the pairs at once */
	double budget_s;    /* --budget */
	double pair_s;      /* one pair's measurement, probed */
	double estimate_s;  /* the run's time foreseen, before the plan */
	double taken_s;     /* the run's time at the report */
	struct cxd_budget_named named[2]; /* per metric */
};

#endif
