/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's circle plans: computed, never listed but for --json
 * (sched_circle.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/model/pairs.h"
#include "sched.h"
#include "sched_circle.h"
#include "sched_listed.h"

/* The circle's own state: a circle round's pairs per cut round. */
struct circle {
	int per;
};

static int circle_build(const struct cxd_sched_spec *sp, struct cxd_plan *pl)
{
	struct circle *cr = malloc(sizeof(*cr));
	int n = sp->n, per = n / 2;

	if (cr == NULL)
		return -ENOMEM;
	if (sp->pairs_at_once < per)
		per = sp->pairs_at_once;
	cr->per = per < 1 ? 1 : per;
	pl->nrounds = per < 1 ? 0 : cxd_pairs_nrounds(n) *
				    ((n / 2 + per - 1) / per);
	pl->st = cr;
	return 0;
}

int cxd_sched_main(int n, int pairs_at_once, struct cxd_plan *pl)
{
	struct cxd_sched_spec sp = { .n = n, .pairs_at_once = pairs_at_once };

	return cxd_sched_build(&cxd_sched_circle_ops, &sp, pl);
}

int cxd_sched_per(const struct cxd_plan *pl)
{
	return pl->ops == &cxd_sched_circle_ops ?
	       ((const struct circle *) pl->st)->per : 0;
}

static void circle_free(struct cxd_plan *pl)
{
	free(pl->st);
	pl->st = NULL;
}

int cxd_sched_list(int n, const struct cxd_plan *in, struct cxd_plan *out)
{
	int nr = cxd_pairs_nrounds(n), per = cxd_sched_per(in), k = 0, at = 0;
	struct cxd_pair *tmp = calloc((size_t) n / 2 + 1, sizeof(*tmp));
	struct cxd_sched_list *ls;

	if (per < 1 || tmp == NULL ||
	    cxd_sched_alloc(out, in->nrounds, (size_t) nr *
			    (size_t) (n / 2)) != 0) {
		free(tmp);
		return per < 1 ? -EINVAL : -ENOMEM;
	}
	ls = cxd_sched_listed(out);
	for (int r = 0; r < nr; r++) {
		int c = cxd_pairs_round(n, r, tmp);

		for (int i = 0; i < c; i += per, k++) {
			ls->count[k] = c - i < per ? c - i : per;
			ls->first[k] = at;
			memcpy(ls->pairs + at, tmp + i,
			       (size_t) ls->count[k] * sizeof(*tmp));
			at += ls->count[k];
		}
	}
	out->nrounds = k;
	free(tmp);
	return 0;
}

static int circle_room(int n, const struct cxd_plan *pl)
{
	(void) pl;
	return cxd_pairs_nrounds(n) + 1;
}

/* The lower rank of pair t of circle round r (the slot's holder). */
static int holder_of(int n, int r, int t)
{
	struct cxd_pair p;

	return cxd_pairs_at(n, r, t, &p) == 0 ? p.a : -1;
}

/* Step s's neighbours in its slot: the slot's previous
 * pair is in the cut before, or the previous circle round's last cut
 * that reaches the slot; its next in the cut after, or the next circle
 * round's first. Only a round's last cut may be short. */
static void circle_links(int n, int per, int r, int t, struct cxd_step *s)
{
	int nr = cxd_pairs_nrounds(n), c = n / 2, j = t % per;
	int chunks = (c + per - 1) / per;

	if (t / per > 0) {
		s->prev = holder_of(n, r, t - per);
	} else if (r > 0) {
		int last = (chunks - 1) * per + j;

		s->prev = holder_of(n, r - 1, last < c ? last : last - per);
	}
	if (t + per < c)
		s->next = holder_of(n, r, t + per);
	else if (r + 1 < nr)
		s->next = holder_of(n, r + 1, j);
}

/* In circle round r the rank is at index t, which lands in cut round
 * r * chunks + t / per, slot t % per. */
static int circle_steps(const struct cxd_sched_at *at,
			const struct cxd_plan *pl, struct cxd_step *step)
{
	int n = at->n, rank = at->rank, nsteps = 0;
	int per = ((const struct circle *) pl->st)->per;
	int nr = cxd_pairs_nrounds(n), chunks = (n / 2 + per - 1) / per;
	bool chain = cxd_sched_chain(n, at->pairs_at_once);

	for (int r = 0; r < nr; r++) {
		int t = cxd_pairs_index_of(n, r, rank);
		struct cxd_step *s = step + nsteps;
		struct cxd_pair p;

		if (t < 0 || cxd_pairs_at(n, r, t, &p) != 0)
			continue;
		*s = (struct cxd_step){ r * chunks + t / per, p.a == rank ?
					p.b : p.a, -1, -1, -1, -1 };
		nsteps++;
		if (chain && p.a == rank)
			circle_links(n, per, r, t, s);
	}
	return nsteps;
}

/* The cut rounds' pairs in order are the circle rounds' in order. */
static int circle_each(int n, const struct cxd_plan *pl,
		       cxd_sched_pair_fn *fn, void *arg)
{
	struct cxd_pair *tmp = malloc(((size_t) n / 2 + 1) * sizeof(*tmp));
	int nr = cxd_pairs_nrounds(n);

	(void) pl;
	if (tmp == NULL)
		return -ENOMEM;
	for (int r = 0; r < nr; r++) {
		int np = cxd_pairs_round(n, r, tmp);

		for (int j = 0; j < np; j++)
			fn(arg, &tmp[j]);
	}
	free(tmp);
	return 0;
}

const struct cxd_sched_ops cxd_sched_circle_ops = {
	.name = "circle", .sweep = true, .build = circle_build,
	.room = circle_room, .steps = circle_steps,
	.each = circle_each, .release = circle_free,
};
