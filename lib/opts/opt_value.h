/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the option code: one value of an option, as a word on the
 * command line and as the field of struct cxd_cfg its row names
 * (opt_value.c). Below every other file of lib/opts. */
#ifndef CXD_OPT_VALUE_H
#define CXD_OPT_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "opts_priv.h"

static inline int cxd_is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* The numeric (or choice) field o names in cfg, widened. */
uint64_t cxd_opt_number(const struct opt *o, const struct cxd_cfg *cfg);
/* Store v in that field at its width; an int field takes negative
 * values as their two's complement (-1: no GPU). */
void cxd_opt_store(const struct opt *o, struct cxd_cfg *cfg, uint64_t v);

/* "-s/--size" or "--json": how messages name the option. */
void cxd_opt_label(const struct opt *o, char *buf, size_t len);

/* Format a usage error into err; returns -EINVAL. */
int cxd_opt_fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
