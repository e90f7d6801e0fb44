/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's pacing plans (lib/sweep/sched/sched.c, sched_dealt.c): the
 * listed and computed circle rounds walk the same steps, slot tokens
 * only where a round is cut, the retest plan's rounds, where a dealt
 * plan is refused, and what dealing gains. The protocol that walks the
 * plans is proved in test_pace.c.
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
#include "sweep/sched/retest.h"
#include "sweep/sched/sched.h"
#include "sweep/sched/sched_circle.h"
#include "sweep/sched/sched_dealt.h"
#include "sweep/sched/sched_keys.h"
#include "sweep/sched/sched_listed.h"

#define MAX_N 64

/* The main plan for n ranks, k pairs at once (cxd_sched_free it). */
static struct cxd_plan main_plan(int n, int k)
{
	struct cxd_plan pl;

	assert_int_equal(cxd_sched_main(n, k, &pl), 0);
	return pl;
}

/* Rank r's steps through pl, compared field by field with ref's. */
static void assert_same_steps(int n, int k, const struct cxd_plan *pl,
			      const struct cxd_plan *ref)
{
	struct cxd_step *x = calloc((size_t) cxd_sched_room(n, pl),
				    sizeof(*x));
	struct cxd_step *y = calloc((size_t) cxd_sched_room(n, ref),
				    sizeof(*y));

	assert_non_null(x);
	assert_non_null(y);
	for (int r = 0; r < n; r++) {
		int nx = cxd_sched_steps(n, r, k, pl, x);
		int ny = cxd_sched_steps(n, r, k, ref, y);

		assert_int_equal(nx, ny);
		for (int i = 0; i < nx; i++)
			if (memcmp(x + i, y + i, sizeof(*x)) != 0)
				fail_msg("n %d k %d rank %d step %d: listed "
					 "(%d %d %d %d) computed (%d %d %d %d)",
					 n, k, r, i, x[i].round, x[i].partner,
					 x[i].prev, x[i].next, y[i].round,
					 y[i].partner, y[i].prev, y[i].next);
	}
	free(x);
	free(y);
}

/* The computed steps (a circle plan's) are those of the listed plan
 * (cxd_sched_list's rounds): one rule, two ways. */
static void test_listed_main_plan_walks_the_same_steps_as_computed(
	void **state)
{
	(void) state;
	for (int n = 2; n <= MAX_N; n++) {
		for (int k = 1; k <= n / 2; k++) {
			struct cxd_plan pl = main_plan(n, k), list;
			const struct cxd_sched_list *ls;

			assert_int_equal(cxd_sched_list(n, &pl, &list), 0);
			ls = cxd_sched_listed(&list);
			assert_non_null(ls);
			assert_int_equal(list.nrounds, pl.nrounds);
			assert_int_equal(ls->first[list.nrounds - 1] +
					 ls->count[list.nrounds - 1],
					 n * (n - 1) / 2);
			assert_same_steps(n, k, &list, &pl);
			cxd_sched_free(&list);
			cxd_sched_free(&pl);
		}
	}
}

/* Slot tokens only when a circle round holds more than K pairs. */
static void test_tokens_only_when_fewer_than_a_round_at_once(void **state)
{
	struct cxd_plan pl = main_plan(8, 1);
	struct cxd_step s[16];
	int ns;

	(void) state;
	assert_true(cxd_sched_chain(8, 3));
	assert_false(cxd_sched_chain(8, 4));
	/* 7 circle rounds of 4 pairs, cut to 1 pair each. */
	assert_int_equal(pl.nrounds, 28);
	assert_int_equal(cxd_sched_per(&pl), 1);
	assert_string_equal(cxd_sched_name(&pl), "circle");
	assert_true(cxd_sched_sweep(&pl));
	cxd_sched_free(&pl);
	pl = main_plan(8, 4);
	assert_int_equal(pl.nrounds, 7);
	ns = cxd_sched_steps(8, 0, 4, &pl, s);
	assert_int_equal(ns, 7);
	for (int i = 0; i < ns; i++)
		assert_true(s[i].prev == -1 && s[i].next == -1);
	cxd_sched_free(&pl);
	/* K above n / 2 (--max-pairs larger than a round): whole rounds. */
	pl = main_plan(8, 9);
	assert_int_equal(cxd_sched_per(&pl), 4);
	cxd_sched_free(&pl);
}

