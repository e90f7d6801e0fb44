/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's listed plans: rounds written out (sched_listed.h). */
#include <errno.h>
#include <stdlib.h>

#include "sched.h"
#include "sched_listed.h"

static void listed_free(struct cxd_plan *pl)
{
	struct cxd_sched_list *ls = pl->st;

	if (ls) {
		free(ls->count);
		free(ls->first);
		free(ls->pairs);
		free(ls);
	}
	pl->st = NULL;
}

static int listed_build(const struct cxd_sched_spec *sp, struct cxd_plan *pl)
{
	struct cxd_sched_list *ls = calloc(1, sizeof(*ls));

	pl->nrounds = sp->nrounds;
	pl->st = ls;
	if (ls) {
		ls->count = calloc((size_t) sp->nrounds + 1, sizeof(int));
		ls->first = calloc((size_t) sp->nrounds + 1, sizeof(int));
		ls->pairs = calloc(sp->npairs + 1, sizeof(struct cxd_pair));
		if (ls->count && ls->first && ls->pairs)
			return 0;
	}
	listed_free(pl);
	return -ENOMEM;
}

int cxd_sched_alloc(struct cxd_plan *pl, int nrounds, size_t npairs)
{
	struct cxd_sched_spec sp = { .nrounds = nrounds, .npairs = npairs };

	return cxd_sched_build(&cxd_sched_listed_ops, &sp, pl);
}

struct cxd_sched_list *cxd_sched_listed(const struct cxd_plan *pl)
{
	return pl->ops == &cxd_sched_listed_ops ? pl->st : NULL;
}

static int listed_room(int n, const struct cxd_plan *pl)
{
	(void) n;
	return pl->nrounds + 1;
}

/* holder[j]: the lower rank of the latest pair in slot j so far;
 * mine[j]: this rank's step there, if it holds it, so the next pair in
 * the slot can be linked back. */
struct slots {
	int *holder, *mine;
	bool chain;
};

/* Pair p, in slot j of round r, when the rank is in it: its step. */
static int listed_pair(struct slots *sl, int rank, int r, int j,
		       const struct cxd_pair *p, struct cxd_step *step,
		       int nsteps)
{
	bool in = p->a == rank || p->b == rank;
	struct cxd_step *s = step + nsteps;

	if (sl->chain && sl->mine[j] >= 0)
		step[sl->mine[j]].next = p->a;
	sl->mine[j] = -1;
	if (in) {
		*s = (struct cxd_step){ r, p->a == rank ? p->b : p->a, -1, -1,
					-1, -1 };
		if (sl->chain && p->a == rank) {
			s->prev = sl->holder[j];
			sl->mine[j] = nsteps;
		}
		nsteps++;
	}
	sl->holder[j] = p->a;
	return nsteps;
}

static int listed_steps(const struct cxd_sched_at *at,
			const struct cxd_plan *pl, struct cxd_step *step)
{
	const struct cxd_sched_list *ls = pl->st;
	int slots = at->pairs_at_once + 1, nsteps = 0;
	struct slots sl = { malloc((size_t) slots * sizeof(int)),
			    malloc((size_t) slots * sizeof(int)),
			    cxd_sched_chain(at->n, at->pairs_at_once) };

	if (sl.holder == NULL || sl.mine == NULL) {
		free(sl.holder);
		free(sl.mine);
		return -ENOMEM;
	}
	for (int j = 0; j < slots; j++)
		sl.holder[j] = sl.mine[j] = -1;
	for (int r = 0; r < pl->nrounds; r++)
		for (int j = 0; j < ls->count[r]; j++)
			nsteps = listed_pair(&sl, at->rank, r, j,
					     ls->pairs + ls->first[r] + j,
					     step, nsteps);
	free(sl.holder);
	free(sl.mine);
	return nsteps;
}

static int listed_each(int n, const struct cxd_plan *pl,
		       cxd_sched_pair_fn *fn, void *arg)
{
	const struct cxd_sched_list *ls = pl->st;

	(void) n;
	for (int r = 0; r < pl->nrounds; r++)
		for (int j = 0; j < ls->count[r]; j++)
			fn(arg, ls->pairs + ls->first[r] + j);
	return 0;
}

const struct cxd_sched_ops cxd_sched_listed_ops = {
	.name = "listed", .sweep = false, .build = listed_build,
	.room = listed_room, .steps = listed_steps,
	.each = listed_each, .release = listed_free,
};
