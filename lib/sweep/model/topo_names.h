/* SPDX-License-Identifier: BSD-3-Clause */
/* A --topology file's names checked as they come in (topo_names.c):
 * host, switch and group names are carried by every output, so one that
 * no output can carry as it is (base/names.h) is refused, not mangled. */
#ifndef CXD_SWEEP_TOPO_NAMES_H
#define CXD_SWEEP_TOPO_NAMES_H

#include <stddef.h>

#include "topo_types.h"

/* 0, or -EINVAL and err naming the file, the line, what the name is
 * ("host", "switch", "group") and the name as shown (base/names.h). */
int cxd_topo_name_ok(const struct cxd_topo *t, const char *what,
		     const char *name, int line, char *err, size_t len);

#endif
