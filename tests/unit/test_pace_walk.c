/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pacing machine (lib/sweep/sched/pace.c) one action at a time: the order
 * of its posts and waits, which tools/sweep/pace/pace_mpi.c turns into MPI
 * calls one for one (so this pins the order of every rank's messages),
 * and the wrong rounds it reports, which the property tests
 * (test_pace.c) never meet: their schedules are right.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "sweep/sched/pace.h"

/* The next action is op with peer, request req, round round; after a
 * receive, *in is what the message brings. */
static const struct cxd_pace_act *expect(struct cxd_pace *p,
					 enum cxd_pace_op op, int peer,
					 int req, int round)
{
	const struct cxd_pace_act *a = cxd_pace_next(p);

	assert_int_equal(a->op, op);
	assert_int_equal(a->peer, peer);
	assert_int_equal(a->req, req);
	assert_int_equal(a->round, round);
	return a;
}

static void expect_recv(struct cxd_pace *p, int from, enum cxd_pace_kind kind,
			int round, int brings)
{
	const struct cxd_pace_act *a = expect(p, CXD_PACE_RECV, from,
					      CXD_PACE_REQ_IN, round);

	assert_int_equal(a->kind, kind);
	*a->buf = brings;
}

static void expect_send(struct cxd_pace *p, int to, enum cxd_pace_kind kind,
			int req, int round)
{
	const struct cxd_pace_act *a = expect(p, CXD_PACE_SEND, to, req,
					      round);

	assert_int_equal(a->kind, kind);
	assert_int_equal(*a->val, round); /* every message names its round */
	assert_int_equal(a->test, kind != CXD_PACE_HELLO);
}

static void expect_wait(struct cxd_pace *p, enum cxd_pace_wait w, int peer,
			int req, int nreq, int round)
{
	const struct cxd_pace_act *a = expect(p, CXD_PACE_WAIT, peer, req,
					      round);

	assert_int_equal(a->wait, w);
	assert_int_equal(a->nreq, nreq);
}

/* Partners swap hellos: receive posted first, then the send; then the
 * receive's wait and the send's. */
static void expect_hello(struct cxd_pace *p, int partner, int round,
			 int brings)
{
	expect_recv(p, partner, CXD_PACE_HELLO, round, brings);
	expect_send(p, partner, CXD_PACE_HELLO, CXD_PACE_REQ_HELLO, round);
	expect_wait(p, CXD_PACE_W_HELLO, partner, CXD_PACE_REQ_IN, 1, round);
	expect_wait(p, CXD_PACE_W_HELLO_SENT, partner, CXD_PACE_REQ_HELLO, 1,
		    round);
}

/* Rank 2: round 3 with rank 5, slot from 1 to 4, key from 0 to 6; round
 * 7 with rank 1, no slot, its key's chain from and to itself. */
static const struct cxd_step two_steps[2] = {
	{ .round = 3, .partner = 5, .prev = 1, .next = 4, .kprev = 0,
	  .knext = 6 },
	{ .round = 7, .partner = 1, .prev = -1, .next = -1, .kprev = 2,
	  .knext = 2 },
};

static void test_walk_takes_tokens_swaps_hellos_runs_hands_on_in_order(
	void **state)
{
	struct cxd_pace p;
	enum cxd_pace_kind kind;
	int round;

	(void) state;
	cxd_pace_init(&p, two_steps, 2, 2);
	assert_int_equal(cxd_pace_nreq(&p), CXD_PACE_REQ_SENT + 4);
	expect_recv(&p, 1, CXD_PACE_SLOT, 3, 2);
	expect_wait(&p, CXD_PACE_W_SLOT, 1, CXD_PACE_REQ_IN, 1, 3);
	/* A key's turn may be handed on within the round. */
	expect_recv(&p, 0, CXD_PACE_KEY, 3, 3);
	expect_wait(&p, CXD_PACE_W_KEY, 0, CXD_PACE_REQ_IN, 1, 3);
	expect_hello(&p, 5, 3, 3);
	expect(&p, CXD_PACE_RUN, 5, -1, 3);
	expect_send(&p, 4, CXD_PACE_SLOT, CXD_PACE_REQ_SENT, 3);
	expect_send(&p, 6, CXD_PACE_KEY, CXD_PACE_REQ_SENT + 1, 3);
	assert_int_equal(p.at, 1);
	/* No slot, and no token to or from itself: the hello at once. */
	expect_hello(&p, 1, 7, 7);
	expect(&p, CXD_PACE_RUN, 1, -1, 7);
	expect_wait(&p, CXD_PACE_W_SENT, -1, CXD_PACE_REQ_SENT, 4, 7);
	expect(&p, CXD_PACE_DONE, -1, -1, 7);
	expect(&p, CXD_PACE_DONE, -1, -1, 7);
	/* give_end names each token's taker. */
	assert_int_equal(cxd_pace_sent(&p, CXD_PACE_REQ_SENT, &kind, &round),
			 4);
	assert_int_equal(kind, CXD_PACE_SLOT);
	assert_int_equal(round, 3);
	assert_int_equal(cxd_pace_sent(&p, CXD_PACE_REQ_SENT + 1, &kind,
				       &round), 6);
	assert_int_equal(kind, CXD_PACE_KEY);
	assert_int_equal(cxd_pace_sent(&p, CXD_PACE_REQ_SENT + 3, &kind,
				       &round), 2);
	assert_int_equal(round, 7);
}

static void test_walk_without_steps_waits_for_nothing(void **state)
{
	struct cxd_pace p;

	(void) state;
	cxd_pace_init(&p, NULL, 0, 0);
	assert_int_equal(cxd_pace_nreq(&p), CXD_PACE_REQ_SENT);
	expect_wait(&p, CXD_PACE_W_SENT, -1, CXD_PACE_REQ_SENT, 0, -1);
	expect(&p, CXD_PACE_DONE, -1, -1, -1);
}

/* The error is reported again on every later call. */
static void expect_wrong(struct cxd_pace *p, enum cxd_pace_kind kind,
			 int from, int got, int round)
{
	for (int twice = 0; twice < 2; twice++) {
		const struct cxd_pace_act *a = expect(p, CXD_PACE_ERROR,
						      from, -1, round);

		assert_int_equal(a->kind, kind);
		assert_int_equal(a->got, got);
	}
}

/* A slot passes from round to round: a token of the same round or a
 * later one is an error (pace_mpi.c: "rank 1 handed on round 3's
 * slot, expected one before round 3"). */
static void test_walk_reports_a_slot_token_not_from_an_earlier_round(
	void **state)
{
	struct cxd_pace p;

	(void) state;
	for (int late = 3; late <= 4; late++) {
		cxd_pace_init(&p, two_steps, 2, 2);
		expect_recv(&p, 1, CXD_PACE_SLOT, 3, late);
		expect_wait(&p, CXD_PACE_W_SLOT, 1, CXD_PACE_REQ_IN, 1, 3);
		expect_wrong(&p, CXD_PACE_SLOT, 1, late, 3);
	}
}

static void test_walk_reports_a_key_token_from_a_later_round(void **state)
{
	struct cxd_pace p;

	(void) state;
	cxd_pace_init(&p, two_steps, 2, 2);
	expect_recv(&p, 1, CXD_PACE_SLOT, 3, 2);
	expect_wait(&p, CXD_PACE_W_SLOT, 1, CXD_PACE_REQ_IN, 1, 3);
	expect_recv(&p, 0, CXD_PACE_KEY, 3, 4);
	expect_wait(&p, CXD_PACE_W_KEY, 0, CXD_PACE_REQ_IN, 1, 3);
	expect_wrong(&p, CXD_PACE_KEY, 0, 4, 3);
}

/* Both hello waits first, then the check ("rank 1 (host) came to round
 * 6, expected 7"); no pair runs. */
static void test_walk_reports_a_partner_come_to_another_round(void **state)
{
	const struct cxd_step one = { .round = 7, .partner = 1, .prev = -1,
				      .next = -1, .kprev = -1, .knext = -1 };
	struct cxd_pace p;

	(void) state;
	cxd_pace_init(&p, &one, 1, 0);
	expect_hello(&p, 1, 7, 6);
	expect_wrong(&p, CXD_PACE_HELLO, 1, 6, 7);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(
		test_walk_takes_tokens_swaps_hellos_runs_hands_on_in_order),
	cmocka_unit_test(test_walk_without_steps_waits_for_nothing),
	cmocka_unit_test(
		test_walk_reports_a_slot_token_not_from_an_earlier_round),
	cmocka_unit_test(
		test_walk_reports_a_key_token_from_a_later_round),
	cmocka_unit_test(
		test_walk_reports_a_partner_come_to_another_round))
