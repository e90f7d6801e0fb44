/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Several faults at once, each named (lib/sweep/judge/judge_cover.c): synthetic
 * outliers over a synthetic dragonfly, three groups of two switches of
 * three hosts: switch a = 2 g + s holds ranks 3a .. 3a + 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/judge/judge_suspects.h"

#define N 18
#define CAP 32

/* The placement of the case; five groups of two switches of two hosts
 * is the largest. */
#define PLACED_MAX 20
static int sof[PLACED_MAX], gof[PLACED_MAX];

/* n ranks in order, per_switch to a switch and per_group to a group. */
static struct cxd_topo_map dragonfly(int n, int per_switch, int per_group)
{
	for (int r = 0; r < n; r++) {
		sof[r] = r / per_switch;
		gof[r] = r / per_group;
	}
	return (struct cxd_topo_map){ .switch_of = sof, .group_of = gof,
				      .nswitch = n / per_switch,
				      .ngroup = n / per_group };
}

/* The faults of a case: a link is out when any of them crosses it. */
struct faults {
	int nic[3], nnic;       /* ranks whose NIC is bad */
	int sw;                 /* a switch whose links leaving it are bad */
	int bundle[2];          /* the links between two groups */
	bool all_of_group0;     /* every link leaving group 0's switches */
	int more[2];            /* group 0's bundles to these groups too */
};

static bool out(const struct faults *f, const struct cxd_topo_map *t,
		int i, int j)
{
	const int *s = t->switch_of, *g = t->group_of;
	bool o = false;

	for (int k = 0; k < f->nnic; k++)
		o |= i == f->nic[k] || j == f->nic[k];
	if (f->sw >= 0)
		o |= (s[i] == f->sw) != (s[j] == f->sw);
	if (f->bundle[0] >= 0)
		o |= (g[i] == f->bundle[0] && g[j] == f->bundle[1]) ||
		     (g[i] == f->bundle[1] && g[j] == f->bundle[0]);
	for (int k = 0; k < 2; k++)
		o |= f->more[k] > 0 &&
		     ((g[i] == 0 && g[j] == f->more[k]) ||
		      (g[j] == 0 && g[i] == f->more[k]));
	if (f->all_of_group0)
		o |= (s[i] != s[j]) && (g[i] == 0 || g[j] == 0);
	return o;
}

static size_t name(const struct faults *f, const struct cxd_topo_map *t,
		   int n, struct cxd_suspect *s)
{
	static struct cxd_outlier o[4 * N * N];
	size_t k = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (i != j && out(f, t, i, j))
				o[k++] = (struct cxd_outlier){ .src = i,
					.dst = j, .metric = CXD_M_BW };
	return cxd_judge_suspects(o, k, n, t, s, CAP);
}

#define NONE { -1, -1, -1 }, 0, -1, { -1, -1 }, false, { 0, 0 }

static const struct cxd_suspect *find(const struct cxd_suspect *s, size_t n,
				      enum cxd_suspect_kind kind, int id)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].kind == kind && s[i].id == id)
			return &s[i];
	return NULL;
}

/* Ranks 0 and 1 bad, rank 2 on their switch fine: two NICs. */
static void test_two_nics_on_one_switch(void **state)
{
	struct cxd_topo_map t = dragonfly(N, 3, 6);
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];

	(void) state;
	f.nic[0] = 0, f.nic[1] = 1, f.nnic = 2;
	assert_int_equal(name(&f, &t, N, s), 2);
	assert_non_null(find(s, 2, CXD_S_RANK, 0));
	assert_non_null(find(s, 2, CXD_S_RANK, 1));
	assert_false(cxd_judge_rank_suspect(s, 2, 2, &t));
	/* All three: the switch itself, not three NICs. */
	f.nic[2] = 2, f.nnic = 3;
	assert_int_equal(name(&f, &t, N, s), 1);
	assert_int_equal(s[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].id, 0);
	assert_int_equal(s[0].bad_in, 6);
	assert_int_equal(s[0].in, 6);
}

/* Switch 0's links and the bundle between groups 0 and 1: both. Old
 * naming saw both switches of group 0 mostly out (switch 1 to switch 0
 * and to group 1) and named the group. */
