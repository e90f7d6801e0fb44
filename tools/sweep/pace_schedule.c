/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the pacing's state, the main plan's mode and the choice of
 * schedule (pace_mpi.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sweep/sched_dealt.h"
#include "sweep/sched_keys.h"
#include "pace_mpi.h"

void sw_pacing_init(struct sw_pacing *p, const struct sw_ctx *c)
{
	*p = (struct sw_pacing){ .pairs_at_once = c->hosts.pairs_at_once };
}

struct sw_pace_mode sw_pace_mode_at(int what, int n)
{
	return (struct sw_pace_mode){ .what = what, .pairs_at_once = n };
}

struct sw_pace_mode sw_pace_mode_main(const struct sw_pacing *p, int what)
{
	return sw_pace_mode_at(what, p->pairs_at_once);
}

void sw_pacing_free(struct sw_pacing *p)
{
	free(p->round_s);
	p->round_s = NULL;
}

/* Whether the pairs within groups would be dealt by switch (some group
 * has two switches, whose pairs share their few links) and those across
 * groups by group (pace_mpi.c, deal_in_parts). */
static bool within_dealt(const struct sw_ctx *c)
{
	const struct cxd_topo_map *tm = &c->place;
	struct cxd_plan in, out;
	int n = c->m.n, ok;

	ok = cxd_sched_dealt_within(n, tm->switch_of, tm->group_of,
				    c->hosts.pairs_at_once, &in) == 0 &&
	     cxd_sched_dealt_across(n, tm->group_of, c->hosts.pairs_at_once,
				    0, &out) == 0;
	cxd_sched_free(&in);
	if (ok)
		cxd_sched_free(&out);
	return ok;
}

/*
 * The shared-links schedule, when --topology places the ranks and more
 * than one pair runs at once: on a tapered fabric the pairs of a round
 * that cross between the same two groups (or leaf switches, without
 * groups) share that pair's few links, and each would measure its share
 * rather than its own link. Latency (8-byte messages, which load no
 * link) runs in full rounds; bandwidth then runs with one pair per
 * domain pair at a time, dealt into slots (cxd_sched_dealt) or in the
 * same rounds chained (cxd_sched_keys). Returns the domains, or NULL
 * for plain rounds.
 */
static const int *shared_links(struct sw_pacing *p, const struct sw_ctx *c)
{
	const struct cxd_topo_map *tm = &c->place;
	char *why = p->schedule;
	size_t len = sizeof(p->schedule);
	/* %s: the units (groups or switches) */
	static const char *const undealt_words[] = {
		"dealt into slots",
		"in chained rounds (not dealt: fewer pairs at once than a "
		"round)",
		"in chained rounds (not dealt: some ranks are not placed)",
		"in chained rounds (not dealt: more %s than ranks in the "
		"largest)",
		"in chained rounds",
	};
	char how[128];
	const char *unit;
	const int *dom;
	int nd;

	if (p->pairs_at_once < 2) {
		snprintf(why, len, "rounds: one pair at a time");
		return NULL;
	}
	if (tm->switch_of == NULL) {
		snprintf(why, len, "rounds: every pair of a round at once (no "
			 "--topology: which pairs share links is not known)");
		return NULL;
	}
	dom = tm->ngroup > 0 ? tm->group_of : tm->switch_of;
	unit = tm->ngroup > 0 ? "group" : "switch";
	nd = cxd_sched_ndom(c->m.n, dom);
	/* One domain shares nothing; too many are not tracked
	 * (cxd_sched_keys' bound). */
	if (nd < 2 || (size_t) nd * (size_t) (nd - 1) / 2 >
		      CXD_SCHED_KEYS_MAX) {
		snprintf(why, len, "rounds: every pair of a round at once "
			 "(--topology places the ranks in %d %s%s%s)", nd,
			 unit, nd == 1 ? "" : tm->ngroup > 0 ? "s" : "es",
			 nd == 1 ? "" : ", too many to track");
		return NULL;
	}
	if (tm->ngroup > 0 && within_dealt(c)) {
		p->shared_sw = tm->switch_of;
		/* A group's pairs across groups cross its switch links to
		 * and from the bundles, at most one link each way apiece
		 * (minimal routes): as many at once as one switch pair
		 * carries can never crowd one (one when unknown). */
		p->across_cap = c->width[CXD_TOPO_W_LOCAL] > 0 ?
				c->width[CXD_TOPO_W_LOCAL] : 1;
		snprintf(why, len, "shared links: latency in full rounds, "
			 "then bandwidth within each group with one pair at a "
			 "time per switch pair, then across groups with one "
			 "pair at a time per group pair and %d per group (its "
			 "switch links), each dealt into slots, as --topology "
			 "places the ranks on %d switches in %d groups",
			 p->across_cap, tm->nswitch, nd);
		return dom;
	}
	/* Without groups the switches are leaves, whose uplinks carry a
	 * leaf's pairs to every other leaf (as many at once as measured
	 * or stated, one when unknown); groups of one switch each have no
	 * switch links inside to bound. */
	p->across_cap = tm->ngroup > 0 ? 0 :
			c->width[CXD_TOPO_W_UPLINK] > 0 ?
			c->width[CXD_TOPO_W_UPLINK] : 1;
	snprintf(how, sizeof(how), undealt_words[cxd_sched_undealt(
		 c->m.n, dom, p->pairs_at_once)],
		 tm->ngroup > 0 ? "groups" : "switches");
	snprintf(why, len, "shared links: latency in full rounds, then "
		 "bandwidth with one pair at a time per %s pair%s, %s, as "
		 "--topology places the ranks in %d %s%s", unit,
		 p->across_cap > 0 ? " and as many per switch as its "
		 "uplinks carry" : "", how, nd, unit,
		 tm->ngroup > 0 ? "s" : "es");
	return dom;
}

void sw_pacing_choose(struct sw_pacing *p, const struct sw_ctx *c,
		      const struct cxd_plan *pl)
{
	p->round_s = sw_alloc(&c->m, (size_t) pl->nrounds, sizeof(double));
	p->shared = shared_links(p, c);
}
