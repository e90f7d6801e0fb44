/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic names and the originals' op x type validity table. */
#include <strings.h>

#include "amo.h"
#include "cxd/config.h"

static const char *const op_names[CXD_AMO_OP_COUNT] = {
	"MIN", "MAX", "SUM", "LOR", "LAND", "BOR",
	"BAND", "LXOR", "BXOR", "SWAP", "CSWAP", "AXOR",
};
static const char *const cswap_names[CXD_CSWAP_OP_COUNT] = {
	"EQ", "NE", "LE", "LT", "GE", "GT",
};
static const char *const type_names[CXD_T_COUNT] = {
	"INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64",
	"UINT64", "FLOAT", "DOUBLE", "FLOAT_COMPLEX", "DOUBLE_COMPLEX",
	"UINT128",
};
static const unsigned char type_sizes[CXD_T_COUNT] = {
	1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8, 16, 16,
};

static int lookup(const char *const *names, unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (strcasecmp(names[i], s) == 0)
			return (int) i;
	return -1;
}

const char *cxd_amo_op_name(unsigned op)
{
	return op < CXD_AMO_OP_COUNT ? op_names[op] : "?";
}

const char *cxd_cswap_op_name(unsigned cop)
{
	return cop < CXD_CSWAP_OP_COUNT ? cswap_names[cop] : "?";
}

const char *cxd_amo_type_name(unsigned type)
{
	return type < CXD_T_COUNT ? type_names[type] : "?";
}

int cxd_amo_op_parse(const char *s)
{
	return lookup(op_names, CXD_AMO_OP_COUNT, s);
}

int cxd_cswap_op_parse(const char *s)
{
	return lookup(cswap_names, CXD_CSWAP_OP_COUNT, s);
}

int cxd_amo_type_parse(const char *s)
{
	return lookup(type_names, CXD_T_COUNT, s);
}

size_t cxd_amo_type_size(unsigned type)
{
	return type < CXD_T_COUNT ? type_sizes[type] : 0;
}

bool cxd_amo_compares(unsigned op)
{
	return op == CXD_AMO_CSWAP || op == CXD_AMO_AXOR;
}

bool cxd_amo_returns_old(unsigned op, bool fetching)
{
	return fetching || cxd_amo_compares(op);
}

bool cxd_amo_valid(unsigned op, unsigned cop, unsigned type)
{
	bool logical = op == CXD_AMO_LOR || op == CXD_AMO_LAND ||
		       op == CXD_AMO_BOR || op == CXD_AMO_BAND ||
		       op == CXD_AMO_LXOR || op == CXD_AMO_BXOR ||
		       op == CXD_AMO_AXOR;
	bool eq_ne = cop == CXD_CSWAP_EQ || cop == CXD_CSWAP_NE;

	if (op >= CXD_AMO_OP_COUNT || cop >= CXD_CSWAP_OP_COUNT ||
	    type >= CXD_T_COUNT)
		return false;
	if (type <= CXD_T_UINT64)
		return true;
	switch (type) {
	case CXD_T_FLOAT:
	case CXD_T_DOUBLE:
		return !logical;
	case CXD_T_FLOAT_COMPLEX:
	case CXD_T_DOUBLE_COMPLEX:
		return op == CXD_AMO_SUM || op == CXD_AMO_SWAP ||
		       (op == CXD_AMO_CSWAP && eq_ne);
	default: /* UINT128 */
		return op == CXD_AMO_CSWAP && cop == CXD_CSWAP_EQ;
	}
}
