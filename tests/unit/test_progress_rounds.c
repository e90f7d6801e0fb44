/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's progress line (base/progress_rounds.h): when it is shown,
 * the phases' places, the estimate, the text, and when it is drawn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/progress_rounds.h"
#include "support/unit_main.h"

#define S 1000000000ULL
#define MS 1000000ULL

static void test_rprog_wanted(void **state)
{
	(void) state;
	/* Auto: a terminal, rank 0's own or its launcher's, and no --json. */
	assert_true(cxd_rprog_wanted(CXD_RPROG_AUTO, false, true, false));
	assert_true(cxd_rprog_wanted(CXD_RPROG_AUTO, false, false, true));
	assert_false(cxd_rprog_wanted(CXD_RPROG_AUTO, false, false, false));
	assert_false(cxd_rprog_wanted(CXD_RPROG_AUTO, true, true, true));
	/* Asked for: whatever the stream and --json. */
	assert_true(cxd_rprog_wanted(CXD_RPROG_ON, true, false, false));
	/* Refused: even on a terminal. */
	assert_false(cxd_rprog_wanted(CXD_RPROG_OFF, false, true, true));
}

static void test_rprog_place_counts_planned_phases(void **state)
{
	unsigned x, y;

	(void) state;
	/* Phases 1, 3 and 4 planned: 3 is the second of three. */
	cxd_rprog_place(0x1a, 3, &x, &y);
	assert_int_equal(x, 2);
	assert_int_equal(y, 3);
	cxd_rprog_place(0x1a, 1, &x, &y);
	assert_int_equal(x, 1);
	cxd_rprog_place(0x1a, 4, &x, &y);
	assert_int_equal(x, 3);
	cxd_rprog_place(0, 0, &x, &y);
	assert_int_equal(x, 0);
	assert_int_equal(y, 0);
}

static void test_rprog_left_from_the_pace_so_far(void **state)
{
	(void) state;
	/* 3 rounds in 6 s: the 9 left take 18 s. */
	assert_true(cxd_rprog_left_ns(6 * S, 3, 12) == 18 * S);
	assert_true(cxd_rprog_left_ns(5 * S, 0, 12) == UINT64_MAX);
	assert_true(cxd_rprog_left_ns(5 * S, 2, 0) == UINT64_MAX);
	assert_true(cxd_rprog_left_ns(5 * S, 12, 12) == 0);
	assert_true(cxd_rprog_left_ns(5 * S, 13, 12) == 0);
	/* Huge: saturates, never wraps. */
	assert_true(cxd_rprog_left_ns(UINT64_MAX / 2, 1, 1000) == UINT64_MAX);
}

/* A line drawn into memory: init at 10 s, a phase of 12 rounds. */
struct screen {
	char *mem;
	size_t len;
	FILE *f;
	struct cxd_rprog p;
};

static void screen_open(struct screen *s)
{
	s->mem = NULL;
	s->len = 0;
	s->f = open_memstream(&s->mem, &s->len);
	assert_non_null(s->f);
	cxd_rprog_init(&s->p, s->f, "cxi_sweep", 10 * S);
}

static size_t screen_len(struct screen *s)
{
	fflush(s->f);
	return s->len;
}

static void screen_close(struct screen *s)
{
	fclose(s->f);
	free(s->mem);
}

