/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's choice of schedule (lib/sweep/sched/sched_choose.c) and its words
 * (out_sched.c): each kind and reason from a placement, the sentence the
 * report prints for it, and the narrowings said after it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/result/out_sched.h"
#include "sweep/sched/sched_choose.h"

#define SHARED "shared links: latency in full rounds, then bandwidth "

static void assert_says(const struct cxd_sched_choice *ch, const char *want)
{
	char say[CXD_OUT_SCHED_LEN];

	cxd_out_sched(ch, say, sizeof(say));
	assert_string_equal(say, want);
}

/* The choice for 12 ranks, 4 to a switch in 3 switches (no groups), at
 * pairs_at_once; uplink_w: the pairs a leaf's uplinks carry at once. */
static struct cxd_sched_choice three_leaves(int pairs_at_once, int uplink_w)
{
	int sw[12];
	struct cxd_topo_map tm = { .switch_of = sw, .group_of = NULL,
				  .nswitch = 3, .ngroup = 0 };

	for (int r = 0; r < 12; r++)
		sw[r] = r / 4;
	return cxd_sched_choose(12, pairs_at_once, &tm, 0, uplink_w);
}

/* Plain rounds: one pair at a time, no placement, one domain. */
static void test_rounds_and_why(void **st)
{
	int sw[4] = { 0, 0, 0, 0 };
	struct cxd_topo_map none = { 0 }, one = { .switch_of = sw, .nswitch = 1 };
	struct cxd_sched_choice ch = cxd_sched_choose(4, 1, &one, 0, 0);

	(void) st;
	assert_int_equal(ch.kind, CXD_SCHED_ROUNDS);
	assert_int_equal(ch.why, CXD_SCHED_WHY_ONE_PAIR);
	assert_string_equal(cxd_out_sched_kind(&ch), "rounds");
	assert_says(&ch, "rounds: one pair at a time");
	ch = cxd_sched_choose(4, 2, &none, 0, 0);
	assert_int_equal(ch.why, CXD_SCHED_WHY_NO_TOPO);
	assert_says(&ch, "rounds: every pair of a round at once (no "
		    "--topology: which pairs share links is not known)");
	ch = cxd_sched_choose(4, 2, &one, 0, 0);
	assert_int_equal(ch.why, CXD_SCHED_WHY_ONE_DOM);
	assert_says(&ch, "rounds: every pair of a round at once (--topology "
		    "places the ranks in 1 switch)");
	/* Nothing chosen: nothing said, no kind. */
	ch = (struct cxd_sched_choice){ .kind = CXD_SCHED_ROUNDS };
	assert_string_equal(cxd_out_sched_kind(&ch), "");
	assert_says(&ch, "");
}

/* Leaves dealt, capped by their uplinks; too many leaves chained. */
static void test_leaves_dealt_or_chained(void **st)
{
	int sw[12];
	struct cxd_topo_map tm = { .switch_of = sw, .group_of = NULL,
				  .nswitch = 3, .ngroup = 0 };
	struct cxd_sched_choice ch = three_leaves(6, 0);

	(void) st;
	assert_int_equal(ch.kind, CXD_SCHED_DEALT);
	assert_int_equal(ch.cap, 1);
	assert_string_equal(cxd_out_sched_kind(&ch), "shared links");
	assert_says(&ch, SHARED "with one pair at a time per switch pair and "
		    "as many per switch as its uplinks carry, dealt into "
		    "slots, as --topology places the ranks in 3 switches");
	ch = three_leaves(5, 3);
	assert_int_equal(ch.kind, CXD_SCHED_CHAINED);
	assert_int_equal(ch.why, CXD_SCHED_WHY_UNDEALT_ROUND);
	assert_int_equal(ch.cap, 3);
	for (int r = 0; r < 12; r++)
		sw[r] = r / 2;
	/* More leaves than ranks on one: dealt too (chained rounds bound
	 * a leaf pair, not a leaf, whose uplinks its pairs to all others
	 * would share). */
	ch = cxd_sched_choose(12, 6, &tm, 0, 0);
	assert_int_equal(ch.kind, CXD_SCHED_DEALT);
	assert_says(&ch, SHARED "with one pair at a time per switch pair and "
		    "as many per switch as its uplinks carry, dealt into "
		    "slots, as --topology places the ranks in 6 switches");
}

