/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_SCHED_LISTED_H
#define CXD_SWEEP_SCHED_LISTED_H

#include "sched_types.h"

/*
 * The listed plan (sched_listed.c): its rounds written out, round r's
 * count[r] pairs at pairs + first[r]. Who lists them fills them in (the
 * retest's packing, retest.c; the circle's rounds for --json,
 * sched_circle.c), so this kind's state is open to its makers.
 */
struct cxd_sched_list {
	int *count, *first;
	struct cxd_pair *pairs;
};

extern const struct cxd_sched_ops cxd_sched_listed_ops;

/* Room for a plan of nrounds rounds and npairs pairs, zeroed: 0, or
 * -ENOMEM with nothing held. */
int cxd_sched_alloc(struct cxd_plan *pl, int nrounds, size_t npairs);
/* Plan pl's rounds when it is listed, else NULL. */
struct cxd_sched_list *cxd_sched_listed(const struct cxd_plan *pl);

#endif
