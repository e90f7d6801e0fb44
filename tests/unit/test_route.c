/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's routes (lib/sweep/model/route.c) and the suspects named
 * over them (lib/sweep/judge/judge_route.c): small dragonflies and fat
 * trees given by their link lines; a fault makes outliers of exactly
 * the pairs whose way crosses it, each pair taking one of its ways by a
 * hash the judging does not know.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/topo_fab.h"
#include "support/unit_main.h"
#include "sweep/judge/judge_suspects.h"
#include "sweep/model/route.h"

#define MAXR 64
#define MAXL TFAB_MAXL
#define CAP 32

/* A fat tree as the topology reader gives it: switch_group set, -1 on
 * every switch (no groups), which the routes must read as none. */
static void fat_tree_ungrouped(struct tfab *f, int leaves, int h,
			       int spines)
{
	tfab_fat_tree(f, leaves, h, spines);
	for (int a = 0; a < f->ns; a++)
		f->sg[a] = -1;
	f->tm.switch_group = f->sg;
}

/* The faults: bad link lines and bad NICs. */
struct faults {
	bool link[MAXL];
	bool nic[MAXR];
};

static void fault_switch(const struct tfab *f, struct faults *x, int a)
{
	for (int l = 0; l < f->nl; l++)
		x->link[l] |= f->l[l].a == a || f->l[l].b == a;
}

/* The way pair (i, j) takes: by a hash of the pair, weighed by share. */
static const struct cxd_way *taken(const struct cxd_routes *rt, int a,
				   int b, int i, int j)
{
	size_t nw;
	const struct cxd_way *w = cxd_routes_ways(rt, a, b, &nw);
	double u = ((unsigned) (i * 2654435761u + j * 40503u) % 1000) / 1000.0;

	for (size_t k = 0; k < nw; k++) {
		u -= w[k].share;
		if (u < 0)
			return &w[k];
	}
	return nw ? &w[nw - 1] : NULL;
}

static bool out(const struct tfab *f, const struct cxd_routes *rt,
		const struct faults *x, int i, int j)
{
	const struct cxd_way *w;

	if (x->nic[i] || x->nic[j])
		return true;
	if (f->sof[i] == f->sof[j])
		return false;
	w = taken(rt, f->sof[i], f->sof[j], i < j ? i : j, i < j ? j : i);
	for (int h = 0; w && h < w->len; h++)
		if (x->link[rt->hop[w->first + (size_t) h]])
			return true;
	return false;
}

static size_t name(const struct tfab *f, const struct faults *x,
		   struct cxd_suspect *s)
{
	static struct cxd_outlier o[MAXR * MAXR];
	struct cxd_routes rt;
	size_t k = 0;

	assert_int_equal(cxd_routes_build(&f->tm, f->n, &rt), 0);
	for (int i = 0; i < f->n; i++)
		for (int j = 0; j < f->n; j++)
			if (i != j && out(f, &rt, x, i, j))
				o[k++] = (struct cxd_outlier){ .src = i,
					.dst = j, .metric = CXD_M_BW };
	cxd_routes_free(&rt);
	return cxd_judge_suspects(o, k, f->n, &f->tm, s, CAP);
}

static void test_ways_dragonfly_minimal(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	size_t nw;
	const struct cxd_way *w;

	(void) state;
	tfab_dragonfly(&f, 3, 3, 2, 2, 1);
	assert_int_equal(cxd_routes_build(&f.tm, f.n, &rt), 0);
	/* inside a group: the direct link */
	w = cxd_routes_ways(&rt, 0, 2, &nw);
	assert_int_equal(nw, 1);
	assert_int_equal(w[0].len, 1);
	assert_int_equal(rt.hop[w[0].first], tfab_find_link(&f, 0, 2));
	/* g0s0 to g1s2: the g0-g1 link lands on g0s1 and g1s0 */
	w = cxd_routes_ways(&rt, 0, 5, &nw);
	assert_int_equal(nw, 1);
	assert_int_equal(w[0].len, 3);
	assert_int_equal(rt.hop[w[0].first], tfab_find_link(&f, 0, 1));
	assert_int_equal(rt.hop[w[0].first + 1], tfab_find_link(&f, 1, 3));
	assert_int_equal(rt.hop[w[0].first + 2], tfab_find_link(&f, 3, 5));
	assert_true(fabs(w[0].share - 1.0) < 1e-12);
	/* either order */
	assert_ptr_equal(cxd_routes_ways(&rt, 5, 0, &nw), w);
	cxd_routes_free(&rt);
}

