/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's plans and each rank's steps, pure: plain parameters, and
 * errors returned for the MPI side (tools/sweep/pace_mpi.c) to end the
 * job with.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "sched.h"
#include "sched_dealt.h"

bool cxd_sched_chain(int n, int pairs_at_once)
{
	return pairs_at_once < n / 2;
}

struct cxd_plan cxd_sched_main(int n, int pairs_at_once)
{
	int per = n / 2;

	if (pairs_at_once < per)
		per = pairs_at_once;
	if (per < 1)
		return (struct cxd_plan){ .per = 1 };
	return (struct cxd_plan){ .nrounds = cxd_pairs_nrounds(n) *
				  ((n / 2 + per - 1) / per), .per = per };
}

int cxd_sched_alloc(struct cxd_plan *pl, int nrounds, size_t npairs)
{
	*pl = (struct cxd_plan){ .nrounds = nrounds };
	pl->count = calloc((size_t) nrounds + 1, sizeof(int));
	pl->first = calloc((size_t) nrounds + 1, sizeof(int));
	pl->pairs = calloc(npairs + 1, sizeof(struct cxd_pair));
	if (pl->count && pl->first && pl->pairs)
		return 0;
	cxd_sched_free(pl);
	return -ENOMEM;
}

void cxd_sched_free(struct cxd_plan *pl)
{
	free(pl->count);
	free(pl->first);
	free(pl->pairs);
	free(pl->dom);
	free(pl->index);
	free(pl->start);
	free(pl->members);
	free(pl->sup);
	free(pl->loc);
	free(pl->sstart);
	free(pl->sdoms);
	*pl = (struct cxd_plan){ .nrounds = 0 };
}

int cxd_sched_list(int n, const struct cxd_plan *in, struct cxd_plan *out)
{
	int nr = cxd_pairs_nrounds(n), per = in->per, k = 0, at = 0;
	struct cxd_pair *tmp = calloc((size_t) n / 2 + 1, sizeof(*tmp));

	if (tmp == NULL || cxd_sched_alloc(out, in->nrounds, (size_t) nr *
					   (size_t) (n / 2)) != 0) {
		free(tmp);
		return -ENOMEM;
	}
	for (int r = 0; r < nr; r++) {
		int c = cxd_pairs_round(n, r, tmp);

		for (int i = 0; i < c; i += per, k++) {
			out->count[k] = c - i < per ? c - i : per;
			out->first[k] = at;
			memcpy(out->pairs + at, tmp + i,
			       (size_t) out->count[k] * sizeof(*tmp));
			at += out->count[k];
		}
	}
	out->nrounds = k;
	free(tmp);
	return 0;
}

int cxd_sched_room(int n, const struct cxd_plan *pl)
{
	if (pl->prime > 0)
		return n + 1; /* a dealt plan: each rank meets each once */
	return pl->count == NULL ? cxd_pairs_nrounds(n) + 1 : pl->nrounds + 1;
}

/*
 * A listed plan. holder[j]: the lower rank of the latest
 * pair in slot j so far; mine[j]: this rank's step there, if it holds
 * it, so the next pair in the slot can be linked back.
 */
static int listed_steps(int rank, int pairs_at_once, bool chain,
			const struct cxd_plan *pl, struct cxd_step *step)
{
	int slots = pairs_at_once + 1, nsteps = 0;
	int *holder = malloc((size_t) slots * sizeof(int));
	int *mine = malloc((size_t) slots * sizeof(int));

	if (holder == NULL || mine == NULL) {
		free(holder);
		free(mine);
		return -ENOMEM;
	}
	for (int j = 0; j < slots; j++)
		holder[j] = mine[j] = -1;
	for (int r = 0; r < pl->nrounds; r++) {
		const struct cxd_pair *p = pl->pairs + pl->first[r];

		for (int j = 0; j < pl->count[r]; j++) {
			bool in = p[j].a == rank || p[j].b == rank;
			struct cxd_step *s = step + nsteps;

			if (chain && mine[j] >= 0)
				step[mine[j]].next = p[j].a;
			mine[j] = -1;
			if (in) {
				*s = (struct cxd_step){ r, p[j].a == rank ?
							p[j].b : p[j].a, -1,
							-1, -1, -1 };
				if (chain && p[j].a == rank) {
					s->prev = holder[j];
					mine[j] = nsteps;
				}
				nsteps++;
			}
			holder[j] = p[j].a;
		}
	}
	free(holder);
	free(mine);
	return nsteps;
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

/* The circle rounds: in circle round r the rank is at
 * index t, which lands in cut round r * chunks + t / per, slot t % per. */
static int circle_steps(int n, int rank, bool chain, int per,
			struct cxd_step *step)
{
	int nr = cxd_pairs_nrounds(n), chunks = (n / 2 + per - 1) / per;
	int nsteps = 0;

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

int cxd_sched_steps(int n, int rank, int pairs_at_once,
		    const struct cxd_plan *pl, struct cxd_step *step)
{
	bool chain = cxd_sched_chain(n, pairs_at_once);

	if (pl->prime > 0)
		return cxd_sched_dealt_steps(n, rank, pl, step);
	if (pl->count == NULL)
		return circle_steps(n, rank, chain, pl->per, step);
	return listed_steps(rank, pairs_at_once, chain, pl, step);
}
