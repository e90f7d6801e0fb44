/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: a plan of one rank's own steps (sched_mine.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_mine.h"

struct mine {
	int nstep;
	int *step; /* (round, partner) each */
};

static void mine_free(struct cxd_plan *pl)
{
	struct mine *m = pl->st;

	if (m)
		free(m->step);
	free(m);
	pl->st = NULL;
}

/* Not made from a spec: its steps come from rank 0 (cxd_sched_mine). */
static int mine_build(const struct cxd_sched_spec *sp, struct cxd_plan *pl)
{
	(void) sp;
	(void) pl;
	return -EDOM;
}

static int mine_room(int n, const struct cxd_plan *pl)
{
	const struct mine *m = pl->st;

	(void) n;
	return m->nstep + 1;
}

static struct cxd_step step_of(const struct mine *m, int i)
{
	return (struct cxd_step){ m->step[2 * i], m->step[2 * i + 1], -1, -1,
				  -1, -1 };
}

/* Part k: the step of round k - 1 (found by halving), or none; part 0
 * every step. */
static int mine_steps(const struct cxd_sched_at *at,
		      const struct cxd_plan *pl, struct cxd_step *step)
{
	const struct mine *m = pl->st;
	int lo = 0, hi = m->nstep;

	if (at->part == 0) {
		for (int i = 0; i < m->nstep; i++)
			step[i] = step_of(m, i);
		return m->nstep;
	}
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m->step[2 * mid] < at->part - 1)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->nstep || m->step[2 * lo] != at->part - 1)
		return 0;
	step[0] = step_of(m, lo);
	return 1;
}

static int mine_parts(const struct cxd_plan *pl)
{
	return pl->nrounds;
}

const struct cxd_sched_ops cxd_sched_mine_ops = {
	.name = "routed", .sweep = false, .build = mine_build,
	.room = mine_room, .steps = mine_steps, .parts = mine_parts,
	.each = NULL, .release = mine_free,
};

int cxd_sched_mine(struct cxd_plan *pl, int nrounds, const int *step,
		   int nstep)
{
	struct mine *m = calloc(1, sizeof(*m));

	*pl = (struct cxd_plan){ .ops = &cxd_sched_mine_ops,
				 .nrounds = nrounds, .st = m };
	if (m)
		m->step = malloc(2 * ((size_t) nstep + 1) * sizeof(int));
	if (!m || !m->step) {
		mine_free(pl);
		*pl = (struct cxd_plan){ .ops = NULL };
		return -ENOMEM;
	}
	memcpy(m->step, step, 2 * (size_t) nstep * sizeof(int));
	m->nstep = nstep;
	return 0;
}
