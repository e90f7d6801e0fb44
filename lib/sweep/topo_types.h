/* SPDX-License-Identifier: BSD-3-Clause */
/* A --topology file as read (topo.h): its lines and its switch and group
 * names, shared by the readers (topo.c, topo_add.c, topo_slurm.c). */
#ifndef CXD_SWEEP_TOPO_TYPES_H
#define CXD_SWEEP_TOPO_TYPES_H

#define CXD_TOPO_NAME 256

struct cxd_topo_line {
	char name[CXD_TOPO_NAME];
	int switch_ix, group_ix; /* into the name lists; group_ix -1: none */
	int line;
	int used;
};

struct cxd_topo {
	char path[CXD_TOPO_NAME];
	struct cxd_topo_line *l;
	int nl;
	char (*switch_name)[CXD_TOPO_NAME];
	char (*group_name)[CXD_TOPO_NAME];
	int nswitch, ngroup;
	int slurm; /* read from Slurm's topology.conf */
};

#endif
