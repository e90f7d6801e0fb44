/* SPDX-License-Identifier: BSD-3-Clause */
/* A covering plan's rounds (plan_cover_rounds.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "plan_cover_rounds.h"

/* A load this close over a link's count still fits: shares are sums. */
#define EPS 1e-9

/* The round being filled: busy[r] and lround[l] hold the round that
 * last used rank r and link l (so nothing is cleared between rounds),
 * load[l] what link l carries in it. */
struct pack {
	int round, filled;
	int *busy, *lround;
	double *load;
};

struct order {
	int nl, i;
};

static bool is_link(const struct cxd_cover_work *w, int c)
{
	return c >= w->n && c < w->n + w->tm->nlink;
}

/* Most links first; then as chosen (the sort is not stable). */
static int by_links(const void *x, const void *y)
{
	const struct order *a = x, *b = y;

	if (a->nl != b->nl)
		return a->nl > b->nl ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static double load_of(const struct pack *k, int l)
{
	return k->lround[l] == k->round ? k->load[l] : 0.0;
}

/* Each link crossing loads its line with a whole pair, even where only
 * one of the pair's ways crosses it: the fabric's hash, unknown, may
 * put any two such pairs on one cable, where they run at half rate. In
 * a fat tree's round of six pairs out of a leaf over six spines most
 * met, and the plan's typical pair across leaves was a crowded one (a
 * leaf at 60 % then looked typical). */
static bool fits(const struct cxd_cover_work *w, const struct pack *k,
		 int i)
{
	int sp = w->pair_sp[i];

	if (k->filled == 0)
		return true; /* alone, any pair runs */
	if (k->busy[w->pair[i].a] == k->round ||
	    k->busy[w->pair[i].b] == k->round)
		return false;
	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
		int c = w->x[e].comp, l = c - w->n;

		if (is_link(w, c) && load_of(k, l) + 1.0 >
					     w->tm->link[l].count + EPS)
			return false;
	}
	return true;
}

static void place(const struct cxd_cover_work *w, struct pack *k, int i)
{
	int sp = w->pair_sp[i];

	k->busy[w->pair[i].a] = k->busy[w->pair[i].b] = k->round;
	for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++) {
		int c = w->x[e].comp, l = c - w->n;

		if (!is_link(w, c))
			continue;
		k->load[l] = load_of(k, l) + 1.0;
		k->lround[l] = k->round;
	}
	k->filled++;
}

/* The pairs in the order they are fitted. */
static int sorted(const struct cxd_cover_work *w, int *q)
{
	struct order *o = malloc(((size_t) w->npair + 1) * sizeof(*o));

	if (!o)
		return -ENOMEM;
	for (int i = 0; i < w->npair; i++) {
		int sp = w->pair_sp[i];

		o[i] = (struct order){ 0, i };
		for (size_t e = w->x_at[sp]; e < w->x_at[sp + 1]; e++)
			o[i].nl += is_link(w, w->x[e].comp);
	}
	qsort(o, (size_t) w->npair, sizeof(*o), by_links);
	for (int i = 0; i < w->npair; i++)
		q[i] = o[i].i;
	free(o);
	return 0;
}

/* Round by round: each takes, in order, every pair left that fits
 * (the same rounds as placing each pair in the first that fits). */
static void fill(const struct cxd_cover_work *w, struct pack *k, int *q,
		 int *ord, int *round_at, int *nround)
{
	int left = w->npair, at = 0;

	k->round = 0;
	while (left > 0) {
		int keep = 0;

		round_at[k->round] = at;
		k->filled = 0;
		for (int j = 0; j < left; j++) {
			if (fits(w, k, q[j])) {
				place(w, k, q[j]);
				ord[at++] = q[j];
			} else {
				q[keep++] = q[j];
			}
		}
		left = keep;
		k->round++;
	}
	round_at[k->round] = at;
	*nround = k->round;
}

int cxd_cover_rounds(const struct cxd_cover_work *w, int *ord,
		     int *round_at, int *nround)
{
	size_t nl = (size_t) w->tm->nlink + 1;
	int *q = malloc(((size_t) w->npair + 1) * sizeof(int));
	struct pack k = { .busy = malloc(((size_t) w->n + 1) * sizeof(int)),
			  .lround = malloc(nl * sizeof(int)),
			  .load = malloc(nl * sizeof(double)) };
	int ret = q && k.busy && k.lround && k.load ? sorted(w, q) : -ENOMEM;

	if (ret == 0) {
		for (int r = 0; r < w->n; r++)
			k.busy[r] = -1;
		for (size_t l = 0; l < nl; l++)
			k.lround[l] = -1;
		fill(w, &k, q, ord, round_at, nround);
	}
	free(q);
	free(k.busy);
	free(k.lround);
	free(k.load);
	return ret;
}
