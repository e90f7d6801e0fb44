/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pairs packed into rounds, first fit (pack_rounds.h). A round scans
 * every pair left, so the cost is rounds x pairs; what keeps that to
 * seconds at a thousand ranks (half a million pairs, thousands of
 * rounds) is that a class found not to fit in a round is not looked at
 * again in it (its links only fill up), and a run of its pairs in the
 * order is passed over whole.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "pack_rounds.h"

/* A load this close over a link's cap still fits: shares are sums. */
#define EPS 1e-9

/* The round being filled: busy[r], lround[l] and cfull[c] hold the
 * round that last used rank r, loaded link l or found class c not to
 * fit (so nothing is cleared between rounds); load[l] what link l
 * carries in it. */
struct fill {
	int round, filled;
	int *busy, *lround, *cfull;
	double *load;
	double *left; /* per link: what the pairs not yet placed load */
};

static double load_of(const struct fill *k, int l)
{
	return k->lround[l] == k->round ? k->load[l] : 0.0;
}

static bool links_fit(const struct cxd_pack *pk, struct fill *k, int c)
{
	if (k->cfull[c] == k->round)
		return false;
	for (size_t e = pk->x_at[c]; e < pk->x_at[c + 1]; e++) {
		int l = pk->x_link[e];
		double now;

		if (l < 0)
			continue;
		now = load_of(k, l);
		if (now > 0 && now + pk->x_load[e] > pk->cap[l] + EPS) {
			k->cfull[c] = k->round;
			return false;
		}
	}
	return true;
}

static bool fits(const struct cxd_pack *pk, struct fill *k, int i)
{
	const struct cxd_pair *p = &pk->pair[i];

	if (k->busy[p->a] == k->round || k->busy[p->b] == k->round)
		return false;
	return links_fit(pk, k, pk->cls[i]);
}

static void place(const struct cxd_pack *pk, struct fill *k, int i)
{
	int c = pk->cls[i];

	k->busy[pk->pair[i].a] = k->busy[pk->pair[i].b] = k->round;
	for (size_t e = pk->x_at[c]; e < pk->x_at[c + 1]; e++) {
		int l = pk->x_link[e];

		if (l < 0)
			continue;
		k->load[l] = load_of(k, l) + pk->x_load[e];
		k->lround[l] = k->round;
		if (k->left)
			k->left[l] -= pk->x_load[e];
	}
	k->filled++;
}

struct prio {
	double need;
	int u;
};

/* The order cut in runs of one class (half a million pairs in a few
 * thousand runs when made class by class, one a pair at worst): a run
 * whose class does not fit is passed over whole. Run u holds its pairs
 * left at q[at[u] .. at[u] + len[u]); next: the runs with pairs left. */
struct runs {
	int *at, *len, *next;
	int first;
	struct prio *pr; /* room to reorder them (pk->every), else NULL */
};

static int runs_make(const struct cxd_pack *pk, const int *q,
		     struct runs *ru)
{
	size_t room = 1;
	int nr = 0;

	for (int j = 1; j < pk->npair; j++) /* the runs counted first */
		room += pk->cls[q[j]] != pk->cls[q[j - 1]];
	ru->at = malloc((room + 1) * sizeof(int));
	ru->len = malloc((room + 1) * sizeof(int));
	ru->next = malloc((room + 1) * sizeof(int));
	if (pk->every > 0)
		ru->pr = malloc((room + 1) * sizeof(*ru->pr));
	if (!ru->at || !ru->len || !ru->next || (pk->every > 0 && !ru->pr))
		return -ENOMEM;
	for (int j = 0; j < pk->npair; j++) {
		if (j == 0 || pk->cls[q[j]] != pk->cls[q[j - 1]]) {
			ru->at[nr] = j;
			ru->len[nr] = 0;
			ru->next[nr] = nr + 1;
			nr++;
		}
		ru->len[nr - 1]++;
	}
	if (nr > 0)
		ru->next[nr - 1] = -1;
	ru->first = nr > 0 ? 0 : -1;
	return 0;
}

/* Run u's pairs that fit join the round, the rest kept in order. */
static void run_fill(const struct cxd_pack *pk, struct fill *k, int *q,
		     int *ord, int *at, int start, int *len)
{
	int keep = start;

	for (int j = start; j < start + *len; j++) {
		bool room = pk->most <= 0 || k->filled < pk->most;

		if (room && fits(pk, k, q[j])) {
			place(pk, k, q[j]);
			ord[(*at)++] = q[j];
		} else {
			q[keep++] = q[j];
		}
	}
	*len = keep - start;
}

