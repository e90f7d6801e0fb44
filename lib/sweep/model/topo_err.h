/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology's error sentences, shared by its readers (topo_err.c). */
#ifndef CXD_SWEEP_TOPO_ERR_H
#define CXD_SWEEP_TOPO_ERR_H

#include <stddef.h>

#include "topo_types.h"

/* err made from fmt; returns -EINVAL. */
int cxd_topo_bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* err: "FILE: out of memory"; returns -ENOMEM. */
int cxd_topo_oom(const struct cxd_topo *t, char *err, size_t len);

#endif
