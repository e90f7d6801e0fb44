/* SPDX-License-Identifier: BSD-3-Clause */
/* One topology line added, whichever the file's format, or a width
 * line (topo_add.c). */
#ifndef CXD_SWEEP_TOPO_ADD_H
#define CXD_SWEEP_TOPO_ADD_H

#include <stddef.h>

#include "topo_index.h"
#include "topo_types.h"

/* Index of name in kind's list (count *n), added when new; -1: no
 * memory. For names the switch lines add once every host line is in. */
int cxd_topo_intern(struct cxd_topo *t, enum cxd_topo_ix kind,
		    char (**list)[CXD_TOPO_NAME], int *n, const char *name);
/* Place name under switch sname and group gname (NULL: none); a name
 * placed twice is an error naming both lines. */
int cxd_topo_add(struct cxd_topo *t, const char *name, const char *sname,
		 const char *gname, int line, char *err, size_t len);
/* "width KIND N": kind one of cxd_topo_wkind_names, N a positive
 * integer, each kind once; an error names the file, line and value. */
int cxd_topo_add_width(struct cxd_topo *t, const char *kind, const char *n,
		       int line, char *err, size_t len);
/* The kinds' names, as width lines and the JSON spell them. */
extern const char *const cxd_topo_wkind_names[CXD_TOPO_W_KINDS];
void cxd_topo_free(struct cxd_topo *t);

#endif
