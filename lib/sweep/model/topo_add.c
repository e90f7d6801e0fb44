/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology: the placements read, whichever the file's format. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_add.h"
#include "topo_index.h"
#include "topo_links.h"
#include "topo_names.h"

/* Index of name in kind's list (count *n), added when new; -1: no
 * memory. */
static int intern(struct cxd_topo *t, enum cxd_topo_ix kind,
		  char (**list)[CXD_TOPO_NAME], int *n, const char *name)
{
	int i = cxd_topo_find(t, kind, name);

	if (i != -1)
		return i >= 0 ? i : -1;
	if (cxd_topo_grow(t, kind, (void **) list, *n, sizeof(**list)))
		return -1;
	snprintf((*list)[*n], CXD_TOPO_NAME, "%s", name);
	return (*n)++;
}

int cxd_topo_intern(struct cxd_topo *t, enum cxd_topo_ix kind,
		    char (**list)[CXD_TOPO_NAME], int *n, const char *name)
{
	/* past the host lines' names, which the index holds: few (the
	 * switch lines'), looked up one by one */
	for (int i = 0; i < *n; i++)
		if (strcmp((*list)[i], name) == 0)
			return i;
	if (cxd_topo_grow(t, kind, (void **) list, *n, sizeof(**list)))
		return -1;
	snprintf((*list)[*n], CXD_TOPO_NAME, "%s", name);
	return (*n)++;
}

/* name placed again at line, on switch sname; first: where it was. */
static int twice(const struct cxd_topo *t, const struct cxd_topo_line *first,
		 const char *sname, int line, char *err, size_t len)
{
	const char *was = t->switch_name[first->switch_ix];
	int k = snprintf(err, len, "%s:%d: '%s' is placed twice (first at "
			 "line %d)", t->path, line, first->name, first->line);

	if (strcmp(was, sname) != 0 && k >= 0 && (size_t) k < len)
		snprintf(err + k, len - (size_t) k, ", on switch '%s' here and "
			 "'%s' there: a host sits on one switch", sname, was);
	return -EINVAL;
}

int cxd_topo_add(struct cxd_topo *t, const char *name, const char *sname,
		 const char *gname, int line, char *err, size_t len)
{
	const char *f[3] = { name, sname, gname };
	static const char *const what[3] = { "host", "switch", "group" };
	struct cxd_topo_line *l;
	int first;

	/* Names every output carries: refused here, never mangled. */
	for (int i = 0; i < 3; i++)
		if (f[i] && cxd_topo_name_ok(t, what[i], f[i], line, err, len))
			return -EINVAL;
	first = cxd_topo_find(t, CXD_TOPO_IX_LINE, name);
	if (first >= 0)
		return twice(t, &t->l[first], sname, line, err, len);
	if (t->nl >= CXD_TOPO_MAX_LINES) {
		snprintf(err, len, "%s:%d: over %d hosts placed (a file of the "
			 "largest machine's NICs places about 50,000)", t->path,
			 line, CXD_TOPO_MAX_LINES);
		return -EINVAL;
	}
	if (first < -1 || cxd_topo_grow(t, CXD_TOPO_IX_LINE, (void **) &t->l,
					t->nl, sizeof(*t->l)))
		goto oom;
	l = &t->l[t->nl++];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->line = line;
	l->switch_ix = intern(t, CXD_TOPO_IX_SWITCH, &t->switch_name,
			      &t->nswitch, sname);
	l->group_ix = gname ? intern(t, CXD_TOPO_IX_GROUP, &t->group_name,
				     &t->ngroup, gname) : -1;
	if (l->switch_ix >= 0 && (gname == NULL || l->group_ix >= 0))
		return 0;
oom:
	snprintf(err, len, "%s: out of memory", t->path);
	return -ENOMEM;
}

const char *const cxd_topo_wkind_names[CXD_TOPO_W_KINDS] = {
	"local", "global", "uplink"
};

int cxd_topo_add_width(struct cxd_topo *t, const char *kind, const char *n,
		       int line, char *err, size_t len)
{
	struct cxd_topo_width *w = NULL;
	char *end;
	long v;

	for (int k = 0; k < CXD_TOPO_W_KINDS; k++)
		if (kind && strcmp(kind, cxd_topo_wkind_names[k]) == 0)
			w = &t->width[k];
	if (w == NULL) {
		snprintf(err, len, "%s:%d: width '%s': the kinds are local, "
			 "global and uplink ('width KIND N')", t->path, line,
			 kind ? kind : "");
		return -EINVAL;
	}
	errno = 0;
	v = n ? strtol(n, &end, 10) : 0;
	if (n == NULL || errno || end == n || *end || v < 1 || v > INT_MAX) {
		snprintf(err, len, "%s:%d: width %s '%s': expected a positive "
			 "integer (pairs at full rate)", t->path, line, kind,
			 n ? n : "");
		return -EINVAL;
	}
	if (w->src == CXD_TOPO_WS_STATED) {
		snprintf(err, len, "%s:%d: width %s is stated twice (first at "
			 "line %d)", t->path, line, kind, w->line);
		return -EINVAL;
	}
	*w = (struct cxd_topo_width){ .pairs = (int) v,
				      .src = CXD_TOPO_WS_STATED,
				      .line = line };
	return 0;
}

void cxd_topo_free(struct cxd_topo *t)
{
	cxd_topo_links_free(t);
	free(t->l);
	free(t->switch_name);
	free(t->group_name);
	cxd_topo_index_free(t);
	t->l = NULL;
	t->switch_name = t->group_name = NULL;
	t->nl = t->nswitch = t->ngroup = 0;
}
