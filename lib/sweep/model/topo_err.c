/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology's error sentences (topo_err.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "topo_err.h"

int cxd_topo_bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cxd_topo_oom(const struct cxd_topo *t, char *err, size_t len)
{
	snprintf(err, len, "%s: out of memory", t->path);
	return -ENOMEM;
}