/* Ecmp link lines: a leaf's pairs at once are at most its narrowest
 * uplink's cables (a hash may put them all there), whatever width was
 * measured between two leaves; minimal routes, or a measured width
 * below, leave the cap as it was. */
static void test_leaves_capped_by_narrowest_uplink(void **st)
{
	int sw[12];
	/* 3 leaves, 2 spines (switches 3 and 4, holding no rank) */
	struct cxd_topo_link l[6] = { { 0, 3, 2, 1 }, { 0, 4, 3, 2 },
				      { 1, 3, 2, 3 }, { 1, 4, 2, 4 },
				      { 2, 3, 4, 5 }, { 2, 4, 4, 6 } };
	struct cxd_topo_map tm = { .switch_of = sw, .nswitch = 3,
				  .link = l, .nlink = 6,
				  .route = CXD_TOPO_R_ECMP, .nswitch_all = 5 };
	struct cxd_sched_choice ch;

	(void) st;
	for (int r = 0; r < 12; r++)
		sw[r] = r / 4;
	ch = cxd_sched_choose(12, 6, &tm, 0, 8);
	cxd_sched_cap_cables(&ch, cxd_sched_uplink_cables(&tm));
	assert_int_equal(cxd_sched_uplink_cables(&tm), 2);
	assert_int_equal(ch.kind, CXD_SCHED_DEALT);
	assert_int_equal(ch.cap, 2);
	assert_true(ch.cap_links);
	assert_says(&ch, SHARED "with one pair at a time per switch pair and "
		    "as many per switch as its narrowest uplink carries (a "
		    "hash may put them all on it), dealt into slots, as "
		    "--topology places the ranks in 3 switches");
	ch = cxd_sched_choose(12, 6, &tm, 0, 1);
	cxd_sched_cap_cables(&ch, cxd_sched_uplink_cables(&tm));
	assert_int_equal(ch.cap, 1);
	assert_false(ch.cap_links);
	tm.route = CXD_TOPO_R_MINIMAL;
	assert_int_equal(cxd_sched_uplink_cables(&tm), 0);
	ch = cxd_sched_choose(12, 6, &tm, 0, 8);
	cxd_sched_cap_cables(&ch, cxd_sched_uplink_cables(&tm));
	assert_int_equal(ch.cap, 8);
	assert_false(ch.cap_links);
}

/* Groups of several switches: nested, capped by a switch pair's links;
 * groups of one switch: dealt by group, no cap. */
