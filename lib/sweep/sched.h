/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's pacing plans and each rank's steps through them, pure (no
 * MPI): the plan of rounds, and the slot tokens that bound how many
 * pairs run at once. The MPI side (tools/sweep/pace_mpi.c) walks the
 * steps: before a pair the slot's holder (the pair's lower rank) waits
 * for the word of the slot's previous holder (step.prev), then both
 * partners swap a hello naming the round, measure, and the holder hands
 * the slot on (step.next), completing those sends only after its last
 * step (lib/sweep/pace.c, the walk; tests/unit/test_pace.c simulates it).
 */
#ifndef CXD_SWEEP_SCHED_H
#define CXD_SWEEP_SCHED_H

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

/* Slot tokens are needed only when fewer pairs run at once than a
 * circle round holds. */
bool cxd_sched_chain(int n, int pairs_at_once);

/* The circle rounds for n ranks cut to pairs_at_once pairs per round
 * (--max-pairs, or fewer when ranks outnumber a host's CPUs): computed,
 * nothing allocated. */
struct cxd_plan cxd_sched_main(int n, int pairs_at_once);
/* The same plan listed (rank 0, for --json's rounds): 0, or -ENOMEM. */
int cxd_sched_list(int n, const struct cxd_plan *in, struct cxd_plan *out);
/* Room for a plan of nrounds rounds and npairs pairs, zeroed (per 0):
 * 0, or -ENOMEM with nothing held. */
int cxd_sched_alloc(struct cxd_plan *pl, int nrounds, size_t npairs);
void cxd_sched_free(struct cxd_plan *pl);

/*
 * Rank `rank`'s steps through plan pl, in order, into step (room for
 * cxd_sched_room(n, pl) steps); returns their count, or -ENOMEM.
 * pairs_at_once bounds a listed round's pairs; slot tokens are linked
 * when cxd_sched_chain says so. tools/sweep/pace_mpi.c's sw_pace walks
 * them.
 */
int cxd_sched_room(int n, const struct cxd_plan *pl);
int cxd_sched_steps(int n, int rank, int pairs_at_once,
		    const struct cxd_plan *pl, struct cxd_step *step);

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
 * are left out. 0, -ENOMEM, or -E2BIG when there are
 * too many domain pairs to track (the caller runs without the chains).
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
 * Dealt where it pays (0): every rank placed, whole rounds at once
 * (pairs_at_once >= n / 2), and at least 2 domains but no more than the
 * largest has ranks (p is then the smallest prime >= that size); else
 * -EDOM (the caller chains the circle rounds instead, cxd_sched_keys),
 * or -ENOMEM.
 */
int cxd_sched_dealt(int n, const int *dom, int pairs_at_once,
		    struct cxd_plan *pl);
/* Why a plan would not be dealt: */
enum cxd_undealt {
	CXD_DEALT,          /* it would be */
	CXD_UNDEALT_ROUND,  /* fewer pairs at once than a round */
	CXD_UNDEALT_PLACE,  /* some ranks not placed */
	CXD_UNDEALT_MANY,   /* more domains than the largest has ranks */
	CXD_UNDEALT_ONE,    /* one domain */
};
enum cxd_undealt cxd_sched_undealt(int n, const int *dom, int pairs_at_once);
/* Rank `rank`'s steps through dealt plan pl, its chain links set. */
int cxd_sched_dealt_steps(int n, int rank, const struct cxd_plan *pl,
			  struct cxd_step *step);

#endif