static void test_switch_and_its_groups_bundle(void **state)
{
	struct cxd_topo_map t = dragonfly(N, 3, 6);
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];
	const struct cxd_suspect *b;

	(void) state;
	f.sw = 0;
	f.bundle[0] = 0, f.bundle[1] = 1;
	assert_int_equal(name(&f, &t, N, s), 2);
	assert_non_null(find(s, 2, CXD_S_SWITCH, 0));
	b = find(s, 2, CXD_S_BUNDLE, 0);
	assert_non_null(b);
	assert_int_equal(b->id2, 1);
	assert_int_equal(b->bad, 72);
	assert_int_equal(b->links, 72);
	assert_null(find(s, 2, CXD_S_GROUP, 0));
	/* group 0's other switch is no suspect: its ranks are not drained */
	assert_false(cxd_judge_rank_suspect(s, 2, 3, &t));
	assert_true(cxd_judge_rank_suspect(s, 2, 2, &t));
}

/* Rank 0's NIC and its own switch's links: both, the switch from the
 * pairs without rank 0 (its other two ranks), reported without it. */
static void test_nic_and_its_own_switch(void **state)
{
	struct cxd_topo_map t = dragonfly(N, 3, 6);
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];
	const struct cxd_suspect *w;

	(void) state;
	f.nic[0] = 0, f.nnic = 1;
	f.sw = 0;
	assert_int_equal(name(&f, &t, N, s), 2);
	assert_non_null(find(s, 2, CXD_S_RANK, 0));
	w = find(s, 2, CXD_S_SWITCH, 0);
	assert_non_null(w);
	assert_int_equal(w->links, 2 * 2 * 15);
	assert_int_equal(w->bad, 60);
	assert_int_equal(w->aside, 1);
	/* inside it fine once the NIC is apart: its uplinks, not itself */
	assert_int_equal(w->in, 2);
	assert_int_equal(w->bad_in, 0);
}

/* Rank 3's NIC (switch 1) beside switch 0's links, one group: both. */
static void test_nic_beside_a_bad_switch(void **state)
{
	struct cxd_topo_map t = dragonfly(N, 3, 6);
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];

	(void) state;
	f.nic[0] = 3, f.nnic = 1;
	f.sw = 0;
	assert_int_equal(name(&f, &t, N, s), 2);
	assert_non_null(find(s, 2, CXD_S_RANK, 3));
	assert_non_null(find(s, 2, CXD_S_SWITCH, 0));
	assert_false(cxd_judge_rank_suspect(s, 2, 4, &t));
}

/* One fault at a time: named as ever. */
static void test_single_faults(void **state)
{
	struct cxd_topo_map t = dragonfly(N, 3, 6);
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];

	(void) state;
	f.sw = 4;
	assert_int_equal(name(&f, &t, N, s), 1);
	assert_int_equal(s[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].id, 4);
	assert_int_equal(s[0].bad, 90);
	assert_int_equal(s[0].aside, 0);
	assert_int_equal(s[0].nalike, 0);
	f.sw = -1;
	f.bundle[0] = 1, f.bundle[1] = 2;
	assert_int_equal(name(&f, &t, N, s), 1);
	assert_int_equal(s[0].kind, CXD_S_BUNDLE);
	f.bundle[0] = -1;
	f.all_of_group0 = true;
	assert_int_equal(name(&f, &t, N, s), 1);
	assert_int_equal(s[0].kind, CXD_S_GROUP);
	assert_int_equal(s[0].id, 0);
	f.all_of_group0 = false;
	assert_int_equal(name(&f, &t, N, s), 0);
}

/*
 * Where no measured pair separates two components: rank 0 alone on
 * switch 0 (its NIC and its switch cross the same pairs), switch 4 all
 * of group 2. Ranks 0 | 1-3 on switches 0, 1 (group 0); 4-9 on 2, 3
 * (group 1); 10-15 on switch 4 (group 2).
 */
