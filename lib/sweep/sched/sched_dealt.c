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
 * chaining ends sooner (64 of 4: 573 against 960), but only because it
 * bounds a domain pair, not a domain: a leaf's pairs to many others ran
 * side by side over its few uplinks, and on a healthy hashed fat tree
 * (14 leaves of 6, one node link to each of 2 spines) a third of the
 * pairs across leaves measured their share and a spine was named. Those
 * are dealt too, with p at least the domains' count, so that a slot
 * still holds one pair per rank (most of its places are then empty).
 */
#include <errno.h>
#include <stdlib.h>

#include "sweep/model/pairs.h"
#include "sched.h"
#include "sched_dealt.h"
#include "sched_keys.h"

/* A dealt plan's own state: rounds within each domain first (intra of
 * them), then prime^2 slots between the domains (times nb parts). The
 * domains are bound in supers (cxd_sched_dealt_within: the switches of
 * each group; else one super of them all): only domains of one super
 * meet; loc: a domain's place among its super's, which are sdoms +
 * sstart[super]. */
struct dealt {
	int prime, intra, nd;
	int *dom;              /* per rank: its domain, 0..nd-1 */
	int *index;            /* per rank: its place in its domain */
	int *start;            /* per domain: its ranks at members + start */
	int *members;          /* the ranks, domain by domain, in order */
	int *sup, *loc, *sstart, *sdoms;
	bool no_intra;         /* the pairs within a domain left out */
	/* Each slot cut in nb parts (1: whole), a domain in at most cap
	 * pairs a part (cxd_sched_dealt_across). */
	int nb;
};

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
static int number_domains(int n, const int *dom, struct dealt *dl)
{
	int nd = cxd_sched_ndom(n, dom);
	int *id = malloc(((size_t) nd + 1) * sizeof(int));

	dl->dom = malloc(((size_t) n + 1) * sizeof(int));
	dl->index = malloc(((size_t) n + 1) * sizeof(int));
	dl->members = malloc(((size_t) n + 1) * sizeof(int));
	dl->start = calloc((size_t) n + 2, sizeof(int));
	if (!id || !dl->dom || !dl->index || !dl->members || !dl->start) {
		free(id);
		return -ENOMEM;
	}
	for (int d = 0; d < nd; d++)
		id[d] = -1;
	dl->nd = 0;
	for (int r = 0; r < n; r++) {
		if (dom[r] < 0) {
			free(id);
			return -EDOM;
		}
		if (id[dom[r]] < 0)
			id[dom[r]] = dl->nd++;
		dl->dom[r] = id[dom[r]];
		dl->index[r] = dl->start[dl->dom[r] + 1]++;
	}
	free(id);
	for (int d = 0; d < dl->nd; d++)
		dl->start[d + 1] += dl->start[d];
	for (int r = 0; r < n; r++)
		dl->members[dl->start[dl->dom[r]] + dl->index[r]] = r;
	return 0;
}

static int dsize(const struct dealt *dl, int d)
{
	return dl->start[d + 1] - dl->start[d];
}

/* Whether dealing can be done (see cxd_sched_dealt); sets prime and
 * intra. p covers a domain's ranks and the domains (a rank meets each
 * other domain at its own place in a slot). The bound on p keeps p^2
 * slots in an int. */
static bool pays(struct dealt *dl)
{
	int most = 0;

	for (int d = 0; d < dl->nd; d++) {
		int s = dsize(dl, d), r = cxd_pairs_nrounds(s);

		most = s > most ? s : most;
		dl->intra = r > dl->intra ? r : dl->intra;
	}
	if (dl->nd < 2 || most > 40000 || dl->nd > 40000)
		return false;
	dl->prime = prime_from(most > dl->nd ? most : dl->nd);
	return true;
}

/* Each switch's group, numbered in order, and each switch's place among
 * its group's (sup, loc, sstart, sdoms): 0, -EDOM (a switch in two
 * groups, a rank in none), -ENOMEM. */
