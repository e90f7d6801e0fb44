/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep's pacing protocol (lib/sweep/sched/pace.c, the machine that
 * tools/sweep/pace/pace_mpi.c runs over MPI) over the plans' steps
 * (lib/sweep/sched/sched.c), proved by running n copies of it over a simulated
 * message queue (support/pace_sim.c) for every N from 2 to 64 and every
 * slot count K from 1 to N/2: every pair exactly once, never more than K
 * pairs at once, no cycle of waits, whichever pair ends first, and
 * whether MPI sends a message eagerly or only once it is received. The
 * key chains (sched_keys.c) likewise, for N up to 48, main and retest
 * plans, domains in blocks, at random and partly unknown: also never
 * more than cap pairs of one domain pair at once. Under the sanitizers,
 * N up to 24 and 20.
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
#define KEYS_MAX_N 48
/* Under ASan and UBSan (a Debug build, about 15 times slower) the same
 * properties over fewer ranks: every step kind, policy and slot count
 * is reached well below 20 ranks, and memory errors do not need more. */
#ifdef __SANITIZE_ADDRESS__
#define RUN_N 24
#define KEYS_RUN_N 20
#define DEALT_MIN 90
#else
#define RUN_N MAX_N
#define KEYS_RUN_N KEYS_MAX_N
#define DEALT_MIN 150 /* dealt plans the property must see */
#endif

/* The main plan for n ranks, k pairs at once (cxd_sched_free it). */
static struct cxd_plan main_plan(int n, int k)
{
	struct cxd_plan pl;

	assert_int_equal(cxd_sched_main(n, k, &pl), 0);
	return pl;
}

static const char *const fault_name[] = {
	"ok", "deadlock", "slot token not from an earlier round",
	"hello for another round", "message never received", "no memory",
	"key token from a later round", "key token never received",
};

/* Simulate under every policy, with eager and with synchronous
 * sends; want[a * n + b] (a < b): how often pair (a, b) must be
 * measured (1 or 0). With dom (rank's domain), also at most cap pairs of
 * one domain pair at once. */
static int check_keyed(int n, int k, const struct cxd_plan *pl,
		       const int *dom, int cap, const int *want, int npairs)
{
	int most = 0;
	int *times = calloc((size_t) n * (size_t) n, sizeof(int));
	struct pace_steps ps;

	assert_non_null(times);
	assert_int_equal(pace_steps_make(n, k, pl, dom, cap, &ps), 0);
	for (int run = 0; run < 2 * (PACE_RANDOM + 1); run++) {
		enum pace_policy policy = (enum pace_policy) (run / 2);
		bool sync = run % 2;
		struct pace_res res;

		memset(times, 0, (size_t) n * (size_t) n * sizeof(int));
		pace_run(&ps, policy, (unsigned) (n * 131 + k), sync, times,
			 &res);
		if (res.fault != PACE_OK)
			fail_msg("n %d k %d cap %d policy %d sync %d: %s "
				 "(rank %d, step %d)", n, k, cap, policy, sync,
				 fault_name[res.fault], res.stuck_rank,
				 res.stuck_step);
		if (res.max_running > k)
			fail_msg("n %d k %d policy %d: %d pairs at once", n,
				 k, policy, res.max_running);
		if (dom == NULL ? res.max_key_running != 0
				: res.max_key_running > cap)
			fail_msg("n %d k %d cap %d policy %d sync %d: %d pairs "
				 "of one domain pair at once", n, k, cap,
				 policy, sync, res.max_key_running);
		if (res.max_key_running > most)
			most = res.max_key_running;
		assert_int_equal(res.ended, npairs);
		for (int i = 0; i < n * n; i++)
			if (times[i] != want[i])
				fail_msg("n %d k %d: pair (%d, %d) measured "
					 "%d times", n, k, i / n, i % n,
					 times[i]);
	}
	pace_steps_free(&ps);
	free(times);
	return most;
}

static void check_paced(int n, int k, const struct cxd_plan *pl,
			const int *want, int npairs)
{
	(void) check_keyed(n, k, pl, NULL, 1, want, npairs);
}

static void test_main_plan_pairs_once_at_most_k_at_once_no_deadlock(
	void **state)
{
	(void) state;
	for (int n = 2; n <= RUN_N; n++) {
		int *want = calloc((size_t) n * (size_t) n, sizeof(int));

		assert_non_null(want);
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				want[a * n + b] = 1;
		for (int k = 1; k <= n / 2; k++) {
			struct cxd_plan pl = main_plan(n, k);

			check_paced(n, k, &pl, want, n * (n - 1) / 2);
			cxd_sched_free(&pl);
		}
		free(want);
	}
}

