/* SPDX-License-Identifier: BSD-3-Clause */
/* A --topology file as read (topo.h): its lines and its switch and group
 * names, shared by the readers (topo.c, topo_add.c, topo_slurm.c), and
 * the placement of the ranks made from it (struct cxd_topo_map). */
#ifndef CXD_SWEEP_TOPO_TYPES_H
#define CXD_SWEEP_TOPO_TYPES_H

#define CXD_TOPO_NAME 256

/* How pairs are routed over the link lines (docs/topology.md): none
 * (no link lines: places only); minimal (a dragonfly: at most one link
 * between two groups, the shortest ways inside a group); ecmp (every
 * shortest way, the choice among them unknown: a fat tree's spines). */
enum cxd_topo_route {
	CXD_TOPO_R_NONE,
	CXD_TOPO_R_MINIMAL,
	CXD_TOPO_R_ECMP
};

/* A link line: count physical links between switches a and b (a != b,
 * indices into the switch names; a < b once loaded). */
struct cxd_topo_link {
	int a, b;
	int count;
	int line;
};

/* Topology: for each rank its switch and group index (-1: none). A
 * switch sits in one group: its host lines', or its switch line's.
 * nswitch and ngroup count those host lines name (the placement's);
 * the switches and groups only switch and link lines name (spines,
 * routers with no hosts) come after them, up to nswitch_all and
 * ngroup_all. switch_group: each switch's group (nswitch_all entries;
 * rank 0 only, NULL elsewhere). With link lines: the links and the
 * route rule; else nlink 0, link NULL, route CXD_TOPO_R_NONE. */
struct cxd_topo_map {
	const int *switch_of, *group_of;
	int nswitch, ngroup;
	const struct cxd_topo_link *link;
	int nlink;
	const int *switch_group;
	int route; /* enum cxd_topo_route */
	int nswitch_all, ngroup_all;
};

/* The shared links a width is given for: between two switches of one
 * group, between two groups (a bundle), out of one switch to the others
 * (a fat tree's leaf, where there are no groups). */
enum cxd_topo_wkind {
	CXD_TOPO_W_LOCAL,
	CXD_TOPO_W_GLOBAL,
	CXD_TOPO_W_UPLINK,
	CXD_TOPO_W_KINDS
};

/* Where a width comes from: none (no such links), a width line, the
 * run's short measurement, or neither (such links, not measured). */
enum cxd_topo_wsrc {
	CXD_TOPO_WS_NONE,
	CXD_TOPO_WS_STATED,
	CXD_TOPO_WS_MEASURED,
	CXD_TOPO_WS_UNKNOWN
};

/* One kind's width: how many pairs cross such a link at full rate. */
struct cxd_topo_width {
	int pairs;             /* 0: unknown */
	int src;               /* enum cxd_topo_wsrc */
	int line;              /* stated: the file's line */
	/* Measured: the sample's two switches (local, uplink) or groups
	 * (global), the most pairs run at once, and the slowest pair then
	 * over one pair alone; at_least: none slowed (the cap was hit). */
	int a, b, tried;
	double slowest;
	int at_least;
	char why[96];          /* unknown: why it was not measured */
};

struct cxd_topo_line {
	char name[CXD_TOPO_NAME];
	int switch_ix, group_ix; /* into the name lists; group_ix -1: none */
	int line;
	int used;
};

struct cxd_topo_index; /* topo_index.c: the names, while reading */

struct cxd_topo {
	char path[CXD_TOPO_NAME];
	struct cxd_topo_line *l;
	int nl;
	char (*switch_name)[CXD_TOPO_NAME];
	char (*group_name)[CXD_TOPO_NAME];
	int nswitch, ngroup;
	int slurm; /* read from Slurm's topology.conf */
	/* "width KIND N" lines, then (rank 0) the run's measurement. */
	struct cxd_topo_width width[CXD_TOPO_W_KINDS];
	/* "switch NAME [GROUP]", "link A B [COUNT]" and "route RULE" lines
	 * (topo_links.c). switch_name and group_name hold first the names
	 * host lines give (nswitch, ngroup: the placement's, as before
	 * these lines), then those only these lines give (up to
	 * nswitch_all, ngroup_all); switch_group has nswitch_all entries
	 * once loaded. pend: the lines as read, until the file's end. */
	int *switch_group;
	struct cxd_topo_link *link;
	int nlink;
	int route, route_line; /* enum cxd_topo_route; 0: no route line */
	int nswitch_all, ngroup_all;
	struct cxd_topo_pend *pend;
	/* l, switch_name and group_name grow through cxd_topo_grow only,
	 * which keeps their room here (topo_index.h). */
	struct cxd_topo_index *index;
};

#endif