static int number_supers(int n, const int *grp, struct dealt *dl)
{
	int ng = cxd_sched_ndom(n, grp), k = 0;
	int *id = malloc(((size_t) ng + 1) * sizeof(int));

	dl->sup = malloc(((size_t) dl->nd + 1) * sizeof(int));
	dl->loc = malloc(((size_t) dl->nd + 1) * sizeof(int));
	dl->sdoms = malloc(((size_t) dl->nd + 1) * sizeof(int));
	dl->sstart = calloc((size_t) dl->nd + 2, sizeof(int));
	if (!id || !dl->sup || !dl->loc || !dl->sdoms || !dl->sstart) {
		free(id);
		return -ENOMEM;
	}
	for (int g = 0; g < ng; g++)
		id[g] = -1;
	for (int d = 0; d < dl->nd; d++)
		dl->sup[d] = -1;
	for (int r = 0; r < n; r++) {
		int d = dl->dom[r];

		if (grp[r] < 0 || (dl->sup[d] >= 0 && dl->sup[d] != id[grp[r]]))
			break;
		if (id[grp[r]] < 0)
			id[grp[r]] = k++;
		if (dl->sup[d] < 0)
			dl->loc[d] = dl->sstart[(dl->sup[d] = id[grp[r]]) + 1]++;
	}
	free(id);
	for (int d = 0; d < dl->nd; d++)
		if (dl->sup[d] < 0)
			return -EDOM;
	for (int g = 0; g < k; g++)
		dl->sstart[g + 1] += dl->sstart[g];
	for (int d = 0; d < dl->nd; d++)
		dl->sdoms[dl->sstart[dl->sup[d]] + dl->loc[d]] = d;
	return 0;
}

/* Whether the switches dealt within groups pay: some group has two; p
 * covers both the most ranks on a switch and the most switches in a
 * group (a slot's places and its domains' places). */
static bool pays_within(struct dealt *dl)
{
	int most = 0, wide = 0;

	for (int d = 0; d < dl->nd; d++) {
		int s = dsize(dl, d), r = cxd_pairs_nrounds(s);
		int w = dl->sstart[dl->sup[d] + 1] - dl->sstart[dl->sup[d]];

		most = s > most ? s : most;
		wide = w > wide ? w : wide;
		dl->intra = r > dl->intra ? r : dl->intra;
	}
	if (wide < 2 || most > 40000 || wide > 40000)
		return false;
	dl->prime = prime_from(most > wide ? most : wide);
	return true;
}

/* Without supers the domains are all one super's, so the slot formula
 * has one shape. */
static int one_super(struct dealt *dl)
{
	dl->sup = calloc((size_t) dl->nd + 1, sizeof(int));
	dl->loc = malloc(((size_t) dl->nd + 1) * sizeof(int));
	dl->sdoms = malloc(((size_t) dl->nd + 1) * sizeof(int));
	dl->sstart = calloc(2, sizeof(int));
	if (!dl->sup || !dl->loc || !dl->sdoms || !dl->sstart)
		return -ENOMEM;
	for (int d = 0; d < dl->nd; d++)
		dl->loc[d] = dl->sdoms[d] = d;
	dl->sstart[1] = dl->nd;
	return 0;
}

static void dealt_free(struct cxd_plan *pl)
{
	struct dealt *dl = pl->st;

	if (dl) {
		free(dl->dom);
		free(dl->index);
		free(dl->start);
		free(dl->members);
		free(dl->sup);
		free(dl->loc);
		free(dl->sstart);
		free(dl->sdoms);
		free(dl);
	}
	pl->st = NULL;
}

/* A dealt plan over domains dom, bound in supers grp when not NULL:
 * 0, -EDOM where it would not pay, or -ENOMEM. */
static int deal(int n, const int *dom, const int *grp, int pairs_at_once,
		struct dealt *dl)
{
	int ret;

	if (n < 2 || pairs_at_once < n / 2)
		return -EDOM;
	ret = number_domains(n, dom, dl);
	if (ret == 0)
		ret = grp ? number_supers(n, grp, dl) : one_super(dl);
	if (ret == 0 && !(grp ? pays_within(dl) : pays(dl)))
		ret = -EDOM;
	return ret;
}

/* The slots cut in parts of at most cap rounds of the circle over the
 * domains (0: whole), the domains' own pairs left out or not. */
static int dealt_build(const struct cxd_sched_spec *sp, struct cxd_plan *pl)
{
	struct dealt *dl = calloc(1, sizeof(*dl));
	int ret = dl ? deal(sp->n, sp->dom, sp->grp, sp->pairs_at_once, dl) :
		  -ENOMEM;
	int nr;

	pl->st = dl;
	if (ret != 0) {
		dealt_free(pl);
		return ret;
	}
	nr = cxd_pairs_nrounds(dl->nd);
	dl->nb = sp->cap > 0 && sp->cap < nr ? (nr + sp->cap - 1) / sp->cap : 1;
	if (sp->no_own) {
		dl->intra = 0;
		dl->no_intra = true;
	}
	pl->nrounds = dl->intra + dl->prime * dl->prime * dl->nb;
	return 0;
}