/* Each round at most k pairs, no rank twice in one. */
static void assert_rounds_disjoint(int n, int k, const struct cxd_plan *pl)
{
	const struct cxd_sched_list *ls = cxd_sched_listed(pl);
	char *busy = calloc((size_t) n, 1);

	assert_non_null(busy);
	assert_non_null(ls);
	for (int r = 0; r < pl->nrounds; r++) {
		const struct cxd_pair *p = ls->pairs + ls->first[r];

		assert_true(ls->count[r] >= 1 && ls->count[r] <= k);
		memset(busy, 0, (size_t) n);
		for (int j = 0; j < ls->count[r]; j++) {
			assert_false(busy[p[j].a] || busy[p[j].b]);
			busy[p[j].a] = busy[p[j].b] = 1;
		}
	}
	free(busy);
}

/* A few suspect sets per (n, k): sorted and unique, as
 * cxd_pairs_unique leaves them; about one pair in `every`. */
static int suspects(int n, unsigned *rng, int every, struct cxd_pair *p,
		    int *want)
{
	int np = 0;

	memset(want, 0, (size_t) n * (size_t) n * sizeof(int));
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			*rng = *rng * 1103515245u + 12345u;
			if ((*rng >> 16) % (unsigned) every)
				continue;
			p[np++] = (struct cxd_pair){ a, b };
			want[a * n + b] = 1;
		}
	return np;
}

static void test_retest_plan_pairs_once_at_most_k_at_once_no_deadlock(
	void **state)
{
	struct cxd_pair p[MAX_N * MAX_N / 2];
	int want[MAX_N * MAX_N];
	unsigned rng = 7;

	(void) state;
	for (int n = 2; n <= RUN_N; n++) {
		for (int k = 1; k <= n / 2; k++) {
			for (int every = 1; every <= 9; every += 4) {
				int np = suspects(n, &rng, every, p, want);
				struct cxd_plan pl;

				assert_int_equal(cxd_retest_plan(n, k, p, np,
								 &pl), 0);
				assert_rounds_disjoint(n, k, &pl);
				check_paced(n, k, &pl, want, np);
				cxd_sched_free(&pl);
			}
		}
	}
}

/*
 * A finding, kept as a test: when give_slot waited for its token's send
 * before the rank posted its next take_slot's receive, the waits were
 * free of cycles only because MPI sends the 4 bytes eagerly. At 7
 * ranks, 2 pairs at once, rank 0 (after round 10) hands a slot to rank 1
 * while rank 1 (after round 11) hands one to rank 0: with synchronous
 * sends each waited for a receive the other posts only afterwards. Now
 * the sends are completed after the last step (give_end): both take
 * their slots, whichever way MPI sends.
 */
static void test_sync_token_sends_no_deadlock_two_holders_swap(
	void **state)
{
	struct cxd_plan pl = main_plan(7, 2);
	struct pace_res res;

	(void) state;
	for (int sync = 0; sync < 2; sync++) {
		int times[49] = { 0 };

		pace_simulate(7, 2, &pl, PACE_OLDEST, 0, sync, times, &res);
		assert_int_equal(res.fault, PACE_OK);
		assert_int_equal(res.ended, 21);
	}
	cxd_sched_free(&pl);
}

/* Domains for the key chains: in blocks, at random, or at random with
 * about one rank in five unknown (-1). */
enum { DOM_BLOCK, DOM_RANDOM, DOM_HOLES, DOM_MODES };
#define KEYS_MAX_CAP 3 /* caps tried: 1 to this */

static void domains(int n, int nd, int mode, unsigned *rng, int *dom)
{
	for (int r = 0; r < n; r++) {
		*rng = *rng * 1103515245u + 12345u;
		if (mode == DOM_BLOCK)
			dom[r] = (int) ((long) r * nd / n);
		else if (mode == DOM_HOLES && (*rng >> 16) % 5 == 0)
			dom[r] = -1;
		else
			dom[r] = (int) ((*rng >> 8) % (unsigned) nd);
	}
}

/* The domain counts tried at n ranks, each once: 1, 2, 3, n/4, n/2, n. */
static int dom_counts(int n, int *nd)
{
	const int c[] = { 1, 2, 3, n / 4, n / 2, n };
	int m = 0;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bool seen = c[i] < 1 || c[i] > n;

		for (int j = 0; j < m; j++)
			seen = seen || nd[j] == c[i];
		if (!seen)
			nd[m++] = c[i];
	}
	return m;
}

/* Plan pl (k pairs at once) under every domain count, layout and cap.
 * One domain has no domain pairs: one layout and cap is enough. */
