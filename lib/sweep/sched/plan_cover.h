/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A verdict within a budget: the pairs to measure chosen from the
 * fabric's routes (plan_cover.c), not all n * (n - 1), so that every
 * component of the job is crossed for sure by k chosen pairs whose sure
 * crossings differ (a bad component is the one every bad pair shares),
 * those only ever crossed maybe (one of several equal spines) k times in
 * expectation; the pairs in rounds; what the plan cannot tell apart.
 * Pure: no MPI, no I/O. plan_cover_types.h has the plan.
 */
#ifndef CXD_SWEEP_PLAN_COVER_H
#define CXD_SWEEP_PLAN_COVER_H

#include "sweep/model/route.h"
#include "plan_cover_types.h"

/* The plan of n ranks placed by tm (with link lines), routed by rt
 * (cxd_routes_build of the same map and n); o may be NULL (k 2, no
 * limit). Deterministic: the same input, the same plan. 0; -EINVAL (no
 * link lines, a rank on no switch of the routes); -ENOMEM. On error p
 * holds nothing. */
int cxd_cover_plan_build(const struct cxd_topo_map *tm, int n,
			 const struct cxd_routes *rt,
			 const struct cxd_cover_opts *o,
			 struct cxd_cover_plan *p);
void cxd_cover_plan_free(struct cxd_cover_plan *p);
/* The component of that kind and ids (id2 -1 but for a bundle, whose
 * groups come in either order); -1 if the plan has none. */
int cxd_cover_find(const struct cxd_cover_plan *p, int kind, int id,
		   int id2);

#endif