static int build(const struct cxd_sched_spec *sp, struct cxd_plan *pl)
{
	return cxd_sched_build(&cxd_sched_dealt_ops, sp, pl);
}

int cxd_sched_dealt(int n, const int *dom, int pairs_at_once,
		    struct cxd_plan *pl)
{
	return cxd_sched_dealt_capped(n, dom, pairs_at_once, 0, pl);
}

int cxd_sched_dealt_capped(int n, const int *dom, int pairs_at_once,
			   int cap, struct cxd_plan *pl)
{
	return build(&(struct cxd_sched_spec){ .n = n, .pairs_at_once =
		     pairs_at_once, .dom = dom, .cap = cap }, pl);
}

int cxd_sched_dealt_across(int n, const int *grp, int pairs_at_once,
			   int cap, struct cxd_plan *pl)
{
	return build(&(struct cxd_sched_spec){ .n = n, .pairs_at_once =
		     pairs_at_once, .dom = grp, .cap = cap, .no_own = true },
		     pl);
}

int cxd_sched_dealt_within(int n, const int *sw, const int *grp,
			   int pairs_at_once, struct cxd_plan *pl)
{
	return build(&(struct cxd_sched_spec){ .n = n, .pairs_at_once =
		     pairs_at_once, .dom = sw, .grp = grp }, pl);
}

bool cxd_sched_dealt_nests(int n, const int *sw, const int *grp,
			   int pairs_at_once)
{
	struct cxd_plan in, out;
	bool ok = cxd_sched_dealt_within(n, sw, grp, pairs_at_once, &in) == 0 &&
		  cxd_sched_dealt_across(n, grp, pairs_at_once, 0, &out) == 0;

	cxd_sched_free(&in);
	if (ok)
		cxd_sched_free(&out);
	return ok;
}

int cxd_sched_dealt_prime(const struct cxd_plan *pl)
{
	return pl->ops == &cxd_sched_dealt_ops ?
	       ((const struct dealt *) pl->st)->prime : 0;
}

static int mod(long v, int p)
{
	long m = v % p;

	return (int) (m < 0 ? m + p : m);
}

/* Domain d's place in the slot formula: among its super's domains. */
static int place(const struct dealt *dl, int d)
{
	return dl->loc[d];
}

/* With slots cut in nb parts: the part of domain pair (a, b), its round
 * in the circle over the domains, by cap rounds a part, so that a domain
 * has at most cap pairs in a part (pairs.c: in round r, a + b = 2 r mod
 * the odd rot, or the fixed m - 1 meets r). */
