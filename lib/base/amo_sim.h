/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Atomic operand progression and target arithmetic, without libfabric.
 *
 * The atomic tools make every AMO change its target word where the
 * operation allows ("target write on every AMO", as the originals), and
 * check afterwards that each target word holds what N iterations must have
 * left there. This module is the single definition of both: the operands
 * iteration k uses, and what one AMO does to the target, computed in the
 * same C type the provider uses (unsigned wrap-around, two's complement,
 * float adds in float).
 *
 * Operands are in the Cassini sense: op1 is the operand, op2 the compare
 * value (CSWAP) or the kept-bits mask (AXOR: target = (target & op2) ^ op1).
 * CSWAP swaps when "op2 CMP target" holds, libfabric's direction.
 */
#ifndef CXD_AMO_SIM_H
#define CXD_AMO_SIM_H

#include <stdbool.h>
#include <stdint.h>

/* One target word or operand in the type's native layout (max 16 bytes). */
union cxd_amo_word {
	int8_t i8;
	uint8_t u8;
	int16_t i16;
	uint16_t u16;
	int32_t i32;
	uint32_t u32;
	int64_t i64;
	uint64_t u64;
	float f;
	double d;
	float fc[2];     /* FLOAT_COMPLEX: real, imaginary */
	double dc[2];    /* DOUBLE_COMPLEX */
	uint64_t u128[2]; /* UINT128: low, high (little-endian) */
	uint8_t bytes[16];
};

/* The operands of one iteration; advance with cxd_amo_sim_next. */
struct cxd_amo_sim {
	unsigned op, cop, type; /* enum cxd_amo_op, cxd_cswap_op, cxd_amo_type */
	uint64_t k;             /* the iteration op1/op2 belong to */
	union cxd_amo_word op1, op2;
};

/* Operands for iteration 0 and the initial target value. */
void cxd_amo_sim_start(struct cxd_amo_sim *sim, unsigned op, unsigned cop,
		       unsigned type, union cxd_amo_word *target);
/* Operands for the next iteration (k + 1). */
void cxd_amo_sim_next(struct cxd_amo_sim *sim);
/* One AMO with the current operands; returns the old target value. */
union cxd_amo_word cxd_amo_sim_apply(const struct cxd_amo_sim *sim,
				     union cxd_amo_word *target);
/* The target after n iterations from its initial value. */
void cxd_amo_sim_run(unsigned op, unsigned cop, unsigned type, uint64_t n,
		     union cxd_amo_word *target);
/* Byte-exact comparison over the type's size. */
bool cxd_amo_word_eq(unsigned type, const union cxd_amo_word *a,
		     const union cxd_amo_word *b);

#endif
