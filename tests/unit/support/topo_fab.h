/* SPDX-License-Identifier: BSD-3-Clause */
/* Test aid: the pieces of a fabric written by hand for the route, plan
 * and naming tests (test_route.c, test_plan_cover.c, test_budget_name.c):
 * a link line with its ends in order, and the map over the caller's
 * arrays. */
#ifndef CXD_TEST_TOPO_FAB_H
#define CXD_TEST_TOPO_FAB_H

#include "sweep/model/topo_types.h"

/* Link line number line (1-based) of count cables between a and b. */
static inline struct cxd_topo_link tfab_link(int a, int b, int count,
					     int line)
{
	return (struct cxd_topo_link){ a < b ? a : b, a < b ? b : a, count,
				       line };
}

/* ns switches, all holding ranks; ng groups (0: none, no switch_group). */
static inline struct cxd_topo_map tfab_map(const int *sof, const int *gof,
					   int ns, int ng, const int *sg,
					   const struct cxd_topo_link *l,
					   int nl, int route)
{
	return (struct cxd_topo_map){ .switch_of = sof, .group_of = gof,
		.nswitch = ns, .nswitch_all = ns, .ngroup = ng, .link = l,
		.nlink = nl, .switch_group = ng > 0 ? sg : NULL,
		.route = route };
}

#endif
