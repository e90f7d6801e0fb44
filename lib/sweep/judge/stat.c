/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's statistics (stat.h): medians, and order statistics over all
 * links without holding them (pure). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *) x, b = *(const double *) y;

	return (a > b) - (a < b);
}

double cxd_stat_median(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), med;
	size_t k = 0;

	if (c == NULL)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			c[k++] = v[i];
	if (k == 0) {
		free(c);
		return NAN;
	}
	qsort(c, k, sizeof(*c), cmp_double);
	med = k % 2 ? c[k / 2] : (c[k / 2 - 1] + c[k / 2]) / 2;
	free(c);
	return med;
}

#define POS_INF_BITS 0x7ff0000000000000ULL

static double of_bits(uint64_t b)
{
	double x;

	memcpy(&x, &b, sizeof(x));
	return x;
}

void cxd_stat_select_init(struct cxd_select *s, uint64_t k)
{
	*s = (struct cxd_select){ 0, POS_INF_BITS, k };
}

bool cxd_stat_select_done(const struct cxd_select *s)
{
	return s->lo >= s->hi;
}

double cxd_stat_select_pivot(const struct cxd_select *s)
{
	return of_bits(s->lo + (s->hi - s->lo) / 2);
}

void cxd_stat_select_step(struct cxd_select *s, uint64_t le)
{
	uint64_t mid = s->lo + (s->hi - s->lo) / 2;

	/* The answer is the smallest pattern with more than k at or below. */
	if (le > s->k)
		s->hi = mid;
	else
		s->lo = mid + 1;
}

double cxd_stat_select_value(const struct cxd_select *s)
{
	return of_bits(s->lo);
}

uint64_t cxd_stat_count_le(const double *v, size_t n, double x)
{
	uint64_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += isfinite(v[i]) && v[i] <= x;
	return k;
}

uint64_t cxd_stat_count_finite(const double *v, size_t n)
{
	uint64_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += isfinite(v[i]) != 0;
	return k;
}

int cxd_stat_worst(const double *v, size_t n, bool low, size_t *pick, int k)
{
	int got = 0;

	for (; got < k; got++) {
		size_t best = n;

		for (size_t i = 0; i < n; i++) {
			bool taken = false;

			for (int j = 0; j < got; j++)
				taken |= pick[j] == i;
			if (taken || !isfinite(v[i]))
				continue;
			if (best == n || (low ? v[i] < v[best] :
					  v[i] > v[best]))
				best = i;
		}
		if (best == n)
			break;
		pick[got] = best;
	}
	return got;
}
