/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency statistics: exact moments, histogram buckets, percentiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/stats.h"
#include "support/unit_main.h"

/* The struct holds a 58 KiB histogram: keep it off the test stack. */
static struct cxd_lat_stats *new_stats(void)
{
	struct cxd_lat_stats *s = malloc(sizeof(*s));

	assert_non_null(s);
	cxd_stats_reset(s);
	return s;
}

/* Resets s and adds the samples: refill(s, SAMPLES(1, 2, 3)). */
#define SAMPLES(...) sizeof((const uint64_t[]){ __VA_ARGS__ }) / \
		     sizeof(uint64_t), (const uint64_t[]){ __VA_ARGS__ }
static void refill(struct cxd_lat_stats *s, size_t n, const uint64_t *v)
{
	cxd_stats_reset(s);
	for (size_t i = 0; i < n; i++)
		cxd_stats_add(s, v[i]);
}

/* Percentile p of s is exactly want, for each pair:
 * expect_pcts(s, PCTS({ 50, 2012 }, { 99, 1234567 })). */
struct pct {
	double p;
	uint64_t want;
};
#define PCTS(...) sizeof((const struct pct[]){ __VA_ARGS__ }) / \
		  sizeof(struct pct), (const struct pct[]){ __VA_ARGS__ }
static void expect_pcts(const struct cxd_lat_stats *s, size_t n,
			const struct pct *w)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t got = cxd_stats_percentile_ns(s, w[i].p);

		if (got != w[i].want)
			fail_msg("p%g: %llu, want %llu", w[i].p,
				 (unsigned long long) got,
				 (unsigned long long) w[i].want);
	}
}

static void test_stats_empty_gives_zeros(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	assert_int_equal(s->n, 0);
	assert_int_equal(cxd_stats_mean_ns(s), 0);
	assert_int_equal(cxd_stats_stddev_ns(s), 0);
	expect_pcts(s, PCTS({ 50, 0 }, { 100, 0 }));
	free(s);
}

static void test_stats_min_max_mean_stddev(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	for (uint64_t v = 1000; v <= 4000; v += 1000)
		cxd_stats_add(s, v);
	assert_int_equal(s->n, 4);
	assert_int_equal(s->min_ns, 1000);
	assert_int_equal(s->max_ns, 4000);
	assert_int_equal(cxd_stats_mean_ns(s), 2500);
	assert_int_equal(cxd_stats_stddev_ns(s), 1118); /* sqrt(1.25e6) */
	free(s);
}

/* Mean truncates, stddev of identical samples is 0, not NaN. */
static void test_stats_mean_truncates_stddev_population(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	refill(s, SAMPLES(1, 2));
	assert_int_equal(cxd_stats_mean_ns(s), 1);
	refill(s, SAMPLES(2070, 2070, 2070, 2070, 2070, 2070, 2070));
	assert_int_equal(cxd_stats_mean_ns(s), 2070);
	assert_int_equal(cxd_stats_stddev_ns(s), 0);
	expect_pcts(s, PCTS({ 50, 2070 }, { 99.9, 2070 }));
	/* {2080, 2100}: population stddev 10, sample stddev would be 14. */
	refill(s, SAMPLES(2080, 2100));
	assert_int_equal(cxd_stats_stddev_ns(s), 10);
	free(s);
}

static void test_exact_percentiles(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	/* Added in reverse: order must not matter. */
	for (uint64_t v = 100; v >= 1; v--)
		cxd_stats_add(s, v);
	expect_pcts(s, PCTS({ 50, 50 }, { 90, 90 }, { 99, 99 }, { 99.9, 100 },
			    { 100, 100 }, { 0.5, 1 }, { 1, 1 }, { 1.01, 2 }));
	free(s);
}

/* Nearest rank on 1000 samples: p99.9 is rank 999, not 1000. */
static void test_rank_rounding(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	for (uint64_t v = 0; v < 1000; v++)
		cxd_stats_add(s, v % 250);
	/* Values 0..249 four times each: rank 999 is value 249; rank 500,
	 * the 500th smallest: 124. */
	expect_pcts(s, PCTS({ 99.9, 249 }, { 50, 124 }, { 10, 24 }));
	free(s);
}

