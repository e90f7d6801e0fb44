/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's pure parts: the circle schedule, medians, the retest list
 * (the verdict's rules: test_judge.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/model/pairs.h"
#include "sweep/judge/stat.h"

/* Every pair exactly once, no rank twice in a round, the right count. */
static void check_schedule(int n)
{
	int nr = cxd_pairs_nrounds(n);
	char *seen = calloc((size_t) n * n, 1);
	struct cxd_pair p[64];
	int total = 0;

	assert_non_null(seen);
	assert_int_equal(nr, n % 2 ? n : n - 1);
	for (int r = 0; r < nr; r++) {
		char busy[128] = { 0 };
		int k = cxd_pairs_round(n, r, p);

		assert_int_equal(k, n / 2);
		for (int i = 0; i < k; i++) {
			assert_true(p[i].a >= 0 && p[i].a < p[i].b &&
				    p[i].b < n);
			assert_false(busy[p[i].a] || busy[p[i].b]);
			busy[p[i].a] = busy[p[i].b] = 1;
			assert_int_equal(seen[p[i].a * n + p[i].b], 0);
			seen[p[i].a * n + p[i].b] = 1;
			total++;
		}
	}
	assert_int_equal(total, n * (n - 1) / 2);
	free(seen);
}

/* One pair at a time, and each rank's place, agree with whole rounds. */
static void test_pair_at_and_place(void **state)
{
	struct cxd_pair p[64], q;

	(void) state;
	for (int n = 2; n <= 41; n++)
		for (int r = 0; r < cxd_pairs_nrounds(n); r++) {
			int k = cxd_pairs_round(n, r, p), seen = 0;

			for (int t = 0; t < k; t++) {
				assert_int_equal(cxd_pairs_at(n, r, t, &q), 0);
				assert_int_equal(q.a, p[t].a);
				assert_int_equal(q.b, p[t].b);
			}
			assert_int_equal(cxd_pairs_at(n, r, k, &q), -1);
			for (int x = 0; x < n; x++) {
				int t = cxd_pairs_index_of(n, r, x);

				if (t < 0)
					continue;
				seen++;
				assert_true(p[t].a == x || p[t].b == x);
			}
			/* Everyone placed but the one sitting out. */
			assert_int_equal(seen, 2 * k);
		}
	assert_int_equal(cxd_pairs_index_of(4, 3, 0), -1);
	assert_int_equal(cxd_pairs_index_of(4, 0, 4), -1);
}

static void test_schedule_sizes(void **state)
{
	(void) state;
	for (int n = 2; n <= 65; n++)
		check_schedule(n);
}

static void test_schedule_bad_args(void **state)
{
	struct cxd_pair p[4];

	(void) state;
	assert_int_equal(cxd_pairs_nrounds(1), 0);
	assert_int_equal(cxd_pairs_nrounds(0), 0);
	assert_int_equal(cxd_pairs_round(1, 0, p), -1);
	assert_int_equal(cxd_pairs_round(4, 3, p), -1);
	assert_int_equal(cxd_pairs_round(4, -1, p), -1);
	/* Odd: every rank sits out exactly once over the n rounds. */
	for (int r = 0; r < 5; r++)
		assert_int_equal(cxd_pairs_round(5, r, p), 2);
}

static void test_sweep_median_skips_nan(void **state)
{
	double v[] = { NAN, 3, 1, 2, NAN, 10 };

	(void) state;
	assert_true(fabs(cxd_stat_median(v, 6) - 2.5) < 1e-9);
	assert_true(fabs(cxd_stat_median(v, 4) - 2) < 1e-9);
	assert_true(isnan(cxd_stat_median(v, 1)));
}

/* The retest list: each pair once, whichever way its outliers run. */
static void test_retest_pairs(void **state)
{
	struct cxd_outlier o[4] = {
		{ .src = 2, .dst = 0 }, { .src = 0, .dst = 2 },
		{ .src = 3, .dst = 1 }, { .src = 2, .dst = 0 },
	};
	struct cxd_pair p[4];

	(void) state;
	assert_int_equal(cxd_pairs_of_outliers(o, 4, p), 2);
	assert_int_equal(p[0].a, 0);
	assert_int_equal(p[0].b, 2);
	assert_int_equal(p[1].a, 1);
	assert_int_equal(p[1].b, 3);
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *) x, b = *(const double *) y;

	return (a > b) - (a < b);
}

