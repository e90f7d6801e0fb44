/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's retest: every rank's steps of a listed plan at once
 * (retest_steps.h). */
#include <errno.h>
#include <stdlib.h>

#include "retest_steps.h"
#include "sched_listed.h"

/* Steps per rank, and where each rank's start. */
static void count_steps(int n, const struct cxd_plan *pl, int *cnt,
			int *disp)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);

	for (int r = 0; r < n; r++)
		cnt[r] = 0;
	for (int r = 0; r < pl->nrounds; r++)
		for (int j = 0; j < ls->count[r]; j++) {
			cnt[ls->pairs[ls->first[r] + j].a]++;
			cnt[ls->pairs[ls->first[r] + j].b]++;
		}
	for (int r = 0, at = 0; r < n; at += cnt[r], r++)
		disp[r] = at;
}

/* Where slot j stands, as sched.c links a listed plan's slots: the
 * holder (the pair's a) of each pair waits for the holder of the slot's
 * previous pair in the plan, which tells it when done. */
struct slot {
	int holder; /* the latest pair's holder, -1: none yet */
	int step;   /* its step, where next is to be written */
};

static void link_slot(struct slot *s, int holder, int ia,
		      struct cxd_retest_step *step)
{
	if (s->holder >= 0) {
		step[s->step].next = holder;
		step[ia].prev = s->holder;
	}
	s->holder = holder;
	s->step = ia;
}

static int widest(const struct cxd_plan *pl)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	int w = 1;

	for (int r = 0; r < pl->nrounds; r++)
		w = ls->count[r] > w ? ls->count[r] : w;
	return w;
}

int cxd_retest_steps(int n, bool chain, const struct cxd_plan *pl,
		     int *cnt, int *disp, struct cxd_retest_step *step)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	int nslot = widest(pl);
	struct slot *slot = malloc((size_t) nslot * sizeof(*slot));

	if (slot == NULL)
		return -ENOMEM;
	for (int j = 0; j < nslot; j++)
		slot[j] = (struct slot){ -1, -1 };
	count_steps(n, pl, cnt, disp);
	for (int r = 0; r < n; r++)
		cnt[r] = 0; /* counted again as the steps are written */
	for (int r = 0; r < pl->nrounds; r++) {
		const struct cxd_pair *p = ls->pairs + ls->first[r];

		for (int j = 0; j < ls->count[r]; j++) {
			int ia = disp[p[j].a] + cnt[p[j].a]++;
			int ib = disp[p[j].b] + cnt[p[j].b]++;

			step[ia] = (struct cxd_retest_step){ r, p[j].b, -1,
							     -1 };
			step[ib] = (struct cxd_retest_step){ r, p[j].a, -1,
							     -1 };
			if (chain)
				link_slot(&slot[j], p[j].a, ia, step);
		}
	}
	free(slot);
	return 0;
}

struct cxd_step cxd_retest_step_of(struct cxd_retest_step s)
{
	return (struct cxd_step){ s.round, s.partner, s.prev, s.next, -1,
				  -1 };
}
