/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shared-links bandwidth plan, dealt (sched_dealt.h, cxd_sched_dealt).
 * Chaining the circle rounds' pairs by domain pair (sched_keys.c) keeps
 * the bound, but a rank's order (the circle's) and its chains' orders
 * disagree, so pairs queue behind each other in convoys: at 1,024
 * simulated ranks the bandwidth pass took 8 times the chains' length.
 * Here the order is one: every pair has a slot, a rank's steps and each
 * chain run in slot order, and a slot holds at most one pair per rank
 * and per domain pair, so the pairs of a slot run side by side.
 *
 * With every pair one unit long and each starting when its ranks and
 * chain allow (tests/unit/test_sched.c's makespan), at 256 ranks: 16
 * even domains 303 units dealt against 2,898 chained, 4 domains 4,176
 * against 12,030, one of 4 beside three of 84 7,162 against 15,586.
 * With more domains than ranks in the largest (a fat tree's leaves of 4)
 * the ranks, not the links, bound the sweep, and chaining did better
 * (64 of 4: 573 against 960): those are not dealt.
 */
#include <errno.h>
#include <stdlib.h>

#include "pairs.h"
#include "sched_dealt.h"
#include "sched_keys.h"

static bool is_prime(int p)
{
	if (p < 2)
		return false;
	for (int d = 2; d <= p / d; d++)
		if (p % d == 0)
			return false;
	return true;
}

static int prime_from(int m)
{
	while (!is_prime(m))
		m++;
	return m;
}

/* The domains renumbered 0..K-1 in order of first rank, and each rank's
 * place: 0, -EDOM (a rank unplaced), or -ENOMEM. */
static int number_domains(int n, const int *dom, struct cxd_plan *pl)
{
	int nd = cxd_sched_ndom(n, dom);
	int *id = malloc(((size_t) nd + 1) * sizeof(int));

	pl->dom = malloc(((size_t) n + 1) * sizeof(int));
	pl->index = malloc(((size_t) n + 1) * sizeof(int));
	pl->members = malloc(((size_t) n + 1) * sizeof(int));
	pl->start = calloc((size_t) n + 2, sizeof(int));
	if (!id || !pl->dom || !pl->index || !pl->members || !pl->start) {
		free(id);
		return -ENOMEM;
	}
	for (int d = 0; d < nd; d++)
		id[d] = -1;
	pl->nd = 0;
	for (int r = 0; r < n; r++) {
		if (dom[r] < 0) {
			free(id);
			return -EDOM;
		}
		if (id[dom[r]] < 0)
			id[dom[r]] = pl->nd++;
		pl->dom[r] = id[dom[r]];
		pl->index[r] = pl->start[pl->dom[r] + 1]++;
	}
	free(id);
	for (int d = 0; d < pl->nd; d++)
		pl->start[d + 1] += pl->start[d];
	for (int r = 0; r < n; r++)
		pl->members[pl->start[pl->dom[r]] + pl->index[r]] = r;
	return 0;
}

/* What number_domains took (cxd_sched_free's part for a dealt plan;
 * sched.c calls in here, so not that). */
static void dealt_free(struct cxd_plan *pl)
{
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

static int dsize(const struct cxd_plan *pl, int d)
{
	return pl->start[d + 1] - pl->start[d];
}

/* Whether dealing pays (see cxd_sched_dealt); sets prime and intra.
 * The bound on p keeps p^2 slots in an int. */
static bool pays(struct cxd_plan *pl)
{
	int most = 0;

	for (int d = 0; d < pl->nd; d++) {
		int s = dsize(pl, d), r = cxd_pairs_nrounds(s);

		most = s > most ? s : most;
		pl->intra = r > pl->intra ? r : pl->intra;
	}
	if (pl->nd < 2 || pl->nd > most || most > 40000)
		return false;
	pl->prime = prime_from(most);
	return true;
}

static bool pays_within(struct cxd_plan *pl);
static int number_supers(int n, const int *grp, struct cxd_plan *pl);

/* A dealt plan over domains dom, bound in supers grp when not NULL. */
static int deal(int n, const int *dom, const int *grp, int pairs_at_once,
		struct cxd_plan *pl)
{
	int ret;

	*pl = (struct cxd_plan){ .nrounds = 0 };
	if (n < 2 || pairs_at_once < n / 2)
		return -EDOM;
	ret = number_domains(n, dom, pl);
	if (ret == 0 && grp)
		ret = number_supers(n, grp, pl);
	if (ret == 0 && !(grp ? pays_within(pl) : pays(pl)))
		ret = -EDOM;
	if (ret != 0) {
		dealt_free(pl);
		return ret;
	}
	pl->nrounds = pl->intra + pl->prime * pl->prime;
	return 0;
}

int cxd_sched_dealt(int n, const int *dom, int pairs_at_once,
		    struct cxd_plan *pl)
{
	return deal(n, dom, NULL, pairs_at_once, pl);
}

int cxd_sched_dealt_capped(int n, const int *dom, int pairs_at_once,
			   int cap, struct cxd_plan *pl)
{
	int ret = cxd_sched_dealt(n, dom, pairs_at_once, pl);
	int nr;

	if (ret == 0) {
		nr = cxd_pairs_nrounds(pl->nd);
		pl->nb = cap > 0 && cap < nr ? (nr + cap - 1) / cap : 1;
		pl->nrounds = pl->intra + pl->prime * pl->prime * pl->nb;
	}
	return ret;
}

int cxd_sched_dealt_across(int n, const int *grp, int pairs_at_once,
			   int cap, struct cxd_plan *pl)
{
	int ret = cxd_sched_dealt_capped(n, grp, pairs_at_once, cap, pl);

	if (ret == 0) {
		pl->nrounds -= pl->intra;
		pl->intra = 0;
		pl->no_intra = true;
	}
	return ret;
}

/* Each switch's group, numbered in order, and each switch's place among
 * its group's (sup, loc, sstart, sdoms): 0, -EDOM (a switch in two
 * groups, a rank in none), -ENOMEM. */
static int number_supers(int n, const int *grp, struct cxd_plan *pl)
{
	int ng = cxd_sched_ndom(n, grp), k = 0;
	int *id = malloc(((size_t) ng + 1) * sizeof(int));

	pl->sup = malloc(((size_t) pl->nd + 1) * sizeof(int));
	pl->loc = malloc(((size_t) pl->nd + 1) * sizeof(int));
	pl->sdoms = malloc(((size_t) pl->nd + 1) * sizeof(int));
	pl->sstart = calloc((size_t) pl->nd + 2, sizeof(int));
	if (!id || !pl->sup || !pl->loc || !pl->sdoms || !pl->sstart) {
		free(id);
		return -ENOMEM;
	}
	for (int g = 0; g < ng; g++)
		id[g] = -1;
	for (int d = 0; d < pl->nd; d++)
		pl->sup[d] = -1;
	for (int r = 0; r < n; r++) {
		int d = pl->dom[r];

		if (grp[r] < 0 || (pl->sup[d] >= 0 && pl->sup[d] != id[grp[r]]))
			break;
		if (id[grp[r]] < 0)
			id[grp[r]] = k++;
		if (pl->sup[d] < 0)
			pl->loc[d] = pl->sstart[(pl->sup[d] = id[grp[r]]) + 1]++;
	}
	free(id);
	for (int d = 0; d < pl->nd; d++)
		if (pl->sup[d] < 0)
			return -EDOM;
	for (int g = 0; g < k; g++)
		pl->sstart[g + 1] += pl->sstart[g];
	for (int d = 0; d < pl->nd; d++)
		pl->sdoms[pl->sstart[pl->sup[d]] + pl->loc[d]] = d;
	return 0;
}

/* Whether the switches dealt within groups pay: some group has two; p
 * covers both the most ranks on a switch and the most switches in a
 * group (a slot's places and its domains' places). */
static bool pays_within(struct cxd_plan *pl)
{
	int most = 0, wide = 0;

	for (int d = 0; d < pl->nd; d++) {
		int s = dsize(pl, d), r = cxd_pairs_nrounds(s);
		int w = pl->sstart[pl->sup[d] + 1] - pl->sstart[pl->sup[d]];

		most = s > most ? s : most;
		wide = w > wide ? w : wide;
		pl->intra = r > pl->intra ? r : pl->intra;
	}
	if (wide < 2 || most > 40000 || wide > 40000)
		return false;
	pl->prime = prime_from(most > wide ? most : wide);
	return true;
}

int cxd_sched_dealt_within(int n, const int *sw, const int *grp,
			   int pairs_at_once, struct cxd_plan *pl)
{
	return deal(n, sw, grp, pairs_at_once, pl);
}

static int mod(long v, int p)
{
	long m = v % p;

	return (int) (m < 0 ? m + p : m);
}

/* Domain d's place in the slot formula: among its super's domains. */
static int place(const struct cxd_plan *pl, int d)
{
	return pl->loc ? pl->loc[d] : d;
}

/* With slots cut in nb parts: the part of domain pair (a, b), its round
 * in the circle over the domains, by cap rounds a part, so that a domain
 * has at most cap pairs in a part (pairs.c: in round r, a + b = 2 r mod
 * the odd rot, or the fixed m - 1 meets r). */
static int part_of(const struct cxd_plan *pl, int a, int b)
{
	int m = pl->nd % 2 ? pl->nd + 1 : pl->nd, rot = m - 1, r, cap;

	if (pl->nb <= 1) /* whole slots (0: a plan not cut) */
		return 0;
	cap = (cxd_pairs_nrounds(pl->nd) + pl->nb - 1) / pl->nb;
	if (a == m - 1 || b == m - 1)
		r = a == m - 1 ? b : a;
	else
		r = (int) ((long) (a + b) * ((rot + 1) / 2) % rot);
	return r / cap;
}

/* Slot s of (a, b)'s part in the plan: the parts one after the other,
 * so that a rank meets the groups of one part before the next (the
 * slots' order is what the ranks walk: a part mixed into every slot
 * would change nothing). */
static long slot_at(const struct cxd_plan *pl, int a, int b, long s)
{
	return (long) part_of(pl, a, b) * pl->prime * pl->prime + s;
}

/* Domain pair (a, b)'s pair in slot s (its part), as ranks (lower
 * first): true when both places exist. */
static bool slot_pair(const struct cxd_plan *pl, int a, int b, long s,
		      struct cxd_pair *pr)
{
	int p = pl->prime, u = (int) (s / p), v = (int) (s % p);
	int la = place(pl, a), lb = place(pl, b);
	int x = mod((long) v + (long) la * u + lb, p);
	int y = mod((long) v + (long) lb * u + la, p);
	int rx, ry;

	if (x >= dsize(pl, a) || y >= dsize(pl, b))
		return false;
	rx = pl->members[pl->start[a] + x];
	ry = pl->members[pl->start[b] + y];
	*pr = (struct cxd_pair){ rx < ry ? rx : ry, rx < ry ? ry : rx };
	return true;
}

/* The holder of (a, b)'s nearest pair before (by -1) or after (by 1)
 * slot s, and its plan place; -1 when none. */
static int chain_next(const struct cxd_plan *pl, int a, int b, long s,
		      int by, int *pos)
{
	long end = (long) pl->prime * pl->prime;
	struct cxd_pair pr;

	for (s += by; s >= 0 && s < end; s += by)
		if (slot_pair(pl, a, b, s, &pr)) {
			*pos = pl->intra + (int) slot_at(pl, a, b, s);
			return pr.a;
		}
	return -1;
}

/* The rank's pairs within its domain, by the circle over the domain. */
static int intra_steps(const struct cxd_plan *pl, int rank,
		       struct cxd_step *step)
{
	int a = pl->dom[rank], s = dsize(pl, a), i = pl->index[rank];
	int nr = cxd_pairs_nrounds(s), k = 0;

	for (int r = 0; r < nr; r++) {
		int t = cxd_pairs_index_of(s, r, i);
		struct cxd_pair p;

		if (t < 0 || cxd_pairs_at(s, r, t, &p) != 0)
			continue;
		step[k++] = (struct cxd_step){
			r, pl->members[pl->start[a] + (p.a == i ? p.b : p.a)],
			-1, -1, -1, -1 };
	}
	return k;
}

/* One slot block u: the rank meets each other domain b at most once,
 * in slot v = x - a*u - b; steps in slot order, chains linked. */
static int block_steps(const struct cxd_plan *pl, int rank, int u,
		       struct cxd_step *step, int *ppos, int *npos)
{
	int a = pl->dom[rank], p = pl->prime, k = 0, la = place(pl, a);
	int lo = pl->sup ? pl->sstart[pl->sup[a]] : 0;
	int hi = pl->sup ? pl->sstart[pl->sup[a] + 1] : pl->nd;

	for (int at = lo; at < hi; at++) {
		int b = pl->sdoms ? pl->sdoms[at] : at;
		int v = mod((long) pl->index[rank] - (long) la * u -
			    place(pl, b), p);
		long s = (long) u * p + v;
		struct cxd_pair pr;
		int j = k, round;

		if (b == a || !slot_pair(pl, a, b, s, &pr) ||
		    (pl->in_part > 0 && part_of(pl, a, b) != pl->in_part - 1))
			continue;
		k++;
		round = pl->intra + (int) slot_at(pl, a, b, s);
		/* insertion by slot: at most K steps a block */
		while (j > 0 && step[j - 1].round > round) {
			step[j] = step[j - 1];
			ppos[j] = ppos[j - 1];
			npos[j] = npos[j - 1];
			j--;
		}
		step[j] = (struct cxd_step){ round,
					     pr.a == rank ? pr.b : pr.a, -1,
					     -1, -1, -1 };
		ppos[j] = npos[j] = -1;
		if (pr.a == rank) {
			step[j].kprev = chain_next(pl, a, b, s, -1, &ppos[j]);
			step[j].knext = chain_next(pl, a, b, s, 1, &npos[j]);
		}
		/* Our own pair before or after: our order keeps it. */
		if (step[j].kprev == rank)
			step[j].kprev = -1;
		if (step[j].knext == rank)
			step[j].knext = -1;
	}
	return k;
}

/* The steps in round order, their chain places with them (parts put a
 * block's steps far apart); insertion, as the steps come nearly
 * sorted: each part's in order. */
static void sort_steps(struct cxd_step *step, int *ppos, int *npos, int k)
{
	for (int i = 1; i < k; i++) {
		struct cxd_step t = step[i];
		int pp = ppos[i], np = npos[i], j = i;

		for (; j > 0 && step[j - 1].round > t.round; j--) {
			step[j] = step[j - 1];
			ppos[j] = ppos[j - 1];
			npos[j] = npos[j - 1];
		}
		step[j] = t;
		ppos[j] = pp;
		npos[j] = np;
	}
}

int cxd_sched_dealt_steps(int n, int rank, const struct cxd_plan *pl,
			  struct cxd_step *step)
{
	int *ppos = malloc(((size_t) n + 1) * sizeof(int));
	int *npos = malloc(((size_t) n + 1) * sizeof(int));
	int *seen = malloc(((size_t) n + 1) * sizeof(int));
	int k;

	if (!ppos || !npos || !seen) {
		free(ppos);
		free(npos);
		free(seen);
		return -ENOMEM;
	}
	/* The domains' own pairs go with the first part. */
	k = pl->no_intra || pl->in_part > 1 ? 0 : intra_steps(pl, rank, step);
	for (int i = 0; i < k; i++)
		ppos[i] = npos[i] = -1;
	for (int u = 0; u < pl->prime; u++)
		k += block_steps(pl, rank, u, step + k, ppos + k, npos + k);
	if (pl->nb > 1)
		sort_steps(step, ppos, npos, k);
	cxd_sched_untangle(n, ppos, npos, step, k, seen);
	free(ppos);
	free(npos);
	free(seen);
	return k;
}

enum cxd_undealt cxd_sched_undealt(int n, const int *dom, int pairs_at_once)
{
	struct cxd_plan pl = { .nrounds = 0 };
	enum cxd_undealt why = CXD_DEALT;

	if (n >= 2 && pairs_at_once < n / 2)
		return CXD_UNDEALT_ROUND;
	if (number_domains(n, dom, &pl) == -EDOM)
		why = CXD_UNDEALT_PLACE;
	else if (pl.dom && !pays(&pl))
		why = pl.nd < 2 ? CXD_UNDEALT_ONE : CXD_UNDEALT_MANY;
	dealt_free(&pl);
	return why;
}
