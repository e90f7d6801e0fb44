/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The full sweep packed by routes (lib/sweep/sched/sched_routed.c): on
 * dragonflies and fat trees written by hand, every pair once, no rank
 * twice in a round, no link line crossed by more of a round's pairs
 * than its cables (each pair counted on every link any of its ways may
 * take), never fewer rounds than the bound, and close to it; each
 * rank's steps handed out as the plan has them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/topo_fab.h"
#include "support/unit_main.h"
#include "sweep/model/route.h"
#include "sweep/sched/sched.h"
#include "sweep/sched/sched_mine.h"
#include "sweep/sched/sched_routed.h"

/* Whether pair (i, j)'s ways may cross link line l. */
static bool may_cross(const struct tfab *f, const struct cxd_routes *rt,
		      int i, int j, int l)
{
	size_t nw;
	const struct cxd_way *w;

	if (f->sof[i] == f->sof[j])
		return false;
	w = cxd_routes_ways(rt, f->sof[i], f->sof[j], &nw);
	for (size_t k = 0; k < nw; k++)
		for (int h = 0; h < w[k].len; h++)
			if (rt->hop[w[k].first + (size_t) h] == l)
				return true;
	return false;
}

/* Every pair once; per round no rank twice, at most `most` pairs, no
 * link line over its cables. */
static void assert_packed(const struct tfab *f, const struct cxd_routed *p,
			  int most)
{
	struct cxd_routes rt;
	static char seen[TFAB_MAXR][TFAB_MAXR];
	int n = f->n, stamp[TFAB_MAXR], load[TFAB_MAXL];

	assert_int_equal(cxd_routes_build(&f->tm, n, &rt), 0);
	memset(seen, 0, sizeof(seen));
	assert_int_equal(p->npair, (size_t) n * (n - 1) / 2);
	for (int r = 0; r < n; r++)
		stamp[r] = -1;
	for (int t = 0; t < p->nround; t++) {
		memset(load, 0, sizeof(load));
		assert_true(p->round_at[t + 1] - p->round_at[t] <= most);
		for (int i = p->round_at[t]; i < p->round_at[t + 1]; i++) {
			struct cxd_pair q = p->pair[i];

			assert_true(q.a < q.b);
			assert_int_equal(seen[q.a][q.b]++, 0);
			assert_true(stamp[q.a] != t && stamp[q.b] != t);
			stamp[q.a] = stamp[q.b] = t;
			for (int l = 0; l < f->nl; l++)
				load[l] += may_cross(f, &rt, q.a, q.b, l);
		}
		for (int l = 0; l < f->nl; l++)
			assert_true(load[l] <= f->l[l].count);
	}
	assert_true(p->nround >= p->bound);
	cxd_routes_free(&rt);
}

static struct cxd_routed packed(const struct tfab *f, int most)
{
	struct cxd_routed p;

	assert_int_equal(cxd_routed_build(f->n, &f->tm, most, &p), 0);
	assert_packed(f, &p, most);
	return p;
}

/* 4 groups of 4 switches of 4 ranks, two cables inside a group, two
 * global links a group pair dealt over the switches: the busiest link
 * bounds the pass, and the packing comes within half again of it. */
static void test_dragonfly_near_bound(void **st)
{
	static struct tfab f;
	struct cxd_routed p;

	(void) st;
	tfab_dragonfly(&f, 4, 4, 4, 2, 2);
	p = packed(&f, 1000);
	assert_true(p.busiest >= 0);
	assert_true(p.bound > f.n - 1);
	assert_true(2 * p.nround <= 3 * p.bound);
	cxd_routed_free(&p);
}

/* A gateway switch per group pair and one cable inside: each link line
 * bounds differently; and fewer pairs a round than the ranks allow. */
static void test_dragonfly_gateways_and_most(void **st)
{
	static struct tfab f;
	struct cxd_routed p;

	(void) st;
	tfab_dragonfly(&f, 5, 3, 4, 1, 1);
	p = packed(&f, 1000);
	assert_true(2 * p.nround <= 3 * p.bound);
	cxd_routed_free(&p);
	p = packed(&f, 3);
	assert_int_equal(p.bound, (int) ((p.npair + 2) / 3));
	assert_int_equal(p.busiest, -1);
	cxd_routed_free(&p);
}

