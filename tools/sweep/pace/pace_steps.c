/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: plans only rank 0 holds, each rank's steps sent to it and
 * paced (pace_steps.h). */
#include <stdlib.h>

#include <mpi.h>

#include "pace_steps.h"

/* Rank 0's every rank's steps. */
static struct cxd_retest_step *all_steps(const struct sw_ctx *c, bool chain,
					 const struct cxd_plan *pl, int np,
					 int *cnt, int *disp)
{
	struct cxd_retest_step *all = sw_alloc(&c->m, 2 * (size_t) np + 1,
					       sizeof(*all));

	if (cxd_retest_steps(c->m.n, chain, pl, cnt, disp, all) != 0)
		sw_die(&c->m, "out of memory");
	return all;
}

void sw_steps_deal(const struct sw_ctx *c, bool chain,
		   const struct cxd_plan *pl, struct sw_steps *st)
{
	int *cnt = NULL, *disp = NULL, size[2] = { st->np, pl->nrounds };
	struct cxd_retest_step *all = NULL;
	MPI_Datatype t;
	MPI_Request q;

	sw_bcast(&c->m, size, 2, MPI_INT, "the plan's steps");
	st->np = size[0];
	st->nrounds = size[1];
	if (st->np == 0)
		return;
	if (c->m.rank == 0) {
		cnt = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		disp = sw_alloc(&c->m, (size_t) c->m.n, sizeof(int));
		all = all_steps(c, chain, pl, st->np, cnt, disp);
	}
	MPI_Iscatter(cnt, 1, MPI_INT, &st->nsteps, 1, MPI_INT, 0,
		     MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "the plan's steps");
	st->step = sw_alloc(&c->m, (size_t) st->nsteps + 1, sizeof(*st->step));
	/* A step is 4 ints: counted in steps, a whole fabric's fit an int. */
	MPI_Type_contiguous(4, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Iscatterv(all, cnt, disp, t, st->step, st->nsteps, t, 0,
		      MPI_COMM_WORLD, &q);
	sw_coll_wait(&c->m, &q, "the plan's steps");
	MPI_Type_free(&t);
	free(all);
	free(cnt);
	free(disp);
}

void sw_steps_alone(const struct sw_ctx *c, const struct sw_pace_mode *m,
		    const struct sw_steps *st, sw_measure_fn *measure,
		    void *arg)
{
	int k = 0;

	for (int r = 0; r < st->nrounds; r++) {
		struct cxd_step s = { 0, -1, -1, -1, -1, -1 };
		int ns = 0;

		if (k < st->nsteps && st->step[k].round == r) {
			s.partner = st->step[k++].partner;
			ns = 1;
		}
		sw_pace_steps(c, m, &s, ns, 1, measure, arg, NULL);
	}
}

void sw_steps_free(struct sw_steps *st)
{
	free(st->step);
	st->step = NULL;
}