/* What class c's links still need: the rounds each needs (a link
 * carries one pair a round at least), squared so that the busiest weigh
 * most, summed so that a class on several busy links goes before one
 * on a single one (at 1,024 ranks 7,360 rounds against 7,648 by the
 * busiest link alone). */
static double need(const struct cxd_pack *pk, const struct fill *k, int c)
{
	double sum = 0;

	for (size_t e = pk->x_at[c]; e < pk->x_at[c + 1]; e++) {
		int l = pk->x_link[e];
		double r;

		if (l < 0)
			continue;
		r = k->left[l] / (pk->cap[l] > 1 ? pk->cap[l] : 1);
		sum += r * r;
	}
	return sum;
}

static int by_need(const void *x, const void *y)
{
	const struct prio *a = x, *b = y;

	if (a->need != b->need)
		return a->need > b->need ? -1 : 1;
	return (a->u > b->u) - (a->u < b->u);
}

/* The runs left relinked by need, most first (pr: room for them). */
static void reorder(const struct cxd_pack *pk, const struct fill *k,
		    const int *q, struct runs *ru, struct prio *pr)
{
	int m = 0;

	for (int u = ru->first; u >= 0; u = ru->next[u])
		pr[m++] = (struct prio){ need(pk, k, pk->cls[q[ru->at[u]]]),
					 u };
	qsort(pr, (size_t) m, sizeof(*pr), by_need);
	ru->first = m > 0 ? pr[0].u : -1;
	for (int i = 0; i < m; i++)
		ru->next[pr[i].u] = i + 1 < m ? pr[i + 1].u : -1;
}

/* Round by round: each takes, in order, every pair left that fits (the
 * same rounds as placing each pair in the first that fits), until it
 * holds the most a round may. */
static void fill(const struct cxd_pack *pk, struct fill *k, int *q,
		 struct runs *ru, int *ord, int *round_at, int *nround)
{
	int at = 0;

	for (k->round = 0; ru->first >= 0; k->round++) {
		int *link = &ru->first;

		if (ru->pr && k->round % pk->every == 0)
			reorder(pk, k, q, ru, ru->pr);
		round_at[k->round] = at;
		k->filled = 0;
		while (*link >= 0) {
			int u = *link;

			if (pk->most > 0 && k->filled >= pk->most)
				break;
			if (links_fit(pk, k, pk->cls[q[ru->at[u]]]))
				run_fill(pk, k, q, ord, &at, ru->at[u],
					 &ru->len[u]);
			if (ru->len[u] == 0)
				*link = ru->next[u]; /* emptied: unlinked */
			else
				link = &ru->next[u];
		}
	}
	round_at[k->round] = at;
	*nround = k->round;
}

/* What every pair loads, per link, before any is placed (only when
 * the runs are reordered). 0 or -ENOMEM. */
static int left_make(const struct cxd_pack *pk, struct fill *k)
{
	if (pk->every <= 0)
		return 0;
	k->left = calloc((size_t) pk->nlink + 1, sizeof(double));
	if (!k->left)
		return -ENOMEM;
	for (int i = 0; i < pk->npair; i++) {
		int c = pk->cls[i];

		for (size_t e = pk->x_at[c]; e < pk->x_at[c + 1]; e++)
			if (pk->x_link[e] >= 0)
				k->left[pk->x_link[e]] += pk->x_load[e];
	}
	return 0;
}

int cxd_pack_rounds(const struct cxd_pack *pk, int *q, int *ord,
		    int *round_at, int *nround)
{
	size_t nl = (size_t) pk->nlink + 1, nc = (size_t) pk->ncls + 1;
	struct fill k = { .busy = malloc(((size_t) pk->n + 1) * sizeof(int)),
			  .lround = malloc(nl * sizeof(int)),
			  .cfull = malloc(nc * sizeof(int)),
			  .load = malloc(nl * sizeof(double)) };
	struct runs ru = { NULL, NULL, NULL, -1, NULL };
	int ret = k.busy && k.lround && k.cfull && k.load ?
		  runs_make(pk, q, &ru) : -ENOMEM;

	if (ret == 0)
		ret = left_make(pk, &k);
	if (ret == 0) {
		for (int r = 0; r < pk->n; r++)
			k.busy[r] = -1;
		for (size_t l = 0; l < nl; l++)
			k.lround[l] = -1;
		for (size_t c = 0; c < nc; c++)
			k.cfull[c] = -1;
		fill(pk, &k, q, &ru, ord, round_at, nround);
	}
	free(ru.at);
	free(ru.len);
	free(ru.next);
	free(ru.pr);
	free(k.left);
	free(k.busy);
	free(k.lround);
	free(k.cfull);
	free(k.load);
	return ret;
}
