/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic simulation: target values after N iterations, computed by hand. */
#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/amo.h"
#include "base/amo_sim.h"
#include "cxd/config.h"
#include "support/unit_main.h"

static union cxd_amo_word after(unsigned op, unsigned cop, unsigned type,
				uint64_t n)
{
	union cxd_amo_word t;

	cxd_amo_sim_run(op, cop, type, n, &t);
	return t;
}

static uint32_t float_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

static uint64_t double_bits(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static void test_amo_sum_wraps_integers_and_adds_floats(void **state)
{
	(void) state;
	/* 300 mod 256 */
	assert_int_equal(after(CXD_AMO_SUM, 0, CXD_T_UINT8, 300).u8, 44);
	/* 200 wraps to -56 in two's complement */
	assert_int_equal(after(CXD_AMO_SUM, 0, CXD_T_INT8, 200).i8, -56);
	assert_int_equal(after(CXD_AMO_SUM, 0, CXD_T_UINT64, 12345).u64,
			 12345);
	assert_true(after(CXD_AMO_SUM, 0, CXD_T_FLOAT, 10).f == 10.0f);
	assert_true(after(CXD_AMO_SUM, 0, CXD_T_DOUBLE, 1000).d == 1000.0);
}

/* Float adds stay in float: 2^24 + 1 rounds back to 2^24. */
static void test_sum_float_saturates(void **state)
{
	union cxd_amo_word t = after(CXD_AMO_SUM, 0, CXD_T_FLOAT,
				     (1u << 24) + 3);

	(void) state;
	assert_true(t.f == 16777216.0f);
}

static void test_sum_complex(void **state)
{
	union cxd_amo_word fc = after(CXD_AMO_SUM, 0, CXD_T_FLOAT_COMPLEX, 7);
	union cxd_amo_word dc = after(CXD_AMO_SUM, 0, CXD_T_DOUBLE_COMPLEX, 9);

	(void) state;
	assert_true(fc.fc[0] == 7.0f && fc.fc[1] == 0.0f);
	assert_true(dc.dc[0] == 9.0 && dc.dc[1] == 0.0);
}

static void test_min_max(void **state)
{
	(void) state;
	assert_int_equal(after(CXD_AMO_MIN, 0, CXD_T_INT32, 3).i32,
			 INT32_MAX - 3);
	assert_int_equal(after(CXD_AMO_MIN, 0, CXD_T_INT32, 0).i32, INT32_MAX);
	assert_int_equal(after(CXD_AMO_MAX, 0, CXD_T_INT16, 3).i16,
			 INT16_MIN + 3);
	assert_int_equal(after(CXD_AMO_MIN, 0, CXD_T_UINT64, 5).u64,
			 UINT64_MAX - 5);
	/* op1 reaches 0 at iteration 254, then wraps to 255: target stays 0 */
	assert_int_equal(after(CXD_AMO_MIN, 0, CXD_T_UINT8, 300).u8, 0);
	assert_int_equal(after(CXD_AMO_MAX, 0, CXD_T_INT8, 255).i8, INT8_MAX);
	/* one ulp per iteration below FLT_MAX / above -DBL_MAX */
	assert_int_equal(float_bits(after(CXD_AMO_MIN, 0, CXD_T_FLOAT, 3).f),
			 float_bits(FLT_MAX) - 3);
	assert_int_equal(double_bits(after(CXD_AMO_MAX, 0, CXD_T_DOUBLE, 2).d),
			 double_bits(-DBL_MAX) - 2);
}

static void test_amo_swap_target_after_n_swaps(void **state)
{
	(void) state;
	assert_int_equal(after(CXD_AMO_SWAP, 0, CXD_T_UINT32, 0).u32, 0);
	assert_int_equal(after(CXD_AMO_SWAP, 0, CXD_T_UINT32, 5).u32, 1);
	assert_int_equal(after(CXD_AMO_SWAP, 0, CXD_T_INT64, 4).i64, 2);
	assert_true(after(CXD_AMO_SWAP, 0, CXD_T_DOUBLE, 3).d == 1.0);
}

static void test_amo_cswap_each_comparison_and_type(void **state)
{
	union cxd_amo_word t;

	(void) state;
	assert_int_equal(after(CXD_AMO_CSWAP, CXD_CSWAP_LT, CXD_T_UINT64, 0)
			 .u64, 3);
	assert_int_equal(after(CXD_AMO_CSWAP, CXD_CSWAP_LT, CXD_T_UINT64, 2)
			 .u64, 2);
	assert_int_equal(after(CXD_AMO_CSWAP, CXD_CSWAP_EQ, CXD_T_INT32, 3)
			 .i32, 1);
	assert_int_equal(after(CXD_AMO_CSWAP, CXD_CSWAP_GT, CXD_T_INT8, 4)
			 .i8, 2);
	assert_int_equal(after(CXD_AMO_CSWAP, CXD_CSWAP_NE, CXD_T_UINT16, 0)
			 .u16, 0);
	assert_true(after(CXD_AMO_CSWAP, CXD_CSWAP_GE, CXD_T_FLOAT, 6).f ==
		    2.0f);
	t = after(CXD_AMO_CSWAP, CXD_CSWAP_NE, CXD_T_FLOAT_COMPLEX, 3);
	assert_true(t.fc[0] == 1.0f && t.fc[1] == 0.0f);
	t = after(CXD_AMO_CSWAP, CXD_CSWAP_EQ, CXD_T_UINT128, 5);
	assert_int_equal(t.u128[0], 1);
	assert_int_equal(t.u128[1], 0);
}

static void test_amo_axor_masks_then_xors(void **state)
{
	(void) state;
	/* FFFF -> (FFFF & ~3) ^ 1 = FFFD -> FFFC ^ 2 = FFFE -> FFFD */
	assert_int_equal(after(CXD_AMO_AXOR, 0, CXD_T_UINT16, 1).u16, 0xFFFD);
	assert_int_equal(after(CXD_AMO_AXOR, 0, CXD_T_UINT16, 2).u16, 0xFFFE);
	assert_int_equal(after(CXD_AMO_AXOR, 0, CXD_T_UINT16, 3).u16, 0xFFFD);
	assert_int_equal(after(CXD_AMO_AXOR, 0, CXD_T_INT8, 2).i8, -2);
	assert_int_equal(after(CXD_AMO_AXOR, 0, CXD_T_UINT64, 4).u64,
			 UINT64_MAX - 1);
}

static void test_amo_band_bor_bxor_per_type(void **state)
{
	(void) state;
	assert_int_equal(after(CXD_AMO_BAND, 0, CXD_T_UINT8, 3).u8, 0xF8);
	assert_int_equal(after(CXD_AMO_BAND, 0, CXD_T_UINT8, 8).u8, 0);
	assert_int_equal(after(CXD_AMO_BOR, 0, CXD_T_UINT32, 4).u32, 0xF);
	assert_int_equal(after(CXD_AMO_BOR, 0, CXD_T_UINT32, 40).u32,
			 UINT32_MAX);
	assert_int_equal(after(CXD_AMO_BOR, 0, CXD_T_INT8, 8).i8, -1);
	assert_int_equal(after(CXD_AMO_BXOR, 0, CXD_T_INT16, 5).i16, 1);
	assert_int_equal(after(CXD_AMO_BXOR, 0, CXD_T_INT16, 6).i16, 0);
}

static void test_amo_lor_land_lxor_give_0_or_1(void **state)
{
	(void) state;
	assert_int_equal(after(CXD_AMO_LXOR, 0, CXD_T_UINT64, 3).u64, 1);
	assert_int_equal(after(CXD_AMO_LXOR, 0, CXD_T_UINT64, 4).u64, 0);
	assert_int_equal(after(CXD_AMO_LOR, 0, CXD_T_INT32, 0).i32, 0);
	assert_int_equal(after(CXD_AMO_LOR, 0, CXD_T_INT32, 10).i32, 1);
	assert_int_equal(after(CXD_AMO_LAND, 0, CXD_T_UINT8, 0).u8, 1);
	assert_int_equal(after(CXD_AMO_LAND, 0, CXD_T_UINT8, 10).u8, 0);
}

/* apply returns the old value: what a fetching AMO brings back. */
static void test_fetch_old(void **state)
{
	struct cxd_amo_sim sim;
	union cxd_amo_word t, old;

	(void) state;
	cxd_amo_sim_start(&sim, CXD_AMO_SUM, 0, CXD_T_UINT32, &t);
	for (uint32_t k = 0; k < 10; k++) {
		old = cxd_amo_sim_apply(&sim, &t);
		assert_int_equal(old.u32, k);
		cxd_amo_sim_next(&sim);
	}
	assert_int_equal(sim.k, 10);
}

/* Bytes past the type's size are not compared, and start out zero. */
static void test_word_eq(void **state)
{
	union cxd_amo_word a, b;

	(void) state;
	cxd_amo_sim_run(CXD_AMO_SUM, 0, CXD_T_UINT8, 3, &a);
	for (size_t i = 1; i < sizeof(a.bytes); i++)
		assert_int_equal(a.bytes[i], 0);
	b = a;
	b.bytes[5] = 0x77;
	assert_true(cxd_amo_word_eq(CXD_T_UINT8, &a, &b));
	b.bytes[0] ^= 1;
	assert_false(cxd_amo_word_eq(CXD_T_UINT8, &a, &b));
}

/* Every AMO of the first 100 iterations must change the target. */
static void assert_every_amo_writes(unsigned op, unsigned cop, unsigned type)
{
	struct cxd_amo_sim sim;
	union cxd_amo_word t, old;

	cxd_amo_sim_start(&sim, op, cop, type, &t);
	for (unsigned k = 0; k < 100; k++) {
		old = cxd_amo_sim_apply(&sim, &t);
		if (cxd_amo_word_eq(type, &old, &t))
			fail_msg("%s %s %s: iteration %u left the target "
				 "unchanged", cxd_amo_op_name(op),
				 op == CXD_AMO_CSWAP ? cxd_cswap_op_name(cop) :
				 "", cxd_amo_type_name(type), k);
		cxd_amo_sim_next(&sim);
	}
}

static void test_every_amo_writes(void **state)
{
	static const unsigned ops[] = {
		CXD_AMO_SWAP, CXD_AMO_CSWAP, CXD_AMO_AXOR, CXD_AMO_SUM,
		CXD_AMO_MIN, CXD_AMO_MAX, CXD_AMO_LXOR, CXD_AMO_BXOR,
	};
	unsigned checked = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (unsigned cop = 0; cop < CXD_CSWAP_OP_COUNT; cop++)
			for (unsigned type = 0; type < CXD_T_COUNT; type++) {
				if ((ops[i] != CXD_AMO_CSWAP && cop != 0) ||
				    !cxd_amo_valid(ops[i], cop, type))
					continue;
				assert_every_amo_writes(ops[i], cop, type);
				checked++;
			}
	/* SWAP 12, CSWAP 6 x 10 + 2 x 2 complex + 1 UINT128, AXOR 8,
	 * SUM 12, MIN and MAX 10 each, LXOR and BXOR 8 each. */
	assert_int_equal(checked, 12 + 65 + 8 + 12 + 10 + 10 + 8 + 8);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_amo_sum_wraps_integers_and_adds_floats),
	cmocka_unit_test(test_sum_float_saturates),
	cmocka_unit_test(test_sum_complex),
	cmocka_unit_test(test_min_max),
	cmocka_unit_test(test_amo_swap_target_after_n_swaps),
	cmocka_unit_test(test_amo_cswap_each_comparison_and_type),
	cmocka_unit_test(test_amo_axor_masks_then_xors),
	cmocka_unit_test(test_amo_band_bor_bxor_per_type),
	cmocka_unit_test(test_amo_lor_land_lxor_give_0_or_1),
	cmocka_unit_test(test_fetch_old),
	cmocka_unit_test(test_word_eq),
	cmocka_unit_test(test_every_amo_writes))
