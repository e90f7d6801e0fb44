/* SPDX-License-Identifier: BSD-3-Clause */
/* --topology's switch, link and route lines (topo_links.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_err.h"
#include "topo_links.h"
#include "topo_names.h"
#include "topo_pend.h"

/* v, or v grown to hold one more than its n items of size sz (capacity
 * *cap); NULL: no memory (v is kept). */
static void *grow(void *v, int n, int *cap, size_t sz)
{
	int want = *cap ? *cap * 2 : 16;
	void *bigger;

	if (n < *cap)
		return v;
	bigger = realloc(v, (size_t) want * sz);
	if (bigger)
		*cap = want;
	return bigger;
}

/* The pending index of name, added when new; -1: no memory. Linear:
 * the names are the switches and groups, a thousand or so. */
static int pend_name(struct cxd_topo_pend *p, const char *name)
{
	void *more;

	for (int i = p->nname - 1; i >= 0; i--)
		if (strcmp(p->name[i], name) == 0)
			return i;
	more = grow(p->name, p->nname, &p->cap_name, sizeof(*p->name));
	if (more == NULL)
		return -1;
	p->name = more;
	snprintf(p->name[p->nname], CXD_TOPO_NAME, "%s", name);
	return p->nname++;
}

static struct cxd_topo_pend *pend_of(struct cxd_topo *t)
{
	if (t->pend == NULL)
		t->pend = calloc(1, sizeof(*t->pend));
	return t->pend;
}

void cxd_topo_links_done(struct cxd_topo *t)
{
	if (t->pend == NULL)
		return;
	free(t->pend->name);
	free(t->pend->sw_of);
	free(t->pend->sw);
	free(t->pend);
	t->pend = NULL;
}

/* A switch or group name of a switch or link line: the rule every
 * name of the file follows (topo_names.h); NULL passes. */
static int bad_name(const struct cxd_topo *t, const char *what,
		    const char *name, int line, char *err, size_t len)
{
	return name ? cxd_topo_name_ok(t, what, name, line, err, len) : 0;
}

int cxd_topo_links_switch(struct cxd_topo *t, const char *name,
			  const char *group, int line, char *err, size_t len)
{
	struct cxd_topo_pend *p = pend_of(t);
	struct pend_sw s = { .group = -1, .line = line };
	void *more;

	if (bad_name(t, "switch", name, line, err, len) ||
	    bad_name(t, "group", group, line, err, len))
		return -EINVAL;
	if (p == NULL || (s.name = pend_name(p, name)) < 0 ||
	    (group && (s.group = pend_name(p, group)) < 0))
		return cxd_topo_oom(t, err, len);
	for (int i = 0; i < p->nsw; i++)
		if (p->sw[i].name == s.name)
			return cxd_topo_bad(err, len, "%s:%d: switch '%s' is "
					    "declared twice (first at line %d)",
					    t->path, line, name, p->sw[i].line);
	more = grow(p->sw, p->nsw, &p->cap_sw, sizeof(*p->sw));
	if (more == NULL)
		return cxd_topo_oom(t, err, len);
	p->sw = more;
	p->sw[p->nsw++] = s;
	return 0;
}

int cxd_topo_links_add(struct cxd_topo *t, const char *a, const char *b,
		       int count, int line, char *err, size_t len)
{
	struct cxd_topo_pend *p = pend_of(t);
	struct cxd_topo_link l = { .count = count, .line = line };
	void *more;

	if (bad_name(t, "switch", a, line, err, len) ||
	    bad_name(t, "switch", b, line, err, len))
		return -EINVAL;
	if (strcmp(a, b) == 0)
		return cxd_topo_bad(err, len, "%s:%d: a link from switch '%s' "
				    "to itself", t->path, line, a);
	if (p == NULL || (l.a = pend_name(p, a)) < 0 ||
	    (l.b = pend_name(p, b)) < 0)
		return cxd_topo_oom(t, err, len);
	more = grow(t->link, t->nlink, &p->cap_link, sizeof(*t->link));
	if (more == NULL)
		return cxd_topo_oom(t, err, len);
	t->link = more;
	t->link[t->nlink++] = l;
	return 0;
}

/* The words of rest before a comment, at most max + 1 (one more than a
 * line may have tells it has too many). */
