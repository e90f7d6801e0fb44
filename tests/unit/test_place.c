/* SPDX-License-Identifier: BSD-3-Clause */
/* The congestion mode's placement (lib/sweep/congest/place.c): victims' turns,
 * a host crowded past its CPUs, the count of hosts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/congest/place.h"

static const int victims[6] = { 5, 2, 7, 1, 0, 3 };

/* One pair a turn: turns of two ranks, in the victims' order; the turn
 * after the last is empty. */
static void test_turns_take_per_pairs_in_victim_order(void **state)
{
	int r[4];

	(void) state;
	assert_int_equal(cxd_place_turn_ranks(victims, 6, 1, 1, r), 2);
	assert_int_equal(r[0], 7);
	assert_int_equal(r[1], 1);
	assert_int_equal(cxd_place_turn_ranks(victims, 6, 1, 3, r), 0);
	/* Two pairs a turn: the last turn is short. */
	assert_int_equal(cxd_place_turn_ranks(victims, 6, 2, 0, r), 4);
	assert_int_equal(r[3], 1);
	assert_int_equal(cxd_place_turn_ranks(victims, 6, 2, 1, r), 2);
	assert_int_equal(r[0], 0);
	assert_int_equal(r[1], 3);
}

/* A victim's turn is its pair's; a rank that is no victim has none. */
static void test_turn_of_a_victim_is_its_pairs_turn(void **state)
{
	(void) state;
	assert_int_equal(cxd_place_turn_of(victims, 6, 1, 7), 1);
	assert_int_equal(cxd_place_turn_of(victims, 6, 1, 3), 2);
	assert_int_equal(cxd_place_turn_of(victims, 6, 2, 3), 1);
	assert_int_equal(cxd_place_turn_of(victims, 6, 1, 4), -1);
}

static void set_hosts(struct cxd_sweep_rank *r, const char *const *h, int n)
{
	memset(r, 0, (size_t) n * sizeof(*r));
	for (int i = 0; i < n; i++)
		strcpy(r[i].host, h[i]);
}

/* Two ranks on host a: crowded on one CPU, not on two; host b's single
 * rank never; an unknown CPU count (0, -1) counts as one. */
static void test_crowded_when_a_host_has_more_ranks_than_cpus(void **state)
{
	struct cxd_sweep_rank r[3];
	const char *const h[3] = { "a", "b", "a" };

	(void) state;
	set_hosts(r, h, 3);
	assert_true(cxd_place_crowded(r, 3, 0, 1));
	assert_false(cxd_place_crowded(r, 3, 2, 2));
	assert_false(cxd_place_crowded(r, 3, 1, 1));
	assert_true(cxd_place_crowded(r, 3, 2, 0));
	assert_false(cxd_place_crowded(r, 3, 1, -1));
}

static void test_nhosts_counts_each_host_once(void **state)
{
	struct cxd_sweep_rank r[5];
	const char *const h[5] = { "a", "b", "a", "c", "b" };

	(void) state;
	set_hosts(r, h, 5);
	assert_int_equal(cxd_place_nhosts(r, 5), 3);
	assert_int_equal(cxd_place_nhosts(r, 1), 1);
	assert_int_equal(cxd_place_nhosts(r, 0), 0);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_turns_take_per_pairs_in_victim_order),
	cmocka_unit_test(test_turn_of_a_victim_is_its_pairs_turn),
	cmocka_unit_test(
		test_crowded_when_a_host_has_more_ranks_than_cpus),
	cmocka_unit_test(test_nhosts_counts_each_host_once))
