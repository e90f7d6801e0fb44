/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan's rows: adding a counter, names and paths, what is an error. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"

void cxd_ctr_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

struct cxd_ctr *cxd_ctrs_add(struct cxd_ctrs *c, const char *name,
			     const char *path, const char *row,
			     const char *col)
{
	struct cxd_ctr *k;

	if (c->n >= CXD_CTR_MAX) {
		c->left++;
		return NULL;
	}
	k = &c->c[c->n++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->path, sizeof(k->path), "%s", path);
	snprintf(k->row, sizeof(k->row), "%s", row ? row : "");
	snprintf(k->col, sizeof(k->col), "%s", col ? col : "");
	k->err_before = k->err_after = ENODATA; /* not read yet */
	return k;
}

bool cxd_ctr_ok(const struct cxd_ctr *k)
{
	return k->err_before == 0 && k->err_after == 0;
}

bool cxd_ctr_errorish(const char *name)
{
	static const char *const words[] = {
		"err", "drop", "discard", "uncor", "corrected", "replay",
		"timeout", "nack", "retr", "down", "fail", "bad", "crc",
		"symbol", "lost", "overrun", "flap", "pause", "out_of",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(name, words[i]))
			return true;
	return false;
}
