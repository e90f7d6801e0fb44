/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every pair's ways over the fabric's links (route.c), from the link
 * lines and the route rule of --topology (topo_types.h): for two switches
 * carrying ranks, the shortest ways a pair between them may take, each
 * with the share of such pairs it carries. Which of several equal ways a
 * pair takes is the fabric's hash, unknown here: they share evenly, the
 * links between the same two groups by their count of physical links.
 *
 *   minimal  inside a group: its shortest ways over the group's own
 *            links; between groups: to a switch holding a link to the
 *            other group, that link, on to the destination (one link
 *            between groups, as a dragonfly's minimal routing takes)
 *   ecmp     the shortest ways over all links (a fat tree's spines)
 */
#ifndef CXD_SWEEP_ROUTE_H
#define CXD_SWEEP_ROUTE_H

#include <stddef.h>

#include "topo_types.h"

/* Most ways between two switches; a fabric with more is refused
 * (-E2BIG), not cut short: shares that do not add up would accuse
 * the wrong links. */
#define CXD_ROUTE_MAX_WAYS 256

struct cxd_way {
	size_t first; /* its links: hop[first .. first + len) */
	int len;
	double share; /* of the pairs between its two switches */
};

struct cxd_routes {
	int ns;
	size_t *at; /* ns * ns + 1: ways of a < b from at[a*ns+b] to the next */
	struct cxd_way *way;
	size_t nway, wcap;
	int *hop; /* link indices into the map's link lines */
	size_t nhop, hcap;
};

/* The ways between every two switches that carry one of the n ranks.
 * 0; -EINVAL: the map has no links; -ENOMEM; -E2BIG: more ways between
 * two switches than CXD_ROUTE_MAX_WAYS. Two switches no way joins get
 * none (the topology reader refuses such files). */
int cxd_routes_build(const struct cxd_topo_map *tm, int n,
		     struct cxd_routes *r);
void cxd_routes_free(struct cxd_routes *r);
/* The ways between switches a and b (either order); *n their count. */
const struct cxd_way *cxd_routes_ways(const struct cxd_routes *r, int a,
				      int b, size_t *n);

#endif
