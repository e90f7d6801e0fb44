/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --topology FILE: where each host sits, so outliers are grouped by
 * switch and group. The format (documented in cxi_sweep(1)):
 *
 *   # comments and blank lines are ignored
 *   NAME  SWITCH  [GROUP]
 *   width KIND N      (optional; KIND local, global or uplink)
 *   switch NAME [GROUP], link A B [COUNT], route minimal|ecmp
 *                     (optional: the fabric's links, topo_links.h)
 *
 * NAME is a host name, "host:nic" (nodes with several NICs), or a fabric
 * address without its port (where host names repeat). A width line
 * says how many pairs cross one such link at full rate (topo_types.h);
 * a host named "width", "switch", "link" or "route" cannot be placed.
 * With link lines, every two hosts must have a route (topo_reach.h).
 *
 * Or Slurm's topology.conf (topology/tree), told apart by its first line
 * (topo_slurm.c): a switch with Nodes= is each node's switch, the switch
 * whose Switches= lists it is their group; each Switches= relation is a
 * link.
 *
 *   SwitchName=s1 Nodes=n[01-16]
 *   SwitchName=top Switches=s[1-4]
 */
#ifndef CXD_SWEEP_TOPO_H
#define CXD_SWEEP_TOPO_H

#include <stddef.h>
#include <stdio.h>

#include "pairs.h"
#include "topo_types.h"

/* Read and check the file's form; err names the file and line. */
int cxd_topo_load(const char *path, struct cxd_topo *t, char *err,
		  size_t len);
/* Place every rank (switch_of, group_of: room for n each); a rank no line places
 * is an error naming it; lines naming no rank are listed on warn. */
int cxd_topo_place(struct cxd_topo *t, const struct cxd_sweep_rank *r,
		   int n, int *switch_of, int *group_of, FILE *warn, char *err,
		   size_t len);

/* "fi_sockaddr_in://10.1.2.3:4567" -> "10.1.2.3": the node, not the
 * port a run happened to get. */
void cxd_topo_addr_node(const char *addr, char *out, size_t len);

#endif
