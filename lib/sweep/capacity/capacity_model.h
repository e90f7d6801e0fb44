/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What each capacity unit should carry, from the routes (capacity_model.c;
 * issue 49): where --topology gives the fabric's links, a unit's pairs
 * cross its own links and others on their ways (a group's links to the
 * switch its bundle leaves from, a leaf's uplinks). Each pair is one
 * flow over one of its ways; the flows share each link max-min fairly
 * (as TCP flows and a fabric's credit flow control tend to), a link of
 * count c carrying c times its kind's rate, a flow at most the run's
 * typical pair. Which way a pair takes is the fabric's hash, unknown
 * here, so the model draws it (CXD_CAP_DRAWS times, by the ways' shares;
 * a switch pair's pairs alike under minimal routing, each pair on its
 * own under ecmp) and keeps what the unit carries in each draw (the
 * better of its repeats, as the pass keeps). The rate of each kind of
 * link is fitted to what the units it binds carried; a unit's expected
 * is a low draw (CXD_CAP_LOW_DRAW of them): what a healthy unit carries
 * unless its pairs met on few ways by rarer luck than that.
 */
#ifndef CXD_SWEEP_CAPACITY_MODEL_H
#define CXD_SWEEP_CAPACITY_MODEL_H

#include <stdbool.h>

#include "capacity.h"
#include "sweep/model/route.h"

enum cxd_cap_lkind { CXD_CAP_L_LOCAL, CXD_CAP_L_GLOBAL, CXD_CAP_L_UPLINK,
		     CXD_CAP_L_KINDS };

#define CXD_CAP_DRAWS 40
/* The draw a unit is expected to reach, counted from its lowest (0):
 * one in ten draws falls below it. */
#define CXD_CAP_LOW_DRAW 4

/* Rank 0's model: the fabric's routes, and which switches hold ranks. */
struct cxd_cap_model {
	const struct cxd_topo_map *tm;
	struct cxd_routes rt;
	bool *has;
	bool by_pair; /* ecmp: each pair hashed on its own */
};

/* From tm's link lines for n ranks. 0; -EINVAL (no link lines),
 * -ENOMEM, -E2BIG (routes). */
int cxd_cap_model_init(struct cxd_cap_model *m, const struct cxd_topo_map *tm,
		       int n);
void cxd_cap_model_free(struct cxd_cap_model *m);

/* One unit's draws: what it carries in each (sorted, ascending, into
 * tot[CXD_CAP_DRAWS]) at the rates per physical link of each kind (MB/s)
 * and pair_mb_s a pair; *kind: the kind of link that bound it most (-1:
 * its pairs' own rate). 0; -E2BIG: ways too long for the model. */
int cxd_cap_model_draws(const struct cxd_cap_model *m,
			const struct cxd_cap_unit *x, const double *rate,
			double pair_mb_s, double *tot, int *kind);

/* The model's parts (capacity_model.c): a link's kind, and whether a
 * way may carry a load (not over a link between groups to a switch
 * with no rank: a hash by destination sends nothing there). */
enum cxd_cap_lkind cxd_cap_link_kind(const struct cxd_topo_map *tm, int l);
bool cxd_cap_way_usable(const struct cxd_way *w, const struct cxd_topo_map *tm,
			const struct cxd_routes *rt, const bool *has);

/* Each kind's rate per physical link, MB/s, fitted to the units'
 * carried figures (a kind that binds no unit keeps a pair's rate), or
 * held at fixed[k] where that is a rate (fixed NULL: none), then each
 * unit's expected: its low draw, at most pair_mb_s a pair. rate:
 * CXD_CAP_L_KINDS out. 0; -ENOMEM. */
int cxd_cap_model_expect(struct cxd_cap_plan *pl,
			 const struct cxd_cap_model *m, double pair_mb_s,
			 const double *fixed, double *rate);
/* The stated widths of pl's classes as rates per physical link
 * (capacity_stated.c): a kind's width in pairs (of its class's pair,
 * else pair_mb_s) over the median count of cables one connection of
 * that kind holds (a switch pair's line, a group pair's bundle, a
 * leaf's uplinks); NAN where not stated. A fitted rate would take a
 * lone bundle's shortfall for its rate; these are the site's word.
 * fixed: CXD_CAP_L_KINDS out. 0; -ENOMEM. */
int cxd_cap_stated_rates(const struct cxd_topo_map *tm,
			 const struct cxd_cap_plan *pl, double pair_mb_s,
			 double *fixed);

#endif
