/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_SCHED_CIRCLE_H
#define CXD_SWEEP_SCHED_CIRCLE_H

#include "sched_types.h"

/* The circle rounds (sched_circle.c), each cut into rounds of at most
 * per pairs, which every rank computes for itself (its own steps only:
 * no rank holds them all). */
extern const struct cxd_sched_ops cxd_sched_circle_ops;

/* The circle rounds for n ranks cut to pairs_at_once pairs per round
 * (--max-pairs, or fewer when ranks outnumber a host's CPUs): 0, or
 * -ENOMEM (cxd_sched_free releases it). */
int cxd_sched_main(int n, int pairs_at_once, struct cxd_plan *pl);
/* The pairs a cut round holds at most. */
int cxd_sched_per(const struct cxd_plan *pl);
/* The same plan listed (rank 0, for --json's rounds): 0, -ENOMEM, or
 * -EINVAL when in is not a circle plan. */
int cxd_sched_list(int n, const struct cxd_plan *in, struct cxd_plan *out);

#endif
