/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology: the switch and link lines resolved at the file's end
 * (topo_resolve.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_err.h"
#include "topo_add.h"
#include "topo_links.h"
#include "topo_pend.h"
#include "topo_resolve.h"

/* The switch lines' switches and groups as indices: a name no host line
 * gives goes after those host lines give (a spine, a router with no
 * hosts), so the placement's indices stay as they were. */
static int declare(struct cxd_topo *t, char *err, size_t len)
{
	struct cxd_topo_pend *p = t->pend;

	for (int i = 0; p && i < p->nsw; i++) {
		struct pend_sw *s = &p->sw[i];

		s->sw = cxd_topo_intern(t, CXD_TOPO_IX_SWITCH, &t->switch_name,
					&t->nswitch_all, p->name[s->name]);
		s->grp = s->group < 0 ? -1 :
			 cxd_topo_intern(t, CXD_TOPO_IX_GROUP, &t->group_name,
					 &t->ngroup_all, p->name[s->group]);
		if (s->sw < 0 || (s->group >= 0 && s->grp < 0))
			return cxd_topo_oom(t, err, len);
	}
	return 0;
}

/* "group 'NAME'", or "no group". */
static const char *group_words(const struct cxd_topo *t, int g, char *buf,
			       size_t n)
{
	if (g < 0)
		return "no group";
	snprintf(buf, n, "group '%s'", t->group_name[g]);
	return buf;
}

/* Switch s put in group g at line at, and in group h at line l: the
 * later line is named, the earlier said. */
static int two_groups(const struct cxd_topo *t, int s, int at, int g, int l,
		      int h, char *err, size_t len)
{
	char one[CXD_TOPO_NAME + 16], two[CXD_TOPO_NAME + 16];

	if (at > l) {
		int swap = at;

		at = l;
		l = swap;
		swap = g;
		g = h;
		h = swap;
	}
	return cxd_topo_bad(err, len, "%s:%d: switch '%s' is in %s here but in "
			    "%s at line %d (a switch sits in one group)",
			    t->path, l, t->switch_name[s],
			    group_words(t, h, two, sizeof(two)),
			    group_words(t, g, one, sizeof(one)), at);
}

/* Switch s in group g, said at line l; strict: a group other than the
 * one said before is an error (else the first stays). */
static int put(struct cxd_topo *t, int *said_at, int s, int g, int l,
	       int strict, char *err, size_t len)
{
	if (said_at[s] == 0) {
		t->switch_group[s] = g;
		said_at[s] = l;
		return 0;
	}
	if (!strict || t->switch_group[s] == g)
		return 0;
	return two_groups(t, s, said_at[s], t->switch_group[s], l, g, err,
			  len);
}

/* Each switch's group: its host lines' and its switch line's. A file
 * of places only keeps its first host line's when they differ (as its
 * placement always has); where the file has links, they must agree. */
static int groups(struct cxd_topo *t, char *err, size_t len)
{
	size_t n = (size_t) t->nswitch_all + 1;
	int *said_at = calloc(n, sizeof(int)), ret = 0;

	t->switch_group = malloc(n * sizeof(int));
	if (said_at == NULL || t->switch_group == NULL) {
		free(said_at);
		return cxd_topo_oom(t, err, len);
	}
	for (int s = 0; s < t->nswitch_all; s++)
		t->switch_group[s] = -1;
	for (int i = 0; ret == 0 && i < t->nl; i++)
		ret = put(t, said_at, t->l[i].switch_ix, t->l[i].group_ix,
			  t->l[i].line, t->nlink > 0, err, len);
	for (int i = 0; ret == 0 && t->pend && i < t->pend->nsw; i++)
		ret = put(t, said_at, t->pend->sw[i].sw, t->pend->sw[i].grp,
			  t->pend->sw[i].line, 1, err, len);
	free(said_at);
	return ret;
}

/* The switch named name among all; -1: none. */
static int switch_ix(const struct cxd_topo *t, const char *name)
{
	for (int s = 0; s < t->nswitch_all; s++)
		if (strcmp(t->switch_name[s], name) == 0)
			return s;
	return -1;
}

/* The links' ends as switch indices, a < b; a name no host or switch
 * line gives is an error (the first such link named). */
static int ends(struct cxd_topo *t, char *err, size_t len)
{
	struct cxd_topo_pend *p = t->pend;

	if (t->nlink == 0)
		return 0;
	p->sw_of = malloc((size_t) p->nname * sizeof(int));
	if (p->sw_of == NULL)
		return cxd_topo_oom(t, err, len);
	for (int i = 0; i < p->nname; i++)
		p->sw_of[i] = switch_ix(t, p->name[i]);
	for (int i = 0; i < t->nlink; i++) {
		struct cxd_topo_link *l = &t->link[i];
		int a = p->sw_of[l->a], b = p->sw_of[l->b];

		if (a < 0 || b < 0)
			return cxd_topo_bad(err, len, "%s:%d: link %s %s: no "
					    "host or switch line names switch "
					    "'%s'", t->path, l->line,
					    p->name[l->a], p->name[l->b],
					    p->name[a < 0 ? l->a : l->b]);
		l->a = a < b ? a : b;
		l->b = a < b ? b : a;
	}
	return 0;
}

static int by_ends(const void *x, const void *y)
{
	const struct cxd_topo_link *l = x, *m = y;

	if (l->a != m->a)
		return l->a < m->a ? -1 : 1;
	if (l->b != m->b)
		return l->b < m->b ? -1 : 1;
	return (l->line > m->line) - (l->line < m->line);
}

/* The links sorted by their ends; two lines linking one pair are an
 * error naming both (the pair whose second line comes first). */
static int twice(struct cxd_topo *t, char *err, size_t len)
{
	const struct cxd_topo_link *again = NULL;

	if (t->nlink > 1)
		qsort(t->link, (size_t) t->nlink, sizeof(*t->link), by_ends);
	for (int i = 1; i < t->nlink; i++) {
		const struct cxd_topo_link *l = &t->link[i];

		if (l->a == l[-1].a && l->b == l[-1].b &&
		    (again == NULL || l->line < again->line))
			again = l;
	}
	if (again == NULL)
		return 0;
	return cxd_topo_bad(err, len, "%s:%d: switches '%s' and '%s' are "
			    "linked on two lines, %d and %d (one link line a "
			    "pair, COUNT its links)", t->path, again->line,
			    t->switch_name[again->a], t->switch_name[again->b],
			    again[-1].line, again->line);
}

/* The route rule: none without links; unsaid, minimal where a switch
 * has a group (a dragonfly), else ecmp (a tree). */
static int route(struct cxd_topo *t, char *err, size_t len)
{
	int grouped = 0;

	if (t->nlink == 0) {
		if (t->route_line)
			return cxd_topo_bad(err, len, "%s:%d: a route line "
					    "but no link lines: the route runs "
					    "over the links ('link A B "
					    "[COUNT]')", t->path,
					    t->route_line);
		t->route = CXD_TOPO_R_NONE;
		return 0;
	}
	if (t->route != CXD_TOPO_R_NONE)
		return 0;
	for (int s = 0; s < t->nswitch_all; s++)
		grouped |= t->switch_group[s] >= 0;
	t->route = grouped ? CXD_TOPO_R_MINIMAL : CXD_TOPO_R_ECMP;
	return 0;
}

int cxd_topo_resolve(struct cxd_topo *t, char *err, size_t len)
{
	int ret;

	t->nswitch_all = t->nswitch;
	t->ngroup_all = t->ngroup;
	ret = declare(t, err, len);
	if (ret == 0)
		ret = groups(t, err, len);
	if (ret == 0)
		ret = ends(t, err, len);
	if (ret == 0)
		ret = twice(t, err, len);
	if (ret == 0)
		ret = route(t, err, len);
	cxd_topo_links_done(t);
	return ret;
}
