/* SPDX-License-Identifier: BSD-3-Clause */
/* Option values: words parsed strictly, fields read by the row that names
 * them, usage errors formatted. The parser, the checks and -h share these. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_value.h"

int cxd_parse_u64(const char *s, uint64_t *v_p)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts a sign and spaces; a count must be plain digits. */
	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	*v_p = v;
	return 0;
}

int cxd_parse_size_range(const char *s, int allow_range, uint64_t *min_p,
			 uint64_t *max_p)
{
	char buf[64];
	char *colon;
	uint64_t lo, hi;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (colon != NULL) {
		if (!allow_range)
			return -EINVAL;
		*colon = '\0';
	}
	if (cxd_parse_u64(buf, &lo) != 0 || lo == 0 || lo > CXD_MAX_MSG_SIZE)
		return -EINVAL;
	hi = lo;
	if (colon != NULL &&
	    (cxd_parse_u64(colon + 1, &hi) != 0 || hi < lo ||
	     hi > CXD_MAX_MSG_SIZE))
		return -EINVAL;
	if (colon != NULL && hi != lo && (!cxd_is_pow2(lo) || !cxd_is_pow2(hi)))
		return -ERANGE;
	*min_p = lo;
	*max_p = hi;
	return 0;
}

/* How the field a row names is stored: choices as uint32_t indexes, the
 * GPU numbers and type as int. */
enum width { W_U64, W_U32, W_INT };

static enum width width_of(const struct opt *o)
{
	switch (o->kind) {
	case K_U32: case K_HP: case K_AMO_OP: case K_CSWAP: case K_AMO_TYPE:
	case K_TCLASS:
		return W_U32;
	case K_INT: case K_GPUTYPE:
		return W_INT;
	default:
		return W_U64;
	}
}

uint64_t cxd_opt_number(const struct opt *o, const struct cxd_cfg *cfg)
{
	const void *field = (const char *) cfg + o->off;

	switch (width_of(o)) {
	case W_U32: return *(const uint32_t *) field;
	case W_INT: return (uint64_t) *(const int *) field;
	default: return *(const uint64_t *) field;
	}
}

void cxd_opt_store(const struct opt *o, struct cxd_cfg *cfg, uint64_t v)
{
	void *field = (char *) cfg + o->off;

	switch (width_of(o)) {
	case W_U32:
		*(uint32_t *) field = (uint32_t) v;
		break;
	case W_INT: /* no implementation-defined narrowing of a negative */
		*(int *) field = v <= INT_MAX ? (int) v :
				 -(int) (UINT64_MAX - v) - 1;
		break;
	default:
		*(uint64_t *) field = v;
		break;
	}
}

void cxd_opt_label(const struct opt *o, char *buf, size_t len)
{
	if (o->sname)
		snprintf(buf, len, "-%c/--%s", o->sname, o->lname);
	else
		snprintf(buf, len, "--%s", o->lname);
}

int cxd_opt_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
