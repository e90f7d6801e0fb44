/* SPDX-License-Identifier: BSD-3-Clause */
/* Classes of link held to a pair on one switch by the stated widths
 * (judge_full.h), and the links judged so. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/judge.h"
#include "sweep/judge/judge_full.h"

static void set(struct cxd_topo_width *w, int k, int src, int pairs)
{
	w[k].src = src;
	w[k].pairs = pairs;
}

/* A dragonfly: both kinds stated wide, then one narrow, measured or
 * stated 1 (sim/platgen.py's floor for a cable under a node link). */
static void test_dragonfly(void **state)
{
	struct cxd_topo_width w[CXD_TOPO_W_KINDS] = { 0 };
	bool full[CXD_LC_N];

	(void) state;
	set(w, CXD_TOPO_W_LOCAL, CXD_TOPO_WS_STATED, 2);
	set(w, CXD_TOPO_W_GLOBAL, CXD_TOPO_WS_STATED, 3);
	cxd_judge_full_classes(w, true, full);
	assert_true(full[CXD_LC_GROUP]);
	assert_true(full[CXD_LC_ACROSS]);
	assert_false(full[CXD_LC_SWITCH]);
	set(w, CXD_TOPO_W_GLOBAL, CXD_TOPO_WS_STATED, 1);
	cxd_judge_full_classes(w, true, full);
	assert_true(full[CXD_LC_GROUP]);
	assert_false(full[CXD_LC_ACROSS]);
	set(w, CXD_TOPO_W_GLOBAL, CXD_TOPO_WS_MEASURED, 5);
	cxd_judge_full_classes(w, true, full);
	assert_false(full[CXD_LC_ACROSS]);
	/* one switch a group: no local links to cross */
	set(w, CXD_TOPO_W_LOCAL, CXD_TOPO_WS_NONE, 0);
	set(w, CXD_TOPO_W_GLOBAL, CXD_TOPO_WS_STATED, 2);
	cxd_judge_full_classes(w, true, full);
	assert_false(full[CXD_LC_GROUP]);
	assert_true(full[CXD_LC_ACROSS]);
	/* local links there but only measured: the way to the gateway
	 * may be the slow part */
	set(w, CXD_TOPO_W_LOCAL, CXD_TOPO_WS_MEASURED, 4);
	cxd_judge_full_classes(w, true, full);
	assert_false(full[CXD_LC_ACROSS]);
	cxd_judge_full_classes(NULL, true, full);
	assert_false(full[CXD_LC_GROUP] || full[CXD_LC_ACROSS]);
}

static void test_fat_tree(void **state)
{
	struct cxd_topo_width w[CXD_TOPO_W_KINDS] = { 0 };
	bool full[CXD_LC_N];

	(void) state;
	set(w, CXD_TOPO_W_UPLINK, CXD_TOPO_WS_STATED, 4);
	cxd_judge_full_classes(w, false, full);
	assert_true(full[CXD_LC_ACROSS]);
	set(w, CXD_TOPO_W_UPLINK, CXD_TOPO_WS_UNKNOWN, 0);
	cxd_judge_full_classes(w, false, full);
	assert_false(full[CXD_LC_ACROSS]);
}

/* Two leaves of two ranks, every spine at 74 %: the pairs across
 * leaves are the typical ones, and only the pair on one switch tells
 * that they are slow. */
