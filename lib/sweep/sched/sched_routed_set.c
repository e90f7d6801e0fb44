/* SPDX-License-Identifier: BSD-3-Clause */
/* What the routed packing works on (sched_routed_set.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sched_routed_set.h"
#include "sweep/model/route.h"

static int ranks_by_switch(struct cxd_routed_set *s)
{
	int *fill = calloc((size_t) s->ns + 1, sizeof(int));

	s->rs_at = calloc((size_t) s->ns + 2, sizeof(int));
	s->rs = malloc(((size_t) s->n + 1) * sizeof(int));
	if (!fill || !s->rs_at || !s->rs) {
		free(fill);
		return -ENOMEM;
	}
	for (int r = 0; r < s->n; r++)
		s->rs_at[s->sw[r] + 1]++;
	for (int k = 0; k < s->ns; k++)
		s->rs_at[k + 1] += s->rs_at[k];
	for (int r = 0; r < s->n; r++)
		s->rs[s->rs_at[s->sw[r]] + fill[s->sw[r]]++] = r;
	free(fill);
	return 0;
}

static int on(const struct cxd_routed_set *s, int k)
{
	return s->rs_at[k + 1] - s->rs_at[k];
}

static struct cxd_pair pair_of(int x, int y)
{
	return x < y ? (struct cxd_pair){ x, y } : (struct cxd_pair){ y, x };
}

/* The pairs between switches a < b, a diagonal at a time: each
 * diagonal's pairs share no rank, so a round may take one whole. */
static size_t pairs_across(const struct cxd_routed_set *s, int a, int b,
			   struct cxd_pair *q)
{
	const int *A = s->rs + s->rs_at[a], *B = s->rs + s->rs_at[b];
	int na = on(s, a), nb = on(s, b);
	size_t k = 0;

	for (int d = 0; d < (na > nb ? na : nb); d++)
		for (int i = 0; i < (na > nb ? nb : na); i++)
			q[k++] = na <= nb ? pair_of(A[i], B[(i + d) % nb]) :
				 pair_of(A[(i + d) % na], B[i]);
	return k;
}

/* The pairs on switch a, by distance around its ranks. */
static size_t pairs_within(const struct cxd_routed_set *s, int a,
			   struct cxd_pair *q)
{
	const int *A = s->rs + s->rs_at[a];
	int na = on(s, a);
	size_t k = 0;

	for (int d = 1; 2 * d <= na; d++)
		for (int i = 0; i < na; i++)
			if (2 * d < na || i < na / 2)
				q[k++] = pair_of(A[i], A[(i + d) % na]);
	return k;
}

/* The link lines of the ways between a and b, each once. */
static int links_of(struct cxd_routed_set *s, const struct cxd_routes *rt,
		    int sp, int *stamp, size_t *cap)
{
	size_t nw, at = s->lk_at[sp];
	const struct cxd_way *w = cxd_routes_ways(rt, s->spa[sp], s->spb[sp],
						  &nw);

	for (size_t k = 0; s->spa[sp] != s->spb[sp] && k < nw; k++)
		for (int h = 0; h < w[k].len; h++) {
			int l = rt->hop[w[k].first + (size_t) h];

			if (stamp[l] == sp)
				continue;
			if (at == *cap) {
				int *g = realloc(s->lk, 2 * *cap * sizeof(int));

				if (!g)
					return -ENOMEM;
				s->lk = g;
				*cap *= 2;
			}
			stamp[l] = sp;
			s->lk[at++] = l;
		}
	s->lk_at[sp + 1] = at;
	return 0;
}

/* The switch pairs holding a pair, in order. */
static int switch_pairs(struct cxd_routed_set *s)
{
	size_t most = (size_t) s->ns * ((size_t) s->ns + 1) / 2 + 1;

	s->spa = malloc(most * sizeof(int));
	s->spb = malloc(most * sizeof(int));
	if (!s->spa || !s->spb)
		return -ENOMEM;
	for (int a = 0; a < s->ns; a++)
		for (int b = a; b < s->ns && on(s, a) > 0; b++)
			if (on(s, b) > (a == b ? 1 : 0)) {
				s->spa[s->nsp] = a;
				s->spb[s->nsp++] = b;
			}
	return 0;
}

static int all_links(struct cxd_routed_set *s, const struct cxd_routes *rt)
{
	size_t cap = 64;
	int *stamp = malloc(((size_t) s->nlink + 1) * sizeof(int));
	int ret = 0;

	s->lk_at = calloc((size_t) s->nsp + 1, sizeof(size_t));
	s->lk = malloc(cap * sizeof(int));
	if (!stamp || !s->lk_at || !s->lk)
		ret = -ENOMEM;
	for (int l = 0; stamp && l < s->nlink; l++)
		stamp[l] = -1;
	for (int sp = 0; ret == 0 && sp < s->nsp; sp++)
		ret = links_of(s, rt, sp, stamp, &cap);
	free(stamp);
	return ret;
}

/* Every switch pair's pairs, and what each link line and rank has to
 * carry. */
