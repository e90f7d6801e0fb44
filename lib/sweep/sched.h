/*
 * cxi_sweep's pacing plans and each rank's steps through them, pure (no
 * MPI): the plan of rounds, and the slot tokens that bound how many
 * pairs run at once. The MPI side (tools/sweep/sweep_pace.c) walks the
 * steps: before a pair the slot's holder (the pair's lower rank) waits
 * for the word of the slot's previous holder (step.prev), then both
 * partners swap a hello naming the round, measure, and the holder hands
 * the slot on (step.next). tests/unit/test_sched.c simulates those waits.
 */
#ifndef CXD_SWEEP_SCHED_H
#define CXD_SWEEP_SCHED_H

#include <stdbool.h>

#include "sweep_plan.h"

/* A list of rounds of disjoint pairs: listed (the retest's), or the
 * circle rounds each cut into rounds of at most per pairs, which every
 * rank computes for itself. The same fields as tools/sweep's struct
 * sw_plan, so a call site swaps the type and keeps its code. */
struct cxd_plan {
	int nrounds;
	int *count;            /* pairs per round; NULL: circle rounds */
	int *first;            /* round r's pairs at pairs + first[r] */
	struct cxd_pair *pairs;
	int per;               /* circle rounds: pairs per round at most */
};

/* One round a rank is in: its partner, and as the slot's holder whom it
 * waits for and whom it tells when done (tools/sweep's struct sw_step). */
struct cxd_step {
	int round, partner;
	int prev, next; /* holders of the slot's neighbours, -1: none */
};

/* Slot tokens are needed only when fewer pairs run at once than a
 * circle round holds (sw_pace's `chain`). */
bool cxd_sched_chain(int n, int pairs_at_once);

/* The circle rounds for n ranks cut to pairs_at_once pairs per round:
 * computed, nothing allocated. sw_main_plan(w, &pl) is
 * pl = cxd_plan_main(w->n, w->pairs_at_once). */
struct cxd_plan cxd_plan_main(int n, int pairs_at_once);
/* The same plan listed: 0, or -ENOMEM. sw_plan_list(w, in, out) is
 * cxd_plan_list(w->n, in, out) (sw_die on -ENOMEM). */
int cxd_plan_list(int n, const struct cxd_plan *in, struct cxd_plan *out);
/* Room for a plan of nrounds rounds and npairs pairs, zeroed (per 0):
 * 0, or -ENOMEM with nothing held. */
int cxd_plan_alloc(struct cxd_plan *pl, int nrounds, size_t npairs);
void cxd_plan_free(struct cxd_plan *pl); /* sw_plan_free */

/*
 * Rank `rank`'s steps through plan pl, in order, into step (room for
 * cxd_sched_room(n, pl) steps); returns their count, or -ENOMEM.
 * pairs_at_once bounds a listed round's pairs. Circle plans: sweep_pace.c's
 * circle_sched; listed ones: listed_sched; this picks as build_sched
 * does, and takes `chain` from cxd_sched_chain as sw_pace does. So
 * build_sched(w, pl, chain, &sc) becomes: sc.step = sw_alloc(w,
 * cxd_sched_room(w->n, pl), sizeof(*sc.step)); sc.nsteps =
 * cxd_sched_steps(w->n, w->rank, w->pairs_at_once, pl, sc.step).
 */
int cxd_sched_room(int n, const struct cxd_plan *pl);
int cxd_sched_steps(int n, int rank, int pairs_at_once,
		    const struct cxd_plan *pl, struct cxd_step *step);

#endif
