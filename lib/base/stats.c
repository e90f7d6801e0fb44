/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency statistics: exact moments, percentiles from a log-linear histogram. */
#include <math.h>
#include <string.h>

#include "stats.h"

#define EXACT_LIMIT (1ull << CXD_HIST_EXACT_BITS)
#define SUB_COUNT (1u << CXD_HIST_SUB_BITS)

void cxd_stats_reset(struct cxd_lat_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min_ns = UINT64_MAX;
}

/*
 * Above the exact range the top CXD_HIST_SUB_BITS bits below the leading
 * one pick the sub-bucket, so every bucket spans at most 1/128 of its low
 * edge: one clz, one shift, no loop.
 */
unsigned cxd_hist_bucket(uint64_t ns)
{
	unsigned e, sub;

	if (ns < EXACT_LIMIT)
		return (unsigned) ns;
	e = 63u - (unsigned) __builtin_clzll(ns);
	sub = (unsigned) (ns >> (e - CXD_HIST_SUB_BITS)) & (SUB_COUNT - 1);
	return (unsigned) EXACT_LIMIT +
	       (e - CXD_HIST_EXACT_BITS) * SUB_COUNT + sub;
}

uint64_t cxd_hist_bucket_low(unsigned b)
{
	unsigned e, sub;

	if (b < EXACT_LIMIT)
		return b;
	e = (b - (unsigned) EXACT_LIMIT) / SUB_COUNT + CXD_HIST_EXACT_BITS;
	sub = (b - (unsigned) EXACT_LIMIT) % SUB_COUNT;
	return ((uint64_t) SUB_COUNT + sub) << (e - CXD_HIST_SUB_BITS);
}

uint64_t cxd_hist_bucket_width(unsigned b)
{
	unsigned e;

	if (b < EXACT_LIMIT)
		return 1;
	e = (b - (unsigned) EXACT_LIMIT) / SUB_COUNT + CXD_HIST_EXACT_BITS;
	return 1ull << (e - CXD_HIST_SUB_BITS);
}

void cxd_stats_add(struct cxd_lat_stats *s, uint64_t ns)
{
	long double v = (long double) ns;

	s->n++;
	if (ns < s->min_ns)
		s->min_ns = ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	s->sum += v;
	s->sum2 += v * v;
	s->hist[cxd_hist_bucket(ns)]++;
}

uint64_t cxd_stats_mean_ns(const struct cxd_lat_stats *s)
{
	if (s->n == 0)
		return 0;
	return (uint64_t) (s->sum / (long double) s->n);
}

/*
 * Population variance from the exact mean. The originals subtract the
 * square of the truncated mean, which inflates a 10 ns spread around a
 * 2 us mean to ~45 ns; only the printed result is truncated here.
 */
uint64_t cxd_stats_stddev_ns(const struct cxd_lat_stats *s)
{
	long double n, mean, var;

	if (s->n == 0)
		return 0;
	n = (long double) s->n;
	mean = s->sum / n;
	var = s->sum2 / n - mean * mean;
	if (var <= 0)
		return 0;
	return (uint64_t) sqrtl(var);
}

/* Nearest rank, guarded against p*n/100 landing a hair above an integer. */
static uint64_t rank_of(uint64_t n, double p)
{
	long double x = (long double) p * (long double) n / 100.0L;
	long double r = ceill(x - 1e-13L * (x > 1 ? x : 1));

	if (r < 1)
		return 1;
	if (r > (long double) n)
		return n;
	return (uint64_t) r;
}

uint64_t cxd_stats_percentile_ns(const struct cxd_lat_stats *s, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned b, last;

	if (s->n == 0)
		return 0;
	if (!(p < 100))
		return s->max_ns;
	rank = rank_of(s->n, p);
	/* The extreme ranks are known exactly: no bucket midpoint needed. */
	if (rank == 1)
		return s->min_ns;
	if (rank == s->n)
		return s->max_ns;
	/* No sample lies outside the min..max buckets: walk only those. */
	last = cxd_hist_bucket(s->max_ns);
	for (b = cxd_hist_bucket(s->min_ns); b < last; b++) {
		seen += s->hist[b];
		if (seen >= rank)
			break;
	}
	if (b < EXACT_LIMIT)
		return b;
	v = cxd_hist_bucket_low(b) + cxd_hist_bucket_width(b) / 2;
	if (v < s->min_ns)
		return s->min_ns;
	if (v > s->max_ns)
		return s->max_ns;
	return v;
}
