/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A topology's names indexed while it is read (topo_index.c): a line's
 * name, a switch's and a group's found in constant time, so that a file
 * loads in time linear in its lines. (A topology.conf whose host list
 * expands to millions of names took hours: found by fuzz_topo, issue 51.)
 * The lists of struct cxd_topo grow through cxd_topo_grow only: it keeps
 * their room, doubling it.
 */
#ifndef CXD_SWEEP_TOPO_INDEX_H
#define CXD_SWEEP_TOPO_INDEX_H

#include <stddef.h>

#include "topo_types.h"

/* Lines one file may place: five times the NICs of the largest machine
 * (about 50,000), bounding the memory a file can make a run take. The
 * fuzz harness is built with fewer (fuzz/fuzz.cmake): under ASan a list
 * of 2^18 names takes seconds, which its timeout would count. */
#ifndef CXD_TOPO_MAX_LINES
#define CXD_TOPO_MAX_LINES (1 << 18)
#endif

enum cxd_topo_ix {
	CXD_TOPO_IX_LINE,   /* t->l[i].name */
	CXD_TOPO_IX_SWITCH, /* t->switch_name[i] */
	CXD_TOPO_IX_GROUP,  /* t->group_name[i] */
	CXD_TOPO_IX_KINDS
};

/* The index of name among kind's entries (those added since the last
 * call are indexed first); -1: none; -ENOMEM. */
int cxd_topo_find(struct cxd_topo *t, enum cxd_topo_ix kind,
		  const char *name);
/* *list (n entries of size bytes, kind's) with room for one more;
 * 0 or -ENOMEM. */
int cxd_topo_grow(struct cxd_topo *t, enum cxd_topo_ix kind, void **list,
		  int n, size_t size);
void cxd_topo_index_free(struct cxd_topo *t);

#endif
