/* SPDX-License-Identifier: BSD-3-Clause */
/* The classes of link and the calibration's sample (lib/sweep/lclass.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/lclass.h"

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
static void check_sample(const int *sw, const int *grp, int per,
			 const int *want)
{
	struct cxd_pair p[CXD_LC_N * 8];
	enum cxd_lclass cls[CXD_LC_N * 8];
	int got[CXD_LC_N] = { 0 }, used[N] = { 0 };
	int k = cxd_lclass_sample(N, sw, grp, per, p, cls);

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_of_a_pair),
		cmocka_unit_test(test_sample_every_class_present),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