/* Each pair goes to the first round with room after both its ranks'
 * latest: (0,2) cannot join round 0 where rank 0 is; (1,3) follows. */
static void test_retest_plan_first_round_with_room_after_both_ranks(
	void **state)
{
	const struct cxd_pair p[4] = { { 0, 1 }, { 2, 3 }, { 0, 2 },
				       { 1, 3 } };
	struct cxd_plan pl;
	const struct cxd_sched_list *ls;

	(void) state;
	assert_int_equal(cxd_retest_plan(4, 2, p, 4, &pl), 0);
	ls = cxd_sched_listed(&pl);
	assert_non_null(ls);
	assert_false(cxd_sched_sweep(&pl));
	assert_int_equal(pl.nrounds, 2);
	assert_int_equal(ls->count[0], 2);
	assert_int_equal(ls->count[1], 2);
	assert_int_equal(ls->pairs[2].a, 0);
	assert_int_equal(ls->pairs[2].b, 2);
	cxd_sched_free(&pl);
	/* One pair at a time: one round each, in the given order. */
	assert_int_equal(cxd_retest_plan(4, 1, p, 4, &pl), 0);
	ls = cxd_sched_listed(&pl);
	assert_int_equal(pl.nrounds, 4);
	for (int r = 0; r < 4; r++) {
		assert_int_equal(ls->count[r], 1);
		assert_int_equal(ls->pairs[ls->first[r]].a, p[r].a);
		assert_int_equal(ls->pairs[ls->first[r]].b, p[r].b);
	}
	cxd_sched_free(&pl);
	/* No suspects: no rounds. */
	assert_int_equal(cxd_retest_plan(4, 1, p, 0, &pl), 0);
	assert_int_equal(pl.nrounds, 0);
	cxd_sched_free(&pl);
}

/* Refused (the circle's chains run instead) where it would not pay or
 * could not hold, and the reason told: an unplaced rank, fewer pairs at
 * once than a round, one domain, more domains than ranks in the
 * largest. Uneven domains are dealt. */
static void test_dealt_plan_refused_where_it_would_not_pay(void **state)
{
	int dom[12] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 };
	struct cxd_plan pl;

	(void) state;
	assert_int_equal(cxd_sched_dealt(12, dom, 6, &pl), 0);
	assert_int_equal(cxd_sched_dealt_prime(&pl), 5);
	assert_int_equal(pl.nrounds, 3 + 25);
	assert_false(cxd_sched_keyable(&pl));
	assert_int_equal(cxd_sched_parts(&pl), 1);
	cxd_sched_free(&pl);
	assert_int_equal(cxd_sched_undealt(12, dom, 6), CXD_DEALT);
	assert_int_equal(cxd_sched_dealt(12, dom, 5, &pl), -EDOM);
	assert_int_equal(cxd_sched_undealt(12, dom, 5), CXD_UNDEALT_ROUND);
	dom[4] = -1;
	assert_int_equal(cxd_sched_dealt(12, dom, 6, &pl), -EDOM);
	assert_int_equal(cxd_sched_undealt(12, dom, 6), CXD_UNDEALT_PLACE);
	for (int r = 0; r < 12; r++)
		dom[r] = r < 11 ? 0 : 1;
	assert_int_equal(cxd_sched_dealt(12, dom, 6, &pl), 0);
	assert_int_equal(cxd_sched_dealt_prime(&pl), 11);
	cxd_sched_free(&pl);
	for (int r = 0; r < 12; r++)
		dom[r] = 7;
	assert_int_equal(cxd_sched_dealt(12, dom, 6, &pl), -EDOM);
	assert_int_equal(cxd_sched_undealt(12, dom, 6), CXD_UNDEALT_ONE);
	/* More domains than ranks in one: p covers the domains. */
	for (int r = 0; r < 12; r++)
		dom[r] = r / 2;
	assert_int_equal(cxd_sched_undealt(12, dom, 6), CXD_DEALT);
	assert_int_equal(cxd_sched_dealt(12, dom, 6, &pl), 0);
	assert_int_equal(cxd_sched_dealt_prime(&pl), 7);
	cxd_sched_free(&pl);
}

