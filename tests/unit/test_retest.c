/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's retest alone per shared link (lib/sweep/sched/retest_claims.c,
 * retest.c) and each rank's part of a retest (retest_steps.c): the
 * claims of a pair by the conservative rule; over random placements
 * and pair lists, no round holds two pairs with a common claim or a rank
 * twice, and every pair is placed once; every rank's steps, made at once
 * by rank 0, are those each rank would make for itself from the whole
 * plan (cxd_sched_steps).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/sched/retest.h"
#include "sweep/sched/retest_claims.h"
#include "sweep/sched/retest_steps.h"
#include "sweep/sched/sched.h"
#include "sweep/sched/sched_listed.h"

#define MAX_N 48

/* A placement: n ranks, nsw switches, ngr groups (0: a fat tree), some
 * groups unknown when holes. */
struct place {
	int n, sw[MAX_N], gr[MAX_N];
	const int *group_of;
};

static unsigned rnd(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

static void random_place(struct place *pc, unsigned *seed, int ngr,
			 bool holes)
{
	int nsw = 1 + (int) (rnd(seed) % 8);

	pc->n = 2 + (int) (rnd(seed) % (MAX_N - 1));
	for (int r = 0; r < pc->n; r++) {
		pc->sw[r] = (int) (rnd(seed) % (unsigned) nsw);
		/* A dragonfly's switch belongs to one group. */
		pc->gr[r] = ngr ? pc->sw[r] % ngr : -1;
		if (holes && rnd(seed) % 16 == 0)
			pc->gr[r] = -1;
	}
	pc->group_of = ngr ? pc->gr : NULL;
}

/* A random subset of all pairs, each once, a < b, in random order. */
static int random_pairs(int n, unsigned *seed, struct cxd_pair *p)
{
	int np = 0, keep = 1 + (int) (rnd(seed) % 4);

	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if ((int) (rnd(seed) % 4) < keep)
				p[np++] = (struct cxd_pair){ a, b };
	for (int i = np - 1; i > 0; i--) {
		int j = (int) (rnd(seed) % (unsigned) (i + 1));
		struct cxd_pair t = p[i];

		p[i] = p[j];
		p[j] = t;
	}
	return np;
}

/* A random case: a placement (groups: a draw below ngr_below, 0 a fat
 * tree), a random subset of its pairs, and the pairs at once. */
struct random_case {
	struct place pc;
	struct cxd_pair p[MAX_N * MAX_N / 2];
	int np, k;
};

static void draw_case(struct random_case *c, unsigned *seed,
		      unsigned ngr_below, bool holes)
{
	random_place(&c->pc, seed, (int) (rnd(seed) % ngr_below), holes);
	c->np = random_pairs(c->pc.n, seed, c->p);
	c->k = 1 + (int) (rnd(seed) % (unsigned) c->pc.n);
}

static void test_claims_by_the_conservative_rule(void **state)
{
	/* ranks 0,1: switch 0; 2: switch 1 (group 0); 3: switch 2 (group
	 * 1); 4: switch 3, group unknown. */
	const int sw[5] = { 0, 0, 1, 2, 3 }, gr[5] = { 0, 0, 0, 1, -1 };
	int key[CXD_RETEST_CLAIMS];

	(void) state;
	assert_int_equal(cxd_retest_claims(sw, gr, (struct cxd_pair){ 0, 1 },
					   key), 0);
	assert_int_equal(cxd_retest_claims(sw, gr, (struct cxd_pair){ 0, 2 },
					   key), 1);
	assert_int_equal(key[0], 0);
	assert_int_equal(cxd_retest_claims(sw, gr, (struct cxd_pair){ 2, 3 },
					   key), 2);
	assert_int_equal(key[0] + key[1], 1);
	assert_int_equal(cxd_retest_claims(sw, gr, (struct cxd_pair){ 0, 4 },
					   key), -1);
	/* A fat tree: the leaves are the switches. */
	assert_int_equal(cxd_retest_claims(sw, NULL, (struct cxd_pair){ 0, 2 },
					   key), 2);
	assert_int_equal(key[0] * 10 + key[1], 1);
	assert_int_equal(cxd_retest_claims(sw, NULL, (struct cxd_pair){ 4, 0 },
					   key), 2);
	assert_int_equal(cxd_retest_nkeys(5, sw, gr), 2);
	assert_int_equal(cxd_retest_nkeys(5, sw, NULL), 4);
}

/* No round of pl holds a rank twice, more than k pairs, two pairs with a
 * common claim, or a pair claiming every link beside a claiming one. */
static void assert_rounds_share_nothing(const struct place *pc, int k,
					const struct cxd_plan *pl)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	int nkey = cxd_retest_nkeys(pc->n, pc->sw, pc->group_of);

	for (int r = 0; r < pl->nrounds; r++) {
		int seen[MAX_N] = { 0 }, used[MAX_N] = { 0 }, claiming = 0;
		int every = 0, key[CXD_RETEST_CLAIMS];

		assert_in_range(ls->count[r], 1, k);
		for (int j = 0; j < ls->count[r]; j++) {
			struct cxd_pair q = ls->pairs[ls->first[r] + j];
			int nk = cxd_retest_claims(pc->sw, pc->group_of, q,
						   key);

			assert_int_equal(seen[q.a]++ + seen[q.b]++, 0);
			every += nk < 0;
			claiming += nk != 0;
			for (int i = 0; i < nk; i++) {
				assert_in_range(key[i], 0, nkey - 1);
				/* a pair within a group claims it once */
				if (i == 0 || key[i] != key[0])
					assert_int_equal(used[key[i]]++, 0);
			}
		}
		if (every)
			assert_int_equal(claiming, 1);
	}
}

