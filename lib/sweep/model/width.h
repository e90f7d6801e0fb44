/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's link widths, pure (width.c): how many pairs cross one
 * shared link at full rate. Where the --topology file does not state it,
 * tools/sweep/phases/width_mpi.c measures a sample of each kind: k disjoint
 * pairs at once across it, k = 1, 2, ..., until one pair slows. Here:
 * the samples chosen from the placement, and the width from the figures.
 */
#ifndef CXD_SWEEP_WIDTH_H
#define CXD_SWEEP_WIDTH_H

#include <stdbool.h>

#include "pairs.h"
#include "topo_types.h"

/* The most pairs one sample runs at once: enough to tell a Slingshot
 * group's 1-3 links apart, few enough to cost seconds. */
#define CXD_WIDTH_CAP 8

/* One kind's sample: np disjoint pairs (p[i].a < p[i].b), one end on
 * each side, no host:NIC twice on a side. */
struct cxd_width_sample {
	bool present;          /* the placement has such links */
	int a, b;              /* the two switches (local, uplink) or groups */
	int np;
	struct cxd_pair p[CXD_WIDTH_CAP];
};

/* The sample of each kind from the placement of n ranks (r: their hosts
 * and NICs): with groups, the switch pair of one group with the most
 * ranks on its smaller side (local) and the two groups with the most
 * ranks, their ends spread over the groups' switches (global); without,
 * the two switches with the most ranks (uplink). 0, or -ENOMEM. */
int cxd_width_samples(const struct cxd_topo_map *tm,
		      const struct cxd_sweep_rank *r, int n,
		      struct cxd_width_sample s[CXD_TOPO_W_KINDS]);

/* Up to CXD_WIDTH_CAP of the ranks mem[0..nm), one per host:NIC, none
 * with skip[i] set (skip NULL: none); spread: round-robin over their
 * switches, so that a group pair's pairs load its global links before
 * any one switch's. Written to out; their count. */
int cxd_width_side(const struct cxd_topo_map *tm,
		   const struct cxd_sweep_rank *r, const int *mem, int nm,
		   bool spread, const bool *skip, int *out);

/* worst[k - 1]: the slowest pair's bandwidth with k pairs at once, for
 * k = 1..nk. Is k = nk + 1 worth running (none slowed beyond tol of one
 * pair alone, and below cap)? */
bool cxd_width_more(const double *worst, int nk, double tol, int cap);
/* The width from those figures into w (pairs, tried, slowest, at_least;
 * src measured): the largest k before the first that slowed; pairs 0
 * when one pair alone gave no figure. */
void cxd_width_fit(const double *worst, int nk, double tol,
		   struct cxd_topo_width *w);

#endif