static void test_groups_nested_or_dealt(void **st)
{
	int sw[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	int grp[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct cxd_topo_map tm = { .switch_of = sw, .group_of = grp,
				  .nswitch = 4, .ngroup = 2 };
	struct cxd_sched_choice ch = cxd_sched_choose(8, 4, &tm, 2, 0);

	(void) st;
	assert_int_equal(ch.kind, CXD_SCHED_NESTED);
	assert_int_equal(ch.cap, 2);
	assert_says(&ch, SHARED "within each group with one pair at a time "
		    "per switch pair, then across groups with one pair at a "
		    "time per group pair and 2 per group (its switch links), "
		    "each dealt into slots, as --topology places the ranks on "
		    "4 switches in 2 groups");
	for (int r = 0; r < 8; r++)
		sw[r] = grp[r] = r / 4;
	tm.nswitch = 2;
	ch = cxd_sched_choose(8, 4, &tm, 2, 0);
	assert_int_equal(ch.kind, CXD_SCHED_DEALT);
	assert_int_equal(ch.cap, 0);
	assert_says(&ch, SHARED "with one pair at a time per group pair, "
		    "dealt into slots, as --topology places the ranks in 2 "
		    "groups");
}

/* Each narrowing halves the cap and is said after the sentence: the
 * first why, the others how far; none below one pair. */
static void test_narrowings_said_after(void **st)
{
	struct cxd_sched_choice ch = three_leaves(6, 4);

	(void) st;
	assert_true(cxd_sched_narrow(&ch, 0.3));
	assert_int_equal(cxd_sched_cap(&ch), 2);
	assert_true(cxd_sched_narrow(&ch, 0.25));
	assert_int_equal(cxd_sched_cap(&ch), 1);
	assert_false(cxd_sched_narrow(&ch, 0.25));
	assert_says(&ch, SHARED "with one pair at a time per switch pair and "
		    "as many per switch as its uplinks carry, dealt into "
		    "slots, as --topology places the ranks in 3 switches; "
		    "crowded across switches at 4 pairs at once per switch "
		    "(alone +30 %, median): measured again at 2, at 2 (+25 %) "
		    "again at 1");
	/* No cap yet: half of the other domains. */
	ch = three_leaves(6, 4);
	ch.cap = 0;
	assert_true(cxd_sched_narrow(&ch, 0.5));
	assert_int_equal(ch.narrow[0].was, 2);
	assert_int_equal(cxd_sched_cap(&ch), 1);
	/* Chained rounds have no cap per domain to lower. */
	ch = three_leaves(6, 4);
	ch.kind = CXD_SCHED_CHAINED;
	assert_false(cxd_sched_narrow(&ch, 0.5));
	assert_int_equal(ch.nnarrow, 0);
}

#define ROUTED SHARED "by the routes, 40 rounds one after the other, no " \
	"link carrying more pairs than its cables (a pair counted on every " \
	"link it may take; at least 32 rounds by the busiest link or rank"
#define ROUTED_END ", as --topology's links join the ranks' 3 switches"

/* Packed by the routes: its rounds, their bound and the dealt slots
 * said, the time once it ran; crowded, it is dropped for the dealt plan
 * at its cap (not halved), said after that plan's sentence, and the
 * narrowings go on from there. */
static void test_routed_said_and_dropped(void **st)
{
	struct cxd_sched_choice ch = three_leaves(6, 4);

	(void) st;
	ch.routed = true;
	ch.routed_rounds = 40;
	ch.routed_bound = 32;
	ch.dealt_rounds = 90;
	assert_says(&ch, ROUTED "; the dealt plan's 90 slots)" ROUTED_END);
	ch.routed_s = 0.05;
	ch.routed_pair_s = 0.001;
	ch.routed_cpu_s = 0.012;
	assert_says(&ch, ROUTED ", 0.05 s against at least 0.032 s at 1 ms a "
		    "pair, packed in 0.012 CPU s; the dealt plan's 90 slots)"
		    ROUTED_END);
	assert_true(cxd_sched_narrow(&ch, 0.2));
	assert_false(ch.routed);
	assert_int_equal(cxd_sched_cap(&ch), 4);
	assert_int_equal(ch.nnarrow, 0);
	assert_true(cxd_sched_narrow(&ch, 0.3));
	assert_says(&ch, SHARED "with one pair at a time per switch pair and "
		    "as many per switch as its uplinks carry, dealt into "
		    "slots, as --topology places the ranks in 3 switches; by "
		    "the routes (40 rounds) crowded (alone +20 %, median): "
		    "measured again so; crowded across switches at 4 pairs "
		    "at once per switch (alone +30 %, median): measured again "
		    "at 2");
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_routed_said_and_dropped),
	cmocka_unit_test(test_rounds_and_why),
	cmocka_unit_test(test_leaves_dealt_or_chained),
	cmocka_unit_test(test_leaves_capped_by_narrowest_uplink),
	cmocka_unit_test(test_groups_nested_or_dealt),
	cmocka_unit_test(test_narrowings_said_after))
