/* SPDX-License-Identifier: BSD-3-Clause */
/* The classes of link and the calibration's sample (lib/sweep/model/lclass.c),
 * and what the judge makes of them: latency by class, crowding by class. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/judge.h"
#include "sweep/model/lclass.h"

#define N 64

static void test_class_of_a_pair(void **state)
{
	int sw[4] = { 0, 0, 1, 2 }, grp[4] = { 0, 0, 0, 1 };

	(void) state;
	assert_int_equal(cxd_lclass_of(sw, grp, 0, 1), CXD_LC_SWITCH);
	assert_int_equal(cxd_lclass_of(sw, grp, 0, 2), CXD_LC_GROUP);
	assert_int_equal(cxd_lclass_of(sw, grp, 2, 3), CXD_LC_ACROSS);
	/* No groups: two switches are across; no places: any. */
	assert_int_equal(cxd_lclass_of(sw, NULL, 0, 2), CXD_LC_ACROSS);
	assert_int_equal(cxd_lclass_of(NULL, NULL, 0, 2), CXD_LC_ANY);
	assert_string_equal(cxd_lclass_name(CXD_LC_ACROSS, 0),
			    "across switches");
	assert_string_equal(cxd_lclass_key(CXD_LC_GROUP), "group");
}

/* Each class present gets its pairs (up to per), each of that class, no
 * rank twice; a class absent gets none. */
static void check_sample_of(int n, const int *sw, const int *grp, int per,
			    const int *want)
{
	struct cxd_pair p[CXD_LC_N * 12];
	enum cxd_lclass cls[CXD_LC_N * 12];
	int got[CXD_LC_N] = { 0 }, used[N] = { 0 };
	int k = cxd_lclass_sample(n, sw, grp, per, p, cls);

	assert_true(k >= 0);
	for (int i = 0; i < k; i++) {
		assert_int_equal(cxd_lclass_of(sw, grp, p[i].a, p[i].b),
				 cls[i]);
		assert_true(p[i].a < p[i].b);
		assert_int_equal(used[p[i].a]++ + used[p[i].b]++, 0);
		got[cls[i]]++;
	}
	for (int c = 0; c < CXD_LC_N; c++)
		assert_int_equal(got[c], want[c]);
}

static void check_sample(const int *sw, const int *grp, int per,
			 const int *want)
{
	check_sample_of(N, sw, grp, per, want);
}

static void test_sample_every_class_present(void **state)
{
	int sw[N], grp[N];
	int dragonfly[CXD_LC_N] = { 8, 8, 8, 0 };
	int fattree[CXD_LC_N] = { 8, 0, 8, 0 };
	int none[CXD_LC_N] = { 0, 0, 0, 8 };
	int one_per_switch[CXD_LC_N] = { 0, 8, 8, 0 };

	(void) state;
	for (int r = 0; r < N; r++) {
		sw[r] = r / 4;  /* 16 switches of 4 */
		grp[r] = r / 16; /* 4 groups of 4 switches */
	}
	check_sample(sw, grp, 8, dragonfly);
	check_sample(sw, NULL, 8, fattree);
	check_sample(NULL, NULL, 8, none);
	for (int r = 0; r < N; r++) {
		sw[r] = r;
		grp[r] = r / 8;
	}
	check_sample(sw, grp, 8, one_per_switch);
}

/* 60 ranks, 6 a switch, 12 pairs a class: a stride of 60 / 12 + 1 = 6
 * met only each switch's first rank, which the pairs on one switch took,
 * and no pair across switches was sampled (a healthy hashed fat tree
 * then had a spine named: its crowding went unmeasured). */
static void test_sample_stride_covers_all(void **state)
{
	int sw[60];
	int want[CXD_LC_N] = { 12, 0, 12, 0 };

	(void) state;
	for (int r = 0; r < 60; r++)
		sw[r] = r / 6;
	check_sample_of(60, sw, NULL, 12, want);
}

/* Latency by class: a link on one switch is judged against links on
 * one switch (0.5 us), not against the run's typical across groups
 * (1.25 us), which would hide its doubling; bandwidth stays the run's. */