static int all_pairs(struct cxd_routed_set *s)
{
	size_t np = (size_t) s->n * ((size_t) s->n - 1) / 2;

	s->pr_at = calloc((size_t) s->nsp + 1, sizeof(size_t));
	s->pr = malloc((np + 1) * sizeof(*s->pr));
	s->left = malloc(((size_t) s->nsp + 1) * sizeof(int));
	s->lrem = calloc((size_t) s->nlink + 1, sizeof(long));
	s->rrem = malloc(((size_t) s->n + 1) * sizeof(int));
	s->order = malloc(((size_t) s->nsp + 1) * sizeof(int));
	if (!s->pr_at || !s->pr || !s->left || !s->lrem || !s->rrem ||
	    !s->order)
		return -ENOMEM;
	for (int sp = 0; sp < s->nsp; sp++) {
		struct cxd_pair *q = s->pr + s->pr_at[sp];
		size_t k = s->spa[sp] == s->spb[sp] ?
			   pairs_within(s, s->spa[sp], q) :
			   pairs_across(s, s->spa[sp], s->spb[sp], q);

		s->pr_at[sp + 1] = s->pr_at[sp] + k;
		s->left[sp] = (int) k;
		for (size_t e = s->lk_at[sp]; e < s->lk_at[sp + 1]; e++)
			s->lrem[s->lk[e]] += (long) k;
	}
	s->npair = s->pr_at[s->nsp];
	for (int r = 0; r < s->n; r++)
		s->rrem[r] = s->n - 1;
	return 0;
}

static int make(struct cxd_routed_set *s, const struct cxd_topo_map *tm)
{
	struct cxd_routes rt;
	int ret = ranks_by_switch(s);

	if (ret == 0)
		ret = switch_pairs(s);
	if (ret != 0)
		return ret;
	ret = cxd_routes_build(tm, s->n, &rt);
	if (ret != 0)
		return ret;
	ret = all_links(s, &rt);
	cxd_routes_free(&rt);
	s->cables = malloc(((size_t) s->nlink + 1) * sizeof(int));
	if (ret == 0 && !s->cables)
		ret = -ENOMEM;
	for (int l = 0; ret == 0 && l < s->nlink; l++)
		s->cables[l] = tm->link[l].count > 0 ? tm->link[l].count : 1;
	return ret == 0 ? all_pairs(s) : ret;
}

int cxd_routed_set_make(int n, const struct cxd_topo_map *tm,
			struct cxd_routed_set *s)
{
	int ret;

	memset(s, 0, sizeof(*s));
	if (n < 2 || !tm->switch_of || !tm->link || tm->nlink <= 0)
		return -EINVAL;
	s->n = n;
	s->ns = tm->nswitch_all > tm->nswitch ? tm->nswitch_all : tm->nswitch;
	s->nlink = tm->nlink;
	s->sw = tm->switch_of;
	for (int r = 0; r < n; r++)
		if (tm->switch_of[r] < 0 || tm->switch_of[r] >= s->ns)
			return -EINVAL;
	ret = make(s, tm);
	if (ret != 0)
		cxd_routed_set_free(s);
	return ret;
}

void cxd_routed_set_free(struct cxd_routed_set *s)
{
	free(s->rs_at);
	free(s->rs);
	free(s->spa);
	free(s->spb);
	free(s->lk_at);
	free(s->lk);
	free(s->pr_at);
	free(s->pr);
	free(s->left);
	free(s->cables);
	free(s->lrem);
	free(s->rrem);
	free(s->order);
	memset(s, 0, sizeof(*s));
}

void cxd_routed_set_bound(const struct cxd_routed_set *s, int most,
			  int *bound, int *busiest)
{
	long b = ((long) s->npair + most - 1) / most;

	*busiest = -1;
	if (s->n - 1 > b)
		b = s->n - 1;
	for (int l = 0; l < s->nlink; l++) {
		long x = (s->lrem[l] + s->cables[l] - 1) / s->cables[l];

		if (x > b) {
			b = x;
			*busiest = l;
		}
	}
	*bound = (int) b;
}

struct weight {
	double w;
	int sp;
};

static int heaviest_first(const void *x, const void *y)
{
	const struct weight *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return (a->sp > b->sp) - (a->sp < b->sp);
}

/* The rounds sp's busiest link line or rank still needs, and then its
 * least pressed: pairing the pressed with the pressed keeps the busiest
 * links full to the end (a fat tree's leaves matched two by two); most[k]:
 * the most pairs left to a rank of switch k. */
static double pressure(const struct cxd_routed_set *s, int sp,
		       const int *most)
{
	double hi = most[s->spa[sp]] > most[s->spb[sp]] ? most[s->spa[sp]] :
		    most[s->spb[sp]];
	double lo = hi;

	for (size_t e = s->lk_at[sp]; e < s->lk_at[sp + 1]; e++) {
		double x = (double) s->lrem[s->lk[e]] / s->cables[s->lk[e]];

		hi = x > hi ? x : hi;
		lo = e == s->lk_at[sp] || x < lo ? x : lo;
	}
	return hi + lo;
}

int cxd_routed_set_weigh(struct cxd_routed_set *s)
{
	struct weight *wt = malloc(((size_t) s->nsp + 1) * sizeof(*wt));
	int *most = calloc((size_t) s->ns + 1, sizeof(int)), k = 0;

	if (!wt || !most) {
		free(wt);
		free(most);
		return -ENOMEM;
	}
	for (int r = 0; r < s->n; r++)
		if (s->rrem[r] > most[s->sw[r]])
			most[s->sw[r]] = s->rrem[r];
	for (int sp = 0; sp < s->nsp; sp++)
		if (s->left[sp] > 0)
			wt[k++] = (struct weight){ pressure(s, sp, most), sp };
	qsort(wt, (size_t) k, sizeof(*wt), heaviest_first);
	for (int i = 0; i < k; i++)
		s->order[i] = wt[i].sp;
	s->nlive = k;
	free(wt);
	free(most);
	return 0;
}
