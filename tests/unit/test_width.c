/* SPDX-License-Identifier: BSD-3-Clause */
/* Link widths: the --topology file's width lines, the samples chosen
 * from a placement, and the width fitted from the figures (width.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/tmp_text.h"
#include "support/topo_text.h"
#include "support/unit_main.h"
#include "sweep/model/topo.h"
#include "sweep/model/topo_add.h"
#include "sweep/model/width.h"

static void test_width_lines(void **state)
{
	struct cxd_topo t;

	(void) state;
	topo_of_text(&t, "a s0 g0\nwidth local 2 # the L1 links\n"
		     "width uplink 16\nb s1 g0\n");
	assert_int_equal(t.nl, 2);
	assert_int_equal(t.width[CXD_TOPO_W_LOCAL].pairs, 2);
	assert_int_equal(t.width[CXD_TOPO_W_LOCAL].src, CXD_TOPO_WS_STATED);
	assert_int_equal(t.width[CXD_TOPO_W_LOCAL].line, 2);
	assert_int_equal(t.width[CXD_TOPO_W_UPLINK].pairs, 16);
	assert_int_equal(t.width[CXD_TOPO_W_GLOBAL].src, CXD_TOPO_WS_NONE);
	cxd_topo_free(&t);
}

/* Each bad width line: the file's line and the bad value named. */
static void test_width_lines_bad(void **state)
{
	static const char *const bad[][2] = {
		{ "a s0\nwidth remote 2\n", ":2: width 'remote': the kinds" },
		{ "a s0\nwidth local 0\n", ":2: width local '0': expected a "
		  "positive integer" },
		{ "width global -1\na s0\n", ":1: width global '-1'" },
		{ "a s0\nwidth local 2x\n", ":2: width local '2x'" },
		{ "a s0\nwidth local 99999999999\n", "'99999999999'" },
		{ "a s0\nwidth local\n", ":2: width local '': expected" },
		{ "a s0\nwidth\n", ":2: width '': the kinds" },
		{ "a s0\nwidth local 2 3\n", ":2: expected 'width KIND N'" },
		{ "width local 1\na s0\nwidth local 2\n",
		  ":3: width local is stated twice (first at line 1)" },
	};
	struct cxd_topo t;
	char err[256];

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *p = write_tmp(bad[i][0]);

		err[0] = '\0';
		assert_int_not_equal(cxd_topo_load(p, &t, err, sizeof(err)), 0);
		if (strstr(err, bad[i][1]) == NULL)
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i][1]);
		assert_non_null(strstr(err, p));
		unlink(p);
	}
}

/* n ranks, one per host, h per switch, s switches per group (g groups;
 * 0: no groups). */
static void layout(struct cxd_sweep_rank *r, int *sof, int *gof, int n,
		   int h, int s, bool groups)
{
	for (int i = 0; i < n; i++) {
		snprintf(r[i].host, sizeof(r[i].host), "nid%04d", i);
		snprintf(r[i].nic, sizeof(r[i].nic), "cxi0");
		sof[i] = i / h;
		gof[i] = groups ? i / (h * s) : -1;
	}
}

/* A dragonfly of 3 groups x 2 switches x 3 hosts, group 1's second
 * switch fuller: local from group 1, global across the two fullest
 * groups with ends spread over their switches; no uplink. */
static void test_width_samples_dragonfly(void **state)
{
	struct cxd_sweep_rank r[20];
	int sof[20], gof[20];
	struct cxd_width_sample s[CXD_TOPO_W_KINDS];
	const struct cxd_width_sample *l = &s[CXD_TOPO_W_LOCAL],
				      *g = &s[CXD_TOPO_W_GLOBAL];
	struct cxd_topo_map tm = { .switch_of = sof, .group_of = gof,
				  .nswitch = 6, .ngroup = 3 };

	(void) state;
	layout(r, sof, gof, 18, 3, 2, true);
	/* Two more ranks on group 1's second switch (3), one sharing a
	 * host with rank 9: 4 hosts there, on 3 of switch 2. */
	layout(r + 18, sof + 18, gof + 18, 2, 1, 1, true);
	snprintf(r[18].host, sizeof(r[18].host), "nid9999");
	snprintf(r[19].host, sizeof(r[19].host), "nid0009");
	sof[18] = sof[19] = 3;
	gof[18] = gof[19] = 1;
	assert_int_equal(cxd_width_samples(&tm, r, 20, s), 0);
	assert_true(l->present);
	assert_int_equal(l->a, 3); /* the fuller first */
	assert_int_equal(l->b, 2);
	assert_int_equal(l->np, 3);
	for (int i = 0; i < l->np; i++) {
		assert_true(l->p[i].a < l->p[i].b);
		assert_int_equal(sof[l->p[i].a], 2);
		assert_int_equal(sof[l->p[i].b], 3);
	}
	assert_true(g->present);
	assert_int_equal(g->a, 1); /* 8 ranks */
	assert_int_equal(g->b, 0); /* 6 ranks, before group 2's */
	assert_int_equal(g->np, 6);
	/* Spread: the first two pairs' ends on different switches. */
	assert_int_not_equal(sof[g->p[0].a], sof[g->p[1].a]);
	assert_int_not_equal(sof[g->p[0].b], sof[g->p[1].b]);
	for (int i = 0; i < g->np; i++)
		for (int j = 0; j < i; j++) /* rank 19 is rank 9's host */
			assert_false((g->p[i].b == 19 && g->p[j].b == 9) ||
				     (g->p[i].b == 9 && g->p[j].b == 19));
	assert_false(s[CXD_TOPO_W_UPLINK].present);
}

