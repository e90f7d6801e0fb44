/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A covering plan while it is built (plan_cover.c and the files it
 * calls: plan_cover_comps.c, plan_cover_choose.c and its gains in
 * plan_cover_pick.c, plan_cover_rounds.c, plan_cover_tell.c). Pairs
 * are weighed by switch pair: every pair of ranks on the same two
 * switches crosses the same links, bundles and switches; only their
 * NICs differ.
 */
#ifndef CXD_SWEEP_PLAN_COVER_WORK_H
#define CXD_SWEEP_PLAN_COVER_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "sweep/model/route.h"
#include "plan_cover_types.h"

/* One component a switch pair's traffic crosses. */
struct cxd_cover_x {
	int comp;
	int sure; /* every way crosses it */
	double p; /* the share of the pairs whose way crosses it */
};

struct cxd_cover_work {
	const struct cxd_topo_map *tm;
	const struct cxd_routes *rt;
	int n, k, max_pairs, exhaustive;
	int ns, ng; /* switches (the routes'), groups (1 + the largest) */
	/* Ranks by switch: rank_of[rank_at[s] .. rank_at[s + 1]). */
	int *rank_at, *rank_of;
	/* The switches ranks sit on, in index order: switch pair (i, j),
	 * i <= j, is sp = i * nused + j; its crossings (NICs aside) are
	 * x[x_at[sp] .. x_at[sp + 1]). */
	int *used, nused;
	size_t *x_at;
	struct cxd_cover_x *x;
	size_t nx, xcap;
	/* The components: NICs are 0 .. n-1, link line l is n + l. */
	struct cxd_cover_comp *comp;
	int ncomp;
	int *swcomp; /* ns: a switch's component, -1 none */
	int *bcomp;  /* ng * ng, ga < gb: a bundle's component, -1 none */
	/* The choice (plan_cover_choose.c): per component the sure
	 * crossings it can get (at most k), the switch pairs it can be
	 * crossed from (at most k), those its chosen pairs came from. */
	int *target, *kmax, *nkey, *key;
	/* What each switch pair gives the components other than its NICs
	 * (gain[sp]), weighed again only once dirty[sp]: once a component
	 * it crosses was crossed by a chosen pair (the switch pairs crossing
	 * component c: in_sp[in_at[c] .. in_at[c + 1])). nicb: per switch,
	 * the most one of its NICs adds, for the step at hand. */
	double *gain, *nicb;
	unsigned char *dirty;
	size_t *in_at;
	int *in_sp;
	struct cxd_cover_pair *pair;
	int *pair_sp;
	int npair;
	size_t pcap, spcap;
	uint64_t *taken; /* n * n bits: pair (a, b), a < b, chosen */
	/* Classes of equal signatures, refined by each chosen pair: class
	 * of each component, size of each class; hits, newid, touched,
	 * sbuf (a pair's sure crossings): scratch. */
	int *cls, *csize, *hits, *newid, *touched, *sbuf;
	int ncls;
	int capped;
	/* The cover step's switch pairs by their last weighed gain
	 * (plan_cover_lazy.c); NULL until its first pick. */
	struct cxd_cover_heap *heap;
};

/* Rank pairs of switch pair sp (0 if it has none). */
static inline long cxd_cover_sp_pairs(const struct cxd_cover_work *w,
				      int sp)
{
	int i = sp / w->nused, j = sp % w->nused;
	long hi = w->rank_at[w->used[i] + 1] - w->rank_at[w->used[i]];
	long hj = w->rank_at[w->used[j] + 1] - w->rank_at[w->used[j]];

	if (i > j)
		return 0;
	return i == j ? hi * (hi - 1) / 2 : hi * hj;
}

#endif