static void test_slow_layer(void **state)
{
	int sw[4] = { 0, 0, 1, 1 };
	struct cxd_rules r = { .n = 4, .sw = sw };

	(void) state;
	r.typical[CXD_M_BW] = 74;
	r.tol[CXD_M_BW] = cxd_judge_tol(CXD_M_BW, 0.004, 0);
	r.tol[CXD_M_LAT] = cxd_judge_tol(CXD_M_LAT, 0.004, 0);
	for (int c = 0; c < CXD_LC_N; c++)
		r.bw_typical_of[c] = r.lat_typical_of[c] = NAN;
	r.bw_typical_of[CXD_LC_SWITCH] = 100;
	r.bw_typical_of[CXD_LC_ACROSS] = 74;
	assert_int_equal(cxd_judge_link(&r, CXD_M_BW, 0, 2, 74), 0);
	r.bw_full[CXD_LC_ACROSS] = true;
	/* the calibration did not measure a pair across alone: unknown */
	cxd_judge_full_slow(&r);
	assert_false(r.bw_full[CXD_LC_ACROSS]);
	/* it did, and they gained 40 % alone: crowded, 104 alone */
	r.tol[CXD_M_BW].crowd_of[CXD_LC_ACROSS] = 0.4;
	r.bw_full[CXD_LC_ACROSS] = true;
	cxd_judge_full_slow(&r);
	assert_false(r.bw_full[CXD_LC_ACROSS]);
	/* 2 % alone: the layer is slow */
	r.tol[CXD_M_BW].crowd_of[CXD_LC_ACROSS] = 0.02;
	r.bw_full[CXD_LC_ACROSS] = true;
	cxd_judge_full_slow(&r);
	assert_true(r.bw_full[CXD_LC_ACROSS]);
	assert_true(fabs(cxd_judge_typical_for(&r, CXD_M_BW, 0, 2) - 100) <
		    1e-9);
	assert_int_equal(cxd_judge_link(&r, CXD_M_BW, 0, 2, 74),
			 CXD_R_PEERS);
	assert_int_equal(cxd_judge_link(&r, CXD_M_BW, 0, 2, 96), 0);
	/* on one switch, and latency, as before */
	assert_int_equal(cxd_judge_link(&r, CXD_M_BW, 0, 1, 100), 0);
	r.typical[CXD_M_LAT] = 2.0;
	assert_true(fabs(cxd_judge_typical_for(&r, CXD_M_LAT, 0, 2) - 2.0) <
		    1e-9);
	/* under --budget its own class's typical is the floor's start, and
	 * the plan's rounds crowd no link: no calibration needed */
	r.bw_by_class = true;
	r.tol[CXD_M_BW].crowd_of[CXD_LC_ACROSS] = NAN;
	r.bw_full[CXD_LC_ACROSS] = true;
	cxd_judge_full_slow(&r);
	assert_true(r.bw_full[CXD_LC_ACROSS]);
	assert_true(fabs(cxd_judge_typical_for(&r, CXD_M_BW, 0, 2) - 100) <
		    1e-9);
	r.bw_full[CXD_LC_ACROSS] = false;
	assert_true(fabs(cxd_judge_typical_for(&r, CXD_M_BW, 0, 2) - 74) <
		    1e-9);
}

/* A healthy class a little slower (a hop's latency in the window) is
 * judged as before: a pair of it at 88 % of one on a switch, within
 * 10 % of its own typical 96.5, passes. A poor resolution or no pair
 * on one switch keeps none. */
static void test_within_tolerance(void **state)
{
	int sw[4] = { 0, 0, 1, 1 };
	struct cxd_rules r = { .n = 4, .sw = sw };

	(void) state;
	r.tol[CXD_M_BW] = cxd_judge_tol(CXD_M_BW, 0.004, 0);
	for (int c = 0; c < CXD_LC_N; c++)
		r.bw_typical_of[c] = NAN;
	r.typical[CXD_M_BW] = r.bw_typical_of[CXD_LC_ACROSS] = 96.5;
	r.bw_typical_of[CXD_LC_SWITCH] = 100;
	r.tol[CXD_M_BW].crowd_of[CXD_LC_ACROSS] = 0.0;
	r.bw_full[CXD_LC_ACROSS] = true;
	cxd_judge_full_slow(&r);
	assert_false(r.bw_full[CXD_LC_ACROSS]);
	assert_int_equal(cxd_judge_link(&r, CXD_M_BW, 0, 2, 88), 0);
	r.bw_typical_of[CXD_LC_ACROSS] = 80;
	r.bw_full[CXD_LC_ACROSS] = true;
	r.tol[CXD_M_BW].poor = true;
	cxd_judge_full_slow(&r);
	assert_false(r.bw_full[CXD_LC_ACROSS]);
	r.tol[CXD_M_BW].poor = false;
	r.bw_full[CXD_LC_ACROSS] = true;
	r.bw_typical_of[CXD_LC_SWITCH] = NAN;
	cxd_judge_full_slow(&r);
	assert_false(r.bw_full[CXD_LC_ACROSS]);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_dragonfly),
	cmocka_unit_test(test_fat_tree),
	cmocka_unit_test(test_slow_layer),
	cmocka_unit_test(test_within_tolerance))
