/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CXD_SWEEP_SCHED_KEYS_H
#define CXD_SWEEP_SCHED_KEYS_H

#include "sched_types.h"

/*
 * Pairs that share links take turns (sched_keys.c). dom[r] is rank r's
 * domain (its group in a dragonfly, its leaf switch in a fat tree; -1
 * unknown): every pair whose two ranks sit in different domains crosses
 * the links between those two domains, and at most cap such pairs of one
 * domain pair run at once. Links the pairs' holders (lower ranks) in
 * chains like the slots': kprev/knext of rank `rank`'s nsteps steps
 * (cxd_sched_steps' order). Every wait points to an earlier pair of the
 * plan, so no cycle is possible; it may be one of the same round (a key
 * token may name the receiver's round). Key tokens between two ranks
 * match in the order sent, whatever their key: links that would cross
 * are left out. 0, -ENOMEM, -EINVAL for a plan that chains its own
 * pairs (cxd_sched_keyable: a dealt one), or -E2BIG when there are too
 * many domain pairs to track (the caller runs without the chains).
 */
/* More domain pairs than this are not tracked (about 13 MB a rank). */
#define CXD_SCHED_KEYS_MAX (1 << 20)
int cxd_sched_keys(int n, int rank, const struct cxd_plan *pl,
		   const int *dom, int cap, struct cxd_step *step,
		   int nsteps);
/* How many domains dom names: its largest index + 1. */
int cxd_sched_ndom(int n, const int *dom);
/* Drops the key links that would cross another between the same two
 * ranks (sched_keys.c): ppos[i]/npos[i] are the plan places of step i's
 * kprev's and knext's pairs. seen: room for n ints. */
void cxd_sched_untangle(int n, const int *ppos, const int *npos,
			struct cxd_step *step, int nsteps, int *seen);

#endif
