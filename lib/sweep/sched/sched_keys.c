/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pairs that share links take turns (sched_keys.h, cxd_sched_keys). On a
 * tapered fabric the pairs of one round that cross between the same two
 * groups share that group pair's few global links: run together, each
 * measures its share of the bundle, not its own link, and the figure
 * depends on what else ran. Each domain pair gets cap slots, chained like
 * the rounds' slots: a pair's holder waits for the word of the holder of
 * the previous pair in its slot. Every rank walks the whole plan in its
 * order to find its own links; the state is per domain pair only.
 *
 * Key tokens between two ranks match in the order sent (MPI's order per
 * sender and tag), whatever key they stand for. When rank x hands keys
 * to y twice, from its pairs s1 before s2, but y waits for s2's token
 * before s1's (another key), y would take s1's token for s2's and start
 * while s2 still runs. Such a link s1 -> y is not needed: y's earlier
 * wait for s2 already means s1 ended (x runs its pairs one at a time),
 * so both ends drop it (untangle), and the rest never cross.
 */
#include <errno.h>
#include <stdlib.h>

#include "sweep/model/pairs.h"
#include "sched.h"
#include "sched_keys.h"


int cxd_sched_ndom(int n, const int *dom)
{
	int nd = 0;

	for (int i = 0; i < n; i++)
		if (dom[i] + 1 > nd)
			nd = dom[i] + 1;
	return nd;
}

/* The index of the unordered domain pair (a != b, both >= 0). */
static size_t key_of(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	return (size_t) hi * (size_t) (hi - 1) / 2 + (size_t) lo;
}

struct chains {
	int cap;
	int *cnt;    /* per key: its pairs so far */
	int *holder; /* per key and slot: the holder of its latest pair */
	int *mine;   /* the same slot: this rank's step there, or -1 */
	int *hpos;   /* the same slot: its latest pair's place in the plan */
	int *ppos;   /* per step: the place of the kprev's pair */
	int *npos;   /* per step: the place of the knext's pair */
};

/* Pair p, at place pos in the plan, is the rank's step si (or -1 when
 * the rank is not in it). */
static void link_pair(struct chains *c, int rank, const int *dom,
		      const struct cxd_pair *p, int pos, int si,
		      struct cxd_step *step)
{
	int da = dom[p->a], db = dom[p->b];
	size_t k, at;

	if (da < 0 || db < 0 || da == db)
		return;
	k = key_of(da, db);
	at = k * (size_t) c->cap + (size_t) (c->cnt[k]++ % c->cap);
	/* The slot's previous pair was this rank's: it hands on to us. */
	if (c->mine[at] >= 0 && p->a != rank) {
		step[c->mine[at]].knext = p->a;
		c->npos[c->mine[at]] = pos;
	}
	c->mine[at] = -1;
	if (si >= 0 && p->a == rank) {
		if (c->holder[at] >= 0 && c->holder[at] != rank) {
			step[si].kprev = c->holder[at];
			c->ppos[si] = c->hpos[at];
		}
		c->mine[at] = si;
	}
	c->holder[at] = p->a;
	c->hpos[at] = pos;
}

/*
 * Drops the links that would cross another between the same two ranks
 * (see the top): a hand-on to y when a later step of this rank hands on
 * to an earlier pair of y's; a wait for x when an earlier step of this
 * rank waits for a later pair of x's. Both ends see every link between
 * them, so both drop the same ones.
 */
void cxd_sched_untangle(int n, const int *ppos, const int *npos,
			struct cxd_step *step, int nsteps, int *seen)
{
	for (int i = 0; i < n; i++)
		seen[i] = -1;
	for (int i = nsteps - 1; i >= 0; i--) {
		int y = step[i].knext;

		if (y < 0)
			continue;
		if (seen[y] >= 0 && seen[y] < npos[i])
			step[i].knext = -1;
		else
			seen[y] = npos[i];
	}
	for (int i = 0; i < n; i++)
		seen[i] = -1;
	for (int i = 0; i < nsteps; i++) {
		int x = step[i].kprev;

		if (x < 0)
			continue;
		if (seen[x] > ppos[i])
			step[i].kprev = -1;
		else
			seen[x] = ppos[i];
	}
}

/* The walk over the plan's pairs: the rank's step si next, pos the
 * pair's place in the plan. */
struct walk {
	struct chains *c;
	int rank, si, pos, nsteps;
	const int *dom;
	struct cxd_step *step;
};

static void walk_pair(void *arg, const struct cxd_pair *p)
{
	struct walk *w = arg;
	bool in = p->a == w->rank || p->b == w->rank;

	link_pair(w->c, w->rank, w->dom, p, w->pos++,
		  in && w->si < w->nsteps ? w->si : -1, w->step);
	w->si += in;
}

static int walk(int n, int rank, const struct cxd_plan *pl, const int *dom,
		struct chains *c, struct cxd_step *step, int nsteps)
{
	struct walk w = { c, rank, 0, 0, nsteps, dom, step };

	return cxd_sched_each(n, pl, walk_pair, &w);
}

int cxd_sched_keys(int n, int rank, const struct cxd_plan *pl,
		   const int *dom, int cap, struct cxd_step *step,
		   int nsteps)
{
	int nd = cxd_sched_ndom(n, dom), ret;
	size_t nk = nd > 1 ? key_of(nd - 1, nd - 2) + 1 : 1, slots;
	struct chains c = { cap < 1 ? 1 : cap, NULL, NULL, NULL, NULL, NULL,
			    NULL };
	size_t ns = nsteps > 0 ? (size_t) nsteps : 0;
	int *seen;

	if (nk > CXD_SCHED_KEYS_MAX / (size_t) c.cap)
		return -E2BIG;
	slots = nk * (size_t) c.cap;
	seen = malloc(((size_t) n + 1) * sizeof(int));
	c.cnt = calloc(nk, sizeof(int));
	c.holder = malloc(slots * sizeof(int));
	c.mine = malloc(slots * sizeof(int));
	c.hpos = malloc(slots * sizeof(int));
	c.ppos = malloc((ns + 1) * sizeof(int));
	c.npos = malloc((ns + 1) * sizeof(int));
	if (!c.cnt || !c.holder || !c.mine || !c.hpos || !c.ppos || !c.npos ||
	    !seen) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < slots; i++)
		c.holder[i] = c.mine[i] = -1;
	for (int i = 0; i < nsteps; i++)
		step[i].kprev = step[i].knext = -1;
	ret = walk(n, rank, pl, dom, &c, step, nsteps);
	if (ret == 0)
		cxd_sched_untangle(n, c.ppos, c.npos, step, nsteps, seen);
out:
	free(c.cnt);
	free(c.holder);
	free(c.mine);
	free(c.hpos);
	free(c.ppos);
	free(c.npos);
	free(seen);
	return ret;
}
