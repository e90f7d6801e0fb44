/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's row statistics (lib/sweep/judge/stat_row.c): medians, spreads,
 * noise, the summaries' column medians, the retest's kept figures. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/stat.h"
#include "sweep/judge/stat_row.h"

/* This cmocka has no assert_double_equal. */
#define assert_near(x, want, eps) assert_true(fabs((x) - (want)) <= (eps))

/* Rank 0's row of 3: itself (NAN), a noisy link, a steady one. */
static void test_row_stats_give_medians_spreads_and_pooled_noise(
	void **state)
{
	double bw[9] = { NAN, NAN, NAN, 100, 110, 90, 200, 200, 200 };
	double lat[9] = { NAN, NAN, NAN, 2, 2, 2, 4, 5, 3 };
	double row_bw[3], row_lat[3], sp_bw[3], sp_lat[3], noise[2];

	(void) state;
	assert_int_equal(cxd_stat_row(3, 3, (double *[2]){ bw, lat },
				      (double *[2]){ row_bw, row_lat },
				      (double *[2]){ sp_bw, sp_lat }, noise),
			 0);
	assert_true(isnan(row_bw[0]) && isnan(sp_bw[0]));
	assert_near(row_bw[1], 100, 1e-12);
	assert_near(sp_bw[1], 20, 1e-12);  /* (110 - 90) / 100 */
	assert_near(row_bw[2], 200, 1e-12);
	assert_near(sp_bw[2], 0, 1e-12);
	assert_near(row_lat[2], 4, 1e-12);
	assert_near(sp_lat[2], 50, 1e-12);
	/* bw diffs 0.1 0.1 0.2 0 0 0: median of six, (0 + 0.1) / 2. */
	assert_near(noise[0], 0.05, 1e-12);
	/* lat diffs 0 0 0 .25 .25 .5 */
	assert_near(noise[1], 0.125, 1e-12);
}

/* One repeat: no differences, so no noise figure (NAN), spread 0. */
static void test_row_stats_with_one_repeat_have_no_noise(void **state)
{
	double bw[2] = { NAN, 5 }, lat[2] = { NAN, 1 };
	double rb[2], rl[2], sb[2], sl[2], noise[2];

	(void) state;
	assert_int_equal(cxd_stat_row(2, 1, (double *[2]){ bw, lat },
				      (double *[2]){ rb, rl },
				      (double *[2]){ sb, sl }, noise), 0);
	assert_near(rb[1], 5, 1e-12);
	assert_near(sb[1], 0, 1e-12);
	assert_true(isnan(noise[0]) && isnan(noise[1]));
}

/* Summaries of 4 per rank: column 1's median over the ranks. */
static void test_column_median_reads_one_column_of_every_rank(void **state)
{
	double sum[12] = { 1, 10, 0, 0, 2, 30, 0, 0, 3, 20, 0, 0 };

	(void) state;
	assert_near(cxd_stat_column_median(sum, 3, 4, 1), 20, 1e-12);
	assert_near(cxd_stat_column_median(sum, 3, 4, 0), 2, 1e-12);
	assert_true(isnan(cxd_stat_column_median(sum, 0, 4, 0)));
}

/* Rank 1 retested with 0 and 3 only: links 2 (and itself) keep their
 * first figures in all four rows; 0 and 3 keep the retest's. */
static void test_keep_first_restores_only_links_not_retested(void **state)
{
	const struct cxd_pair p[3] = { { 0, 1 }, { 1, 3 }, { 0, 2 } };
	double now[4][4], first[4][4];
	double *nowp[4], *firstp[4];

	(void) state;
	for (int k = 0; k < 4; k++) {
		nowp[k] = now[k];
		firstp[k] = first[k];
		for (int j = 0; j < 4; j++) {
			now[k][j] = 100 + j;
			first[k][j] = j;
		}
	}
	assert_int_equal(cxd_stat_keep_first(4, 1, p, 3, nowp, firstp), 0);
	for (int k = 0; k < 4; k++) {
		assert_near(now[k][0], 100, 0);
		assert_near(now[k][1], 1, 0);
		assert_near(now[k][2], 2, 0);
		assert_near(now[k][3], 103, 0);
	}
}

CXD_UNIT_MAIN(
	cmocka_unit_test(
		test_row_stats_give_medians_spreads_and_pooled_noise),
	cmocka_unit_test(test_row_stats_with_one_repeat_have_no_noise),
	cmocka_unit_test(
		test_column_median_reads_one_column_of_every_rank),
	cmocka_unit_test(
		test_keep_first_restores_only_links_not_retested))
