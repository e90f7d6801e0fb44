/* cxi_sweep's memory figures and the up-front refusal (sweep_mem.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/sweep.h"

/* Growth: per rank linear plus the schedule (~4 n^2); rank 0 a summary
 * per rank on top, and the matrices only for the files that list every
 * link: ten times the ranks, a hundred times those. */
static void test_figures(void **state)
{
	uint64_t r0_10k = cxd_sweep_rank0_bytes(10000, 5000, 0);
	uint64_t l_1k = cxd_sweep_rank0_bytes(1000, 500, CXD_MEM_LINKS) -
			cxd_sweep_rank0_bytes(1000, 500, 0);
	uint64_t l_10k = cxd_sweep_rank0_bytes(10000, 5000, CXD_MEM_LINKS);
	uint64_t j_10k = cxd_sweep_rank0_bytes(10000, 5000, CXD_MEM_LINKS |
					       CXD_MEM_JSON);
	uint64_t each_10k = cxd_sweep_rank_bytes(10000, 5000);

	(void) state;
	/* Without such files rank 0 holds little more than any rank. */
	assert_true(r0_10k - each_10k < 100000000ULL);
	/* No rank holds the schedule: 1 kB per peer and its own steps. */
	assert_true(each_10k > 10240000ULL && each_10k < 11000000ULL);
	/* Four matrices of 8 x 10^8 bytes = 3.2 GB more. */
	assert_true(l_10k - r0_10k >= 3200000000ULL &&
		    l_10k - r0_10k < 3300000000ULL);
	assert_true(l_10k - r0_10k > 99 * l_1k &&
		    l_10k - r0_10k < 101 * l_1k);
	/* The JSON document dwarfs the matrices. */
	assert_true(j_10k > 5 * l_10k);
	/* A JSON baseline costs its document; a binary one its matrices. */
	assert_true(cxd_sweep_rank0_bytes(10000, 5000, CXD_MEM_BASE_JSON) >
		    5 * cxd_sweep_rank0_bytes(10000, 5000, CXD_MEM_BASE_BIN));
	/* --json lists every round's pairs besides: (n - 1) rounds x
	 * (n / 2 + 1) slots x 8 bytes, 400 MB at 10,000. */
	assert_true(j_10k - l_10k - 4 * 240 * 100000000ULL > 400000000ULL &&
		    j_10k - l_10k - 4 * 240 * 100000000ULL < 420000000ULL);
	/* Fewer pairs at once: more, shorter rounds, each timed. */
	assert_true(cxd_sweep_rank_bytes(64, 1) > cxd_sweep_rank_bytes(64, 32));
}

static void test_refusal(void **state)
{
	char err[512] = "";
	unsigned json = CXD_MEM_LINKS | CXD_MEM_JSON;
	uint64_t need = cxd_sweep_rank0_bytes(10000, 5000, json);
	uint64_t bare = cxd_sweep_rank0_bytes(10000, 5000, 0);

	(void) state;
	/* Fits: no refusal. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, json, need,
					     err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* Without --json the same host holds a 10,000-rank sweep. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, 0, bare, err,
					     sizeof(err)), 0);
	/* One byte short: refused, with the figures and the way out. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, json,
					     need - 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--json document"));
	assert_non_null(strstr(err, "--matrix FILE instead"));
	assert_non_null(strstr(err, "10000 ranks"));
	assert_non_null(strstr(err, "sweep fewer ranks at a time"));
	assert_non_null(strstr(err, " GB on rank 0"));
	/* Nothing to leave out: no --matrix advice, the figures still. */
	assert_int_equal(cxd_sweep_mem_check(10000, 5000, 0, 60000000ULL,
					     err, sizeof(err)), -1);
	assert_null(strstr(err, "--matrix"));
	assert_non_null(strstr(err, "0.1 GB available"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_refusal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
