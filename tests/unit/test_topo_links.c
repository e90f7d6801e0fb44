/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology's switch, link and route lines (lib/sweep/model/topo_links.c,
 * topo_resolve.c, topo_reach.c): a dragonfly, a fat tree, a file of
 * places only, Slurm's tree, each error naming its line and value, and
 * the converters' outputs in tests/data/topology/ (CXD_TOPO_DATA). */
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

/* A file of text refused, its error naming want (and not lacking). */
static void refused(const char *text, const char *want, const char *lack)
{
	struct cxd_topo t;
	char err[512] = "";
	char *p = write_tmp(text);
	int ret = cxd_topo_load(p, &t, err, sizeof(err));

	unlink(p);
	if (ret == 0) {
		cxd_topo_free(&t);
		fail_msg("%s: loaded, want '%s'", text, want);
	}
	if (strstr(err, want) == NULL || (lack && strstr(err, lack)))
		fail_msg("%s: got '%s', want '%s'", text, err, want);
}

static int sw(const struct cxd_topo *t, const char *name)
{
	for (int s = 0; s < t->nswitch_all; s++)
		if (strcmp(t->switch_name[s], name) == 0)
			return s;
	fail_msg("no switch '%s'", name);
	return -1;
}

/* The count of the link between switches a and b (0: none); a < b. */
static int linked(const struct cxd_topo *t, const char *a, const char *b)
{
	int x = sw(t, a), y = sw(t, b);

	for (int i = 0; i < t->nlink; i++) {
		assert_true(t->link[i].a < t->link[i].b);
		if (t->link[i].a == (x < y ? x : y) &&
		    t->link[i].b == (x < y ? y : x))
			return t->link[i].count;
	}
	return 0;
}

static const char *group(const struct cxd_topo *t, const char *s)
{
	int g = t->switch_group[sw(t, s)];

	return g < 0 ? "-" : t->group_name[g];
}

/* The switches and groups host lines name, and all of them. */
static void assert_counts(const struct cxd_topo *t, int nswitch,
			  int nswitch_all, int ngroup, int ngroup_all)
{
	assert_int_equal(t->nswitch, nswitch);
	assert_int_equal(t->nswitch_all, nswitch_all);
	assert_int_equal(t->ngroup, ngroup);
	assert_int_equal(t->ngroup_all, ngroup_all);
}

/* Two groups of two switches, a router with no hosts declared by a
 * switch line, a link before the lines that name its switches. */
static void test_dragonfly(void **state)
{
	struct cxd_topo t;

	(void) state;
	topo_of_text(&t, "link g0s1 g1s0 4   # the global link\n"
		     "n1 g0s0 g0\nn2 g0s1 g0\nn3 g1s0 g1\nn4 g1s1 g1\n"
		     "switch g1r9 g1\n"
		     "link g0s0 g0s1 2\nlink g1s0 g1r9\nlink g1s1 g1r9 3\n"
		     "width local 2\n");
	assert_counts(&t, 4, 5, 2, 2);
	assert_string_equal(t.switch_name[4], "g1r9");
	assert_string_equal(group(&t, "g0s1"), "g0");
	assert_string_equal(group(&t, "g1r9"), "g1");
	assert_int_equal(t.nlink, 4);
	assert_int_equal(linked(&t, "g1s0", "g0s1"), 4);
	assert_int_equal(linked(&t, "g0s0", "g0s1"), 2);
	assert_int_equal(linked(&t, "g1r9", "g1s0"), 1);
	assert_int_equal(linked(&t, "g1s1", "g1r9"), 3);
	assert_int_equal(linked(&t, "g0s0", "g1s1"), 0);
	assert_int_equal(t.route, CXD_TOPO_R_MINIMAL);
	assert_int_equal(t.route_line, 0);
	assert_int_equal(t.width[CXD_TOPO_W_LOCAL].pairs, 2);
	assert_null(t.pend);
	cxd_topo_free(&t);
}

