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
#include <stddef.h>

#include "sched_types.h"

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

#endif
