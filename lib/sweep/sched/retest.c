/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's retest plan: the suspect pairs in rounds of disjoint
 * pairs, and with a placement, of pairs that share no link. */
#include <errno.h>
#include <stdlib.h>

#include "retest.h"
#include "retest_claims.h"
#include "sched_listed.h"

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

/* Where the packing stands: per rank and per claim key, the first round
 * it is free in; claimed, the round after the latest pair with a claim;
 * every, the round after the latest pair that claims every link. All
 * only grow, so a pair placed at or after them shares nothing there. */
struct pack {
	const int *switch_of, *group_of; /* NULL: no claims */
	int *free_from, *key_from;
	int claimed, every;
};

static int later(int a, int b)
{
	return a > b ? a : b;
}

/* The first round pair q may go to, as its claims allow; *nk: its
 * claims' count (-1: every link), their keys in key[]. */
static int claims_from(const struct pack *k, struct cxd_pair q, int *nk,
		       int key[CXD_RETEST_CLAIMS])
{
	int r = later(k->free_from[q.a], k->free_from[q.b]);

	*nk = k->switch_of ? cxd_retest_claims(k->switch_of, k->group_of, q,
					       key) : 0;
	if (*nk < 0)
		return later(r, later(k->claimed, k->every));
	for (int i = 0; i < *nk; i++)
		r = later(r, k->key_from[key[i]]);
	return *nk > 0 ? later(r, k->every) : r;
}

static void claim(struct pack *k, struct cxd_pair q, int r, int nk,
		  const int key[CXD_RETEST_CLAIMS])
{
	k->free_from[q.a] = k->free_from[q.b] = r + 1;
	for (int i = 0; i < nk; i++)
		k->key_from[key[i]] = r + 1;
	if (nk > 0)
		k->claimed = later(k->claimed, r + 1);
	if (nk < 0)
		k->every = r + 1;
}

/* Each pair's round into round[], the pairs per round into cnt[]; the
 * number of rounds returned. Each pair goes to the first round with room
 * after its ranks' and claims' latest. Near-linear in the pairs, never a
 * round per pair scanned. */
static int place_pairs(struct pack *k, int pairs_at_once,
		       const struct cxd_pair *p, int np, int *next,
		       int *round, int *cnt)
{
	int nr = 0, key[CXD_RETEST_CLAIMS], nk;

	for (int r = 0; r <= np + 1; r++)
		next[r] = r;
	for (int i = 0; i < np; i++) {
		int r = room_at(next, claims_from(k, p[i], &nk, key));

		round[i] = r;
		if (++cnt[r] == pairs_at_once)
			next[r] = r + 1;
		claim(k, p[i], r, nk, key);
		nr = later(nr, r + 1);
	}
	return nr;
}

/* The plan listed from each pair's round. */
static void list_plan(const struct cxd_pair *p, int np, const int *round,
		      const int *cnt, struct cxd_plan *pl)
{
	struct cxd_sched_list *ls = cxd_sched_listed(pl);

	for (int r = 1; r < pl->nrounds; r++)
		ls->first[r] = ls->first[r - 1] + cnt[r - 1];
	for (int i = 0; i < np; i++)
		ls->pairs[ls->first[round[i]] + ls->count[round[i]]++] = p[i];
}

static int plan(int n, int pairs_at_once, struct pack *k,
		const struct cxd_pair *p, int np, struct cxd_plan *pl)
{
	int nkey = k->switch_of ? cxd_retest_nkeys(n, k->switch_of,
						   k->group_of) : 0;
	int *round = calloc((size_t) np + 1, sizeof(int));
	int *next = calloc((size_t) np + 2, sizeof(int));
	int *cnt = calloc((size_t) np + 1, sizeof(int));
	int nr, ret = -ENOMEM;

	k->free_from = calloc((size_t) n + 1, sizeof(int));
	k->key_from = calloc((size_t) nkey + 1, sizeof(int));
	if (k->free_from && k->key_from && round && next && cnt) {
		nr = place_pairs(k, pairs_at_once, p, np, next, round, cnt);
		ret = cxd_sched_alloc(pl, nr, (size_t) np);
	}
	if (ret == 0)
		list_plan(p, np, round, cnt, pl);
	free(k->free_from);
	free(k->key_from);
	free(round);
	free(next);
	free(cnt);
	return ret;
}

int cxd_retest_plan(int n, int pairs_at_once, const struct cxd_pair *p,
		    int np, struct cxd_plan *pl)
{
	struct pack k = { 0 };

	return plan(n, pairs_at_once, &k, p, np, pl);
}

int cxd_retest_plan_alone(int n, int pairs_at_once, const int *switch_of,
			  const int *group_of, const struct cxd_pair *p,
			  int np, struct cxd_plan *pl)
{
	struct pack k = { .switch_of = switch_of, .group_of = group_of };

	return plan(n, pairs_at_once, &k, p, np, pl);
}
