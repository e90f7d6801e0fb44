/* SPDX-License-Identifier: BSD-3-Clause */
/* The plans and steps every schedule makes and walks (sched.h,
 * sched_circle.h, sched_listed.h, sched_keys.h, sched_dealt.h). */
#ifndef CXD_SWEEP_SCHED_TYPES_H
#define CXD_SWEEP_SCHED_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/model/pairs.h"

/* One round a rank is in: its partner, and as the slot's holder (the
 * pair's lower rank) whom it waits for and whom it tells when done. */
struct cxd_step {
	int round, partner;
	int prev, next; /* holders of the slot's neighbours, -1: none */
	/* The same for the chain of the pairs that share this pair's
	 * links (cxd_sched_keys), -1: none. */
	int kprev, knext;
};

/* What a kind builds a plan from; each reads its own fields (the
 * rest zero). */
struct cxd_sched_spec {
	int n, pairs_at_once;
	int nrounds;            /* listed: rounds and pairs to make room */
	size_t npairs;          /* for (retest.c fills them) */
	const int *dom;         /* dealt: each rank's domain */
	const int *grp;         /* dealt: each domain's super, NULL: one */
	int cap;                /* dealt: a domain's pairs a part, 0: all */
	bool no_own;            /* dealt: the pairs within a domain left out */
};

/* Who walks a plan: rank `rank` of n, pairs_at_once bounding a listed
 * round, part (1..cxd_sched_parts) alone or 0 for every part. The part is
 * the pacing's loop counter, so it is passed, not kept in the plan. */
struct cxd_sched_at {
	int n, rank, pairs_at_once, part;
};

struct cxd_plan;
/* A pair of a plan, in the plan's order (cxd_sched_keys' walk). */
typedef void cxd_sched_pair_fn(void *arg, const struct cxd_pair *p);

/*
 * One kind of plan, a row each (sched_circle.c, sched_listed.c,
 * sched_dealt.c): a new kind is a new file with its row, and its state
 * stays in that file. build: 0, -ENOMEM or -EDOM (the spec is not one this
 * kind can make: a dealt plan that would not pay), nothing held on error.
 */
struct cxd_sched_ops {
	const char *name;
	/* The plan is every pair of the sweep, so a dealt plan may stand in
	 * for its bandwidth pass (pace_mpi.c). */
	bool sweep;
	int (*build)(const struct cxd_sched_spec *sp, struct cxd_plan *pl);
	int (*room)(int n, const struct cxd_plan *pl); /* steps at most */
	int (*steps)(const struct cxd_sched_at *at, const struct cxd_plan *pl,
		     struct cxd_step *step);
	/* The parts paced one by one; NULL: the plan is one part. */
	int (*parts)(const struct cxd_plan *pl);
	/* Every pair in plan order; NULL: the kind chains its own pairs
	 * (no keys are laid over it). 0 or -ENOMEM. */
	int (*each)(int n, const struct cxd_plan *pl, cxd_sched_pair_fn *fn,
		    void *arg);
	/* Its free (not named free: the simulator's build makes free a
	 * macro). */
	void (*release)(struct cxd_plan *pl);
};

/* A plan of some kind: its row, its rounds, and its kind's own state
 * (only the kind's file reads it). A zero plan holds nothing. */
struct cxd_plan {
	const struct cxd_sched_ops *ops;
	int nrounds;
	void *st;
};

#endif