/* Leaves with hosts, spines declared, two cables each way: ecmp. */
static void test_fat_tree(void **state)
{
	struct cxd_topo t;

	(void) state;
	topo_of_text(&t, "switch spine1\nswitch spine2 # no hosts\n"
		     "link leaf1 spine1 2\nlink leaf1 spine2 2\n"
		     "link leaf2 spine1 2\nlink spine2 leaf2 2\n"
		     "h1 leaf1\nh2 leaf1\nh3 leaf2\nh4 leaf2\n");
	assert_int_equal(t.nswitch, 2);
	assert_int_equal(t.nswitch_all, 4);
	assert_string_equal(t.switch_name[0], "leaf1");
	assert_string_equal(t.switch_name[2], "spine1");
	assert_int_equal(t.ngroup_all, 0);
	for (int s = 0; s < t.nswitch_all; s++)
		assert_int_equal(t.switch_group[s], -1);
	assert_int_equal(t.nlink, 4);
	assert_int_equal(linked(&t, "leaf2", "spine2"), 2);
	assert_int_equal(t.route, CXD_TOPO_R_ECMP);
	cxd_topo_free(&t);
	/* Said: a route line wins over the default. */
	topo_of_text(&t, "a s0 g0\nb s1 g0\nlink s0 s1\nroute ecmp\n");
	assert_int_equal(t.route, CXD_TOPO_R_ECMP);
	assert_int_equal(t.route_line, 4);
	cxd_topo_free(&t);
}

/* A file of places only loads as before: no links, no route; every
 * switch's group filled all the same; host lines that disagree on a
 * switch's group keep the first (as placing always has). */
static void test_places_only(void **state)
{
	struct cxd_topo t;

	(void) state;
	topo_of_text(&t, "a s0 g0\nb s1 g1\nc s1 g0\nd s2\n");
	assert_int_equal(t.nlink, 0);
	assert_null(t.link);
	assert_int_equal(t.route, CXD_TOPO_R_NONE);
	assert_int_equal(t.nswitch_all, t.nswitch);
	assert_int_equal(t.ngroup_all, t.ngroup);
	assert_int_equal(t.switch_group[0], 0);
	assert_int_equal(t.switch_group[1], 1);
	assert_int_equal(t.switch_group[2], -1);
	assert_int_equal(t.l[2].group_ix, 0);
	cxd_topo_free(&t);
}

/* Slurm's tree: each Switches= relation a link, routed ecmp; the leaves
 * placed as before, the top in the group of its name. */
static void test_slurm_links(void **state)
{
	struct cxd_topo t;

	(void) state;
	topo_of_text(&t, "SwitchName=s1 Nodes=n[1-2]\n"
		     "SwitchName=s2 Nodes=n[3-4]\nSwitchName=s3 Nodes=lone\n"
		     "SwitchName=top Switches=s[1-2],s1\n");
	assert_counts(&t, 3, 4, 1, 1);
	assert_string_equal(group(&t, "s1"), "top");
	assert_string_equal(group(&t, "top"), "top");
	assert_string_equal(group(&t, "s3"), "-");
	assert_int_equal(t.nlink, 2);
	assert_int_equal(linked(&t, "s1", "top"), 1);
	assert_int_equal(linked(&t, "top", "s2"), 1);
	assert_int_equal(t.route, CXD_TOPO_R_ECMP);
	cxd_topo_free(&t);
	/* One switch: no links, no route. */
	topo_of_text(&t, "SwitchName=s1 Nodes=n[1-2]\n");
	assert_int_equal(t.nlink, 0);
	assert_int_equal(t.route, CXD_TOPO_R_NONE);
	cxd_topo_free(&t);
}

#define PAIR "a s0\nb s1\n"

