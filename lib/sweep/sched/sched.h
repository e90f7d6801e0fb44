/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's pacing plans and each rank's steps through them, pure (no
 * MPI): the plan of rounds, and the slot tokens that bound how many
 * pairs run at once. The MPI side (tools/sweep/pace/pace_mpi.c) walks the
 * steps: before a pair the slot's holder (the pair's lower rank) waits
 * for the word of the slot's previous holder (step.prev), then both
 * partners swap a hello naming the round, measure, and the holder hands
 * the slot on (step.next), completing those sends only after its last
 * step (lib/sweep/sched/pace.c, the walk; tests/unit/test_pace.c simulates it).
 *
 * A plan is of one kind (sched_types.h, struct cxd_sched_ops): the
 * circle rounds (sched_circle.h), listed rounds (sched_listed.h), or
 * dealt slots (sched_dealt.h). What follows asks the plan's own row.
 */
#ifndef CXD_SWEEP_SCHED_H
#define CXD_SWEEP_SCHED_H

#include <stdbool.h>
#include <stddef.h>

#include "sched_types.h"

/* Slot tokens are needed only when fewer pairs run at once than a
 * circle round holds. */
bool cxd_sched_chain(int n, int pairs_at_once);

/* A plan of kind `kind` from sp (the kind's build): 0, -ENOMEM, or
 * -EDOM when the kind cannot make it; a zero plan then. */
int cxd_sched_build(const struct cxd_sched_ops *kind,
		    const struct cxd_sched_spec *sp, struct cxd_plan *pl);
/* What the plan holds, released (a zero plan too). */
void cxd_sched_free(struct cxd_plan *pl);
/* The kind's name ("circle", "listed", "dealt"). */
const char *cxd_sched_name(const struct cxd_plan *pl);
/* The plan is every pair of the sweep (the circle rounds). */
bool cxd_sched_sweep(const struct cxd_plan *pl);
/* The parts paced one after the other (1: the plan whole). */
int cxd_sched_parts(const struct cxd_plan *pl);
/* Whether the shared-links chains (cxd_sched_keys) may be laid over the
 * plan: not over a dealt one, which brings its own. */
bool cxd_sched_keyable(const struct cxd_plan *pl);
/* Every pair of the plan in its order: 0, -ENOMEM, or -EINVAL when not
 * keyable. */
int cxd_sched_each(int n, const struct cxd_plan *pl, cxd_sched_pair_fn *fn,
		   void *arg);

/*
 * Rank `rank`'s steps through plan pl, in order, into step (room for
 * cxd_sched_room(n, pl) steps); returns their count, or -ENOMEM.
 * pairs_at_once bounds a listed round's pairs; slot tokens are linked
 * when cxd_sched_chain says so. tools/sweep/pace/pace_mpi.c's sw_pace walks
 * them. cxd_sched_part_steps: the same for one part (at->part, 1 ..
 * cxd_sched_parts), so that each part is paced to its end before the
 * next; 0 every part.
 */
int cxd_sched_room(int n, const struct cxd_plan *pl);
int cxd_sched_steps(int n, int rank, int pairs_at_once,
		    const struct cxd_plan *pl, struct cxd_step *step);
int cxd_sched_part_steps(const struct cxd_sched_at *at,
			 const struct cxd_plan *pl, struct cxd_step *step);

#endif
