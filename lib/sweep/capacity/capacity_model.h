/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What each capacity unit should carry, from the routes (capacity_model.c;
 * issue 49): where --topology gives the fabric's links, a unit's pairs
 * cross its own links and others on their ways (a group's links to the
 * switch its bundle leaves from, a leaf's uplinks). For each unit and
 * repeat, and each kind of link (inside a group, between groups, a
 * leaf's uplink), m: the fewest physical links' worth its pairs share
 * on one link of that kind (a link of count c carrying a share phi of
 * the pairs gives at most c / phi links' worth to the whole load). With
 * a rate per physical link of each kind, R_k, the unit carries at most
 * the least of R_k x m_k and its pairs' own rate.
 */
#ifndef CXD_SWEEP_CAPACITY_MODEL_H
#define CXD_SWEEP_CAPACITY_MODEL_H

#include "capacity.h"

enum cxd_cap_lkind { CXD_CAP_L_LOCAL, CXD_CAP_L_GLOBAL, CXD_CAP_L_UPLINK,
		     CXD_CAP_L_KINDS };

/* m[(u * CXD_CAP_REPS + rep) * CXD_CAP_L_KINDS + k]; INFINITY where
 * its pairs cross no link of kind k. */
#define CXD_CAP_M(u, rep, k) \
	(((size_t) (u) * CXD_CAP_REPS + (size_t) (rep)) * CXD_CAP_L_KINDS + \
	 (size_t) (k))

/* Fill m (room for CXD_CAP_M(pl->nunits, 0, 0)) from tm's link lines
 * for n ranks. 0; -EINVAL (no link lines), -ENOMEM, -E2BIG (routes). */
int cxd_cap_model(const struct cxd_cap_plan *pl,
		  const struct cxd_topo_map *tm, int n, double *m);

/* Each kind's rate per physical link, MB/s, fitted to the units'
 * carried figures (rate[k] INFINITY: no unit bound by links of kind
 * k, so nothing says they are narrow), then each unit's expected: the
 * least of its repeats' bounds, at most pair_mb_s a pair. */
void cxd_cap_model_expect(struct cxd_cap_plan *pl, const double *m,
			  double pair_mb_s, double *rate, double *tmp);

#endif
