/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic operation and type names, sizes and the originals' validity table. */
#ifndef CXD_AMO_H
#define CXD_AMO_H

#include <stdbool.h>
#include <stddef.h>

const char *cxd_amo_op_name(unsigned op);
const char *cxd_cswap_op_name(unsigned cop);
const char *cxd_amo_type_name(unsigned type);
/* Case-insensitive lookup; -1 when unknown. */
int cxd_amo_op_parse(const char *s);
int cxd_cswap_op_parse(const char *s);
int cxd_amo_type_parse(const char *s);
size_t cxd_amo_type_size(unsigned type);
/* The originals' table of valid operation, comparison and type triples. */
bool cxd_amo_valid(unsigned op, unsigned cop, unsigned type);
/* CSWAP and AXOR exist only as compare atomics in libfabric (FI_CSWAP*,
 * FI_MSWAP). */
bool cxd_amo_compares(unsigned op);
/* The AMO returns the target's old value (--fetching, or a compare
 * atomic): it completes only when that value is back, never injected. */
bool cxd_amo_returns_old(unsigned op, bool fetching);

#endif
