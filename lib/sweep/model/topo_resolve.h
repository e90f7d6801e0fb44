/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology: the switch and link lines resolved at the file's end
 * (topo_resolve.c). */
#ifndef CXD_SWEEP_TOPO_RESOLVE_H
#define CXD_SWEEP_TOPO_RESOLVE_H

#include <stddef.h>

#include "topo_types.h"

/* After the whole file, every format: the switches and groups only
 * switch lines name appended to the names (nswitch_all, ngroup_all),
 * every switch's group (switch_group; with no such lines too), the
 * links' ends as switch indices (a < b, sorted by a, then b), the route
 * rule (unsaid: minimal where a switch has a group, else ecmp; none
 * without links). Each contradiction is an error naming its line and
 * value: a link to a switch no line names, a pair linked twice, a switch
 * in two groups. */
int cxd_topo_resolve(struct cxd_topo *t, char *err, size_t len);

#endif
