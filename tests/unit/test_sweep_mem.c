/* cxi_sweep's memory figures and the up-front refusal (sweep_mem.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/sweep.h"

/* Growth: per rank linear plus the schedule (~4 n^2), rank 0 the
 * matrices on top; ten times the ranks, a hundred times the matrices. */
static void test_figures(void **state)
{
	uint64_t r0_1k = cxd_sweep_rank0_bytes(1000, 500, false);
	uint64_t r0_10k = cxd_sweep_rank0_bytes(10000, 5000, false);
	uint64_t j_10k = cxd_sweep_rank0_bytes(10000, 5000, true);
	uint64_t each_10k = cxd_sweep_rank_bytes(10000, 5000);

	(void) state;
	/* 10,000 ranks: 10 matrices of 8 x 10^8 bytes = 8 GB at least. */
	assert_true(r0_10k >= 8000000000ULL && r0_10k < 9000000000ULL);
	assert_true(r0_10k > 90 * r0_1k && r0_10k < 110 * r0_1k);
	/* The JSON document dwarfs the matrices. */
	assert_true(j_10k > 5 * r0_10k);
	/* The schedule: (n - 1) rounds x (n / 2 + 1) slots x 8 bytes. */
	assert_true(each_10k > 400000000ULL && each_10k < 420000000ULL);
	/* Fewer pairs at once: more, shorter rounds, each a full slot row. */
	assert_true(cxd_sweep_rank_bytes(64, 1) > cxd_sweep_rank_bytes(64, 32));
}

static void test_refusal(void **state)
{
	char err[512] = "";
	uint64_t need = cxd_sweep_rank0_bytes(10000, 5000, true);

	(void) state;
	/* Fits: no refusal. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, true, need,
					     err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* Rank 0 gathers the matrices to judge them, files or not. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, false, 1,
					     err, sizeof(err)), -1);
	assert_null(strstr(err, "--json"));
	/* One byte short: refused, with the figures and the way out. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, true,
					     need - 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--json"));
	assert_non_null(strstr(err, "10000 ranks"));
	assert_non_null(strstr(err, "sweep fewer ranks at a time"));
	assert_non_null(strstr(err, " GB on rank 0"));
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, false,
					     1000000000ULL, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "1.0 GB available"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_refusal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
