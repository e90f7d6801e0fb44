/* SPDX-License-Identifier: BSD-3-Clause */
/* One topology line added, whichever the file's format (topo_add.c). */
#ifndef CXD_SWEEP_TOPO_ADD_H
#define CXD_SWEEP_TOPO_ADD_H

#include <stddef.h>

#include "topo_types.h"

/* Place name under switch sname and group gname (NULL: none); a name
 * placed twice is an error naming both lines. */
int cxd_topo_add(struct cxd_topo *t, const char *name, const char *sname,
		 const char *gname, int line, char *err, size_t len);
void cxd_topo_free(struct cxd_topo *t);

#endif