static void test_ways_fat_tree_equal_cost(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	size_t nw;
	const struct cxd_way *w;
	double sum = 0;

	(void) state;
	fat_tree_ungrouped(&f, 4, 2, 3);
	assert_int_equal(cxd_routes_build(&f.tm, f.n, &rt), 0);
	w = cxd_routes_ways(&rt, 0, 3, &nw);
	assert_int_equal(nw, 3);
	for (size_t k = 0; k < nw; k++) {
		assert_int_equal(w[k].len, 2);
		sum += w[k].share;
	}
	assert_true(fabs(sum - 1.0) < 1e-12);
	/* no ways to a spine: no rank sits there */
	cxd_routes_ways(&rt, 0, 4, &nw);
	assert_int_equal(nw, 0);
	cxd_routes_free(&rt);
}

/* A bundle's two links land on different switches: a pair may take
 * either, by their counts. */
static void test_ways_bundle_by_count(void **state)
{
	struct tfab f;
	struct cxd_routes rt;
	size_t nw;
	const struct cxd_way *w;

	(void) state;
	tfab_dragonfly(&f, 2, 2, 2, 2, 1);
	tfab_link_add(&f, 1, 2, 3); /* g0s1-g1s0, three cables */
	tfab_map(&f, CXD_TOPO_R_MINIMAL);
	assert_int_equal(cxd_routes_build(&f.tm, f.n, &rt), 0);
	w = cxd_routes_ways(&rt, 0, 3, &nw);
	assert_int_equal(nw, 2);
	assert_true(fabs(w[0].share - 0.25) < 1e-12);
	assert_true(fabs(w[1].share - 0.75) < 1e-12);
	cxd_routes_free(&rt);
}

static void test_no_links_refused(void **state)
{
	struct tfab f;
	struct cxd_routes rt;

	(void) state;
	tfab_dragonfly(&f, 2, 2, 2, 2, 1);
	f.tm.nlink = 0;
	assert_int_equal(cxd_routes_build(&f.tm, f.n, &rt), -EINVAL);
}

/* A case: a fabric, its faults and the suspects named. */
struct kase {
	struct tfab f;
	struct faults x;
	struct cxd_suspect s[CAP];
	size_t k;
};

/* A fresh case on 4 groups x 3 switches x 2 hosts. */
static struct kase *df_case(void)
{
	static struct kase c;

	memset(&c, 0, sizeof(c));
	tfab_dragonfly(&c.f, 4, 3, 2, 2, 1);
	return &c;
}

static void expect_one(struct kase *c, enum cxd_suspect_kind kind, int id,
		       int id2)
{
	const struct cxd_suspect *s = c->s;

	c->k = name(&c->f, &c->x, c->s);
	if (c->k != 1 || s[0].kind != kind || s[0].id != id ||
	    (id2 >= 0 && s[0].id2 != id2))
		fail_msg("%zu suspects, first kind %d id %d id2 %d; want kind "
			 "%d id %d id2 %d", c->k, c->k ? (int) s[0].kind : -1,
			 c->k ? s[0].id : -1, c->k ? s[0].id2 : -1, kind, id,
			 id2);
}

static void test_healthy_names_nothing(void **state)
{
	struct kase *c = df_case();

	(void) state;
	assert_int_equal(name(&c->f, &c->x, c->s), 0);
}

/*
 * The gateway switch: g1s0 holds group 1's links to groups 0 and 3
 * (its links inside the group carry their pairs too). All its links
 * slow: the switch alone is named, not the bundles whose traffic it
 * carries (the ends-based rules named them too).
 */
static void test_gateway_switch_not_its_bundles(void **state)
{
	struct kase *c = df_case();

	(void) state;
	fault_switch(&c->f, &c->x, 3);
	expect_one(c, CXD_S_SWITCH, 3, -1);
}

/*
 * The same gateway slowed by less than its links inside the group are
 * wide: only its links to other groups show it (platgen's slow switch
 * on a 128-node dragonfly whose lanes still carry a pair at full rate).
 * The switch is named for those links, not each link or bundle.
 */
