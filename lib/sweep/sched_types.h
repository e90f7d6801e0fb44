/* SPDX-License-Identifier: BSD-3-Clause */
/* The plans and steps every schedule makes and walks (sched.h,
 * sched_keys.h, sched_dealt.h). */
#ifndef CXD_SWEEP_SCHED_TYPES_H
#define CXD_SWEEP_SCHED_TYPES_H

#include <stdbool.h>

#include "pairs.h"

/* A list of rounds of disjoint pairs: listed (the retest's), or the
 * circle rounds each cut into rounds of at most per pairs, which every
 * rank computes for itself (its own steps only: no rank holds them
 * all). */
struct cxd_plan {
	int nrounds;
	int *count;            /* pairs per round; NULL: circle rounds */
	int *first;            /* round r's pairs at pairs + first[r] */
	struct cxd_pair *pairs;
	int per;               /* circle rounds: pairs per round at most */
	/* A dealt plan (sched_dealt.c) when prime > 0: rounds within each
	 * domain first (intra of them), then prime^2 slots between them. */
	int prime, intra, nd;
	int *dom;              /* per rank: its domain, 0..nd-1 */
	int *index;            /* per rank: its place in its domain */
	int *start;            /* per domain: its ranks at members + start */
	int *members;          /* the ranks, domain by domain, in order */
	/* Domains bound in supers (sched_dealt.h, cxd_sched_dealt_within:
	 * the switches of each group), NULL: all one. Only domains of one
	 * super meet; loc: a domain's place among its super's domains,
	 * which are sdoms + sstart[super]. */
	int *sup, *loc, *sstart, *sdoms;
	bool no_intra;         /* the pairs within a domain left out */
	/* Each slot cut in nb parts (0, 1: whole), a domain in at most
	 * cap pairs a part (cxd_sched_dealt_across). */
	int nb;
	int in_part;           /* 0: every part; k: part k - 1 alone */
};

/* One round a rank is in: its partner, and as the slot's holder (the
 * pair's lower rank) whom it waits for and whom it tells when done. */
struct cxd_step {
	int round, partner;
	int prev, next; /* holders of the slot's neighbours, -1: none */
	/* The same for the chain of the pairs that share this pair's
	 * links (cxd_sched_keys), -1: none. */
	int kprev, knext;
};

#endif