static void test_rprog_format(void **state)
{
	struct screen s;
	char buf[CXD_PROGRESS_LINE];
	size_t n;

	(void) state;
	screen_open(&s);
	cxd_rprog_phase(&s.p, "main pass", 2, 4, true, 10 * S);
	n = cxd_rprog_format(buf, sizeof(buf), &s.p, 10 * S);
	assert_string_equal(buf, "cxi_sweep: main pass (phase 2 of 4)");
	assert_int_equal(n, strlen(buf));
	cxd_rprog_plan(&s.p, 12);
	cxd_rprog_format(buf, sizeof(buf), &s.p, 10 * S);
	assert_string_equal(buf, "cxi_sweep: main pass (phase 2 of 4), "
			    "round 1 of 12");
	cxd_rprog_round(&s.p, 2, 11 * S); /* 3 rounds over */
	cxd_rprog_format(buf, sizeof(buf), &s.p, 16 * S);
	assert_string_equal(buf, "cxi_sweep: main pass (phase 2 of 4), "
			    "round 4 of 12, about 18.0 s left");
	cxd_rprog_plan_end(&s.p, 40 * S);
	cxd_rprog_format(buf, sizeof(buf), &s.p, 40 * S);
	assert_string_equal(buf, "cxi_sweep: main pass (phase 2 of 4), "
			    "round 12 of 12, about 0.0 s left");
	/* Not counted ahead: the round under way, no estimate. */
	cxd_rprog_phase(&s.p, "link widths", 1, 4, false, 40 * S);
	cxd_rprog_plan(&s.p, 2);
	cxd_rprog_round(&s.p, 0, 41 * S);
	cxd_rprog_plan_end(&s.p, 42 * S);
	cxd_rprog_plan(&s.p, 3);
	cxd_rprog_format(buf, sizeof(buf), &s.p, 43 * S);
	assert_string_equal(buf, "cxi_sweep: link widths (phase 1 of 4), "
			    "round 3");
	/* A large run's line still fits 80 columns. */
	cxd_rprog_phase(&s.p, "capacity pass", 5, 5, true, 40 * S);
	cxd_rprog_expect(&s.p, 99999);
	cxd_rprog_plan(&s.p, 99999);
	cxd_rprog_round(&s.p, 9998, 41 * S);
	n = cxd_rprog_format(buf, sizeof(buf), &s.p, 40 * S + 3599 * S);
	assert_string_equal(buf, "cxi_sweep: capacity pass (phase 5 of 5), "
			    "round 10000 of 99999, 8 h 59 min left");
	assert_true(n < CXD_RPROG_COLS);
	/* Cut, never overrun. */
	n = cxd_rprog_format(buf, 10, &s.p, 50 * S);
	assert_int_equal(n, 9);
	assert_int_equal(strlen(buf), 9);
	screen_close(&s);
}

/* Expected rounds span the phase's plans; a plan beyond them grows it,
 * and rounds this rank sat out count as over. */
static void test_rprog_counts_rounds_over_plans(void **state)
{
	struct screen s;

	(void) state;
	screen_open(&s);
	cxd_rprog_phase(&s.p, "main pass", 1, 2, true, 10 * S);
	cxd_rprog_expect(&s.p, 10); /* two passes of 5 */
	cxd_rprog_plan(&s.p, 5);
	cxd_rprog_round(&s.p, 1, 11 * S);
	assert_int_equal(s.p.done, 2);
	cxd_rprog_round(&s.p, 3, 11 * S); /* round 2 sat out */
	assert_int_equal(s.p.done, 4);
	cxd_rprog_round(&s.p, 9, 11 * S); /* out of the plan: capped */
	assert_int_equal(s.p.done, 5);
	cxd_rprog_plan_end(&s.p, 12 * S);
	assert_int_equal(s.p.planned, 10);
	cxd_rprog_plan(&s.p, 5);
	cxd_rprog_round(&s.p, 0, 12 * S);
	assert_int_equal(s.p.done, 6);
	cxd_rprog_plan_end(&s.p, 13 * S);
	assert_int_equal(s.p.done, 10);
	/* A third plan nobody announced. */
	cxd_rprog_plan(&s.p, 4);
	assert_int_equal(s.p.planned, 14);
	/* Expected anew from here: what is done stays done. */
	cxd_rprog_expect(&s.p, 7);
	assert_int_equal(s.p.planned, 17);
	/* A new phase counts from 0. */
	cxd_rprog_phase(&s.p, "retest", 2, 2, true, 14 * S);
	assert_int_equal(s.p.done, 0);
	assert_int_equal(s.p.planned, 0);
	screen_close(&s);
}