static void test_line_errors(void **state)
{
	static const char *const bad[][2] = {
		{ PAIR "link s0 s9\n", ":3: link s0 s9: no host or switch "
		  "line names switch 's9'" },
		{ PAIR "link s0 s0 2\n", ":3: a link from switch 's0' to "
		  "itself" },
		{ PAIR "link s0 s1\nlink s1 s0 2\n", ":4: switches 's0' and "
		  "'s1' are linked on two lines, 3 and 4" },
		{ PAIR "link s0\n", ":3: expected 'link A B [COUNT]', got 1 "
		  "name" },
		{ PAIR "link s0 s1 2 3\n", ":3: link s0 s1: too many fields at "
		  "'3'" },
		{ PAIR "switch s0 g0 x\n", ":3: switch s0: too many fields at "
		  "'x'" },
		{ PAIR "switch\n", ":3: expected 'switch NAME [GROUP]'" },
		{ PAIR "switch s5\nswitch s5\n", ":4: switch 's5' is declared "
		  "twice (first at line 3)" },
		{ PAIR "link s0 s1\nroute ecmp x\n", ":4: route ecmp: too many "
		  "fields at 'x'" },
		{ PAIR "link s0 s1\nroute fast\n", ":4: route 'fast': the "
		  "rules are minimal and ecmp" },
		{ PAIR "route ecmp\nlink s0 s1\nroute minimal\n", ":5: route "
		  "'minimal': the route is stated twice (first at line 3)" },
		{ PAIR "route\n", ":3: expected 'route minimal' or 'route "
		  "ecmp', got no rule" },
		{ PAIR "route ecmp\n", ":3: a route line but no link lines" },
		{ "a s0 g0\nswitch s0 g1\n", ":2: switch 's0' is in group 'g1' "
		  "here but in group 'g0' at line 1" },
		{ "switch s0 g1\na s0 g0\n", ":2: switch 's0' is in group 'g0' "
		  "here but in group 'g1' at line 1" },
		{ "a s0 g0\nswitch s0\n", ":2: switch 's0' is in no group here "
		  "but in group 'g0' at line 1" },
		{ "a s0 g0\nb s0 g1\nc s1 g0\nlink s0 s1\n", ":2: switch 's0' "
		  "is in group 'g1' here but in group 'g0' at line 1" },
		{ "a s0\nb s1\na s2\n", ":3: 'a' is placed twice (first at "
		  "line 1), on switch 's2' here and 's0' there" },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i][0], bad[i][1], NULL);
	/* The same line twice stays the error it was. */
	refused("a s0\na s0\n", ":2: 'a' is placed twice (first at line 1)",
		"on switch");
}

/* COUNT: a whole number 1..65535; missing is 1, a comment after it is
 * fine; the value is named. */
static void test_counts(void **state)
{
	static const char *const bad[] = {
		"x", "0", "-1", "+3", "65536", "99999999999999999999", "3x",
		"2.5", "0x10",
	};
	char text[128], want[128];
	struct cxd_topo t;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), PAIR "link s0 s1 %s\n", bad[i]);
		snprintf(want, sizeof(want), ":3: link s0 s1: count '%s': "
			 "expected a whole number from 1 to 65535", bad[i]);
		refused(text, want, NULL);
	}
	topo_of_text(&t, PAIR "link s0 s1 65535 # cables\n");
	assert_int_equal(t.link[0].count, 65535);
	assert_int_equal(t.link[0].line, 3);
	cxd_topo_free(&t);
	topo_of_text(&t, PAIR "link s0 s1 007\n");
	assert_int_equal(t.link[0].count, 7);
	cxd_topo_free(&t);
}

/* Routes that cannot reach: inside a group, across groups, over ecmp. */
static void test_reach(void **state)
{
	static const char *const bad[][2] = {
		{ "a s0 g0\nb s1 g0\nc s2 g1\nlink s0 s2\nlink s1 s2\n",
		  ": no minimal route from switch 's0' (group 'g0') to switch "
		  "'s1' (group 'g0'): no links inside the group join them" },
		{ "a s0 g0\nb s1 g1\nc s2 g2\nlink s0 s1\nlink s1 s2\n",
		  ": no minimal route from switch 's0' (group 'g0') to switch "
		  "'s2' (group 'g2'): no link joins their groups" },
		{ "a s0 g0\nb s1 g1\nswitch r0 g0\nlink r0 s1\n",
		  ": no minimal route from switch 's0' (group 'g0') to switch "
		  "'s1' (group 'g1'): the links between their groups end at "
		  "switches that the hosts' switches do not reach" },
		{ "route minimal\na l0\nb l1\nswitch sp\nlink l0 sp\n"
		  "link l1 sp\n", ": no minimal route from switch 'l0' (no "
		  "group) to switch 'l1' (no group): no link joins" },
		{ "a s0\nb s1\nc s2\nswitch sp\nlink s0 sp\nlink s1 sp\n",
		  ": no route from switch 's0' to switch 's2': no chain of "
		  "links joins them" },
	};
	struct cxd_topo t;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i][0], bad[i][1], NULL);
	/* Reached through a router with no hosts, inside and across. */
	topo_of_text(&t, "a s0 g0\nb s1 g0\nc s2 g1\nswitch r0 g0\n"
		     "link s0 r0\nlink r0 s1\nlink r0 s2 8\n");
	assert_int_equal(t.route, CXD_TOPO_R_MINIMAL);
	cxd_topo_free(&t);
	/* Slurm's forest (no top) loads, as it always has. */
	topo_of_text(&t, "SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=b\n"
		     "SwitchName=s3 Nodes=c\nSwitchName=t Switches=s[1-2]\n");
	assert_int_equal(t.nlink, 2);
	cxd_topo_free(&t);
}

