/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the round schedule, medians, the retest list (pure). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"

int cxd_pairs_nrounds(int n)
{
	if (n < 2)
		return 0;
	return n % 2 ? n : n - 1;
}

int cxd_pairs_round(int n, int r, struct cxd_pair *pairs)
{
	/* Odd n: a phantom rank n makes it even; its partner sits out. */
	int m = n % 2 ? n + 1 : n, rot = m - 1, k = 0;

	if (n < 2 || r < 0 || r >= cxd_pairs_nrounds(n))
		return -1;
	for (int i = 0; i < m / 2; i++) {
		int a = i == 0 ? m - 1 : (r + i) % rot;
		int b = (r - i + rot) % rot;

		if (a >= n || b >= n)
			continue;
		pairs[k].a = a < b ? a : b;
		pairs[k].b = a < b ? b : a;
		k++;
	}
	return k;
}

int cxd_pairs_at(int n, int r, int t, struct cxd_pair *p)
{
	/* Odd n: index 0 would pair the phantom rank; the rest shift. */
	int m = n % 2 ? n + 1 : n, rot = m - 1, i = t + n % 2, a, b;

	if (n < 2 || r < 0 || r >= cxd_pairs_nrounds(n) || t < 0 ||
	    t >= n / 2)
		return -1;
	a = i == 0 ? m - 1 : (r + i) % rot;
	b = (r - i + rot) % rot;
	p->a = a < b ? a : b;
	p->b = a < b ? b : a;
	return 0;
}

int cxd_pairs_index_of(int n, int r, int x)
{
	int m = n % 2 ? n + 1 : n, rot = m - 1, i;

	if (n < 2 || r < 0 || r >= cxd_pairs_nrounds(n) || x < 0 || x >= n)
		return -1;
	if (x == m - 1 || x == r % rot) {
		i = 0; /* the fixed rank and its partner */
	} else {
		/* x is a = (r + i) % rot for some i in 1..rot-1; when that i
		 * is past the middle, x is b = (r - i') % rot, i' = rot - i. */
		i = ((x - r) % rot + rot) % rot;
		if (i > m / 2 - 1)
			i = rot - i;
	}
	if (n % 2 && i == 0)
		return -1; /* paired with the phantom: sits out */
	return i - n % 2;
}

int cxd_pairs_at_once(int n, const int *host, const int *cpus)
{
	int best = n / 2;

	for (int h = 0; h < n; h++) {
		int ranks = 0;

		for (int i = 0; i < n; i++)
			ranks += host[i] == h;
		if (ranks > cpus[h] && cpus[h] / 2 < best)
			best = cpus[h] / 2;
	}
	return best > 0 ? best : 1;
}

static int by_pair(const void *x, const void *y)
{
	const struct cxd_pair *a = x, *b = y;

	return a->a != b->a ? a->a - b->a : a->b - b->b;
}

size_t cxd_pairs_unique(struct cxd_pair *p, size_t n)
{
	size_t k = 0;

	qsort(p, n, sizeof(*p), by_pair);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || by_pair(&p[i], &p[k - 1]) != 0)
			p[k++] = p[i];
	return k;
}

size_t cxd_pairs_of_outliers(const struct cxd_outlier *o, size_t n,
			     struct cxd_pair *pairs)
{
	for (size_t i = 0; i < n; i++)
		pairs[i] = (struct cxd_pair){
			o[i].src < o[i].dst ? o[i].src : o[i].dst,
			o[i].src < o[i].dst ? o[i].dst : o[i].src };
	return cxd_pairs_unique(pairs, n);
}