/* Quiet for the run's first 2 s, then at most every 0.2 s, a new phase
 * at once; erased with spaces and off for good after the end. */
static void test_rprog_drawn_when_due_and_ended(void **state)
{
	struct screen s;
	size_t n;

	(void) state;
	screen_open(&s);
	cxd_rprog_phase(&s.p, "main pass", 1, 2, true, 10 * S);
	cxd_rprog_plan(&s.p, 100);
	cxd_rprog_round(&s.p, 0, 11 * S);
	cxd_rprog_round(&s.p, 1, 11 * S + 999 * MS);
	assert_int_equal(screen_len(&s), 0); /* under 2 s: quiet */
	cxd_rprog_round(&s.p, 2, 12 * S);
	n = screen_len(&s);
	assert_non_null(strstr(s.mem, "\rcxi_sweep: main pass (phase 1 of 2), "
			       "round 4 of 100, about "));
	cxd_rprog_round(&s.p, 3, 12 * S + 199 * MS);
	assert_int_equal(screen_len(&s), n); /* 0.199 s since: not yet */
	cxd_rprog_round(&s.p, 4, 12 * S + 200 * MS);
	assert_true(screen_len(&s) > n);
	assert_non_null(strstr(s.mem, "round 6 of 100"));
	n = screen_len(&s);
	/* A new phase shows at once, padded over the longer line. */
	cxd_rprog_phase(&s.p, "retest", 2, 2, true, 12 * S + 201 * MS);
	assert_int_equal(screen_len(&s), n + 1 + s.p.drawn);
	assert_memory_equal(s.mem + n, "\rcxi_sweep: retest (phase 2 of 2) ",
			    strlen("\rcxi_sweep: retest (phase 2 of 2) "));
	assert_int_equal(s.mem[screen_len(&s) - 1], ' ');
	cxd_rprog_end(&s.p);
	n = screen_len(&s);
	assert_int_equal(s.mem[n - 1], '\r');
	assert_int_equal(s.p.drawn, 0);
	/* Ended: nothing more, whatever comes. */
	cxd_rprog_phase(&s.p, "capacity pass", 3, 3, true, 20 * S);
	cxd_rprog_plan(&s.p, 4);
	cxd_rprog_round(&s.p, 0, 30 * S);
	cxd_rprog_end(&s.p);
	assert_int_equal(screen_len(&s), n);
	screen_close(&s);
}

/* Off (no stream), and NULL (every rank but 0): nothing, no crash. */
static void test_rprog_off_and_null(void **state)
{
	struct cxd_rprog p;

	(void) state;
	cxd_rprog_init(&p, NULL, "cxi_sweep", 0);
	cxd_rprog_phase(&p, "main pass", 1, 1, true, 100 * S);
	cxd_rprog_plan(&p, 3);
	cxd_rprog_round(&p, 0, 100 * S);
	cxd_rprog_plan_end(&p, 100 * S);
	cxd_rprog_end(&p);
	assert_null(p.phase);
	assert_int_equal(p.drawn, 0);
	cxd_rprog_phase(NULL, "main pass", 1, 1, true, 100 * S);
	cxd_rprog_expect(NULL, 3);
	cxd_rprog_plan(NULL, 3);
	cxd_rprog_round(NULL, 0, 100 * S);
	cxd_rprog_plan_end(NULL, 100 * S);
	cxd_rprog_end(NULL);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_rprog_wanted),
	cmocka_unit_test(test_rprog_place_counts_planned_phases),
	cmocka_unit_test(test_rprog_left_from_the_pace_so_far),
	cmocka_unit_test(test_rprog_format),
	cmocka_unit_test(test_rprog_counts_rounds_over_plans),
	cmocka_unit_test(test_rprog_drawn_when_due_and_ended),
	cmocka_unit_test(test_rprog_off_and_null))