/* A fat tree: a pair across leaves may take any spine, so it holds one
 * uplink of its leaf to each spine; pairs on a leaf hold none. */
static void test_fat_tree(void **st)
{
	static struct tfab f;
	struct cxd_routed p;

	(void) st;
	tfab_fat_tree(&f, 6, 8, 3);
	p = packed(&f, 1000);
	assert_true(2 * p.nround <= 3 * p.bound);
	cxd_routed_free(&p);
}

/* Each rank's steps: as many as its pairs, in round order, each the
 * plan's pair. */
static void test_steps_handed_out(void **st)
{
	static struct tfab f;
	struct cxd_routed p;
	int n, *count, *first, *step;

	(void) st;
	tfab_dragonfly(&f, 3, 2, 3, 1, 1);
	p = packed(&f, 1000);
	n = f.n;
	count = malloc((size_t) n * sizeof(int));
	first = malloc((size_t) n * sizeof(int));
	step = malloc(4 * p.npair * sizeof(int));
	assert_int_equal(cxd_routed_steps(&p, n, count, first, step), 0);
	for (int k = 0; k < n; k++) {
		assert_int_equal(count[k], n - 1);
		for (int i = 0; i < count[k]; i++) {
			int t = step[2 * (first[k] + i)];
			int q = step[2 * (first[k] + i) + 1];
			bool found = false;

			assert_true(i == 0 || t > step[2 * (first[k] + i - 1)]);
			for (int x = p.round_at[t]; x < p.round_at[t + 1]; x++)
				found |= (p.pair[x].a == k && p.pair[x].b == q) ||
					 (p.pair[x].b == k && p.pair[x].a == q);
			assert_true(found);
		}
	}
	free(count);
	free(first);
	free(step);
	cxd_routed_free(&p);
}

/* A rank's own plan: one part a round, each holding its step of that
 * round or none; part 0 every step. */
static void test_mine_parts(void **st)
{
	const int step[6] = { 0, 5, 2, 7, 3, 1 };
	struct cxd_step s[4];
	struct cxd_plan pl;
	struct cxd_sched_at at = { 8, 4, 4, 0 };

	(void) st;
	assert_int_equal(cxd_sched_mine(&pl, 5, step, 3), 0);
	assert_int_equal(cxd_sched_parts(&pl), 5);
	assert_true(cxd_sched_room(8, &pl) >= 3);
	assert_false(cxd_sched_keyable(&pl));
	assert_int_equal(cxd_sched_part_steps(&at, &pl, s), 3);
	assert_int_equal(s[2].round, 3);
	assert_int_equal(s[2].partner, 1);
	for (int k = 1; k <= 5; k++) {
		int want[5] = { 5, -1, 7, 1, -1 };

		at.part = k;
		assert_int_equal(cxd_sched_part_steps(&at, &pl, s),
				 want[k - 1] >= 0);
		if (want[k - 1] >= 0) {
			assert_int_equal(s[0].round, k - 1);
			assert_int_equal(s[0].partner, want[k - 1]);
			assert_int_equal(s[0].prev, -1);
			assert_int_equal(s[0].kprev, -1);
		}
	}
	cxd_sched_free(&pl);
}

/* No link lines, a rank not placed, no pair a round: refused. */
static void test_refused(void **st)
{
	static struct tfab f;
	struct cxd_routed p;

	(void) st;
	tfab_dragonfly(&f, 2, 2, 2, 1, 1);
	assert_int_equal(cxd_routed_build(f.n, &f.tm, 0, &p), -EINVAL);
	f.sof[3] = -1;
	assert_int_equal(cxd_routed_build(f.n, &f.tm, 4, &p), -EINVAL);
	tfab_dragonfly(&f, 2, 2, 2, 1, 1);
	f.tm.link = NULL;
	f.tm.nlink = 0;
	assert_int_equal(cxd_routed_build(f.n, &f.tm, 4, &p), -EINVAL);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_dragonfly_near_bound),
	cmocka_unit_test(test_dragonfly_gateways_and_most),
	cmocka_unit_test(test_fat_tree),
	cmocka_unit_test(test_steps_handed_out),
	cmocka_unit_test(test_mine_parts),
	cmocka_unit_test(test_refused))
