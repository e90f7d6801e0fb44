/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --topology's fabric lines (topo_links.c), beside the host lines:
 *
 *   switch NAME [GROUP]     a switch, with or without hosts (a spine)
 *   link A B [COUNT]        COUNT links (1..65535, 1 if not said)
 *   route minimal|ecmp      how pairs are routed, at most once
 *
 * Names are kept as the lines spell them until the file's end, since
 * the host and switch lines naming a link's switches may come after it;
 * then cxd_topo_resolve resolves them (docs/topology.md).
 */
#ifndef CXD_SWEEP_TOPO_LINKS_H
#define CXD_SWEEP_TOPO_LINKS_H

#include <stddef.h>

#include "topo_types.h"

/* The most links one link line may count. */
#define CXD_TOPO_LINK_MAX 65535

/* Is word the first word of one of these lines? */
int cxd_topo_links_word(const char *word);
/* The line whose first word is kw; rest: the line after it (split here;
 * a word beginning with # ends it). An error names the file, the line
 * and the value. */
int cxd_topo_links_line(struct cxd_topo *t, const char *kw, char *rest,
			int line, char *err, size_t len);
/* A switch declared (group NULL: none), as a switch line does; a
 * switch declared twice is an error naming both lines. */
int cxd_topo_links_switch(struct cxd_topo *t, const char *name,
			  const char *group, int line, char *err, size_t len);
/* count links between switches a and b, as a link line says. */
int cxd_topo_links_add(struct cxd_topo *t, const char *a, const char *b,
		       int count, int line, char *err, size_t len);
/* The lines as read dropped, once resolved (topo_resolve.c). */
void cxd_topo_links_done(struct cxd_topo *t);
/* Frees what these lines added to t. */
void cxd_topo_links_free(struct cxd_topo *t);

#endif
