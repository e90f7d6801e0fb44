/* SPDX-License-Identifier: BSD-3-Clause */
/* The switch and link lines of a --topology file as read, kept until its
 * end (topo_links.c) and then resolved (topo_resolve.c). */
#ifndef CXD_SWEEP_TOPO_PEND_H
#define CXD_SWEEP_TOPO_PEND_H

#include "topo_types.h"

/* A switch line: indices into the pending names. */
struct pend_sw {
	int name, group; /* group -1: none */
	int line;
	int sw, grp;     /* resolved: the switch's and group's indices */
};

/* The names the lines spell (a link's ends are indices into them until
 * resolved), the switch lines, the links' room. */
struct cxd_topo_pend {
	char (*name)[CXD_TOPO_NAME];
	int nname, cap_name;
	int *sw_of;      /* resolving: pending name -> switch, -1 none */
	struct pend_sw *sw;
	int nsw, cap_sw;
	int cap_link;
};

#endif
