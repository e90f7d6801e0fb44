/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: which schedule, and why (sched_choose.h). */
#include <stddef.h>

#include "sched_choose.h"
#include "sched_dealt.h"
#include "sched_keys.h"

const int *cxd_sched_domains(const struct cxd_topo_map *tm)
{
	return tm->ngroup > 0 ? tm->group_of : tm->switch_of;
}

/* The code for each reason a plan is not dealt (enum cxd_undealt's
 * order). */
static const enum cxd_sched_why undealt_why[] = {
	[CXD_DEALT] = CXD_SCHED_WHY_DEALT,
	[CXD_UNDEALT_ROUND] = CXD_SCHED_WHY_UNDEALT_ROUND,
	[CXD_UNDEALT_PLACE] = CXD_SCHED_WHY_UNDEALT_PLACE,
	[CXD_UNDEALT_MANY] = CXD_SCHED_WHY_UNDEALT_MANY,
	[CXD_UNDEALT_ONE] = CXD_SCHED_WHY_UNDEALT_ONE,
};

/* The fewest cables of one link line from a switch holding ranks (a
 * leaf) under ecmp routes, 0: none known. Which spine a pair takes is
 * a hash the sweep does not know, and any number of a leaf's pairs may
 * land on one of its uplinks: as many at once as that uplink carries
 * never crowd one. A width measured between two leaves says what one
 * leaf pair's pairs did (d-mod-k spreads them by destination), not a
 * leaf's pairs to several others: a healthy 2:1 tree (8 leaves of 16,
 * one cable to each of 8 spines) measured 8 and, run at 2 a leaf,
 * had 1,500 pairs meet on a spine link. */
int cxd_sched_uplink_cables(const struct cxd_topo_map *tm)
{
	int w = 0;

	if (tm->route != CXD_TOPO_R_ECMP || tm->link == NULL)
		return 0;
	for (int l = 0; l < tm->nlink; l++) {
		const struct cxd_topo_link *k = &tm->link[l];

		if ((k->a < tm->nswitch || k->b < tm->nswitch) &&
		    k->count > 0 && (w == 0 || k->count < w))
			w = k->count;
	}
	return w;
}

/*
 * On a tapered fabric the pairs of a round that cross between the same
 * two groups (or leaf switches, without groups) share that pair's few
 * links, and each would measure its share rather than its own link: with
 * --topology and more than one pair at once, latency (8-byte messages,
 * which load no link) runs in full rounds, and bandwidth with one pair
 * per domain pair at a time, dealt into slots (cxd_sched_dealt) or in
 * the same rounds chained (cxd_sched_keys).
 */
struct cxd_sched_choice cxd_sched_choose(int n, int pairs_at_once,
					 const struct cxd_topo_map *tm,
					 int local_w, int uplink_w)
{
	struct cxd_sched_choice ch = { .kind = CXD_SCHED_ROUNDS };
	enum cxd_undealt why;

	if (pairs_at_once < 2 || tm->switch_of == NULL) {
		ch.why = pairs_at_once < 2 ? CXD_SCHED_WHY_ONE_PAIR :
			 CXD_SCHED_WHY_NO_TOPO;
		return ch;
	}
	ch.groups = tm->ngroup > 0;
	ch.nswitch = tm->nswitch;
	ch.nd = cxd_sched_ndom(n, cxd_sched_domains(tm));
	/* One domain shares nothing; too many are not tracked
	 * (cxd_sched_keys' bound). */
	if (ch.nd < 2 || (size_t) ch.nd * (size_t) (ch.nd - 1) / 2 >
			 CXD_SCHED_KEYS_MAX) {
		ch.why = ch.nd == 1 ? CXD_SCHED_WHY_ONE_DOM :
			 CXD_SCHED_WHY_MANY_DOMS;
		return ch;
	}
	if (ch.groups && cxd_sched_dealt_nests(n, tm->switch_of, tm->group_of,
					       pairs_at_once)) {
		/* A group's pairs across groups cross its switch links to
		 * and from the bundles, at most one link each way apiece
		 * (minimal routes): as many at once as one switch pair
		 * carries can never crowd one (one when unknown). */
		ch.kind = CXD_SCHED_NESTED;
		ch.why = CXD_SCHED_WHY_NESTED;
		ch.cap = local_w > 0 ? local_w : 1;
		return ch;
	}
	/* Without groups the switches are leaves, whose uplinks carry a
	 * leaf's pairs to every other leaf (as many at once as measured
	 * or stated, one when unknown); groups of one switch each have no
	 * switch links inside to bound. */
	ch.cap = ch.groups ? 0 : uplink_w > 0 ? uplink_w : 1;
	why = cxd_sched_undealt(n, cxd_sched_domains(tm), pairs_at_once);
	ch.kind = why == CXD_DEALT ? CXD_SCHED_DEALT : CXD_SCHED_CHAINED;
	ch.why = undealt_why[why];
	return ch;
}

void cxd_sched_cap_cables(struct cxd_sched_choice *ch, int cables)
{
	if (!ch->groups && ch->cap > 0 && cables > 0 && cables < ch->cap &&
	    ch->nnarrow == 0) {
		ch->cap = cables;
		ch->cap_links = true;
	}
}

int cxd_sched_cap(const struct cxd_sched_choice *ch)
{
	return ch->nnarrow > 0 ? ch->narrow[ch->nnarrow - 1].cap : ch->cap;
}

bool cxd_sched_narrow(struct cxd_sched_choice *ch, double crowd)
{
	int was = cxd_sched_cap(ch);

	if (ch->routed) {
		ch->routed = false;
		ch->routed_dropped = true;
		ch->routed_crowd = crowd;
		return true;
	}
	/* Chained rounds bound a domain pair's pairs at once, not a
	 * domain's (its pairs to many others run side by side): a cap
	 * there would change nothing, and saying it measured again at
	 * fewer would not be true. */
	if (ch->kind == CXD_SCHED_CHAINED)
		return false;
	/* No bound yet: a domain meets at most all the others at once. */
	if (was <= 0)
		was = ch->nd - 1;
	if (was <= 1 || ch->nnarrow >= CXD_SCHED_NARROW_MAX)
		return false;
	ch->narrow[ch->nnarrow++] = (struct cxd_sched_narrow){ was, was / 2,
								crowd };
	return true;
}