/* Every listed pair placed exactly once, and nothing else. */
static void assert_each_once(const struct cxd_pair *p, int np,
			     const struct cxd_plan *pl)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	int total = 0;
	static char got[MAX_N][MAX_N];

	memset(got, 0, sizeof(got));
	for (int r = 0; r < pl->nrounds; r++)
		total += ls->count[r];
	assert_int_equal(total, np);
	for (int i = 0; i < np; i++)
		got[p[i].a][p[i].b]++;
	for (int i = 0; i < total; i++)
		assert_int_equal(got[ls->pairs[i].a][ls->pairs[i].b]--, 1);
}

static void test_alone_plan_shares_no_claim_and_places_each_pair_once(
	void **state)
{
	static struct random_case c;
	unsigned seed = 12345;

	(void) state;
	for (int t = 0; t < 600; t++) {
		struct cxd_plan pl;

		draw_case(&c, &seed, 4, t % 3 == 0);
		assert_int_equal(cxd_retest_plan_alone(c.pc.n, c.k, c.pc.sw,
						       c.pc.group_of, c.p,
						       c.np, &pl), 0);
		assert_rounds_share_nothing(&c.pc, c.k, &pl);
		assert_each_once(c.p, c.np, &pl);
		cxd_sched_free(&pl);
	}
}

/* Pairs of one switch share nothing: they all run at once; pairs across
 * two groups take turns even on different bundles when they share a
 * group (g0-g1, then g0-g2). */
static void test_alone_plan_packs_what_shares_nothing(void **state)
{
	const int sw[8] = { 0, 0, 0, 0, 1, 2, 3, 3 };
	const int gr[8] = { 0, 0, 0, 0, 0, 1, 2, 2 };
	const struct cxd_pair same[2] = { { 0, 1 }, { 2, 3 } };
	const struct cxd_pair across[3] = { { 0, 5 }, { 1, 6 }, { 2, 4 } };
	struct cxd_plan pl;

	(void) state;
	assert_int_equal(cxd_retest_plan_alone(8, 4, sw, gr, same, 2, &pl), 0);
	assert_int_equal(pl.nrounds, 1);
	cxd_sched_free(&pl);
	assert_int_equal(cxd_retest_plan_alone(8, 4, sw, gr, across, 3, &pl),
			 0);
	assert_int_equal(pl.nrounds, 3);
	cxd_sched_free(&pl);
	/* Without the placement the same pairs share one round. */
	assert_int_equal(cxd_retest_plan(8, 4, across, 3, &pl), 0);
	assert_int_equal(pl.nrounds, 1);
	cxd_sched_free(&pl);
}

/* Rank 0's steps for every rank equal each rank's own from the plan. */
static void assert_steps_as_own(int n, int k, const struct cxd_plan *pl)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	int np = pl->nrounds ? ls->first[pl->nrounds - 1] +
			       ls->count[pl->nrounds - 1] : 0;
	struct cxd_retest_step *all = calloc(2 * (size_t) np + 1,
					     sizeof(*all));
	struct cxd_step *own = calloc((size_t) cxd_sched_room(n, pl),
				      sizeof(*own));
	int cnt[MAX_N], disp[MAX_N];

	assert_non_null(all);
	assert_non_null(own);
	assert_int_equal(cxd_retest_steps(n, cxd_sched_chain(n, k), pl, cnt,
					  disp, all), 0);
	for (int r = 0; r < n; r++) {
		int ns = cxd_sched_steps(n, r, k, pl, own);

		assert_int_equal(cnt[r], ns);
		for (int i = 0; i < ns; i++) {
			struct cxd_step s = cxd_retest_step_of(
				all[disp[r] + i]);

			if (memcmp(&s, own + i, sizeof(s)) != 0)
				fail_msg("n %d k %d rank %d step %d: sent "
					 "(%d %d %d %d) own (%d %d %d %d)", n,
					 k, r, i, s.round, s.partner, s.prev,
					 s.next, own[i].round, own[i].partner,
					 own[i].prev, own[i].next);
		}
	}
	free(all);
	free(own);
}

static void test_each_ranks_part_is_its_own_steps(void **state)
{
	static struct random_case c;
	unsigned seed = 777;

	(void) state;
	for (int t = 0; t < 300; t++) {
		struct cxd_plan pl;

		draw_case(&c, &seed, 3, false);
		assert_int_equal(t % 2 ? cxd_retest_plan(c.pc.n, c.k, c.p, c.np,
							 &pl) :
				 cxd_retest_plan_alone(c.pc.n, c.k, c.pc.sw,
						       c.pc.group_of, c.p,
						       c.np, &pl), 0);
		assert_steps_as_own(c.pc.n, c.k, &pl);
		cxd_sched_free(&pl);
	}
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_claims_by_the_conservative_rule),
	cmocka_unit_test(
		test_alone_plan_shares_no_claim_and_places_each_pair_once),
	cmocka_unit_test(test_alone_plan_packs_what_shares_nothing),
	cmocka_unit_test(test_each_ranks_part_is_its_own_steps))