/* No groups: a fat tree's leaves, the two fullest; one switch alone has
 * nothing shared; a group of one switch has no local links. */
static void test_width_samples_fat_tree_and_none(void **state)
{
	struct cxd_sweep_rank r[16];
	int sof[16], gof[16];
	struct cxd_width_sample s[CXD_TOPO_W_KINDS];
	struct cxd_topo_map tm = { .switch_of = sof, .group_of = gof,
				  .nswitch = 4, .ngroup = 0 };

	(void) state;
	layout(r, sof, gof, 16, 4, 4, false);
	sof[15] = 1; /* leaf 1 the fullest */
	assert_int_equal(cxd_width_samples(&tm, r, 16, s), 0);
	assert_true(s[CXD_TOPO_W_UPLINK].present);
	assert_int_equal(s[CXD_TOPO_W_UPLINK].a, 1);
	assert_int_equal(s[CXD_TOPO_W_UPLINK].b, 0);
	assert_int_equal(s[CXD_TOPO_W_UPLINK].np, 4);
	assert_false(s[CXD_TOPO_W_LOCAL].present);
	assert_false(s[CXD_TOPO_W_GLOBAL].present);
	tm.nswitch = 1;
	for (int i = 0; i < 16; i++)
		sof[i] = 0;
	assert_int_equal(cxd_width_samples(&tm, r, 16, s), 0);
	assert_false(s[CXD_TOPO_W_UPLINK].present);
	/* Groups of one switch each: global only. */
	tm = (struct cxd_topo_map){ .switch_of = sof, .group_of = gof,
				   .nswitch = 2, .ngroup = 2 };
	layout(r, sof, gof, 16, 8, 1, true);
	assert_int_equal(cxd_width_samples(&tm, r, 16, s), 0);
	assert_false(s[CXD_TOPO_W_LOCAL].present);
	assert_true(s[CXD_TOPO_W_GLOBAL].present);
	assert_int_equal(s[CXD_TOPO_W_GLOBAL].np, CXD_WIDTH_CAP);
}

/* The steps: on while none slowed; the width the last k before one did. */
static void test_width_fit(void **state)
{
	const double one[] = { 100 }, two[] = { 100, 95, 60 },
		     full[] = { 100, 100, 99 }, bad[] = { NAN },
		     first_slow[] = { 100, 50 };
	struct cxd_topo_width w;

	(void) state;
	assert_true(cxd_width_more(one, 0, 0.1, 4));
	assert_false(cxd_width_more(one, 0, 0.1, 0));
	assert_true(cxd_width_more(one, 1, 0.1, 4));
	assert_true(cxd_width_more(two, 2, 0.1, 4));
	assert_false(cxd_width_more(two, 3, 0.1, 4));
	assert_false(cxd_width_more(full, 3, 0.1, 3));
	assert_false(cxd_width_more(bad, 1, 0.1, 4));
	cxd_width_fit(two, 3, 0.1, &w);
	assert_int_equal(w.src, CXD_TOPO_WS_MEASURED);
	assert_int_equal(w.pairs, 2);
	assert_int_equal(w.tried, 3);
	assert_false(w.at_least);
	assert_float_equal(w.slowest, 0.6, 1e-9);
	cxd_width_fit(first_slow, 2, 0.1, &w);
	assert_int_equal(w.pairs, 1);
	assert_float_equal(w.slowest, 0.5, 1e-9);
	cxd_width_fit(full, 3, 0.1, &w);
	assert_int_equal(w.pairs, 3);
	assert_true(w.at_least);
	assert_int_equal(w.tried, 3);
	/* A wider tolerance (--min-bw 50) lets 60 % pass. */
	cxd_width_fit(two, 3, 0.5, &w);
	assert_int_equal(w.pairs, 3);
	cxd_width_fit(bad, 1, 0.1, &w);
	assert_int_equal(w.pairs, 0);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_width_lines),
	cmocka_unit_test(test_width_lines_bad),
	cmocka_unit_test(test_width_samples_dragonfly),
	cmocka_unit_test(test_width_samples_fat_tree_and_none),
	cmocka_unit_test(test_width_fit))
