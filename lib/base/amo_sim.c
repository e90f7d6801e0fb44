/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic operand progression and target arithmetic (see amo_sim.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "amo.h"
#include "amo_sim.h"
#include "cxd/config.h"

static bool is_int(unsigned type)
{
	return type <= CXD_T_UINT64;
}

static bool is_signed(unsigned type)
{
	return type == CXD_T_INT8 || type == CXD_T_INT16 ||
	       type == CXD_T_INT32 || type == CXD_T_INT64;
}

static unsigned width(unsigned type)
{
	return (unsigned) cxd_amo_type_size(type) * 8;
}

static uint64_t bits_mask(unsigned type)
{
	unsigned w = width(type);

	return w >= 64 ? UINT64_MAX : (1ULL << w) - 1;
}

/* Integer words as raw bits: arithmetic on these wraps like the type. */
static uint64_t get_u(const union cxd_amo_word *w, unsigned type)
{
	switch (cxd_amo_type_size(type)) {
	case 1: return w->u8;
	case 2: return w->u16;
	case 4: return w->u32;
	default: return w->u64;
	}
}

/* Store the low bits of v: two's complement without signed overflow. */
static void put_u(union cxd_amo_word *w, unsigned type, uint64_t v)
{
	memset(w, 0, sizeof(*w));
	switch (cxd_amo_type_size(type)) {
	case 1: w->u8 = (uint8_t) v; break;
	case 2: w->u16 = (uint16_t) v; break;
	case 4: w->u32 = (uint32_t) v; break;
	default: w->u64 = v; break;
	}
}

/* A small non-negative value in any type; complex: imaginary part 0. */
static void put_num(union cxd_amo_word *w, unsigned type, unsigned v)
{
	memset(w, 0, sizeof(*w));
	switch (type) {
	case CXD_T_FLOAT: w->f = (float) v; break;
	case CXD_T_DOUBLE: w->d = v; break;
	case CXD_T_FLOAT_COMPLEX: w->fc[0] = (float) v; break;
	case CXD_T_DOUBLE_COMPLEX: w->dc[0] = v; break;
	case CXD_T_UINT128: w->u128[0] = v; break;
	default: put_u(w, type, v); break;
	}
}

/* The type's largest (hi) or smallest (!hi) value; floats: finite. */
static void put_limit(union cxd_amo_word *w, unsigned type, bool hi)
{
	uint64_t m = bits_mask(type);

	memset(w, 0, sizeof(*w));
	if (type == CXD_T_FLOAT)
		w->f = hi ? FLT_MAX : -FLT_MAX;
	else if (type == CXD_T_DOUBLE)
		w->d = hi ? DBL_MAX : -DBL_MAX;
	else if (is_signed(type))
		put_u(w, type, hi ? m >> 1 : (m >> 1) + 1);
	else
		put_u(w, type, hi ? m : 0);
}

/* One step toward +inf (up) or -inf: integers by 1, floats by one ulp. */
static void step(union cxd_amo_word *w, unsigned type, bool up)
{
	if (type == CXD_T_FLOAT)
		w->f = nextafterf(w->f, up ? INFINITY : -INFINITY);
	else if (type == CXD_T_DOUBLE)
		w->d = nextafter(w->d, up ? INFINITY : -INFINITY);
	else
		put_u(w, type, get_u(w, type) + (up ? 1 : UINT64_MAX));
}

/* An integer word as a number that sorts like the type: flipping the sign
 * bit puts the negatives, in order, below the non-negatives. */
static uint64_t order_key(const union cxd_amo_word *w, unsigned type)
{
	uint64_t u = get_u(w, type);

	return is_signed(type) ? u ^ (1ULL << (width(type) - 1)) : u;
}

/* -1, 0 or 1 for a against b; complex types only tell equal (0) or not. */
static int cmp(unsigned type, const union cxd_amo_word *a,
	       const union cxd_amo_word *b)
{
	switch (type) {
	case CXD_T_FLOAT: return (a->f > b->f) - (a->f < b->f);
	case CXD_T_DOUBLE: return (a->d > b->d) - (a->d < b->d);
	case CXD_T_FLOAT_COMPLEX:
		return a->fc[0] != b->fc[0] || a->fc[1] != b->fc[1];
	case CXD_T_DOUBLE_COMPLEX:
		return a->dc[0] != b->dc[0] || a->dc[1] != b->dc[1];
	case CXD_T_UINT128:
		if (a->u128[1] != b->u128[1])
			return a->u128[1] > b->u128[1] ? 1 : -1;
		return (a->u128[0] > b->u128[0]) - (a->u128[0] < b->u128[0]);
	default:
		break;
	}
	return (order_key(a, type) > order_key(b, type)) -
	       (order_key(a, type) < order_key(b, type));
}

/* CSWAP: initial target and compare value make the first swap happen. */
static void cswap_start(struct cxd_amo_sim *sim, union cxd_amo_word *target)
{
	unsigned t0, c0;

	switch (sim->cop) {
	case CXD_CSWAP_LT: t0 = 3; c0 = 0; break;
	case CXD_CSWAP_NE:
	case CXD_CSWAP_GT: t0 = 0; c0 = 3; break;
	default: t0 = 2; c0 = 2; break; /* EQ, LE, GE */
	}
	put_num(target, sim->type, t0);
	put_num(&sim->op2, sim->type, c0);
}

void cxd_amo_sim_start(struct cxd_amo_sim *sim, unsigned op, unsigned cop,
		       unsigned type, union cxd_amo_word *target)
{
	memset(sim, 0, sizeof(*sim));
	memset(target, 0, sizeof(*target));
	sim->op = op;
	sim->cop = cop;
	sim->type = type;
	put_num(&sim->op1, type, 1); /* SUM LOR LXOR BXOR BOR SWAP CSWAP AXOR */
	switch (op) {
	case CXD_AMO_MIN:
	case CXD_AMO_MAX:
		put_limit(target, type, op == CXD_AMO_MIN);
		sim->op1 = *target;
		step(&sim->op1, type, op == CXD_AMO_MAX);
		break;
	case CXD_AMO_LAND:
		put_num(target, type, 1);
		put_num(&sim->op1, type, 0);
		break;
	case CXD_AMO_BAND:
		put_u(target, type, UINT64_MAX);
		put_u(&sim->op1, type, ~1ULL);
		break;
	case CXD_AMO_CSWAP:
		cswap_start(sim, target);
		break;
	case CXD_AMO_AXOR:
		/* All ones: the kept high bits show the mask works. */
		put_u(target, type, UINT64_MAX);
		put_u(&sim->op2, type, ~3ULL);
		break;
	default:
		break;
	}
}

void cxd_amo_sim_next(struct cxd_amo_sim *sim)
{
	unsigned type = sim->type;
	uint64_t k = ++sim->k;
	unsigned alt = (k & 1) ? 2 : 1; /* 1, 2, 1, 2, ... */

	switch (sim->op) {
	case CXD_AMO_MIN:
	case CXD_AMO_MAX:
		step(&sim->op1, type, sim->op == CXD_AMO_MAX);
		break;
	case CXD_AMO_BOR:
		put_u(&sim->op1, type, 1ULL << (k % width(type)));
		break;
	case CXD_AMO_BAND:
		put_u(&sim->op1, type, ~(1ULL << (k % width(type))));
		break;
	case CXD_AMO_SWAP:
	case CXD_AMO_AXOR:
		put_num(&sim->op1, type, alt);
		break;
	case CXD_AMO_CSWAP:
		put_num(&sim->op1, type, alt);
		/*
		 * EQ/LE/GE compare against the value the previous swap left
		 * (3 - alt). The originals did this for integers only; we do
		 * it for floats too so every AMO changes the target.
		 */
		if (sim->cop == CXD_CSWAP_EQ || sim->cop == CXD_CSWAP_LE ||
		    sim->cop == CXD_CSWAP_GE)
			put_num(&sim->op2, type, 3 - alt);
		break;
	default:
		break; /* constant operands */
	}
}

static bool cswap_holds(unsigned cop, int c)
{
	switch (cop) {
	case CXD_CSWAP_EQ: return c == 0;
	case CXD_CSWAP_NE: return c != 0;
	case CXD_CSWAP_LE: return c <= 0;
	case CXD_CSWAP_LT: return c < 0;
	case CXD_CSWAP_GE: return c >= 0;
	default: return c > 0; /* GT */
	}
}

/* SUM in the type's own arithmetic. */
static void sum(unsigned type, union cxd_amo_word *t,
		const union cxd_amo_word *o)
{
	switch (type) {
	case CXD_T_FLOAT: t->f = t->f + o->f; break;
	case CXD_T_DOUBLE: t->d = t->d + o->d; break;
	case CXD_T_FLOAT_COMPLEX:
		t->fc[0] = t->fc[0] + o->fc[0];
		t->fc[1] = t->fc[1] + o->fc[1];
		break;
	case CXD_T_DOUBLE_COMPLEX:
		t->dc[0] = t->dc[0] + o->dc[0];
		t->dc[1] = t->dc[1] + o->dc[1];
		break;
	default:
		put_u(t, type, get_u(t, type) + get_u(o, type));
		break;
	}
}

/* Logical and bitwise operations: integer types only. */
static void logic(unsigned op, unsigned type, union cxd_amo_word *t,
		  const struct cxd_amo_sim *sim)
{
	uint64_t a = get_u(t, type), b = get_u(&sim->op1, type), r;

	switch (op) {
	case CXD_AMO_LOR: r = a || b; break;
	case CXD_AMO_LAND: r = a && b; break;
	case CXD_AMO_LXOR: r = (a && !b) || (!a && b); break;
	case CXD_AMO_BOR: r = a | b; break;
	case CXD_AMO_BAND: r = a & b; break;
	case CXD_AMO_BXOR: r = a ^ b; break;
	default: r = (a & get_u(&sim->op2, type)) ^ b; break; /* AXOR */
	}
	put_u(t, type, r);
}

union cxd_amo_word cxd_amo_sim_apply(const struct cxd_amo_sim *sim,
				     union cxd_amo_word *target)
{
	union cxd_amo_word old = *target;
	unsigned type = sim->type;

	switch (sim->op) {
	case CXD_AMO_MIN:
		if (cmp(type, &sim->op1, target) < 0)
			*target = sim->op1;
		break;
	case CXD_AMO_MAX:
		if (cmp(type, &sim->op1, target) > 0)
			*target = sim->op1;
		break;
	case CXD_AMO_SUM:
		sum(type, target, &sim->op1);
		break;
	case CXD_AMO_SWAP:
		*target = sim->op1;
		break;
	case CXD_AMO_CSWAP:
		if (cswap_holds(sim->cop, cmp(type, &sim->op2, target)))
			*target = sim->op1;
		break;
	default:
		if (is_int(type))
			logic(sim->op, type, target, sim);
		break;
	}
	return old;
}

void cxd_amo_sim_run(unsigned op, unsigned cop, unsigned type, uint64_t n,
		     union cxd_amo_word *target)
{
	struct cxd_amo_sim sim;

	cxd_amo_sim_start(&sim, op, cop, type, target);
	for (uint64_t i = 0; i < n; i++) {
		cxd_amo_sim_apply(&sim, target);
		cxd_amo_sim_next(&sim);
	}
}

bool cxd_amo_word_eq(unsigned type, const union cxd_amo_word *a,
		     const union cxd_amo_word *b)
{
	return memcmp(a->bytes, b->bytes, cxd_amo_type_size(type)) == 0;
}