static int part_of(const struct dealt *dl, int a, int b)
{
	int m = dl->nd % 2 ? dl->nd + 1 : dl->nd, rot = m - 1, r, cap;

	if (dl->nb <= 1) /* whole slots (0: a plan not cut) */
		return 0;
	cap = (cxd_pairs_nrounds(dl->nd) + dl->nb - 1) / dl->nb;
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
static long slot_at(const struct dealt *dl, int a, int b, long s)
{
	return (long) part_of(dl, a, b) * dl->prime * dl->prime + s;
}

/* Domain pair (a, b)'s pair in slot s (its part), as ranks (lower
 * first): true when both places exist. */
static bool slot_pair(const struct dealt *dl, int a, int b, long s,
		      struct cxd_pair *pr)
{
	int p = dl->prime, u = (int) (s / p), v = (int) (s % p);
	int la = place(dl, a), lb = place(dl, b);
	int x = mod((long) v + (long) la * u + lb, p);
	int y = mod((long) v + (long) lb * u + la, p);
	int rx, ry;

	if (x >= dsize(dl, a) || y >= dsize(dl, b))
		return false;
	rx = dl->members[dl->start[a] + x];
	ry = dl->members[dl->start[b] + y];
	*pr = (struct cxd_pair){ rx < ry ? rx : ry, rx < ry ? ry : rx };
	return true;
}

/* The holder of (a, b)'s nearest pair before (by -1) or after (by 1)
 * slot s, and its plan place; -1 when none. */
static int chain_next(const struct dealt *dl, int a, int b, long s,
		      int by, int *pos)
{
	long end = (long) dl->prime * dl->prime;
	struct cxd_pair pr;

	for (s += by; s >= 0 && s < end; s += by)
		if (slot_pair(dl, a, b, s, &pr)) {
			*pos = dl->intra + (int) slot_at(dl, a, b, s);
			return pr.a;
		}
	return -1;
}

/* The rank's pairs within its domain, by the circle over the domain. */
static int intra_steps(const struct dealt *dl, int rank,
		       struct cxd_step *step)
{
	int a = dl->dom[rank], s = dsize(dl, a), i = dl->index[rank];
	int nr = cxd_pairs_nrounds(s), k = 0;

	for (int r = 0; r < nr; r++) {
		int t = cxd_pairs_index_of(s, r, i);
		struct cxd_pair p;

		if (t < 0 || cxd_pairs_at(s, r, t, &p) != 0)
			continue;
		step[k++] = (struct cxd_step){
			r, dl->members[dl->start[a] + (p.a == i ? p.b : p.a)],
			-1, -1, -1, -1 };
	}
	return k;
}

/* One slot block u: the rank meets each other domain b at most once,
 * in slot v = x - a*u - b; steps in slot order, chains linked. */
static int block_steps(const struct dealt *dl, int rank, int part, int u,
		       struct cxd_step *step, int *ppos, int *npos)
{
	int a = dl->dom[rank], p = dl->prime, k = 0, la = place(dl, a);
	int lo = dl->sstart[dl->sup[a]], hi = dl->sstart[dl->sup[a] + 1];

	for (int at = lo; at < hi; at++) {
		int b = dl->sdoms[at];
		int v = mod((long) dl->index[rank] - (long) la * u -
			    place(dl, b), p);
		long s = (long) u * p + v;
		struct cxd_pair pr;
		int j = k, round;

		if (b == a || !slot_pair(dl, a, b, s, &pr) ||
		    (part > 0 && part_of(dl, a, b) != part - 1))
			continue;
		k++;
		round = dl->intra + (int) slot_at(dl, a, b, s);
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
			step[j].kprev = chain_next(dl, a, b, s, -1, &ppos[j]);
			step[j].knext = chain_next(dl, a, b, s, 1, &npos[j]);
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

/* The rank's steps of part at->part (0: all), in round order. */
static int dealt_steps(const struct cxd_sched_at *at,
		       const struct cxd_plan *pl, struct cxd_step *step)
{
	const struct dealt *dl = pl->st;
	int n = at->n, rank = at->rank, part = at->part;
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
	k = dl->no_intra || part > 1 ? 0 : intra_steps(dl, rank, step);
	for (int i = 0; i < k; i++)
		ppos[i] = npos[i] = -1;
	for (int u = 0; u < dl->prime; u++)
		k += block_steps(dl, rank, part, u, step + k, ppos + k,
				 npos + k);
	if (dl->nb > 1)
		sort_steps(step, ppos, npos, k);
	cxd_sched_untangle(n, ppos, npos, step, k, seen);
	free(ppos);
	free(npos);
	free(seen);
	return k;
}

/* Each rank meets each other once. */
static int dealt_room(int n, const struct cxd_plan *pl)
{
	(void) pl;
	return n + 1;
}

static int dealt_parts(const struct cxd_plan *pl)
{
	return ((const struct dealt *) pl->st)->nb;
}

const struct cxd_sched_ops cxd_sched_dealt_ops = {
	.name = "dealt", .sweep = false, .build = dealt_build,
	.room = dealt_room, .steps = dealt_steps, .parts = dealt_parts,
	.each = NULL, .release = dealt_free,
};

enum cxd_undealt cxd_sched_undealt(int n, const int *dom, int pairs_at_once)
{
	struct cxd_plan pl = { .ops = NULL };
	struct dealt *dl = calloc(1, sizeof(*dl));
	enum cxd_undealt why = CXD_DEALT;
	int ret;

	if (n >= 2 && pairs_at_once < n / 2) {
		free(dl);
		return CXD_UNDEALT_ROUND;
	}
	pl.st = dl;
	ret = dl ? number_domains(n, dom, dl) : -ENOMEM;
	if (ret == -EDOM)
		why = CXD_UNDEALT_PLACE;
	else if (dl && dl->dom && !pays(dl))
		why = dl->nd < 2 ? CXD_UNDEALT_ONE : CXD_UNDEALT_MANY;
	dealt_free(&pl);
	return why;
}