static void check_every_domain(int n, int k, const struct cxd_plan *pl,
			       const int *want, int npairs, unsigned *rng)
{
	int dom[KEYS_MAX_N], nd[6], m = dom_counts(n, nd);

	for (int i = 0; i < m; i++) {
		int modes = nd[i] > 1 ? DOM_MODES : 1;
		int caps = nd[i] > 1 ? KEYS_MAX_CAP : 1;

		for (int mode = 0; mode < modes; mode++) {
			domains(n, nd[i], mode, rng, dom);
			for (int cap = 1; cap <= caps; cap++)
				(void) check_keyed(n, k, pl, dom, cap, want,
						   npairs);
		}
	}
}

static void test_main_plan_keys_at_most_cap_per_domain_pair_no_deadlock(
	void **state)
{
	int want[KEYS_MAX_N * KEYS_MAX_N];
	unsigned rng = 11;

	(void) state;
	for (int n = 2; n <= KEYS_RUN_N; n++) {
		/* A whole circle round at once, and cut rounds. */
		int ks[2] = { n / 2, n / 3 };

		for (int i = 0; i < n * n; i++)
			want[i] = i / n < i % n;
		for (int j = 0; j < 2; j++) {
			struct cxd_plan pl = main_plan(n, ks[j]);

			if (ks[j] >= 1 && (j == 0 || ks[j] < ks[0]))
				check_every_domain(n, ks[j], &pl, want,
						   n * (n - 1) / 2, &rng);
			cxd_sched_free(&pl);
		}
	}
}

/* The chains bound, not serialise: two halves, whole circle rounds, many
 * pairs across: cap of them do run at once. */
static void test_keys_let_cap_pairs_of_a_domain_pair_run_at_once(
	void **state)
{
	int want[24 * 24], dom[24];
	struct cxd_plan pl = main_plan(24, 12);

	(void) state;
	for (int i = 0; i < 24 * 24; i++)
		want[i] = i / 24 < i % 24;
	for (int r = 0; r < 24; r++)
		dom[r] = r / 12;
	for (int cap = 1; cap <= 4; cap++)
		assert_int_equal(check_keyed(24, 12, &pl, dom, cap, want,
					     24 * 23 / 2), cap);
	cxd_sched_free(&pl);
}

static void test_retest_plan_keys_at_most_cap_per_domain_pair_no_deadlock(
	void **state)
{
	struct cxd_pair p[KEYS_MAX_N * KEYS_MAX_N / 2];
	int want[KEYS_MAX_N * KEYS_MAX_N];
	unsigned rng = 13;

	(void) state;
	for (int n = 2; n <= KEYS_RUN_N; n++) {
		int ks[2] = { n / 2, n / 5 };

		for (int j = 0; j < 2; j++) {
			int np = suspects(n, &rng, 3, p, want);
			struct cxd_plan pl;

			if (ks[j] < 1 || (j == 1 && ks[j] >= ks[0]))
				continue;
			assert_int_equal(cxd_retest_plan(n, ks[j], p, np, &pl),
					 0);
			check_every_domain(n, ks[j], &pl, want, np, &rng);
			cxd_sched_free(&pl);
		}
	}
}

/* Rank r's step in round `round` of pl, with its key chains. */
static struct cxd_step keyed_step(int n, int k, const struct cxd_plan *pl,
				  const int *dom, int cap, int r, int round)
{
	struct cxd_step st[16], none = { -1, -1, -1, -1, -1, -1 };
	int ns = cxd_sched_steps(n, r, k, pl, st);

	assert_true(ns > 0 && ns <= 16);
	assert_int_equal(cxd_sched_keys(n, r, pl, dom, cap, st, ns), 0);
	for (int i = 0; i < ns; i++)
		if (st[i].round == round)
			return st[i];
	return none;
}

/*
 * A finding, kept as a test: key tokens between two ranks match in the
 * order sent, whatever key they are for. At 5 ranks in domains 2 0 2 1 0,
 * a whole circle round at once, one pair per domain pair: rank 2 hands
 * domain pair {1,2} to rank 0 after round 0 and {0,2} after round 3, but
 * rank 0 waits for {0,2} in round 3 and {1,2} only in round 4: it took
 * the round 0 token in round 3 and ran beside rank 2's pair of {0,2}.
 * The round 0 hand-on is dropped at both ends (round 3's wait covers it).
 */
static void test_keys_hand_ons_between_two_ranks_never_cross(void **state)
{
	const int dom[5] = { 2, 0, 2, 1, 0 };
	struct cxd_plan pl = main_plan(5, 2);
	struct pace_res res;

	(void) state;
	assert_int_equal(keyed_step(5, 2, &pl, dom, 1, 2, 0).knext, -1);
	assert_int_equal(keyed_step(5, 2, &pl, dom, 1, 0, 4).kprev, -1);
	assert_int_equal(keyed_step(5, 2, &pl, dom, 1, 2, 3).knext, 0);
	assert_int_equal(keyed_step(5, 2, &pl, dom, 1, 0, 3).kprev, 2);
	for (int sync = 0; sync < 2; sync++) {
		int times[25] = { 0 };

		pace_simulate_keys(5, 2, &pl, dom, 1, PACE_OLDEST, 0, sync,
				   times, &res);
		assert_int_equal(res.fault, PACE_OK);
		assert_int_equal(res.ended, 10);
		assert_int_equal(res.max_key_running, 1);
	}
	cxd_sched_free(&pl);
}