static uint64_t true_percentile(const uint64_t *sorted, uint64_t n, double p)
{
	uint64_t rank = (uint64_t) ((p * (double) n + 99.999999) / 100);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_close(const struct cxd_lat_stats *s, const uint64_t *sorted,
			uint64_t n, double p)
{
	uint64_t want = true_percentile(sorted, n, p);
	uint64_t got = cxd_stats_percentile_ns(s, p);
	double err = (double) (got > want ? got - want : want - got) /
		     (double) want;

	assert_true(err <= 1.0 / 128);
	assert_true(got >= s->min_ns && got <= s->max_ns);
}

static void test_large_percentiles(void **state)
{
	struct cxd_lat_stats *s = new_stats();
	enum { N = 10000 };
	uint64_t *v = malloc(N * sizeof(*v));
	const double ps[] = { 0.01, 1, 25, 50, 90, 99, 99.9, 99.99 };

	(void) state;
	assert_non_null(v);
	/* A quadratic spread from 300 ns to ~300 ms, already sorted. */
	for (uint64_t i = 0; i < N; i++) {
		v[i] = 300 + i * i * 3 + i * 7;
		cxd_stats_add(s, v[i]);
	}
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		check_close(s, v, N, ps[i]);
	assert_int_equal(cxd_stats_percentile_ns(s, 100), v[N - 1]);
	free(v);
	free(s);
}

/* The first and last ranks are the exact extremes, not bucket midpoints. */
static void test_extreme_ranks(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	refill(s, SAMPLES(2008, 2012, 1234567));
	expect_pcts(s, PCTS({ 10, 2008 }, { 99, 1234567 }, { 50, 2012 }));
	free(s);
}

/* Population stddev from the exact mean (50.5), not the truncated 50. */
static void test_stddev_exact_mean(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	for (uint64_t v = 1; v <= 100; v++)
		cxd_stats_add(s, v);
	assert_int_equal(cxd_stats_mean_ns(s), 50);
	assert_int_equal(cxd_stats_stddev_ns(s), 28); /* 28.866 */
	refill(s, SAMPLES(2090, 2091));
	assert_int_equal(cxd_stats_stddev_ns(s), 0); /* 0.5, not 1.4 */
	free(s);
}

/* A single log bucket holding min and max: results stay in [min, max]. */
static void test_stats_percentiles_stay_within_min_max(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	refill(s, SAMPLES(100001, 100002));
	assert_int_equal(cxd_hist_bucket(100001), cxd_hist_bucket(100002));
	for (double p = 1; p <= 100; p += 7) {
		uint64_t got = cxd_stats_percentile_ns(s, p);

		assert_true(got >= 100001 && got <= 100002);
	}
	assert_int_equal(cxd_stats_percentile_ns(s, 100), 100002);
	cxd_stats_reset(s);
	cxd_stats_add(s, UINT64_MAX);
	assert_int_equal(cxd_stats_percentile_ns(s, 50), UINT64_MAX);
	assert_int_equal(s->min_ns, UINT64_MAX);
	free(s);
}

static void test_bucket_layout(void **state)
{
	(void) state;
	for (unsigned b = 0; b < 256; b++) {
		assert_int_equal(cxd_hist_bucket_low(b), b);
		assert_int_equal(cxd_hist_bucket_width(b), 1);
		assert_int_equal(cxd_hist_bucket(b), b);
	}
	/* Contiguous and monotone; the last bucket ends at 2^64 (wraps). */
	for (unsigned b = 0; b + 1 < CXD_HIST_BUCKETS; b++) {
		uint64_t lo = cxd_hist_bucket_low(b);
		uint64_t w = cxd_hist_bucket_width(b);

		assert_int_equal(cxd_hist_bucket_low(b + 1), lo + w);
		assert_true(cxd_hist_bucket_low(b + 1) > lo);
		assert_int_equal(cxd_hist_bucket(lo), b);
		assert_int_equal(cxd_hist_bucket(lo + w - 1), b);
		/* Every bucket is at most 1/128 of its low edge wide. */
		assert_true(b < 256 || w * 128 <= lo);
	}
	assert_int_equal(cxd_hist_bucket(UINT64_MAX), CXD_HIST_BUCKETS - 1);
	assert_int_equal(cxd_hist_bucket_low(CXD_HIST_BUCKETS - 1) +
			 cxd_hist_bucket_width(CXD_HIST_BUCKETS - 1), 0);
	assert_int_equal(cxd_hist_bucket(256), 256);
	assert_int_equal(cxd_hist_bucket(257), 256);
	assert_int_equal(cxd_hist_bucket(258), 257);
}

static void test_stats_reset_clears_histogram_min_max(void **state)
{
	struct cxd_lat_stats *s = new_stats();

	(void) state;
	cxd_stats_add(s, 5000);
	cxd_stats_reset(s);
	assert_int_equal(s->n, 0);
	assert_int_equal(s->hist[cxd_hist_bucket(5000)], 0);
	cxd_stats_add(s, 7);
	assert_int_equal(s->min_ns, 7);
	assert_int_equal(s->max_ns, 7);
	free(s);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_stats_empty_gives_zeros),
	cmocka_unit_test(test_stats_min_max_mean_stddev),
	cmocka_unit_test(test_stats_mean_truncates_stddev_population),
	cmocka_unit_test(test_exact_percentiles),
	cmocka_unit_test(test_rank_rounding),
	cmocka_unit_test(test_large_percentiles),
	cmocka_unit_test(test_extreme_ranks),
	cmocka_unit_test(test_stddev_exact_mean),
	cmocka_unit_test(test_stats_percentiles_stay_within_min_max),
	cmocka_unit_test(test_bucket_layout),
	cmocka_unit_test(test_stats_reset_clears_histogram_min_max))
