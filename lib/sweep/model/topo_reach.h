/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology: can every pair of hosts be routed over the link lines?
 * (topo_reach.c) */
#ifndef CXD_SWEEP_TOPO_REACH_H
#define CXD_SWEEP_TOPO_REACH_H

#include <stddef.h>

#include "topo_types.h"

/* For a resolved file with links (topo_resolve.h): under route ecmp the
 * switches that carry hosts are joined by links; under route minimal,
 * those of one group are joined by links inside it, and every two groups
 * that carry hosts by a link between them whose ends those switches
 * reach inside their groups (a switch with no group is a group of its
 * own). Else an error naming the first two switches with no route, their
 * groups and why. Near linear: union-find, the group pairs sorted. */
int cxd_topo_reach(const struct cxd_topo *t, char *err, size_t len);

#endif
