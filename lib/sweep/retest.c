/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's retest plan: the suspect pairs in rounds of disjoint
 * pairs. */
#include <errno.h>
#include <stdlib.h>

#include "retest.h"

/* The first round at or after r with room, as a union-find over full
 * rounds: each full round points past itself. */
static int room_at(int *next, int r)
{
	int root = r;

	while (next[root] != root)
		root = next[root];
	while (next[r] != root) {
		int up = next[r];

		next[r] = root;
		r = up;
	}
	return root;
}

/* Each pair's round into round[], the pairs per round into cnt[]; the
 * number of rounds returned. Each pair goes to the first round with room
 * after both its ranks' latest: a rank's rounds only grow, so it is free
 * there. Near-linear in the pairs, never a round per pair scanned. */
static int place_pairs(int pairs_at_once, const struct cxd_pair *p, int np,
		       int *free_from, int *next, int *round, int *cnt)
{
	int nr = 0;

	for (int r = 0; r <= np + 1; r++)
		next[r] = r;
	for (int i = 0; i < np; i++) {
		int a = free_from[p[i].a], b = free_from[p[i].b];
		int r = room_at(next, a > b ? a : b);

		round[i] = r;
		if (++cnt[r] == pairs_at_once)
			next[r] = r + 1;
		free_from[p[i].a] = free_from[p[i].b] = r + 1;
		nr = r + 1 > nr ? r + 1 : nr;
	}
	return nr;
}

int cxd_retest_plan(int n, int pairs_at_once, const struct cxd_pair *p,
		    int np, struct cxd_plan *pl)
{
	int *free_from = calloc((size_t) n + 1, sizeof(int));
	int *round = calloc((size_t) np + 1, sizeof(int));
	int *next = calloc((size_t) np + 2, sizeof(int));
	int *cnt = calloc((size_t) np + 1, sizeof(int));
	int nr, ret = -ENOMEM;

	if (free_from && round && next && cnt) {
		nr = place_pairs(pairs_at_once, p, np, free_from, next, round,
				 cnt);
		ret = cxd_sched_alloc(pl, nr, (size_t) np);
	}
	if (ret == 0) {
		for (int r = 1; r < nr; r++)
			pl->first[r] = pl->first[r - 1] + cnt[r - 1];
		for (int i = 0; i < np; i++)
			pl->pairs[pl->first[round[i]] +
				  pl->count[round[i]]++] = p[i];
	}
	free(free_from);
	free(round);
	free(next);
	free(cnt);
	return ret;
}