/* Domain layouts for the dealt plan: blocks of nd, or nd at random
 * (some may then be too small to pay). */
static int dealt_layout(int n, int nd, bool random, unsigned *rng, int *dom)
{
	for (int r = 0; r < n; r++) {
		*rng = *rng * 1103515245u + 12345u;
		dom[r] = random ? (int) ((*rng >> 8) % (unsigned) nd)
				: (int) ((long) r * nd / n);
	}
	return nd;
}

/*
 * The dealt plan (sched_dealt.c) under the simulated waits, for every N
 * up to 48 and domain counts 2, 3, N/4, N/2, in blocks and at random:
 * every pair exactly once, never two pairs of one domain pair at once,
 * no deadlock, eager or synchronous tokens (N/2 domains in blocks:
 * more domains than ranks in one, as a fat tree's small leaves). Where
 * dealing cannot be done the plan is refused, never wrong; it must be
 * dealt often enough to count.
 */
static void test_dealt_plan_pairs_once_one_per_domain_pair_no_deadlock(
	void **state)
{
	int want[KEYS_MAX_N * KEYS_MAX_N], dom[KEYS_MAX_N], dealt = 0;
	unsigned rng = 17;

	(void) state;
	for (int n = 2; n <= KEYS_RUN_N; n++) {
		int nds[4] = { 2, 3, n / 4, n / 2 };

		for (int i = 0; i < n * n; i++)
			want[i] = i / n < i % n;
		for (int j = 0; j < 8; j++) {
			struct cxd_plan pl;
			int ret;

			if (nds[j / 2] < 2 || nds[j / 2] > n)
				continue;
			dealt_layout(n, nds[j / 2], j % 2, &rng, dom);
			ret = cxd_sched_dealt(n, dom, n / 2, &pl);
			assert_true(ret == 0 || ret == -EDOM);
			if (ret != 0)
				continue;
			dealt++;
			assert_int_equal(check_keyed(n, n / 2, &pl, dom, 1,
						     want, n * (n - 1) / 2),
					 1);
			cxd_sched_free(&pl);
		}
	}
	if (dealt < DEALT_MIN)
		fail_msg("%d plans dealt, want %d or more", dealt, DEALT_MIN);
}

/* The same with a cap on a domain's pairs at once (a fat tree's leaves,
 * their narrowest uplink's cables): the slots cut into parts, still
 * every pair once and no deadlock. */
static void test_dealt_capped_plan_pairs_once_no_deadlock(void **state)
{
	int want[KEYS_MAX_N * KEYS_MAX_N], dom[KEYS_MAX_N], dealt = 0;
	unsigned rng = 29;

	(void) state;
	for (int n = 4; n <= KEYS_RUN_N; n++) {
		int nds[3] = { 2, n / 4, n / 2 };

		for (int i = 0; i < n * n; i++)
			want[i] = i / n < i % n;
		for (int j = 0; j < 6; j++) {
			struct cxd_plan pl;

			if (nds[j / 2] < 2)
				continue;
			dealt_layout(n, nds[j / 2], false, &rng, dom);
			if (cxd_sched_dealt_capped(n, dom, n / 2, 1 + j % 2,
						   &pl) != 0)
				continue;
			dealt++;
			check_keyed(n, n / 2, &pl, dom, 1, want,
				    n * (n - 1) / 2);
			cxd_sched_free(&pl);
		}
	}
	assert_true(dealt > 0);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(
		test_main_plan_pairs_once_at_most_k_at_once_no_deadlock),
	cmocka_unit_test(
		test_retest_plan_pairs_once_at_most_k_at_once_no_deadlock),
	cmocka_unit_test(
		test_sync_token_sends_no_deadlock_two_holders_swap),
	cmocka_unit_test(
		test_main_plan_keys_at_most_cap_per_domain_pair_no_deadlock),
	cmocka_unit_test(
		test_retest_plan_keys_at_most_cap_per_domain_pair_no_deadlock),
	cmocka_unit_test(
		test_keys_hand_ons_between_two_ranks_never_cross),
	cmocka_unit_test(
		test_keys_let_cap_pairs_of_a_domain_pair_run_at_once),
	cmocka_unit_test(
		test_dealt_plan_pairs_once_one_per_domain_pair_no_deadlock),
	cmocka_unit_test(test_dealt_capped_plan_pairs_once_no_deadlock))
