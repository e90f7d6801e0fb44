/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --budget in the outputs (lib/sweep/result/out_budget.c):
 * the text's Budget lines and the JSON's budget object from a ring plan
 * (NICs only, no topology) and a covering plan whose class of three
 * cannot be told apart; the links counted as measured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "support/unit_main.h"
#include "sweep/model/route.h"
#include "sweep/result/out_budget.h"
#include "sweep/sched/plan_cover.h"
#include "sweep/sched/plan_ring.h"

#define N 8

static struct cxd_sweep_rank ranks[N];

static void result(struct cxd_sweep_res *r, const struct cxd_budget_res *b,
		   int n)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < N; i++)
		snprintf(ranks[i].host, sizeof(ranks[i].host), "nid%04d", i);
	r->run.n = n;
	r->run.ranks = ranks;
	r->rounds.pairs_at_once = 4;
	r->budget = b;
}

static char *text(const struct cxd_sweep_res *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cxd_out_budget_text(r, f);
	fclose(f);
	return buf;
}

static long jget(json_object *o, const char *a, const char *b,
		 const char *c)
{
	json_object *x = o;

	assert_true(json_object_object_get_ex(x, a, &x));
	if (b)
		assert_true(json_object_object_get_ex(x, b, &x));
	if (c)
		assert_true(json_object_object_get_ex(x, c, &x));
	return (long) json_object_get_int64(x);
}

/* Ring shifts: NICs only, said so; figures in the text and the JSON. */
static void test_ring(void **state)
{
	struct cxd_cover_plan p;
	struct cxd_budget_res b;
	struct cxd_sweep_res r;
	json_object *o, *x;
	char *t;

	(void) state;
	assert_int_equal(cxd_cover_ring_build(N, 2, &p), 0);
	b = (struct cxd_budget_res){ .plan = &p, .ring = true,
		.why = "no --topology", .shifts = 2, .slots = 4,
		.budget_s = 10, .pair_s = 0.5, .estimate_s = 2.5,
		.taken_s = 3, .named = { { 2, 2, 0, 0 } } };
	result(&r, &b, N);
	t = text(&r);
	assert_non_null(strstr(t, "Budget: 10 s: ring shifts 1 to 2 (no "
				  "--topology"));
	assert_non_null(strstr(t, "cannot localize beyond NICs"));
	assert_non_null(strstr(t, ": 16 of 28 pairs (57.1 %) in "));
	assert_non_null(strstr(t, "Covered for sure: 8 of 8 NICs\n"));
	assert_non_null(strstr(t, "Time: 3 s of the budget 10 s (foreseen "
				  "2.5 s"));
	assert_non_null(strstr(t, "Named from bandwidth: 2 bad pairs"));
	assert_null(strstr(t, "Named from latency"));
	assert_null(strstr(t, "over it"));
	free(t);
	o = cxd_out_budget_json(&r);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "plan", &x));
	assert_string_equal(json_object_get_string(x), "ring");
	assert_int_equal(jget(o, "pairs", NULL, NULL), 16);
	assert_int_equal(jget(o, "all_pairs", NULL, NULL), 28);
	assert_int_equal(jget(o, "links_measured", NULL, NULL), 32);
	assert_int_equal(jget(o, "shifts", NULL, NULL), 2);
	assert_int_equal(jget(o, "components", "nic", "covered"), 8);
	assert_int_equal(jget(o, "components", "switch", "total"), 0);
	assert_int_equal(jget(o, "named", "bw_mb_s", "bad"), 2);
	assert_true(json_object_object_get_ex(o, "identifiable_two", &x));
	assert_null(x); /* not checked for a ring */
	json_object_put(o);
	assert_int_equal(cxd_out_budget_links(&r), 32);
	r.budget = NULL;
	assert_int_equal(cxd_out_budget_links(&r), N * (N - 1));
	assert_null(cxd_out_budget_json(&r));
	cxd_cover_plan_free(&p);
}

/* s0 - s1 - s2, s1 bare, s3 on s0 (test_budget_name's chain): the two
 * links and s1 are one class, listed by name; over the budget said. */
static void test_cover_alike(void **state)
{
	static char sw[4][CXD_TOPO_NAME] = { "s0", "s1", "s2", "s3" };
	static int sof[6] = { 0, 0, 2, 2, 3, 3 };
	struct cxd_topo_link l[3] = { { 0, 1, 1, 1 }, { 1, 2, 1, 2 },
				      { 0, 3, 1, 3 } };
	struct cxd_topo t = { .switch_name = sw, .nswitch = 4 };
	struct cxd_topo_map tm = { .switch_of = sof, .group_of = NULL,
		.nswitch = 4, .nswitch_all = 4, .link = l, .nlink = 3,
		.route = CXD_TOPO_R_ECMP };
	struct cxd_routes rt;
	struct cxd_cover_plan p;
	struct cxd_budget_res b;
	struct cxd_sweep_res r;
	json_object *o, *x;
	char *s;

	(void) state;
	assert_int_equal(cxd_routes_build(&tm, 6, &rt), 0);
	assert_int_equal(cxd_cover_plan_build(&tm, 6, &rt, NULL, &p), 0);
	b = (struct cxd_budget_res){ .plan = &p, .slots = p.nround,
		.budget_s = 1, .pair_s = 0.1, .estimate_s = 0.9,
		.taken_s = 1.5 };
	result(&r, &b, 6);
	r.in.topo = &t;
	r.in.tmap = &tm;
	s = text(&r);
	assert_non_null(strstr(s, "a covering plan from the routes"));
	assert_non_null(strstr(s, "2 classes of several cannot be told apart: "
				  "{the links between switches s0 and s1, the "
				  "links between switches s1 and s2, switch "
				  "s1, switch s2}; {the links between switches "
				  "s0 and s3, switch s3}"));
	assert_non_null(strstr(s, "over it"));
	free(s);
	o = cxd_out_budget_json(&r);
	assert_true(json_object_object_get_ex(o, "alike", &x));
	assert_int_equal(json_object_array_length(x), 2);
	assert_int_equal(json_object_array_length(
				 json_object_array_get_idx(x, 0)), 4);
	assert_int_equal(json_object_array_length(
				 json_object_array_get_idx(x, 1)), 2);
	assert_true(json_object_object_get_ex(o, "probes_per_link", &x));
	assert_int_equal(json_object_array_length(x), 3);
	assert_true(json_object_object_get_ex(o, "over_budget", &x));
	assert_true(json_object_get_boolean(x));
	json_object_put(o);
	cxd_cover_plan_free(&p);
	cxd_routes_free(&rt);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_ring),
	cmocka_unit_test(test_cover_alike))