static void test_lat_typical_by_class(void **state)
{
	int sw[4] = { 0, 0, 1, 2 }, grp[4] = { 0, 0, 0, 1 };
	struct cxd_rules r = { .n = 4 };

	(void) state;
	r.typical[CXD_M_LAT] = 1.25;
	r.typical[CXD_M_BW] = 24000;
	r.tol[CXD_M_LAT] = cxd_judge_tol(CXD_M_LAT, 0.0, 0);
	r.tol[CXD_M_BW] = cxd_judge_tol(CXD_M_BW, 0.0, 0);
	for (int c = 0; c < CXD_LC_N; c++)
		r.lat_typical_of[c] = NAN;
	r.lat_typical_of[CXD_LC_SWITCH] = 0.5;
	r.lat_typical_of[CXD_LC_ACROSS] = 1.25;
	/* No placement: the run's typical for all. */
	assert_int_equal(cxd_judge_link(&r, CXD_M_LAT, 0, 1, 1.1), 0);
	r.sw = sw;
	r.grp = grp;
	assert_true(cxd_judge_link(&r, CXD_M_LAT, 0, 1, 1.1) & CXD_R_PEERS);
	assert_int_equal(cxd_judge_link(&r, CXD_M_LAT, 2, 3, 2.4), 0);
	/* A class with no typical (within a group) falls back. */
	assert_true(cxd_judge_typical_for(&r, CXD_M_LAT, 0, 2) == 1.25);
	assert_true(cxd_judge_typical_for(&r, CXD_M_BW, 0, 1) == 24000);
	/* --budget: bandwidth by class too; a pair across groups at 4000
	 * MB/s, as its class runs, is no outlier, and one on a switch at
	 * 12000 is, against its own class's 24000 */
	for (int c = 0; c < CXD_LC_N; c++)
		r.bw_typical_of[c] = NAN;
	r.bw_typical_of[CXD_LC_SWITCH] = 24000;
	r.bw_typical_of[CXD_LC_ACROSS] = 4000;
	assert_true(cxd_judge_link(&r, CXD_M_BW, 2, 3, 4000) & CXD_R_PEERS);
	r.bw_by_class = true;
	assert_int_equal(cxd_judge_link(&r, CXD_M_BW, 2, 3, 4000), 0);
	assert_true(cxd_judge_link(&r, CXD_M_BW, 0, 1, 12000) & CXD_R_PEERS);
	assert_true(cxd_judge_typical_for(&r, CXD_M_BW, 0, 2) == 24000);
}

/* Whether the 8 links of classes cls, each `ratio` times slower crowded
 * than alone, are judged crowded at bandwidth noise `noise`; checks
 * first that the tolerance is poor or not as `poor` says. */
static bool crowded_alike(const int *cls, double ratio, double noise,
			  bool poor)
{
	double ratios[8];
	struct cxd_tol t = cxd_judge_tol(CXD_M_BW, noise, 0);

	for (int i = 0; i < 8; i++)
		ratios[i] = ratio;
	assert_int_equal(t.poor, poor);
	cxd_judge_crowd(&t, CXD_M_BW, ratios, cls, 8);
	return t.crowded;
}

/* Per class: one class crowded is caught though the others are not and
 * the median of all is within the tolerance; and crowding that made the
 * noise too wide to judge by is named, not hidden in that noise. */
static void test_crowd_per_class(void **state)
{
	double ratio[8] = { 1.0, 1.0, 1.01, 1.01, 0.99, 0.99, 1.4, 1.4 };
	int cls[8] = { CXD_LC_SWITCH, CXD_LC_SWITCH, CXD_LC_SWITCH,
		       CXD_LC_SWITCH, CXD_LC_GROUP, CXD_LC_GROUP,
		       CXD_LC_ACROSS, CXD_LC_ACROSS };
	struct cxd_tol t = cxd_judge_tol(CXD_M_BW, 0.004, 0);

	(void) state;
	cxd_judge_crowd(&t, CXD_M_BW, ratio, cls, 8);
	assert_true(fabs(t.crowd - 0.005) < 1e-9);
	assert_int_equal(t.crowd_pairs_of[CXD_LC_ACROSS], 2);
	assert_true(fabs(t.crowd_of[CXD_LC_ACROSS] - 0.4) < 1e-9);
	assert_true(isnan(t.crowd_of[CXD_LC_ANY]));
	assert_true(t.crowded);
	/* Noise of 30 % (a tolerance of 120 %: poor) and +35 % alone: the
	 * crowding is the cause, named. */
	assert_true(crowded_alike(cls, 1.35, 0.30, true));
	/* Noise of 3 % (a tolerance of 12 %, fine) and +11 % alone:
	 * within. */
	assert_false(crowded_alike(cls, 1.11, 0.03, false));
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_class_of_a_pair),
	cmocka_unit_test(test_sample_every_class_present),
	cmocka_unit_test(test_sample_stride_covers_all),
	cmocka_unit_test(test_lat_typical_by_class),
	cmocka_unit_test(test_crowd_per_class))
