/*
 * --topology FILE: where each host sits, so outliers are grouped by
 * switch and group. The format (documented in cxi_sweep(1)):
 *
 *   # comments and blank lines are ignored
 *   NAME  SWITCH  [GROUP]
 *
 * NAME is a host name, "host:nic" (nodes with several NICs), or a fabric
 * address without its port (where host names repeat).
 */
#ifndef CXD_SWEEP_TOPO_H
#define CXD_SWEEP_TOPO_H

#include <stddef.h>
#include <stdio.h>

#include "judge.h"

#define CXD_TOPO_NAME 256

struct cxd_topo_line {
	char name[CXD_TOPO_NAME];
	int sw, grp; /* indexes into the name lists; grp -1: none */
	int line;
	int used;
};

struct cxd_topo {
	char path[CXD_TOPO_NAME];
	struct cxd_topo_line *l;
	int nl;
	char (*sw)[CXD_TOPO_NAME];  /* switch names */
	char (*grp)[CXD_TOPO_NAME]; /* group names */
	int nsw, ngrp;
};

/* Read and check the file's form; err names the file and line. */
int cxd_topo_load(const char *path, struct cxd_topo *t, char *err,
		  size_t len);
/* Place every rank (map->sw/grp: room for n each); a rank no line places
 * is an error naming it; lines naming no rank are listed on warn. */
int cxd_topo_place(struct cxd_topo *t, const struct cxd_sweep_rank *r,
		   int n, int *sw, int *grp, FILE *warn, char *err,
		   size_t len);
void cxd_topo_free(struct cxd_topo *t);

/* "fi_sockaddr_in://10.1.2.3:4567" -> "10.1.2.3": the node, not the
 * port a run happened to get. */
void cxd_addr_node(const char *addr, char *out, size_t len);

#endif