/* The selection over rows held by "ranks" (chunks), summing per-chunk
 * counts as the sweep sums them over MPI: exact k-th values. */
static double select_k(const double *v, int rows, int len, uint64_t k)
{
	struct cxd_select s;
	int steps = 0;

	cxd_stat_select_init(&s, k);
	while (!cxd_stat_select_done(&s)) {
		uint64_t le = 0;

		for (int r = 0; r < rows; r++)
			le += cxd_stat_count_le(v + r * len, (size_t) len,
						cxd_stat_select_pivot(&s));
		cxd_stat_select_step(&s, le);
		steps++;
	}
	assert_true(steps <= 64);
	return cxd_stat_select_value(&s);
}

static void test_sweep_select_kth_matches_a_sort(void **state)
{
	enum { ROWS = 7, LEN = 9 };
	double v[ROWS * LEN], sorted[ROWS * LEN];
	int nf = 0;

	(void) state;
	srand(7);
	for (int i = 0; i < ROWS * LEN; i++) {
		/* Ties, zeros, tiny and huge figures, NAN (the diagonal). */
		v[i] = i % LEN == i / LEN ? NAN : i % 5 == 0 ? 24.5 :
		       i % 11 == 0 ? 0 : (double) rand() / RAND_MAX *
		       (i % 2 ? 1e-3 : 1e6);
		if (isfinite(v[i]))
			sorted[nf++] = v[i];
	}
	qsort(sorted, (size_t) nf, sizeof(double), cmp_d);
	for (int k = 0; k < nf; k++)
		assert_true(select_k(v, ROWS, LEN, (uint64_t) k) == sorted[k]);
	/* The two middles give the median the whole matrix would. */
	assert_true((select_k(v, ROWS, LEN, (uint64_t) (nf - 1) / 2) +
		     select_k(v, ROWS, LEN, (uint64_t) nf / 2)) / 2 ==
		    cxd_stat_median(v, ROWS * LEN));
	assert_int_equal(cxd_stat_count_finite(v, ROWS * LEN), nf);
}

/* The worst of each row's worst are the worst of all, ties to the first. */
static void test_sweep_worst_of_row_worsts_is_overall(void **state)
{
	double v[] = { NAN, 5, 3, 3, NAN, 9, 1, 3, NAN };
	double cand[9];
	size_t pick[3], all[3], row[3];
	int nc = 0, k;

	(void) state;
	assert_int_equal(cxd_stat_worst(v, 9, true, all, 3), 3);
	assert_int_equal(all[0], 6);
	assert_int_equal(all[1], 2);
	assert_int_equal(all[2], 3);
	assert_int_equal(cxd_stat_worst(v, 9, false, pick, 3), 3);
	assert_int_equal(pick[0], 5);
	size_t where[9];

	for (int r = 0; r < 3; r++) {
		k = cxd_stat_worst(v + 3 * r, 3, true, row, 3);
		for (int i = 0; i < k; i++) {
			where[nc] = 3 * (size_t) r + row[i];
			cand[nc++] = v[3 * r + (int) row[i]];
		}
	}
	assert_int_equal(cxd_stat_worst(cand, (size_t) nc, true, pick, 3), 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(where[pick[i]], all[i]);
	/* Nothing finite: nothing picked. */
	assert_int_equal(cxd_stat_worst(v, 1, true, pick, 3), 0);
}

static void test_pairs_at_once(void **state)
{
	int one_host[8] = { 0 }, cpus2[8] = { 2 }, cpus16[8] = { 16 };
	int spread[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	int cpus_each[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };

	(void) state;
	/* 8 ranks on one 2-core host: one pair at a time. */
	assert_int_equal(cxd_pairs_at_once(8, one_host, cpus2), 1);
	/* Enough cores: the whole round. */
	assert_int_equal(cxd_pairs_at_once(8, one_host, cpus16), 4);
	/* One rank per host, even on 1-core hosts: the whole round. */
	assert_int_equal(cxd_pairs_at_once(8, spread, cpus_each), 4);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_schedule_sizes),
	cmocka_unit_test(test_pair_at_and_place),
	cmocka_unit_test(test_schedule_bad_args),
	cmocka_unit_test(test_sweep_median_skips_nan),
	cmocka_unit_test(test_retest_pairs),
	cmocka_unit_test(test_pairs_at_once),
	cmocka_unit_test(test_sweep_select_kth_matches_a_sort),
	cmocka_unit_test(test_sweep_worst_of_row_worsts_is_overall))