/*
 * The point of dealing: with every pair taking the same time and each
 * starting as soon as its ranks and its chain allow, the bandwidth pass
 * of 16 groups of 16 ends after about one chain's length (256 pairs of
 * a group pair); the circle rounds chained by group pair
 * (cxd_sched_keys) queue far longer behind each other.
 */
static int makespan(int n, const struct pace_steps *ps)
{
	size_t nq = (size_t) n * (size_t) n, nm = 0;
	int *done = calloc((size_t) n, sizeof(int)); /* rank's last end */
	int *at = calloc((size_t) n, sizeof(int));
	/* chain tokens, queued per (sender, receiver) as MPI matches them */
	int *head = malloc(nq * sizeof(int)), *tail = malloc(nq * sizeof(int));
	int *val = malloc(nq * sizeof(int)), *link = malloc(nq * sizeof(int));
	int most = 0, left = 1, moved = 1;

	assert_true(done && at && head && tail && val && link);
	for (size_t i = 0; i < nq; i++)
		head[i] = tail[i] = -1;
	while (left && moved) {
		left = moved = 0;
		for (int r = 0; r < n; r++) {
			const struct cxd_step *st;
			int p, t;
			size_t q;

			if (at[r] >= ps->nsteps[r])
				continue;
			st = &ps->step[r][at[r]];
			p = st->partner;
			left = 1;
			if (r > p || ps->step[p][at[p]].partner != r)
				continue; /* the holder starts it, both there */
			t = done[r] > done[p] ? done[r] : done[p];
			if (st->kprev >= 0) {
				q = (size_t) st->kprev * n + r;
				if (head[q] < 0)
					continue; /* its chain's turn not come */
				t = t > val[head[q]] ? t : val[head[q]];
				head[q] = link[head[q]];
			}
			done[r] = done[p] = t + 1;
			if (st->knext >= 0) {
				q = (size_t) r * n + st->knext;
				val[nm] = t + 1;
				link[nm] = -1;
				if (head[q] < 0)
					head[q] = (int) nm;
				else
					link[tail[q]] = (int) nm;
				tail[q] = (int) nm++;
			}
			most = t + 1 > most ? t + 1 : most;
			at[r]++;
			at[p]++;
			moved = 1;
		}
	}
	assert_false(left); /* no deadlock */
	free(done);
	free(at);
	free(head);
	free(tail);
	free(val);
	free(link);
	return most;
}

static void test_dealt_plan_runs_in_about_one_chain(void **state)
{
	enum { N = 256, G = 16 };
	int dom[N], dealt_len, chained_len;
	struct cxd_plan pl = main_plan(N, N / 2), dl;
	struct pace_steps ps;

	(void) state;
	for (int r = 0; r < N; r++)
		dom[r] = r / (N / G);
	assert_int_equal(cxd_sched_dealt(N, dom, N / 2, &dl), 0);
	assert_int_equal(pace_steps_make(N, N / 2, &dl, dom, 1, &ps), 0);
	dealt_len = makespan(N, &ps);
	pace_steps_free(&ps);
	assert_int_equal(pace_steps_make(N, N / 2, &pl, dom, 1, &ps), 0);
	chained_len = makespan(N, &ps);
	pace_steps_free(&ps);
	print_message("pairs' lengths to the end: dealt %d, chained %d, one "
		      "chain 256\n", dealt_len, chained_len);
	assert_true(dealt_len <= 256 * 5 / 4);
	assert_true(chained_len > 2 * dealt_len);
	cxd_sched_free(&dl);
	cxd_sched_free(&pl);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(
		test_listed_main_plan_walks_the_same_steps_as_computed),
	cmocka_unit_test(
		test_tokens_only_when_fewer_than_a_round_at_once),
	cmocka_unit_test(
		test_retest_plan_first_round_with_room_after_both_ranks),
	cmocka_unit_test(
		test_dealt_plan_refused_where_it_would_not_pay),
	cmocka_unit_test(test_dealt_plan_runs_in_about_one_chain))