static int words(char *rest, char **w, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *tok = rest ? strtok_r(rest, " \t\r\n", &save) : NULL;
	     tok && tok[0] != '#' && n <= max;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = tok;
	return n;
}

/* COUNT: digits only, 1..CXD_TOPO_LINK_MAX; NULL (not said) is 1. */
static int count_of(const char *s, int *out)
{
	char *end;
	long v;

	*out = 1;
	if (s == NULL)
		return 0;
	if (!isdigit((unsigned char) s[0]))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > CXD_TOPO_LINK_MAX)
		return -1;
	*out = (int) v;
	return 0;
}

static int link_line(struct cxd_topo *t, char *rest, int line, char *err,
		     size_t len)
{
	char *w[4];
	int n = words(rest, w, 3), count;

	if (n < 2)
		return cxd_topo_bad(err, len, "%s:%d: expected 'link A B "
				    "[COUNT]', got %d name%s", t->path, line,
				    n, n == 1 ? "" : "s");
	if (n > 3)
		return cxd_topo_bad(err, len, "%s:%d: link %s %s: too many "
				    "fields at '%s' (expected 'link A B "
				    "[COUNT]')", t->path, line, w[0], w[1],
				    w[3]);
	if (count_of(n == 3 ? w[2] : NULL, &count))
		return cxd_topo_bad(err, len, "%s:%d: link %s %s: count '%s': "
				    "expected a whole number from 1 to %d "
				    "(the links between the two)", t->path,
				    line, w[0], w[1], w[2], CXD_TOPO_LINK_MAX);
	return cxd_topo_links_add(t, w[0], w[1], count, line, err, len);
}

static int switch_line(struct cxd_topo *t, char *rest, int line, char *err,
		       size_t len)
{
	char *w[3];
	int n = words(rest, w, 2);

	if (n == 0)
		return cxd_topo_bad(err, len, "%s:%d: expected 'switch NAME "
				    "[GROUP]', got no name", t->path, line);
	if (n > 2)
		return cxd_topo_bad(err, len, "%s:%d: switch %s: too many "
				    "fields at '%s' (expected 'switch NAME "
				    "[GROUP]')", t->path, line, w[0], w[2]);
	return cxd_topo_links_switch(t, w[0], n == 2 ? w[1] : NULL, line,
				     err, len);
}

static int route_line(struct cxd_topo *t, char *rest, int line, char *err,
		      size_t len)
{
	char *w[2];
	int n = words(rest, w, 1);

	if (n == 0)
		return cxd_topo_bad(err, len, "%s:%d: expected 'route minimal' "
				    "or 'route ecmp', got no rule", t->path,
				    line);
	if (n > 1)
		return cxd_topo_bad(err, len, "%s:%d: route %s: too many "
				    "fields at '%s' (expected 'route minimal' "
				    "or 'route ecmp')", t->path, line, w[0],
				    w[1]);
	if (t->route_line)
		return cxd_topo_bad(err, len, "%s:%d: route '%s': the route is "
				    "stated twice (first at line %d)", t->path,
				    line, w[0], t->route_line);
	if (strcmp(w[0], "minimal") == 0)
		t->route = CXD_TOPO_R_MINIMAL;
	else if (strcmp(w[0], "ecmp") == 0)
		t->route = CXD_TOPO_R_ECMP;
	else
		return cxd_topo_bad(err, len, "%s:%d: route '%s': the rules "
				    "are minimal and ecmp", t->path, line,
				    w[0]);
	t->route_line = line;
	return 0;
}

int cxd_topo_links_word(const char *word)
{
	return strcmp(word, "switch") == 0 || strcmp(word, "link") == 0 ||
	       strcmp(word, "route") == 0;
}

int cxd_topo_links_line(struct cxd_topo *t, const char *kw, char *rest,
			int line, char *err, size_t len)
{
	if (strcmp(kw, "link") == 0)
		return link_line(t, rest, line, err, len);
	if (strcmp(kw, "switch") == 0)
		return switch_line(t, rest, line, err, len);
	return route_line(t, rest, line, err, len);
}

void cxd_topo_links_free(struct cxd_topo *t)
{
	cxd_topo_links_done(t);
	free(t->link);
	free(t->switch_group);
	t->link = NULL;
	t->switch_group = NULL;
	t->nlink = t->route = t->route_line = 0;
	t->nswitch_all = t->ngroup_all = 0;
}