/* t loaded from tests/data/topology/name, which must load. */
static void load_data(struct cxd_topo *t, const char *name)
{
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", CXD_TOPO_DATA, name);
	if (cxd_topo_load(path, t, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
}

/* What slurm-topology-to-cxd wrote loads as cxi_sweep reads Slurm's file
 * itself: the same switches, groups, links and places. */
static void test_slurm_converted(void **state)
{
	struct cxd_topo c, s;

	(void) state;
	load_data(&c, "slurm-tree.cxd");
	load_data(&s, "slurm-tree.conf");
	assert_int_equal(c.nswitch, 4);
	assert_int_equal(c.nswitch_all, 7);
	assert_int_equal(c.nl, 64);
	assert_string_equal(group(&c, "leaf2"), "spine1");
	assert_string_equal(group(&c, "spine2"), "spine2");
	assert_string_equal(group(&c, "core"), "-");
	assert_int_equal(linked(&c, "core", "spine2"), 1);
	assert_int_equal(linked(&c, "leaf4", "spine2"), 1);
	assert_int_equal(linked(&c, "leaf4", "spine1"), 0);
	assert_int_equal(c.route, CXD_TOPO_R_ECMP);
	assert_true(c.route_line > 0);
	assert_int_equal(s.nswitch_all, c.nswitch_all);
	assert_int_equal(s.ngroup_all, c.ngroup_all);
	for (int k = 0; k < c.nswitch_all; k++) {
		assert_string_equal(s.switch_name[k], c.switch_name[k]);
		assert_int_equal(s.switch_group[k], c.switch_group[k]);
	}
	assert_int_equal(s.nlink, 6);
	assert_int_equal(s.nlink, c.nlink);
	for (int i = 0; i < c.nlink; i++) {
		assert_int_equal(s.link[i].a, c.link[i].a);
		assert_int_equal(s.link[i].b, c.link[i].b);
		assert_int_equal(s.link[i].count, c.link[i].count);
	}
	assert_int_equal(s.nl, c.nl);
	for (int i = 0; i < c.nl; i++) {
		assert_string_equal(s.l[i].name, c.l[i].name);
		assert_int_equal(s.l[i].switch_ix, c.l[i].switch_ix);
		assert_int_equal(s.l[i].group_ix, c.l[i].group_ix);
	}
	assert_int_equal(s.route, c.route);
	cxd_topo_free(&c);
	cxd_topo_free(&s);
}

/* What ibnetdiscover-to-cxd wrote: two leaves, two spines, two cables
 * each, a host with two HCAs named host:nic. */
static void test_ib_converted(void **state)
{
	const char *l1 = "MF0;leaf1:MQM8790/U1", *l2 = "MF0;leaf2:MQM8790/U1";
	const char *s1 = "MF0;spine1:MQM8790/U1", *s2 = "spine_2_(row_B)";
	struct cxd_topo t;

	(void) state;
	load_data(&t, "ib-fat-tree.cxd");
	assert_int_equal(t.nl, 9);
	assert_int_equal(t.nswitch, 2);
	assert_int_equal(t.nswitch_all, 4);
	assert_int_equal(t.ngroup_all, 0);
	assert_int_equal(t.nlink, 4);
	assert_int_equal(linked(&t, l1, s1), 2);
	assert_int_equal(linked(&t, l1, s2), 2);
	assert_int_equal(linked(&t, s1, l2), 2);
	assert_int_equal(linked(&t, l2, s2), 2);
	assert_int_equal(linked(&t, l1, l2), 0);
	for (int i = 0; i < t.nl; i++)
		if (strcmp(t.l[i].name, "node04:mlx5_1") == 0)
			assert_string_equal(t.switch_name[t.l[i].switch_ix], l2);
	assert_string_equal(t.l[3].name, "node04:mlx5_0");
	assert_int_equal(t.route, CXD_TOPO_R_ECMP);
	cxd_topo_free(&t);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_dragonfly),
	cmocka_unit_test(test_fat_tree),
	cmocka_unit_test(test_places_only),
	cmocka_unit_test(test_slurm_links),
	cmocka_unit_test(test_line_errors),
	cmocka_unit_test(test_counts),
	cmocka_unit_test(test_reach),
	cmocka_unit_test(test_slurm_converted),
	cmocka_unit_test(test_ib_converted)
)
