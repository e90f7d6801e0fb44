/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shared-links plan in two parts (sched_dealt.h): within each group
 * by switch, then across groups. Under the simulated waits (support/
 * pace_sim.c), for every N up to 48 and groups of 2 to 4 switches, in
 * blocks and at random: each part measures its pairs exactly once
 * (together every pair once), never two pairs of one switch pair (within)
 * or of one group pair (across) at once, no deadlock, eager or
 * synchronous tokens.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/pace_sim.h"
#include "support/unit_main.h"
#include "sweep/sched/sched.h"
#include "sweep/sched/sched_dealt.h"

#define MAX_N 48

/* Every policy, eager and synchronous: the pairs wanted once each, at
 * most one pair of a key (key[] per rank) at once. */
static void check(int n, const struct cxd_plan *pl, const int *key,
		  const int *want, int npairs)
{
	int *times = calloc((size_t) n * (size_t) n, sizeof(int));
	struct pace_steps ps;

	assert_non_null(times);
	assert_int_equal(pace_steps_make(n, n / 2, pl, key, 1, &ps), 0);
	for (int run = 0; run < 2 * (PACE_RANDOM + 1); run++) {
		struct pace_res res;

		memset(times, 0, (size_t) n * (size_t) n * sizeof(int));
		pace_run(&ps, (enum pace_policy) (run / 2),
			 (unsigned) (n * 7 + run), run % 2, times, &res);
		if (res.fault != PACE_OK || res.max_key_running > 1)
			fail_msg("n %d run %d: fault %d, %d pairs of one key "
				 "at once", n, run, res.fault,
				 res.max_key_running);
		assert_int_equal(res.ended, npairs);
		for (int i = 0; i < n * n; i++)
			if (times[i] != want[i])
				fail_msg("n %d: pair (%d, %d) measured %d "
					 "times", n, i / n, i % n, times[i]);
	}
	pace_steps_free(&ps);
	free(times);
}

/* Switches of s per group; ranks on them in blocks or at random. */
static void layout(int n, int nsw, int s, bool random, unsigned *rng,
		   int *sw, int *grp)
{
	for (int r = 0; r < n; r++) {
		*rng = *rng * 1103515245u + 12345u;
		sw[r] = random ? (int) ((*rng >> 8) % (unsigned) nsw)
			       : (int) ((long) r * nsw / n);
		grp[r] = sw[r] / s;
	}
}

/* The pairs within a group (inside) or across groups; their count. */
static int wanted(int n, const int *grp, bool inside, int *want)
{
	int c = 0;

	for (int i = 0; i < n * n; i++) {
		int a = i / n, b = i % n;

		want[i] = a < b && (grp[a] == grp[b]) == inside;
		c += want[i];
	}
	return c;
}

static void test_within_then_across_every_pair_once_one_per_key(void **st)
{
	static int want[MAX_N * MAX_N], seen[MAX_N * MAX_N];
	int sw[MAX_N], grp[MAX_N], parts = 0;
	unsigned rng = 29;

	(void) st;
	for (int n = 4; n <= MAX_N; n++) {
		for (int j = 0; j < 12; j++) {
			int s = 2 + j % 3, nsw = s * (2 + (j / 3) % 2);
			struct cxd_plan in, out;

			if (nsw > n)
				continue;
			layout(n, nsw, s, j >= 6, &rng, sw, grp);
			if (cxd_sched_dealt_within(n, sw, grp, n / 2, &in))
				continue;
			memset(seen, 0, sizeof(seen));
			check(n, &in, sw, want, wanted(n, grp, true, want));
			memcpy(seen, want, sizeof(int) * (size_t) (n * n));
			assert_true(cxd_sched_dealt_across(n, grp, n / 2,
							   j % 3, &out) == 0 ||
				    out.nrounds == 0);
			if (out.nrounds > 0) {
				check(n, &out, grp, want,
				      wanted(n, grp, false, want));
				for (int i = 0; i < n * n; i++)
					assert_int_equal(seen[i] + want[i],
							 i / n < i % n);
				parts++;
			}
			cxd_sched_free(&in);
			cxd_sched_free(&out);
		}
	}
	assert_true(parts >= 150);
}