static void test_cannot_be_told_apart(void **state)
{
	int s_of[16], g_of[16];
	struct cxd_topo_map t = { .switch_of = s_of, .group_of = g_of,
				  .nswitch = 5, .ngroup = 3 };
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];

	(void) state;
	for (int r = 0; r < 16; r++) {
		s_of[r] = r == 0 ? 0 : r < 4 ? 1 : r < 7 ? 2 : r < 10 ? 3 : 4;
		g_of[r] = r < 4 ? 0 : r < 10 ? 1 : 2;
	}
	f.nic[0] = 0, f.nnic = 1;
	assert_int_equal(name(&f, &t, 16, s), 1);
	assert_int_equal(s[0].kind, CXD_S_RANK); /* the most specific */
	assert_int_equal(s[0].nalike, 1);
	assert_int_equal(s[0].alike[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].alike[0].id, 0);
	/* Switch 0's links out: the same pairs, the same words. */
	f.nnic = 0;
	f.sw = 0;
	assert_int_equal(name(&f, &t, 16, s), 1);
	assert_int_equal(s[0].kind, CXD_S_RANK);
	assert_int_equal(s[0].alike[0].id, 0);
	/* Switch 4 is group 2: its links leaving it are the group's. */
	f.sw = 4;
	assert_int_equal(name(&f, &t, 16, s), 1);
	assert_int_equal(s[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].id, 4);
	assert_int_equal(s[0].nalike, 1);
	assert_int_equal(s[0].alike[0].kind, CXD_S_GROUP);
	assert_int_equal(s[0].alike[0].id, 2);
}

/*
 * Five groups of two switches of two hosts: a switch's ports carry the
 * global links of two of its group's four bundles. Switch 0 bad and two
 * of group 0's bundles wholly out: its ports, one suspect; with three
 * bundles out, more than its ports carry: each named. One bundle: both,
 * as with three groups.
 */
static void test_bundles_on_a_bad_switchs_ports(void **state)
{
	struct cxd_topo_map t = dragonfly(20, 2, 4);
	struct faults f = { NONE };
	struct cxd_suspect s[CAP];

	(void) state;
	f.sw = 0;
	f.bundle[0] = 0, f.bundle[1] = 1;
	f.more[0] = 2;
	assert_int_equal(name(&f, &t, 20, s), 1);
	assert_int_equal(s[0].kind, CXD_S_SWITCH);
	assert_int_equal(s[0].id, 0);
	f.more[1] = 3;
	assert_int_equal(name(&f, &t, 20, s), 4);
	assert_null(find(s, 4, CXD_S_GROUP, 0));
	f.more[0] = f.more[1] = 0;
	assert_int_equal(name(&f, &t, 20, s), 2);
	assert_non_null(find(s, 2, CXD_S_BUNDLE, 0));
}

/* A fat tree's slow spine (d-mod-k: it carries the links into every rank
 * r with r % 3 == 0 from other leaves): those ranks' links to their own
 * leaf are fine, so none is named as a NIC; a real NIC beside it is. */
static void test_spine_names_no_innocent_nic(void **state)
{
	static struct cxd_outlier o[N * N];
	struct cxd_suspect s[CAP];
	struct cxd_topo_map t = { .switch_of = sof, .group_of = gof,
				  .nswitch = 6, .ngroup = 0 };
	size_t k = 0, ns;

	(void) state;
	for (int r = 0; r < N; r++) {
		sof[r] = r / 3;
		gof[r] = -1; /* no groups: the switches are leaves */
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			if (i != j && ((sof[i] != sof[j] && j % 3 == 0) ||
				       i == 7 || j == 7))
				o[k++] = (struct cxd_outlier){ .src = i,
					.dst = j, .metric = CXD_M_BW };
	ns = cxd_judge_suspects(o, k, N, &t, s, CAP);
	for (size_t i = 0; i < ns; i++)
		assert_false(s[i].kind == CXD_S_RANK && s[i].id % 3 == 0);
	assert_true(ns >= 1);
	assert_int_equal(s[0].kind, CXD_S_RANK);
	assert_int_equal(s[0].id, 7);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_two_nics_on_one_switch),
	cmocka_unit_test(test_switch_and_its_groups_bundle),
	cmocka_unit_test(test_nic_and_its_own_switch),
	cmocka_unit_test(test_nic_beside_a_bad_switch),
	cmocka_unit_test(test_single_faults),
	cmocka_unit_test(test_cannot_be_told_apart),
	cmocka_unit_test(test_bundles_on_a_bad_switchs_ports),
	cmocka_unit_test(test_spine_names_no_innocent_nic))
