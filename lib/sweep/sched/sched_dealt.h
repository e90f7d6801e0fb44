/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_SCHED_DEALT_H
#define CXD_SWEEP_SCHED_DEALT_H

#include "sched_types.h"

/* The dealt plans' row (sched_dealt.c): its steps carry their own
 * chain links, their parts are paced one by one (cxd_sched_parts). */
extern const struct cxd_sched_ops cxd_sched_dealt_ops;

/*
 * The shared-links bandwidth plan, dealt (sched_dealt.c): the pairs
 * within each domain in circle rounds, all domains side by side; then
 * the pairs between domains in prime^2 slots, where each domain pair has
 * at most one pair and each rank at most one. Domains are numbered
 * 0..K-1 and a rank's place x in domain a < p; in slot (u, v), domain
 * pair (a, b) runs x = v + a*u + b against y = v + b*u + a (mod p): a
 * rank meets each of b's ranks once (x - y fixes u, then x fixes v), and
 * in one slot a's ranks for different b differ. Each rank computes its
 * own steps and chain links (kprev/knext) from that, in O(n) memory.
 * Dealt where it can be (0): every rank placed, whole rounds at once
 * (pairs_at_once >= n / 2), and 2 to 40,000 domains (p is then the
 * smallest prime >= both the largest's ranks and the domains); else
 * -EDOM, or -ENOMEM. cxd_sched_choose asks first (cxd_sched_undealt)
 * and chains the circle rounds instead where it would not pay
 * (cxd_sched_keys), so the pacing only builds what was chosen.
 */
int cxd_sched_dealt(int n, const int *dom, int pairs_at_once,
		    struct cxd_plan *pl);
/*
 * The same in two parts where a group holds several switches, whose
 * switch pairs share one to three links (a Slingshot group: a switch's
 * 16 nodes share one link to each other switch): within, the pairs of
 * each group only, each switch's own pairs in circle rounds and then its
 * group's switch pairs in slots, at most one pair per switch pair and
 * per rank (sw: each rank's switch, grp: its group; every switch in one
 * group); across, the pairs between groups only, in the slots above.
 * Run one after the other: each alone is sound, and a pair of one would
 * share links with the other's. Across, a group's pairs also cross its
 * own switch links on the way to and from the bundles: cap (0: no
 * bound) cuts each slot in parts where a group has at most cap pairs
 * (the circle rounds over the groups, cap rounds a part); with a part
 * asked for (cxd_sched_part_steps), a rank's steps are those of that
 * part alone, so that each part
 * can be paced to its end before the next begins. -EDOM where not
 * dealt (within: no group has two switches), or -ENOMEM.
 */
int cxd_sched_dealt_within(int n, const int *sw, const int *grp,
			   int pairs_at_once, struct cxd_plan *pl);
int cxd_sched_dealt_across(int n, const int *grp, int pairs_at_once,
			   int cap, struct cxd_plan *pl);
/* cxd_sched_dealt's plan, its slots cut in parts as across's (a fat
 * tree's leaves: a leaf's uplinks carry its pairs to every other leaf);
 * the domains' own pairs in the first part. */
int cxd_sched_dealt_capped(int n, const int *dom, int pairs_at_once,
			   int cap, struct cxd_plan *pl);
/* Why a plan would not be dealt: */
enum cxd_undealt {
	CXD_DEALT,          /* it would be */
	CXD_UNDEALT_ROUND,  /* fewer pairs at once than a round */
	CXD_UNDEALT_PLACE,  /* some ranks not placed */
	CXD_UNDEALT_MANY,   /* more than 40,000 domains or ranks in one */
	CXD_UNDEALT_ONE,    /* one domain */
};
enum cxd_undealt cxd_sched_undealt(int n, const int *dom, int pairs_at_once);
/* Whether the pairs within groups would be dealt by switch (some group
 * has two switches, whose pairs share their few links) and those across
 * groups by group: both plans made and let go. */
bool cxd_sched_dealt_nests(int n, const int *sw, const int *grp,
			   int pairs_at_once);
/* A dealt plan's p (the slots are p^2 a part), 0 for another kind. */
int cxd_sched_dealt_prime(const struct cxd_plan *pl);

#endif