/* Across with a cap: in every part of a slot a group has at most cap
 * pairs, and the plan has as many parts as the groups' rounds need. */
static void test_across_cap_bounds_a_group_per_part(void **st)
{
	enum { n = 64, G = 8 };
	static struct cxd_step step[n + 1];
	int grp[n], cap;

	(void) st;
	for (int r = 0; r < n; r++)
		grp[r] = r % G;
	for (cap = 1; cap <= 7; cap++) {
		struct cxd_plan pl;
		int *cnt;

		assert_int_equal(cxd_sched_dealt_across(n, grp, n / 2, cap,
							&pl), 0);
		assert_int_equal(cxd_sched_parts(&pl), (7 + cap - 1) / cap);
		cnt = calloc((size_t) pl.nrounds * G, sizeof(int));
		assert_non_null(cnt);
		for (int r = 0; r < n; r++) {
			int k = cxd_sched_steps(n, r, n / 2, &pl, step);

			for (int i = 0; i < k; i++)
				if (r < step[i].partner)
					cnt[step[i].round * G + grp[r]]++,
					cnt[step[i].round * G +
					    grp[step[i].partner]]++;
		}
		for (int i = 0; i < pl.nrounds * G; i++)
			assert_true(cnt[i] <= cap);
		/* Part by part, a rank's steps are all of its steps, each
		 * in its own part. */
		for (int r = 0; r < n; r++) {
			int all = cxd_sched_steps(n, r, n / 2, &pl, step), sum = 0;
			long p2 = (long) cxd_sched_dealt_prime(&pl) *
				  cxd_sched_dealt_prime(&pl);

			for (int part = 1; part <= cxd_sched_parts(&pl);
			     part++) {
				struct cxd_sched_at at = { n, r, n / 2, part };
				int k = cxd_sched_part_steps(&at, &pl, step);
				long lo = (long) (part - 1) * p2;

				for (int i = 0; i < k; i++)
					assert_true(step[i].round >= lo &&
						    step[i].round < lo + p2);
				sum += k;
			}
			assert_int_equal(sum, all);
		}
		free(cnt);
		cxd_sched_free(&pl);
	}
}

/* Refused, never wrong: fewer pairs at once than a round, an unplaced
 * rank, a switch in two groups, no group with two switches. */
static void test_within_refused_where_it_cannot_hold(void **st)
{
	int sw[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	int grp[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct cxd_plan pl;

	(void) st;
	assert_int_equal(cxd_sched_dealt_within(8, sw, grp, 4, &pl), 0);
	assert_int_equal(cxd_sched_dealt_prime(&pl), 2);
	assert_int_equal(pl.nrounds, 1 + 4);
	cxd_sched_free(&pl);
	assert_int_equal(cxd_sched_dealt_within(8, sw, grp, 3, &pl), -EDOM);
	grp[3] = 1; /* switch 1 in groups 0 and 1 */
	assert_int_equal(cxd_sched_dealt_within(8, sw, grp, 4, &pl), -EDOM);
	grp[3] = 0;
	sw[5] = -1;
	assert_int_equal(cxd_sched_dealt_within(8, sw, grp, 4, &pl), -EDOM);
	for (int r = 0; r < 8; r++)
		sw[r] = grp[r] = r / 4;
	assert_int_equal(cxd_sched_dealt_within(8, sw, grp, 4, &pl), -EDOM);
	assert_int_equal(cxd_sched_dealt_across(8, grp, 4, 0, &pl), 0);
	assert_int_equal(pl.nrounds, cxd_sched_dealt_prime(&pl) *
				     cxd_sched_dealt_prime(&pl));
	cxd_sched_free(&pl);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(
		test_within_then_across_every_pair_once_one_per_key),
	cmocka_unit_test(test_within_refused_where_it_cannot_hold),
	cmocka_unit_test(test_across_cap_bounds_a_group_per_part))
