/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress line: the decision to show it, the estimate, the text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/progress.h"
#include "support/unit_main.h"

#define S 1000000000ULL

static void test_progress_only_on_a_client_terminal(void **state)
{
	(void) state;
	assert_true(cxd_progress_wanted(true, true));
	assert_false(cxd_progress_wanted(false, true)); /* not a terminal */
	assert_false(cxd_progress_wanted(true, false)); /* server side */
}

static void test_progress_counts_power_of_two_sizes(void **state)
{
	(void) state;
	assert_int_equal(cxd_progress_nsizes(1, 1), 1);
	assert_int_equal(cxd_progress_nsizes(1, 65536), 17);
	assert_int_equal(cxd_progress_nsizes(8, 4), 0);
	assert_int_equal(cxd_progress_nsizes(1, 4294967295ULL), 32);
	assert_int_equal(cxd_progress_nsizes(1ULL << 63, UINT64_MAX), 1);
}

static void test_progress_estimates_time_left(void **state)
{
	(void) state;
	/* Duration runs: every size left (this one included) takes -D. */
	assert_true(cxd_progress_left_ns(4, 16, 2 * S, 0, 0) == 6 * S);
	/* Nothing run yet: unknown. */
	assert_true(cxd_progress_left_ns(1, 16, 0, 0, 0) == UINT64_MAX);
	/* One size known: the rest assumed as long. */
	assert_true(cxd_progress_left_ns(2, 8, 0, 0, S) == 3 * S);
	/* Time doubling with size: proportional, 4 + 8 s for 4M and 8M. */
	assert_true(cxd_progress_left_ns(4 << 20, 8 << 20, 0, S, 2 * S) ==
		    12 * S);
	/* Flat (latency bound): constant per size. */
	assert_true(cxd_progress_left_ns(64, 256, 0, S, S) == 3 * S);
	/* Faster than before (noise): no negative slope, constant. */
	assert_true(cxd_progress_left_ns(64, 128, 0, 3 * S, S) == 2 * S);
	/* Intercept plus slope: t = 1 s + 1 s/KiB at 1, 2 KiB; 4 KiB = 5 s. */
	assert_true(cxd_progress_left_ns(4096, 4096, 0, 2 * S, 3 * S) == 5 * S);
}

static void test_progress_line_format_and_truncation(void **state)
{
	char buf[128];
	size_t n;

	(void) state;
	n = cxd_progress_format(buf, sizeof(buf), "cxi_write_bw", 5, 13,
				16384, 4200000000ULL, 12 * S);
	assert_string_equal(buf, "cxi_write_bw: size 5 of 13 (16 KiB), 4.2 s "
			    "elapsed, about 12.0 s left");
	assert_int_equal(n, strlen(buf));
	cxd_progress_format(buf, sizeof(buf), "t", 1, 2, 3, 61 * S,
			    UINT64_MAX);
	assert_string_equal(buf, "t: size 1 of 2 (3 B), 1 min 01 s elapsed, "
			    "estimating time left");
	cxd_progress_format(buf, sizeof(buf), "t", 2, 2, 1ULL << 32, 3723 * S,
			    0);
	assert_string_equal(buf, "t: size 2 of 2 (4 GiB), 1 h 02 min "
			    "elapsed, about 0.0 s left");
	/* Truncated, never overrun: the length says what fits. */
	n = cxd_progress_format(buf, 8, "cxi_write_bw", 1, 1, 1, 0, 0);
	assert_int_equal(n, 7);
	assert_int_equal(strlen(buf), 7);
}

/* Drawn only after 2 s, on the given stream; cleared with spaces. */
static void test_progress_drawn_after_2s_and_cleared(void **state)
{
	struct cxd_progress p;
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	(void) state;
	assert_non_null(f);
	cxd_progress_init(&p, f, "x", 1, 4, 0, 10 * S);
	cxd_progress_size(&p, 1, 10 * S);
	cxd_progress_size(&p, 2, 11 * S);
	fflush(f);
	assert_int_equal(len, 0); /* 1 s in: quiet */
	cxd_progress_size(&p, 4, 12 * S);
	fflush(f);
	assert_non_null(strstr(mem, "\rx: size 3 of 3 (4 B), 2.0 s elapsed, "
			       "about 1.0 s left"));
	assert_true(p.drawn > 0);
	cxd_progress_clear(&p);
	assert_int_equal(p.drawn, 0);
	fclose(f);
	assert_int_equal(mem[len - 1], '\r');
	free(mem);

	/* Disabled: nothing, whatever the time. */
	cxd_progress_init(&p, NULL, "x", 1, 4, 0, 0);
	cxd_progress_size(&p, 1, 100 * S);
	cxd_progress_clear(&p);
	assert_int_equal(p.drawn, 0);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_progress_only_on_a_client_terminal),
	cmocka_unit_test(test_progress_counts_power_of_two_sizes),
	cmocka_unit_test(test_progress_estimates_time_left),
	cmocka_unit_test(test_progress_line_format_and_truncation),
	cmocka_unit_test(test_progress_drawn_after_2s_and_cleared))