static void test_gateway_seen_on_its_global_links(void **state)
{
	struct kase *c = df_case();

	(void) state;
	for (int l = 0; l < c->f.nl; l++) {
		int a = c->f.l[l].a, b = c->f.l[l].b;

		c->x.link[l] = (a == 3 || b == 3) && a / 3 != b / 3;
	}
	expect_one(c, CXD_S_SWITCH, 3, CXD_SWL_GLOBAL);
}

static void test_one_link_inside_a_group(void **state)
{
	struct kase *c = df_case();

	(void) state;
	c->x.link[tfab_find_link(&c->f, 4, 5)] = true;
	expect_one(c, CXD_S_LINK, 4, 5);
}

/* The only link between two groups is their bundle: no pair tells
 * the link from the bundle, and the report says so. */
static void test_bundle_of_one_link_alike(void **state)
{
	struct kase *c = df_case();

	(void) state;
	c->x.link[tfab_find_link(&c->f, 0 * 3 + 1, 1 * 3 + 0)] = true;
	int bundle = 0;

	(void) state;
	c->x.link[tfab_find_link(&c->f, 0 * 3 + 1, 1 * 3 + 0)] = true;
	expect_one(c, CXD_S_LINK, 1, 3);
	/* the bundle, and an end switch's links to other groups where this
	 * is its only one of them (a gateway cannot be told apart either) */
	for (int i = 0; i < c->s[0].nalike; i++) {
		const struct cxd_alike *a = &c->s[0].alike[i];

		if (a->kind == CXD_S_BUNDLE) {
			assert_int_equal(a->id, 0);
			assert_int_equal(a->id2, 1);
			bundle++;
			continue;
		}
		assert_int_equal(a->kind, CXD_S_SWITCH);
		assert_int_equal(a->id2, CXD_SWL_GLOBAL);
		assert_true(a->id == 1 || a->id == 3);
	}
	assert_int_equal(bundle, 1);
}

/* A spine of a fat tree whose hash is unknown: every spine carries the
 * same share of every leaf pair, so all are named as one. */
static void test_spine_cannot_be_told_apart(void **state)
{
	struct kase *c = df_case();
	const struct cxd_suspect *s = c->s;

	(void) state;
	fat_tree_ungrouped(&c->f, 4, 4, 2);
	fault_switch(&c->f, &c->x, 4);
	c->k = name(&c->f, &c->x, c->s);
	assert_int_equal(c->k, 1);
	assert_int_equal(s[0].kind, CXD_S_SWITCH);
	assert_true(s[0].id == 4 || s[0].id == 5);
	assert_int_equal(s[0].nalike, 1);
	assert_int_equal(s[0].alike[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].alike[0].id, s[0].id == 4 ? 5 : 4);
}

static bool named(const struct kase *c, enum cxd_suspect_kind kind, int id)
{
	for (size_t i = 0; i < c->k; i++)
		if (c->s[i].kind == kind && c->s[i].id == id)
			return true;
	return false;
}

/* Two faults: a NIC and another group's gateway switch. */
static void test_nic_and_gateway(void **state)
{
	struct kase *c = df_case();

	(void) state;
	c->x.nic[1] = true;
	fault_switch(&c->f, &c->x, 7);
	c->k = name(&c->f, &c->x, c->s);
	assert_int_equal(c->k, 2);
	assert_true(named(c, CXD_S_RANK, 1));
	assert_true(named(c, CXD_S_SWITCH, 7));
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_ways_dragonfly_minimal),
	cmocka_unit_test(test_ways_fat_tree_equal_cost),
	cmocka_unit_test(test_ways_bundle_by_count),
	cmocka_unit_test(test_no_links_refused),
	cmocka_unit_test(test_healthy_names_nothing),
	cmocka_unit_test(test_gateway_switch_not_its_bundles),
	cmocka_unit_test(test_gateway_seen_on_its_global_links),
	cmocka_unit_test(test_one_link_inside_a_group),
	cmocka_unit_test(test_bundle_of_one_link_alike),
	cmocka_unit_test(test_spine_cannot_be_told_apart),
	cmocka_unit_test(test_nic_and_gateway))
